"""Variants for helper ex62 (session 9, third wave): the claimed unrelated logs of the training rounds
(benchmarks/results/explain-unrelated-claims-s9.md: 65 claimed, 42 true readings, 5 true but shown as errors, 18 false).

Every case was written by hand (2026-11-28): other programs, versions, GPUs and wordings than the fixtures. The near misses
assert what must NOT be claimed; the positives say the real failure in the same words and must stay claimed, with the backend.

Mechanisms (knowledge file: rule):
  engine       attribution.toml [not_a_report] shadow + attribution/ not_a_report: the flash attention of llama.cpp, ik_llama,
               llama-cpp-python, llama-server, ollama (`-fa`, `flash_attn=True`) is that program's, not flash-attn's, unless the
               input shows the PyTorch library too; SageTV's "Sage" is not SageAttention
  feature-form attribution.toml [not_a_report] feature_form: GitHub's feature-request form ("Is your feature request related to
               a problem?"): what it says is missing is no failure; an issue form's unchecked "- [ ] Feature Request" box is not one
  cured        attribution/ CURED (_scrub): a backend named as what fixed the failure ("Flash Attention Fixed Everything")
  offer        attribution/ OFFER (_scrub): a build offered ("Here is a community-built wheel for flash_attn", a title
               "[Wheel] Pre-built ..."): an announcement, unless it says a failure too
  probe        attribution.toml [optional_probe] ids + triage.backend-message, triage.through-backend: xformers' optional Triton
               probe ("A matching Triton is not available, some optimizations will not be enabled" over its _is_triton_available
               traceback) is a notice, not xformers' error
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids, tb

PROSE = {"prose.gpu", "prose.compile", "prose.build", "prose.import", "prose.ignored", "prose.numbers", "prose.crash",
         "prose.slow", "prose.fails", "prose.said", "attn.nan-output", "attn.kernel-hang", "attn.wrong-output"}


# engine: near misses (another program's flash attention)
@pytest.mark.parametrize("text", [
    "llama-server crashes when I enable flash attention (-fa) with a q4_0 KV cache on my RTX 3060\n\nllama.cpp build b4521, CUDA 12.4",
    "ollama: enabling flash attention makes Qwen3 output gibberish on Metal\n\nOLLAMA_FLASH_ATTENTION=1 ollama serve",
    "Generation got 3x slower since flash attention is disabled in our loader: llama_cpp.Llama(model_path=p, n_gpu_layers=-1)"
    " never gets flash_attn=True from llama-cpp-python's options",
    "[ggml] flash attention fails on Vulkan for head size 576\n\nggml_vulkan: Found 1 Vulkan devices",
    "ik_llama.cpp: wrong results with flash attention on CPU for DeepSeek-V3 Q2_K",
])
def test_other_engines_flash_attention_is_not_claimed(text):
    assert not PROSE & set(_ids(text)), _ids(text)


# engine: positives (the PyTorch library itself is in the input, or no other program is named)
@pytest.mark.parametrize("text,backend", [
    ("flash attention crashes on my RTX 3060 with a q4 model\n\npip install flash-attn --no-build-isolation went fine", "fa2"),
    ("llama.cpp converts fine, but fine-tuning the same Llama with transformers: flash attention gives NaN loss after step 800",
     "fa2"),
    ("Flash attention crashes with llama-3 on my 4090\n\nfrom flash_attn import flash_attn_func", "fa2"),
    ("SageAttention fails on my RTX 5090 since the update", "sage"),
])
def test_pytorch_flash_attention_beside_an_engine_stays(text, backend):
    found = [i for i in _ids(text) if i in PROSE]
    assert found, _ids(text)
    assert _top(text)[1] == backend


# engine: SageTV, the media center
def test_sagetv_is_not_sageattention():
    text = "Playback with Sage fails after the update\n\nSageTV 9.2 server on Windows, HD-PVR recordings stutter on the client"
    assert not PROSE & set(_ids(text)), _ids(text)


def test_sage_beside_sagetv_named_as_sageattention_stays():
    text = "ComfyUI: sageattention fails on my 4090\n\nI also run SageTV on this box, unrelated"
    assert _top(text)[1] == "sage"


# feature-form
@pytest.mark.parametrize("text", [
    "Support FlexAttention in the KV cache\n\n**Is your feature request related to a problem? Please describe.**\n"
    "The xformers path is slow and cannot return attention weights.\n\n**Describe the solution you'd like**\nA flex_attention path.",
    "## 🚀 Feature request\n\nflash attention does not support our sliding-window variant, please add a flag.",
])
def test_feature_request_form_is_not_a_failure(text):
    assert not PROSE & set(_ids(text)), _ids(text)


def test_issue_form_checkbox_is_not_a_feature_request():
    text = ("SDPA inference gives NaN outputs in fp16 on our accelerator\n\n## Issue Type\n- [x] Bug Report\n- [ ] Feature Request\n\n"
            "The SDPA path returns NaN where eager attention is finite.")
    assert _top(text) == ("attn.nan-output", "sdpa")


# cured
@pytest.mark.parametrize("text", [
    "Flash Attention Fixed Everything\n\nMy own attention kernel overflowed and the entire forward pass produced NaN at step 900.",
    "How SDPA saved my training run\n\nThe hand-written softmax produced NaN in fp16 after 2k steps.",
])
def test_backend_named_as_the_cure_is_not_the_failure(text):
    assert not PROSE & set(_ids(text)), _ids(text)


@pytest.mark.parametrize("text,backend", [
    ("Flash attention gives NaN loss after step 1500 on my A100", "fa2"),
    ("Upgrading torch fixed it for SDPA, but flash attention still produces NaN in the backward", "fa2"),
])
def test_nan_from_a_backend_stays(text, backend):
    assert _top(text)[1] == backend, _ids(text)


# offer
@pytest.mark.parametrize("text", [
    "[Wheel] Pre-built flash_attn v2.8.1 for CUDA 12.9 + PyTorch 2.9 (Python 3.13)\n\n"
    "An official wheel does not exist for CUDA 12.9 + PyTorch 2.9 yet. Here is a community-built wheel for flash_attn v2.8.1.",
    "Unofficial wheels for Windows\n\nThe official index does not have them for torch 2.9 yet. I've built xformers wheels for"
    " cu128 and cu130, here are the links.",
])
def test_an_offered_build_is_not_a_build_failure(text):
    assert not PROSE & set(_ids(text)), _ids(text)


@pytest.mark.parametrize("text", [
    "Prebuilt flash_attn wheel fails to import on Windows",
    "Here is my flash_attn build log, it fails with an nvcc error",
])
def test_a_build_failure_said_beside_an_offer_stays(text):
    assert PROSE & set(_ids(text)), _ids(text)
    assert _top(text)[1] == "fa2"


# probe
def test_xformers_triton_probe_is_a_notice():
    text = "\n".join([
        "Starting training...",
        "A matching Triton is not available, some optimizations will not be enabled",
        tb((r"C:\app\venv\Lib\site-packages\xformers\__init__.py", 57, "_is_triton_available", "import triton  # noqa"),
           error="ModuleNotFoundError: No module named 'triton'"),
        "Loading model...",
    ])
    assert not {"triage.backend-message", "triage.through-backend"} & set(_ids(text)), _ids(text)


def test_xformers_error_without_the_probe_stays():
    text = tb(("/opt/venv/lib/python3.11/site-packages/xformers/ops/fmha/__init__.py", 306, "_memory_efficient_attention_forward",
               "op = _dispatch_fw(inp, False)"),
              ("/opt/venv/lib/python3.11/site-packages/xformers/ops/fmha/dispatch.py", 63, "_run_priority_list",
               "raise NotImplementedError(msg)"),
              error="NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:")
    assert _top(text)[1] == "xformers", _ids(text)


def test_xformers_triton_notice_alone_is_no_error():
    # ex75 (session 11) reversed ex62's reading of the notice alone: a notice that an optional speed-up is off while the run goes
    # on is no error xformers raises (attribution.toml [optional_notice]; it left knowledge/messages/xformers.toml), with or
    # without the probe's traceback under it
    found = _ids("A matching Triton is not available, some optimizations will not be enabled")
    assert not [i for i in found if i.startswith(("triage.", "prose."))], found


@pytest.mark.parametrize("text,backend", [
    ("ComfyUI: every image comes out black on my 3090.\n\nDisabling --use-sage-attention in the launcher fixed it.", "sage"),
    ("Training loss goes NaN at step 300\n\nDowngrading flash-attn to 2.7.4.post1 solved the problem.", "fa2"),
    ("Images come out black\n\nUninstalling xformers fixed everything.", "xformers"),
])
def test_a_change_to_the_backend_that_cures_names_the_failing_backend(text, backend):
    assert _top(text)[1] == backend, _ids(text)


# engine: a report that is llama.cpp's loader output under a title naming flash attention (ollama#15855's layout)
def test_llama_loader_report_is_not_flash_attn():
    text = ("Qwen3-Next GGUF does not have Flash Attention support\n\n```\n"
            "llama_model_loader: loaded meta data with 44 key-value pairs and 807 tensors\n"
            "llama_model_loader: - type q4_K:  289 tensors\n```")
    assert not PROSE & set(_ids(text)), _ids(text)


# feature-form: a design question as the title
@pytest.mark.parametrize("text", [
    "Why not use flash attention?\n\nThe decoder is hand-written CUDA; would flash attention be slow for batch size 1?",
    "why don't you use xformers\n\nIs xformers slow for these short sequences?",
])
def test_why_not_use_title_is_a_design_question(text):
    assert not PROSE & set(_ids(text)), _ids(text)


def test_why_a_backend_is_not_used_with_a_failure_stays():
    text = "Why is flash attention not used? It fails to import on my A100: flash_attn_2_cuda undefined symbol"
    assert PROSE & set(_ids(text)) or _top(text)[0], _ids(text)
    assert _top(text)[1] == "fa2"
