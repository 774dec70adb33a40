"""Issue 24, round 3b: refuse what no reader's own evidence claims, naming the framework where its own keys say which;
read launch scripts as the shell and the trainer's parser read them.

Two parts. The real files of fixtures/configs/round3b/ (see its README: users' repositories, labelled from the
frameworks' own semantics) are each read as their expect file says. The variants below are written for this test
(what each fakes is in its name); every mechanism of round 3b has at least one that fails without it."""

from __future__ import annotations

import pytest
from each_case import each

from attn_doctor import configs
from attn_doctor.model import UsageError

from configs_corpus import CONFIGS, CLAIMED, check_read_as_expected, check_staged_expect, expect, files, split_module

CORPUS = CONFIGS / "round3b"
FILES = files(CORPUS)


def rel(p):
    return p.relative_to(CORPUS).as_posix()


def test_the_corpus_is_there_and_on_the_readers_side_of_the_split():
    assert len(FILES) >= 40
    split = split_module()
    kinds = {"claimed": 0, "refused": 0}
    for p in FILES:
        t = check_staged_expect(p, expect(p), split)
        kinds["claimed" if t in CLAIMED else "refused"] += 1
    assert kinds["claimed"] >= 10 and kinds["refused"] >= 25, kinds
    # the refusal words name at least five frameworks attn-doctor does not read
    named = {expect(p)["refused"] for p in FILES if expect(p).get("refused", "").startswith("looks like")}
    assert len(named) >= 4, named


def test_real_file():
    each(((rel(p), (p,)) for p in FILES), check_read_as_expected)  # (one test over the set: tests/each_case.py)


def _load(tmp_path, name: str, text: str) -> dict:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8", newline="")
    return configs.load(str(p))


def _refusal(tmp_path, name: str, text: str) -> str:
    with pytest.raises(UsageError) as err:
        _load(tmp_path, name, text)
    msg = str(err.value)
    assert "\n" not in msg and msg.startswith("--config: ")
    return msg


# Files of frameworks attn-doctor does not read (or of no trainer): refused in one line, naming the framework where
# its own keys say which, whatever keys they share with a claimed trainer (learning_rate, mixed_precision, bf16 ...).
REFUSED = {
    "W&B sweep sweeping TRL option names": (
        "sweep.yaml", "program: train.py\nmethod: random\nmetric:\n  name: eval/loss\n  goal: minimize\nparameters:\n"
        "  learning_rate:\n    values: [1e-5, 2e-5]\n  bf16:\n    value: true\n  model_name_or_path:\n    value: m\n",
        "looks like a Weights & Biases sweep config"),
    "x-flux LoRA config with diffusers-like names": (
        "lora.yaml", 'model_name: "flux-schnell"\ndata_config:\n  img_dir: imgs/\n  img_size: 1024\n'
        'mixed_precision: "bf16"\noutput_dir: out\nlearning_rate: 1e-4\nrank: 8\n', "looks like XLabs x-flux"),
    "nanoGPT config file": (
        "train_tiny.py", "out_dir = 'out-tiny'\nblock_size = 128\nn_layer = 4\nn_head = 4\nn_embd = 256\n"
        "learning_rate = 1e-3\ndtype = 'bfloat16'\ncompile = True\n", "looks like nanoGPT"),
    "nanoGPT command line": (
        "run.sh", "python train.py config/train_gpt2.py --batch_size=8 --compile=False --dtype=float16\n",
        "looks like nanoGPT"),
    "Lightning Trainer through Hydra": (
        "gpu.yaml", "_target_: lightning.pytorch.Trainer\naccelerator: gpu\ndevices: 1\nprecision: bf16-mixed\n",
        "looks like PyTorch Lightning"),
    "mmcv 1.x schedule config": (
        "schedule.py", "optimizer = dict(type='SGD', lr=0.01)\noptimizer_config = dict()\n"
        "lr_config = dict(policy='poly', power=0.9)\nrunner = dict(type='IterBasedRunner', max_iters=40000)\n",
        "looks like an OpenMMLab"),
    "OpenRLHF command held in a here-document": (
        "sft.sh", "read -r -d '' training_commands <<EOF\nopenrlhf.cli.train_sft \\\n   --pretrain m \\\n   --bf16 \\\n"
        "   --flash_attn\nEOF\n\nif [[ ${1} != \"slurm\" ]]; then\n    deepspeed --module $training_commands\nfi\n",
        "looks like OpenRLHF"),
    "a user's HF Trainer script with TrainingArguments options": (
        "go.sh", "torchrun --nproc_per_node 2 train.py --model_name_or_path m --per_device_train_batch_size 4 --bf16 True "
        "--logging_steps 1 --save_strategy steps --my_own_flag 3\n",
        "runs train.py, a training script none of the trainers attn-doctor reads ships"),
    "a launched script whose name does not say train": (
        "exp.sh", "accelerate launch --mixed_precision bf16 --dynamo_backend no imagenet_vit_base.py\n",
        "runs imagenet_vit_base.py"),
    "a launched module with Hydra overrides": (
        "ppo.sh", "torchrun --nproc_per_node 8 -m myrl.trainer.ppo actor.model_name=m rollout.n=8 trainer.project=x\n",
        "runs myrl.trainer.ppo (-m)"),
    # files of no trainer at all: the refusal says what they are
    # (round 24 moved "Docker Compose file running a trainer" and "Kubernetes Job running a trainer" to READ: a runner
    # file is read as the command it runs, configs/runners.py; one that runs no trainer is still refused as what it is)
    "Docker Compose file running no trainer": (
        "docker-compose.yml", "services:\n  web:\n    build: .\n    command: gunicorn app:server -b 0.0.0.0:8000\n",
        "is a Docker Compose file, not a trainer config"),
    "Kubernetes Job running no trainer": (
        "job.yaml", "apiVersion: batch/v1\nkind: Job\nspec:\n  template:\n    spec:\n      containers:\n      - name: t\n"
        "        command: [python, -c, 'print(1)']\n", "is a Kubernetes manifest (kind: Job)"),
    "conda environment with xformers": (
        "environment.yml", "name: kohya\nchannels: [pytorch]\ndependencies:\n  - python=3.10\n  - pip:\n    - xformers\n",
        "is a conda environment file"),
    "Replicate cog.yaml": (
        "cog.yaml", "build:\n  gpu: true\n  python_version: '3.11'\npredict: predict.py:Predictor\ntrain: train.py:train\n",
        "is Replicate's cog.yaml"),
    "ComfyUI workflow saved from the UI": (
        "wf.json", '{"last_node_id": 2, "last_link_id": 1, "nodes": [{"id": 1, "type": "KSampler"}], "links": [], '
        '"version": 0.4}', "is a ComfyUI workflow"),
    "fal.ai LoRA training input": (
        "fal.json", '{"images_data_url": "https://x/y.zip", "trigger_word": "ohwx", "steps": 1000, "learning_rate": 0.0004}',
        "the input of a fal.ai training endpoint"),
    "Replicate LoRA trainer input": (
        "replicate.json", '{"input_images": "https://x/y.zip", "trigger_word": "TOK", "lora_rank": 16, "optimizer": '
        '"adamw8bit", "resolution": "512,768,1024"}', "the input of a Replicate training model"),
    "PEFT adapter config with LoRA names": (
        "adapter_config.json", '{"base_model_name_or_path": "m", "lora_alpha": 32, "lora_dropout": 0.05, "peft_type": '
        '"LORA", "r": 16, "target_modules": ["q_proj"], "task_type": "CAUSAL_LM"}', "is a PEFT adapter config (LORA"),
    "HF Trainer state written by a run": (
        "trainer_state.json", '{"epoch": 3.0, "global_step": 936, "log_history": [{"loss": 1.9, "step": 10}], '
        '"logging_steps": 10, "num_train_epochs": 3, "train_batch_size": 4}', "is a Hugging Face Trainer state file"),
    "diffusers pipeline index": (
        "model_index.json", '{"_class_name": "FluxPipeline", "_diffusers_version": "0.30.0", "transformer": ["diffusers", '
        '"FluxTransformer2DModel"], "vae": ["diffusers", "AutoencoderKL"]}', "is a diffusers model or pipeline config"),
    "NeMo 2 recipe script": (
        "nemo2.py", "from nemo.collections import llm\nimport nemo_run as run\nrecipe = llm.llama3_8b.finetune_recipe("
        "name='x')\nrecipe.trainer.plugins.precision = 'bf16-mixed'\n", "looks like a script of NVIDIA NeMo"),
    "Lightning training script": (
        "fit.py", "import lightning as L\nfrom mymodel import Net\ntrainer = L.Trainer(precision='bf16-mixed')\n"
        "trainer.fit(Net())\n", "looks like a script of PyTorch Lightning"),
    "EasyLM command line": (
        "easylm.sh", "python -m EasyLM.models.llama.llama_train --mesh_dim='1,-1,1' --dtype='bf16' --total_steps=10\n",
        "looks like EasyLM"),
    "a launch script that only calls another": (
        "sft_qwen.sh", "export MODEL_PATH=Qwen/Qwen2-7B\nexport DS_CONFIG=configs/zero2.json\nbash scripts/train_sft.sh\n",
        "it only runs another script (scripts/train_sft.sh)"),
    "a LoRA tool run as a module is no training": (
        "extract.sh", "python -m networks.flux_extract_lora --model_org a --model_tuned b --save_to c --dim 4\n",
        "not a trainer config"),
}


@pytest.mark.parametrize("case", REFUSED, ids=list(REFUSED))
def test_refused_in_one_line_naming_what_it_is(tmp_path, case):
    name, text, words = REFUSED[case]
    assert words in _refusal(tmp_path, name, text)


READ = {
    # TRL's own script: its TrainingArguments / ModelConfig options stay transformers' evidence
    "TRL's sft.py": (
        "sft.sh", "accelerate launch trl/scripts/sft.py --model_name_or_path m --dataset_name d "
        "--attn_implementation flash_attention_2 --per_device_train_batch_size 2 --bf16 True\n",
        ("transformers", ["fa2"], "bfloat16")),
    # `cat > CFG <<EOF` writes the axolotl YAML the next command trains with
    "axolotl YAML written by the script itself": (
        "axo.sh", "CFG=/tmp/run.yml\ncat > ${CFG} << EOF\nbase_model: m\nsequence_len: 2048\nflash_attention: true\n"
        "bf16: true\nEOF\naccelerate launch -m axolotl.cli.train ${CFG}\n", ("axolotl", ["fa2"], "bfloat16")),
    # load_cfg (axolotl src/axolotl/cli/config.py) loads the YAML, then sets each --key option over it: the override's
    # attention is known, the dtype (bf16/fp16, from the YAML that is not here) is not
    "axolotl CLI with an override and no YAML here": (
        "axo2.sh", "axolotl train missing.yml --flash_attention true\n", ("axolotl", ["fa2"], None)),
    "axolotl CLI whose YAML is elsewhere": (
        "axo3.sh", "CUDA_VISIBLE_DEVICES=0 axolotl train configs/qlora.yml\n", ("axolotl", [], None)),
    # a here-document that is the job script sbatch submits
    "SLURM job written in a here-document": (
        "submit.sh", "cat >job.sh <<EOD\n#!/bin/bash\n#SBATCH --nodes=1\nsrun litgpt finetune_lora ckpt --precision bf16-true\n"
        "EOD\nsbatch job.sh\n", ("litgpt", [], "bfloat16")),
    # bash's ${1:-default}: the script run without arguments takes the default
    "positional parameter with a default": (
        "db.sh", "PREC=${2:-fp16}\naccelerate launch train_dreambooth_lora.py --pretrained_model_name_or_path=m "
        "--instance_data_dir=d --instance_prompt=p --mixed_precision=$PREC --enable_xformers_memory_efficient_attention\n",
        ("diffusers", ["xformers"], "float16")),
    # a value the script never settles is unknown, not sd-scripts' "no" (float32)
    "mixed precision from a loop variable": (
        "loop.sh", "for P in fp16 bf16; do\n  accelerate launch train_network.py --network_module networks.lora --sdpa "
        "--mixed_precision $P\ndone\n", ("sd-scripts", ["sdpa"], None)),
    # `VAR+=...` appends and `eval "$CMD"` re-splits, as bash does; an echo of the command is not the command
    "options built up in a variable": (
        "build.sh", 'args="--network_module networks.lora"\nargs="$args --sdpa"\nargs+=" --mixed_precision bf16"\n'
        "accelerate launch train_network.py $args 2>&1 | tee train.log\n", ("sd-scripts", ["sdpa"], "bfloat16")),
    "a command run through eval": (
        "eval.sh", 'CMD="accelerate launch train_network.py --network_module networks.lora --xformers"\n'
        'echo "$CMD --sdpa"\neval "$CMD --mixed_precision fp16"\n', ("sd-scripts", ["xformers"], "float16")),
    # Windows: set, %VAR%, ^ continuations, CRLF, python -m accelerate.commands.launch
    # round 24: a runner file is read as the command it runs (configs/runners.py): a Compose service's command, a
    # Kubernetes container's command (these two were refusals "is a Docker Compose file / Kubernetes manifest" before)
    "Docker Compose file running a trainer": (
        "docker-compose.yml", "services:\n  trainer:\n    build: .\n    environment:\n      - MIXED_PRECISION=bf16\n"
        "    command: accelerate launch train_network.py --xformers\n", ("sd-scripts", ["xformers"], "float32")),
    "Kubernetes Job running a trainer": (
        "job.yaml", "apiVersion: batch/v1\nkind: Job\nspec:\n  template:\n    spec:\n      containers:\n      - name: t\n"
        "        command: [accelerate, launch, train_network.py, --sdpa]\n", ("sd-scripts", ["sdpa"], "float32")),
    "Windows .bat through python -m accelerate.commands.launch": (
        "run.bat", "set PREC=bf16\r\n@call venv\\Scripts\\activate.bat\r\npython -m accelerate.commands.launch "
        "--num_cpu_threads_per_process 2 sdxl_train_network.py ^\r\n  --network_module=networks.lora ^\r\n  --sdpa ^\r\n"
        "  --mixed_precision=%PREC%\r\n", ("sd-scripts", ["sdpa"], "bfloat16")),
}


@pytest.mark.parametrize("case", READ, ids=list(READ))
def test_read_as_the_shell_and_the_trainer_read_it(tmp_path, case):
    name, text, (trainer, required, dtype) = READ[case]
    cfg = _load(tmp_path, name, text)
    assert (cfg["detected"]["trainer"], cfg["required"], cfg["dtype"]) == (trainer, required, dtype)


def test_a_heredoc_body_is_not_a_command():
    """Lines of a here-document are data: `python train.py` inside one runs nothing."""
    from attn_doctor.configs import shell

    s = shell.parse("cat > notes.txt <<'EOF'\npython train.py --xformers\nEOF\necho done\n", "x.sh")
    assert [c.program for c in s.commands] == ["cat", "echo"]
    assert s.files == {"notes.txt": "python train.py --xformers"}


def test_a_trainer_launched_with_its_config_file_reads_that_file(tmp_path):
    """diffusion-pipe's `train.py --deepspeed --config X.toml`, OneTrainer's `scripts/train.py --config-path X.json` and
    ai-toolkit's `run.py X.yaml` are those trainers' launch commands: the file they name is read when it is here, and
    nothing but the trainer is known when it is not (a variant written for this test)."""
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "wan.toml").write_text(
        "output_dir = 'out'\nmicro_batch_size_per_gpu = 1\npipeline_stages = 1\n[model]\ntype = 'wan'\n"
        "dtype = 'bfloat16'\n[adapter]\ntype = 'lora'\nrank = 32\n[optimizer]\ntype = 'adamw_optimi'\nlr = 2e-5\n")
    cfg = _load(tmp_path, "dp.sh", "NCCL_P2P_DISABLE=1 deepspeed --num_gpus=1 train.py --deepspeed --config examples/wan.toml\n")
    assert (cfg["detected"]["trainer"], cfg["required"], cfg["dtype"]) == ("diffusion-pipe", ["fa2"], "bfloat16")
    cfg = _load(tmp_path, "dp2.sh", "deepspeed --num_gpus=2 train.py --deepspeed --config elsewhere/hv.toml\n")
    assert (cfg["detected"]["trainer"], cfg["required"], cfg["dtype"]) == ("diffusion-pipe", [], None)
    cfg = _load(tmp_path, "ot.sh", "python scripts/train.py --config-path training_presets/lora.json\n")
    assert (cfg["detected"]["trainer"], cfg["required"], cfg["dtype"]) == ("onetrainer", [], None)
    # run.py is a name many projects use: ai-toolkit's only from an ai-toolkit checkout, or when the job file is its own
    assert "not a trainer config" in _refusal(tmp_path, "r.sh", "python run.py config/job.yaml\n")
    cfg = _load(tmp_path, "r2.sh", "cd /workspace/ai-toolkit\npython run.py config/job.yaml\n")
    assert (cfg["detected"]["trainer"], cfg["required"], cfg["dtype"]) == ("ai-toolkit", [], None)
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "job.yaml").write_text(
        "job: extension\nconfig:\n  name: x\n  process:\n  - type: sd_trainer\n    train:\n      dtype: bf16\n"
        "    model:\n      name_or_path: m\n      is_flux: true\n")
    cfg = _load(tmp_path, "r3.sh", "python run.py config/job.yaml\n")
    assert (cfg["detected"]["trainer"], cfg["dtype"]) == ("ai-toolkit", "bfloat16")


def test_cli_config_files_are_read_under_the_command_lines_overrides(tmp_path):
    """`llamafactory-cli train X.yaml key=value` (hparams/parser.py read_args: the file, then the overrides) and
    `litgpt finetune_lora --config X.yaml --opt v` (jsonargparse: the file, then the options) read X when it is here."""
    (tmp_path / "lf.yaml").write_text("model_name_or_path: m\nstage: sft\nfinetuning_type: lora\nflash_attn: fa2\nbf16: true\n")
    cfg = _load(tmp_path, "lf.sh", "FORCE_TORCHRUN=1 llamafactory-cli train lf.yaml flash_attn=sdpa\n")
    assert (cfg["detected"]["trainer"], cfg["required"], cfg["dtype"]) == ("llama-factory", ["sdpa"], "bfloat16")
    (tmp_path / "lg.yaml").write_text("checkpoint_dir: ckpt\nprecision: bf16-true\ntrain:\n  micro_batch_size: 2\n")
    cfg = _load(tmp_path, "lg.sh", "litgpt finetune_lora --config lg.yaml --train.micro_batch_size 4\n")
    assert (cfg["detected"]["trainer"], cfg["dtype"], cfg["batch_size"]) == ("litgpt", "bfloat16", 4)
