"""Variants for helper ex116 (session 19): failures told in words (questions, titles, maintainers' replies) read by their entry.

Training texts whose top reading was a last-resort `prose.*` entry while their label named a specific one taught words-form
patterns for fa2.missing (flash_attn.toml: a title saying FlashAttention is required, the Chinese "强制依赖", "can I run it without
flash-attn"), backend.unsupported-gpu (backends.toml: the writer's pre-Ampere GPU then FlashAttention unsupported or to be done
without; FlashAttention loaded on a wrong/old GPU), fa2.wheel-mismatch and xformers.built-for-other-torch (versions.toml: the wheel
that must fit the installed torch; a prebuilt xformers incompatible with the environment; xformers not installed properly), then
xformers.not-installed (a title "xformers missing"), flex.compile-failed (guides.toml), build.compile-failed (builds.toml),
app.backend-selection-ignored (frameworks.toml), attn.native-crash, attn.nan-output and attn.wrong-output (attention.toml),
build.prebuilt-wheel-missing (builds.toml), a SageAttention 2 title on a pre-Ampere GPU (backend.unsupported-gpu) and unsloth's
banner without FA2 beside flash-attn said installed (fa2.not-available-fallback, flash_attn.toml).
Every case below was written by hand (2026-11-30): other programs, GPUs, versions and wordings than the fixtures.
"""

from __future__ import annotations

import pytest

from explain_top import first, ids


@pytest.mark.parametrize("text, want", [
    # fa2.missing: a title saying (or asking whether) FlashAttention is required
    ("Is flash_attn really required for the demo?\n\nI cannot build it on my laptop.", "fa2.missing"),
    ("[Question] FlashAttention2 mandatory for inference?", "fa2.missing"),
    ("flash-attn + xformers required?\n\nThe README lists both.", "fa2.missing"),
    # ... in Chinese
    ("Qwen-VL 的远程代码强制要求安装 flash-attn，Windows 上装不上", "fa2.missing"),
    ("为什么 flash_attn 是必须的？推理也要装吗", "fa2.missing"),
    # ... asked as running without it
    ("Could we load the checkpoint without installing flash-attention? pip fails on our cluster.", "fa2.missing"),
    ("how should I run inference with no flash attn, the wheel will not install", "fa2.missing"),
    # backend.unsupported-gpu: the writer's old GPU, then FlashAttention said unsupported or to be done without
    ("We only use Tesla T4 cards on Kaggle.\nIs there a way to train without flash attention?", "backend.unsupported-gpu"),
    ("we have 8 2080ti boxes and they don't support flash_attn", "backend.unsupported-gpu"),
    ("i got a GTX 1080 Ti and had to disable flash-attn to get the model to load", "backend.unsupported-gpu"),
    # ... FlashAttention loaded on a wrong / old GPU
    ("Trying to enable flash_attention_2 on an unsupported GPU crashes the server", "backend.unsupported-gpu"),
    ("Using flash-attn 2 on older GPUs makes the pipeline fail at load", "backend.unsupported-gpu"),
    # fa2.wheel-mismatch: the wheel has to match the installed torch
    ("flash-attn import error\n\nYou need to download the wheel that matches your torch, cxx11abi and python tags.",
     "fa2.wheel-mismatch"),
    ("flash_attn 装上就报错\n请按照你的 pytorch 和 cuda 版本选择对应的 whl 重新安装", "fa2.wheel-mismatch"),
    # xformers.built-for-other-torch: told in words
    ("xformers won't load in Forge\n\nGrab the correct xformers wheel for your torch version, or reinstall torch 2.4.1.",
     "xformers.built-for-other-torch"),
    ("xformers fails after the update: the pip package is not compatible with your environment (torch 2.5).",
     "xformers.built-for-other-torch"),
    ("Import error: xformers wasn't installed correctly in the venv", "xformers.built-for-other-torch"),
    # build.prebuilt-wheel-missing: no compatible wheel found, a wheel never published; "没有对应的预编译轮子"
    ("uv add sageattention cannot find a matching prebuilt wheel for cp313 on Windows", "build.prebuilt-wheel-missing"),
    ("xformers 0.0.31 for torch 2.8: the cu129 wheel was never published, so pip builds it", "build.prebuilt-wheel-missing"),
    ("sageattention 2.2.0 在 Linux aarch64 上没有匹配的预编译 whl", "build.prebuilt-wheel-missing"),
    # backend.unsupported-gpu: SageAttention 2/3 put on a pre-Ampere GPU in a title
    ("SageAttention 2 on GTX 1660 Super?\n\nthe node errors at the first step", "backend.unsupported-gpu"),
    ("[Question] sage_attention v2 for Tesla T4 on Colab", "backend.unsupported-gpu"),
    # fa2.not-available-fallback: unsloth's banner without FA2 while the report says flash-attn is installed
    ("Bfloat16 = TRUE. FA [Xformers = 0.0.33. FA2 = False]\n\nflash_attn is definitely installed (2.8.3), pip show lists it",
     "fa2.not-available-fallback"),
    # xformers.not-installed: a title that says only that it is missing
    ("xformers missing\n\nThe colab stopped using it after the update.", "xformers.not-installed"),
    # flex.compile-failed: FlexAttention said not to work under compile, a compiler path not supporting it, dynamic shapes
    ("flex_attention does not compile with torch.compile(mode='max-autotune') on ROCm 6.4", "flex.compile-failed"),
    ("Inductor does not support flex attention with this score_mod yet?", "flex.compile-failed"),
    ("FlexAttention crashes under dynamic=True when the document mask changes length", "flex.compile-failed"),
    # build.compile-failed: a title saying building failed; error over a source build in progress
    ("Error compiling flash-attn 2.8.3 on Ubuntu 24.04 with CUDA 13", "build.compile-failed"),
    ("sageattention install fails\n  running build_ext\n  building 'sageattention._qattn_sm80' extension",
     "build.compile-failed"),
    # app.backend-selection-ignored: the selection does not take effect; another backend still used
    ("xformers not kicking in with --xformers on the A1111 fork", "app.backend-selection-ignored"),
    ("I enabled sageattention in the loader node but the log still says using sdpa", "app.backend-selection-ignored"),
    ("开启 xformers 之后日志仍然显示使用 sdpa", "app.backend-selection-ignored"),
    # attn.native-crash: the process or machine dying, a backend named
    ("segfault when calling flash_attn_varlen_func on a GH200 node", "attn.native-crash"),
    ("sageattn 2.2 crashes the whole PC (black screen, reboot) on the second sampler pass", "attn.native-crash"),
    ("xformers memory_efficient_attention fails and terminates the process without a traceback", "attn.native-crash"),
    # attn.nan-output: NaN out of a named backend
    ("NaN in the compiled flex_attention backward with a sliding-window block mask", "attn.nan-output"),
    ("After 200 steps the output of sageattn_qk_int8_pv_fp16_triton becomes NaN", "attn.nan-output"),
    # attn.wrong-output: wrong numbers from a named backend, told in words
    ("incorrect gradients with xformers memory_efficient_attention when attn_bias is a BlockDiagonalMask", "attn.wrong-output"),
    ("Possible incorrectness in the SDPA cuDNN path for padded batches", "attn.wrong-output"),
    ("The frames come out pure noise when using sage attention on Wan 2.2", "attn.wrong-output"),
])
def test_ex116_variants(text, want):
    assert first(text)[0] == want, ids(text)


@pytest.mark.parametrize("text, not_want", [
    # mentions, negations, requests: none is the entry's mechanism
    ("Flash attention is not required for inference; SDPA is used by default.", "fa2.missing"),
    ("FlashAttention no longer required since v0.4", "fa2.missing"),
    ("flash-attn is required to build the docs? no, only for training", "fa2.missing"),
    ("本项目不强制依赖 flash_attn，没有安装时自动使用 sdpa", "fa2.missing"),
    ("flash_attn 不是必须的", "fa2.missing"),
    ("Could you make the model work without flash-attn? It would help Mac users.", "fa2.missing"),
    ("I have a V100 and flash attention is not involved at all; the OOM happens in the VAE", "backend.unsupported-gpu"),
    ("I have an A100 and want to run without flash attention for a fair comparison", "backend.unsupported-gpu"),
    ("Using flash attention on older GPUs works fine with the 2.x branch", "backend.unsupported-gpu"),
    ("flash-attn 2.8.3 released with wheels for torch 2.9", "fa2.wheel-mismatch"),
    ("xformers is installed correctly and memory_efficient_attention runs", "xformers.built-for-other-torch"),
    ("Feature request: publish the right xformers build in the release notes", "xformers.built-for-other-torch"),
    ("xformers is not missing: pip list shows 0.0.33", "xformers.not-installed"),
    ("flash-attn 2.8.3 wheels have been published for torch 2.9 and cu128", "build.prebuilt-wheel-missing"),
    ("SageAttention 2 on RTX 2060 works with the turing branch", "backend.unsupported-gpu"),
    ("Bfloat16 = TRUE. FA [Xformers = 0.0.33. FA2 = False]\nTraining starts normally.", "fa2.not-available-fallback"),
    ("flex_attention works fine with torch.compile on 2.6", "flex.compile-failed"),
    ("FlexAttention doesn't work without torch.compile (it materializes the scores)", "flex.compile-failed"),
    ("Building flash-attn from source takes an hour, is that expected?", "build.compile-failed"),
    ("Sage attention is triggered correctly, the log shows sageattn_qk_int8_pv_fp16_cuda", "app.backend-selection-ignored"),
    ("I enabled flash attention and it still uses flash attention, as expected", "app.backend-selection-ignored"),
    ("no segfault with flex attention after the fix", "attn.native-crash"),
    ("Running our own Triton flash attention kernel with a T4, segfault occurs in the benchmark", "attn.native-crash"),
    ("pip error on the cluster\n  copying xformers/ops/fmha.py -> build/lib.linux-x86_64-cpython-311/xformers/ops",
     "build.compile-failed"),
    ("There are no NaN in flex attention outputs with return_lse=False", "attn.nan-output"),
    ("flash attention is not NaN-safe? no, it is, the loss was fine", "attn.nan-output"),
    ("no wrong gradients with flex attention on 2.7 anymore", "attn.wrong-output"),
    ("Black Forest Labs Flux with sage attention: 20% faster", "attn.wrong-output"),
])
def test_ex116_near_misses(text, not_want):
    assert not_want not in ids(text), ids(text)
