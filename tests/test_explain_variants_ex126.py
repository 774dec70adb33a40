"""Variants for helper ex126 (session 21): the rest of ex124's reading and the mechanisms it named
(benchmarks/results/explain-right-cause-s21.md, section "ex126"). Every case was written by hand (2026-11-30): other programs,
versions, paths, GPUs and wordings than the fixtures; each `fixed` case fails on main at f9b11d55 (checked), each near miss
passes on both.

Mechanisms (each seen in two training threads of different repositories, or grounded in the tool's own source):
  oom-words   build.oom: the build itself said to eat the machine's memory in words ("memory-intensive", "consuming enormous
              amounts of memory", "uses all the RAM"), an attention library or MAX_JOBS/ninja/nvcc before it on the line
              (unslothai/unsloth#3079, blog.yafla.com)
  uv-url      install.wheel-other-platform: uv's "A URL dependency is incompatible with the current platform: <wheel URL>"
              (astral-sh/uv crates/uv-installer/src/plan.rs; ComfyUI-TRELLIS2#77)
  dep-tb      import.dep-missing: a backend's own module at import time stops on "No module named 'X'" for a package it depends
              on (flash-attention#2522: FA4's interface.py importing cuda-python)
  onnx-heads  attn.onnx-export-unsupported: onnxscript's SDPA lowering asserting the head counts it can translate
              (microsoft/onnxscript torch_lib/ops/nn.py; sentence-transformers#3666)
  link-step   build.compile-failed: MSVC's LNK1120 on the import library of a backend's extension (SageAttention#233)
  md-quoted   attn.kernel-launch-error: CUDA's grid-limit error quoted in markdown underscores ("_RuntimeError: CUDA error:
              invalid configuration argument_"), the attention library named near it (facebookresearch/xformers#998)
  abi-words   fa2.wheel-mismatch: a flash-attn wheel said not to match torch's C++ ABI (cxx11abi TRUE/FALSE; flash-attn's
              setup.py names its wheels from torch._C._GLIBCXX_USE_CXX11_ABI; NVlabs/ToolOrchestra#5)
"""

from __future__ import annotations

import pytest

from explain_top import first, ids


@pytest.mark.parametrize("text, want", [
    # oom-words, fixed
    ("Compiling SageAttention 2 on WSL2: the build is extremely memory-hungry and the VM shuts down at 60%", "build.oom"),
    ("With MAX_JOBS=4 the flash_attn_3 compile eats 60 GB of RAM and the node starts swapping", "build.oom"),
    ("xformers 0.0.30 from git: the build process uses up all available memory on a 32-core box", "build.oom"),
    # uv-url, fixed
    ("error: A URL dependency is incompatible with the current platform: https://github.com/woct0rdho/SageAttention/releases/"
     "download/v2.2.0-windows/sageattention-2.2.0%2Bcu128torch2.7.1-cp312-cp312-win_amd64.whl", "install.wheel-other-platform"),
    ("  × Failed to determine installation plan\n  ╰─▶ A URL dependency is incompatible with the current platform: "
     "https://wheels.example.com/whl/cu128/xformers-0.0.30-cp310-cp310-manylinux_2_28_x86_64.whl", "install.wheel-other-platform"),
    # dep-tb, fixed
    ("Traceback (most recent call last):\n"
     "  File \"/opt/conda/lib/python3.12/site-packages/flash_attn/cute/flash_bwd_sm90.py\", line 9, in <module>\n"
     "    from einops import rearrange\n"
     "ModuleNotFoundError: No module named 'einops'", "import.dep-missing"),
    ("  File \"C:\\ComfyUI\\python_embeded\\Lib\\site-packages\\spas_sage_attn\\core.py\", line 4, in <module>\n"
     "    import packaging.version\n"
     "ModuleNotFoundError: No module named 'packaging'", "import.dep-missing"),
    # onnx-heads, fixed
    ("AssertionError: SDPA (MHA) requires q_num_heads = kv_num_heads", "attn.onnx-export-unsupported"),
    ("torch.onnx._internal.exporter._errors.ConversionError: Error when translating node %scaled_dot_product_attention\n"
     "AssertionError: SDPA (GQA or MQA) requires q_num_heads > kv_num_heads & q_num_heads % kv_num_heads == 0",
     "attn.onnx-export-unsupported"),
    # link-step, fixed
    ("C:\\Users\\me\\AppData\\Local\\Temp\\tmpab12.build-temp\\Release\\sageattention._qattn_sm89\\csrc\\qattn\\"
     "_qattn_sm89.cp311-win_amd64.lib : fatal error LNK1120: 1 unresolved externals", "build.compile-failed"),
    ("build\\temp.win-amd64-cpython-310\\Release\\xformers\\_C.cp310-win_amd64.lib : fatal error LNK1120: 12 unresolved externals",
     "build.compile-failed"),
    # md-quoted, fixed
    ("With xformers enabled, sampling stops: __RuntimeError: CUDA error: invalid configuration argument__",
     "attn.kernel-launch-error"),
    ("flash_attn_func over 70000 heads\nit raises _Error: CUDA error: invalid configuration argument_ every time",
     "attn.kernel-launch-error"),
    # abi-words, fixed
    ("The flash_attn wheel pinned in setup.cfg doesn't match\nthe C++ ABI of the torch 2.7 wheels on PyPI", "fa2.wheel-mismatch"),
    ("flash-attn 2.7.4 wheel is cxx11abiFALSE but my torch 2.6 uses cxx11abiTRUE", "fa2.wheel-mismatch"),
])
def test_labelled_cause_in_other_words(text, want):
    assert first(text)[0] == want


@pytest.mark.parametrize("text, not_want", [
    # near misses: the same words without the mechanism
    ("flash-attn 2.8 build takes two hours with MAX_JOBS=2", "build.oom"),
    ("with flash-attn the compiled model uses too much memory at 32k tokens", "build.oom"),
    ("xformers building block uses a lot of GPU memory at batch 64", "build.oom"),
    ("error: A URL dependency is incompatible with the current platform: https://files.example.org/numpy-2.1.0-cp312-cp312-win_amd64.whl",
     "install.wheel-other-platform"),
    ("  File \"/srv/app/models/attn.py\", line 3, in <module>\n    import einops\nModuleNotFoundError: No module named 'einops'",
     "import.dep-missing"),
    ("  File \"/tmp/pip-install-x1/sageattention/setup.py\", line 20, in <module>\n    from packaging.version import parse\n"
     "ModuleNotFoundError: No module named 'packaging'", "import.dep-missing"),
    ("ValueError: num_attention_heads (12) must be divisible by num_key_value_heads (5)", "attn.onnx-export-unsupported"),
    ("build\\temp.win-amd64-cpython-311\\Release\\mypkg\\_ext.cp311-win_amd64.lib : fatal error LNK1120: 1 unresolved externals",
     "build.compile-failed"),
    ("the xformers wheel does not match the ABI of torch 2.5", "fa2.wheel-mismatch"),
    ("my own CUDA kernel fails: _RuntimeError: CUDA error: invalid configuration argument_", "attn.kernel-launch-error"),
])
def test_near_misses_do_not_read_the_mechanism(text, not_want):
    assert not_want not in [first(text)[0]]


def test_flash_attn_own_extension_stays_its_entry():
    """flash-attn's optional csrc extension missing (rotary_emb) is fa2.extension-missing, not a dependency of the package."""
    text = ("  File \"/usr/lib/python3/site-packages/flash_attn/layers/rotary.py\", line 10, in <module>\n"
            "    import rotary_emb\nModuleNotFoundError: No module named 'rotary_emb'")
    assert ids(text)[:1] == ["fa2.extension-missing"]
