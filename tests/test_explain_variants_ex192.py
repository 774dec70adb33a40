"""Variants for helper ex192 (session 33): training texts matched with another backend than their label, fixed by mechanism
(benchmarks/results/explain-wrong-backend-s33.md groups all of them).

Every case was written by hand (2026-12-02): other scripts, flags, backends and languages than the fixtures. The positives name
what explain must report first (entry, backend, None meaning no backend); the near misses what must stay as it was.

Mechanisms (knowledge file: rule; the training text it came from):
  parser     trainers.toml config.unknown-option, config.unknown-key, attribution.toml [never]: a parser that refuses a command
             line's option (argparse's `unrecognized arguments`, transformers' HfArgumentParser's `Some specified arguments are not
             used`) or a config file's key (HfArgumentParser.parse_dict's `Some keys are not used`)
             stops the run before any backend is imported: the backend the option names never ran, and a title that says
             "using flash attention fails" over it is the same failure (round 8 ymcui/Chinese-LLaMA-Alpaca-2#502)
"""

from __future__ import annotations

from explain_top import assert_patterns_match_no_unrelated_log, first

PARSER = [
    ("使用 sage attention 训练时报错\nbash scripts/sft.sh --use_sage_attn True\n"
     "ValueError: Some specified arguments are not used by the HfArgumentParser: ['--use_sage_attn', 'True']",
     ("config.unknown-option", None)),
    ("Training with FlashAttention fails\npython run_clm.py --model_name_or_path gpt2 --flash_attention true\n"
     "Traceback (most recent call last):\n  File \"run_clm.py\", line 230, in main\n"
     "    model_args, data_args, training_args = parser.parse_args_into_dataclasses()\n"
     "ValueError: Some specified arguments are not used by the HfArgumentParser: ['--flash_attention', 'true']",
     ("config.unknown-option", None)),
    ("xformersを有効にするとエラーになります\nfinetune.py: error: unrecognized arguments: --xformers",
     ("config.unknown-option", None)),
    ("При запуске с флагом flash attention падает:\ntrain_lora.py: error: unrecognized arguments: --use_flash_attention_2",
     ("config.unknown-option", None)),
    ("ValueError: Some specified arguments are not used by the HfArgumentParser: ['--attn_impl', 'flex_attention']",
     ("config.unknown-option", None)),
    # a YAML / JSON config's key, refused by the same parser (parse_dict)
    ("开启 sage attention 后训练报错\nllamafactory-cli train examples/qwen2_lora_sft.yaml\n"
     "ValueError: Some keys are not used by the HfArgumentParser: ['use_sage_attention']", ("config.unknown-key", None)),
    ("FlashAttention 3 config does not start\nValueError: Some keys are not used by the HfArgumentParser: ['flash_attn3', 'seed_']",
     ("config.unknown-key", None)),
]

# the option taken, and the backend it turns on failing after: that backend's failure, as before
PARSER_NEAR = [
    ("python train.py --use_flash_attention_2 True\nTraceback (most recent call last):\n"
     "  File \"train.py\", line 40, in <module>\n    model = AutoModelForCausalLM.from_pretrained(name, attn_implementation=impl)\n"
     "ImportError: FlashAttention2 has been toggled on, but it cannot be used due to the following error: the package flash_attn "
     "seems to be not installed. Please refer to the documentation of https://huggingface.co/docs/transformers/perf_infer_gpu_one"
     "#flashattention-2 to install Flash Attention 2.", "fa2"),
    ("python sample.py --xformers\nTraceback (most recent call last):\n"
     "  File \"/opt/venv/lib/python3.11/site-packages/xformers/ops/fmha/__init__.py\", line 306, in memory_efficient_attention\n"
     "NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:", "xformers"),
    ("llamafactory-cli train qwen_lora.yaml   # flash_attn: fa2\nTraceback (most recent call last):\n"
     "  File \"/opt/conda/lib/python3.11/site-packages/flash_attn/flash_attn_interface.py\", line 15, in <module>\n"
     "    import flash_attn_2_cuda as flash_attn_gpu\n"
     "ImportError: /opt/conda/lib/python3.11/site-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: undefined symbol: "
     "_ZN3c104cuda9SetDeviceEi", "fa2"),
]


def test_parser_refused_option_names_no_backend():
    wrong = [(text[:70], want, first(text)) for text, want in PARSER if first(text) != want]
    assert not wrong, wrong
    near = [(text[:70], backend, first(text)) for text, backend in PARSER_NEAR
            if first(text)[0] in ("config.unknown-option", "config.unknown-key") or first(text)[1] != backend]
    assert not near, near


def test_parser_pattern_matches_no_unrelated_log():
    assert_patterns_match_no_unrelated_log({"config.unknown-option": "HfArgumentParser", "config.unknown-key": "HfArgumentParser"})
