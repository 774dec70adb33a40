"""Variants for helper ex116 (session 19): failures told in words (questions, titles, maintainers' replies) read by their entry.

Training texts whose top reading was a last-resort `prose.*` entry while their label named a specific one taught words-form
patterns for fa2.missing (flash_attn.toml: a title saying FlashAttention is required, the Chinese "强制依赖", "can I run it without
flash-attn"), backend.unsupported-gpu (backends.toml: the writer's pre-Ampere GPU then FlashAttention unsupported or to be done
without; FlashAttention loaded on a wrong/old GPU), fa2.wheel-mismatch and xformers.built-for-other-torch (versions.toml: the wheel
that must fit the installed torch; a prebuilt xformers incompatible with the environment; xformers not installed properly).
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
    ("I have two RTX 2070 Super, they don't support flash_attn", "backend.unsupported-gpu"),
    ("i got a GTX 1080 Ti and had to disable flash-attn to get the model to load", "backend.unsupported-gpu"),
    # ... FlashAttention loaded on a wrong / old GPU
    ("Trying to enable flash_attention_2 on an unsupported GPU crashes the server", "backend.unsupported-gpu"),
    ("Using FA2 on older GPUs makes the pipeline fail at load", "backend.unsupported-gpu"),
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
])
def test_ex116_near_misses(text, not_want):
    assert not_want not in ids(text), ids(text)
