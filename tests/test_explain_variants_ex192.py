"""Variants for helper ex192 (session 33): training texts matched with another backend than their label, fixed by mechanism
(benchmarks/results/explain-wrong-backend-s33.md groups all of them).

Every case was written by hand (2026-12-02): other scripts, flags, backends and languages than the fixtures. The positives name
what explain must report first (entry, backend, None meaning no backend); the near misses what must stay as it was.

Mechanisms (knowledge file: rule; the training text it came from):
  parser     trainers.toml config.unknown-option, config.unknown-key, attribution.toml [never]: a parser that refuses a command
             line's option (argparse's `unrecognized arguments`, transformers' HfArgumentParser's `Some specified arguments are not
             used`) or a config file's key (HfArgumentParser.parse_dict's `Some keys are not used`)
  metrics    knowledge/match.py METRIC_ROW: a line that is only a flat dict of scalars (a trainer's logged metrics, a JSON config
             on one line) is no sentence of a report's head, as a blank line is not; the head still ends at its sixth line
             (round 83 hiyouga/LlamaFactory#9631: three `{'loss': ..., 'grad_norm': nan}` lines between the first sentence and the
             one that names SDPA)
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


def _report(rows: list[str], last: str) -> str:
    return "\n".join(["grad_norm is nan and loss is 0 from step 1", "I tried several DeepSpeed stages, always the same."]
                     + rows + [last])


METRICS = [
    "{'loss': 0.9123, 'grad_norm': nan, 'learning_rate': 0.0, 'epoch': 0.01}",
    "{'loss': 0.0, 'grad_norm': nan, 'learning_rate': 1.2e-06, 'epoch': 0.02}",
    '{"train_loss": 0.0, "grad_norm": "nan", "step": 30}',
]
# the sentence that names the backend, on the report's sixth line (each read on the third line as well: a head's reading)
SIXTH = [
    ("原因是sdpa导致梯度为nan，只要从sdpa（默认）切换到eager即可。", "sdpa"),
    ("Причина в SageAttention: с ней сразу NaN.", "sage"),
    ("The culprit is flash-attn: the numbers go wrong with it and fine without.", "fa2"),
    ("主要原因是xformers的attention计算和deepspeed冲突，卸载xformers即可。", "xformers"),
    ("Seems SDPA is the problem here, the numbers are wrong with it.", "sdpa"),
]


def test_metric_lines_are_no_sentences_of_the_head():
    wrong = []
    for last, backend in SIXTH:
        for rows in ([], METRICS):
            got = first(_report(rows, last))
            if got[1] != backend or not got[0].startswith("prose."):
                wrong.append((last, len(rows), backend, got))
    assert not wrong, wrong
    # near misses: three sentences instead of the metric lines keep the head at five sentences (the sixth line is not read as
    # a report's words), and a training log of metric lines that ends well claims nothing
    sentences = ["I tried fp16 and bf16.", "I reinstalled the environment twice.", "The data loader is the default one."]
    near = [(last, first(_report(sentences, last))) for last, _ in SIXTH if first(_report(sentences, last)) != (None, None)]
    assert not near, near
    log = "\n".join(["[2025-03-02 10:14:31] trainable params: 40,370,176 || all params: 7,655,986,688"] + METRICS[:2] +
                     ["{'loss': 1.1342, 'grad_norm': 0.577, 'learning_rate': 1.7e-05, 'epoch': 0.15}",
                      "{'loss': 1.0913, 'grad_norm': 0.561, 'learning_rate': 1.6e-05, 'epoch': 0.2}",
                      "[2025-03-02 11:02:47] Training finished with attn_implementation=flash_attention_2."])
    assert first(log) == (None, None), first(log)
