"""Variants for helper ex102 (session 16): round102, 2025-26 FA4 / CuTe DSL, SageAttention / SpargeAttn and Blackwell
reports, read with a held-back half.

Rules written from half A (cute.toml cute.dsl-libs-mismatch and cute.dsl-drift's CuTe DSL examples, flash_attn.toml
flash.kernel-instantiation-missing with attribution.toml's _vllm_fa3_C, frameworks.toml app.attn-metadata-mismatch,
builds.toml build.cuda-header-assert) and then from half B (flash_attn.toml fa3.not-available-fallback, builds.toml
build.nvcc-split-input and build.host-header-twice, triton.toml triton.ptxas-old's closing line, builds.toml
build.compile-failed's JIT wording); see fixtures/errors/round102/README.md. Every case below was written by hand
(2026-11-29): other paths, versions, symbols, apps and wordings than the fixtures. The unrelated cases (other libraries'
CuTe DSL and ptxas failures, a torch ABI symbol, FA2's own fallback) must keep their readings.
"""

from __future__ import annotations

import pytest

from explain_top import first, ids, tb


@pytest.mark.parametrize("text, want", [
    # cute.dsl-libs-mismatch: the DSL's Python side and its _mlir libraries from different releases, any MLIR symbol, any path
    ("ImportError: /home/u/.venv/lib/python3.11/site-packages/nvidia_cutlass_dsl/python_packages/cutlass/_mlir/_mlir_libs/"
     "_cutlass_ir.cpython-311-x86_64-linux-gnu.so: undefined symbol: mlirBlockGetArgument", ("cute.dsl-libs-mismatch", "cute")),
    (tb(("/opt/app/train.py", 3, "<module>", "from flash_attn.cute import flash_attn_func"),
        ("/opt/venv/lib/python3.12/site-packages/cutlass/_mlir/_mlir_libs/__init__.py", 57, "_site_initialize",
         "from ._cutlass_ir._mlir import ir"),
        error="ImportError: /opt/venv/lib/python3.12/site-packages/cutlass/_mlir/_mlir_libs/_mlirDialectsNvgpu.so: "
              "undefined symbol: mlirAttributeIsANVGPUTensorMapDescriptorType"), ("cute.dsl-libs-mismatch", "cute")),
    # flash.kernel-instantiation-missing: FA3's and FA2's own kernels, other head dims and dtypes, the link-time form
    ("ImportError: /usr/local/lib/python3.12/dist-packages/flash_attn_3/_C.abi3.so: undefined symbol: "
     "_Z12run_mha_fwd_ILi192EN7cutlass6half_tELi128ELi128ELb0ELb1ELb0ELb0EEvR16Flash_fwd_paramsP11CUstream_st",
     ("flash.kernel-instantiation-missing", "fa3")),
    ("ImportError: /srv/vllm/vllm/vllm_flash_attn/_vllm_fa2_C.abi3.so: undefined symbol: "
     "_Z12run_mha_bwd_ILi64EN7cutlass10bfloat16_tELb1EEvR16Flash_bwd_paramsP11CUstream_st",
     ("flash.kernel-instantiation-missing", "fa2")),
    # app.attn-metadata-mismatch: another app's metadata classes and fields
    (tb(("/work/sglang/python/sglang/srt/layers/attention/triton_backend.py", 480, "forward_extend",
         "kv_indptr = forward_batch.attn_metadata.kv_indptr"),
        error="AttributeError: 'FlashAttentionMetadata' object has no attribute 'kv_indptr'"), ("app.attn-metadata-mismatch", None)),
    ("AttributeError: 'VideoSparseAttnMetadata' object has no attribute 'variable_block_sizes'", ("app.attn-metadata-mismatch", None)),
    # build.cuda-header-assert: another low-precision header, another toolkit, g++'s wording
    ("/opt/cuda-13.1/include/cuda_fp4.hpp(97): error: identifier \"__assert_fail\" is undefined\n"
     "1 error detected in the compilation of \"csrc/fused/fused.cu\".", ("build.cuda-header-assert", None)),
    ("cuda_fp6.hpp:140:5: error: '__assert_fail' was not declared in this scope", ("build.cuda-header-assert", None)),
    # half B: fa3.not-available-fallback, other apps' wordings; FA2's own message stays FA2's
    ("[trainer] FlashAttention-3 not available on this device, falling back to SDPA", ("fa3.not-available-fallback", "fa3")),
    ("flash_attn_v3 unavailable (A10G), using flash_attn 2 instead", ("fa3.not-available-fallback", "fa3")),
    ("WARNING: FlashAttention-2 not available, falling back to eager attention", ("fa2.not-available-fallback", "fa2")),
    # half B: build.nvcc-split-input with other paths and the toolkit's full prefix
    ("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.8\\bin\\nvcc.exe -c C:\\My Projects\\ext\\k.cu -o k.obj\n"
     "nvcc fatal   : A single input file is required for a non-link phase when an outputfile is specified",
     ("build.nvcc-split-input", None)),
    # half B: build.host-header-twice, the other definition c++config.h reports first
    ("/usr/include/aarch64-linux-gnu/c++/14/bits/c++config.h:575:3: error: redefinition of "
     "'constexpr bool std::__is_constant_evaluated()'", ("build.host-header-twice", None)),
    # triton.ptxas-old still reads its own evidence
    ("ptxas /tmp/tmpa1b2c3.ptx, line 5; fatal   : Unsupported .version 9.0; current version is '8.7'\n"
     "ptxas fatal   : Ptx assembly aborted due to errors", ("triton.ptxas-old", None)),
])
def test_round102_variants(text, want):
    got = first(text)
    if want[1] is None:
        assert got[0] == want[0], ids(text)
    else:
        assert got == want, ids(text)


def test_dsl_program_other_than_fa4_has_no_backend():
    # a CuTe DSL GEMM from a CUTLASS checkout: the libs mismatch is read, and it is no backend's (attribution's [dsl_kernel])
    text = ("python examples/python/CuTeDSL/hopper/dense_gemm.py\n"
            "ImportError: /src/cutlass/python/CuTeDSL/cutlass/_mlir/_mlir_libs/_mlirDialectsCuda.cpython-312-x86_64-linux-gnu.so: "
            "undefined symbol: mlirCudaStreamTypeGet")
    assert first(text) == ("cute.dsl-libs-mismatch", None), ids(text)


def test_cute_dsl_example_is_no_fa4_drift():
    # a CuTe DSL example from a CUTLASS checkout newer than the installed DSL, its traceback after the error line: not FA4's
    # drift (triage's last resort may still say which library the error names)
    text = ("AttributeError: module 'cutlass.cute.nvgpu.tcgen05' has no attribute 'MmaMXF8Op'\nTraceback (most recent call last):\n"
            "  File \"/home/dev/cutlass/examples/python/CuTeDSL/blackwell/dense_blockscaled_gemm.py\", line 41, in <module>\n"
            "    import cutlass.cute.nvgpu.tcgen05 as tcgen05")
    assert "cute.dsl-drift" not in ids(text), ids(text)
    assert ids("[BUG] " + text) == [], ids("[BUG] " + text)


@pytest.mark.parametrize("text", [
    # a DSL's PTX that ptxas parses wrongly, closing with ptxas' own abort line (no version complaint)
    "ptxas application ptx input, line 212; fatal   : Parsing error near '.nvvm': syntax error\n"
    "ptxas fatal   : Ptx assembly aborted due to errors",
    "ptxas application ptx input, line 88; error   : Modifier '.volatile' cannot be applied to '.local' space\n"
    "ptxas fatal   : Ptx assembly aborted due to errors",
    # a title about a JIT compiler's generated PTX, not a package's source build
    "[BUG] MyDSL 2.1 cannot compile the allreduce kernels: ptxas rejects the generated PTX",
])
def test_round102_unrelated_stay_unclaimed(text):
    assert ids(text) == [], ids(text)


def test_torch_abi_symbol_stays_a_torch_mismatch():
    # a torch (c10) symbol missing from FA2's extension is a wheel for another torch, not a missing kernel instantiation
    text = ("ImportError: /venv/lib/python3.12/site-packages/flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so: "
            "undefined symbol: _ZN3c104cuda29c10_cuda_check_implementationEiPKcS2_ib")
    assert first(text)[0] != "flash.kernel-instantiation-missing", ids(text)
