"""Variants for helper ex67 (session 10, second wave): texts that NAME an attention backend without a failure of it
(fixtures/errors/nearmiss-s10, SYNTHETIC: pull requests, feature requests, release notes, benchmarks, environment dumps, working
logs, answered questions, docs, another library's own attention).

Every case was written by hand (2026-11-28) with other programs, versions, backends and wordings than the fixtures. The near
misses assert what must NOT be claimed; the positives put a real failure into the same kind of document and must stay claimed,
with the backend.

Mechanisms (knowledge file: rule):
  document  attribution.toml [not_a_report.document] + attribution/ document_kind / no_failure_document, explain._attribute:
            release notes or a changelog, a feature-request form or an "[RFC]" / "Request:" title, a question answered in the
            thread ("Answer: ..."), documentation headings and option references claim nothing unless they quote a failure (an
            exception line, a traceback, a tool's error line)
  freeze    prose.toml CRASH: `pip freeze` names no freeze
  cleared   attribution/ EXONERATED / _exonerated: a backend the writer clears ("X was fine all along") is not blamed
  program   attribution.toml [[not_a_report.shadow]] with `every = true` + attribution/ _shadowed / _shadowed_match: another
            program's own attention (rten, ONNX Runtime, TensorRT, candle's kernels, MLX, MindSpore, kernl, Pallas, Paddle's
            built-in flash attention) names no backend of the seven, for every entry, unless the input shows the PyTorch
            library itself
  fallback  attribution.toml [described_fallback] + attribution/ described_fallback: a sentence that says what code does WHEN
            a backend is absent ("falls back to FA2 when `flash_attn_interface` cannot be imported") is no absence that
            happened, for the entries that read an absence
"""

from __future__ import annotations

import pytest

from attn_doctor.explain import match
from attn_doctor.knowledge import attribution
from explain_top import first_cause as _top, ids as _ids, tb

SEVEN = {"fa2", "fa3", "cute", "sdpa", "flex", "xformers", "sage"}


def _errors(text: str) -> list[tuple[str, str | None]]:
    return [(m.entry.id, m.backend) for m in match(text) if m.entry.severity == "error"]


def _named(text: str) -> list[tuple[str, str | None]]:
    return [(m.entry.id, m.backend) for m in match(text) if m.backend in SEVEN]


# ---- document: near misses ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    # release notes / a changelog whose bullets name backends and what was fixed, quoting no error
    "# Release notes\n\n## 2.3.0\n- SageAttention is now selected by default on RTX 50xx\n- Fixed a crash when xformers was "
    "picked on a CPU-only machine\n- Flash attention problems on Windows should be gone with the new wheels\n",
    "## What's Changed\n* flex attention: sliding window masks by @m in https://github.com/o/p/pull/77\n* Crash with FA3 on "
    "H20 resolved by @n in https://github.com/o/p/pull/80\n\n**Full Changelog**: https://github.com/o/p/compare/v1.1...v1.2\n",
    "Changelog\n=========\n\n### Fixed\n- xformers not being used after the torch 2.7 upgrade\n- slow first step with flash "
    "attention 3\n",
    # a feature request by its form or its tag
    "**Is your feature request related to a problem? Please describe.**\nxformers isn't available for ROCm in the installer, "
    "so AMD users can't pick it.\n\n**Describe the solution you'd like**\nA ROCm build option.\n",
    "[RFC] Replace the custom attention with FlexAttention\n\nThe current kernel fails to support document masking; "
    "flex_attention would let us express it.\n",
    "Request: SageAttention for the VAE decoder too\n\nSage currently only patches the DiT blocks; the VAE still uses SDPA, "
    "which is slow at 1080p.\n",
    # a question answered in the thread
    "Does flash attention 2 run on the L4?\n\nI am not sure the L4 is supported.\n\nAnswer: yes, the L4 is Ada (sm89); "
    "flash-attn 2.x supports it.\n\nThanks, confirmed it works.\n",
    # documentation
    "## Installation\n\nxformers is optional. Without it, generation is slower and uses more memory; with it, pick the "
    "version built for your torch or pip will replace torch.\n",
])
def test_document_without_a_failure_is_not_claimed(text):
    assert attribution.document_kind(text.splitlines()) is not None
    assert not _ids(text), _ids(text)


# ---- document: positives (the same documents quoting a failure, and the titles the training rounds label as reports) ------
@pytest.mark.parametrize("text,entry,backend", [
    ("## What's Changed\n* Turing guard by @x in https://github.com/a/b/pull/9\n  fixes: RuntimeError: FlashAttention only "
     "supports Ampere GPUs or newer.\n", "backend.unsupported-gpu", "fa2"),
    ("Release notes 0.5.1\n\n### Fixed\n- import crash: ImportError: /venv/lib/python3.11/site-packages/flash_attn_2_cuda."
     "cpython-311-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi\n", "import.undefined-symbol", "fa2"),
    ("**Is your feature request related to a problem? Please describe.**\nxformers fails on my card:\nNotImplementedError: No "
     "operator found for `memory_efficient_attention_forward` with inputs:\n     query       : shape=(2, 4096, 8, 40) "
     "(torch.float32)\n", "xformers.no-operator", "xformers"),
    ("- `transformers` version: 4.46.2\n- Flash Attention version: 2.6.3\n- GPU type: NVIDIA T4\nRuntimeError: FlashAttention "
     "only supports Ampere GPUs or newer.\n", "backend.unsupported-gpu", "fa2"),
])
def test_document_quoting_a_failure_stays(text, entry, backend):
    assert _top(text) == (entry, backend)


def test_pull_request_title_is_no_document_mark():
    # the training rounds label pull requests that tell the limitation they lift (round 54m: sapientinc/HRM-Text#28 "Add SDPA
    # attention fallback for non-Hopper GPUs"): a PR's own words are no mark, nor a "[Feature Request]" title, nor a question
    # whether something is supported (Dao-AILab/flash-attention#69)
    for text in ("Add SDPA fallback for GPUs older than Hopper\n\nFA3 is Hopper-only, so this PR uses SDPA elsewhere.",
                 "[Feature Request] Please add SageAttention 3 wheels for torch 2.9",
                 "Is the A4000 supported?\n\nflash-attn says my GPU is not supported."):
        assert attribution.document_kind(text.splitlines()) is None, text


@pytest.mark.parametrize("text", [
    "$ pip freeze | grep -iE 'flash|xformers|sage'\nflash-attn==2.8.3\nsageattention==2.2.0\nxformers==0.0.32.post2\n",
    "(venv) C:\\ComfyUI> pip3 freeze > before-sage.txt\nsageattention==2.1.1\ntriton-windows==3.3.1.post19\n",
])
def test_pip_freeze_is_no_freeze(text):
    # an environment dump is no document mark (xformers.info's build.torch_version against pytorch.version is a reading,
    # tests/test_explain_variants_s6.py), but `pip freeze` names no hang (prose.toml CRASH)
    assert not _ids(text), _ids(text)


def test_a_freeze_still_reads_as_one():
    assert "prose.crash" in _ids("ComfyUI freezes with sage attention on my 4090 after 3 steps")


# ---- program: near misses (another program's own attention) ------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : Non-zero status code returned while "
    "running GroupQueryAttention node. Status Message: flash attention requires head_size % 8 == 0, got 100\n",
    "[TRT] [E] 10: Could not find any implementation for node fused MHA (flash attention) with head size 112.\n"
    "[TRT] [E] 2: [builder.cpp::buildSerializedNetwork::751] Error Code 2: Internal Error (Assertion engine != nullptr failed.)\n"
    "Engine build failed for vae_decoder.plan\n",
    "Error: flash attention op failed: sequence length 4097 exceeds the rten kernel's maximum of 4096\n",
    "Error: Metal error sdpa_full does not support head dim 72\nStack backtrace:\n   0: candle_core::error::Error::bt\n"
    "   1: candle_nn::ops::Sdpa::metal_fwd\n",
    "ValueError: [scaled_dot_product_attention] Shapes (1,8,64,80) and (1,2,64,96) cannot be broadcast.\n"
    "mlx 0.22.1, mx.fast.scaled_dot_product_attention on an M4 Pro\n",
])
def test_other_programs_attention_names_no_backend(text):
    assert not _named(text), _named(text)


# ---- program: positives --------------------------------------------------------------------------------------------------
def test_pytorch_flash_attention_beside_onnxruntime_stays():
    text = ("Traceback (most recent call last):\n  File \"/venv/lib/python3.10/site-packages/flash_attn/flash_attn_interface.py\","
            " line 90, in _flash_attn_forward\n    out = flash_attn_cuda.fwd(q, k, v)\nRuntimeError: FlashAttention only "
            "supports Ampere GPUs or newer.\nthe model is exported later with onnxruntime.capi for serving\n")
    assert _top(text) == ("backend.unsupported-gpu", "fa2")


def test_candle_flash_attn_crate_compiles_fa2_kernels():
    # candle-flash-attn builds FA2's own CUDA sources (round 4a: huggingface/candle#385 is fa2): not a shadowed program
    text = ("cargo build --features flash-attn\n  kernels/flash_fwd_kernel.h(325): error: argument list for class template "
            "\"cute::Tensor\" is missing\n  kernels/flash_fwd_hdim128_bf16_sm80.cu(26): here\n")
    assert _top(text)[1] == "fa2"


# ---- fallback: near misses -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "Use the fastest attention available\n\n- falls back to SDPA when `flash_attn_interface` can't be imported\n",
    "* if `sageattention` isn't installed we use SDPA and print one line about it\n",
    "This makes the loader robust: when xformers is not installed, the pipeline defaults to torch SDPA.\n",
])
def test_described_fallback_is_no_absence(text):
    assert not _errors(text), _errors(text)


# ---- fallback: positives -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text,entry", [
    ("sageattention is not installed, using SDPA instead\n", "sage.not-installed"),
    (tb(("/app/attn.py", 12, "<module>", "from flash_attn_interface import flash_attn_func"),
        error="ModuleNotFoundError: No module named 'flash_attn_interface'"), "fa3.import-name"),
])
def test_absence_as_printed_stays(text, entry):
    assert entry in _ids(text), _ids(text)


# (the lead, session 10: round 63m's final blind measurement found the first version refusing a fix that says the absence CRASHED
# the program, kijai/ComfyUI-WanVideoWrapper#1979; written variants, not that text)
@pytest.mark.parametrize("text,backend", [
    ("Fix: fallback when xformers is unavailable\n\nFixes a crash when xformers is not installed (macOS). Falls back to SDPA "
     "instead of raising.\n", "xformers"),
    ("Handle missing SageAttention\n\nThe node errored when sageattention is not installed; now it falls back to the default "
     "attention.\n", "sage"),
    ("Make FA3 optional\n\nTraining failed if flash_attn_interface cannot be imported on A100s; we now use SDPA there.\n",
     "fa3"),
])
def test_fallback_added_for_a_failure_said_stays(text, backend):
    assert backend in {b for _, b in _errors(text)}, _errors(text)


# ---- cleared: a backend the input says was not the failing one -------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "Black images after the update\n\nOnly black images since today. I run sageattention 2.1.1 and torch 2.7.\n\n"
    "Edit: solved, it was the VAE precision (needed --no-half-vae). Sage was fine all along.\n",
    "All outputs are black now\n\nI use xformers 0.0.30 with torch 2.7.0.\nxformers is not the problem: the same happens with "
    "--disable-xformers; it was the upscaler model.\n",
])
def test_backend_cleared_by_the_writer_is_not_blamed(text):
    assert not _named(text), _named(text)


def test_backend_not_cleared_stays():
    text = ("Black images after the update\n\nOnly black images since today with sageattention 2.1.1 and torch 2.7.\n"
            "The VAE was fine all along: it is SageAttention.\n")
    assert _top(text)[1] == "sage"


def test_option_reference_is_documentation():
    text = ("Attention options\n\n`Pipeline(..., attention=...)` accepts:\n- `\"sage\"`: requires sageattention>=2\n"
            "- `\"flex\"`: requires torch >= 2.5\n")
    assert attribution.document_kind(text.splitlines()) == "document"
    assert not _ids(text), _ids(text)
