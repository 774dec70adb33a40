"""Variants for round 38 (issue 23, helper ex38): the newest public reports (2026-04..11), whose texts
(fixtures/errors/round38/) main's rules missed or read as another cause.

Every case was written by hand for this round (2026-11-28) from the mechanism, NOT copied from a real thread:
another GPU, path, version, symbol, wrapper or wording. Each positive case asserts the entry (and the backend where
explain names one) of the first problem that can be a failure's cause; the near misses beside each mechanism assert
what must NOT be claimed.

Mechanisms (knowledge file: entry):
  fa4-arch-words   cute.toml cute.arch: FA4's kernel class (FlashAttentionForwardSm100, ...Sm90, ...) with the
                   AssertionError its arch check raises, or FA4's / its CuTe kernels said to "only support SM x"
  sage-dispatch    sage.toml sage.arch-kernel: a SageAttention dispatch by arch string with no branch for the GPU
                   (sm121, sm103) falling through to an unbound q_int8 / k_scale / ... (UnboundLocalError, both wordings)
  arch-gate        backends.toml backend.unsupported-gpu: a kernel library's own arch gate ("No variants in groups
                   [...] support SM103", "This kernel only supports sm100f.")
  trtllm-after     frameworks.toml vllm.backend-fallback: TensorRT-LLM's FMHA runner's "Unsupported architecture" retold
                   with the file after it; attribution.toml names fmhaRunner "other" (no FA2/FA3 kernel's), and FA3's
                   hopper/ path is matched lowercase only (prose "Hopper/datacenter-Blackwell" is not FA3's path)
  flashinfer-cfg   frameworks.toml flashinfer.kernel-config (new): FlashInfer's "Invalid configuration in <kernel>" and its
                   prefill/decode wrappers' "failed with error <cuda error>" (head-dim refusals stay vllm.head-size's)
  pep668           wheels.toml install.externally-managed (new): pip's / uv's PEP 668 refusal
  ptxas-old-arch   triton.toml triton.ptxas-arch: ptxas exiting on --gpu-name=sm_75/sm_86 is not an unknown arch; a bf16
                   PTX feature on a pre-Ampere GPU is triton.ptx-feature-arch (and the backend is the one named)
  fa2-headdim-word flash_attn.toml fa2.head-dim: a head dim above 256 said incompatible / not OK for FlashAttention
  aiter-jit        frameworks.toml aiter.jit-build-wait (new): AITER's JIT build lock ("waiting for baton release")
  wheel-tag-words  wheels.toml install.wheel-other-platform: pip / uv said not to let one install a wheel whose tag
                   (cp314, win_amd64, linux_aarch64) is named
  sdpa-math-words  smoke.toml sdpa.math-fallback (patterns added): SDPA said to fall back (silently) to the math kernel
  no-build-zh      builds.toml build.prebuilt-wheel-missing: an attention library said in Chinese to have no build on a
                   platform ("在 ... 上面没有编译"), not a build that failed there
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids, tb


# fa4-arch-words
@pytest.mark.parametrize("text", [
    "On GB300 the enum lands outside the range checked in FlashAttentionForwardSm100 and raises AssertionError when called",
    tb(("/srv/engine/attn/fa4_backend.py", 88, "run", "kernel = FlashAttentionBackwardSm90(dtype, head_dim)"),
       error="AssertionError: FlashAttentionBackwardSm90 arch check failed on sm_120"),
    "flash-attn-4 kernels only support SM 10.x here, so we skip registration on the DGX Spark",
])
def test_fa4_arch_check_said_by_a_framework(text):
    assert _top(text) == ("cute.arch", "cute")


@pytest.mark.parametrize("text", [
    "FlashAttentionForwardSm100 is 30% faster than FA3 on B200",  # the class named, no assertion
    "FA4 supports SM 10.x and 11.x since b26",  # support stated, no "only", nothing failed
])
def test_fa4_arch_words_near_misses(text):
    assert "cute.arch" not in _ids(text)


# sage-dispatch
@pytest.mark.parametrize("text", [
    tb(("/comfy/custom_nodes/my-sage-patch/attn.py", 210, "sage_forward", "del q_int8, q_scale, k_int8, k_scale"),
       error="UnboundLocalError: cannot access local variable 'q_int8' where it is not associated with a value"),
    "UnboundLocalError: local variable 'k_scale' referenced before assignment",
    "On the B300 the patch node fails: UnboundLocalError: cannot access local variable 'v_fp8' where it is not associated with a value",
])
def test_sage_dispatch_without_a_branch_for_the_arch(text):
    assert _top(text)[0] == "sage.arch-kernel"


@pytest.mark.parametrize("text", [
    "UnboundLocalError: cannot access local variable 'latents' where it is not associated with a value",  # another name
    "q_int8 and k_int8 are quantised per warp before the kernel runs",  # the names without the error
])
def test_sage_dispatch_near_misses(text):
    assert "sage.arch-kernel" not in _ids(text)


# arch-gate
@pytest.mark.parametrize("text", [
    "ValueError: No variants in groups ['fmha_fwd_bf16'] support SM121.",
    "RuntimeError: No kernel variant supports SM 103 for this op",
    "This kernel only supports sm_100a.\nThis kernel only supports sm_100a.",
])
def test_kernel_library_arch_gate(text):
    assert _top(text)[0] == "backend.unsupported-gpu"


@pytest.mark.parametrize("text", [
    "No variants were skipped; all groups support SM90 and SM100",  # every variant fits
    "this kernel only supports bf16 inputs",  # a dtype, not an arch
])
def test_arch_gate_near_misses(text):
    assert "backend.unsupported-gpu" not in _ids(text)


# trtllm-after
@pytest.mark.parametrize("text", [
    "startup dies with RuntimeError: Unsupported architecture in fmhaRunner.cuh on our RTX 5060 Ti",
    "RuntimeError: Unsupported architecture at /usr/local/include/flashinfer/trtllm/fmha/fmhaRunner.cuh:31",
])
def test_trtllm_fmha_arch_refusal_file_after(text):
    assert _top(text) == ("vllm.backend-fallback", None)


def test_hopper_in_prose_is_not_fa3s_path():
    text = ("trtllm's kernels are only built for Hopper/datacenter-Blackwell, so on sm120 it crashes with RuntimeError: "
            "Unsupported architecture in fmhaRunner.cuh")
    assert _top(text) == ("vllm.backend-fallback", None)


def test_fa3_hopper_path_still_names_fa3():
    text = ("FAILED: /workspace/flash-attention/hopper/build/temp.linux-x86_64-cpython-312/flash_fwd_hdim128_bf16_sm90.o\n"
            "nvcc fatal   : Unsupported gpu architecture 'compute_120a'")
    assert ("fa3" in {b for _, b in [_top(text)]}) or _top(text)[1] == "fa3"


# flashinfer-cfg
@pytest.mark.parametrize("text", [
    "RuntimeError: FlashInfer Internal Error: Invalid configuration in BatchDecodeWithPagedKVCacheDispatched",
    "RuntimeError: BatchPrefillWithRaggedKVCache failed with error invalid resource handle",
    "Check failed: (status == cudaSuccess) is false: SinglePrefillWithKVCache failed with error: invalid argument",
])
def test_flashinfer_kernel_without_a_valid_config(text):
    assert _top(text)[0] == "flashinfer.kernel-config"


@pytest.mark.parametrize("text", [
    "RuntimeError: BatchDecodeWithPagedKVCache failed to dispatch head_dim 80",  # a head dim: vllm.head-size
    "FlashInfer Internal Error: Invalid configuration : NUM_MMA_Q=1 NUM_MMA_D_QK=5 NUM_MMA_D_VO=5 please create an issue",
])
def test_flashinfer_head_dim_refusals_stay_vllm_head_size(text):
    found = _ids(text)
    assert "flashinfer.kernel-config" not in found and found[0] == "vllm.head-size"


@pytest.mark.parametrize("text", [
    "BatchPrefillWithPagedKVCache failed with error an illegal memory access was encountered",  # a fault in the kernel
    "  what():  BatchPrefillWithPagedKVCache Failed with error: misaligned address",
])
def test_flashinfer_kernel_faults_stay_kernel_faults(text):
    found = _ids(text)
    assert "flashinfer.kernel-config" not in found and found[0] == "cuda.kernel-fault"


def test_flashinfer_config_named_in_passing():
    assert "flashinfer.kernel-config" not in _ids("the invalid configuration check in FlashInfer was fixed in 0.6.4")


# pep668
@pytest.mark.parametrize("text", [
    "pip install sageattention\nerror: externally-managed-environment\n\n× This environment is externally managed",
    "× This environment is externally managed\n╰─> To install Python packages system-wide, try brew install xyz",
    "error: The interpreter at /usr/bin/python3 is externally managed, and indicates the following:",
])
def test_pep668_refusal(text):
    assert _top(text)[0] == "install.externally-managed"


@pytest.mark.parametrize("text", [
    "our cluster's Python is managed externally by the admins, so we use a venv",  # said in passing, no refusal
    "PEP 668 is why we install everything into .venv",
])
def test_pep668_near_misses(text):
    assert "install.externally-managed" not in _ids(text)


# ptxas-old-arch
def test_ptxas_exit_on_an_old_arch_is_a_ptx_feature():
    text = ("subprocess.CalledProcessError: Command '['/env/lib/python3.11/site-packages/triton/backends/nvidia/bin/ptxas', "
            "'-lineinfo', '-v', '--gpu-name=sm_75', '/tmp/tmpa1b2c3.ptx', '-o', '/tmp/tmpa1b2c3.ptx.o']' returned non-zero "
            "exit status 255.\nptxas /tmp/tmpa1b2c3.ptx, line 120; error   : Feature '.bf16' requires .target sm_80 or higher")
    found = _ids(text)
    assert found[0] == "triton.ptx-feature-arch" and "triton.ptxas-arch" not in found


def test_ptxas_exit_on_a_blackwell_arch_stays_unknown_arch():
    text = ("subprocess.CalledProcessError: Command '['/venv/bin/ptxas', '-lineinfo', '-v', '--gpu-name=sm_103a', "
            "'/tmp/tmpz.ptx', '-o', '/tmp/tmpz.ptx.o']' returned non-zero exit status 255.")
    assert _top(text)[0] == "triton.ptxas-arch"


# fa2-headdim-word
@pytest.mark.parametrize("text", [
    "flash-attention is incompatible with head_dim=512 in the global layers",
    "head dim 320 is unsupported by flash_attn, the model falls back to sdpa",
])
def test_fa2_head_dim_above_256_in_words(text):
    assert _top(text) == ("fa2.head-dim", "fa2")


@pytest.mark.parametrize("text", [
    "flash-attention is incompatible with head_dim=128 on Turing",  # a dim FA2 supports: the GPU's problem
    "head_dim=512 layers run fine with flash_attn 2.8 after padding",  # nothing unsupported
])
def test_fa2_head_dim_word_near_misses(text):
    assert "fa2.head-dim" not in _ids(text)


# aiter-jit
@pytest.mark.parametrize("text", [
    "[aiter] [pid=4121] waiting for baton release at /opt/aiter/jit/build/lock_module_mha_varlen_fwd",
    "(Worker_TP3 pid=88) [aiter] waiting for baton release at /root/.aiter/build/lock_mha_fwd_bf16",
])
def test_aiter_jit_build_lock(text):
    assert _top(text)[0] == "aiter.jit-build-wait"


def test_aiter_build_finished_is_not_it():
    assert "aiter.jit-build-wait" not in _ids("[aiter] finish build [module_mha_fwd], cost 212.4s")


# no-build-zh
@pytest.mark.parametrize("text", [
    "sageattention在B200上面没有编译好的包，pip install 一直在编译",
    "xformers 在 Jetson Thor 上没有预编译的 whl，只能自己从源码编译",
])
def test_no_build_for_a_platform_in_chinese(text):
    assert _top(text)[0] == "build.prebuilt-wheel-missing"


@pytest.mark.parametrize("text", [
    "flash-attn在5090上没有编译成功，报错 nvcc fatal",  # a build that failed there
    "我在 Spark 上面没有编译 flash-attn, 直接用 sdpa",  # chose not to build it
])
def test_no_build_zh_near_misses(text):
    assert "build.prebuilt-wheel-missing" not in _ids(text)


# wheel-tag-words
@pytest.mark.parametrize("text", [
    "pip refuses to let me install the cp311 wheel from the release page (my venv is 3.12)",
    "uv will not allow us to install a win_amd64 wheel inside WSL",
])
def test_wheel_tag_refusal_in_words(text):
    assert _top(text)[0] == "install.wheel-other-platform"


@pytest.mark.parametrize("text", [
    "pip won't let me install the wheel without --no-deps",  # no tag named: a dependency conflict
    "the cp314 wheel installs fine, pip allows it on 3.14",  # nothing refused
])
def test_wheel_tag_refusal_near_misses(text):
    assert "install.wheel-other-platform" not in _ids(text)


# sdpa-math-words
@pytest.mark.parametrize("text", [
    "torch SDPA falls back to its math implementation for head_dim 320 in bf16, memory explodes",
    "With enable_gqa=True SDPA silently fell back to the MATH kernel on our H200",
])
def test_sdpa_math_fallback_in_words(text):
    assert _top(text) == ("sdpa.math-fallback", "sdpa")


@pytest.mark.parametrize("text", [
    "SDPA does not fall back to the math kernel here; flash is used",  # denied
    "F.scaled_dot_product_attention picked the flash kernel, math path unused",  # no fallback
])
def test_sdpa_math_fallback_near_misses(text):
    assert "sdpa.math-fallback" not in _ids(text)
