"""Variants for round 22 (issue 23, helper ex22): the diffusion/video trainers' and UIs' trackers (ComfyUI and its nodes,
A1111/Forge, InvokeAI, Stability Matrix, kohya/sd-scripts, FramePack, LTX) whose texts fixtures/errors/round22/ missed
or misnamed on main's rules.

Every case was written by hand for this round (2026-11-28) from the mechanism, NOT copied from a real thread: another
app, model, path, version, symbol, GPU or wording. Each positive case asserts the entry and the backend of the first
problem that can be a failure's cause; the near misses beside each mechanism assert what must NOT be claimed.

Mechanisms (knowledge file: entry):
  chain      xformers.toml xformers.replaced-torch: pip's requirement chain "(from torch==X->xformers==Y)": xformers' pin
             is pulling a torch in
  step       versions.toml xformers.built-for-other-torch: an update moved torch and xformers no longer matches, said in
             words; the Windows loader's popup retyped with `_Cpyd`; xformers' `_C.pyd` named with xformers near it
  winerr5    compile.toml cache.rename-failed: "[WinError 5] Access is denied" (any language) without paths, over a
             traceback into Triton's / Inductor's / SageAttention's files or a sentence that SageAttention is on
  passmgr    triton.toml triton.pass-failed: "passmanager: run failed" retyped in a title
  ninja      builds.toml build.no-ninja: ninja not found / not installed / could not find ninja, in words
  nowheel    builds.toml build.prebuilt-wheel-missing: "<library> <version> for cu130 + torch 2.9 + cp312 not available"
  fa3first   flash_attn.toml fa3.import-name: an app's "please install flash_attn3 first" (not a logger's INFO notice)
  tfcut      imports.toml import.cut-at-backend-import: a paste cut in transformers' modeling_flash_attention_utils
  jit        compile.toml compile.backend-untraceable: torch.jit stopping at a backend's registered op (ns::op)
  wrong      attention.toml attn.wrong-output: the output "became garbage" / "is just black", black output got or
             generated, a sentence after the backend is named
  fp8        sage.toml sage.arch-kernel: SageAttention's fp8 mode said to crash or fail on an Ampere GPU
  distutils  builds.toml build.no-distutils (new): a source build on Python 3.12+ that cannot import distutils
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids, tb


# chain: pip's requirement chain shows torch being installed because xformers pins it
@pytest.mark.parametrize("text", [
    "Collecting nvidia-cublas-cu12==12.4.5.8 (from torch==2.6.0->xformers==0.0.29.post3)\n"
    "  Downloading nvidia_cublas_cu12-12.4.5.8-py3-none-manylinux2014_x86_64.whl (363.4 MB)",
    "#7 21.04 Collecting sympy==1.13.1 (from torch==2.5.1->xformers==0.0.28.post3)",
    "Collecting filelock (from torch==2.8.0->xformers)\n  Using cached filelock-3.18.0-py3-none-any.whl",
    "Collecting typing-extensions>=4.10.0 (from torch==2.7.0->-r requirements.txt (line 4)->xformers==0.0.30)",
])
def test_pip_chain_through_xformers_pin(text):
    assert _top(text) == ("xformers.replaced-torch", "xformers")


@pytest.mark.parametrize("text", [
    "Collecting nvidia-cublas-cu12==12.4.5.8 (from torch==2.6.0)",   # torch asked for directly
    "Collecting einops (from xformers==0.0.29)",                     # xformers' own dependency, no torch
    "Collecting torch==2.6.0 (from -r requirements.txt (line 1))",
])
def test_pip_chain_near_misses(text):
    assert "xformers.replaced-torch" not in _ids(text)


# step: torch moved under an installed xformers
@pytest.mark.parametrize("text", [
    "After the update torch was upgraded to 2.9.1 and xformers is now incompatible, generation falls back to split attention",
    "ComfyUI Manager updated pytorch to 2.10 but xformers no longer matches it",
    "xformers broke after torch got updated by the launcher",
    "xformers is mismatched since torch was bumped to 2.7.1+cu128",
    "The procedure entry point ?dtype@TensorOptions@c10@@QEBA?AVTypeMeta@caffe2@@XZ could not be located in the dynamic link "
    "library D:\\SD\\venv\\Lib\\site-packages\\xformers\\_Cpyd.",
    "Popup at launch: _C.pyd could not be loaded.\nSomeone said to remove xformers and reinstall it with --no-deps.",
])
def test_xformers_out_of_step_with_torch(text):
    assert _top(text) == ("xformers.built-for-other-torch", "xformers")


@pytest.mark.parametrize("text", [
    "torch was upgraded to 2.9.1 and everything works, xformers too",
    "xformers was updated to match torch 2.9.1",
    "_C.pyd not found after updating torchvision",                   # no xformers named
])
def test_xformers_out_of_step_near_misses(text):
    assert "xformers.built-for-other-torch" not in _ids(text)


# winerr5: Triton's cache rename denied on Windows, the message without paths
@pytest.mark.parametrize("text", [
    "- **Exception Type:** PermissionError\n- **Exception Message:** [WinError 5] Access is denied\n## Stack Trace\n"
    "  File \"E:\\ComfyUI\\python_embeded\\Lib\\site-packages\\triton\\compiler\\compiler.py\", line 300, in compile",
    "!!! Exception during processing !!! [WinError 5] 拒绝访问。\nTraceback (most recent call last):\n"
    "  File \"C:\\AI\\python_embeded\\Lib\\site-packages\\sageattention\\core.py\", line 131, in sageattn",
    "[WinError 32] The process cannot access the file because it is being used by another process\n"
    "It only fails when I select sage attention in the model loader.",
])
def test_winerror5_under_triton_kernels(text):
    assert _top(text)[0] == "cache.rename-failed"


@pytest.mark.parametrize("text", [
    "ERROR: Could not install packages due to an OSError: [WinError 5] Access is denied: 'C:\\\\Python312\\\\Scripts\\\\pip.exe'",
    "[WinError 5] Access is denied\nwhile saving the image to the output folder",
])
def test_winerror5_near_misses(text):
    assert "cache.rename-failed" not in _ids(text)


# passmgr: the MLIR message retyped
@pytest.mark.parametrize("text", [
    "passmanager: run failed on the 5070 with sageattn",
    "PassManager run failed - triton 3.2 on Blackwell (sage attention 1.0.6)",
])
def test_pass_manager_retyped(text):
    assert _top(text)[0] == "triton.pass-failed"


def test_pass_manager_near_miss():
    assert "triton.pass-failed" not in _ids("the password manager failed to run at startup")


# ninja: the warning in words
@pytest.mark.parametrize("text", [
    "pip install xformers: it says ninja not found and the build runs for hours",
    "SageAttention setup.py: could not find ninja, falling back",
    "building flash-attn on Windows, ninja is not installed in the venv",
])
def test_ninja_missing_in_words(text):
    assert _top(text)[0] == "build.no-ninja"


@pytest.mark.parametrize("text", [
    "ninja: command not found",        # a shell, not torch's warning
    "the ninja-build package is missing in the image, cmake fails",
])
def test_ninja_near_misses(text):
    assert "build.no-ninja" not in _ids(text)


# nowheel: a wheel collection lacks the combination
@pytest.mark.parametrize("text,backend", [
    ("flash-attn 2.7.4.post1 for cu128 / torch 2.7.1 / cp313 is not available", "fa2"),
    ("SageAttention 2.2.0 for torch 2.10 + cu130 + py3.13 missing", "sage"),
    ("xformers wheel for torch 2.9.0 cu130 not available yet on Windows", "xformers"),
])
def test_no_wheel_for_combination(text, backend):
    assert _top(text) == ("build.prebuilt-wheel-missing", backend)


def test_no_wheel_near_miss():
    assert "build.prebuilt-wheel-missing" not in _ids("the Flux model for torch 2.9 is not available offline")


# fa3first: an app's own demand for FA3
@pytest.mark.parametrize("text", [
    "RuntimeError: please install flash-attn-3 first, then select flash3",
    "Error: Install FlashAttention3 before using attention_mode=fa3",
    "ValueError: install flash_attn_3 first (built from flash-attention/hopper)",
])
def test_install_fa3_first(text):
    assert _top(text) == ("fa3.import-name", "fa3")


@pytest.mark.parametrize("text", [
    "2026-03-02 16:29:30.336 | INFO     | app.attn:<module>:13 - flash_attn_varlen_func_v3 not found, please install flash_attn3 first",
    "DEBUG:app.attn: please install FA3 first for more speed",
    "please install flash-attn 2 first",
])
def test_install_fa3_first_near_misses(text):
    assert "fa3.import-name" not in _ids(text)


# tfcut: a paste cut inside transformers' flash-attention utilities
@pytest.mark.parametrize("text", [
    tb(("C:\\app\\main.py", 3, "<module>", "import nodes"),
       ("C:\\app\\venv\\Lib\\site-packages\\transformers\\models\\siglip\\modeling_siglip.py", 31, "<module>",
        "from ...modeling_flash_attention_utils import _flash_attention_forward")),
    tb(("/srv/node/__init__.py", 1, "<module>", "from .nodes import *"),
       ("/srv/venv/lib/python3.11/site-packages/transformers/models/t5/modeling_t5.py", 40, "<module>",
        "from ...modeling_flash_attention_utils import FlashAttentionKwargs"))
    + '\n  File "/srv/venv/lib/python3.11/site-packages/transformers/modeling_flash_attention_utils.py", line 35, in <module>\n```',
])
def test_cut_in_transformers_flash_utilities(text):
    assert _top(text) == ("import.cut-at-backend-import", "fa2")


def test_cut_in_transformers_flash_utilities_near_miss():
    # the import raised and says so: its own error is the answer, not a cut paste
    text = tb(("/srv/venv/lib/python3.11/site-packages/transformers/models/t5/modeling_t5.py", 40, "<module>",
               "from ...modeling_flash_attention_utils import FlashAttentionKwargs"),
              error="ImportError: cannot import name 'FlashAttentionKwargs' from 'transformers.modeling_flash_attention_utils'")
    assert _top(text)[0] != "import.cut-at-backend-import"


# jit: torch.jit at a backend's registered op
@pytest.mark.parametrize("text,backend", [
    ("torch.jit.trace hits xformers::efficient_attention_forward_cutlass and raises", "xformers"),
    ("torch.jit.script cannot handle flash_attn::_flash_attn_varlen_forward", "fa2"),
])
def test_jit_at_backend_op(text, backend):
    assert _top(text) == ("compile.backend-untraceable", backend)


def test_jit_near_miss():
    assert "compile.backend-untraceable" not in _ids("torch.jit.trace fails on aten::upsample_bicubic2d in the VAE")


# wrong: wrong output said in words near the backend
@pytest.mark.parametrize("text", [
    "I switched the loader to sageattn_qk_int8_pv_fp16_cuda.\nThe video became garbage after step 4.",
    "Enabled xformers in the UI settings.\nNow the result is just black, every time.",
    "Using sage attention (auto) on a 3060.\nI keep getting black images with Flux dev.",
    "--use-sage-attention with Qwen-Image fp8\nsometimes black frames generated at the end",
])
def test_wrong_output_near_backend(text):
    assert _top(text)[0] == "attn.wrong-output"


@pytest.mark.parametrize("text", [
    "The VAE decode became garbage after I changed the scheduler",
    "I keep getting black images with Flux dev and this LoRA",
    "the output is black and white manga style, as prompted (xformers on)",
])
def test_wrong_output_near_misses(text):
    assert "attn.wrong-output" not in _ids(text)


# fp8: SageAttention's fp8 path on a GPU without fp8
@pytest.mark.parametrize("text", [
    "Patch Sage Attention KJ: fp16 modes work. The fp8_cuda mode crashes ComfyUI on my RTX 3080.",
    "sageattention 2.2 node\nOn the A6000 the fp8 option fails immediately (Ampere, no fp8 support?)",
    "sageattn: my RTX 3090 can't run the fp8 mode, it crashes the python process",
])
def test_sage_fp8_on_ampere(text):
    assert _top(text) == ("sage.arch-kernel", "sage")


@pytest.mark.parametrize("text", [
    "The fp8 checkpoint crashes on my RTX 3090 with Flux (no sage installed)",   # no SageAttention named before it
    "sage attention works on the 4090; the fp8 mode crashes only with 64 GB RAM swapping",
])
def test_sage_fp8_near_misses(text):
    assert "sage.arch-kernel" not in _ids(text)


# distutils: Python 3.12 builds
@pytest.mark.parametrize("text,backend", [
    ("Building wheels for collected packages: sageattention\n  File \"/tmp/pip-build-env-9k/overlay/lib/python3.12/"
     "site-packages/setuptools/monkey.py\", line 13, in <module>\n    import distutils.filelist\n"
     "ModuleNotFoundError: No module named 'distutils'", "sage"),
    ("uv pip install flash-attn --no-build-isolation\nerror: The build backend returned an error\n"
     "  ModuleNotFoundError: No module named 'distutils.core'", "fa2"),
])
def test_build_without_distutils(text, backend):
    assert _top(text) == ("build.no-distutils", backend)


@pytest.mark.parametrize("text", [
    "  File \"/app/venv/lib/python3.12/site-packages/setuptools/monkey.py\", line 13, in <module>\n"
    "ModuleNotFoundError: No module named 'distutils'",       # no attention library named: any package's build
    "ModuleNotFoundError: No module named 'distutils' when running the webui on Python 3.12",
])
def test_build_without_distutils_near_misses(text):
    assert "build.no-distutils" not in _ids(text)


# step, in Chinese, Japanese and Korean (written here: an update of torch, then xformers no longer fits)
@pytest.mark.parametrize("text", [
    "整合包把torch升级到2.8以后，xformers就用不了了",
    "ComfyUIでtorchをアップデートしたらxformersが使えなくなりました",
    "torch를 2.9로 업그레이드한 뒤 xformers가 작동하지 않습니다",
])
def test_xformers_out_of_step_with_torch_cjk(text):
    assert _top(text) == ("xformers.built-for-other-torch", "xformers")


def test_xformers_out_of_step_cjk_near_miss():
    # xformers updated to fit torch: no mismatch said
    assert "xformers.built-for-other-torch" not in _ids("把xformers更新到0.0.32以后可以正常使用")


# guard: a bare assert's AssertionError retold with the flag it tested (titles of Wan-based trainers and nodes)
@pytest.mark.parametrize("text,backend", [
    ("AssertionError: FLASH_ATTN_2_AVAILABLE (diffusion-pipe, Wan 2.1 LoRA)", "fa2"),
    ("FLASH_ATTN_3_AVAILABLE AssertionError on H20 with the flash3 option", "fa3"),
    ("AssertionError: assert SAGE_ATTN_AVAILABLE", "sage"),
])
def test_assert_flag_retold(text, backend):
    assert _top(text) == ("attn.import-guard", backend)


def test_assert_flag_near_miss():
    assert "attn.import-guard" not in _ids("AssertionError: CUDA_AVAILABLE is False on this node")


def test_winerror5_with_a_startup_line_below_is_not_triton():
    # an image save denied, then the report's log section with ComfyUI's start-up line: no Triton kernel in sight
    text = ("- **Exception Message:** [WinError 5] Access is denied\n## System Information\n- **OS:** nt\n## Logs\n"
            "2025-06-01T10:00:00.000000 - Using sage attention\n2025-06-01T10:00:01.000000 - Saving image to output/")
    assert "cache.rename-failed" not in _ids(text)
