"""Issue 24, helper cfg108 (session 26): a launcher running a user's own script named like one of TRL's examples.

`torchrun $PROJECT_DIR/src/sft/sft.py --config $CONFIG` (round 82m's MaxLSB sft_job.sh) was read as TRL's own sft.py
(hf_transformers._trl_command: "sft.py: trl command"), its YAML taken for TRL's fields, although the sft.py it runs is
here and is the user's own: an argparse `--config` whose YAML it yaml.safe_loads and reads by name
(`config["model"]["attn_implementation"]`, `train_cfg.get("bf16")`). configs.detect now reads such a launch through the
script (configs._read_through) when the claim rests on TRL's example name alone, the script is here, reads as the same
trainer, and its own argparse takes every option the launch gives it. A TRL-style script here (TrlParser) and a
launch whose options the script does not declare read as before.

Every variant below is written here (none is a file of a round); all but the option-the-script-does-not-take guard
fail without the change (checked against the session's start code: required [] and dtype None, the YAML read as TRL's
fields; a dpo.py given a JSON refused; the TrlParser script's hand-over not named).
"""

from __future__ import annotations

import textwrap

from attn_doctor import configs

_OWN_SCRIPT = """
    import argparse, json
    import yaml
    import torch
    from transformers import AutoModelForCausalLM
    from trl import {cls}, {trainer}

    def read_settings(path):
        with open(path) as fh:
            return {parse}(fh)

    def build_model(settings):
        mcfg = settings["model"]
        kwargs = dict(trust_remote_code=True)
        if mcfg.get("attn_implementation"):
            kwargs["attn_implementation"] = mcfg["attn_implementation"]
        return AutoModelForCausalLM.from_pretrained(mcfg["name"], **kwargs)

    def build_args(settings):
        t = settings["train"]
        return {cls}(output_dir=t.get("output_dir", "out"), fp16=bool(t.get("fp16")), bf16=bool(t.get("bf16")))

    def run(settings):
        {trainer}(model=build_model(settings), args=build_args(settings)).train()

    def main():
        ap = argparse.ArgumentParser()
        ap.add_argument("{flag}", required=True)
        args = ap.parse_args()
        run(read_settings(args.{attr}))

    if __name__ == "__main__":
        main()
    """

_SETTINGS = {"model": {"name": "org/lm-1b", "attn_implementation": "sdpa"},
             "train": {"output_dir": "runs/a", "fp16": True, "bf16": False}}


def _repo(tmp_path, script_name: str, script: str, settings_name: str, settings_text: str, launcher: str):
    (tmp_path / "jobs").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "configs").mkdir()
    (tmp_path / "src" / script_name).write_text(textwrap.dedent(script))
    (tmp_path / "configs" / settings_name).write_text(settings_text)
    job = tmp_path / "jobs" / "job.sh"
    job.write_text(textwrap.dedent(launcher))
    return job


def test_container_path_to_own_grpo_script_is_read_through(tmp_path):
    import yaml

    job = _repo(tmp_path, "grpo.py", _OWN_SCRIPT.format(cls="GRPOConfig", trainer="GRPOTrainer", parse="yaml.safe_load",
                                                        flag="--config", attr="config"),
                "run.yaml", yaml.safe_dump(_SETTINGS), """\
        #!/bin/bash
        ROOT=/workspace/lab-repo
        accelerate launch --num_processes 4 "$ROOT/src/grpo.py" --config "$ROOT/configs/run.yaml"
        """)
    got = configs.load(str(job))
    assert (got["trainer"], got["required"], got["dtype"]) == ("transformers", ["sdpa"], "float16")
    assert "runs grpo.py with options its own argparse takes" in got["detected"]["evidence"][0]


def test_relative_path_to_own_dpo_script_with_json_settings(tmp_path):
    import json

    settings = {"model": {"name": "org/lm-1b", "attn_implementation": "flash_attention_2"},
                "train": {"bf16": True}}
    job = _repo(tmp_path, "dpo.py", _OWN_SCRIPT.format(cls="DPOConfig", trainer="DPOTrainer", parse="json.load",
                                                       flag="--config", attr="config"),
                "dpo.json", json.dumps(settings), """\
        #!/bin/bash
        cd "$(dirname "$0")/.."
        python src/dpo.py --config configs/dpo.json
        """)
    got = configs.load(str(job))
    assert (got["trainer"], got["required"], got["dtype"]) == ("transformers", ["fa2"], "bfloat16")


def test_gpu_decided_autocast_stays_unknown_through_the_launch(tmp_path):
    """bf16 where torch.cuda.is_bf16_supported() answers True: the launch reaches the script's attention setting, and
    the dtype stays the GPU's to decide (None), as the script read alone says it."""
    import yaml

    script = _OWN_SCRIPT.format(cls="SFTConfig", trainer="SFTTrainer", parse="yaml.safe_load", flag="--config",
                                attr="config").replace(
        'bf16=bool(t.get("bf16"))', 'bf16=bool(t.get("bf16")) and torch.cuda.is_bf16_supported()')
    job = _repo(tmp_path, "sft.py", script, "sft.yaml",
                yaml.safe_dump({"model": {"name": "org/lm-1b", "attn_implementation": "flash_attention_2"},
                                "train": {"bf16": True}}), """\
        #!/bin/bash
        torchrun --nproc_per_node=2 src/sft.py --config configs/sft.yaml
        """)
    got = configs.load(str(job))
    assert (got["trainer"], got["required"], got["dtype"]) == ("transformers", ["fa2"], None)


def test_option_the_script_does_not_take_reads_as_before(tmp_path):
    """The launch gives the script an option its argparse does not declare: not read through (it would fail there);
    the reading is the one before the change (TRL's example name)."""
    import yaml

    job = _repo(tmp_path, "sft.py", _OWN_SCRIPT.format(cls="SFTConfig", trainer="SFTTrainer", parse="yaml.safe_load",
                                                       flag="--settings", attr="settings"),
                "sft.yaml", yaml.safe_dump(_SETTINGS), """\
        #!/bin/bash
        torchrun --nproc_per_node=2 src/sft.py --config configs/sft.yaml
        """)
    got = configs.load(str(job))
    assert got["detected"]["evidence"][0] == "sft.py: trl command"


def test_trl_style_script_here_reads_its_config_as_trl_fields(tmp_path):
    """A TRL-style sft.py that is here (TrlParser over SFTConfig / ModelConfig) is read through too: its `--config`
    YAML is the parser's defaults (configs._script_argv), the same reading as the YAML read as TRL's fields."""
    script = """
        from trl import ModelConfig, ScriptArguments, SFTConfig, SFTTrainer, TrlParser
        def main(script_args, training_args, model_args):
            training_args.model_init_kwargs = dict(attn_implementation=model_args.attn_implementation,
                                                   dtype=model_args.dtype)
            SFTTrainer(model=model_args.model_name_or_path, args=training_args).train()
        if __name__ == "__main__":
            parser = TrlParser((ScriptArguments, SFTConfig, ModelConfig))
            main(*parser.parse_args_and_config())
        """
    job = _repo(tmp_path, "sft.py", script, "recipe.yaml", textwrap.dedent("""\
        model_name_or_path: org/lm-1b
        attn_implementation: flash_attention_2
        dtype: bfloat16
        dataset_name: org/chat
        bf16: true
        output_dir: out
        """), """\
        #!/bin/bash
        accelerate launch src/sft.py --config configs/recipe.yaml
        """)
    got = configs.load(str(job))
    assert (got["trainer"], got["required"], got["dtype"]) == ("transformers", ["fa2"], "bfloat16")
    assert got["detected"]["evidence"][0].startswith("job.sh runs sft.py with options")
