"""Helper cfg134 (session 34, issue 24): what round 133m's reading found, each mechanism with variants of our own,
none of them a file of a set.

1. MosaicML Composer's launcher (`composer [launcher options] SCRIPT ARGS`, mosaicml/composer composer/cli/launcher.py)
   was no program the readers knew: a launch of LLM Foundry's trainer (`composer train/train.py
   train/yamls/pretrain/mpt-1b.yaml key=value ...`, mosaicml/llm-foundry scripts/train/README.md; train.py takes the
   YAML first and OmegaConf dotlist overrides after it) was refused as "a shell script with no trainer calls", naming
   nothing. It is refused as MosaicML LLM Foundry now (others._composer_run), a `composer` launch of another script as
   Composer's launcher; PHP's `composer install` is neither.
2. A launch of a script under the user's own name that takes only HF TrainingArguments-like options
   (`deepspeed --num_gpus=2 finetune_language_model.py --model_name_or_path ... --fp16`) is refused while the script is
   not here, asking for it (round 8's AlekseyKorshuk train_sft.py launch, the same shape, is labelled a user's own
   script); with the script beside it, the launch is read through the script (transformers, its attention, the
   launch's dtype). Round 133m's hongjunyan finetune.sh is this case, its script not in the set.
3. The summary line of a dtype the GPU decides (issue 24's audit, session 33, "Left").
4. `swift sft --config x.yaml` (ms-swift 3.10-4.0), the launch real/ms-swift's new YAMLs are written for."""

from __future__ import annotations

from configs_corpus import read, refusal

_LAUNCH = "#!/bin/bash\nset -x\n{body}\n"


def test_a_composer_launch_of_llm_foundrys_trainer_is_refused_as_llm_foundry(tmp_path):
    bodies = [
        "composer train.py yamls/pretrain/mpt-125m.yaml train_loader.dataset.split=train_small",
        "cd llm-foundry/scripts\ncomposer train/train.py train/yamls/finetune/mpt-7b_dolly_sft.yaml save_folder=./ckpt",
        "composer --world_size 16 --node_rank 0 --master_addr 10.0.0.1 --master_port 7501 \\\n"
        "  scripts/train/train.py scripts/train/yamls/pretrain/mpt-1b.yaml max_duration=100ba",
        "composer -n 4 --stdout out_{rank}.txt /opt/foundry/scripts/train/train.py ./my_run.yml "
        "model.attn_config.attn_impl=flash +model.loss_fn=torch_crossentropy",
        'CMD="composer"\nCMD+=" ${HOME}/foundry/train/train.py ${HOME}/foundry/train/yamls/pretrain/${MODEL:-mpt-3b}.yaml"\n'
        'CMD+=" data_local=./c4 eval_interval=0"\necho "$CMD"\neval "$CMD"',
        "export NODE_RANK=0\ncomposer train.py yamls/pretrain/mpt-350m.yaml",
    ]
    for body in bodies:
        msg = refusal(tmp_path, "pretrain.sh", _LAUNCH.format(body=body))
        assert "looks like MosaicML LLM Foundry (composer train.py " in msg, (body, msg)
    # Composer's launcher running another script (its own options, no YAML): named as the launcher
    for body, named in [("composer my_trainer.py --epochs 3", "composer my_trainer.py"),
                        ("composer -n 8 -m mypkg.train --lr 1e-4", "composer -m mypkg.train"),
                        ("composer --nproc=2 -v src/fit.py configs/a.yaml --resume", "composer fit.py")]:
        msg = refusal(tmp_path, "run.sh", _LAUNCH.format(body=body))
        assert f"looks like MosaicML Composer (its launcher) ({named})" in msg, (body, msg)
    # near misses: PHP's Composer, an option Composer's launcher does not have, a YAML-less python launch
    for body in ["composer install --no-dev\nphp artisan migrate", "composer --foo 1 train.py yamls/a.yaml",
                 "python train.py yamls/pretrain/mpt-125m.yaml max_duration=10ba"]:
        msg = refusal(tmp_path, "setup.sh", _LAUNCH.format(body=body))
        assert "LLM Foundry" not in msg and "MosaicML Composer" not in msg, (body, msg)


# a script of the user's own, written for this test: transformers' HfArgumentParser over its own dataclasses and
# TrainingArguments, a model loaded by name and trained by the HF Trainer (the shape of a renamed run_clm.py copy)
_HF_SCRIPT = '''import sys
from dataclasses import dataclass, field
from transformers import AutoModelForCausalLM, AutoTokenizer, HfArgumentParser, Trainer, TrainingArguments


@dataclass
class ModelArguments:
    model_name_or_path: str = field(default="gpt2")


@dataclass
class DataArguments:
    dataset_name: str = field(default="wikitext")
    context_length: int = field(default=512)


def main():
    parser = HfArgumentParser((ModelArguments, DataArguments, TrainingArguments))
    model_args, data_args, training_args = parser.parse_args_into_dataclasses()
    tokenizer = AutoTokenizer.from_pretrained(model_args.model_name_or_path)
    model = AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path{load})
    trainer = Trainer(model=model, args=training_args, tokenizer=tokenizer)
    trainer.train()


if __name__ == "__main__":
    main()
'''


def test_a_launch_of_a_users_hf_trainer_script_is_read_through_that_script_when_it_is_here(tmp_path):
    launches = [("deepspeed --num_gpus=2 {s} --deepspeed ds_config.json --model_name_or_path org/m-160M "
                 "--output_dir out --dataset_name mine --context_length 512 --do_train --fp16", "float16"),
                ("torchrun --nproc_per_node 4 {s} \\\n  --model_name_or_path org/m-1b \\\n  --output_dir out \\\n"
                 "  --do_train \\\n  --bf16 True", "bfloat16"),
                ("accelerate launch --num_processes 2 {s} --model_name_or_path org/m --output_dir o --fp16 true",
                 "float16")]
    for i, (launch, dtype) in enumerate(launches):
        for script in ("finetune_language_model.py", "lm_train.py"):
            run = _LAUNCH.format(body=launch.format(s=script))
            # the script is not here: refused, naming it and asking for it
            alone = tmp_path / f"alone{i}{script}"
            alone.mkdir()
            msg = refusal(alone, "finetune.sh", run)
            assert f"runs {script}, a training script none of the trainers" in msg and "is not here" in msg, msg
            # the script beside the launch: read through it
            for load, required in [("", []), (', attn_implementation="flash_attention_2"', ["fa2"]),
                                   (', attn_implementation="sdpa"', ["sdpa"])]:
                here = tmp_path / f"here{i}{script}{len(load)}"
                here.mkdir(parents=True)
                (here / script).write_text(_HF_SCRIPT.format(load=load), encoding="utf-8")
                got = read(here, "finetune.sh", run)
                assert got == ("transformers", required, dtype, "none"), (launch, script, load, got)


def _summary(cfg: dict) -> str:
    from attn_doctor.render.text import config_lines

    return config_lines(cfg)[2]


def test_the_summary_says_the_dtype_the_gpu_decides_as_such(tmp_path):
    """3. `check --config X --trainer axolotl` of a YAML that leaves bf16 to axolotl's `auto` printed "dtype bfloat16"
    on its summary line above "dtype: decided by the GPU ... no GPU here to resolve it" (issue 24's audit, session 33):
    the summary now says what the file decides (knowledge/trainers.toml [words]), then what the GPUs seen here run."""
    from attn_doctor import configs
    from attn_doctor.model import Report
    from attn_doctor.render.markdown import render as markdown

    for body, other in [("attn_implementation: sdpa\n", "float16"), ("flash_attention: true\nbf16: auto\n", "float16"),
                        ("attn_implementation: flex_attention\ntorch_compile: true\nfp16: false\n", "float32")]:
        path = tmp_path / "auto.yaml"
        path.write_text("base_model: org/m\nmicro_batch_size: 2\n" + body, encoding="utf-8")
        cfg = configs.load(str(path), "axolotl")
        assert cfg["dtype"] == "bfloat16" and cfg["dtype_by_gpu"]  # (the reading, as the labels take it, unchanged)
        for here, said in [(None, f"dtype bfloat16 where the GPU has bfloat16 ({other} where not)"),
                           ([], f"dtype bfloat16 where the GPU has bfloat16 ({other} where not)"),
                           ([{"gpu": "NVIDIA T4", "capability": "7.5", "dtype": "bfloat16", "emulated": True}],
                            "dtype bfloat16 (emulated) on the GPUs here"),
                           ([{"gpu": "V100", "capability": "7.0", "dtype": other, "emulated": False}] * 2,
                            f"dtype {other} on the GPUs here"),
                           ([{"gpu": "H100", "capability": "9.0", "dtype": "bfloat16", "emulated": False},
                             {"gpu": "V100", "capability": "7.0", "dtype": other, "emulated": False}],
                            f"dtype by GPU (bfloat16 on 9.0, {other} on 7.0 here)")]:
            shown = dict(cfg, **({} if here is None else {"dtype_here": here}))
            line = _summary(shown)
            assert line.startswith(said + ", ") and "dtype bfloat16," not in line, (body, here, line)

            md = markdown(Report(tool_version="0", facts={}, backends={}, findings=[], config=shown))
            assert f"- {said}; " in md and "dtype: bfloat16;" not in md, md
    # near misses: the file decides (bf16 / fp16 written): the dtype as read, nothing by GPU
    for body, dtype in [("bf16: true\n", "bfloat16"), ("fp16: true\nbf16: false\n", "float16")]:
        path = tmp_path / "fixed.yaml"
        path.write_text("base_model: org/m\nattn_implementation: sdpa\n" + body, encoding="utf-8")
        cfg = configs.load(str(path), "axolotl")
        assert not cfg.get("dtype_by_gpu") and _summary(cfg).startswith(f"dtype {dtype}, "), _summary(cfg)


_SWIFT_YAML = "model: org/vl-7b\ntrain_type: lora\ntorch_dtype: {dtype}\nattn_impl: {impl}\nmax_length: 4096\n"


def test_a_swift_launch_with_config_reads_that_file(tmp_path):
    """4. `swift sft --config configs/x.yaml` (ms-swift v3.10.0 to v4.0.x: swift/cli/main.py prepare_config_args,
    21209f9a9 to 6b3fa6ecc) was read as a launch with no settings ([] and no dtype, the file not even named as unread):
    the file's keys are read now, appended after the line's as ms-swift appends them (so the file's value wins where
    both give one); the positional `swift sft x.yaml` (v4.1.0 on) keeps the line's value over the file's."""
    from attn_doctor import configs

    for impl, want in [("flash_attn", ["fa2"]), ("sdpa", ["sdpa"]), ("flash_attention_3", ["fa3"])]:
        for dtype, got_dtype in [("bfloat16", "bfloat16"), ("float16", "float16")]:
            here = tmp_path / f"{impl}-{dtype}"
            (here / "configs").mkdir(parents=True)
            (here / "configs" / "sft_lora.yml").write_text(_SWIFT_YAML.format(dtype=dtype, impl=impl), encoding="utf-8")
            for line in ["swift sft --config configs/sft_lora.yml",
                         "NPROC_PER_NODE=2 CUDA_VISIBLE_DEVICES=0,1 swift sft --config configs/sft_lora.yml 2>&1 | tee t.log",
                         "uv run swift rlhf --rlhf_type dpo --config configs/sft_lora.yml --output_dir out",
                         # the file's keys come after the line's: its attn_impl / torch_dtype are the ones kept
                         "swift sft --attn_impl eager --torch_dtype float32 --config configs/sft_lora.yml"]:
                got = read(here, "train.sh", f"#!/bin/bash\n{line}\n")
                assert got == ("ms-swift", want, got_dtype, "none"), (line, impl, dtype, got)
            # the positional form: the line's options replace the file's
            got = read(here, "train.sh", "#!/bin/bash\nswift sft configs/sft_lora.yml --attn_impl eager\n")
            assert got[1] == [] and got[2] == got_dtype, got
    # a --config file that is not here: named as unread, nothing guessed
    path = tmp_path / "gone.sh"
    path.write_text("#!/bin/bash\nswift sft --config configs/missing.yaml --model org/m\n", encoding="utf-8")
    cfg = configs.load(str(path))
    assert cfg["detected"]["trainer"] == "ms-swift" and cfg["unread"] == ["configs/missing.yaml"] and not cfg["dtype"]
