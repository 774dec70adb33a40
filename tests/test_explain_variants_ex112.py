"""Variants for helper ex112 (session 19): the misses of round 109m (fixtures/errors/round109m, gathered blind by ex109m in
session 18, measured three times by the lead, training material since this helper read it).

Every case was written by hand (2026-11-29): other GPUs, versions, paths, symbols, backends and wordings than the fixtures. The
positives name what explain must report first (entry, backend; None: any backend); the near misses what it must not claim; no
pattern written or widened here matches an unrelated log of any training round (the measure-only sets are never read).

Mechanisms (knowledge file: rule; the round 109m text it came from):
  notice    attribution.toml [absent_notice], frameworks.toml app.attention-libraries-absent: A1111's start-up notice as a report's
            title after a "[Bug]:" prefix or in parentheses (stable-diffusion-webui#10383, #15860)
  determ    attention.toml attn.nondeterministic-backward: a deterministic argument/option/mode/backward asked for, or to run
            deterministically, the backend on the line (flash-attention#349, #321)
  sdpamem   smoke.toml sdpa.math-fallback: SDPA said to use more memory, or the math kernel the only one left (webui#8367,
            transformers#48634)
  wheel     builds.toml build.prebuilt-wheel-missing: no prebuilt wheel for a platform (aarch64, Windows) (ACE-Step-1.5#575)
  softcap   flash_attn.toml fa2.too-old-for-feature: a flash-attn pin raised for softcap / sliding window (axolotl#1781)
  grads     attention.toml attn.api-mismatch: an attention autograd Function's backward returns too few gradients
            (long-context-attention#149)
  causal    attention.toml attn.causal-alignment: the causal mask called ambiguous, is_causal said to fail when decoding
            (pytorch#103082, #144858)
  isolate   builds.toml build.isolation in words; platform.toml torch.missing follows it (explained_by) (LongCat-Video#135)
  cute      attribution.toml [[library]] cute: a CuTe DSL call (cute.<op>) names FA4 (flash-attention#2333)
  frontend  attribution.toml [[not_a_report.shadow]]: a compiler frontend (TVM Relay/Relax) lacking torch's SDPA op
            (unrelated/apache__tvm__15361.txt)
  howto     flash_attn.toml fa2.missing: a report titled only "How to install flash-attn?" (voicebox#322)
  gbreak    compile.toml compile.backend-untraceable: the library's call said to cause graph breaks (xformers#765)
  gencode   builds.toml build.setup-arch-unknown: a -gencode said to be added to setup.py (flash-attention#1463)
  nvcc      env.toml nvcc.major-mismatch: torch's CUDA and nvcc set against each other in words (uv#10530)
  glibc     backends.toml import.glibc: glibc said too old for the backend in words (lerobot#2306)
  symbol    backends.toml import.undefined-symbol: an unknown / unresolved symbol at the backend's import (instructlab/training#154)
  cudart    backends.toml import.cuda-lib-missing: a wheel built on one CUDA, its runtime to be installed (nanochat#737)
  oldgpu    backends.toml backend.unsupported-gpu: the writer's own pre-Ampere GPU said not to support FA2 (xDiT#555)
  gqapow2   flex.toml flex.gqa-heads: Inductor's power-of-2 query-heads-per-KV-head check (pytorch#143117)
  regress   attention.toml attn.release-regression: a backend's performance regression put down to an update or commit
            (intel-xpu-backend-for-triton#4952, #5778)
  sagehd    attribution.toml [[specialize]]: a head dim refused in backend-neutral words, SageAttention's, is sage.head-dim
            (woct0rdho/SageAttention#93)
  elements  attention.toml attn.wrong-output: a few elements of a gradient or output said wrong, the backend named (flash-attention#385)
  cutefeat  cute.toml cute.feature-arch: a pull request adding an FA4 feature for an SM generation (flash-attention#2333)
  flag      frameworks.toml app.xformers-flag-missing (new): A1111 / Forge load xformers only with --xformers (xformers#777, webui#10383)
"""

from __future__ import annotations

import pytest

from explain_top import assert_patterns_match_no_unrelated_log, first, ids


@pytest.mark.parametrize("text, want", [
    # notice
    ("[BUG] No module 'xformers'. Proceeding without it.\n\nI start the web UI with webui-user.sh on Ubuntu 22.04",
     ("xformers.not-installed", "xformers")),
    ("Startup problems after update (No module 'xformers'. Processing without...)\n\nThe log is below.",
     ("xformers.not-installed", "xformers")),
    # determ
    ("Is there a deterministic mode for flash_attn_func in 2.3? Our eval must be bit-exact", ("attn.nondeterministic-backward", None)),
    ("FA3 on H100: how do I run deterministically? dq changes every step", ("attn.nondeterministic-backward", None)),
    ("Does xformers have a deterministic backward option for memory_efficient_attention?", ("attn.nondeterministic-backward", None)),
    # sdpamem
    ("On the RX 7900 XTX, scaled_dot_product_attention uses more VRAM than the split attention did", ("sdpa.math-fallback", "sdpa")),
    ("With enable_gqa on a V100 the only available kernel is math, so decoding is slow", ("sdpa.math-fallback", "sdpa")),
    # wheel
    ("flash_attn 2.8.3 has no official aarch64 builds, so the GH200 install compiles for an hour", ("build.prebuilt-wheel-missing", "fa2")),
    ("No arm64 wheels exist for sageattention, so pip compiles it on the Jetson", ("build.prebuilt-wheel-missing", "sage")),
    # softcap
    ("Raise flash-attn requirement to 2.6.3 (softcap support for Gemma 2)", ("fa2.too-old-for-feature", "fa2")),
    ("the backward pass for softcap is missing in flash-attn 2.5.8", ("fa2.too-old-for-feature", "fa2")),
    # grads
    ("RuntimeError: function FlashAttnFuncBackward returned an incorrect number of gradients (expected 10, got 9)",
     ("attn.api-mismatch", None)),
    ("RuntimeError: function _RingAttentionBackward returned an incorrect number of gradients (expected 8, got 7)",
     ("attn.api-mismatch", None)),
    # causal
    ("is_causal in F.scaled_dot_product_attention is ambiguous when q_len != kv_len", ("attn.causal-alignment", "sdpa")),
    ("SDPA is_causal=True is wrong for incremental decoding with a cache", ("attn.causal-alignment", "sdpa")),
    # isolate
    ("pip install flash-attn fails with No module named 'torch'\n\nflash-attn's setup.py imports torch at build time, and pip "
     "builds it in an isolated environment where torch is missing.", ("build.isolation", "fa2")),
    ("sageattention's setup.py needs torch during metadata generation; uv's isolated build env has no torch",
     ("build.isolation", "sage")),
    # howto
    ("[Help] how can I install flash attention 2?\n\nI am on Ubuntu with an RTX 4090", ("fa2.missing", "fa2")),
    # gbreak
    ("flash_attn_varlen_func triggers a graph break in torch.compile", ("compile.backend-untraceable", "fa2")),
    ("sageattn causes graph breaks with torch.compile on Wan 2.2", ("compile.backend-untraceable", "sage")),
    # gencode
    ("You'll need to add the gencode for sm_121 in setup.py (cc_flag) before pip install flash-attn on the DGX Spark",
     ("build.setup-arch-unknown", "fa2")),
    # nvcc
    ("building flash-attn failed; torch CUDA is 12.8 but nvcc is 12.1 on that box", ("nvcc.major-mismatch", "fa2")),
    ("nvcc was 11.8 while torch was built for 12.4, so the xformers build broke", ("nvcc.major-mismatch", "xformers")),
    # glibc
    ("CentOS 7 has glibc 2.17 which is too old for flash_attn wheels", ("import.glibc", "fa2")),
    ("xformers 0.0.30 needs a newer glibc than Amazon Linux 2 ships", ("import.glibc", "xformers")),
    # symbol
    ("sageattention 2.1.1: unknown symbol when importing under torch 2.7", ("import.undefined-symbol", "sage")),
    # cudart
    ("The flash_attn_3 wheels are built against CUDA 12.8; install the CUDA 12.8 runtime libraries too on a CUDA 13 image",
     ("import.cuda-lib-missing", "fa3")),
    # oldgpu
    ("I only have a Tesla T4, which does not support FlashAttention 2, so can I use sdpa instead?", ("backend.unsupported-gpu", "fa2")),
    # gqapow2
    ("torch._inductor.exc.InductorError: LoweringException: ValueError: Number of shared query heads sharing the same KV head "
     "must be power of 2.\n  target: flex_attention", ("flex.gqa-heads", "flex")),
    # regress
    ("FlashAttention 3 performance regression on H100 with 2.8.1\n\nWe bisected it to commit 4f3a2b1 of the hopper kernels.",
     ("attn.release-regression", "fa3")),
    # sagehd
    ("sageattn: unsupported head_dim 192 for this HunyuanVideo variant", ("sage.head-dim", "sage")),
    # elements
    ("errors in a few elements of dv from xformers' memory_efficient_attention backward", ("attn.wrong-output", "xformers")),
    # cutefeat
    ("Add SM100 block-sparsity support for the backward\n\nflash_attn/cute/flash_bwd_sm100.py gains the sparse tile scheduler",
     ("cute.feature-arch", "cute")),
    # flag
    ("Forge never used xformers because I started it without --xformers", ("app.xformers-flag-missing", "xformers")),
    ("You need to pass the --xformers flag in webui-user.sh, or the UI keeps its own attention", ("app.xformers-flag-missing", "xformers")),
])
def test_round109m_variants(text, want):
    got = first(text)
    assert got[0] == want[0] and (want[1] is None or got[1] == want[1]), (text, ids(text), got)


def test_round109m_cute_dsl_call_names_fa4():
    text = ("Fix the SM100 forward: flash_fwd_sm100.py now calls cute.make_fragment before the pipeline loop\n"
            "Before it the kernel crashed with cudaErrorIllegalAddress on B200.")
    assert first(text)[1] == "cute", ids(text)


@pytest.mark.parametrize("text, must_not", [
    # notice: printed in a log (not a title), it stays the app's notice
    ("Version: v1.9.3\nNo module 'xformers'. Proceeding without it.\nLoading weights [6ce0161689] from model.safetensors",
     "xformers.not-installed"),
    # determ: cuDNN's own flag, no deterministic attention asked for
    ("torch.backends.cudnn.deterministic = True was set; flash attention is fast", "attn.nondeterministic-backward"),
    # sdpamem: less memory, and a warning that a copy will cost memory
    ("SDPA uses less memory than eager attention here", "sdpa.math-fallback"),
    ("UserWarning: cuDNN SDPA backward got an innermost stride of 0 in grad_out, which is unsupported. Materializing a contiguous "
     "tensor which will increase memory usage...", "sdpa.math-fallback"),
    # wheel: another package's wheels
    ("There are no prebuilt aarch64 wheels for numpy 1.19 on this platform", "build.prebuilt-wheel-missing"),
    # softcap: a pin raised for another torch, no feature
    ("bump flash-attn to 2.7.4 for the torch 2.6 wheels", "fa2.too-old-for-feature"),
    # grads: another autograd Function
    ("RuntimeError: function MyLinearFunctionBackward returned an incorrect number of gradients (expected 3, got 2)", "attn.api-mismatch"),
    # causal: nothing ambiguous, no decoding
    ("The causal mask is unambiguous here: q_len == kv_len during training", "attn.causal-alignment"),
    # isolate: setup.py's import at the top, no build
    ("setup.py imports torch at the top of the file", "build.isolation"),
    # howto: a build on a platform is a build's question
    ("How to install flash-attn on Windows with CUDA 12.8?\n\nThe build fails after an hour", "fa2.missing"),
    # gbreak: SDPA is traceable, no break
    ("SDPA causes no graph break under torch.compile", "compile.backend-untraceable"),
    # nvcc: the same version
    ("torch CUDA is 12.8 and nvcc is 12.8 too", "nvcc.major-mismatch"),
    # glibc: new enough
    ("glibc 2.35 on Ubuntu 22.04 works with the flash_attn wheels", "import.glibc"),
    # oldgpu: an Ampere GPU
    ("I only have an A10, which supports FlashAttention 2", "backend.unsupported-gpu"),
    # regress: a regression compared across GPUs, no update
    ("FA3 forward performance regression on H200\n\nH200 is 4% slower than H100 in the forward pass.", "attn.release-regression"),
    # elements: another library's array
    ("errors in a few elements of the output array after numpy's float16 cast", "attn.wrong-output"),
    # cutefeat: FA3's own kernels, nothing of FA4
    ("Add SM90 varlen support\n\nhopper/flash_fwd_launch_template.h picks the varlen scheduler", "cute.feature-arch"),
    # flag: the flag given, a later failure
    ("set COMMANDLINE_ARGS=--xformers --medvram\nRuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB", "app.xformers-flag-missing"),
])
def test_round109m_near_misses(text, must_not):
    assert must_not not in ids(text), ids(text)


def test_round109m_frontend_lacking_sdpa_is_not_a_report():
    text = ("[Frontend][PyTorch] Relax pytorch frontend does not support aten::scaled_dot_product_attention yet\n\n"
            "Is there a plan to add the op? Our CLIP export stops there.")
    assert ids(text) == []


# Each pattern written or widened here, found by a piece of its text, matches no unrelated log of any training round on its own
# (before ranking and attribution decide anything).
PIECES = {
    "attn.nondeterministic-backward": "deterministically",
    "sdpa.math-fallback": ("(?:increases?|increased", "(?:only|remaining)", "leav(?:es|ing)"),
    "build.prebuilt-wheel-missing": "linux[-_ ]aarch64",
    "fa2.too-old-for-feature": ("bump\\w*", "soft[-_ ]?cap\\w*\\b[^"),
    "attn.api-mismatch": ("returned[ \\t]+an[ \\t]+incorrect", "expected|supposed"),
    "attn.causal-alignment": ("ambigu", "(?:fails?|failing|wrong"),
    "build.isolation": ("setup\\.py[`'\"]?[ \\t]+(?:imports?", "isolated[ \\t]+(?:build"),
    "fa2.missing": "installing)",
    "compile.backend-untraceable": "fmha\\.",
    "build.setup-arch-unknown": "codegen",
    "nvcc.major-mismatch": "nvcc[ \\t]+(?:was|is)",
    "import.glibc": ("glibc[ \\t]*v?", "newer|more"),
    "import.undefined-symbol": "unresolved",
    "import.cuda-lib-missing": "cuda-cudart",
    "backend.unsupported-gpu": "only[ \\t]+have",
    "flex.gqa-heads": "power of",
    "attn.release-regression": ("caused[ \\t]+by", "regressions?\\b(?!"),
    "sdpa.mask-not-flash": "prevents?",
    "attn.wrong-output": "elements?[ \\t]+of",
    "cute.feature-arch": "Add(?:s|ed|ing)?",
    "app.xformers-flag-missing": "xformers",
}


def test_round109m_patterns_match_no_unrelated_log():
    assert_patterns_match_no_unrelated_log(PIECES)
