"""cfg126 (session 30, issue 24): two classes of recurring first-measurement misses (benchmarks/results/
configs-recurring-s29.md), decided from rounds up to 103m.

1. "float32, transformers release not shown": a model loaded with no dtype and nothing autocasting computes in what
   from_pretrained loads by default, float32 up to transformers 4.x and the checkpoint's own dtype from 5.0
   (huggingface/transformers#42805, 5.0.0 modeling_utils.py:3934-3935). Where neither the file nor its repository
   shows the release, the reading's dtype stays unknown (the training labels' convention: round 30 LiuHarry1, round
   47m ChipCracker are labelled "" for it) and the reading says what each release loads (`dtype_by_release`), which
   `check` resolves with the transformers of the environment it checks.
2. A launch of a script the set lacks, read by its options' owner: refused, not claimed. TrainingArguments' option
   names (HfArgumentParser) are the surface of transformers-labelled launches and, three to seven times as often in
   the rounds, of other programs built on the same parser (MedicalGPT, LMFlow, LongLoRA, InternVL, users' own
   scripts), so the options alone do not say the trainer. Negative cases of our own below.
"""

from __future__ import annotations

import textwrap

import pytest

from attn_doctor import configs
from attn_doctor.checks.trainer import release_dtype
from attn_doctor.model import UsageError
from ci_support import evaluate, saved_facts

HEAD = "from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments\n"


def write(tmp_path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(textwrap.dedent(text))
    return str(p)


def script(load: str = "AutoModelForCausalLM.from_pretrained('org/m')", amp: str = "") -> str:
    return (HEAD + f"model = {load}\n"
            f"args = TrainingArguments(output_dir='out', per_device_train_batch_size=2{amp})\n"
            "Trainer(model=model, args=args, train_dataset=None).train()\n")


def facts_with_transformers(version: str | None) -> dict:
    """FAKE facts: the CPU machine's, with this transformers installed (None: none)."""
    facts = saved_facts()
    stack = facts.setdefault("packages", {}).setdefault("stack", {})
    stack.pop("transformers", None)
    (facts["packages"].get("versions") or {}).pop("transformers", None)
    if version:
        stack["transformers"] = {"version": version}
    return facts


def config_findings(cfg: dict, facts: dict) -> dict:
    report = evaluate(facts, config=cfg, required=list(cfg["required"]))
    return {f.id: f for f in report.findings if f.section == "config"}


# --- 1. the release decides -------------------------------------------------------------------------------------

OPEN = [
    ("train.py", script()),
    ("train.py", script("LlamaForCausalLM.from_pretrained(name)").replace("AutoTokenizer,", "AutoTokenizer, LlamaForCausalLM,")),
    ("train.py", script(amp=", fp16=False, bf16=False")),
    ("run.sh", "python run_clm.py --model_name_or_path facebook/opt-350m --dataset_name wikitext --do_train --output_dir o\n"),
    ("run.sh", "torchrun --nproc_per_node 2 run_mlm.py --model_name_or_path org/m --train_file t.txt --do_train "
               "--output_dir o --per_device_train_batch_size 4\n"),
]


@pytest.mark.parametrize("name, text", OPEN)
def test_the_release_decides_and_the_reading_says_so(tmp_path, name, text):
    cfg = configs.load(write(tmp_path, name, text))
    assert cfg["trainer"] == "transformers"
    assert cfg["dtype"] is None  # the file does not say it: the labels' field is unchanged
    got = cfg["dtype_by_release"]
    assert (got["package"], got["from"], got["before"], got["after"]) == ("transformers", "5.0", "float32", None)


SHOWN = [
    # an autocast decides
    ("train.py", script(amp=", bf16=True"), "bfloat16"),
    ("train.py", script(amp=", fp16=True"), "float16"),
    # a dtype named at the load
    ("train.py", script("AutoModelForCausalLM.from_pretrained('org/m', torch_dtype='bfloat16')"), "bfloat16"),
    # the release shown: a keyword 5.0 refuses (Trainer(tokenizer=)), a pip install of the file's own
    ("train.py", script().replace("train_dataset=None", "train_dataset=None, tokenizer=None"), "float32"),
    ("job.sh", "pip install transformers==4.44.2\npython run_clm.py --model_name_or_path facebook/opt-350m "
               "--do_train --output_dir o\n", "float32"),
    ("job.sh", "pip install 'transformers>=5.0'\npython run_clm.py --model_name_or_path facebook/opt-350m "
               "--do_train --output_dir o\n", None),
    # a checkpoint published in float32 (gpt2): float32 under either release
    ("run.sh", "python run_clm.py --model_name_or_path gpt2 --do_train --output_dir o\n", "float32"),
    # torch's default dtype set: not float32 under transformers 4 either
    ("train.py", "import torch\ntorch.set_default_dtype(torch.bfloat16)\n" + script(), None),
]


@pytest.mark.parametrize("name, text, dtype", SHOWN)
def test_near_misses_have_no_release_question(tmp_path, name, text, dtype):
    cfg = configs.load(write(tmp_path, name, text))
    assert cfg["dtype"] == dtype and "dtype_by_release" not in cfg


def test_a_repository_pin_answers_it(tmp_path):
    (tmp_path / "requirements.txt").write_text("torch\ntransformers<5\n")
    cfg = configs.load(write(tmp_path, "train.py", script()))
    assert cfg["dtype"] == "float32" and "dtype_by_release" not in cfg


@pytest.mark.parametrize("version, dtype", [("4.57.1", "float32"), ("4.46.0", "float32"), ("5.0.0", None),
                                            ("5.2.0", None), ("5.0.0rc1", "float32"), (None, None), ("x", None)])
def test_release_dtype(version, dtype):
    assert release_dtype({"from": "5.0", "before": "float32", "after": None}, version) == dtype


@pytest.mark.parametrize("version, ids, words", [
    (None, {"config.dtype-by-release-unresolved"}, "not known here"),
    ("4.57.1", {"config.dtype-by-release"}, "computes in float32"),
    ("5.1.0", {"config.dtype-by-release"}, "the checkpoint's own dtype"),
])
def test_check_resolves_it_with_the_installed_transformers(tmp_path, version, ids, words):
    cfg = configs.load(write(tmp_path, "train.py", script()))
    found = config_findings(cfg, facts_with_transformers(version))
    assert {i for i in found if i.startswith("config.dtype-by-release")} == ids
    (f,) = [found[i] for i in ids]
    assert words in f.title and f.severity == "info"
    if version is None:
        assert f.fix.startswith("torch_dtype=torch.float32   # in ")


def test_float32_under_transformers_4_refuses_flash_attention(tmp_path):
    src = script("AutoModelForCausalLM.from_pretrained('org/m', attn_implementation='flash_attention_2')")
    cfg = configs.load(write(tmp_path, "train.py", src))
    assert cfg["required"] == ["fa2"]
    found = config_findings(cfg, facts_with_transformers("4.57.1"))
    assert found["config.attention-dtype-unsupported"].severity == "error"
    assert found["config.attention-dtype-unsupported"].fix.startswith("torch_dtype=torch.bfloat16   # in ")
    # from 5.0 the checkpoint's dtype is not known here: nothing said about the backend
    assert "config.attention-dtype-unsupported" not in config_findings(cfg, facts_with_transformers("5.0.0"))


# --- 2. a launch of a script the set lacks: its options do not say the trainer ----------------------------------

HF_OPTIONS = ("--model_name_or_path Qwen/Qwen2.5-7B --output_dir out --per_device_train_batch_size 4 "
              "--gradient_accumulation_steps 8 --learning_rate 2e-5 --lr_scheduler_type cosine_with_min_lr "
              "--lr_scheduler_kwargs '{\"min_lr\": 1e-6}' --warmup_ratio 0.03 --logging_steps 10 --save_steps 500 "
              "--save_total_limit 2 --report_to tensorboard --gradient_checkpointing True --bf16 "
              "--ddp_find_unused_parameters False")


@pytest.mark.parametrize("launch", [
    "torchrun --nproc_per_node 8 supervised_finetuning.py {o} --use_peft True --lora_target_modules all",
    "accelerate launch --config_file ds.yaml my_sft.py {o} --template_name qwen --max_source_length 1024",
    "deepspeed --num_gpus 4 src/train_bash.py {o} --deepspeed ds_z3.json",
    "CUDA_VISIBLE_DEVICES=0 python finetune.py {o}",
    "python -u scripts/pretrain.py {o} --block_size 2048",
])
def test_a_launch_of_an_absent_script_is_refused_whatever_its_options(tmp_path, launch):
    path = write(tmp_path, "run.sh", "#!/bin/bash\n" + launch.format(o=HF_OPTIONS) + "\n")
    with pytest.raises(UsageError) as e:
        configs.load(path)
    assert "is not here" in str(e.value) and "give attn-doctor that script" in str(e.value)

