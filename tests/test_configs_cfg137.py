"""Helper cfg137 (session 36, issue 24): what reading round 137m's misses found, each mechanism with variants of our own,
none of them a file of a set.

1. A user's launch of its own module with `--stage sft` among its options (`accelerate launch -m src.train_sft --pipeline
   P1 --stage sft --sft_dose ... --lora_target_preset ...`) was read as LLaMA-Factory (an old entry script's name and one
   of its options): LLaMA-Factory's HfArgumentParser stops on options no argument class defines
   (llamafactory._refused_options, parser_keys counted as argparse reads a command line: a unique prefix is the option),
   so a command most of whose options it would refuse runs the project's own script. LLaMA-Factory's own command lines,
   with a typo or argparse abbreviations (`--lora_r`, `--model_name`), are still LLaMA-Factory's.
2. `accelerate launch train.py` with 24 options of one diffusers example and one of the repository's own (--style_type)
   was refused as "runs train.py": a copy of an example that added an option of its own keeps the example's many options
   (diffusers._modified_copy: one added option in each 12 passed, every other one that one example's argparse takes,
   three of them that example's own, not of the block at least half the examples share). More added options, fewer
   options, only the shared block's (a user's trainer started from it: round 107m's SUR-Adapter, round 5b's Marigold
   launches), a settings-file option, or options no one example takes together stay refused.
3. A mistral-finetune config (finetune/args.py TrainArgs) was refused as "settings several trainers share
   (model_id_or_path)": its two required fields model_id_or_path and run_dir beside data.instruct_data, optim.pct_start
   or one of its own top-level fields name it (others.mistral_finetune); model_id_or_path alone does not, and ms-swift
   2.x's YAML is still ms-swift's.
4. (review) others.py's two DiffSynth-Studio checks are one: tests/test_configs_cfg138.py's variants, unchanged."""

from __future__ import annotations

import json

from configs_corpus import read, refusal
from each_case import each

# 1. LLaMA-Factory's old entry scripts and options, and a project's own script that shares --stage with them

_LF_OWN = ("--stage sft --model_name_or_path Qwen/Qwen2.5-1.5B --do_train --dataset alpaca_en --template qwen "
           "--finetuning_type lora --lora_target q_proj,v_proj --output_dir out/sft --per_device_train_batch_size 2 "
           "--learning_rate 5e-5 --num_train_epochs 1 --fp16")


def test_a_projects_own_script_with_a_stage_option_is_refused(tmp_path):
    def check(launch, words):
        msg = refusal(tmp_path, "sweep.sh", "#!/bin/bash\nset -e\n" + launch + "\n")
        assert "LLaMA-Factory" not in msg.split(" (it reads ")[0] and words in msg, msg

    own = ["--stage sft --experiment e1 --base_model m --rank_sweep 8 --target_set attn --data_budget 1000 --epochs 2",
           "--stage pt --arm baseline --hf_model m --curriculum easy --mix_ratio 0.3 --lora_r 8 --learning_rate 1e-4",
           "--stage dpo --model_name m --pref_data d --beta_sched cosine --ablation_id 3 --num_epochs 1"]
    cases = []
    for i, opts in enumerate(own):
        cases.append((f"python src/train_sft.py {i}", (f"python src/train_sft.py {opts}", "train_sft.py")))
        cases.append((f"-m src.train_pt {i}", (f"torchrun --nproc_per_node 2 -m src.train_pt {opts}", "src.train_pt")))
        cases.append((f"accelerate -m experiments.train_dpo {i}",
                      (f"accelerate launch --num_processes 4 -m experiments.train_dpo {opts}", "experiments.train_dpo")))
    # a renamed fork's console script shape (no script, --stage and two more of LLaMA-Factory's names) among the
    # project's own options
    cases.append(("console script", ("runexp --stage sft --template qwen --finetuning_type lora --cohort a --seed_grid 3 "
                                     "--probe_layer 12 --probe_every 50", "")))
    each(cases, check)


def test_llama_factorys_own_command_lines_are_still_read(tmp_path):
    def check(launch):
        got = read(tmp_path, "train.sh", "#!/bin/bash\n" + launch + "\n")
        assert got[0] == "llama-factory", got

    cases = [("train_bash.py", (f"CUDA_VISIBLE_DEVICES=0 python src/train_bash.py {_LF_OWN}",)),
             ("train_sft.py", (f"python src/train_sft.py {_LF_OWN}",)),
             # one typo among many of its own options (the parser would stop, but it is LLaMA-Factory's line)
             ("a typo", (f"python src/train_bash.py {_LF_OWN} --lora_rnk 8",)),
             # argparse abbreviations of its options: --model_name (model_name_or_path), --lora_r (lora_rank)
             ("abbreviations", ("python src/train_bash.py --stage sft --model_name m --do_train --dataset d "
                                "--template default --finetuning_type lora --lora_r 8 --output_dir o",)),
             ("deepspeed launch", (f"deepspeed --num_gpus 2 src/train_bash.py --deepspeed ds.json {_LF_OWN}",)),
             ("fork console script", ("petro-train --stage sft --model_name_or_path m --template baichuan2 "
                                      "--finetuning_type lora --lora_target W_pack --plot_loss --do_train",))]
    each(cases, check)


# 2. a copy of a diffusers example with an option of its own

_FLUX_OPTS = ["--pretrained_model_name_or_path=black-forest-labs/FLUX.1-dev", "--instance_data_dir=data/dog",
              '--instance_prompt="a photo of sks dog"', "--output_dir=out/dog", "--mixed_precision={mp}",
              "--resolution=1024", "--train_batch_size=1", "--guidance_scale=1", "--gradient_accumulation_steps=4",
              "--optimizer=prodigy", "--learning_rate=1.", "--lr_scheduler=constant", "--lr_warmup_steps=0",
              "--max_train_steps=500", "--rank=16", "--checkpointing_steps=250", "--seed=0",
              "--max_sequence_length=512", "--weighting_scheme=none", "--validation_epochs=25"]


def _launch(script: str, opts: list[str], mp: str = "bf16", extra: tuple = ()) -> str:
    words = [o.format(mp=mp) for o in opts] + list(extra)
    return "#!/bin/bash\naccelerate launch " + script + " \\\n  " + " \\\n  ".join(words) + "\n"


def test_a_copy_of_an_example_with_an_option_of_its_own_is_diffusers(tmp_path):
    def check(text, required, dtype):
        got = read(tmp_path, "run.sh", text)
        assert got[:3] == ("diffusers", required, dtype), got

    cases = []
    for script in ("train.py", "scripts/train_lora.py", "my_flux_trainer.py"):
        for own in ("--style_type=ink", "--caption_dropout_prob=0.1", "--use_face_mask"):
            cases.append((f"{script} {own} bf16", (_launch(script, _FLUX_OPTS, "bf16", (own,)), [], "bfloat16")))
        cases.append((f"{script} fp16", (_launch(script, _FLUX_OPTS, "fp16", ("--my_loss_weight=0.5",)), [],
                                         "float16")))
        cases.append((f"{script} xformers", (_launch(script, _FLUX_OPTS[:14], "fp16",
                                                     ("--enable_xformers_memory_efficient_attention", "--tag=v2")),
                                             ["xformers"], "float16")))
    # two options of its own among more than 24 of the example's
    more = _FLUX_OPTS + ["--adam_beta1=0.9", "--adam_beta2=0.99", "--dataloader_num_workers=2", "--report_to=wandb"]
    cases.append(("two own of 26", (_launch("train.py", more, "bf16", ("--style_type=a", "--mask_dir=m")), [],
                                    "bfloat16")))
    each(cases, check)


def test_a_users_trainer_in_the_examples_words_is_still_refused(tmp_path):
    def check(text):
        msg = refusal(tmp_path, "run.sh", text)
        assert "runs train.py" in msg or "not a trainer config" in msg or "train.py" in msg, msg

    cases = [
        # more options of its own than a copy adds
        ("three own of 20", (_launch("train.py", _FLUX_OPTS[:17], "bf16", ("--style_type=a", "--mask_dir=m",
                                                                          "--face_weight=2")),)),
        # too few options to tell a copy from a trainer that shares the examples' names
        ("one own of 11", (_launch("train.py", _FLUX_OPTS[:10], "bf16", ("--style_type=a",)),)),
        # a settings file, which no example reads
        ("settings file", (_launch("train.py", _FLUX_OPTS, "bf16", ("--config=configs/run.yaml",)),)),
        # the options at least half the examples share (a user's trainer started from that argparse block), with one
        # or two an example has of its own, and one of the script's
        ("shared words", (_launch("train.py", ["--pretrained_model_name_or_path=m", "--dataset_name=d", "--resolution=512",
                                               "--center_crop", "--random_flip", "--train_batch_size=2",
                                               "--gradient_accumulation_steps=2", "--max_train_steps=1000",
                                               "--learning_rate=1e-4", "--lr_scheduler=cosine", "--lr_warmup_steps=0",
                                               "--output_dir=o", "--checkpointing_steps=500", "--seed=1",
                                               "--noise_offset=0.05", "--use_ema"], "fp16", ("--depth_weight=0.3",)),)),
        # options of examples no one example takes together, and one of its own
        ("mixed examples", (_launch("train.py", _FLUX_OPTS[:12] + [
            "--controlnet_model_name_or_path=c", "--conditioning_image_column=cond", "--placeholder_token=<x>",
            "--learnable_property=style"], "bf16", ("--style_type=a",)),)),
    ]
    each(cases, check)


# 3. mistral-finetune's config

def _mf(fmt: str, d: dict) -> str:
    if fmt == "json":
        return json.dumps(d, indent=2)
    import yaml

    return yaml.safe_dump(d)


def test_a_mistral_finetune_config_is_named(tmp_path):
    def check(fmt, d, named):
        msg = refusal(tmp_path, f"run.{fmt}", _mf(fmt, d))
        assert ("mistral-finetune" in msg) == named, (d, msg)  # (refused: read as no trainer, ms-swift's neither)

    base = {"model_id_or_path": "/models/mistral-7b-instruct-v0.3", "run_dir": "/runs/exp1", "seq_len": 4096,
            "batch_size": 2, "max_steps": 300, "lora": {"rank": 16}}
    cases = []
    for fmt in ("yaml", "json"):
        cases.append((f"{fmt} instruct_data", (fmt, {**base, "data": {"instruct_data": "d/train.jsonl"}}, True)))
        cases.append((f"{fmt} eval data", (fmt, {**base, "data": {"data": "", "eval_instruct_data": "d/ev.jsonl"}},
                                           True)))
        cases.append((f"{fmt} pct_start", (fmt, {**base, "optim": {"lr": 1e-4, "pct_start": 0.05}}, True)))
        cases.append((f"{fmt} ckpt_freq", (fmt, {**base, "ckpt_freq": 50, "save_adapters": False}, True)))
        # near misses: the two fields alone, or the model key with the others but no run_dir
        cases.append((f"{fmt} two fields only", (fmt, base, False)))
        cases.append((f"{fmt} no run_dir", (fmt, {**{k: v for k, v in base.items() if k != "run_dir"},
                                                  "data": {"instruct_data": "d.jsonl"}, "ckpt_freq": 10}, False)))
    each(cases, check)


def test_ms_swift_2_yaml_is_still_ms_swift(tmp_path):
    got = read(tmp_path, "sft.yaml", "model_id_or_path: /models/qwen\nsft_type: lora\nuse_flash_attn: true\n"
                                     "output_dir: runs/x\n")
    assert got[:2] == ("ms-swift", ["fa2"]), got
