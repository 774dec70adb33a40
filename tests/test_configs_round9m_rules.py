"""Issue 24: the mechanisms round 9m (a measure-only set, measured once at b2f24cb: 30/40 claimed files right in all
four fields, 15/16 others refused) showed missing, written in the next step (helper cfg10) with round 9m as training
material.

Every case is a variant written for this test (what it fakes is in its text), not a copy of a round-9m file:
- a TrainingArguments / TRL config keyword given as `args.NAME` is that option's argparse default when the script runs
  with no options (`--fp16` with `type=str_to_bool, default=True`, a store_true flag, a dest=), and a conditional
  expression (`torch.bfloat16 if args.bf16 else torch.float16`) takes the branch its known test picks;
- peft's prepare_model_for_kbit_training casts the weights to float32: torch_dtype no longer says the dtype;
- the accelerate config a file writes before its `accelerate launch` (write_basic_config, `accelerate config default`)
  gives a diffusers example's precision when the launch passes none;
- a function of the script's own that runs the list it is given is the launch;
- ms-swift run from Python (sft_main(SftArguments(...)), rlhf_main([...])) is a swift run; model_id_or_path alone
  (mistral-finetune's key too) is not ms-swift evidence;
- ai-toolkit run in-process (toolkit.job get_job / run_job) reads the job dict the script builds or dumps;
- a command run in a container (apptainer / singularity exec, docker / podman run) is the command it runs there, and a
  Python script in Unsloth's image is an Unsloth run.
Marked NEW: fail on main before this change (27eb802)."""

from __future__ import annotations

from configs_corpus import read as _read, refusal as _refusal

GRPO_ARGS = '''import argparse
import torch
from trl import GRPOConfig, GRPOTrainer


def to_bool(v):
    return str(v).lower() in ("1", "true", "yes")


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--model-name", default="Qwen/Qwen2.5-0.5B-Instruct")
    p.add_argument("--bf16", type=to_bool, default={bf16})
    p.add_argument("--half", dest="fp16", type=to_bool, default={fp16})
    return p.parse_args()


def main():
    opts = get_args()
    cfg = GRPOConfig(output_dir="out", bf16=opts.bf16, fp16=opts.fp16, num_generations=4,
                     model_init_kwargs={{"torch_dtype": torch.bfloat16 if opts.bf16 else torch.float16 if opts.fp16
                                        else torch.float32}})
    GRPOTrainer(model=opts.model_name, reward_funcs=[], args=cfg).train()


main()
'''


def test_a_trl_config_from_argparse_defaults_trains_in_their_dtype(tmp_path):  # NEW
    assert _read(tmp_path, "grpo.py", GRPO_ARGS.format(bf16="False", fp16="True"))[:3] == ("transformers", [], "float16")
    assert _read(tmp_path, "grpo2.py", GRPO_ARGS.format(bf16="True", fp16="False"))[:3] == ("transformers", [],
                                                                                           "bfloat16")


def test_a_string_default_goes_through_the_bool_parser(tmp_path):  # NEW
    # argparse runs `type` over a string default: "true" through a bool parser of the script's own is True
    assert _read(tmp_path, "grpo.py", GRPO_ARGS.format(bf16='"false"', fp16='"true"'))[2] == "float16"


STORE_TRUE = '''import argparse
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

parser = argparse.ArgumentParser()
parser.add_argument("--bf16", action="{action}")
parser.add_argument("--attn", default="{attn}")
args = parser.parse_args()
model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.2-1B", attn_implementation=args.attn)
Trainer(model=model, args=TrainingArguments(output_dir="o", bf16=args.bf16)).train()
'''


def test_a_store_true_flag_is_off_and_a_store_false_one_on(tmp_path):  # NEW
    assert _read(tmp_path, "a.py", STORE_TRUE.format(action="store_false", attn="flash_attention_2"))[:3] == (
        "transformers", ["fa2"], "bfloat16")
    got = _read(tmp_path, "b.py", STORE_TRUE.format(action="store_true", attn="sdpa"))
    assert got[:2] == ("transformers", ["sdpa"]) and got[2] != "bfloat16", got


def test_an_option_two_parsers_define_differently_stays_unknown(tmp_path):  # NEW (its --attn default)
    # near miss: `--bf16` defaults to True in one parser and False in another: which one runs is the script's business
    text = STORE_TRUE.replace('parser.add_argument("--bf16", action="{action}")',
                              'parser.add_argument("--bf16", action="store_false")\n'
                              'other = argparse.ArgumentParser()\nother.add_argument("--bf16", action="store_true")')
    got = _read(tmp_path, "c.py", text.format(attn="sdpa"))
    assert got[:2] == ("transformers", ["sdpa"]) and got[2] != "bfloat16", got


def test_an_attribute_of_another_object_is_not_an_option(tmp_path):  # NEW (its --attn default)
    # near miss: `cfg.bf16` of a config object the script loads is not the argparse option of the same name
    text = STORE_TRUE.format(action="store_false", attn="sdpa").replace(
        "bf16=args.bf16", "bf16=cfg.bf16").replace("args = parser.parse_args()",
                                                   "args = parser.parse_args()\ncfg = load_config('x.yaml')")
    got = _read(tmp_path, "d.py", text)
    assert got[:2] == ("transformers", ["sdpa"]) and got[2] != "bfloat16", got


KBIT = '''import torch
from peft import LoraConfig, get_peft_model, prepare_model_for_kbit_training
from transformers import AutoModelForCausalLM, {quant}
from trl import SFTConfig, SFTTrainer

base = AutoModelForCausalLM.from_pretrained("google/gemma-3-270m", {kw}=torch.{dtype}, device_map="auto"{qarg})
base = {prepare}(base)
model = get_peft_model(base, LoraConfig(r=8, task_type="CAUSAL_LM"))
args = {cfg}(output_dir="out", per_device_train_batch_size=2{flags})
SFTTrainer(model=model, args=args, train_dataset=None).train()
'''


def _kbit(**kw):
    d = dict(quant="BitsAndBytesConfig", kw="torch_dtype", dtype="float16", qarg="", prepare="prepare_model_for_kbit_training",
             cfg="SFTConfig", flags="")
    d.update(kw)
    return KBIT.format(**d)


def test_prepare_model_for_kbit_training_casts_the_weights_to_float32(tmp_path):  # NEW
    # peft casts the fp16 / bf16 parameters to float32: torch_dtype no longer says the run's dtype. With an SFTConfig
    # that sets no bf16 / fp16, the autocast is TRL's default, which depends on its version: not said
    assert _read(tmp_path, "a.py", _kbit())[2] == ""
    assert _read(tmp_path, "b.py", _kbit(dtype="bfloat16"))[2] == ""
    # TrainingArguments keep bf16 / fp16 False: float32 weights, no autocast
    assert _read(tmp_path, "c.py", _kbit(cfg="TrainingArguments"))[2] == "float32"


def test_after_the_upcast_the_autocast_flag_decides(tmp_path):
    assert _read(tmp_path, "a.py", _kbit(flags=", bf16=True"))[2] == "bfloat16"
    assert _read(tmp_path, "b.py", _kbit(cfg="TrainingArguments", flags=", fp16=True"))[2] == "float16"
    # the `dtype` keyword dates the script to a TRL whose configs default bf16 to `not fp16` (>= 0.19)
    assert _read(tmp_path, "c.py", _kbit(kw="dtype"))[2] == "bfloat16"


def test_without_the_upcast_torch_dtype_stays_the_dtype(tmp_path):
    # near misses: another function of the script's own, and a quantization method peft leaves as it is (GPTQ)
    assert _read(tmp_path, "a.py", _kbit(prepare="prepare_model", cfg="TrainingArguments"))[2] == "float16"
    assert _read(tmp_path, "b.py", _kbit(quant="GPTQConfig", qarg=", quantization_config=GPTQConfig(bits=4)",
                                         cfg="TrainingArguments"))[2] == "float16"


def test_after_the_upcast_an_autocast_the_gpu_chooses_stays_unknown(tmp_path):  # NEW
    # near miss: bf16 / fp16 given from is_bf16_supported(): an autocast, which one the file does not say
    gpu = ", bf16=torch.cuda.is_bf16_supported(), fp16=not torch.cuda.is_bf16_supported()"
    assert _read(tmp_path, "a.py", _kbit(cfg="TrainingArguments", flags=gpu))[2] == ""
    assert _read(tmp_path, "b.py", _kbit(kw="dtype", flags=gpu))[2] == ""


# --- the accelerate config a file writes before it launches a diffusers example ---------------------------------

RUNNER = '''import subprocess
from accelerate.utils import write_basic_config


def main():
    {write}
    cmd = ["accelerate", "launch"{launch_opts}, "train_dreambooth_lora_sdxl.py",
           "--pretrained_model_name_or_path", "stabilityai/stable-diffusion-xl-base-1.0",
           "--instance_data_dir", "data", "--instance_prompt", "a photo of sks dog", "--output_dir", "out"]
    subprocess.run(cmd, check=True)


main()
'''


def test_write_basic_config_decides_the_launch_precision(tmp_path):  # NEW
    go = (lambda name, **kw: _read(tmp_path, name, RUNNER.format(**{"launch_opts": "", **kw})))
    assert go("a.py", write='write_basic_config(mixed_precision="bf16")')[:3] == ("diffusers", [], "bfloat16")
    assert go("b.py", write='write_basic_config("fp16")')[2] == "float16"
    assert go("c.py", write="write_basic_config()")[2] == "float32"  # accelerate's default: "no"


def test_the_launch_flag_and_another_config_file_win_over_the_written_config(tmp_path):
    go = (lambda name, **kw: _read(tmp_path, name, RUNNER.format(**kw)))
    # near misses: --mixed_precision on the launch line wins; a launch that names another config file reads that one
    assert go("a.py", write='write_basic_config(mixed_precision="fp16")',
              launch_opts=', "--mixed_precision", "bf16"')[2] == "bfloat16"
    assert go("b.py", write='write_basic_config(mixed_precision="fp16")',
              launch_opts=', "--config_file", "my_accel.yaml"')[2] == ""
    assert go("c.py", write="pass", launch_opts="")[2] == ""  # nothing written: the machine's own config decides


def test_a_written_config_at_the_path_the_launch_names(tmp_path):  # NEW
    got = _read(tmp_path, "a.py", RUNNER.format(write='write_basic_config(mixed_precision="bf16", '
                                                      'save_location="acc.json")',
                                                launch_opts=', "--config_file", "acc.json"'))
    assert got[2] == "bfloat16", got


def test_accelerate_config_default_in_a_shell_script(tmp_path):  # NEW
    sh = ("#!/bin/bash\nset -e\naccelerate config default --mixed_precision {mp}\n"
          "accelerate launch train_text_to_image_lora.py --pretrained_model_name_or_path runwayml/stable-diffusion-v1-5 "
          "--dataset_name lambdalabs/naruto-blip-captions --output_dir out --train_batch_size 1\n")
    assert _read(tmp_path, "a.sh", sh.format(mp="bf16"))[:3] == ("diffusers", [], "bfloat16")
    assert _read(tmp_path, "b.sh", sh.replace(" --mixed_precision {mp}", ""))[2] == "float32"


def test_a_config_written_after_the_launch_says_nothing_of_it(tmp_path):
    sh = ("accelerate launch train_text_to_image_lora.py --pretrained_model_name_or_path runwayml/stable-diffusion-v1-5 "
          "--dataset_name lambdalabs/naruto-blip-captions --output_dir out\naccelerate config default --mixed_precision bf16\n")
    assert _read(tmp_path, "a.sh", sh)[2] == ""


# --- a function of the script's own that runs the command it is given ---------------------------------------------

HELPER = '''import subprocess


def {fn}(label, command):
    print("running", label)
    proc = subprocess.Popen(command, stdout=subprocess.PIPE)
    proc.wait()


def train():
    {fn}("dreambooth", [
        "accelerate", "launch", "examples/dreambooth/train_dreambooth_lora_flux.py",
        "--mixed_precision=bf16", "--pretrained_model_name_or_path=black-forest-labs/FLUX.1-dev",
        "--instance_data_dir=imgs", "--instance_prompt=a TOK icon", "--output_dir=out"{extra}])
'''


def test_a_helper_that_runs_its_argument_is_the_launch(tmp_path):  # NEW
    assert _read(tmp_path, "a.py", HELPER.format(fn="_exec_subprocess", extra=""))[:3] == ("diffusers", [], "bfloat16")
    got = _read(tmp_path, "b.py", HELPER.format(fn="launch_job", extra=', "--enable_xformers_memory_efficient_attention"'))
    assert got[:3] == ("diffusers", ["xformers"], "bfloat16"), got


def test_a_helper_that_only_prints_its_argument_runs_nothing(tmp_path):
    # near miss: the list goes to a function that logs it; the Popen inside runs something else
    text = HELPER.format(fn="show", extra="").replace("subprocess.Popen(command,", 'subprocess.Popen(["nvidia-smi"],')
    assert "train_dreambooth_lora_flux.py" not in _refusal(tmp_path, "a.py", text)


# --- ms-swift run from Python ------------------------------------------------------------------------------------

SWIFT_API = '''import os
{imports}

args = {cls}(
    {kwargs}
)
result = {main}(args)
print(result["last_model_checkpoint"])
'''


def test_swift_python_api_is_a_swift_run(tmp_path):  # NEW
    v2 = SWIFT_API.format(imports="from swift.llm import ModelType, SftArguments, sft_main", cls="SftArguments",
                          main="sft_main", kwargs='model_type=ModelType.qwen2_7b_instruct, model_id_or_path="/models/q",\n'
                                              '    dataset=["alpaca-zh#500"], sft_type="lora", output_dir="output"')
    assert _read(tmp_path, "a.py", v2) == ("ms-swift", [], "", "none")
    v2fa = v2.replace('sft_type="lora"', 'sft_type="lora", use_flash_attn=True, dtype="bf16"')
    assert _read(tmp_path, "b.py", v2fa)[:3] == ("ms-swift", ["fa2"], "bfloat16")
    v3 = SWIFT_API.format(imports="from swift.llm import TrainArguments as TA, sft_main as run_sft", cls="TA",
                          main="run_sft", kwargs='model="Qwen/Qwen2.5-7B-Instruct", train_type="lora",\n'
                                              '    attn_impl="flash_attn", torch_dtype="bfloat16"')
    assert _read(tmp_path, "c.py", v3)[:3] == ("ms-swift", ["fa2"], "bfloat16")  # names imported under aliases


def test_swift_rlhf_main_with_a_list_of_words(tmp_path):  # NEW
    text = ('from swift.llm import rlhf_main\n\nrlhf_main(["--rlhf_type", "dpo", "--model", "Qwen/Qwen2.5-7B-Instruct",\n'
            '           "--train_type", "lora", "--attn_impl", "sdpa", "--torch_dtype", "float16"])\n')
    assert _read(tmp_path, "dpo.py", text)[:3] == ("ms-swift", ["sdpa"], "float16")


def test_a_main_of_another_package_is_not_swift(tmp_path):
    # near miss: sft_main imported from the user's own module, with arguments of the same names
    text = SWIFT_API.format(imports="from mytrainer import SftArguments, sft_main", cls="SftArguments", main="sft_main",
                            kwargs='model_id_or_path="/models/q", sft_type="lora"')
    assert "ms-swift" not in _refusal(tmp_path, "a.py", text).split("(it reads")[0]


def test_model_id_or_path_alone_is_not_swift(tmp_path):  # NEW
    # mistral-finetune's YAML (finetune/args.py TrainArgs) names its model with the key ms-swift 2.x used too
    yml = ("data:\n  instruct_data: data/train.jsonl\nmodel_id_or_path: /models/mistral-7b-v0.3\nlora:\n  rank: 16\n"
           "seq_len: 4096\nbatch_size: 1\nmax_steps: 200\noptim:\n  lr: 1.e-4\nrun_dir: runs/x\n")
    msg = _refusal(tmp_path, "mf.yaml", yml)
    assert "ms-swift" not in msg.split("(it reads")[0] and "mistral-finetune" in msg, msg  # named since cfg137
    # ms-swift 2.x's YAML still says so by its own keys
    assert _read(tmp_path, "s.yaml", "model_id_or_path: /models/q\nsft_type: lora\nuse_flash_attn: true\n")[:2] == (
        "ms-swift", ["fa2"])


# --- ai-toolkit run in-process (toolkit.job) ---------------------------------------------------------------------

AITK = '''import sys
import yaml
from collections import OrderedDict

sys.path.insert(0, "/opt/ai-toolkit")
from toolkit.job import {fn}


def make_process(steps):
    return {{
        "type": "sd_trainer",
        "model": {{"arch": "{arch}", "name_or_path": "org/model", "quantize": True}},
        "train": {{"batch_size": 1, "steps": steps, "dtype": "{dtype}"{train_extra}}},
        "network": {{"type": "lora", "linear": 16, "linear_alpha": 16}},
    }}


def job(steps):
    proc = make_process(steps)
    return OrderedDict({{"job": "extension", "config": {{"name": "my_lora", "process": [proc]}}}})

{run}
'''


def _aitk(**kw):
    d = dict(fn="get_job", arch="flux", dtype="bf16", train_extra="", run="")
    d.update(kw)
    return AITK.format(**d)


def test_get_job_of_the_yaml_the_script_writes(tmp_path):  # NEW
    run = ('path = "/tmp/job.yaml"\nwith open(path, "w") as fh:\n    yaml.dump(dict(job(int(sys.argv[1]))), fh)\n'
           'get_job(path).run()\n')
    assert _read(tmp_path, "a.py", _aitk(run=run)) == ("ai-toolkit", [], "bfloat16", "none")
    run2 = run.replace('path = "/tmp/job.yaml"\nwith open(path, "w")', 'with open("/tmp/job.yaml", "w")').replace(
        "get_job(path)", 'get_job("/tmp/job.yaml")')
    got = _read(tmp_path, "b.py", _aitk(run=run2, train_extra=', "attention_backend": "flash"', dtype="fp16"))
    assert got[:3] == ("ai-toolkit", ["fa2"], "float16"), got


def test_run_job_of_a_dict(tmp_path):  # NEW
    got = _read(tmp_path, "a.py", _aitk(fn="run_job", run="cfg = job(1000)\nrun_job(cfg)\n",
                                        train_extra=', "xformers": True'))
    assert got[:3] == ("ai-toolkit", ["xformers"], "bfloat16"), got


def test_get_job_of_something_else_is_not_ai_toolkit(tmp_path):
    # near misses: a get_job of the script's own (no toolkit.job import), and a dict without the job layout
    run = "cfg = job(1000)\nget_job(cfg).run()\n"
    assert "ai-toolkit" not in _refusal(tmp_path, "a.py", _aitk(run=run).replace("from toolkit.job import get_job",
                                                                               "from myjobs import get_job")).split("(it reads")[0]
    text = _aitk(run=run).replace('"job": "extension", ', "")
    assert "ai-toolkit" not in _refusal(tmp_path, "b.py", text).split("(it reads")[0]


# --- a command run inside a container image ----------------------------------------------------------------------

def test_a_script_in_unsloths_image_is_an_unsloth_run(tmp_path):  # NEW
    sh = ("#!/bin/bash\n#SBATCH --gres=gpu:1\nmodule load apptainer\n"
          "singularity exec --nv -B $SCRATCH:$SCRATCH --cleanenv $SCRATCH/images/unsloth.sif python3 $HOME/ft/sft_qwen.py\n")
    assert _read(tmp_path, "job.sh", sh) == ("unsloth", [], "", "none")
    dk = ("docker run --rm -it --gpus all -v $PWD:/workspace -e HF_TOKEN=$HF_TOKEN unsloth/unsloth:2025.9 "
          "python /workspace/train_lora.py\n")
    assert _read(tmp_path, "run.sh", dk)[0] == "unsloth"


def test_a_trainer_cli_inside_a_container_is_that_trainer(tmp_path):  # NEW
    # the command after the image is read as any command line: here LLaMA-Factory's CLI in its own image
    (tmp_path / "sft.yaml").write_text("model_name_or_path: Qwen/Qwen2.5-7B\nstage: sft\ndo_train: true\n"
                                       "finetuning_type: lora\ntemplate: qwen\nflash_attn: fa2\nbf16: true\n")
    dk = "docker run --rm --gpus all --shm-size 16g -v $PWD:/app -w /app hiyouga/llamafactory:latest llamafactory-cli train sft.yaml\n"
    assert _read(tmp_path, "go.sh", dk)[:3] == ("llama-factory", ["fa2"], "bfloat16")


def test_a_script_in_another_image_is_not_unsloth(tmp_path):
    # near misses: another image; a non-Python command in Unsloth's image
    sh = "apptainer exec --nv $WORK/pytorch_24.05.sif python $WORK/finetune_8b.py\n"
    assert "unsloth" not in _refusal(tmp_path, "a.sh", sh).lower().split("(it reads")[0]
    sh2 = "apptainer exec --nv $WORK/unsloth_latest.sif nvidia-smi\n"
    assert "unsloth" not in _refusal(tmp_path, "b.sh", sh2).lower().split("(it reads")[0]


def test_a_written_config_beside_no_launch_changes_no_refusal(tmp_path):
    # near miss: write_basic_config, then only installs: the script starts no training, and says so as before
    text = ("import subprocess\nfrom accelerate.utils import write_basic_config\n\nwrite_basic_config()\n"
            'subprocess.run(["pip", "install", "-q", "bitsandbytes"])\n')
    assert "no trainer calls" in _refusal(tmp_path, "setup.py", text)
