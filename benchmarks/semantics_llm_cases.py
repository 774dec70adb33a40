"""The synthetic configs of the LLM-trainer semantics audit (fixtures/configs/real/SEMANTICS-llm.md): one minimal
config per setting, written by hand (not copied from anyone), each with what the trainer's own source does with it
(the four fields the corpus scores: trainer, required, dtype, compile_mode) and the file:line@commit that says so.

benchmarks/semantics_llm.py measures attn_doctor.configs.load on them; tests/test_configs_semantics_llm.py asserts
them one test per row.

compile_mode: "none" = the config compiles nothing; None = not known from the file; else torch.compile's mode.
dtype: None = the file does not decide it (the model's checkpoint or the GPU does).
"""

AX = "axolotl-ai-cloud/axolotl@067b021"
LF = "hiyouga/LLaMA-Factory@ff6d4d1"
TT = "meta-pytorch/torchtune@bd2a0fc"
LG = "Lightning-AI/litgpt@2685705"
MS = "modelscope/ms-swift@3602360"
US = "unslothai/unsloth@015bdef"
TRL = "huggingface/trl@f2cd577"
HF = "huggingface/transformers@00349ae"

_AX_HEAD = "base_model: NousResearch/Llama-3.2-1B\nsequence_len: 2048\nmicro_batch_size: 1\n"
_LF_HEAD = "model_name_or_path: Qwen/Qwen2.5-0.5B\nstage: sft\nfinetuning_type: lora\ntemplate: qwen\n"
_TT_HEAD = ("model:\n  _component_: torchtune.models.llama3_2.lora_llama3_2_1b\n"
            "tokenizer:\n  _component_: torchtune.models.llama3.llama3_tokenizer\n  path: /tmp/tok.model\n")
_TRL_HEAD = "model_name_or_path: Qwen/Qwen2.5-0.5B\ndataset_name: trl-lib/Capybara\nlearning_rate: 2.0e-5\n"


def _c(cid, trainer, name, text, required, dtype, compile_mode, source, note="", files=None):
    """files: other files the case needs beside it (a model directory's config.json), path -> text."""
    return {"id": cid, "trainer": trainer, "name": name, "text": text, "required": required, "dtype": dtype,
            "compile_mode": compile_mode, "source": source, "note": note, "files": files or {}}


CASES = [
    # ---------------------------------------------------------------- axolotl
    _c("ax-impl-fa2", "axolotl", "cfg.yml", _AX_HEAD + "attn_implementation: flash_attention_2\n", ["fa2"],
       "bfloat16", "none", f"{AX} src/axolotl/loaders/model.py:754-762 (_set_attention_config passes it to "
       "from_pretrained); schemas/config.py:559-564 bf16 default 'auto'; utils/config/__init__.py:156-167 resolve_dtype"),
    _c("ax-legacy-flash", "axolotl", "cfg.yml", _AX_HEAD + "flash_attention: true\n", ["fa2"], "bfloat16", "none",
       f"{AX} src/axolotl/utils/schemas/enums.py:118-125 LEGACY_ATTN_FLAG_TO_IMPL; config.py:1527-1575"),
    _c("ax-legacy-sdp", "axolotl", "cfg.yml", _AX_HEAD + "sdp_attention: true\n", ["sdpa"], "bfloat16", "none",
       f"{AX} enums.py:118-125 (sdp_attention -> sdpa)"),
    _c("ax-legacy-order", "axolotl", "cfg.yml", _AX_HEAD + "flash_attention: true\nxformers_attention: true\n",
       ["xformers"], "bfloat16", "none", f"{AX} config.py:1557-1569 (first set flag in LEGACY_ATTN_FLAG_TO_IMPL "
       "order: xformers before flash)"),
    _c("ax-legacy-flex", "axolotl", "cfg.yml", _AX_HEAD + "flex_attention: true\n", ["flex"], "bfloat16", "none",
       f"{AX} enums.py:121"),
    _c("ax-packing-default", "axolotl", "cfg.yml", _AX_HEAD + "sample_packing: true\n", [], "bfloat16", "none",
       f"{AX} schemas/validation.py:187-203 (only a warning; nothing picked: the model's default)"),
    _c("ax-bf16-false", "axolotl", "cfg.yml", _AX_HEAD + "bf16: false\n", [], "float32", "none",
       f"{AX} utils/config/__init__.py:191-196 (neither bf16 nor fp16: float32)"),
    _c("ax-8bit-fp16", "axolotl", "cfg.yml", _AX_HEAD + "bf16: false\nload_in_8bit: true\n", [], "float16", "none",
       f"{AX} utils/config/__init__.py:193-194 (`elif cfg.load_in_8bit or cfg.fp16 or cfg.float16: "
       "torch.float16`)"),
    _c("ax-bfloat16-key", "axolotl", "cfg.yml", _AX_HEAD + "bf16: false\nbfloat16: true\n", [], "bfloat16", "none",
       f"{AX} utils/config/__init__.py:191-192 (`if cfg.bf16 or cfg.bfloat16: torch.bfloat16`)"),
    _c("ax-float16-key", "axolotl", "cfg.yml", _AX_HEAD + "bf16: false\nfloat16: true\n", [], "float16", "none",
       f"{AX} utils/config/__init__.py:193-194 (cfg.float16)"),
    _c("ax-fp16", "axolotl", "cfg.yml", _AX_HEAD + "fp16: true\n", [], "float16", "none",
       f"{AX} utils/config/__init__.py:169-170 (fp16 with bf16 auto: bf16 off)"),
    _c("ax-compile-auto", "axolotl", "cfg.yml", _AX_HEAD + "torch_compile: auto\n", [], "bfloat16", "default",
       f"{AX} schemas/config.py:2041-2060 (auto: on with torch >= 2.5.1)"),
    _c("ax-compile-mode-only", "axolotl", "cfg.yml", _AX_HEAD + "torch_compile_mode: max-autotune\n", [], "bfloat16",
       "none", f"{AX} core/builders/base.py:550-560 (the mode is passed only when torch_compile is on)"),
    # ---------------------------------------------------------------- LLaMA-Factory
    _c("lf-fa2-bf16", "llama-factory", "cfg.yaml", _LF_HEAD + "flash_attn: fa2\nbf16: true\n", ["fa2"], "bfloat16",
       "none", f"{LF} src/llamafactory/model/model_utils/attention.py:77-84; hparams/parser.py:640-641"),
    _c("lf-auto", "llama-factory", "cfg.yaml", _LF_HEAD + "flash_attn: auto\nbf16: true\n", [], "bfloat16", "none",
       f"{LF} attention.py:65-66 (auto: transformers' default)"),
    _c("lf-disabled", "llama-factory", "cfg.yaml", _LF_HEAD + "flash_attn: disabled\nbf16: true\n", [], "bfloat16",
       "none", f"{LF} attention.py:68-69 (eager)"),
    _c("lf-sdpa", "llama-factory", "cfg.yaml", _LF_HEAD + "flash_attn: sdpa\nbf16: true\n", ["sdpa"], "bfloat16",
       "none", f"{LF} attention.py:71-76"),
    _c("lf-fa3", "llama-factory", "cfg.yaml", _LF_HEAD + "flash_attn: fa3\nbf16: true\n", ["fa3"], "bfloat16", "none",
       f"{LF} attention.py:85-91"),
    _c("lf-pure-bf16", "llama-factory", "cfg.yaml", _LF_HEAD + "pure_bf16: true\n", [], "bfloat16", "none",
       f"{LF} hparams/parser.py:640-641"),
    _c("lf-fp16", "llama-factory", "cfg.yaml", _LF_HEAD + "fp16: true\n", [], "float16", "none",
       f"{LF} hparams/parser.py:642-643"),
    _c("lf-no-dtype", "llama-factory", "cfg.yaml", _LF_HEAD, [], None, "none",
       f"{LF} model/loader.py:154 torch_dtype='auto' (the checkpoint's dtype); patcher.py:376-379 infer_dtype only "
       "when not trainable"),
    _c("lf-infer-dtype", "llama-factory", "cfg.yaml", _LF_HEAD + "infer_dtype: float16\n", [], None, "none",
       f"{LF} model/patcher.py:376-377 (infer_dtype is read only when the model is not trainable)"),
    _c("lf-compile-mode", "llama-factory", "cfg.yaml", _LF_HEAD + "bf16: true\ntorch_compile_mode: reduce-overhead\n",
       [], "bfloat16", "reduce-overhead", f"{HF} src/transformers/training_args.py (torch_compile_mode: 'If set, "
       "automatically enables torch_compile')"),
    _c("lf-v1-default", "llama-factory", "cfg.yaml",
       "model: Qwen/Qwen3-4B-Instruct-2507\nmodel_class: llm\ntrain_dataset: data/v1_sft_demo.yaml\ncutoff_len: 2048\n"
       "micro_batch_size: 1\n", [],
       "bfloat16", "none", f"{LF} src/llamafactory/v1/config/model_args.py:36-41 (flash_attn default sdpa, the "
       "trainer's own default); v1/config/training_args.py:61-64 (bf16 default True); nothing under src/llamafactory/v1 "
       "calls torch.compile"),
    _c("lf-v1-fa2", "llama-factory", "cfg.yaml",
       "model: Qwen/Qwen3-4B-Instruct-2507\nmodel_class: llm\ntrain_dataset: data/v1_sft_demo.yaml\ncutoff_len: 2048\n"
       "flash_attn: flash_attention_2\n",
       ["fa2"], "bfloat16", "none", f"{LF} v1/core/model_engine.py:186-192 (attn_implementation=flash_attn)"),
    _c("lf-old-bool", "llama-factory", "train.sh",
       "python src/train_bash.py --stage sft --model_name_or_path m --template default --finetuning_type lora "
       "--flash_attn --fp16\n", ["fa2"], "float16", "none",
       "hiyouga/LLaMA-Factory@9a69cadab src/llmtuner/hparams/model_args.py:60 (flash_attn: bool)"),
    _c("lf-gpt-oss", "llama-factory", "cfg.yaml",
       "model_name_or_path: openai/gpt-oss-20b\nstage: sft\nfinetuning_type: lora\ntemplate: gpt\n"
       "flash_attn: fa2\nbf16: true\n", [], "bfloat16", "none",
       f"{LF} model/model_utils/attention.py:34-44 (model_type gpt_oss: the Hub kernel "
       "kernels-community/vllm-flash-attn3 whatever flash_attn says)"),
    # ---------------------------------------------------------------- torchtune
    _c("tt-packed", "torchtune", "cfg.yaml",
       _TT_HEAD + "dataset:\n  _component_: torchtune.datasets.alpaca_dataset\n  packed: True\ndtype: bf16\n",
       ["flex"], "bfloat16", "none", f"{TT} torchtune/modules/attention_utils.py:185-252 (a BlockMask runs "
       "FlexAttention); recipes/full_finetune_single_device.py:480-489"),
    _c("tt-unpacked", "torchtune", "cfg.yaml",
       _TT_HEAD + "dataset:\n  _component_: torchtune.datasets.alpaca_dataset\ndtype: bf16\ncompile: True\n", [],
       "bfloat16", "default", f"{TT} attention_utils.py:203-206 (SDPA, the default); training/_compile.py"),
    _c("tt-no-dtype", "torchtune", "cfg.yaml", _TT_HEAD + "batch_size: 2\n", [], "float32", "none",
       f"{TT} torchtune/training/precision.py:101-103 (None -> float32)"),
    _c("tt-fp16", "torchtune", "cfg.yaml", _TT_HEAD + "dtype: fp16\n", [], "float16", "none",
       f"{TT} precision.py:18-23"),
    _c("tt-concat-packed", "torchtune", "cfg.yaml",
       _TT_HEAD + "dataset:\n  - _component_: torchtune.datasets.alpaca_dataset\n    packed: True\n"
       "  - _component_: torchtune.datasets.slimorca_dataset\n    packed: True\ndtype: bf16\n",
       ["flex"], "bfloat16", "none", f"{TT} torchtune/datasets/_concat.py:68-73"),
    # ---------------------------------------------------------------- LitGPT
    _c("lg-bf16-true", "litgpt", "cfg.yaml",
       "checkpoint_dir: checkpoints/meta-llama/Llama-3.2-1B\nout_dir: out/x\nlora_query: true\nprecision: bf16-true\n"
       "train:\n  micro_batch_size: 2\n", [], "bfloat16", "none",
       f"{LG} litgpt/model.py:576-596 (always F.scaled_dot_product_attention); finetune/*.py do not compile"),
    _c("lg-no-precision", "litgpt", "cfg.yaml",
       "checkpoint_dir: checkpoints/meta-llama/Llama-3.2-1B\nout_dir: out/x\nlora_query: true\nlora_r: 8\n", [], None, "none",
       f"{LG} litgpt/utils.py:363-380 (get_default_supported_precision: the GPU decides)"),
    _c("lg-pretrain", "litgpt", "run.sh", "litgpt pretrain pythia-14m --precision bf16-mixed\n", [], "bfloat16",
       "default", f"{LG} litgpt/pretrain.py:213 (torch.compile(model))"),
    # ---------------------------------------------------------------- ms-swift
    _c("ms-flash-attn", "ms-swift", "run.sh",
       "swift sft --model Qwen/Qwen2.5-7B-Instruct --train_type lora --attn_impl flash_attn --torch_dtype bfloat16\n",
       ["fa2"], "bfloat16", "none", f"{MS} swift/model/utils.py:30-50 AttnImpl (flash_attn -> flash_attention_2)"),
    _c("ms-fa3", "ms-swift", "run.sh",
       "swift sft --model Qwen/Qwen2.5-7B-Instruct --train_type lora --attn_impl flash_attention_3 "
       "--torch_dtype bfloat16\n", ["fa3"], "bfloat16", "none", f"{MS} swift/model/utils.py:30-50"),
    _c("ms-float32", "ms-swift", "run.sh",
       "swift sft --model Qwen/Qwen2.5-7B-Instruct --train_type full --torch_dtype float32\n", [], "float16", "none",
       f"{MS} swift/arguments/base_args/model_args.py:130-143 _init_mixed_precision (float32 -> fp16 autocast)"),
    _c("ms-float32-nofp16", "ms-swift", "run.sh",
       "swift sft --model Qwen/Qwen2.5-7B-Instruct --train_type full --torch_dtype float32 --fp16 false\n", [],
       "float32", "none", f"{MS} model_args.py:140-143 (an explicit fp16/bf16 is kept: no autocast)"),
    _c("ms-fp16-flag", "ms-swift", "run.sh",
       "swift sft --model Qwen/Qwen2.5-7B-Instruct --train_type lora --fp16 true\n", [], "float16", "none",
       f"{MS} model_args.py:140-141 (fp16 given: the Trainer autocasts to float16)"),
    _c("ms-compile-mode", "ms-swift", "run.sh",
       "swift sft --model Qwen/Qwen2.5-7B-Instruct --train_type lora --torch_dtype bfloat16 "
       "--torch_compile_mode max-autotune\n", [], "bfloat16", "max-autotune",
       f"{HF} src/transformers/training_args.py (torch_compile_mode: 'If set, automatically enables torch_compile')"),
    _c("ms-v2-flash", "ms-swift", "run.sh",
       "swift sft --model_type qwen-7b-chat --sft_type lora --use_flash_attn true --dtype AUTO\n", ["fa2"], None,
       "none", "modelscope/ms-swift@v2.6.1 swift/llm/utils/argument.py:151-176 select_dtype (AUTO: the model / GPU)"),
    # ---------------------------------------------------------------- Unsloth
    _c("us-fastlm-drops-attn", "unsloth", "train.py",
       "from unsloth import FastLanguageModel\nfrom trl import SFTConfig\n"
       "model, tok = FastLanguageModel.from_pretrained('unsloth/Llama-3.2-1B', dtype=None, load_in_4bit=True,\n"
       "    attn_implementation='flash_attention_2')\nargs = SFTConfig(output_dir='o', bf16=True)\n", [], "bfloat16",
       "none", f"{US} unsloth/models/llama.py:2651 (attn_implementation dropped); "
       "utils/attention_dispatch.py:231-241 (installed packages choose)"),
    _c("us-fastmodel-attn", "unsloth", "train.py",
       "from unsloth import FastModel\nfrom trl import SFTConfig\n"
       "model, tok = FastModel.from_pretrained('unsloth/gemma-3-4b-it', attn_implementation='flash_attention_2')\n"
       "args = SFTConfig(output_dir='o', fp16=True)\n", ["fa2"], "float16", "none",
       f"{US} unsloth/models/vision.py:1130-1144; _utils.py:910-922 (an explicit request is honoured)"),
    _c("us-fastlm-full-ft", "unsloth", "train.py",
       "from unsloth import FastLanguageModel\nfrom trl import SFTConfig\n"
       "model, tok = FastLanguageModel.from_pretrained('unsloth/Llama-3.2-1B', full_finetuning=True,\n"
       "    attn_implementation='sdpa')\nargs = SFTConfig(output_dir='o', bf16=True)\n", ["sdpa"], "bfloat16", "none",
       f"{US} unsloth/models/loader.py:486-522 (load_in_8bit, full_finetuning or qat_scheme: FastModel.from_pretrained "
       "with **kwargs, attn_implementation included)"),
    _c("us-fastlm-8bit", "unsloth", "train.py",
       "from unsloth import FastLanguageModel\nfrom transformers import TrainingArguments\n"
       "model, tok = FastLanguageModel.from_pretrained('unsloth/Llama-3.2-1B', load_in_8bit=True,\n"
       "    attn_implementation='flash_attention_2')\nargs = TrainingArguments(output_dir='o', bf16=True)\n",
       ["fa2"], "bfloat16", "none", f"{US} unsloth/models/loader.py:486-522"),
    _c("us-dtype", "unsloth", "train.py",
       "import torch\nfrom unsloth import FastLanguageModel\n"
       "model, tok = FastLanguageModel.from_pretrained('unsloth/Llama-3.2-1B', dtype=torch.float16)\n", [],
       "float16", None, f"{US} unsloth/models/loader.py:410-414"),
    _c("us-compile-mode", "unsloth", "train.py",
       "from unsloth import FastLanguageModel\nfrom transformers import TrainingArguments\n"
       "model, tok = FastLanguageModel.from_pretrained('unsloth/Llama-3.2-1B', dtype=None)\n"
       "args = TrainingArguments(output_dir='o', bf16=True, torch_compile_mode='max-autotune')\n", [], "bfloat16",
       "max-autotune", f"{HF} src/transformers/training_args.py (torch_compile_mode enables torch_compile)"),
    # ---------------------------------------------------------------- transformers / TRL
    _c("hf-fa3", "transformers", "cfg.yaml", _TRL_HEAD + "attn_implementation: flash_attention_3\nbf16: true\n",
       ["fa3"], "bfloat16", "none", f"{TRL} trl/trainer/model_config.py (attn_implementation passed to "
       "from_pretrained)"),
    _c("hf-flex", "transformers", "cfg.yaml", _TRL_HEAD + "attn_implementation: flex_attention\nbf16: true\n",
       ["flex"], "bfloat16", "none", f"{TRL} trl/trainer/model_config.py"),
    _c("hf-hub-kernel", "transformers", "cfg.yaml",
       _TRL_HEAD + "attn_implementation: kernels-community/flash-attn3\nbf16: true\n", [], "bfloat16", "none",
       f"{TRL} trl/trainer/sft_trainer.py FLASH_ATTENTION_VARIANTS (a Hub kernel, loaded by `kernels`)"),
    _c("hf-use-fa2", "transformers", "cfg.yaml", _TRL_HEAD + "use_flash_attention_2: true\nbf16: true\n", ["fa2"],
       "bfloat16", "none", "huggingface/alignment-handbook (2023-24 recipes, not fetched here) src/alignment/model_utils.py "
       "(use_flash_attention_2 -> attn_implementation='flash_attention_2'), as attn_doctor/configs/hf_transformers.py "
       "cites it; unchanged by this audit"),
    _c("hf-default", "transformers", "cfg.yaml", _TRL_HEAD + "bf16: true\n", [], "bfloat16", "none",
       "transformers' default attention (sdpa where the model has it): nothing the file chose"),
    _c("hf-compile-mode", "transformers", "cfg.yaml", _TRL_HEAD + "bf16: true\ntorch_compile_mode: max-autotune\n",
       [], "bfloat16", "max-autotune", f"{HF} src/transformers/training_args.py"),
    _c("trl-yaml-bf16-default", "transformers", "cfg.yaml", _TRL_HEAD + "dtype: float32\n", [], "bfloat16", "none",
       f"{TRL} trl/trainer/base_config.py:67-72,104-105 (bf16 None -> not fp16: every TRL config, SFTConfig ... "
       "since TRL 0.19, 32ffa1170 2025-06-13); ModelConfig's `dtype` (renamed from torch_dtype in 208e9f7df "
       "2025-09-03) dates the file after that", "fixed: dtype None -> bfloat16"),
    _c("trl-yaml-no-version", "transformers", "cfg.yaml", _TRL_HEAD, [], None, "none",
       f"{TRL} base_config.py:104-105 against TRL < 0.19 (bf16 False): nothing in the file says which TRL"),
    _c("trl-yaml-fp16", "transformers", "cfg.yaml", _TRL_HEAD + "fp16: true\n", [], "float16", "none",
       f"{TRL} trl/trainer/base_config.py:104-105"),
    _c("trl-cli-bf16-default", "transformers", "run.sh",
       "trl sft --model_name_or_path Qwen/Qwen2.5-0.5B --dataset_name trl-lib/Capybara --dtype auto --output_dir o\n", [],
       "bfloat16", "none", f"{TRL} trl/trainer/base_config.py:104-105"),
    _c("trl-script-bf16-default", "transformers", "train.py",
       "from transformers import AutoModelForCausalLM\nfrom trl import SFTConfig, SFTTrainer\n"
       "model = AutoModelForCausalLM.from_pretrained('Qwen/Qwen2.5-0.5B', attn_implementation='sdpa', dtype='auto')\n"
       "args = SFTConfig(output_dir='o', per_device_train_batch_size=2)\n", ["sdpa"], "bfloat16", "none",
       f"{TRL} trl/trainer/base_config.py:104-105"),
    _c("hf-trainingargs-no-dtype", "transformers", "train.py",
       "from transformers import AutoModelForCausalLM, TrainingArguments\n"
       "model = AutoModelForCausalLM.from_pretrained('Qwen/Qwen2.5-0.5B', attn_implementation='sdpa')\n"
       "args = TrainingArguments(output_dir='o', per_device_train_batch_size=2)\n", ["sdpa"], None, "none",
       f"{HF} src/transformers/training_args.py (bf16, fp16 default False: the checkpoint's / float32 dtype)"),
    # ---------------------------------------------------------------- variants of the same mechanisms
    _c("ax-8bit-cmdline", "axolotl", "run.sh",
       "cat > cfg.yml <<EOF\n" + _AX_HEAD + "bf16: false\nEOF\naxolotl train cfg.yml --load-in-8bit true\n", [],
       "float16", "none", f"{AX} cli/config.py:233-290 (--key value over the YAML); utils/config/__init__.py:193-194"),
    _c("lf-gpt-oss-local", "llama-factory", "cfg.yaml",
       "model_name_or_path: ./my-model\nstage: sft\nfinetuning_type: lora\ntemplate: gpt\nflash_attn: sdpa\n"
       "bf16: true\n", [], "bfloat16", "none", f"{LF} attention.py:34 (model_type read from the model's config.json)",
       files={"my-model/config.json": '{"model_type": "gpt_oss", "head_dim": 64}'}),
    _c("lf-gpt-oss-cli", "llama-factory", "run.sh",
       "llamafactory-cli train --model_name_or_path unsloth/gpt-oss-20b-BF16 --stage sft --finetuning_type lora "
       "--template gpt --flash_attn fa2 --bf16 true\n", [], "bfloat16", "none", f"{LF} attention.py:34-44"),
    _c("ms-compile-backend", "ms-swift", "cfg.yaml",
       "model: Qwen/Qwen2.5-7B-Instruct\ntrain_type: lora\ntorch_dtype: bfloat16\ntorch_compile_backend: inductor\n",
       [], "bfloat16", "default", f"{HF} training_args.py (torch_compile_backend enables torch_compile)"),
    _c("ms-bf16-over-float32", "ms-swift", "run.sh",
       "swift sft --model Qwen/Qwen2.5-7B-Instruct --tuner_type full --torch_dtype float32 --fp16 false --bf16 true\n",
       [], "bfloat16", "none", f"{MS} model_args.py:140-143 (given fp16 / bf16 are kept: bf16 autocast over float32)"),
    _c("ms-bf16-conflict", "ms-swift", "run.sh",
       "swift sft --model Qwen/Qwen2.5-7B-Instruct --tuner_type lora --torch_dtype float16 --bf16 true\n", [],
       "float16", "none", f"{MS} model_args.py:140-141 (fp16 implied beside the given bf16) and {HF} training_args.py "
       "('At most one of fp16 and bf16 can be True'): the run stops; the reading stays torch_dtype's"),
    _c("ms-v2-fp16-ignored", "ms-swift", "run.sh",
       "swift sft --model_type qwen2_5-7b-instruct --sft_type lora --dtype AUTO --fp16 true\n", [], None, "none",
       "modelscope/ms-swift@v2.6.1 swift/llm/utils/argument.py:1021 (select_dtype overwrites fp16 / bf16)"),
    _c("us-fastlm-qat", "unsloth", "train.py",
       "from unsloth import FastLanguageModel\nfrom trl import SFTConfig\n"
       "model, tok = FastLanguageModel.from_pretrained(model_name='unsloth/Qwen3-4B', qat_scheme='int4',\n"
       "    attn_implementation='flash_attention_2', dtype=None)\nargs = SFTConfig(output_dir='o', bf16=True)\n",
       ["fa2"], "bfloat16", "none", f"{US} unsloth/models/loader.py:487"),
    _c("us-fastlm-4bit-kept", "unsloth", "train.py",
       "from unsloth import FastLanguageModel\n"
       "model, tok = FastLanguageModel.from_pretrained('unsloth/Llama-3.2-1B', load_in_8bit=False, full_finetuning=False,\n"
       "    attn_implementation='flash_attention_2')\n", [], None, None,
       f"{US} unsloth/models/llama.py:2651 (no delegation: the argument is dropped)"),
    _c("us-compile-backend", "unsloth", "train.py",
       "from unsloth import FastLanguageModel\nfrom trl import SFTConfig\n"
       "model, tok = FastLanguageModel.from_pretrained('unsloth/Llama-3.2-1B')\n"
       "args = SFTConfig(output_dir='o', fp16=True, torch_compile_backend='inductor')\n", [], "float16", "default",
       f"{HF} training_args.py (torch_compile_backend enables torch_compile)"),
    _c("trl-script-init-kwargs", "transformers", "train.py",
       "from trl import GRPOConfig, GRPOTrainer\n"
       "args = GRPOConfig(output_dir='o', model_init_kwargs={'dtype': 'bfloat16', 'attn_implementation': 'sdpa'})\n",
       ["sdpa"], "bfloat16", "none", f"{TRL} base_config.py:104-105 (GRPOConfig is a _BaseConfig)"),
    _c("trl-script-fp32-weights", "transformers", "train.py",
       "from transformers import AutoModelForCausalLM\nfrom trl import DPOConfig\n"
       "model = AutoModelForCausalLM.from_pretrained('m', dtype='float32')\nargs = DPOConfig(output_dir='o')\n", [],
       "bfloat16", "none", f"{TRL} base_config.py:104-105 (bf16 autocast over float32 weights)"),
    _c("trl-cli-config-unread", "transformers", "run.sh",
       "trl sft --config recipe.yaml --dtype float32 --output_dir o\n", [], "float32", "none",
       "the --config YAML is not here and may set bf16 / fp16 itself: only what the line says is known"),
    _c("trl-cli-bf16-false", "transformers", "run.sh",
       "trl sft --model_name_or_path m --dataset_name d --dtype float32 --bf16 False --output_dir o\n", [], "float32",
       "none", f"{TRL} base_config.py:105 (a given bf16 is kept)"),
    _c("lf-use-unsloth", "llama-factory", "cfg.yaml", _LF_HEAD + "flash_attn: fa2\nuse_unsloth: true\nbf16: true\n", [],
       "bfloat16", "none", f"{LF} model/loader.py:145-149, model/model_utils/unsloth.py:30-60 (FastLanguageModel gets no "
       "attention setting: Unsloth picks from what is installed)"),
    _c("lf-use-unsloth-cli", "llama-factory", "run.sh",
       "llamafactory-cli train --model_name_or_path unsloth/llama-3-8b --stage sft --finetuning_type lora --template llama3 "
       "--flash_attn sdpa --use_unsloth true --fp16 true\n", [], "float16", "none",
       f"{LF} model/loader.py:145-149"),
    _c("lf-unsloth-off", "llama-factory", "cfg.yaml", _LF_HEAD + "flash_attn: fa2\nuse_unsloth: false\nbf16: true\n",
       ["fa2"], "bfloat16", "none", f"{LF} attention.py:77-84"),
    _c("ax-bf16-full", "axolotl", "cfg.yml", _AX_HEAD + "bf16: full\nfp16: false\nflash_attention: true\n", ["fa2"],
       "bfloat16", "none", "axolotl-ai-cloud/axolotl@6c81c61bc src/axolotl/core/trainer_builder.py:436 (full: bf16 plus "
       "bf16_full_eval), src/axolotl/utils/config.py:73 (`if cfg.bf16 or cfg.bfloat16`: torch.bfloat16); the pydantic "
       "schema of 2024 on refuses the value"),
    _c("tt-gemma2-packed", "torchtune", "cfg.yaml",
       "model:\n  _component_: torchtune.models.gemma2.lora_gemma2_2b\n"
       "tokenizer:\n  _component_: torchtune.models.gemma.gemma_tokenizer\n  path: /tmp/tok.model\n"
       "dataset:\n  _component_: torchtune.datasets.alpaca_dataset\n  packed: True\ndtype: bf16\n", [], "bfloat16",
       "none", f"{TT} torchtune/models/gemma2/_attention.py:218-222 (a BlockMask raises: 'use packed=False'), "
       ":331-339 (matmul + softmax with soft-capping)"),
    _c("tt-gemma-packed", "torchtune", "cfg.yaml",
       "model:\n  _component_: torchtune.models.gemma.lora_gemma_2b\n"
       "tokenizer:\n  _component_: torchtune.models.gemma.gemma_tokenizer\n  path: /tmp/tok.model\n"
       "dataset:\n  _component_: torchtune.datasets.alpaca_dataset\n  packed: True\ndtype: bf16\n", ["flex"],
       "bfloat16", "none", f"{TT} torchtune/models/gemma/_component_builders.py (MultiHeadAttention: modules/attention.py:140)"),
    _c("hf-fa4", "transformers", "cfg.yaml", _TRL_HEAD + "attn_implementation: flash_attention_4\nbf16: true\n", ["cute"],
       "bfloat16", "none", "huggingface/transformers (unfetched; utils/import_utils.py is_flash_attn_4_available: the "
       "flash-attn-4 distribution, flash_attn.cute) and modelscope/ms-swift@3602360 model_args.py:78 (passed to "
       "transformers as is)"),
    _c("ax-fa4-refused", "axolotl", "cfg.yml", _AX_HEAD + "attn_implementation: flash_attention_4\n", [], "bfloat16",
       "none", f"{AX} schemas/config.py validate_attn_implementation (not canonical: 'is not a recognized backend'; "
       "FA4 comes through flash_attention_2's patch_flash_attn_4 instead)"),
]
