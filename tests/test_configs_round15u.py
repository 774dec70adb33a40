"""Issue 24, round 15u: users' files of frameworks attn-doctor does not claim (launches in users' repositories and
forks, users' own trainers, forks that change the program, accelerate / DeepSpeed / app settings) are refused in one
line, never read as a claimed trainer on evidence the claimed trainer does not own; the one claimed file is read.

Round 15u (fixtures/configs/round15u, measured on main at b16011e: 49 of 52 refused) is checked whole below. The three
it read as a trainer, and what each rule now says is a claimed trainer's own evidence:
- diffusers' examples take every setting as an option and read no settings file: a script handed one through an option
  no example defines (x-flux's train_flux_deepspeed*.py --config X.yaml) is not an example, whatever its name looks like;
- sd-scripts loads its model only from keys its scripts define: a --config_file TOML naming weights under another key
  (a fork's anima_transformer = "...safetensors") is written for another program built on its option names;
- diffusion-pipe's [model] table is its own only with `type` (train.py reads config['model']['type']);
- a script that is none of sd-scripts' takes sd-scripts' options and at most a couple more as a renamed copy; three or more
  options sd-scripts never defines make it another trainer's (a user's own, EasyAnimate's train_lora.py).
The other cases are variants written for this test (what each fakes is in its text), not copies of the fixtures; each
refusal names the framework where its own evidence (module, script or CLI name, keys) says which. Near misses: files
of claimed trainers that must still be read."""

from __future__ import annotations

from pathlib import Path

import pytest

from configs_corpus import expect, read as _read, refusal as _refusal, without_path
from attn_doctor import configs
from attn_doctor.model import UsageError

ROUND = Path(__file__).resolve().parents[1] / "fixtures" / "configs" / "round15u"
FILES = sorted(p for p in ROUND.rglob("*") if p.is_file() and p.suffix != ".md" and not p.name.endswith(".expect.toml"))


@pytest.mark.parametrize("path", [p for p in FILES if expect(p)["trainer"] == "none"
                                  or expect(p)["trainer"].startswith("unclaimed:")], ids=lambda p: p.name[:60])
def test_round15u_unclaimed_file_is_refused_in_one_line(path):
    with pytest.raises(UsageError) as err:
        configs.load(str(path))
    assert "\n" not in str(err.value)


def test_round15u_claimed_file_is_read():
    """A CogVideoX LoRA launch of the script diffusers ships as examples/cogvideo/train_cogvideox_lora.py."""
    claimed = [p for p in FILES if not (expect(p)["trainer"] == "none" or expect(p)["trainer"].startswith("unclaimed:"))]
    assert claimed
    for p in claimed:
        e = expect(p)
        cfg = configs.load(str(p))
        assert (cfg["detected"]["trainer"], sorted(cfg["required"]), cfg["dtype"] or "", cfg["compile_mode"] or "none") == \
            (e["trainer"], sorted(e["required"]), e["dtype"], e["compile_mode"] or "none"), p


# The refusals name what the files' own evidence says (a framework's module, script, CLI or keys)
NAMED = {"yyht__openrlhf_async_pipline__examples__scripts__run_ray_rl.sh": "looks like OpenRLHF",
         "utsav-shah10__llama-cognam__mlx_scripts__train.sh": "looks like mlx-lm",
         "yanfeng98__fork-RL2__examples__orz_ppo.sh": "looks like RL2",
         "bsdcfp__x-flux__scripts__start_train_ds_gradient_ckpt_H100.sh": "looks like XLabs x-flux",
         "bestdpf__FastChat__scripts__test_train.sh": "looks like FastChat",
         "guyueh1__NeMo__lora_debug__reproduce_ampO2_peft_bug.sh": "looks like NVIDIA NeMo",
         "riccardofeingold__cosmos-predict2.5__scripts__start_post_training_action_conditioned.sh": "looks like NVIDIA Cosmos",
         "oahzxl__ColossalAI__examples__language__llama2__train.sh": "looks like ColossalAI",
         "Jordach__StableTuner__configs__4090_SD2_512_finetune.json": "looks like StableTuner",
         "scchy__XtunerGUI__template_configs__lora.py": "looks like XTuner",
         "FifthEpoch__open-sora-v2.0-experiment__configs__diffusion__train__stage1.py": "looks like Open-Sora",
         "FHfanshu__sd-scripts-anima__configs__examples__anima_quickstart_train_args.toml": "looks like a trainer built on "
                                                                                          "sd-scripts",
         "Hansen06__DeepSpeed-Chat-GPT2__training__step1_supervised_finetuning__training_scripts__single_gpu__run_gpt2.sh":
             "looks like DeepSpeed-Chat",
         "SruthiSudhakar__HunyuanVideo-1.5-train-sruthi__run_generation.sh": "is not a trainer config: it runs generate.py"}


@pytest.mark.parametrize("name", sorted(NAMED), ids=lambda n: n[:60])
def test_round15u_refusal_names_the_framework(name):
    path = next(p for p in FILES if p.name == name)
    with pytest.raises(UsageError) as err:
        configs.load(str(path))
    assert NAMED[name] in without_path(str(err.value), path).split("(it reads")[0]


# --- diffusers: a script handed a settings file is not one of its examples --------------------------------------------

@pytest.mark.parametrize("line", [
    # NEW: read as diffusers on main (the name matches the examples' family, half its options are an example's)
    "accelerate launch --mixed_precision bf16 train_flux_lora.py --config=configs/lora.yml "
    "--enable_xformers_memory_efficient_attention",
    "accelerate launch train_flux_deepspeed.py --config 'train_configs/finetune.yaml' --gradient_checkpointing",
    "python train_sd3_lora.py --config_file configs/sd3.py --pretrained_model_name_or_path stabilityai/sd3-medium",
    "torchrun --nproc_per_node 2 train_text_to_image_v2.py --config_path cfg/run.json --mixed_precision fp16 "
    "--train_batch_size 4",
])
def test_settings_file_option_is_not_a_diffusers_example(tmp_path, line):
    msg = _refusal(tmp_path, "run.sh", line + "\n")
    assert "diffusers" not in msg.split("(it reads")[0]


@pytest.mark.parametrize("line,want", [
    # near misses: diffusers' own examples and a renamed copy with a couple of options of its own are still read
    ("accelerate launch --config_file accel.yaml train_dreambooth_lora.py --pretrained_model_name_or_path "
     "runwayml/stable-diffusion-v1-5 --instance_data_dir dog --instance_prompt 'a sks dog' --mixed_precision fp16 "
     "--enable_xformers_memory_efficient_attention", ("diffusers", ["xformers"], "float16")),
    ("accelerate launch train_text_to_image_lora.py --pretrained_model_name_or_path runwayml/stable-diffusion-v1-5 "
     "--dataset_name lambdalabs/naruto-blip-captions --dataset_config_name default --mixed_precision bf16 "
     "--train_batch_size 1", ("diffusers", [], "bfloat16")),
    ("accelerate launch train_dreambooth_sdxl_lora.py --pretrained_model_name_or_path sdxl --instance_data_dir dog "
     "--instance_prompt 'a sks dog' --resolution 1024 --train_batch_size 1 --mixed_precision fp16 --class_token dog "
     "--unique_token sks --max_train_steps 500", ("diffusers", [], "float16")),
])
def test_diffusers_examples_still_read(tmp_path, line, want):
    assert _read(tmp_path, "train.sh", line + "\n")[:3] == want


def test_x_flux_launch_named(tmp_path):  # NEW: "runs train_flux_lora_deepspeed.py, a training script ..." on main
    msg = _refusal(tmp_path, "train.sh", 'accelerate launch train_flux_lora_deepspeed.py --config "train_configs/lora.yaml"\n')
    assert "x-flux" in msg


# --- sd-scripts: a TOML whose model is loaded from keys sd-scripts has no option for -----------------------------------

FORK_TOML = """pretrained_model_name_or_path = "/models/base.safetensors"
{key} = "/models/{file}"
dataset_config = "dataset.toml"
network_module = "networks.lora"
network_dim = 16
network_alpha = 16
xformers = true
mixed_precision = "bf16"
enable_bucket = true
"""


@pytest.mark.parametrize("key,file", [("anima_transformer", "anima.safetensors"), ("my_dit", "dit.ckpt"),
                                      ("unet_path", "unet.sft"), ("transformer_gguf", "model-Q8_0.gguf"),
                                      ("qwen_vl", "qwen2.5-vl-7b.pth")])
def test_weights_under_a_foreign_key_is_not_sd_scripts(tmp_path, key, file):  # NEW: read as sd-scripts on main
    msg = _refusal(tmp_path, "train.toml", FORK_TOML.format(key=key, file=file))
    assert "built on sd-scripts" in msg and key in msg


@pytest.mark.parametrize("key,value", [("vae", "/models/sdxl_vae.safetensors"), ("ae", "/models/ae.safetensors"),
                                       ("t5xxl", "/models/t5xxl_fp16.safetensors"),
                                       ("protected_tags_file", "/data/tags.txt"), ("sample_prompts", "prompts.txt")])
def test_sd_scripts_toml_still_read(tmp_path, key, value):  # near miss: its own weights keys, a non-weights extra
    assert _read(tmp_path, "train.toml", FORK_TOML.format(key=key, file="x").replace('"/models/x"', f'"{value}"'))[0] \
        == "sd-scripts"


def test_musubi_weights_key_still_a_tie(tmp_path):  # near miss: musubi-tuner's own dit beside sd-scripts' save_model_as
    msg = _refusal(tmp_path, "mixed.toml", 'dit = "d.safetensors"\nsave_model_as = "safetensors"\nsdpa = true\n')
    assert "only musubi-tuner has (dit)" in msg and "built on sd-scripts" not in msg


def test_generation_toml_is_not_called_a_fork(tmp_path):  # near miss: weights beside only keys every program has
    msg = _refusal(tmp_path, "gen.toml", 'task = "t2v-14B"\nt5 = "models/umt5.pth"\noutput_dir = "out"\nseed = 42\n'
                                         'guidance_scale = 5.0\n')
    assert "built on sd-scripts" not in msg


def test_sd_scripts_renamed_copy_with_extra_options_is_another_trainer(tmp_path):  # NEW: read as sd-scripts on main
    line = ("python my_sdxl_trainer.py --pretrained_model_name_or_path sdxl.safetensors --train_data_dir data "
            "--enable_bucket --xformers --mixed_precision fp16 --caption_extension .txt --resolution 1024 --lora_rank 16 "
            "--num_epochs 10 --use_my_loss\n")
    assert "sd-scripts" not in _refusal(tmp_path, "run.sh", line).split("(it reads")[0]


def test_sd_scripts_renamed_copy_still_read(tmp_path):  # near miss: a copy that adds one option of its own
    line = ("accelerate launch --num_cpu_threads_per_process 4 sdxl_train_v2.py --pretrained_model_name_or_path "
            "sdxl.safetensors --train_data_dir data --enable_bucket --xformers --mixed_precision bf16 --caption_extension "
            ".txt --resolution 1024 --save_model_as safetensors --pin_memory\n")
    assert _read(tmp_path, "run.sh", line)[:2] == ("sd-scripts", ["xformers"])


def test_videox_fun_launch_is_refused_and_named(tmp_path):  # NEW: read as sd-scripts on main
    line = ("accelerate launch --mixed_precision=bf16 scripts/train_lora.py --config_path=config/easyanimate.yaml "
            "--pretrained_model_name_or_path=models/EasyAnimate --train_data_dir=data --train_data_meta=data/meta.json "
            "--image_sample_size=1024 --video_sample_size=256 --train_batch_size=1 --num_train_epochs=100 "
            "--checkpointing_steps=50 --learning_rate=1e-04 --seed=42 --output_dir=out --gradient_checkpointing "
            "--mixed_precision=bf16 --enable_xformers_memory_efficient_attention --enable_bucket\n")
    assert "VideoX-Fun" in _refusal(tmp_path, "train_lora.sh", line)


# --- diffusion-pipe: [model] is its layout only with `type` ------------------------------------------------------------

ROOT_TOML = """[model]
{typ}transformer_path = "/models/transformer.safetensors"
vae_path = "/models/vae.safetensors"

[training]
epochs = 10
mixed_precision = "bf16"

[output]
output_dir = "out"
"""


def test_model_table_without_type_is_not_diffusion_pipe(tmp_path):  # NEW: read as diffusion-pipe on main
    _refusal(tmp_path, "single.toml", ROOT_TOML.format(typ=""))  # refused, not read as diffusion-pipe


def test_diffusion_pipe_model_table_still_read(tmp_path):  # near miss
    text = 'output_dir = "out"\ndataset = "dataset.toml"\nepochs = 10\nmicro_batch_size_per_gpu = 1\n' + \
        ROOT_TOML.format(typ='type = "flux"\ndtype = "bfloat16"\n').split("[training]")[0]
    assert _read(tmp_path, "flux.toml", text)[:3] == ("diffusion-pipe", [], "bfloat16")


# --- naming: the framework's own module, CLI, script or option names ----------------------------------------------------

@pytest.mark.parametrize("line,word", [
    ('ray job submit --address="http://127.0.0.1:8265" --runtime-env-json=\'{"working_dir": "/openrlhf"}\' -- '
     "python3 -m openrlhf.cli.train_ppo_ray --pretrain Qwen/Qwen2.5-7B --bf16 --flash_attn", "OpenRLHF"),
    ("ray job submit --address=http://localhost:8265 -- python3 -m verl.trainer.main_ppo data.train_batch_size=8",
     "verl"),
    ("mlx_lm.lora --model mlx-community/Qwen2.5-7B-Instruct-4bit --train --data data --iters 600 --grad-checkpoint",
     "mlx-lm"),
    ("python -m mlx_lm.lora --model Qwen/Qwen2.5-3B --train --fine-tune-type full --batch-size 2", "mlx-lm"),
    ("torchrun --nproc_per_node=4 -m RL2.trainer.grpo actor.model_name=Qwen/Qwen3-4B trainer.n_epochs=2", "RL2"),
    ("torchrun --nproc_per_node=8 --master_port=20001 fastchat/train/train_mem.py --model_name_or_path llama "
     "--bf16 True --gradient_checkpointing True", "FastChat"),
    ("python examples/nlp/language_modeling/megatron_gpt_pretraining.py trainer.devices=8 trainer.precision=bf16 "
     "model.micro_batch_size=4", "NeMo"),
    ("deepspeed main.py --data_path Dahoas/rm-static --data_split 2,4,4 --model_name_or_path facebook/opt-1.3b "
     "--zero_stage 2 --deepspeed --output_dir out", "DeepSpeed-Chat"),
    ("torchrun --nproc_per_node=8 -m scripts.train --config=cosmos_predict2/configs/base/config.py -- "
     "experiment=predict2_video2world_training_2b", "Cosmos"),
    ("torchrun --standalone --nproc_per_node 8 pretrain.py --plugin gemini_auto --config 7b --flash_attention "
     "--mixed_precision bf16", "ColossalAI"),
])
def test_command_lines_name_their_framework(tmp_path, line, word):
    msg = _refusal(tmp_path, "launch.sh", line + "\n").split("(it reads")[0]
    assert "looks like" in msg and word in msg.split("looks like", 1)[1]


@pytest.mark.parametrize("line,word", [
    # near misses: the same names without the framework's own evidence
    ("deepspeed main.py --model_name_or_path facebook/opt-1.3b --zero_stage 2 --output_dir out", "DeepSpeed-Chat"),
    ("python megatron_gpt_eval.py --checkpoint ckpt.nemo --prompt hello", "NeMo"),
    ("torchrun -m scripts.train --config=configs/base/config.py -- experiment=mine", "Cosmos"),
    ("torchrun pretrain.py --plugin mine --config 7b", "ColossalAI"),
])
def test_command_lines_without_the_evidence_are_not_named(tmp_path, line, word):
    assert word not in _refusal(tmp_path, "launch.sh", line + "\n").split("(it reads")[0]


def test_stabletuner_json_named(tmp_path):  # NEW: "settings several trainers share" on main
    text = '{"concepts": [], "model_path": "sd2", "mixed_precision": "fp16", "use_8bit_adam": 1, ' \
           '"send_telegram_updates": 0, "use_latent_cache": 1, "auto_balance_concept_datasets": 1, ' \
           '"use_gradient_checkpointing": 1, "train_epocs": "200"}'
    assert "StableTuner" in _refusal(tmp_path, "my_config.json", text)


def test_xtuner_and_open_sora_configs_named(tmp_path):  # NEW: "an OpenMMLab (mmengine) config" on main
    xtuner = "from mmengine.optim import AmpOptimWrapper\nfrom xtuner.model import SupervisedFinetune\n" \
             "pretrained_model_name_or_path = 'internlm/internlm2-7b'\nmodel = dict(type=SupervisedFinetune)\n" \
             "optim_wrapper = dict(type=AmpOptimWrapper, dtype='bfloat16')\ntrain_cfg = dict(max_epochs=3)\n"
    assert "XTuner" in _refusal(tmp_path, "my_lora.py", xtuner)
    opensora = '_base_ = ["image.py"]\nbucket_config = {"256px": {1: (1.0, 45), 33: (1.0, 12)}}\n' \
               "grad_ckpt_settings = (8, 100)\nmodel = dict(grad_ckpt_settings=grad_ckpt_settings)\nlr = 5e-5\n"
    assert "Open-Sora" in _refusal(tmp_path, "stage1.py", opensora)
    plain = "_base_ = ['../_base_/default_runtime.py']\nmodel = dict(type='ResNet')\ntrain_cfg = dict(max_epochs=3)\n"
    msg = _refusal(tmp_path, "resnet.py", plain)  # near miss: a plain mmengine config stays one
    assert "OpenMMLab" in msg and "XTuner" not in msg and "Open-Sora" not in msg


@pytest.mark.parametrize("script", ["generate.py", "sample_video.py", "inference.py", "eval_lora.py", "server.py"])
def test_sampling_script_launch_is_not_a_training_script(tmp_path, script):
    msg = _refusal(tmp_path, "run.sh", f"torchrun --nproc_per_node=8 {script} --model_path ckpts --checkpoint_path out "
                                       f"--video_length 33\n")
    assert "not a trainer config" in msg and "a training script" not in msg


@pytest.mark.parametrize("script", ["train_sdxl.py", "tutorial_train_sdxl.py", "my_ip_adapter_train.py"])
def test_ip_adapter_trainer_named(tmp_path, script):  # NEW for train_sdxl.py: read as diffusers on main (round 8m)
    line = (f"accelerate launch --mixed_precision fp16 {script} --pretrained_model_name_or_path=sdxl "
            "--image_encoder_path=laion/CLIP-ViT-H-14 --data_json_file=data.json --data_root_path=data "
            "--mixed_precision=fp16 --resolution=512 --train_batch_size=8 --learning_rate=1e-04 --output_dir=out\n")
    msg = _refusal(tmp_path, "train.sh", line)
    assert "looks like tencent-ailab IP-Adapter" in msg


# --- inference apps started with options a trainer also has (--highvram, --xformers) -----------------------------------

@pytest.mark.parametrize("line,word", [
    ("python main.py --listen 0.0.0.0 --port 8188 --use-pytorch-cross-attention --fp16-vae --highvram",  # NEW: sd-scripts
     "ComfyUI"),
    ("python3 ComfyUI/main.py --use-sage-attention --preview-method auto --lowvram", "ComfyUI"),
    ("python launch.py --xformers --medvram --no-half-vae --api --listen", "AUTOMATIC1111"),
    ("./webui.sh --opt-sdp-attention --enable-insecure-extension-access --skip-torch-cuda-test", "AUTOMATIC1111"),
])
def test_image_generation_apps_are_not_trainers(tmp_path, line, word):
    msg = _refusal(tmp_path, "start.sh", line + "\n")
    assert "looks like " + word in msg and "trains nothing" in msg


def test_script_with_many_foreign_options_is_not_sd_scripts(tmp_path):  # NEW: read as sd-scripts on main (--highvram)
    msg = _refusal(tmp_path, "start.sh", "python main.py --listen 0.0.0.0 --port 8188 --highvram --dont-print-server\n")
    assert "sd-scripts" not in msg.split("(it reads")[0]


def test_sd_scripts_highvram_still_read(tmp_path):  # near miss: sd-scripts' own script with its --highvram
    line = ("accelerate launch sdxl_train_network.py --pretrained_model_name_or_path sdxl.safetensors --dataset_config "
            "d.toml --network_module networks.lora --highvram --sdpa --mixed_precision bf16\n")
    assert _read(tmp_path, "train.sh", line)[:3] == ("sd-scripts", ["sdpa"], "bfloat16")


# --- axolotl: its legacy attention switches are its own only beside the data keys its config trains on -----------------

OWN_YAML = """base_model: mistralai/Mistral-7B-v0.1
{flag}: true
bf16: true
gradient_checkpointing: true
lora_r: 16
lora_alpha: 32
learning_rate: 2.0e-4
num_epochs: 3
{data}
output_dir: ./out
"""


@pytest.mark.parametrize("flag", ["flash_attention", "xformers_attention", "sdp_attention"])
@pytest.mark.parametrize("data", ["dataset_path: data/train.jsonl", "train_file: data/train.json", "data_dir: data"])
def test_legacy_switch_alone_is_not_axolotl(tmp_path, flag, data):  # NEW: read as axolotl on main
    msg = _refusal(tmp_path, "train.yaml", OWN_YAML.format(flag=flag, data=data))
    assert "axolotl has" not in msg


@pytest.mark.parametrize("data,want", [
    ("datasets:\n  - path: mhenrichsen/alpaca_2k_test\n    type: alpaca", ("axolotl", ["fa2"])),
    ("datasets:\n  - path: data/train.jsonl", ("axolotl", ["fa2"])),
    ("pretraining_dataset: allenai/c4", ("axolotl", ["fa2"])),
    ("sample_packing: true\ndataset_path: data/x.jsonl", ("axolotl", ["fa2"])),
])
def test_axolotl_with_its_data_keys_still_read(tmp_path, data, want):  # near misses
    assert _read(tmp_path, "qlora.yml", OWN_YAML.format(flag="flash_attention", data=data))[:2] == want
