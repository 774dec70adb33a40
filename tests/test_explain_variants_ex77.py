"""Variants for helper ex77 (session 11): image/video UIs' and their nodes' failures, round 77 (fixtures/errors/round77,
README there). Every case was written by hand (2026-11-29) from the mechanism, with other paths, versions, names, wrappers
and languages than the fixtures; positive cases assert the first problem's entry and backend; near misses assert what must
not be claimed.

Mechanisms (knowledge file: entry or table):
  no-cc-own     attribution.toml [own_if_named] flex.no-cc: Triton's missing C compiler is FlexAttention's only where a
                backend is named near it; named (a "use sageatten" sentence) that backend takes it
  fwd-variant   attention.toml attn.api-mismatch: an attention class's alternative forward (efficient_forward,
                xformers_forward) called with another argument set
  none-callable attention.toml attn.import-guard: a backend function left None by a failed import and called (the user
                naming the backend as required above the TypeError; the call line itself naming it)
  not-detected  sage.toml sage.not-installed: "<sage> [version] not detected", an app's check not seeing the install
  launcher-win  triton.toml triton.launcher-build: triton-windows' _build log line for a launcher source, then WinError 2
  ck-missing    frameworks.toml comfy.ck-attention-missing (new): ComfyUI's --use-ck-attention refusal (Comfy Kitchen)
  other-program attribution/ OTHER_PROGRAM: a backend named for the same error met in another repo is not the run's
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids


# no-cc-own
@pytest.mark.parametrize("text", [
    "Server error: Failed to find C compiler. Please specify via CC environment variable or set triton.knobs.build.impl.",
    "  File \"/home/u/comfy/venv/lib/python3.11/site-packages/triton/runtime/build.py\", line 32, in _build\n"
    "    raise RuntimeError(\"Failed to find C compiler. Please specify via CC environment variable.\")\n"
    "RuntimeError: Failed to find C compiler. Please specify via CC environment variable.",
])
def test_no_cc_without_a_backend_is_none(text):
    assert _top(text) == ("flex.no-cc", None)


def test_no_cc_beside_sage_is_sage():
    text = "WanVideoSampler: Failed to find C compiler. Please specify via CC environment variable. (attention_mode: sageattn)"
    assert _top(text) == ("flex.no-cc", "sage")


def test_no_cc_beside_flex_attention_is_flex():
    text = ("  File \"/opt/env/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py\", line 1301, in flex_attention\n"
            "    out = compiled(query, key, value)\n"
            "RuntimeError: Failed to find C compiler. Please specify via CC environment variable.")
    assert _top(text) == ("flex.no-cc", "flex")


# fwd-variant
@pytest.mark.parametrize("text,backend", [
    ("!!! Exception during processing !!! CrossAttention.efficient_forward() got an unexpected keyword argument 'value'", None),
    ("TypeError: MemoryEfficientCrossAttention.xformers_forward() takes 3 positional arguments but 4 were given\n"
     "xformers version: 0.0.28.post1", None),
    ("TypeError: JointAttention.sdpa_forward() missing 1 required positional argument: 'mask'", None),
])
def test_alternative_forward_api_mismatch(text, backend):
    entry, got = _top(text)
    assert entry == "attn.api-mismatch"
    if backend:
        assert got == backend


def test_plain_function_forward_is_not_an_attention_class():
    # a forward of no attention class: not this entry
    assert "attn.api-mismatch" not in _ids("TypeError: ResBlock.custom_forward() got an unexpected keyword argument 'emb'")


# none-callable
@pytest.mark.parametrize("text,backend", [
    ("Looks like flash-attn is needed too\n  File \"/opt/app/nodes.py\", line 88, in sample\n    out = attn_fn(q, k, v)\n"
     "TypeError: 'NoneType' object is not callable", "fa2"),
    ("sageattention is required for this node\n\n!!! Exception during processing !!! 'NoneType' object is not callable", "sage"),
    ("  File \"D:\\AI\\Comfy\\custom_nodes\\ComfyUI-FramePackWrapper\\diffusers_helper\\models\\hunyuan_video_packed.py\", line 101, in attn_varlen_func\n"
     "    x = sageattn_varlen(q, k, v, cu_seqlens_q, cu_seqlens_kv, max_seqlen_q, max_seqlen_kv)\n"
     "TypeError: 'NoneType' object is not callable", "sage"),
    ("  File \"/srv/app/models/attention.py\", line 61, in attention\n"
     "    out = flash_attn_varlen_func(q, k, v, cu_q, cu_k, max_q, max_k)\n"
     "TypeError: 'NoneType' object is not callable", "fa2"),
])
def test_backend_function_left_none(text, backend):
    assert _top(text) == ("attn.import-guard", backend)


def test_none_callable_with_no_backend_is_not_import_guard():
    text = ("  File \"/app/comfy/sgm/modules/encoders/modules.py\", line 493, in forward\n"
            "    batch_encoding = self.tokenizer(\nTypeError: 'NoneType' object is not callable")
    assert "attn.import-guard" not in _ids(text)


# not-detected
@pytest.mark.parametrize("text", [
    "sageattention 2.2.0 not detected",
    "Sage2 is still not detected after pip install",
    "sage attention not recognized by WanGP even though pip show sageattention lists it",
])
def test_sage_not_detected(text):
    assert _top(text) == ("sage.not-installed", "sage")


# launcher-win
@pytest.mark.parametrize("text", [
    "%%% [info] triton/runtime/build/_build: clang C:\\Users\\a\\AppData\\Local\\Temp\\tmpq1\\cuda_utils.c -O3 -shared -o "
    "C:\\Users\\a\\AppData\\Local\\Temp\\tmpq1\\cuda_utils.cp312-win_amd64.pyd\n"
    "  ::  Triton test failed: [WinError 2] The system cannot find the file specified",
    "[info] triton/runtime/build/_build: 188 D:\\tmp\\tmpx\\main.c -O3 -shared -o D:\\tmp\\tmpx\\main.pyd\n"
    "Traceback (most recent call last):\nFileNotFoundError: [WinError 2] Das System kann die angegebene Datei nicht finden",
])
def test_triton_windows_compiler_missing(text):
    assert _top(text) == ("triton.launcher-build", None)


def test_win_error_2_without_a_launcher_build_is_not_claimed_as_it():
    text = "FileNotFoundError: [WinError 2] The system cannot find the file specified: 'C:\\\\models\\\\vae.safetensors'"
    assert "triton.launcher-build" not in _ids(text)


# ck-missing
@pytest.mark.parametrize("text", [
    "[ERROR] Comfy Kitchen attention is unavailable. Install a Comfy Kitchen build with attention support to use --use-ck-attention.",
    "ERROR: comfy-kitchen attention is not available (installed build 0.2.31); start aborted",
])
def test_comfy_kitchen_attention_missing(text):
    assert _top(text) == ("comfy.ck-attention-missing", None)


# other-program
def test_backend_of_another_repo_is_not_the_run():
    text = ("ptxas /tmp/tmpk2.ptx, line 212; error   : Feature '.bf16' requires .target sm_80 or higher\n"
            "I also got this error in the official repo, since FlashAttention 2 needs Ampere.\n"
            "Here I'm running sageattention 1.0.6.")
    assert _top(text)[1] == "sage"


def test_same_backend_in_both_programs_keeps_it():
    text = ("RuntimeError: FlashAttention only supports Ampere GPUs or newer.\n"
            "I also see it in the original repo with flash-attn 2.7.4 on my 2080 Ti.")
    assert _top(text)[1] == "fa2"
