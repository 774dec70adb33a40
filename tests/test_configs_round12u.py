"""Issue 24, round 12u: configs and launch scripts of frameworks attn-doctor does not claim are refused (exit 2) in
one line that names what they look like, never read as a claimed trainer on evidence other frameworks share.

Round 12u (fixtures/configs/round12u, measured on main at 1dec649: 53/54 refused, MaxText's base.yml read as axolotl on
`tokenizer_type` + `chat_template`) is checked whole below; the other cases are variants written for this test (what
each fakes is in its text), not copies of the fixtures:
- axolotl's `tokenizer_type` is its own evidence only as a transformers tokenizer class name (AutoTokenizer,
  LlamaTokenizer ...); MaxText's `sentencepiece` / Megatron's `GPT2BPETokenizer` are shared evidence at most;
- a bare `parallelism:` section is not torchtitan's (nanotron has one: dp / tp / pp); torchtitan's names *_degree;
- a `trainer:` section with only max_steps / logger is not Lightning's (verl, EasyR1 have them); LightningCLI's
  `logger: {class_path: ...}` still is;
- recognisers for NeMo-RL, EasyR1, nanotron, MaxText, Levanter, mergekit, lm-evaluation-harness tasks and commands,
  generative-models / SAT `target:` configs, verl's Hydra searchpath, and imports of OLMo-core, Levanter, MaxText ...
Near misses: files of claimed trainers that must still be read."""

from __future__ import annotations

from pathlib import Path

import pytest

from configs_corpus import read as _read, refusal as _refusal
from attn_doctor import configs
from attn_doctor.model import UsageError

ROUND = Path(__file__).resolve().parents[1] / "fixtures" / "configs" / "round12u"


@pytest.mark.parametrize("path", sorted(p for p in ROUND.rglob("*") if p.is_file() and p.suffix != ".md"
                                        and not p.name.endswith(".expect.toml")), ids=lambda p: p.name[:60])
def test_round12u_file_is_refused_in_one_line(path):
    with pytest.raises(UsageError) as err:
        configs.load(str(path))
    assert "\n" not in str(err.value)


JAX_YAML = """run_name: "my_run"
model_name: "llama2-7b"
tokenizer_type: "{tok}"
tokenizer_path: "assets/tokenizer.llama2"
chat_template: ""
per_device_batch_size: 4
max_target_length: 4096
remat_policy: "full"
ici_fsdp_parallelism: -1
dtype: "bfloat16"
"""


@pytest.mark.parametrize("tok", ["sentencepiece", "tiktoken", "huggingface"])
def test_maxtext_tokenizer_type_is_not_axolotl_evidence(tmp_path, tok):  # NEW: read as axolotl on main
    msg = _refusal(tmp_path, "base.yml", JAX_YAML.format(tok=tok))
    assert "MaxText" in msg


@pytest.mark.parametrize("tok", ["GPT2BPETokenizer", "SentencePieceTokenizer", "HuggingFaceTokenizer"])
def test_megatron_tokenizer_type_is_not_axolotl_evidence(tmp_path, tok):  # NEW: read as axolotl on main
    text = f"tokenizer_type: {tok}\nchat_template: chatml\nseq_length: 2048\nmicro_batch_size: 4\n"
    _refusal(tmp_path, "gpt.yaml", text)  # refused, not read as axolotl


@pytest.mark.parametrize("tok", ["AutoTokenizer", "LlamaTokenizer", "Qwen2TokenizerFast"])
def test_axolotl_tokenizer_class_is_still_axolotl(tmp_path, tok):  # near miss
    text = f"base_model: Qwen/Qwen2.5-0.5B\ntokenizer_type: {tok}\nchat_template: chatml\nmicro_batch_size: 2\n" \
           "num_epochs: 1\nlearning_rate: 0.0002\nbf16: auto\nflash_attention: true\n"
    assert _read(tmp_path, "qwen.yml", text)[:2] == ("axolotl", ["fa2"])


def test_axolotl_full_config_is_still_read(tmp_path):  # near miss
    text = """base_model: NousResearch/Llama-2-7b-hf
model_type: LlamaForCausalLM
tokenizer_type: LlamaTokenizer
load_in_4bit: true
adapter: qlora
datasets:
  - path: mhenrichsen/alpaca_2k_test
    type: alpaca
sequence_len: 4096
sample_packing: true
micro_batch_size: 2
bf16: true
sdp_attention: true
"""
    assert _read(tmp_path, "qlora.yml", text)[:3] == ("axolotl", ["sdpa"], "bfloat16")


NANOTRON = """general:
  project: my-pretrain
  run: llama_%date
  seed: 7
checkpoints:
  checkpoints_path: /scratch/ckpt
  checkpoint_interval: 500
data_stages:
- name: stage one
  start_training_step: 1
  data:
    dataset:
      hf_dataset_or_datasets: HuggingFaceFW/fineweb
parallelism:
  dp: 4
  pp: 1
  tp: 2
  pp_engine: 1f1b
tokens:
  sequence_length: 2048
  micro_batch_size: 8
"""


def test_nanotron_is_not_torchtitan(tmp_path):  # NEW: "looks like torchtitan" on main
    msg = _refusal(tmp_path, "pretrain.yaml", NANOTRON)
    assert "nanotron" in msg and "torchtitan" not in msg.split("(it reads")[0]


def test_torchtitan_toml_still_torchtitan(tmp_path):  # near miss for the tightened torchtitan recogniser
    text = '[job]\ndescription = "llama 8b"\n[model]\nname = "llama3"\n[parallelism]\n' \
           'data_parallel_shard_degree = -1\ntensor_parallel_degree = 2\n[training]\nseq_len = 8192\n'
    assert "torchtitan" in _refusal(tmp_path, "llama3_8b.toml", text)


EASYR1 = """data:
  train_files: me/geo@train
  max_prompt_length: 1024
algorithm:
  adv_estimator: grpo
worker:
  actor:
    global_batch_size: 64
    model:
      model_path: Qwen/Qwen2.5-VL-3B-Instruct
  rollout:
    n: 5
  ref:
    offload: true
trainer:
  total_epochs: 3
  max_steps: 100
  logger: ["console", "wandb"]
  n_gpus_per_node: 4
"""


def test_easyr1_config_is_not_lightning(tmp_path):  # NEW: "looks like PyTorch Lightning" on main
    msg = _refusal(tmp_path, "grpo.yaml", EASYR1)
    assert "EasyR1" in msg and "Lightning" not in msg.split("(it reads")[0]


@pytest.mark.parametrize("trainer", ["  devices: 2\n  max_epochs: 5\n",
                                     "  max_epochs: 5\n  logger:\n    class_path: TensorBoardLogger\n"])
def test_lightning_cli_config_still_lightning(tmp_path, trainer):  # near miss
    text = f"seed_everything: 1\ntrainer:\n{trainer}model:\n  lr: 0.001\n"
    assert "Lightning" in _refusal(tmp_path, "cli.yaml", text)


NEMO_RL = """{algo}:
  max_num_epochs: 2
  val_period: 20
  seed: 1
checkpointing:
  enabled: true
  checkpoint_dir: results/x
policy:
  model_name: Qwen/Qwen2.5-1.5B
  train_global_batch_size: 64
  dtensor_cfg:
    enabled: true
    tensor_parallel_size: 1
cluster:
  gpus_per_node: 8
  num_nodes: 1
"""


@pytest.mark.parametrize("algo", ["sft", "dpo", "grpo"])
def test_nemo_rl_configs(tmp_path, algo):  # NEW: "not a trainer config attn-doctor recognises" on main
    assert "NeMo-RL" in _refusal(tmp_path, f"{algo}.yaml", NEMO_RL.format(algo=algo))


@pytest.mark.parametrize("name,text,word", [
    ("llama3_70b.yml", 'base_config: "base.yml"\nmodel_name: "llama3-70b"\nattention: "cudnn_flash_te"\n'
                       "per_device_batch_size: 2\n", "MaxText"),
    ("launch.sh", "export XLA_FLAGS=--xla_gpu_enable_triton_gemm=false\npython3 -m maxtext.train "
                  "configs/base.yml run_name=r steps=10\n", "MaxText"),
    ("sft.yaml", "model_name_or_path: meta-llama/Llama-3.1-8B\ntrainer:\n  mp: p=f32,c=bfloat16\n  "
                 "num_train_steps: 500\nsupervised_data:\n  hf_dataset_name: tatsu-lab/alpaca\n", "Levanter"),
    ("gpt2.yaml", "data:\n  train_urls: [gs://b/train.jsonl]\n  cache_dir: gs://b/cache\nmodel:\n  type: gpt2\n"
                  "trainer:\n  num_train_steps: 1000\n", "Levanter"),
    ("merge.yaml", "models:\n  - model: a/b\n  - model: c/d\nmerge_method: ties\nbase_model: a/b\ndtype: bfloat16\n",
     "mergekit"),
    ("mytask.yaml", "task: my_qa\ndataset_path: me/qa\noutput_type: generate_until\ndoc_to_text: '{{q}}'\n"
                    "doc_to_target: '{{a}}'\n", "lm-evaluation-harness"),
    ("eval.sh", "lm_eval --model vllm --model_args pretrained=Qwen/Qwen2.5-7B,dtype=bfloat16 --tasks gsm8k\n",
     "lm-evaluation-harness"),
    ("mergeit.sh", "mergekit-yaml merge.yaml ./out --cuda\n", "mergekit"),
    ("video_lora.yaml", "model:\n  scale_factor: 0.7\n  network_config:\n    target: dit_video_concat.DiffusionTransformer\n"
                        "  denoiser_config:\n    target: sgm.modules.diffusionmodules.denoiser.DiscreteDenoiser\n",
     "SwissArmyTransformer"),
    ("multiturn.yaml", "hydra:\n  searchpath:\n    - file://verl/trainer/config\ndefaults:\n  - ppo_trainer\n"
                       "  - _self_\ndata:\n  train_batch_size: 64\n", "verl"),
    ("train_small.py", "from olmo_core.train import TrainerConfig\nfrom olmo_core.nn.transformer import TransformerConfig\n"
                       "cfg = TrainerConfig(save_folder='/tmp/x')\n", "OLMo-core"),
    ("run_lev.py", "import levanter\nfrom levanter.main import train_lm\ntrain_lm.main(cfg)\n", "Levanter"),
])
def test_unclaimed_frameworks_named(tmp_path, name, text, word):  # NEW: none of these words was said on main
    msg = _refusal(tmp_path, name, text)
    assert word in msg.split("(it reads")[0], msg


def test_a_workflow_yaml_with_on_key_does_not_crash(tmp_path):  # a YAML `on:` key is the boolean True
    text = "name: train\non:\n  push:\n    branches: [main]\njobs:\n  run:\n    runs-on: ubuntu-latest\n"
    _refusal(tmp_path, "train.yml", text)
