"""Variants for round 78 (helper ex78): the mechanisms fixtures/errors/round78/ (the newest threads the search tool holds,
2025-H2 and 2026: torch 2.9-2.11, cu130, sm_120/GB10, Python 3.13) missed on main's rules.

Every case was written by hand for this round (2026-11-29) from the mechanism, NOT copied from a real thread: another
backend, path, version, GPU or wording. Each positive case asserts the entry and the backend of the first problem that can
be a failure's cause (None: no backend of the seven); the near misses assert what must NOT be claimed.

Mechanisms (knowledge file: entry):
  isolate   builds.toml build.isolation: "No module named 'torch'" and the backend's build (install, setup.py) named after
            it on the same line, or "... while/when/during building <backend>"
  hub       frameworks.toml kernels.hub-no-build: newer kernels releases' "does not have one of build variants: ..." list
  dll       platform.toml torch.import-failed: torch's Windows loader's "Error loading <torch/lib/X.dll> or one of its
            dependencies", the path cut away or kept
  triton    env.toml flex.triton-broken: Inductor's launch hooks on Triton's CompiledKernel (gone in Triton 3.4), and the
            Triton/torch pairing said in words
  zh-sel    frameworks.toml app.backend-selection-ignored: said in Chinese (set to one, still loads another)
  zh-wheel  builds.toml build.prebuilt-wheel-missing: "no ready-made wheel (yet)" for a backend, in Chinese
  sage-fp8  sage.toml sage.fp8-kernel-cuda-too-old (new): SageAttention 2.2 built with a CUDA before 12.8, then
            "unspecified launch failure"
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids


@pytest.mark.parametrize("text,entry,backend", [
    # isolate: other backends, the same line, the build named after the error
    ("ModuleNotFoundError: No module named 'torch' during the flash-attention build with uv 0.9 on the runner",
     "build.isolation", "fa2"),
    ("error: No module named 'torch' while compiling sageattention 2.2.0 in the Dockerfile", "build.isolation", "sage"),
    ("No module named `torch` - the xformers setup.py can't find it under pip 25.3", "build.isolation", "xformers"),
    # hub: another repo, variant list and platform
    ("Kernel at path `/root/.cache/huggingface/hub/models--kernels-community--vllm-flash-attn3/snapshots/ab12` does not have "
     "one of build variants: torch211-cxx11-cu130-aarch64-linux, torch-cuda, torch-universal", "kernels.hub-no-build", "fa3"),
    # dll: the torch/lib path kept, another DLL; the name alone
    ('OSError: [WinError 126] The specified module could not be found. Error loading '
     '"E:\\\\sd\\\\venv\\\\Lib\\\\site-packages\\\\torch\\\\lib\\\\shm.dll" or one of its dependencies.', "torch.import-failed", None),
    ("Error loading 'cudnn_ops64_9.dll' or one of its dependencies", "torch.import-failed", None),
    # triton: the instance form, another hook; the pairing with ==
    ("AttributeError: 'CompiledKernel' object has no attribute 'launch_enter_hook'", "flex.triton-broken", None),
    ("heads-up: triton==3.4.0 needs torch 2.8 or newer, keep them paired", "flex.triton-broken", None),
    # zh-sel: other verbs, other backends
    ("选择了 sdpa 但是还在加载 xformers", "app.backend-selection-ignored", "xformers"),
    ("把 attention 切换到 sdpa 了，可是依然在导入 flash_attn", "app.backend-selection-ignored", "fa2"),
    # zh-wheel: other words for the wheel
    ("flash-attn 对 cu130 还没有官方的 whl", "build.prebuilt-wheel-missing", "fa2"),
    ("sageattention 2.2 目前没有编译好的安装包给 Python 3.13", "build.prebuilt-wheel-missing", "sage"),
    # sage-fp8: the toolkit first; the launch failure first and a +cu12x torch after it
    ("Windows 11, CUDA 12.6, RTX 4060 Ti, SageAttention 2.2.0 from the wheel\nRuntimeError: CUDA error: unspecified launch failure",
     "sage.fp8-kernel-cuda-too-old", "sage"),
    ("CUDA error: unspecified launch failure\n\nsystem: torch 2.7.1+cu124, sageattention 2.2.0, RTX 4090",
     "sage.fp8-kernel-cuda-too-old", "sage"),
])
def test_mechanism(text, entry, backend):
    got = _top(text)
    assert got == (entry, backend), got


@pytest.mark.parametrize("text,absent", [
    # isolate: torch missing when importing (no build), another module missing during the build
    ("ModuleNotFoundError: No module named 'torch' when I import xformers in a fresh notebook", "build.isolation"),
    ("ModuleNotFoundError: No module named 'torchvision' during the flash-attn build", "build.isolation"),
    # hub: another hub's missing files
    ("This repo does not have any of the files: config.json, model.safetensors", "kernels.hub-no-build"),
    # dll: a DLL outside torch/lib, with its path
    ('OSError: Error loading "D:\\\\tools\\\\ffmpeg\\\\bin\\\\avcodec-61.dll" or one of its dependencies.', "torch.import-failed"),
    # triton: another class's attribute; Triton needing a GPU, not a torch
    ("AttributeError: type object 'Config' has no attribute 'launch_exit_hook'", "flex.triton-broken"),
    ("triton 3.3 needs a GPU with compute capability 7.0 or newer", "flex.triton-broken"),
    # zh-sel: set and working
    ("设置好了 sageattention，可以正常使用", "app.backend-selection-ignored"),
    # zh-wheel: the wheel exists, then fails
    ("flash-attn 有现成的轮子，但是安装后报错 undefined symbol", "build.prebuilt-wheel-missing"),
    # sage-fp8: a CUDA 12.8 toolkit; another backend with CUDA 12.4; cu130
    ("CUDA 12.8, RTX 5080, sageattention 2.2.0\nRuntimeError: CUDA error: unspecified launch failure",
     "sage.fp8-kernel-cuda-too-old"),
    ("CUDA 12.4, RTX 4090, flash-attn 2.7.4\nRuntimeError: CUDA error: unspecified launch failure", "sage.fp8-kernel-cuda-too-old"),
    ("unspecified launch failure with sageattention on torch 2.9.0+cu130", "sage.fp8-kernel-cuda-too-old"),
])
def test_near_miss(text, absent):
    assert absent not in _ids(text)
