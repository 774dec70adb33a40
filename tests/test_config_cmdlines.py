"""Command lines read the way the shell and the trainer's argparse read them (configs/shell.py), and files
that are not any trainer's refused on evidence (configs/others.py) -- issue 24. Every script here is written
by the test (a few lines in the forms users' launch scripts take); the real ones are in
fixtures/configs/real (tests/test_configs_real.py)."""

from __future__ import annotations

import json
import re

import pytest

from attn_doctor import configs
from attn_doctor.configs import shell
from attn_doctor.model import UsageError


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


def main(text: str, name: str = "run.sh"):
    return shell.main_command(shell.parse(text, name))


# ---- the shell ----

def test_parameter_expansion_with_defaults_and_earlier_assignments():
    cmd = main('MODEL="stabilityai/sdxl"\nexport PREC=${PREC:-bf16}\nOUT=${OUT_DIR-out}\n'
               'accelerate launch train_text_to_image.py --pretrained_model_name_or_path=$MODEL '
               '--mixed_precision="${PREC}" --output_dir ${OUT} --seed ${SEED:=42} --resolution ${RES}\n')
    vals = shell.parse_options(cmd.args).values
    assert vals["pretrained_model_name_or_path"] == "stabilityai/sdxl" and vals["mixed_precision"] == "bf16"
    assert vals["output_dir"] == "out" and vals["seed"] == "42"
    assert vals["resolution"] == "${RES}" and not shell.known(vals["resolution"])  # never set: kept, unknown


def test_single_quotes_and_command_substitution_stay_as_written():
    cmd = main("A=1\npython train_x.py --note '$A' --dtype $(python -c 'print(1)') --b $A\n")
    vals = shell.parse_options(cmd.args).values
    assert vals["note"] == "$A" and vals["b"] == "1" and not shell.known(vals["dtype"])


def test_a_comment_ending_in_a_backslash_does_not_continue_and_exit_ends_the_script():
    text = ("# python src/train_bash.py --flash_attn \\\n"
            "python src/train_bash.py --stage sft \\\n"
            "    # --bf16 \\\n"
            "    --fp16\n"
            "exit 0\n"
            "python other_train.py --xformers\n")
    sc = shell.parse(text, "run.sh")
    assert [c.script for c in sc.commands] == ["train_bash.py"]
    assert "--fp16" not in sc.commands[0].args and "--bf16" not in sc.commands[0].args  # a comment ends the command


def test_prefix_assignments_wrappers_and_launchers():
    cases = {
        "CUDA_VISIBLE_DEVICES=0 NPROC_PER_NODE=8 \\\n  swift sft --model m\n": ("swift", None, ["sft"]),
        "nohup python -u train_network.py --sdpa > log 2>&1 &\n": ("python", "train_network.py", []),
        "torchrun --nproc_per_node 2 --master_port 29500 finetune.py --bf16\n": ("torchrun", "finetune.py", []),
        "python -m torch.distributed.run --nproc_per_node=2 sft.py --bf16\n": ("torchrun", "sft.py", []),
        "python -m accelerate.commands.launch --num_processes=1 train_dreambooth.py --x\n": ("accelerate",
                                                                                              "train_dreambooth.py", []),
        "deepspeed --num_gpus 2 -H hostfile src/train_bash.py --stage sft\n": ("deepspeed", "train_bash.py", []),
        "srun --nodes 2 --ntasks-per-node=4 litgpt finetune_lora ckpt --precision bf16-true\n": ("litgpt", None,
                                                                                                ["finetune_lora"]),
        "!tune run --nproc_per_node 2 lora_finetune_distributed --config my.yaml\n": ("tune", None,
                                                                                     ["run", "lora_finetune_distributed"]),
        "conda run -n sd python sdxl_train.py --xformers\n": ("python", "sdxl_train.py", []),
        "env HF_HOME=/x accelerate launch --multi_gpu wan_train_network.py --sdpa\n": ("accelerate",
                                                                                      "wan_train_network.py", []),
    }
    for text, (program, script, sub) in cases.items():
        sc = shell.parse(text, "run.sh")
        c = sc.commands[0]
        assert (c.program, c.script, c.sub) == (program, script, sub), text
    c = shell.parse(list(cases)[0], "run.sh").commands[0]
    assert c.env["NPROC_PER_NODE"] == "8"  # the prefix is the command's environment
    c = shell.parse(list(cases)[2], "run.sh").commands[0]
    assert c.launcher_args == {"nproc_per_node": "2", "master_port": "29500"} and c.args == ["--bf16"]


def test_windows_bat_and_powershell():
    bat = ('@echo off\nREM a comment ^\nset MODEL=E:\\models\\v15.safetensors\nset "PREC=fp16"\n'
           'accelerate launch --num_cpu_threads_per_process 1 ^\n    E:\\sd-scripts\\train_network.py ^\n'
           '    --pretrained_model_name_or_path=%MODEL% ^\n    --mixed_precision="%PREC%" ^\n    --xformers\n')
    c = main(bat, "train.bat")
    assert c.script == "train_network.py"
    vals = shell.parse_options(c.args).values
    assert vals == {"pretrained_model_name_or_path": "E:\\models\\v15.safetensors", "mixed_precision": "fp16",
                    "xformers": True}
    ps1 = ('$env:PREC = "bf16"\n$MODEL = "m"\naccelerate launch `\n  sdxl_train_network.py `\n'
           '  --pretrained_model_name_or_path $MODEL `\n  --mixed_precision $env:PREC --sdpa\n')
    c = main(ps1, "train.ps1")
    assert c.script == "sdxl_train_network.py"
    assert shell.parse_options(c.args).values == {"pretrained_model_name_or_path": "m", "mixed_precision": "bf16",
                                                  "sdpa": True}


def test_bash_arrays_and_a_docs_snippet_without_continuations():
    text = ('ARGS=(\n  --xformers\n  "--mixed_precision=bf16"\n)\ncmd=("accelerate" "launch" "train_network.py")\n'
            '"${cmd[@]}" "${ARGS[@]}" --seed 1\n')
    c = main(text)
    assert c.script == "train_network.py" and c.args == ["--xformers", "--mixed_precision=bf16", "--seed", "1"]
    snippet = "accelerate launch sdxl_train_network.py\n --pretrained_model_name_or_path=m\n --sdpa\n"
    assert main(snippet).args == ["--pretrained_model_name_or_path=m", "--sdpa"]


def test_argparse_prefixes_unknown_and_ambiguous_options():
    table = {"xformers": "f", "mixed_precision": "1", "mem_eff_attn": "f", "max_train_steps": "1",
             "max_train_epochs": "1", "optimizer_args": "*"}
    p = shell.parse_options(["--xform", "--mixed", "bf16", "--max_train", "10", "--sage_atn",
                             "--optimizer_args", "a=1", "b=2", "--mem_eff_attn"], table)
    assert p.values == {"xformers": True, "mixed_precision": "bf16", "optimizer_args": "a=1 b=2",
                        "mem_eff_attn": True, "sage_atn": True}
    assert p.unknown == ["--sage_atn"] and p.ambiguous == [("--max_train", ["--max_train_epochs",
                                                                            "--max_train_steps"])]
    assert shell.nearest("--sage_atn", {"sage_attn": "f", "sdpa": "f"}) == "--sage_attn"
    assert shell.parse_options(["--seed", "-1"], {"seed": "1"}).values == {"seed": "-1"}  # a negative number


def test_the_real_option_tables_know_the_trainers_flags():
    for trainer, script, flags in (("sd-scripts", "sdxl_train_network.py", ("xformers", "sdpa", "mem_eff_attn")),
                                   ("musubi", "wan_train_network.py", ("sdpa", "flash_attn", "split_attn")),
                                   ("diffusers", "train_dreambooth.py", ("enable_xformers_memory_efficient_attention",))):
        table = shell.trainer_options(trainer, script)
        assert table and all(f in table for f in flags), (trainer, script)
    assert shell.trainer_options("sd-scripts", "my_own_train.py") is None  # a fork's script: nothing is checked


# ---- reading through them ----

def test_diffusers_script_with_defaults_keeps_its_flags(tmp_path):
    p = write(tmp_path, "train.sh", 'MODEL_NAME=${MODEL_NAME:-"runwayml/stable-diffusion-v1-5"}\n'
                                    'MP=${MIXED_PRECISION:-fp16}\n'
                                    'accelerate launch train_dreambooth.py \\\n  --pretrained_model_name_or_path=$MODEL_NAME \\\n'
                                    '  --enable_xformers_memory_efficient_attention \\\n  --mixed_precision=$MP\n')
    cfg = configs.load(str(p))
    assert (cfg["trainer"], cfg["required"], cfg["dtype"]) == ("diffusers", ["xformers"], "float16")


def test_only_the_training_command_is_read(tmp_path):
    p = write(tmp_path, "run.sh", "python wan_cache_latents.py --dataset_config d.toml --vae v\n"
                                  "accelerate launch wan_train_network.py --task t2v-14B --sdpa --mixed_precision bf16\n"
                                  "python wan_generate_video.py --attn_mode sageattn\n")
    cfg = configs.load(str(p))
    assert cfg["required"] == ["sdpa"] and cfg["sage_training"] is False


# ---- refusals on evidence ----

UNCLAIMED = {
    "pretrain.sh": ("torchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 2 --micro-batch-size 4 "
                    "--use-flash-attn --bf16\n", "looks like Megatron-LM"),
    "ppo.sh": ("python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo data.train_batch_size=32\n",
               "looks like verl"),
    "accelerate.yaml": ("compute_environment: LOCAL_MACHINE\ndistributed_type: MULTI_GPU\nmixed_precision: bf16\n"
                        "num_processes: 8\n", "looks like an accelerate config"),
    "ds.json": (json.dumps({"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 2},
                            "bf16": {"enabled": True}}), "looks like a DeepSpeed config"),
    "nemo.yaml": ("trainer:\n  devices: 8\n  precision: bf16\nexp_manager:\n  explicit_log_dir: x\nmodel:\n"
                  "  megatron_amp_O2: true\n  micro_batch_size: 1\n", "looks like NVIDIA NeMo"),
    "titan.toml": ('[job]\ndump_folder = "./out"\n[model]\nname = "llama3"\nflavor = "8B"\n[training]\nlocal_batch_size = 8\n',
                   "looks like torchtitan"),
    "cfg.py": ("_base_ = ['../_base_/default_runtime.py']\nmodel = dict(type='ImageClassifier')\n",
               "looks like an OpenMMLab (mmengine) config"),
}


@pytest.mark.parametrize("name", sorted(UNCLAIMED))
def test_unclaimed_frameworks_are_refused_not_read_as_another_trainer(tmp_path, name):
    text, said = UNCLAIMED[name]
    p = write(tmp_path, name, text)
    with pytest.raises(UsageError, match=re.escape(said)) as err:
        configs.load(str(p))
    msg = str(err.value)
    if name in ("accelerate.yaml", "ds.json"):  # a launcher's or an engine's settings: no trainer's reader is missing
        assert "\n" not in msg and "not a trainer config" in msg  # (cfg106: others.RUN_SETTINGS)
        return
    assert "\n" not in msg and "which attn-doctor does not read yet" in msg and "--trainer NAME" in msg


def test_dataset_configs_are_refused_as_dataset_configs(tmp_path):
    # musubi-tuner's dataset TOML, the layout of its docs/dataset_config.md
    musubi = write(tmp_path, "dataset.toml", '[general]\nresolution = [960, 544]\ncaption_extension = ".txt"\n'
                                             'batch_size = 1\nenable_bucket = true\n\n[[datasets]]\n'
                                             'video_directory = "/v"\ncache_directory = "/c"\ntarget_frames = [1, 25]\n'
                                             'frame_extraction = "head"\n')
    with pytest.raises(UsageError, match="is a dataset config \\(musubi-tuner's --dataset_config") as err:
        configs.load(str(musubi))
    assert "\n" not in str(err.value)
    sd = write(tmp_path, "lxq.toml", '[general]\nenable_bucket = true\n[[datasets]]\nresolution = 512\n'
                                     '[[datasets.subsets]]\nimage_dir = "img"\nclass_tokens = "sks"\nnum_repeats = 10\n')
    with pytest.raises(UsageError, match="sd-scripts' --dataset_config"):
        configs.load(str(sd))
    # a training TOML that also holds a [[datasets]] list (musubi-tuner's --config_file may) is not refused
    train = write(tmp_path, "train.toml", 'dit = "d"\nsdpa = true\nnetwork_module = "networks.lora_wan"\n'
                                          '[[datasets]]\nimage_directory = "x"\n')
    assert configs.load(str(train))["trainer"] == "musubi"


def test_python_and_notebooks(tmp_path):
    p = write(tmp_path, "train.py", "from unsloth import FastModel\nimport torch\n"
                                    "model, tok = FastModel.from_pretrained('m', dtype=torch.bfloat16, "
                                    "attn_implementation='flash_attention_2')\n")
    cfg = configs.load(str(p))
    assert (cfg["trainer"], cfg["required"], cfg["dtype"]) == ("unsloth", ["fa2"], "bfloat16")
    p = write(tmp_path, "lm.py", "from unsloth import FastLanguageModel\nDT = None\n"
                                 "m, t = FastLanguageModel.from_pretrained('m', dtype=DT, attn_implementation='eager')\n")
    cfg = configs.load(str(p))
    assert cfg["required"] == [] and cfg["dtype"] is None  # FastLanguageModel picks attention itself; dtype auto
    nb = {"cells": [{"cell_type": "markdown", "source": ["# x"]},
                    {"cell_type": "code", "source": ["!tune run lora_finetune_single_device --config c.yaml ",
                                                     "dataset.packed=True compile=True dtype=bf16\n"]}]}
    cfg = configs.load(str(write(tmp_path, "tt.ipynb", json.dumps(nb))))
    assert (cfg["trainer"], cfg["required"], cfg["dtype"], cfg["compile_mode"]) == ("torchtune", ["flex"], "bfloat16",
                                                                                    "default")
    hf = write(tmp_path, "sft.py", "import torch\nfrom transformers import AutoModelForCausalLM\nfrom trl import SFTConfig\n"
                                   "IMPL = 'sdpa'\nm = AutoModelForCausalLM.from_pretrained('m', torch_dtype=torch.bfloat16, "
                                   "attn_implementation=IMPL)\nargs = SFTConfig(packing=True, bf16=True)\n")
    cfg = configs.load(str(hf))
    assert (cfg["trainer"], cfg["required"], cfg["dtype"]) == ("transformers", ["sdpa"], "bfloat16")
    assert cfg["packing"] == [{"setting": "packing: true (bfd)", "attn": "sdpa"}]  # TRL's padding-free needs FA
    with pytest.raises(UsageError, match="a Python script with no trainer calls"):
        configs.load(str(write(tmp_path, "other.py", "import torch\nprint(torch.__version__)\n")))


def test_a_deeply_nested_report_is_one_line(tmp_path):
    from attn_doctor.saved import load_json

    p = tmp_path / "deep.json"
    p.write_bytes(b"[" * 100000)
    with pytest.raises(UsageError, match="too deeply nested to be an attn-doctor report"):
        load_json(str(p))



def test_old_llama_factory_and_kohya_gui_forms(tmp_path):
    old = write(tmp_path, "run.sh", "CUDA_VISIBLE_DEVICES=0 python src/train_bash.py --stage sft --do_train "
                                    "--model_name_or_path m --template default --finetuning_type lora --flash_attn --bf16\n")
    cfg = configs.load(str(old))
    assert (cfg["trainer"], cfg["required"], cfg["dtype"]) == ("llama-factory", ["fa2"], "bfloat16")  # the old boolean
    mid = write(tmp_path, "mid.sh", "python src/train_bash.py --stage sft --template default --flash_attn fa2 --fp16\n")
    assert configs.load(str(mid))["required"] == ["fa2"]
    gui = write(tmp_path, "lora.json", json.dumps({"LoRA_type": "Standard", "sdxl": True, "xformers": "sdpa",
                                                   "mem_eff_attn": False, "mixed_precision": "bf16",
                                                   "dynamo_backend": "inductor", "dynamo_mode": "default"}))
    cfg = configs.load(str(gui))
    # the GUI's dynamo setting only reaches `accelerate launch`; sd-scripts hands Accelerator dynamo_backend="NO" without
    # --torch_compile (library/train_util.py:5466-5500), so nothing is compiled (tests/test_configs_round3.py)
    assert (cfg["trainer"], cfg["script"], cfg["required"], cfg["compile_mode"]) == ("sd-scripts", "sdxl_train_network",
                                                                                    ["sdpa"], "none")
    older = write(tmp_path, "db.json", json.dumps({"pretrained_model_name_or_path": "m", "train_data_dir": "img",
                                                   "v2": False, "save_model_as": "ckpt", "enable_bucket": True,
                                                   "xformers": True, "mem_eff_attn": False, "mixed_precision": "fp16"}))
    cfg = configs.load(str(older))  # an older GUI's boolean "xformers"
    assert (cfg["script"], cfg["required"], cfg["dtype"]) == ("train_db", ["xformers"], "float16")
