"""Issue 24, helper cfg53 (session 12): what round 49m showed once it became training material.

Round 49m's misses, by mechanism (every variant below is synthetic, written here, not taken from any repository):
- danielostrow's sd-scripts launcher writes its --config_file TOML with `cat > "$CONFIG_FILE" << EOF` and passes
  `--config_file "$CONFIG_FILE"`, CONFIG_FILE="${PROJECT_ROOT}/configs/${PERSONA_ID}_lora_config.toml" with
  PROJECT_ROOT="$(dirname "$SCRIPT_DIR")": a spelling the file does not settle, so named_config gave up before looking
  at the text the script writes under that very spelling (config_file_unread, dtype unknown). The file the script
  writes under the spelling it then passes is that file, settled or not (configs.named_config).
- isalnikow86's `accelerate launch --multi_gpu scripts/train_lora.py --config configs/lora_config.yaml` was refused
  ("options attn-doctor does not read on a command line"): the script beside it takes no command line at all (no
  sys.argv, no parser, nothing of the user's own imported), so the options reach nobody and the run is the script as it
  is (pyscript.reads_no_command_line, configs._script_argv).
- harshashejwal's run_lora.sh (`accelerate launch train_lora.py --pretrained_model_name_or_path ... --instance_data_dir
  $INSTANCE_DIR --instance_prompt $INSTANCE_PROMPT ...` between `python preprocess.py --instance_data_dir $INSTANCE_DIR
  --instance_prompt $INSTANCE_PROMPT` and `python inference.py ... --instance_prompt $INSTANCE_PROMPT`) was read as a
  renamed copy of a diffusers example on its options alone; the repository's own scripts that are no trainer take the
  same data options, so those names are the repository's vocabulary, not the mark of an unmodified example
  (diffusers._own_scripts_share_options).
"""

from __future__ import annotations

import os
import textwrap

import pytest

from attn_doctor import configs
from attn_doctor.model import UsageError


def _write(root, rel: str, text: str) -> str:
    p = os.path.join(str(root), rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w", encoding="utf-8") as fh:
        fh.write(textwrap.dedent(text).lstrip("\n"))
    return p


# ---------------------------------------------------------------------------------------------------
# 1. a config file the script writes under a spelling it does not settle, then passes under the same spelling
# ---------------------------------------------------------------------------------------------------

_SDXL_TOML = """
[model_arguments]
pretrained_model_name_or_path = "${BASE}"

[additional_network_arguments]
network_module = "networks.lora"
network_dim = 16

[training_arguments]
output_dir = "${OUT}"
mixed_precision = "{mp}"
{attn}
"""

HEREDOC_LAUNCHERS = {
    # (name, launcher text with {toml}, expected dtype, expected attention backends)
    "dirname_root": ("""
        #!/bin/bash
        set -euo pipefail
        HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
        ROOT="$(dirname "$HERE")"
        NAME="${1:-}"
        CFG="${ROOT}/configs/${NAME}_cfg.toml"
        cat > "$CFG" << EOF
        {toml}
        EOF
        cd "${SD_SCRIPTS}"
        accelerate launch sdxl_train_network.py --config_file "$CFG" --enable_bucket
        """, "float32", []),
    "caller_dir_quoted_eof": ("""
        #!/usr/bin/env bash
        OUT_ROOT="$1"
        TOML_PATH="$OUT_ROOT/run.toml"
        cat >"$TOML_PATH" <<'TOML'
        {toml}
        TOML
        accelerate launch --num_cpu_threads_per_process 1 sdxl_train_network.py --config_file="$TOML_PATH"
        """, "bfloat16", ["xformers"]),
    "tmpdir_run_id": ("""
        #!/bin/sh
        TMP_CFG="${TMPDIR:-/tmp}/sd_${RUN_ID}.toml"
        cat > $TMP_CFG <<EOF
        {toml}
        EOF
        python sdxl_train_network.py --config_file $TMP_CFG
        """, "float16", ["sdpa"]),
}


@pytest.mark.parametrize("name", sorted(HEREDOC_LAUNCHERS))
def test_a_config_written_under_an_unsettled_name_is_read_where_the_launch_names_it(tmp_path, name):
    text, dtype, backends = HEREDOC_LAUNCHERS[name]
    mp = {"float32": "no", "bfloat16": "bf16", "float16": "fp16"}[dtype]
    attn = {(): "", ("xformers",): "xformers = true", ("sdpa",): "sdpa = true"}[tuple(backends)]
    toml = textwrap.dedent(_SDXL_TOML).strip("\n").replace("{mp}", mp).replace("{attn}", attn)
    # (the launcher is dedented first, then the TOML put in flush left: a here-document keeps its lines as written)
    launcher = textwrap.dedent(text).lstrip("\n").replace("{toml}", toml)
    p = _write(tmp_path, "scripts/train.sh", launcher)
    cfg = configs.load(p)
    assert cfg["trainer"] == "sd-scripts"
    assert not cfg.get("config_file_unread"), cfg
    assert cfg["dtype"] == dtype
    assert sorted(e["backend"] for e in cfg["attention"] if e.get("backend")) == backends


def test_an_unsettled_name_the_script_never_writes_stays_unread(tmp_path):
    """The near miss: the script writes one file and passes another of an unsettled spelling (the caller's own TOML):
    nothing is known about that one."""
    p = _write(tmp_path, "train.sh", """
        #!/bin/bash
        CFG="$1"
        cat > "$2" << EOF
        [training_arguments]
        mixed_precision = "bf16"
        sdpa = true
        EOF
        accelerate launch sdxl_train_network.py --config_file "$CFG"
        """)
    cfg = configs.load(p)
    assert cfg["trainer"] == "sd-scripts"
    assert cfg.get("config_file_unread") is True
    assert cfg["dtype"] is None


# ---------------------------------------------------------------------------------------------------
# 2. a launcher giving options to a script of its own that takes no command line
# ---------------------------------------------------------------------------------------------------

NO_CLI_SCRIPT = """
import os
import yaml
import torch
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

with open("configs/run.yaml") as f:
    config = yaml.safe_load(f)

model = AutoModelForCausalLM.from_pretrained(config["base_model"], torch_dtype=torch.float16)
args = TrainingArguments(output_dir=config["output_dir"], {precision}, torch_compile=True)
trainer = Trainer(model=model, args=args)
trainer.train()
"""

NO_CLI_LAUNCHES = {
    "accelerate_multi_gpu": "accelerate launch --multi_gpu \\\n  scripts/train.py \\\n  --config configs/run.yaml\n",
    "python_flags": "python scripts/train.py --epochs 3 --lr 2e-4\n",
    "torchrun_positional": "torchrun --nproc_per_node 2 scripts/train.py configs/run.yaml\n",
}


@pytest.mark.parametrize("launch", sorted(NO_CLI_LAUNCHES))
@pytest.mark.parametrize("precision,dtype", [("bf16=True", "bfloat16"), ("fp16=True", "float16")])
def test_options_to_a_script_that_takes_no_command_line_reach_nobody(tmp_path, launch, precision, dtype):
    _write(tmp_path, "scripts/train.py", NO_CLI_SCRIPT.replace("{precision}", precision))
    p = _write(tmp_path, "scripts/run.sh", "#!/bin/bash\n" + NO_CLI_LAUNCHES[launch])
    cfg = configs.load(p)
    assert cfg["trainer"] == "transformers"
    assert cfg["dtype"] == dtype
    assert cfg["compile"]["enabled"] is True and cfg["compile"]["mode"] == "default"
    assert any("takes no command line" in e for e in cfg["detected"]["evidence"]), cfg["detected"]["evidence"]


READERS_OF_ARGV = {
    "sys_argv": ("import sys\n", "config_path = sys.argv[1] if len(sys.argv) > 1 else 'configs/run.yaml'\n"),
    "argv_from_import": ("from sys import argv\n", "config_path = argv[-1]\n"),
    "own_module": ("from my_project.settings import cfg\n", ""),
    "relative_import": ("from .settings import cfg\n", ""),
    "fire": ("import fire\n", "fire.Fire(lambda **kw: kw)\n"),
    "hf_parser": ("from transformers import HfArgumentParser\n",
                  "(extra,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()\n"),
}


@pytest.mark.parametrize("name", sorted(READERS_OF_ARGV))
def test_a_script_that_may_read_its_command_line_keeps_the_refusal(tmp_path, name):
    """The near misses: a script naming sys.argv, a parser, or a module of the user's own (which may parse the command
    line when imported): the options may change the run, and the launch is refused with the command that reads the
    script, as before."""
    imp, use = READERS_OF_ARGV[name]
    src = NO_CLI_SCRIPT.replace("{precision}", "bf16=True")
    src = src.replace("import os\n", "import os\n" + imp, 1).replace("model = ", use + "model = ", 1)
    _write(tmp_path, "scripts/train.py", src)
    p = _write(tmp_path, "scripts/run.sh", "#!/bin/bash\n" + NO_CLI_LAUNCHES["accelerate_multi_gpu"])
    with pytest.raises(UsageError) as e:
        configs.load(p)
    assert "a script of its own" in str(e.value)


def test_the_script_alone_reads_the_same(tmp_path):
    p = _write(tmp_path, "scripts/train.py", NO_CLI_SCRIPT.replace("{precision}", "bf16=True"))
    cfg = configs.load(p)
    assert (cfg["trainer"], cfg["dtype"], cfg["compile"]["mode"]) == ("transformers", "bfloat16", "default")


# ---------------------------------------------------------------------------------------------------
# 3. a renamed copy of a diffusers example, or a pipeline of the repository's own in the examples' option names
# ---------------------------------------------------------------------------------------------------

_TRAIN = """accelerate launch --num_processes 1 {script} \\
  --pretrained_model_name_or_path=$MODEL_NAME \\
  --instance_data_dir=$DATA \\
  --output_dir=$OUT \\
  --instance_prompt="$PROMPT" \\
  --resolution=512 \\
  --train_batch_size=1 \\
  --learning_rate=1e-4 \\
  --max_train_steps=800 \\
  --checkpointing_steps=400
"""

_HEAD = """#!/bin/bash
export MODEL_NAME="some-org/some-diffusion-model"
export DATA="data/chair"
export OUT="out/chair"
export PROMPT="chair"
"""

OWN_PIPELINES = {
    # the repository's own scripts around the training one, over the same data in the examples' option names
    "preprocess_before": "python preprocess.py --instance_data_dir $DATA --instance_prompt $PROMPT\n" + _TRAIN,
    "inference_after": _TRAIN + "python infer_masks.py --image_dir $DATA --instance_prompt \"$PROMPT\" --out $OUT\n",
    "segment_then_train": "python tools/segment.py --instance_data_dir=$DATA\n" + _TRAIN
                          + "python tools/render.py --model_path $OUT\n",
}


@pytest.mark.parametrize("name", sorted(OWN_PIPELINES))
@pytest.mark.parametrize("script", ["train_lora.py", "src/lora_trainer.py"])
def test_a_pipeline_of_the_repositorys_own_scripts_is_no_renamed_example(tmp_path, name, script):
    p = _write(tmp_path, "run.sh", _HEAD + OWN_PIPELINES[name].replace("{script}", script))
    with pytest.raises(UsageError) as e:
        configs.load(p)
    assert os.path.basename(script) in str(e.value)


COPIES = {
    # a renamed copy of an example, beside scripts that take other options or none of the run's data
    "alone": _TRAIN,
    "caption_other_options": "python src/captioning/auto_caption.py $DATA --ontology configs/ontology.json\n" + _TRAIN,
    "inference_model_only": _TRAIN + "python infer.py --pretrained_model_name_or_path $MODEL_NAME --lora $OUT\n",
    "preprocess_other_folder": "python preprocess.py --instance_data_dir raw/chair --instance_prompt \"raw chair\"\n" + _TRAIN,
}


@pytest.mark.parametrize("name", sorted(COPIES))
def test_a_renamed_copy_of_an_example_still_reads_as_diffusers(tmp_path, name):
    p = _write(tmp_path, "run.sh", _HEAD + COPIES[name].replace("{script}", "train_lora.py"))
    cfg = configs.load(p)
    assert cfg["trainer"] == "diffusers"


def test_an_example_by_name_beside_the_repositorys_own_scripts_is_still_the_example(tmp_path):
    """The rule is about a script under a name of its own: diffusers' train_dreambooth_lora.py by name stays diffusers'
    whatever the scripts around it take."""
    text = "python preprocess.py --instance_data_dir $DATA --instance_prompt $PROMPT\n" + \
        _TRAIN.replace("{script}", "train_dreambooth_lora.py")
    cfg = configs.load(_write(tmp_path, "run.sh", _HEAD + text))
    assert cfg["trainer"] == "diffusers"


# ---------------------------------------------------------------------------------------------------
# 4. a launcher whose one live command prepares data
# ---------------------------------------------------------------------------------------------------

_COMMENTED_TRAIN = "".join("# " + ln + "\n" for ln in _TRAIN.replace("{script}", "train_lora.py").splitlines())

DATA_STEPS = {
    "preprocess_sam": "python preprocess_sam.py --instance_data_dir $DATA --instance_prompt $PROMPT\n",
    "prepare_dataset": "python3 scripts/prepare_dataset.py --src raw --dst $DATA --size 512\n",
    "caption_images": "python caption_images.py $DATA --model blip2 --batch_size 8\n",
    "tokenize": "python tokenize_data.py --input data/raw.jsonl --output data/tok --max_length 2048\n",
}


@pytest.mark.parametrize("name", sorted(DATA_STEPS))
@pytest.mark.parametrize("commented", [True, False])
def test_a_launcher_that_only_prepares_data_has_no_trainer_calls(tmp_path, name, commented):
    text = _HEAD + DATA_STEPS[name] + (_COMMENTED_TRAIN if commented else "")
    with pytest.raises(UsageError) as e:
        configs.load(_write(tmp_path, "run.sh", text))
    msg = str(e.value)
    assert "no trainer calls" in msg and "\n" not in msg


@pytest.mark.parametrize("name", sorted(DATA_STEPS))
def test_a_data_step_before_a_real_training_run_leaves_the_run_read(tmp_path, name):
    text = _HEAD + DATA_STEPS[name] + _TRAIN.replace("{script}", "train_dreambooth_lora.py")
    cfg = configs.load(_write(tmp_path, "run.sh", text))
    assert cfg["trainer"] == "diffusers"


@pytest.mark.parametrize("script", ["prepare_and_train.py", "preprocess_train_lora.py", "train_preprocess.py"])
def test_a_script_named_for_training_is_not_a_data_step(tmp_path, script):
    """A name with `train` in it is a training script of its own, refused as before (not as a data step)."""
    text = "#!/bin/bash\npython " + script + " --data data/x --epochs 3\n"
    with pytest.raises(UsageError) as e:
        configs.load(_write(tmp_path, "run.sh", text))
    assert "no trainer calls attn-doctor reads: it runs" not in str(e.value)


# ---------------------------------------------------------------------------------------------------
# 5. a settings file a Python script loads itself (round 49m's takahashiJe, round 51's insublee)
# ---------------------------------------------------------------------------------------------------

_YAML = "model:\n  name: some-org/some-7b\ntraining:\n  precision: \"{p}\"\n  bf16: {bf16}\n  fp16: {fp16}\n  lr: 2.0e-4\n"


def _yaml(p: str) -> str:
    return _YAML.replace("{p}", p).replace("{bf16}", str(p == "bf16").lower()).replace("{fp16}", str(p == "fp16").lower())


LOADERS = {
    # script text, where the YAML goes (relative to the repository root)
    "module_with_open": ("""
        import yaml
        from transformers import AutoModelForCausalLM, Trainer, TrainingArguments
        with open("configs/train.yaml") as f:
            config = yaml.safe_load(f)
        model = AutoModelForCausalLM.from_pretrained(config["model"]["name"])
        args = TrainingArguments(output_dir="out", bf16=config["training"]["bf16"], fp16=config["training"]["fp16"])
        Trainer(model=model, args=args).train()
        """, "configs/train.yaml"),
    "container_path_nested_dict": ("""
        import yaml
        from transformers import AutoModelForCausalLM, Trainer, TrainingArguments
        def main():
            with open("/workspace/configs/train.yaml", "r") as fh:
                cfg = yaml.safe_load(fh)
            targs = cfg["training"]
            model = AutoModelForCausalLM.from_pretrained(cfg["model"]["name"])
            args = TrainingArguments(output_dir="out", bf16=targs["bf16"], fp16=targs["fp16"])
            Trainer(model=model, args=args).train()
        if __name__ == "__main__":
            main()
        """, "configs/train.yaml"),
    "own_loader_argparse_default": ("""
        import argparse
        from pathlib import Path
        import yaml
        from transformers import AutoModelForCausalLM, Trainer, TrainingArguments
        def load_settings(path: Path) -> dict:
            text = path.read_text(encoding="utf-8")
            return yaml.safe_load(text)
        def run(settings_path: str = "conf/sft.yaml", seed: int = 0):
            s = load_settings(Path(settings_path))
            tr = s["training"]
            model = AutoModelForCausalLM.from_pretrained(s["model"]["name"])
            args = TrainingArguments(output_dir="out", bf16=str(tr["precision"]).lower() == "bf16",
                                     fp16=str(tr["precision"]).lower() == "fp16")
            Trainer(model=model, args=args).train()
        def main():
            ap = argparse.ArgumentParser()
            ap.add_argument("--settings", default="conf/sft.yaml")
            a = ap.parse_args()
            run(settings_path=a.settings)
        main()
        """, "conf/sft.yaml"),
    "json_loads_read_text": ("""
        import json
        from pathlib import Path
        from transformers import AutoModelForCausalLM, Trainer, TrainingArguments
        CFG = json.loads(Path("cfg/train.json").read_text())
        model = AutoModelForCausalLM.from_pretrained(CFG["model"]["name"])
        args = TrainingArguments(output_dir="out", bf16=CFG["training"]["precision"].upper() == "BF16",
                                 fp16=CFG["training"]["precision"].upper() == "FP16")
        Trainer(model=model, args=args).train()
        """, "cfg/train.json"),
}


def _settings_text(where: str, p: str) -> str:
    if where.endswith(".json"):
        import json
        return json.dumps({"model": {"name": "some-org/some-7b"}, "training": {"precision": p}})
    return _yaml(p)


@pytest.mark.parametrize("name", sorted(LOADERS))
@pytest.mark.parametrize("precision,dtype", [("bf16", "bfloat16"), ("fp16", "float16")])
def test_a_settings_file_the_script_loads_itself_is_read_where_its_run_finds_it(tmp_path, name, precision, dtype):
    src, where = LOADERS[name]
    _write(tmp_path, where, _settings_text(where, precision))
    p = _write(tmp_path, "scripts/train.py", src)
    cfg = configs.load(p)
    assert cfg["trainer"] == "transformers"
    assert cfg["dtype"] == dtype


@pytest.mark.parametrize("name", sorted(LOADERS))
def test_a_settings_file_that_is_not_here_leaves_the_precision_unknown(tmp_path, name):
    src, _where = LOADERS[name]
    cfg = configs.load(_write(tmp_path, "scripts/train.py", src))
    assert cfg["trainer"] == "transformers"
    assert cfg["dtype"] is None


def test_a_launchers_option_picks_the_settings_file(tmp_path):
    """`python scripts/train.py --settings conf/fp16.yaml`: the script's argparse takes the option, and the file it
    names is the one loaded (the default conf/sft.yaml says bf16)."""
    src, where = LOADERS["own_loader_argparse_default"]
    _write(tmp_path, where, _yaml("bf16"))
    _write(tmp_path, "conf/fp16.yaml", _yaml("fp16"))
    _write(tmp_path, "scripts/train.py", src)
    cfg = configs.load(_write(tmp_path, "run.sh", "#!/bin/bash\npython scripts/train.py --settings conf/fp16.yaml\n"))
    assert (cfg["trainer"], cfg["dtype"]) == ("transformers", "float16")


def _src(name: str) -> str:
    return textwrap.dedent(LOADERS[name][0]).lstrip("\n")


UNREAD = {
    # near misses: what the script loads is not settled here, so nothing is read from a file that happens to be there
    "bound_twice": _src("module_with_open").replace(
        "model = ", "config = yaml.safe_load(open(\"configs/other.yaml\"))\nmodel = ", 1),
    "path_built_at_run_time": _src("module_with_open").replace(
        'open("configs/train.yaml")', 'open(os.path.join(os.environ["CFG_DIR"], "train.yaml"))').replace(
        "import yaml", "import os\nimport yaml"),
    "loader_picks_its_own_file": _src("own_loader_argparse_default").replace(
        'text = path.read_text(encoding="utf-8")', 'text = Path("conf/sft.yaml").with_suffix(".bak").read_text()'),
    "callers_disagree": _src("own_loader_argparse_default").replace(
        "\nmain()\n", "\nmain()\nrun(settings_path=\"conf/other.yaml\")\n"),
}


@pytest.mark.parametrize("name", sorted(UNREAD))
def test_a_settings_file_not_settled_here_is_not_read(tmp_path, name):
    _write(tmp_path, "configs/train.yaml", _yaml("bf16"))
    _write(tmp_path, "configs/other.yaml", _yaml("bf16"))
    _write(tmp_path, "conf/sft.yaml", _yaml("bf16"))
    _write(tmp_path, "conf/other.yaml", _yaml("bf16"))
    cfg = configs.load(_write(tmp_path, "scripts/train.py", UNREAD[name]))
    assert cfg["trainer"] == "transformers"
    assert cfg["dtype"] is None


def test_unsloth_reads_the_loaded_settings_too(tmp_path):
    _write(tmp_path, "configs/train_lora.yaml", _yaml("bf16"))
    p = _write(tmp_path, "scripts/train_lora.py", """
        import argparse
        from pathlib import Path
        import yaml
        from unsloth import FastLanguageModel
        from trl import SFTConfig, SFTTrainer
        def load_config(path: Path):
            return yaml.safe_load(path.read_text())
        def run_training(config_path: str = "configs/train_lora.yaml"):
            cfg = load_config(Path(config_path))
            train_cfg = cfg["training"]
            model, tok = FastLanguageModel.from_pretrained(model_name=cfg["model"]["name"], dtype=None, load_in_4bit=True)
            args = SFTConfig(output_dir="out", bf16=str(train_cfg["precision"]).lower() == "bf16",
                             fp16=str(train_cfg["precision"]).lower() == "fp16")
            SFTTrainer(model=model, args=args).train()
        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--config", type=str, default="configs/train_lora.yaml")
            args = parser.parse_args()
            run_training(config_path=args.config)
        if __name__ == "__main__":
            main()
        """)
    cfg = configs.load(p)
    assert (cfg["trainer"], cfg["dtype"]) == ("unsloth", "bfloat16")


@pytest.mark.parametrize("src,name", [("x = 'BF16'\nx = str(x)\nx = x.lower()\n", "x"),
                                      ("a = str(b)\nb = a.lower()\n", "a")])
def test_a_name_read_through_itself_is_unknown_not_a_crash(tmp_path, src, name):
    """str(X) / X.lower() of a name the script assigns from itself: value() gives up ("?") instead of recursing."""
    text = "from transformers import TrainingArguments, Trainer\n" + src + \
        f"args = TrainingArguments(output_dir='o', bf16={name} == 'bf16')\nTrainer(args=args).train()\n"
    cfg = configs.load(_write(tmp_path, "train.py", text))
    assert cfg["trainer"] == "transformers"
    assert cfg["dtype"] is None
