"""Variants for helper ex121 (session 21): the misses of round 118m (fixtures/errors/round118m, gathered blind by ex118m in
session 20, measured three times by the lead, training material since this helper read it).

Every case was written by hand (2026-11-30): other models, versions, paths, symbols and wordings than the fixtures. The positives
name what explain must report first (entry, backend; None: any backend); the near misses what it must not claim; no pattern written
or widened here matches an unrelated log of any training round (the measure-only sets are never read).

Mechanisms (knowledge file: rule; the round 118m text it came from):
  guard     attention.toml attn.import-guard: transformers' conditionally imported _flash_attention_forward left undefined
            (ATH-MaaS/Ovis#65); the guarded name's assert retold with a space (prov-gigapath/prov-gigapath#19)
  stride    attention.toml attn.int32-overflow: the memory-efficient kernel's ASSIGN_CHECK_OVERFLOW, "<expr>.stride(N) overflows"
            (facebookresearch/xformers#788)
  bias4d    xformers.toml xformers.unsupported-inputs: get_bias_4d_view's shape checks, with and without a message
            (huggingface/diffusers#2634)
  xpu       sdpa.toml sdpa.no-kernel: the XPU build's sdp dispatch words, Attention.cpp (intel/torch-xpu-ops#1749)
  repltorch xformers.toml xformers.replaced-torch: pip's longer requirement chain, the wheel's exact pin, the install said to change
            torch, torch replaced by torch on a line naming xformers, pip uninstalling torch under `pip install xformers`
            (oobabooga/textgen#7581, deeplearning-wisc/dream-ood#7)
  mpsbuf    sdpa.toml sdpa.mps-large-attention: MPS's "Invalid buffer size" with SDPA named (kijai/ComfyUI-SUPIR#210)
  namedmod  prose.toml NAMEDMOD: a title whose import error names the module that fails is not read as a backend's import or failure
            through a later sentence (unrelated AUTOMATIC1111/stable-diffusion-webui#15902)
  question  prose.toml prose.build: a question under a failure ("is this happening when you install the flash_attn wheel?") is no
            report that the backend's install failed (unrelated SingularityMan/vector_companion#5)
"""

from __future__ import annotations

import pytest

from explain_top import assert_patterns_match_no_unrelated_log, first, ids


@pytest.mark.parametrize("text, want", [
    # guard
    ("  File \"/srv/lib/python3.10/site-packages/transformers/models/qwen2_vl/modeling_qwen2_vl.py\", line 604, in forward\n"
     "    attn_output = _flash_attention_forward(\nNameError: name '_flash_attention_forward' is not defined", ("attn.import-guard", "fa2")),
    ("Loading the slide encoder fails: assert flash attn_varlen_func is not None", ("attn.import-guard", None)),
    # stride
    ("from xformers.ops import memory_efficient_attention\nout = memory_efficient_attention(q, k, v, attn_bias=bias)\n"
     "RuntimeError: bias_4d_view.stride(1) overflows", ("attn.int32-overflow", "xformers")),
    ("  File \"/opt/conda/lib/python3.11/site-packages/xformers/ops/fmha/cutlass.py\", line 210, in apply\n"
     "RuntimeError: key.stride(0) overflows", ("attn.int32-overflow", "xformers")),
    # bias4d
    ("xformers.ops.memory_efficient_attention(q, k, v, attn_bias=mask)\nRuntimeError: Expected bias.size(-1) == n_keys to be true, "
     "but got false.", ("xformers.unsupported-inputs", "xformers")),
    ("RuntimeError: bias.size(-2) != n_queries: 1 != 1024 (memory_efficient_attention with a (B, 1, K) mask)",
     ("xformers.unsupported-inputs", "xformers")),
    # xpu
    ("/home/u/run.py:14: UserWarning: OneDNN kernel not used because: (Triggered internally at "
     "/pytorch/aten/src/ATen/native/mkldnn/xpu/Attention.cpp:120.)\n  y = F.scaled_dot_product_attention(q, k, v)",
     ("sdpa.no-kernel", "sdpa")),
    ("UserWarning: Backward or grad to be supported. (Triggered internally at /pytorch/aten/src/ATen/native/mkldnn/xpu/Attention.cpp:71.)",
     ("sdpa.no-kernel", "sdpa")),
    # repltorch
    ("Collecting mpmath<1.4,>=1.1.0 (from sympy>=1.13.3->torch==2.7.0->xformers==0.0.30->-r requirements_versions.txt (line 3))", ("xformers.replaced-torch", "xformers")),
    ("Root cause: xformers 0.0.29.post3 pins torch==2.6.0, so the updater pulls that torch over the cu128 one",
     ("xformers.replaced-torch", "xformers")),
    ("I did `pip install xformers` and torch got downgraded from 2.9.1 to 2.9.0", ("xformers.replaced-torch", "xformers")),
    ("Running the setup replaced torch 2.8.0+cu129 with torch 2.8.0+cpu; afterwards xformers warns that it can't load C++/CUDA "
     "extensions", ("xformers.replaced-torch", "xformers")),
    ("pip install xformers==0.0.22\nCollecting xformers==0.0.22\nInstalling collected packages: xformers\n  Attempting uninstall: torch\n"
     "    Found existing installation: torch 2.0.1\n    Uninstalling torch-2.0.1:\n      Successfully uninstalled torch-2.0.1",
     ("xformers.replaced-torch", "xformers")),
    # mpsbuf
    ("    hidden = F.scaled_dot_product_attention(q, k, v)\nRuntimeError: Invalid buffer size: 12.50 GB (M2 Max, 4096x4096 upscale)",
     ("sdpa.mps-large-attention", "sdpa")),
])
def test_round118m_variants(text, want):
    got = first(text)
    assert got[0] == want[0] and (want[1] is None or got[1] == want[1]), (text, ids(text), got)


@pytest.mark.parametrize("text, must_not", [
    # guard: the helper imported by name from a transformers that lacks it is a moved helper, not a skipped import
    ("ImportError: cannot import name '_flash_attention_forward' from 'transformers.modeling_flash_attention_utils'", "attn.import-guard"),
    # stride: numpy's or a tensor's own words, no kernel parameter
    ("ValueError: strides overflow in numpy array", "attn.int32-overflow"),
    ("the stride of the packed tensor overflows int32 in my own CUDA kernel", "attn.int32-overflow"),
    # bias4d: another library's size check
    ("RuntimeError: Expected input.size(-1) == in_features to be true, but got false.", "xformers.unsupported-inputs"),
    # xpu: the CUDA build's words stay those of the CUDA checks; a oneDNN convolution is no attention
    ("oneDNN primitive creation failed for convolution on xpu", "sdpa.no-kernel"),
    # repltorch: torch's own chain, no xformers; xformers' pin already satisfied
    ("Collecting sympy>=1.13.3 (from torch==2.9.0)", "xformers.replaced-torch"),
    ("Requirement already satisfied: torch==2.9.0 in ./venv/lib/python3.12/site-packages (from xformers==0.0.33) (2.9.0)",
     "xformers.replaced-torch"),
    ("pip install xformers --no-deps\nSuccessfully installed xformers-0.0.33; torch 2.9.0 is kept", "xformers.replaced-torch"),
    # mpsbuf: another op's buffer on MPS, no SDPA named
    ("VAE decode on M1: RuntimeError: Invalid buffer size: 9.00 GB in conv2d", "sdpa.mps-large-attention"),
])
def test_round118m_near_misses(text, must_not):
    assert must_not not in ids(text), ids(text)


def test_round118m_named_module_title_is_not_a_backends_import():
    # namedmod: the title's import error names pkg_resources; the sentence under it asks about xformers
    text = ("[Bug]: ImportError about cannot import name 'packaging' from 'pkg_resources' after the update\n\n"
            "that fixed it. Also, how do I get xformers back, because it is no longer in my venv after reinstalling.")
    assert not ids(text), ids(text)
    # ... where the title's import error names no module, the sentence's backend is still read (prose.import's own example)
    assert first("Module not found after upgrading\n\nSince the update, xformers 0.0.28 is in the venv and the log says it is "
                 "missing.")[0] == "prose.import"


def test_round118m_question_under_a_failure_is_no_install_report():
    # question: a maintainer's question about the backend's wheel under a failure of another package
    text = ("> I can't get it to install on Windows because numpy doesn't exist for that wheel at version 1.19\n>\n"
            "> ERROR: No matching distribution found for numpy==1.19.0\n\n"
            "Does this happen when you're installing the flash_attn wheel in the setup script?")
    assert "prose.build" not in ids(text), ids(text)
    # ... the command the report ran, stated, still reads (prose.build's M2 example)
    assert "prose.build" in ids("install failure in ngc-pytorch-2306\n\nwe use the command: pip install flash-attn --no-build-isolation.")


# Each pattern written or widened here, found by a piece of its text, matches no unrelated log of any training round on its own
# (before ranking and attribution decide anything).
PIECES = {
    "attn.import-guard": ("_flash_attention_forward", "flash[ \\t]attn_"),
    "attn.int32-overflow": "\\.stride\\(-?\\d\\)[ \\t]+overflows",
    "xformers.unsupported-inputs": ("n_queries", "ndims in"),
    "sdpa.no-kernel": ("OneDNN", "Backward or grad", "xpu device"),
    "xformers.replaced-torch": ("[\\w.\\[\\]-]+(?:[=<>~!]", "pin(?:s|ned)", "(?:updated|upgraded|downgraded|replaced|uninstalled",
                                "(?:replac\\w*|swap\\w*|overwrit\\w*)[ \\t]+[`'\"]?(?:py)?torch", "Uninstalling) torch-"),
    "sdpa.mps-large-attention": "Invalid buffer size",
}


def test_round118m_patterns_match_no_unrelated_log():
    assert_patterns_match_no_unrelated_log(PIECES)
