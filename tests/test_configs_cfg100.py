"""cfg100 (session 24, issue 24): what a user's launch and settings bring. Variants written here, each one read the
way the run reads it (the trainers' and accelerate's sources are cited in the readers).

1. musubi-tuner's Z-Image without mixed precision runs its DiT, and so the attention, in float32 (configs/musubi.py
   _float32_attention); `--use_32bit_attention` does not change the dtype the backend gets.
2. accelerate's config file without mixed_precision ("no"; an old file's `fp16: true` is fp16), the default config a
   launch file writes itself, and `accelerate launch --mixed_precision X` over the file (configs.with_accelerate_config).
"""

from __future__ import annotations

import pytest

from attn_doctor import configs

ZIMAGE = ("src/musubi_tuner/zimage_train_network.py --dit z.safetensors --vae vae.safetensors --text_encoder "
          "te.safetensors --dataset_config ds.toml --network_module networks.lora_zimage")


def _read(tmp_path, text: str, name: str = "train.sh", **files) -> dict:
    for n, body in files.items():
        (tmp_path / n.replace("__", ".")).write_text(body)
    p = tmp_path / name
    p.write_text("#!/bin/bash\n" + text + "\n")
    return configs.load(str(p))


@pytest.mark.parametrize("launch, backend, expected", [
    # no mixed precision anywhere: Accelerator "no", DiT float32 (zimage_train_network.py:42-44)
    ("accelerate launch --mixed_precision no {z} --flash_attn", "fa2", "float32"),
    ("accelerate launch --mixed_precision no {z} --sage_attn --use_32bit_attention", "sage", "float32"),
    ("python {z} --mixed_precision no --flash3", "fa3", "float32"),
    # bf16 autocast: q, k, v in bfloat16 whatever --use_32bit_attention says
    ("accelerate launch --mixed_precision bf16 {z} --flash_attn --use_32bit_attention", "fa2", None),
    ("accelerate launch --mixed_precision no {z} --flash_attn --mixed_precision fp16", "fa2", None),
    # another architecture's DiT is bfloat16 by default (training/trainer_base.py:1474)
    ("accelerate launch --mixed_precision no src/musubi_tuner/wan_train_network.py --task t2v-1.3B --dit w.safetensors "
     "--dataset_config ds.toml --flash_attn --network_module networks.lora_wan", "fa2", None),
    # the full fine-tune with --full_bf16 loads the DiT in bfloat16 (zimage_train.py:107)
    ("accelerate launch --mixed_precision no src/musubi_tuner/zimage_train.py --dit z.safetensors --vae v.safetensors "
     "--text_encoder te.safetensors --dataset_config ds.toml --flash_attn --full_bf16", "fa2", None),
])
def test_zimage_attention_dtype(tmp_path, launch, backend, expected):
    cfg = _read(tmp_path, launch.format(z=ZIMAGE))
    assert cfg["trainer"] == "musubi" and [a["backend"] for a in cfg["attention"]] == [backend]
    assert cfg.get("attention_dtype") == expected


def test_zimage_float32_finding_names_a_pasteable_fix(tmp_path):
    from attn_doctor import knowledge

    cfg = _read(tmp_path, f"accelerate launch --mixed_precision no {ZIMAGE} --flash_attn")
    assert cfg["fixes"]["attention_dtype"].startswith("--mixed_precision bf16")
    assert knowledge.get("config.attention-dtype-unsupported").severity == "error"


ACCEL = "compute_environment: LOCAL_MACHINE\ndistributed_type: MULTI_GPU\nnum_machines: 1\nnum_processes: 2\n"
WAN = ("src/musubi_tuner/wan_train_network.py --task t2v-1.3B --dit w.safetensors --dataset_config ds.toml --sdpa "
       "--network_module networks.lora_wan")


@pytest.mark.parametrize("launch, files, mp, compiled", [
    # a config file without mixed_precision: accelerate launches with "no" (commands/launch.py:1281-1283)
    ("accelerate launch --config_file accel.yaml {w}", {"accel__yaml": ACCEL}, "no", False),
    # an old file's `fp16: true` and top-level dynamo_backend (commands/config/config_args.py:113-119)
    ("accelerate launch --config_file accel.yaml {w}", {"accel__yaml": ACCEL + "fp16: true\ndynamo_backend: INDUCTOR\n"},
     "fp16", True),
    ("accelerate launch --config_file accel.yaml {w}", {"accel__yaml": ACCEL + "dynamo_backend: 'NO'\n"}, "no", False),
    # the launch line's --mixed_precision wins over the file's
    ("accelerate launch --config_file accel.yaml --mixed_precision bf16 {w}",
     {"accel__yaml": ACCEL + "mixed_precision: fp16\n"}, "bf16", False),
    # no --config_file: the default config the launch file writes itself
    ("mkdir -p ~/.cache/huggingface/accelerate\ncat > ~/.cache/huggingface/accelerate/default_config.yaml <<EOF\n"
     + ACCEL + "mixed_precision: bf16\nEOF\naccelerate launch {w}", {}, "bf16", False),
    ("tee /huggingface/accelerate/default_config.yaml <<EOT\n" + ACCEL + "EOT\naccelerate launch {w}", {}, "no", False),
    # no --config_file and no default config written here: the user's machine's, not known
    ("accelerate launch {w}", {"accel__yaml": ACCEL + "mixed_precision: bf16\n"}, None, False),
])
def test_accelerate_config_precision(tmp_path, launch, files, mp, compiled):
    cfg = _read(tmp_path, launch.format(w=WAN), **files)
    assert cfg["trainer"] == "musubi"
    assert cfg["mixed_precision"] == mp
    assert cfg["compile"]["enabled"] is compiled


def test_accelerate_config_without_precision_is_float32_for_diffusers(tmp_path):
    """diffusers' examples hand Accelerator the script's --mixed_precision (default None), which takes accelerate's:
    a --config_file without mixed_precision launches with "no", float32 weights (the session 23 stress set's
    `accelerate` decoration of round3b's p4vv37 train_lora.sh read dtype unknown)."""
    launch = ("accelerate launch --config_file accel.yaml train_dreambooth_lora_sdxl.py --pretrained_model_name_or_path=m "
              "--instance_data_dir=d --enable_xformers_memory_efficient_attention")
    got = [_read(tmp_path, launch, accel__yaml=text)["dtype"] for text in (ACCEL, ACCEL + "mixed_precision: bf16\n")]
    assert got == ["float32", "bfloat16"]


# -- 3. launch-line forms -----------------------------------------------------------------------------------------------

SWIFT = "swift sft --model Qwen/Qwen2.5-7B-Instruct --train_type lora --torch_dtype bfloat16 --dataset d"


@pytest.mark.parametrize("end, required", [
    (" > train.log 2>&1 &", []), (" &> train.log &", []), (" & wait", []), (";", []), (" >> train.log", []),
    ("", ["fa2"]),  # a docs snippet that lost its continuation: the option line under it is more of the command
])
def test_a_line_of_options_under_a_command_that_ended_is_not_glued_to_it(tmp_path, end, required):
    """bash ends a command at a background `&`, a `;` or its line's end after a redirection: a line of options under
    it is a command of its own (session 23's stress set: round 68m's sft.sh under `nohup ... > train.log 2>&1 &`)."""
    cfg = _read(tmp_path, f"nohup {SWIFT}{end}\n    --attn_impl flash_attn")
    assert (cfg["trainer"], cfg["required"]) == ("ms-swift", required)


def _entry_package(root, guard: bool):
    from configs_corpus import put

    put(root, "train.py", "from transformers import AutoModelForCausalLM, Trainer, TrainingArguments\n\n\n"
        "def main(bf16=False, attn=\"sdpa\"):\n"
        "    model = AutoModelForCausalLM.from_pretrained(\"Qwen/Qwen2.5-0.5B\", attn_implementation=attn)\n"
        "    Trainer(model=model, args=TrainingArguments(output_dir=\"out\", bf16=bf16)).train()\n"
        + ("\n\nif __name__ == \"__main__\":\n    main()\n" if guard else ""))


@pytest.mark.parametrize("guard", [False, True])
@pytest.mark.parametrize("launch", [
    "python -c \"from train import main; main(bf16=True, attn=\\\"flash_attention_2\\\")\"",
    "python -c 'import train; train.main(True, \"flash_attention_2\")'",
    "CUDA_VISIBLE_DEVICES=0 python3 -u -c 'from train import main\nmain(attn=\"flash_attention_2\", bf16=True)' &> log &",
])
def test_python_c_code_is_read_as_a_script_of_the_launch_folder(tmp_path, launch, guard):
    """`python -c CODE` runs CODE as a script with the launch's folder on sys.path: the values it hands an imported
    function are the run's; the module's own `if __name__ == "__main__": main()` does not run when imported."""
    from configs_corpus import put, trainer_reading

    _entry_package(tmp_path, guard)
    assert trainer_reading(put(tmp_path, "run.sh", "#!/bin/bash\n" + launch + "\n")) == ("transformers", ["fa2"], "bfloat16")


def test_an_entry_script_reads_the_values_it_hands_not_the_modules_main_block(tmp_path):
    from configs_corpus import put, trainer_reading

    _entry_package(tmp_path, guard=True)
    put(tmp_path, "run.py", "from train import main\n\nmain(bf16=True, attn=\"flash_attention_2\")\n")
    assert trainer_reading(tmp_path / "run.py") == ("transformers", ["fa2"], "bfloat16")


@pytest.mark.parametrize("launch, read", [
    ("PYTHONPATH=src\npython scripts/train.py", False),  # the shell's variable only: the import fails
    ("PYTHONPATH=src  # the package\npython scripts/train.py", False),
    ("PYTHONPATH=src\nexport PYTHONPATH\npython scripts/train.py", True),
    ("set -a\nPYTHONPATH=src\nset +a\npython scripts/train.py", True),
    ("PYTHONPATH=src python scripts/train.py", True),
])
def test_a_pythonpath_assignment_reaches_the_script_only_when_exported(tmp_path, launch, read):
    from configs_corpus import put, trainer_reading
    from test_configs_cfg96 import FA2, _src_package

    _src_package(tmp_path)
    assert trainer_reading(put(tmp_path, "run.sh", "#!/bin/bash\n" + launch + "\n")) == (FA2 if read else "refused")


@pytest.mark.parametrize("element", [
    "--gradient_accumulation_steps $(expr 64 / $NPROC)",  # a command substitution among the words (round 6a's form)
    "--gradient_accumulation_steps $((64 / 4))",
    '--optimizer_args "betas=(0.9,0.99)" "weight_decay=0.0"',  # a parenthesis in quoted text (round 21's form)
])
def test_an_array_ends_at_its_own_closing_parenthesis(tmp_path, element):
    """A bash array's words run to its own `)`, not to one of `$(...)`, `$((...))` or quoted text among them: the words
    after it are the array's (session 23's stress set put options in an array: `argsarray` lost them)."""
    cfg = _read(tmp_path, "NPROC=4\nARGS=(\n  --model Qwen/Qwen2.5-7B\n  " + element +
                "\n  --torch_dtype bfloat16  # (bf16)\n  --attn_impl flash_attn\n)\nswift pt \"${ARGS[@]}\"")
    assert (cfg["trainer"], cfg["required"], cfg["dtype"]) == ("ms-swift", ["fa2"], "bfloat16")


@pytest.mark.parametrize("test, kept", [
    ('__name__ == "__main__"', False),  # runs only as the script: left out of the module as imported
    ('"__main__" == __name__', False),
    ('__name__ != "__main__"', True),  # runs on import: kept (the lead's final read of session 24, after rev24's note)
])
def test_as_imported_leaves_out_only_the_main_block(test, kept):
    from attn_doctor.configs import _as_imported

    text = "def main(bf16=False):\n    pass\n\nif " + test + ":\n    main(bf16=True)\n"
    assert ("main(bf16=True)" in _as_imported(text)) is kept
