"""Helper ex147 (session 25): explain's leftovers from session 24, each written for its mechanism, with variants of our own.

1. text-generation-inference's flash model classes (frameworks.toml tgi.flash-models-unavailable; TGI's
   server/text_generation_server/models/__init__.py@db931fcf lines 81, 183, 1016-1017): a sharded or vision model refused
   because the flash model classes did not import, in every wording TGI's releases used; the import error logged above it
   ranks first where the log shows it.
"""

from __future__ import annotations

import pytest

from attn_doctor.explain import match

TGI_LOG = "2024-05-02T08:15:00.123Z ERROR text_generation_launcher: "


def top(text: str) -> tuple[str | None, str | None]:
    """The first reading's entry id and backend, (None, None) where nothing is read."""
    found = match(text)
    return (found[0].entry.id, found[0].backend) if found else (None, None)


@pytest.mark.parametrize("text", [
    "NotImplementedError: Qwen2_VL requires Flash Attention enabled models.",
    TGI_LOG + "NotImplementedError: Sharded mistral requires Flash Attention enabled models.",
    "text-generation-launcher --num-shard 2 fails: Sharded gpt_bigcode requires Flash Attention enabled models",
    "NotImplementedError: Sharded RefinedWeb requires CUDA and Flash Attention kernels to be installed.\nUse the official Docker "
    "image or install flash attention with `cd server && make install install-flash-attention`",
    "NotImplementedError: Sharded Llama requires Flash Attention CUDA kernels to be installed.",
    "NotImplementedError: Sharded Llama requires CUDA. No compatible CUDA devices found.",
    TGI_LOG.replace("ERROR", "WARN") + "Could not import Flash Attention enabled models: No module named 'vllm'",
])
def test_tgi_flash_models_unavailable(text):
    assert top(text) == ("tgi.flash-models-unavailable", "fa2"), [(f.entry.id, f.backend) for f in match(text)]


@pytest.mark.parametrize("why, first", [
    ("GPU with CUDA capability 7 0 is not supported", "backend.unsupported-gpu"),
    ("No module named 'flash_attn_2_cuda'", "fa2.no-extension"),
])
def test_tgi_import_error_above_ranks_first(why, first):
    text = (TGI_LOG.replace("ERROR", "WARN") + "Could not import Flash Attention enabled models: " + why + "\n"
            + TGI_LOG + "NotImplementedError: Sharded Llama requires Flash Attention enabled models.")
    ids = [m.entry.id for m in match(text)]
    assert ids[:2] == [first, "tgi.flash-models-unavailable"], ids


# 2. A question line outranked by the line that states the failure (match.py QUESTION, _rank; round 136m's
# turboderp-org/exllamav2#480). Variants of our own: other questions, languages, entries and errors.
V100_ERROR = "RuntimeError: FlashAttention only supports Ampere GPUs or newer."


@pytest.mark.parametrize("question", [
    "How can I use the exl2 model without flash attention.",
    "How can I run inference without flash_attn?",
    "Can I use the model without flash attention? Our cluster only has V100s.",
    "Can I run inference without flash_attn on a V100?",
])
def test_question_ranks_after_the_error(question):
    text = question + "\n\nI'm facing the same issue on a V100:\n" + V100_ERROR
    assert top(text)[0] == "backend.unsupported-gpu", [(f.entry.id, f.line) for f in match(text)]


@pytest.mark.parametrize("text, first", [
    # the question quotes the error itself: its line states the failure
    ("Why do I get ModuleNotFoundError: No module named 'flash_attn'?\nLater on the V100: " + V100_ERROR, "fa2.missing"),
    ('How do I fix "No module named flash_attn"?\nLater on the V100: ' + V100_ERROR, "fa2.missing"),
    # no question: position decides, as before
    ("ModuleNotFoundError: No module named 'flash_attn'\n\nThen on the V100:\n" + V100_ERROR, "fa2.missing"),
])
def test_statement_keeps_its_place(text, first):
    assert top(text)[0] == first, [(f.entry.id, f.line) for f in match(text)]


# 3. A trainer refusing the attention mode chosen, naming the modes it accepts (frameworks.toml trainer.attention-mode-refused;
# kohya-ss/musubi-tuner hidream_o1_train.py@30c658c4 line 58): no backend by name, the named ones are accepted, not failing.
@pytest.mark.parametrize("text", [
    "ValueError: HiDream-O1 full finetuning supports the default attention path and --flash_attn only.",
    "ValueError: Qwen-Image LoRA training supports --sdpa and --flash_attn only.",
    "ValueError: Wan 2.2 full fine-tuning only supports SDPA or FlashAttention 2",
    "accelerate launch hidream_o1_train.py --xformers ...\nValueError: HiDream-O1 full finetuning supports the default "
    "attention path and --flash_attn only.",
])
def test_trainer_refusing_attention_mode(text):
    assert top(text) == ("trainer.attention-mode-refused", None), [(f.entry.id, f.backend) for f in match(text)]


@pytest.mark.parametrize("text", [
    "flash-attn 2.7 supports sm80 and sm90 only",  # a GPU list, no attention mode
    "Training supports flash attention.",  # no refusal
])
def test_trainer_refusal_near_misses(text):
    assert not any(m.entry.id == "trainer.attention-mode-refused" for m in match(text))


@pytest.mark.parametrize("line, asks", [
    ("How can I use the exl2 model without flash attention.", True),
    ("Is there a way to run it without xformers?", True),
    ("Could we skip sageattention on this card?", True),
    ("如何在 V100 上不用 flash_attn 运行？", True),
    # a statement with a question mark, or a statement before the question, states the failure (rounds 54m, 13a, 15)
    ("Flash Attention is not installed?", False),
    ("Setting --enable_xformers_memory_efficient_attention results in numeric instability of some kind, I think?", False),
    ("FlashAttention不支持V100显卡，有解决的方法么？", False),
    ("flash_attn is not installed on the cluster, any idea?", False),
    ("How do I fix ModuleNotFoundError: No module named 'flash_attn'?", False),  # the error is quoted on it
])
def test_what_counts_as_a_question(line, asks):
    from attn_doctor.knowledge.match import _asks
    assert _asks(line) is asks


# 4. A serving engine's backend selector set while the engine still calls another backend (round 136m QwenLM/Qwen3-VL#1664;
# frameworks.toml app.backend-selection-ignored, sentences.ENGINE_SELECTOR_STILL): vLLM's vision towers take upstream flash_attn
# whenever it imports, whatever VLLM_ATTENTION_BACKEND says, so the backend still called is the one that runs and fails.
@pytest.mark.parametrize("text", [
    "I set VLLM_ATTENTION_BACKEND=XFORMERS but vLLM still calls flash_attn for the vision tower and crashes",
    "试了 --attention-backend triton，仍然调用 flash_attn 报错",
    "How do I switch to xformers? I exported VLLM_ATTENTION_BACKEND=XFORMERS, vllm serve still uses flash-attn.",
    "请问如何切换sdpa？VLLM_ATTENTION_BACKEND=TORCH_SDPA 都不行，依然会调用flash_attn",
])
def test_engine_selector_set_another_still_called(text):
    assert top(text) == ("app.backend-selection-ignored", "fa2"), [(f.entry.id, f.backend) for f in match(text)]


def test_app_flag_selection_keeps_the_selected_backend():
    # an app's own flag (round 8's Tencent-Hunyuan/HunyuanVideo-1.5#9 labels the selected SageAttention)
    found = match("当我启用sage_atten的时候，依然返回的是使用flash attention的信息？")
    assert found and found[0].entry.id == "app.backend-selection-ignored" and found[0].backend == "sage", \
        [(m.entry.id, m.backend) for m in found]


# 5. SGLang's own checks of the attention backend chosen (frameworks.toml vllm.backend-fallback; sglang 0.5.5 / 0.5.23 source:
# benchmarks/results/explain-source-messages-sglang-s25.md), variants of our own (other values, models, platforms): the engine's
# choice, no backend of the seven.
@pytest.mark.parametrize("text", [
    "[2026-03-02 11:20:00 TP0] WARNING: FlashAttention3 only supports fp8_e4m3 if using FP8; Setting attention backend to flashinfer.",
    "RuntimeError: VisionFlash4Attention is only available for cuda",
    "ValueError: TRTLLM MHA backend for prefill requires Blackwell (SM100) GPUs. Please use a different prefill backend.",
    "ValueError: MXFP8 KV cache requires the FA4 backend.",
    "ValueError: rel_bias (sheared bias) is only supported by the FA4 backend.",
    "AssertionError: FlashAttention v3 Backend requires MP>=22. Please use `--attention-backend triton`.",
    "AssertionError: fa3, triton, or flashinfer is required for Gemma3 model",
    "ValueError: FA3 backend is only supported for decode.",
])
def test_sglang_backend_checks(text):
    assert top(text) == ("vllm.backend-fallback", None), [(f.entry.id, f.backend) for f in match(text)]
