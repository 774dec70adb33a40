"""rv7's review (session 7), item 3: code smells removed without changing any answer, on the config side.
musubi-tuner's --config_file named by a launcher is looked for where the launcher's run finds it (references.locate);
the second search beside the launcher's folder and one level up (musubi._read_side_toml) ran after it as well. It is
now for a command line read alone. (configs/__init__.py _script_beside's `endswith` went too: its basename test implies
it, so no test can tell the two apart.) The launchers here are written for the test."""

from __future__ import annotations

import pytest

from attn_doctor import configs
from attn_doctor.configs import musubi

MUSUBI = ("accelerate launch src/musubi_tuner/wan_train_network.py --task t2v-14B --dit wan.safetensors "
          "--sdpa --mixed_precision bf16 --network_module networks.lora_wan --config_file {name}\n")


@pytest.mark.parametrize("name", ["missing.toml", "configs/missing", "../up/missing.toml"])
def test_a_launchers_config_file_is_looked_for_by_locate_alone(tmp_path, monkeypatch, name):
    (tmp_path / "run.sh").write_text("#!/bin/bash\n" + MUSUBI.format(name=name))

    def second_search(*a, **k):
        raise AssertionError("searched again after references.locate")

    monkeypatch.setattr(musubi, "_read_side_toml", second_search)
    cfg = configs.load(str(tmp_path / "run.sh"))
    assert cfg["detected"]["trainer"] == "musubi" and cfg["unread"]


def test_a_command_line_alone_still_reads_its_config_file_beside_it(tmp_path):
    (tmp_path / "job.toml").write_text("sdpa = false\nxformers = true\nsplit_attn = true\n")
    (tmp_path / "cmd.txt").write_text(MUSUBI.format(name="job").replace("--sdpa ", ""))
    cfg = configs.load(str(tmp_path / "cmd.txt"))
    assert "xformers" in cfg["required"], cfg["required"]


@pytest.mark.parametrize("name, where", [("job", "job.toml"), ("cfg/job.toml", "cfg/job.toml")])
def test_near_miss_a_launchers_config_file_that_is_there_is_read_by_locate(tmp_path, name, where):
    (tmp_path / where).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / where).write_text("sdpa = false\nxformers = true\nsplit_attn = true\n")
    (tmp_path / "run.sh").write_text("#!/bin/bash\n" + MUSUBI.format(name=name).replace("--sdpa ", ""))
    cfg = configs.load(str(tmp_path / "run.sh"))
    assert "xformers" in cfg["required"] and not cfg.get("unread"), (cfg["required"], cfg.get("unread"))
