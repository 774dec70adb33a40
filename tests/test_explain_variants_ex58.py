"""Variants for helper ex58 (session 9, second wave): mechanisms from the misses and the claimed unrelated logs of round 54m
(fixtures/errors/round54m/, the session's measure-only set, training material since its final measurement; its README's
"Read after its final measurement" section says which text each comes from).

Every case was written by hand (2026-11-28): other paths, versions, GPUs, wrappers and wordings than the fixtures; each
positive case asserts the entry (and backend) of the first problem that can be a failure's cause; the near misses assert
what must NOT be claimed.

Mechanisms (knowledge file: entry):
  fa3-hopper      backends.toml backend.unsupported-gpu (widened): FA3 is Hopper-only, said in words (a GPU of another
                  generation "does not support Flash Attention 3"; FA3 "written for Hopper, does not run on other GPUs")
  math-fallback   smoke.toml sdpa.math-fallback (widened): "instead of falling back to math", "was falling back to the math kernel"
  wheel-words     builds.toml build.prebuilt-wheel-missing (widened): "may not have pre-compiled wheel"; "install from a wheel,
                  else it takes long"
  xentropy        flash_attn.toml fa2.extension-missing (widened): "Only flash cross entropy support parallel_output"; the fused
                  cross-entropy said not to be available
  fa4-arch-words  cute.toml cute.feature-arch (widened): features "not supported yet in flash attention v4" on Ampere/Hopper
  converter       attention.toml attn.onnx-export-unsupported (widened): another converter with no mapping for aten::scaled_dot_product_attention
  mask-inverted   sdpa.toml sdpa.mask-inverted (new): a boolean mask of the opposite sense passed to SDPA
  handled-probe   attribution.toml [handled_probe] + attribution/ in_handled_probe (new): an FA3 import error the program
                  handled by importing another backend ("During handling of the above exception") is a probe, not the failure
  abi-words       backends.toml import.undefined-symbol (widened): a backend's failure put down to "the PyTorch/CUDA wheel mismatch";
                  a backend's error right after a nightly or upgraded torch
  unrelated       flash_attn.toml fa2.not-available-fallback and prose.toml LINE (a conditional that describes a fallback),
                  prose.toml LINE (a backend's errors named as what other errors were shown as), prose.toml NOCOST (a
                  benchmark's "has no ... penalty")
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids, tb


# fa3-hopper
@pytest.mark.parametrize("text", [
    "The A100 nodes (Ampere, sm80) do not support FlashAttention-3, so the hub kernel loads and then crashes in the first forward",
    "Our L40S doesn't support FA3: the kernels-community build loads fine and dies at inference",
    "fix: RTX 3090 cannot run flash_attn_3, pick flash-attn 2 below sm90",
    "flash_attn_3's kernels are written for Hopper (sm_90a) and won't run on other GPUs such as the B200 or the RTX 5090.",
])
def test_fa3_said_to_be_hopper_only(text):
    assert _top(text) == ("backend.unsupported-gpu", "fa3")


def test_fa3_hopper_praise_is_not_unsupported_gpu():
    # near miss: FA3 on Hopper named as what works, no other GPU refused
    assert "backend.unsupported-gpu" not in _ids("FlashAttention-3 is written for Hopper and gives a 1.5x speedup on our H100s")


def test_hopper_gpu_supporting_fa3_is_not_unsupported_gpu():
    # near miss: an H100 supports FA3; the sentence says nothing fails
    assert "backend.unsupported-gpu" not in _ids("The H100 supports FlashAttention-3 out of the box with the hub kernel")


# math-fallback
@pytest.mark.parametrize("text", [
    "- build the padding mask in fp16 so scaled_dot_product_attention picks the efficient kernel instead of falling back to math.",
    "Turns out SDPA was silently falling back to the math kernel because our mask was float32 under bf16 autocast",
    "cast attn_mask to q.dtype: SDPA then uses cuDNN rather than falling back to its math path",
])
def test_sdpa_math_fallback_in_words(text):
    assert _top(text) == ("sdpa.math-fallback", "sdpa")


def test_sdpa_not_falling_back_is_not_math_fallback():
    # near miss: the fallback denied; and Python's math module
    assert "sdpa.math-fallback" not in _ids("SDPA uses the flash kernel here, it is not falling back to math.sqrt scaling")
    assert "sdpa.math-fallback" not in _ids("scale = 1 / math.sqrt(d) instead of falling back to math.isqrt for SDPA inputs")


# wheel-words
@pytest.mark.parametrize("text", [
    "sageattention does not provide pre-built wheels for Windows, so you have to compile it yourself with the CUDA toolkit",
    "Note: flash-attn might not have a precompiled wheel for your torch, then pip compiles it and needs nvcc",
    "Install xformers from the prebuilt wheel, otherwise it takes hours to build on the cluster",
])
def test_missing_wheel_said_in_words(text):
    assert _top(text)[0] == "build.prebuilt-wheel-missing"


def test_wheel_installed_fine_is_not_missing_wheel():
    # near miss: a wheel that exists and installs quickly
    assert "build.prebuilt-wheel-missing" not in _ids("Installed flash-attn from the prebuilt wheel in 20 seconds, works fine")


# xentropy
@pytest.mark.parametrize("text", [
    "Traceback (most recent call last):\n  File \"/opt/InternEvo/internlm/model/ops/cross_entropy.py\", line 88, in new_cross_entropy\n"
    "    assert gpc.config.model.parallel_output is False\nAssertionError: Only flash cross entropy supports parallel_output",
    "[Bug] AssertionError: Only flash cross entropy support parallel_output (7B pretrain, 8x A800)",
    "flash-attn xentropy kernel not installed, using the torch cross entropy (slower)",
])
def test_flash_cross_entropy_needed(text):
    assert _top(text) == ("fa2.extension-missing", "fa2")


def test_flash_cross_entropy_working_is_not_missing():
    # near miss: the fused cross entropy named as working
    assert "fa2.extension-missing" not in _ids("flash cross entropy is enabled and parallel_output works on 8 GPUs")


# fa4-arch-words
@pytest.mark.parametrize("text", [
    "On Hopper and Ampere GPUs, block sparsity backward is not supported yet in flash attention 4.",
    "For SM90 cards, paged KV with page size 128 is not supported in flash-attn-4 yet",
    "FA4 does not support sliding window on Ampere GPUs yet, so we keep FA2 there",
])
def test_fa4_feature_missing_on_a_generation(text):
    assert _top(text) == ("cute.feature-arch", "cute")


def test_fa4_runs_on_hopper_is_not_feature_arch():
    # near miss: FA4 said to run on Hopper, nothing refused
    assert "cute.feature-arch" not in _ids("flash attention v4 is optimised for Blackwell but runs on Hopper and Ampere too")


# converter
@pytest.mark.parametrize("text", [
    "Please implement the aten::scaled_dot_product_attention op in the TFLite converter, our ViT uses F.scaled_dot_product_attention",
    "RuntimeError: Unsupported operator aten::_scaled_dot_product_flash_attention (coreml conversion of the UNet)",
    "Could you add a conversion for torch's aten::scaled_dot_product_attention operator? The export stops there.",
])
def test_converter_without_sdpa_op(text):
    assert _top(text)[0] == "attn.onnx-export-unsupported"


def test_converter_supporting_sdpa_is_not_unsupported():
    # near miss: the op converted fine, named in a profiler line
    assert "attn.onnx-export-unsupported" not in _ids(
        "aten::scaled_dot_product_attention       12.3%    1.2ms    converted to TFLite BATCH_MATMUL + SOFTMAX")


# mask-inverted
@pytest.mark.parametrize("text", [
    "Fix: the padding mask was inverted before scaled_dot_product_attention (True means attend there), so the model attended to pads",
    "bug: SDPA gets a flipped attention mask after the port from nn.MultiheadAttention",
    "The boolean mask is reversed when handed to F.scaled_dot_product_attention in CrossAttention.forward",
])
def test_inverted_mask_to_sdpa(text):
    assert _top(text) == ("sdpa.mask-inverted", "sdpa")


def test_inverted_mask_without_sdpa_is_not_mask_inverted():
    # near miss: an inverted mask in an image pipeline, no SDPA; and an inverted index next to SDPA
    assert "sdpa.mask-inverted" not in _ids("the segmentation mask was inverted when saved as PNG")
    assert "sdpa.mask-inverted" not in _ids("SDPA is fine; the inverted index for the retriever was rebuilt")


# handled-probe
def _fa3_then(second: str) -> str:
    first = tb(("/srv/app/models/attn.py", 5, "<module>", "from flash_attn_interface import flash_attn_func"),
               error="ModuleNotFoundError: No module named 'flash_attn_interface'")
    return first + "\n\nDuring handling of the above exception, another exception occurred:\n\n" + second


def test_handled_fa3_probe_then_fa2_extension_missing():
    second = tb(("/srv/app/run.py", 2, "<module>", "from models.attn import attention"),
                ("/srv/app/models/attn.py", 8, "<module>", "from flash_attn import flash_attn_func"),
                ("/venv/lib/python3.10/site-packages/flash_attn/flash_attn_interface.py", 10, "<module>",
                 "import flash_attn_2_cuda as flash_attn_gpu"),
                error="ModuleNotFoundError: No module named 'flash_attn_2_cuda'")
    assert _top(_fa3_then(second)) == ("fa2.no-extension", "fa2")


def test_handled_fa3_probe_then_xformers_import_cut():
    second = tb(("C:\\app\\main.py", 3, "<module>", "from attn import run"),
                ("C:\\app\\attn.py", 9, "<module>", "import xformers.ops as xops"))
    assert _top(_fa3_then(second)) == ("import.cut-at-backend-import", "xformers")


def test_fa3_error_raised_from_stays_the_cause():
    # near miss: `raise ... from` (the first error is the direct cause), the chained one asks for FA3
    first = tb(("/srv/app/models/attn.py", 5, "<module>", "from flash_attn_interface import flash_attn_func"),
               error="ModuleNotFoundError: No module named 'flash_attn_interface'")
    second = tb(("/srv/app/models/attn.py", 7, "<module>", "raise ImportError('install flash_attn_3 from hopper/')"),
                error="ImportError: install flash_attn_3 from hopper/")
    text = first + "\n\nThe above exception was the direct cause of the following exception:\n\n" + second
    assert _top(text) == ("fa3.import-name", "fa3")


def test_fa3_handled_without_a_backend_fallback_stays():
    # near miss: handled, but the except branch raises its own error, importing no other backend
    second = tb(("/srv/app/models/attn.py", 7, "<module>", "raise RuntimeError('this model needs FlashAttention 3')"),
                error="RuntimeError: this model needs FlashAttention 3")
    assert _top(_fa3_then(second)) == ("fa3.import-name", "fa3")


# abi-words
@pytest.mark.parametrize("text", [
    "Explain flash-attn import failures: the message now names the torch/CUDA wheel mismatch and how to rebuild it",
    "since the upgraded torch 2.9 went in, flash_attn throws an error at startup and the app falls back to eager",
    "After installing newer pytorch for the 5090, xformers isn't working anymore",
])
def test_abi_break_in_words(text):
    assert _top(text)[0] == "import.undefined-symbol"


def test_new_torch_with_backend_working_is_not_abi_break():
    # near miss: a new torch, the backend fine
    assert "import.undefined-symbol" not in _ids("With the new torch nightly, flash-attn works and is 10% faster")


# unrelated: descriptions, misreports and benchmarks
@pytest.mark.parametrize("text", [
    "This PR adds FlashAttention-2. If flash-attn is not installed, SDPA will be used instead.",
    "When FlashAttention-2 is not available and --use-flash-attn is set, FlashAttention 1.x will be used.",
    "Stop CUDA OOM errors from appearing as flash attention import errors",
    "Tokenizer errors were misreported as xformers import errors; this PR keeps them apart",
    "Results: on the H100, FA4 has no\nshort-sequence penalty and matches FA3 everywhere; on the B200 it is faster.",
])
def test_descriptions_are_not_failures(text):
    assert _ids(text) == []


def test_fallback_that_happened_is_still_read():
    # the event itself, not a conditional, still reads as the fallback
    assert _top("flash-attn is not installed, falling back to SDPA attention")[0] == "fa2.not-available-fallback"


def test_import_failure_said_plainly_is_still_read():
    # the plain report (no misreport wording) still reads as an import failure
    assert "prose.import" in _ids("flash attention import errors on every start since the update\n\nI reinstalled it twice.")
