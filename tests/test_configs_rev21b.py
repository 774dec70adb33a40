"""What review rev21 found in the configs reading and rev21b mended (session 21). Every file here was written by hand for
these tests (2026-11-30).

  app-here   a launch (`scripts/run.sh`) that runs `python src/train.py ...` of a PyTorch Lightning Hydra app no reader
             claims was refused with "train.py is not here", although src/train.py is there: the command's script was looked
             for by its name beside the launch file. Now it is looked for where the command names it, and the refusal says
             what it is (a script of a framework attn-doctor does not read). A script that really is not here is still said
             to be missing.
  plus       Hydra's `+` appends (hydra.cc 1.3, "Override grammar/Basic": "Appending to Defaults List: +db=mysql",
             "Appending a config value: +foo.bar=value"): Hydra refuses `+GROUP=OPTION` for a group the defaults list already
             has ("Could not add 'model=qwen'. 'model' is already in the defaults list.") and `+KEY=VALUE` for a key the
             composed config already holds a value at ("Could not append to config. An item is already at 'training.bf16'."),
             both of which cfg87's compose accepted. Now refused as Hydra does; `++` and a `+` of what is not there stay read.
"""

from __future__ import annotations

import pytest

from attn_doctor import configs
from attn_doctor.model import UsageError
from attn_doctor.configs.pyscript.hydra_compose import Refused, compose
from configs_corpus import put, trainer_reading
from test_configs_cfg87 import _launch, _loader, _repo

LIGHTNING = '''import hydra
import lightning as L
from omegaconf import DictConfig


@hydra.main(version_base="1.3", config_path="../configs", config_name="train.yaml")
def main(cfg: DictConfig):
    model = hydra.utils.instantiate(cfg.model)
    trainer = hydra.utils.instantiate(cfg.trainer)
    trainer.fit(model)


if __name__ == "__main__":
    main()
'''


def _refusal(path) -> str:
    with pytest.raises(UsageError) as e:
        configs.load(str(path))
    return str(e.value)


def test_a_launch_of_an_unclaimed_framework_app_says_what_it_is(tmp_path):
    put(tmp_path, "src/train.py", LIGHTNING)
    put(tmp_path, "configs/train.yaml", "defaults:\n  - model: vit\n  - _self_\nseed: 1\n")
    put(tmp_path, "configs/model/vit.yaml", "_target_: src.models.ViT\nlr: 0.001\n")
    msg = _refusal(put(tmp_path, "scripts/run.sh", "#!/bin/bash\npython src/train.py trainer=gpu model=vit\n"))
    assert "is not here" not in msg
    assert "PyTorch Lightning" in msg and "src/train.py" in msg


def test_a_launch_of_a_script_not_here_still_says_so(tmp_path):
    msg = _refusal(put(tmp_path, "scripts/run.sh", "#!/bin/bash\npython src/train.py trainer=gpu model=vit\n"))
    assert "is not here" in msg


# -- `+` appends -----------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("line", [
    "python src/train.py +model=qwen",  # model is in the defaults list: Hydra asks for model=qwen
    "python src/train.py +training.bf16=true",  # training/base.yaml sets bf16: Hydra asks for training.bf16=true or ++
])
def test_an_append_of_what_is_there_is_refused(tmp_path, line):
    _repo(tmp_path)
    assert trainer_reading(_launch(tmp_path, line)) == "refused"


@pytest.mark.parametrize("line, want", [
    ("python src/train.py model=qwen", ("transformers", ["fa2"], None)),
    ("python src/train.py ++training.bf16=true", ("transformers", ["sdpa"], "bfloat16")),
    ("python src/train.py +model.attn_implementation=flash_attention_2", ("transformers", ["fa2"], None)),
])
def test_near_misses_stay_read(tmp_path, line, want):
    _repo(tmp_path)
    assert trainer_reading(_launch(tmp_path, line)) == want


def test_compose_appends_as_hydra_does():
    files = {"config.yaml": "defaults:\n  - db: mysql\n  - _self_\nx: 1\nn: null\nd:\n  a: 1\n",
             "db/mysql.yaml": "host: h\n", "db/pg.yaml": "host: p\n", "cache/redis.yaml": "a: 1\n"}
    load = _loader(files)
    for words in (["+db=pg"], ["+x=2"], ["+db.host=q"]):
        with pytest.raises(Refused, match="already"):
            compose(load, "config", words)
    # a group not in the list, a value at null, a mapping merged in, a new key, `++`: Hydra takes them
    out, _ = compose(load, "config", ["+cache=redis", "+n=3", "+d={b: 2}", "+y=4", "++x=5"])
    assert out == {"db": {"host": "h"}, "cache": {"a": 1}, "x": 5, "n": 3, "d": {"a": 1, "b": 2}, "y": 4}
