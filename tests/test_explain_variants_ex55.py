"""Variants for the generic layer's reading of a report's HEAD, session 9's helper ex55 (issue 23; what the generic layer
missed in the head: benchmarks/results/explain-generic-head-classes.md, read text by text and grouped into mechanisms).
Every text here was written by hand from the mechanism, NOT copied from a thread: other backends, GPUs, apps, versions,
trackers' title shapes and languages. Near misses beside each say what must stay silent.

  M1  words    prose.toml FAILX / BUILDX / IMPORTX / COMPILEX / SLOWX / IGNOREDX / DTYPE: failure words the shared lists lack
               (出错, 装不上, "was working ... until", "not new enough", "could not determine", "always downloads torch",
               "needs a downgrade to build", "could not be located", "uncompilable", "pathological compile time", "forces
               eager attention"), an assertion that a backend's function is there, a dtype refusal as the title
  M2  under    a failure title that names no backend, over the first line pasted under it that does (a program's line with a
               refusal), over the command that installs it (an install-failure title), or over a long sentence with no stop
  M3  title    a title that names the backend (and no failure, no feature request, no how-to), over a head sentence where
               "it" or the writer gets the failure: wrong output, one kind of GPU only, another torch pulled in
  M4  pip      pip's own lines: an ERROR line naming a backend's package or wheel; the backend collected, then pip's failure
  M5  LINE     a title whose error follows "the following error:" on the same line; an install that runs out of memory
"""

from __future__ import annotations

import pytest

from attn_doctor.explain import match
from attn_doctor.knowledge import entries

GENERIC = {e.id for e in entries().values() if e.generic or e.fallback or (e.frames and not e.patterns)}


def generic_first(text: str) -> tuple[str | None, str | None]:
    """(entry id, backend) of the first problem the generic layer alone reports (benchmarks/explain_generic.py)."""
    found = match(text, ids=GENERIC)
    return (found[0].entry.id, found[0].backend) if found else (None, None)


def generic_ids(text: str) -> set[str]:
    return {m.entry.id for m in match(text, ids=GENERIC)}


# ---- M1: words ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,want", [
    ("xformers 在 RTX 5090 上出错", ("prose.gpu", "xformers")),
    ("Wan 视频节点用 SageAttention 就出错", ("prose.fails", "sage")),
    ("flash attention 2 运行出错，换成 sdpa 就好了", ("prose.fails", "fa2")),
    ("flash-attn 一直装不上", ("prose.build", "fa2")),
    ("sageattention 在 Windows 上安装不上", ("prose.build", "sage")),
    ("xformers was working fine until I updated torch to 2.6", ("prose.fails", "xformers")),
    ("FlexAttention worked perfectly until the 2.5 nightly", ("prose.fails", "flex")),
    ("Your flash-attn is not new enough for sliding window attention", ("prose.fails", "fa2")),
    ("sageattention version too old for the Wan 2.2 loader", ("prose.fails", "sage")),
    ("xformers could not determine the CUDA architecture of this card", ("prose.fails", "xformers")),
    ("pip install sageattention always downloads torch 2.8", ("prose.build", "sage")),
    ("Need a downgrade of setuptools to build xformers from source", ("prose.build", "xformers")),
    ("The procedure entry point could not be located in sageattention's _qattn_sm80.pyd", ("prose.import", "sage")),
    ("xformers: the procedure entry point could not be located", ("prose.import", "xformers")),
    ("assert sageattn_varlen is not None", ("prose.import", "sage")),
    ("assert flash_attn_varlen_func is not None\n\nRunning the slide encoder demo.", ("prose.import", "fa2")),
    ("xformers memory_efficient_attention is uncompilable under torch.compile", ("prose.compile", "xformers")),
    ("FlexAttention block masks are untraceable with torch.compile on 2.4", ("prose.compile", "flex")),
    ("Excessive compile time with flex_attention and dynamic shapes", ("prose.slow", "flex")),
    ("FA4 has a huge startup time on the first call", ("prose.slow", "cute")),
    ("Gradient checkpointing forces eager attention over FlexAttention", ("prose.ignored", "flex")),
    ("xformers only supports fp16 and bf16 here\n\nThe VAE runs in fp32 on my card.", ("prose.fails", "xformers")),
    ("FA3 requires bf16 or fp16 inputs for the Qwen3 LoRA\n\nTraining in fp32 with PEFT.", ("prose.fails", "fa3")),
    ("SageAttention: q, k and v must be in dtype of torch.float16 or torch.bfloat16", ("prose.fails", "sage")),
    ("FA2 只支持 fp16 和 bf16", ("prose.fails", "fa2")),
    # worked until an update, in Spanish, Chinese, Japanese and Korean
    ("SageAttention funcionaba bien hasta la actualización de ComfyUI", ("prose.fails", "sage")),
    ("xformers 之前还能用，更新 torch 以后就这样了", ("prose.fails", "xformers")),
    ("FlashAttention 2 はアップデートまでは普通に動いていた", ("prose.fails", "fa2")),
    ("sageattention 업데이트 전까지는 잘 됐는데", ("prose.fails", "sage")),
    # a wheel built for one torch or CUDA, run with another, as the title (not refused for the OOM it caused)
    ("False OOM with flash-attn 2.8.3 since the update: wheel built for torch 2.7 running under torch 2.8", ("prose.fails", "fa2")),
    ("xformers wheel compiled against CUDA 12.4 loaded with CUDA 12.8", ("prose.fails", "xformers")),
])
def test_words(text, want):
    assert generic_first(text) == want


@pytest.mark.parametrize("text", [
    "xformers was working fine on my RTX 3090",  # no "until": it works
    "assert attn_output is not None",  # an assertion about no backend
    "How to compile flash attention from source",  # a how-to, no failure
    "Reducing the compile time of flex attention models",  # a wish, no failure word
    "Add a flag that forces eager attention for SDPA debugging",  # a feature request
    "xformers 0.0.29 wheels built for torch 2.5.1\n\nRelease notes for the new version.",  # a release note: one torch only
    # transformers' dtype advisory inside a log, not the title: a library's notice, printed on every fp32 load
    "Loading the model\n\n```\nFlash Attention 2.0 only supports torch.float16 and torch.bfloat16 dtypes, but the current dype "
    "in LlamaModel is torch.float32.\n```",
    # a model part's notice that it falls back (QwenLM/Qwen2.5-Omni#66's shape, another class): no dtype refusal
    "Qwen2_5OmniToken2WavModel must inference with fp32, but flash_attention_2 only supports fp16 and bf16, attention "
    "implementation of Qwen2_5OmniToken2WavModel will fallback to sdpa\n\nThe audio output is cut.",
])
def test_words_near_misses(text):
    assert generic_first(text) == (None, None)


# ---- M2: the first line under a failure title -------------------------------------------------------------------------

@pytest.mark.parametrize("text,want", [
    ("Training fails on startup\n\n```\n/opt/venv/lib/python3.11/site-packages/sageattention/core.py:12: UserWarning: "
     "SageAttention is only supported on sm80 and newer\n```", ("prose.fails", "sage")),
    ("Can't run the demo\n\n```text\n    xformers::efficient_attention_forward_cutlass not supported on this device",
     ("prose.fails", "xformers")),
    ("推理报错\n\n```\n/usr/lib/python3/site-packages/flash_attn_interface.py:44: UserWarning: FA3 kernels unsupported for "
     "this build\n```", ("prose.fails", "fa3")),
    ("Install does not work on Ubuntu 24.04\n\nconda create -n fa python=3.11\npip install flash_attn==2.7.4.post1 --no-build-isolation",
     ("prose.build", "fa2")),
    ("安装失败\n\npip install sageattention==2.2.0", ("prose.build", "sage")),
    ("Installation failed on Windows 11\n\nHere is what I did.\nPS C:\\ai> .\\python_embeded\\python.exe -m pip install "
     "xformers==0.0.29.post3", ("prose.build", "xformers")),
    # a version outside the supported range, as a timestamped program line under a markdown heading
    ("Generation fails after the upgrade\n\n## Log\n[11/02/25 09:14:03] WARNING  Supported xformers versions are >= 0.0.27, "
     "<= 0.0.28.post3. Found xformers 0.0.29.", ("prose.fails", "xformers")),
    ("Inference failed, output is NaN\n\n### output:\n[09:14:03] WARNING Supported flash-attn versions are >= 2.1.1, "
     "<= 2.7.4.post1. Found flash-attn 2.8.3.", ("prose.fails", "fa2")),
    ("CUDA errors on the A10G\n\nit seems that flash attention is picking the wrong kernel on this card when the batch is "
     "large enough", ("prose.gpu", "fa2")),
])
def test_under_a_failure_title(text, want):
    assert generic_first(text) == want


@pytest.mark.parametrize("text", [
    "Training fails at step 10\n\n```\nUsing xformers attention in VAE\n```",  # the backend named in passing, no failure
    "Model fails to load\n\n```\nflash_attn 2.7.4 installed\nKeyError: 'llama4'\n```",
    "Install fails on Windows\n\npip install deepspeed==0.15.4",  # another package's install
    "Model fails to load\n\n### output\n[11/02/25 09:14:03] INFO  Using xformers 0.0.29 for attention",  # a log line, no failure
    # prose lines LINE refuses for their words (advice, an error pasted below, an OOM): the writer's, not a program's output
    "Training errors with packed batches\nIf it does not help, setting `USE_FLEX_ATTENTION = False` should work (a triton "
    "kernel OOM).",
    "Cannot run the sampler\n\nIt gives the following error. Someone said xformers was not built with flash, so I rebuilt "
    "it, same error.",
    # an app's advice under an install-failure title (round 16 unrelated: numz/ComfyUI-SeedVR2_VideoUpscaler#569's shape)
    "i cant install these nodes (anymore)\n\n### Revision 5047\nOptimizations check: SageAttention no | Flash Attention no. "
    "Optional: pip install sageattention flash-attn",
    "Errors on the H100\n\nwith sdpa_kernel([SDPBackend.FLASH_ATTENTION]): out = attn(q, k, v) and the rest of the code follows",
])
def test_under_a_failure_title_near_misses(text):
    assert generic_first(text) == (None, None)


# ---- M3: a title that names the backend, the failure in the sentence under it -----------------------------------------

@pytest.mark.parametrize("text,want", [
    ("calling Wan 2.2 users on sage attention 2\n\nIt produces only black frames at 720p.", ("prose.numbers", "sage")),
    ("xformers on SDXL 1.0\n\nWhatever settings I use, I get noisy images at 1024px.", ("prose.numbers", "xformers")),
    ("FlashAttention 3 for my workstation\n\nIt only runs on Hopper cards, so my RTX 4090 is out.", ("prose.gpu", "fa3")),
    ("Wan 2.2 con SageAttention\n\nNo importa la configuración, siempre me salen imágenes negras.", ("prose.numbers", "sage")),
    ("sage attention + Flux\n\n不管怎么设置，出图都是全黑的", ("prose.numbers", "sage")),
    ("Is there a way to turn off xformers in the node?\n\nIf not, please note in the README that it only works on NVIDIA GPUs.",
     ("prose.gpu", "xformers")),
    ("pip install git+https://github.com/thu-ml/SageAttention.git\n\nIt keeps pulling in torch 2.7.0 over my 2.5.1.",
     ("prose.build", "sage")),
])
def test_title_names_the_backend(text, want):
    assert generic_first(text) == want


@pytest.mark.parametrize("text", [
    "Flash attention 2 with Llama 3\n\nMy model gives black images after the first epoch.",  # the model's own, said of it
    "How do I enable flash attention?\n\nIt gives black images with my LoRA.",  # a how-to question
    "[Feature] SageAttention for LoRA training\n\nIt only works for inference on Ampere cards.",  # a feature request
    "Support FA3 in the attention dispatcher\n\nIt only runs on Hopper cards, so gate it on the capability.",  # a feature PR
    "xformers 0.0.29 release notes\n\nThis release adds FA3 kernels for Hopper GPUs.",  # a release note
    "FA4 vs FA2 on short sequences: results\n\nI benchmarked both on a B200 at seqlen 128 to 8192.",  # a benchmark, no failure
])
def test_title_names_the_backend_near_misses(text):
    assert generic_first(text) == (None, None)


# ---- M4: pip's own lines ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,want", [
    ("ERROR: xformers-0.0.29.post3-cp312-cp312-win_amd64.whl is not a supported wheel on this platform.",
     ("prose.build", "xformers")),
    ("ERROR: Could not find a version that satisfies the requirement sageattention==2.2.0", ("prose.build", "sage")),
    ("ERROR: flash_attn_3-3.0.0b1-cp312-cp312-linux_aarch64.whl is not a supported wheel on this platform.",
     ("prose.build", "fa3")),
    ("Collecting xformers==0.0.28\n  Downloading xformers-0.0.28.tar.gz (7.8 MB)\n  Preparing metadata (setup.py) ... error\n"
     "  error: subprocess-exited-with-error", ("build.pip-step-failed", "xformers")),  # ex61: builds.toml's pip-step catch-all ranks first
    ("Using cached flash_attn-2.8.3.tar.gz (8.4 MB)\nERROR: Could not install packages due to an OSError: [Errno 2] "
     "No such file or directory", ("prose.build", "fa2")),
])
def test_pip_lines(text, want):
    assert generic_first(text) == want


@pytest.mark.parametrize("text", [
    # the backend collected fine, another package fails
    "Collecting flash-attn\n  Using cached flash_attn-2.7.4.tar.gz\nCollecting deepspeed\n  Downloading deepspeed-0.15.4.tar.gz\n"
    "  error: subprocess-exited-with-error",
    "ERROR: Could not build wheels for deepspeed, which is required to install pyproject.toml-based projects",
    "Collecting xformers\n  Using cached xformers-0.0.29.post3-cp312-cp312-manylinux_2_28_x86_64.whl\nSuccessfully installed xformers",
])
def test_pip_lines_near_misses(text):
    assert "prose.build" not in generic_ids(text)


# ---- M5: what LINE refuses too widely -------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,want", [
    ("SageAttention has been enabled, but it cannot be used due to the following error: the module sageattention could "
     "not be imported", ("prose.import", "sage")),
    ("xformers is selected but cannot be used because of the following error: xformers is not installed in this venv",
     ("prose.import", "xformers")),
    ("How much RAM to build?\n\nI get OOM when I build xformers from source with MAX_JOBS=8", ("prose.build", "xformers")),
    ("我编译 flash-attn 时内存不足，进程被 killed", ("prose.build", "fa2")),
])
def test_line_refusals(text, want):
    assert generic_first(text) == want


@pytest.mark.parametrize("text", [
    "I ran into the following error while installing flash-attention:",  # the error is below it: it decides
    "we hit OOM with flash attention at 32k context on 8xH100",  # a job's OOM, not a build's
])
def test_line_refusals_near_misses(text):
    assert not generic_ids(text) & {"prose.import", "prose.build"}
