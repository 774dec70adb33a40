"""Variants for helper ex110 (session 18): round110, FA4/CuTe and SageAttention reports of 2025-26, read with a held-back half.

Rules written from half A (cute.toml: cute.jit-recompile, FA4's kernels compiled again per process or shape; cute.kernel-arg-type,
FA4's interface handing the kernel a Python value of the wrong DSL type; cute.feature-arch, learnable-sink backward missing;
cute.dsl-drift, quack-kernels' exact DSL pin and a DSL module said not to exist; cute.dsl-libs-mismatch, pip's resolver naming
the -libs-* wheels at another release. sage.toml: sage.sparse-block-size, radial/block-sparse Sage over a sequence that is not
whole blocks; sage.scale-shape, any tensor of the sparse kernels' CHECK_SHAPE. sdpa.toml: sdpa.compile-cache-backend, Inductor's
cache ignoring the SDPA backend selection. attention.toml attn.wrong-output: a large precision error, a max difference against
SDPA, uninitialised output. wheels.toml install.no-distribution: no wheels for a Python said with the verb first. refusals.py:
an optional-import probe's pair of lines is no report's title), then from half B (the interface's UnboundLocalError; cute.compile's
no_cache=True said of attention kernels; radial attention beside torch's size mismatch; SpargeAttn's compiled modules missing; a
backend configured for FA4 silently running FA3). Every case below was written by hand (2026-11-29): other programs, paths,
versions and wordings than the fixtures (fixtures/errors/round110/README.md).
"""

from __future__ import annotations

import pytest

from explain_top import first, ids


@pytest.mark.parametrize("text, want", [
    # cute.jit-recompile: FA4 / the CuTe DSL and its kernels compiled again, per process, rank, restart or shape
    ("torchrun on 8 GPUs with flash-attn-4: each rank recompiles the same kernels from scratch, the first step takes 3 min",
     ("cute.jit-recompile", "cute")),
    ("We moved to flash_attn.cute for the DiT; with variable resolutions it JIT-recompiles on every new shape and throughput tanks",
     ("cute.jit-recompile", "cute")),
    ("The CuTe DSL kernel is recompiled per process: 12 workers, 12 times the same JIT compile at boot",
     ("cute.jit-recompile", "cute")),
    # half B: cute.compile forcing no_cache=True, for attention kernels
    ("Our prefill attention is written in CuTe DSL. cute.compile sets no_cache=True internally, so nothing is reused across restarts",
     ("cute.jit-recompile", "cute")),
    # cute.kernel-arg-type: a DSL type refused, in other arguments and releases
    ("  File \"/srv/env/lib/python3.11/site-packages/flash_attn/cute/interface.py\", line 988, in _flash_attn_fwd\n"
     "cutlass.base_dsl.common.DSLRuntimeError: DSLRuntimeError: argument #7 (softmax_scale): expects (Float32, NoneType) but got int",
     ("cute.kernel-arg-type", "cute")),
    ("RTX PRO 6000, flash-attn-4 4.0.0b15: DSLRuntimeError: None to Float32 conversion is not supported",
     ("cute.kernel-arg-type", "cute")),
    # half B: an UnboundLocalError of the interface, said or raised
    ("On an RTX 5080 `_flash_attn_fwd` raises UnboundLocalError for tile_n when window_size is set",
     ("cute.kernel-arg-type", "cute")),
    # cute.feature-arch: learnable sinks without a backward in FA4
    ("gpt-oss fine-tune with FA4: no bwd with attention sinks yet, so we fall back to eager for training",
     ("cute.feature-arch", "cute")),
    # cute.dsl-drift: the pin and a module that is not there
    ("pip cannot install flash-attn-4 here: quack-kernels 0.6.2 pins nvidia-cutlass-dsl==4.6.0 and vLLM needs 4.7 (conflicting deps)",
     ("cute.dsl-drift", "cute")),
    ("flash_attn/cute/flash_fwd_sm100.py imports it but 'cutlass.pipeline.sm100' does not exist in nvidia-cutlass-dsl 4.4.2",
     ("cute.dsl-drift", "cute")),
    # cute.dsl-libs-mismatch: pip's resolver on the DSL's parts
    ("nvidia-cutlass-dsl-libs-cu13 4.5.2 requires nvidia-cutlass-dsl-libs-base==4.5.2, but you have "
     "nvidia-cutlass-dsl-libs-base 4.4.1 which is incompatible.", ("cute.dsl-libs-mismatch", "cute")),
    # sage.sparse-block-size: radial / block-sparse Sage over partial blocks
    ("ComfyUI-RadialAttn with HunyuanVideo at 720x1280 fails; the docs say the token count must be divisible by 128 "
     "for the sparse kernel", ("sage.sparse-block-size", "sage")),
    ("radial attention crashes unless the resolution is a multiple of 64", ("sage.sparse-block-size", "sage")),
    # half B: radial attention beside torch's size mismatch
    ("RuntimeError: The size of tensor a (30) must match the size of tensor b (32) at non-singleton dimension 2\n"
     "(only with WanVideo radial attention enabled)", ("sage.sparse-block-size", "sage")),
    # sage.scale-shape: the sparse kernels' CHECK_SHAPE of another tensor
    ("RuntimeError: Tensor lut must have shape (batch_size, num_qo_heads, div_ceil(qo_len, CTA_Q), div_ceil(kv_len, CTA_K))",
     ("sage.scale-shape", "sage")),
    # half B: sage.extension-missing by the modules' names
    ("spas_sage_attn installed fine but it lacks the compiled modules _qattn and _fused at import",
     ("sage.extension-missing", "sage")),
    # sdpa.compile-cache-backend
    ("Two jobs share TORCHINDUCTOR_CACHE_DIR: the FX graph cache key ignores the sdpa_kernel backend selection, so the "
     "efficient-attention job ran flash", ("sdpa.compile-cache-backend", "sdpa")),
    # attn.wrong-output: a large precision error / a max difference against SDPA / uninitialised output
    ("Huge accuracy gap with sageattn_qk_int8_pv_fp8_cuda on H20 for long sequences", ("attn.wrong-output", "sage")),
    ("xformers memory_efficient_attention vs torch SDPA on ROCm: max diff is about 0.75 in fp16", ("attn.wrong-output", "xformers")),
])
def test_round110_variants(text, want):
    got = first(text)
    if want[1] is None:
        assert got[0] == want[0], ids(text)
    else:
        assert got == want, ids(text)


@pytest.mark.parametrize("text", [
    # an optional import probed by a program and reported absent, while the run goes on with SDPA (any backend name)
    "INFO: Trying to import sageattention\nFailed to import sageattention\nINFO: Using SDPA for attention",
    "Trying to import xformers...\nFailed to import xformers\nloading model",
    # a max difference that is small, a recompile of something else, a pin stated without a failure
    "sageattn vs SDPA: max diff is 0.003, within bf16 noise",
    "Inductor recompiles the graph when the batch size changes (dynamic=False); nothing to do with attention kernels",
    # attn-doctor's own check output: the volatile-cache notice beside FA4's cache line is no report of recompiles
    "  cute-dsl: /tmp/root/cutlass_python_cache (default, ext4)\n  fa4: off (FLASH_ATTENTION_CUTE_DSL_CACHE_DIR would be\n"
    "  /tmp/root/flash_attention_cute_dsl_cache)\n          container, and every job compiles them again.",
    "quack-kernels 0.6.4 pins nvidia-cutlass-dsl==4.6.2 exactly (see its metadata)",
    # a radial-attention note with no failure, and a size mismatch of a VAE
    "Radial attention speeds up Wan 2.2 by 1.7x at 1280x768",
    "RuntimeError: The size of tensor a (64) must match the size of tensor b (32) at non-singleton dimension 1 in the VAE decoder",
])
def test_round110_unrelated_stay_unclaimed(text):
    assert ids(text) == [], ids(text)
