"""Issue 24, helper cfg88 (session 21): real Hydra training apps (fixtures/configs/real/hydra/, read by
tests/test_configs_real.py) and the Hydra mechanism they use that cfg87's composition lacked: the launch's
`--config-name NAME` / `-cn NAME` (hydra.cc 1.3 "Hydra's command line flags": it replaces the `config_name` of
`@hydra.main`), seen in leo-liuzy/CodeUpdateArena's scripts/ft_u.sh (`ft_test_bed.py --config-name=lora_zs usage=eval
...`), which main refused as "a Hydra app ... which attn-doctor does not read yet". `--config-path` / `-cp` (another
config folder) stayed refused until cfg93 (session 22) read it. Every file here is written by cfg88 for these tests,
on cfg87's app (test_configs_cfg87)."""

from __future__ import annotations

import pytest

from attn_doctor.configs.pyscript.hydra_compose import Refused, config_flags
from configs_corpus import put, trainer_reading
from test_configs_cfg87 import _launch, _repo

# a second primary config beside conf/config.yaml: the run `--config-name fast` composes this one instead
FAST = "defaults:\n  - model: qwen\n  - training: qlora\n  - _self_\n\noutput_dir: outputs\n"


@pytest.mark.parametrize("line, want", [
    ("python src/train.py --config-name fast", ("transformers", ["fa2"], "bfloat16")),
    ("python src/train.py --config-name=fast.yaml", ("transformers", ["fa2"], "bfloat16")),
    ("python src/train.py -cn fast model=eager", ("transformers", [], "bfloat16")),
    ("python src/train.py --config-name=config model=qwen", ("transformers", ["fa2"], None)),
])
def test_the_config_name_flag_chooses_the_primary_config(tmp_path, line, want):
    """(main: refused, "looks like a Hydra app ... which attn-doctor does not read yet")"""
    _repo(tmp_path)
    put(tmp_path, "conf/fast.yaml", FAST)
    assert trainer_reading(_launch(tmp_path, line)) == want


@pytest.mark.parametrize("line", [
    "python src/train.py --config-name missing",  # a primary config not here: Hydra fails, nothing composed here
    "python src/train.py --config-path ../other --config-name fast",  # another folder, not here (cfg93 reads one here)
    "python src/train.py -cn $CONFIG",  # chosen at run time
])
def test_a_primary_config_not_known_here_stays_refused(tmp_path, line):
    _repo(tmp_path)
    put(tmp_path, "conf/fast.yaml", FAST)
    assert trainer_reading(_launch(tmp_path, line)) == "refused"


def test_config_name_flag_on_its_own():
    # (rev22: config_name_flag, its one caller gone since cfg93, was removed; config_flags reads the same words)
    assert config_flags(["-cn", "a", "x=1"]) == ("a", None, None, ["x=1"])
    assert config_flags(["--config-name=b.yaml", "+y=2"]) == ("b", None, None, ["+y=2"])
    assert config_flags(["m=q"]) == (None, None, None, ["m=q"])
    # (cfg93: the config folder flags are read, config_flags, no longer refused: tests/test_configs_cfg93.py)
    assert config_flags(["-cp", "conf2", "-cn", "a"]) == ("a", "conf2", None, [])
    assert config_flags(["-cp", "conf2", "--config-dir=/x", "-cn", "a", "m=q"]) == ("a", "conf2", "/x", ["m=q"])
    with pytest.raises(Refused):
        config_flags(["-cp", "$CONF_DIR"])
