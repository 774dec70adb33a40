"""`explain` on the mechanisms of knowledge/field4.toml and the patterns and attribution rules widened
with them (issue 23: the fifth set of real texts, fixtures/errors/ captured 2026-11-25 by the
explain2 helper). Every case is a variant written here: other paths, versions, GPUs, symbol, library
and language names than the real texts and the entries' examples, so a rule fitted to one sample
fails. The near misses must stay silent or keep their own entry.
"""

from __future__ import annotations

import pytest

from attn_doctor.explain import match
from attn_doctor.knowledge import attribution


def top(text):
    found = match(text)
    return (found[0].entry.id, found[0].backend) if found else (None, None)


def ids(text):
    return [m.entry.id for m in match(text)]


# ---- attribution: names several backends share, hub repos, kernel-builder paths ----------------------

@pytest.mark.parametrize("text,backend", [
    # a name FA2, FA3 and FA4 all define yields to the line above that says which one ran
    ("[11-02 08:14:10] Using the FlashAttention v3 kernel from sgl-kernel\n"
     "[11-02 08:14:11] Error in DenoisingStage: flash_attn_func() got an unexpected keyword argument 'return_attn_probs'",
     "fa3"),
    ("  File \"/opt/fa3/hopper/flash_attn_interface.py\", line 610, in flash_attn_varlen_func\n"
     "    return FlashAttnVarlenFunc.apply(\n"
     "TypeError: _flash_attn_forward() missing 1 required positional argument: 'qv'", "fa3"),
    ("  File \"/venv/lib/python3.12/site-packages/flash_attn/cute/interface.py\", line 1520, in flash_attn_varlen_func\n"
     "TypeError: flash_attn_varlen_func() got an unexpected keyword argument 'max_seqlen_q'", "cute"),
    # alone, the shared name still says FlashAttention 2 (its most common home)
    ("TypeError: flash_attn_varlen_func() got an unexpected keyword argument 'seqused_q'", "fa2"),
])
def test_a_shared_name_yields_to_a_precise_one(text, backend):
    assert top(text)[1] == backend


@pytest.mark.parametrize("text,backend", [
    # kernel-builder compiles every hub kernel under /build/source/<kernel>/: the hub repo says which
    ("model.set_attn_implementation(\"kernels-community/vllm-flash-attn3\")\n"
     "CUDA error (/build/source/flash-attn/hopper/flash_fwd_launch_template.h:201): no kernel image is available for execution on the device",
     "fa3"),
    ("get_kernel('kernels-community/flash-attn3') on an RTX PRO 6000 (sm_120)\n"
     "the first call hits flash-attn's CHECK_CUDA macro and the process exits\n"
     "CUDA error (/build/source/flash-attn/flash_fwd_launch_template.h:77): no kernel image is available for execution on the device",
     "fa3"),
    # within one line the hub repo outranks a module name it contains
    ("AttributeError: Kernel 'kernels-community/flash-attn2' does not define attribute path 'flash_attn_interface._wrapped_flash_attn_forward'",
     "fa2"),
])
def test_the_hub_repo_names_the_kernel_that_ran(text, backend):
    assert top(text)[1] == backend


def test_a_plain_flash_attn_path_is_still_fa2():
    text = ("  File \"/home/u/.local/lib/python3.11/site-packages/flash_attn/flash_attn_interface.py\", line 96\n"
            "RuntimeError: CUDA error: no kernel image is available for execution on the device")
    assert top(text)[1] == "fa2"
    assert attribution.backend_named("cd /build/source/flash-attn && ninja") is None
    assert attribution.backend_named("pip install flash-attn --no-build-isolation") == "fa2"


@pytest.mark.parametrize("line,backend", [
    ("Flash Attention v3 is not available on this GPU", "fa3"),
    ("using FlashAttention-3 for the text encoder", "fa3"),
    ("Falling back: FlashAttention v2 kernels were not compiled for sm_75", "fa2"),
    ("hopper\\instantiations\\flash_bwd_hdim128_bf16_sm90.cu(88): error: expected an expression", "fa3"),
])
def test_version_words_and_relative_hopper_paths_name_a_backend(line, backend):
    assert attribution.backend_named(line) == backend


# ---- widened patterns ---------------------------------------------------------------------------

@pytest.mark.parametrize("text,entry,backend", [
    # FA's dtype check as users retype it
    ("RuntimeError: Flash Attention only support fp16 and bf16 data type", "fa2.dtype", "fa2"),
    ("报错 RuntimeError：FlashAttention only suppport fp16 and bf16 data type", "fa2.dtype", "fa2"),
    ("flashattention only surpport fp16 and bf16 data type (my model is fp32)", "fa2.dtype", "fa2"),
    # the source line Python prints under torch's minor-mismatch warning, in a flash-attn build log
    ("      building 'flash_attn_2_cuda' extension\n"
     "        warnings.warn(CUDA_MISMATCH_WARN.format(cuda_str_version, torch.version.cuda))",
     "nvcc.minor-mismatch", "fa2"),
    # the CUDA runtime's enum-name format at an attention kernel's launch
    ("  File \"/srv/env/lib/python3.12/site-packages/flash_attn/cute/interface.py\", line 355, in _flash_attn_fwd\n"
     "RuntimeError: CUDA Error: cudaErrorLaunchOutOfResources", "attn.kernel-launch-error", "cute"),
    ("sageattention/core.py:201: RuntimeError: CUDA Error: cudaErrorNoKernelImageForDevice",
     "attn.kernel-launch-error", "sage"),
    ("[xformers] fmha launch failed -> CUDA Error: cudaErrorInvalidConfiguration", "attn.kernel-launch-error", "xformers"),
    # FA4 coupled to its CuTe DSL release: the requirement, and a binding called with another release's signature
    ("flash-attn-cute now requires nvidia-cutlass-dsl>=4.10.0", "cute.dsl-drift", "cute"),
    ("ERROR: flash_attn_4-4.0.0b50 requires nvidia_cutlass_dsl (>=4.9)", "cute.dsl-drift", "cute"),
    ("  File \"/app/.venv/lib/python3.12/site-packages/flash_attn/cute/flash_bwd_sm100.py\", line 812, in kernel\n"
     "    tmem_ptr = cute.arch.retrieve_tmem_ptr(Float32, 16, tmem_holding_buf)\n"
     "TypeError: retrieve_tmem_ptr() missing 1 required positional argument: 'loc'", "cute.dsl-drift", "cute"),
    ("Compiling with CuTe DSL 4.3 ...\nTypeError: exp2() takes 1 positional argument but 2 were given", "cute.dsl-drift", "cute"),
    # Inductor's lowering failure names its target
    ("torch._inductor.exc.InductorError: LoweringException: IndexError: list index out of range\n"
     "  target: flex_attention_backward", "flex.compile-failed", "flex"),
    ("LoweringException: NotImplementedError: unsupported score_mod\n  target: flex_attention", "flex.compile-failed", "flex"),
    # pybind's entry points of attention extensions; a hub kernel without the attribute its caller resolves
    ("  File \"/venv/lib/python3.10/site-packages/flash_attn/flash_attn_interface.py\", line 170\n"
     "TypeError: mha_fwd(): incompatible function arguments. The following argument types are supported:",
     "attn.api-mismatch", "fa2"),
    ("  File \"/srv/xformers/ops/fmha/flash3.py\", line 90, in mha_fwd\n"
     "TypeError: bwd(): incompatible function arguments. The following argument types are supported:",
     "attn.api-mismatch", "xformers"),
    ("ValueError: kernels-community/flash-attn3 does not define attribute path `flash_attn_interface.flash_attn_with_kvcache`",
     "attn.api-mismatch", "fa3"),
    # an engine's per-model backend whitelist
    ("ValueError: Attention backend 'FLASH_ATTN' is not supported by this attention layer; supported backends: ['torch_sdpa']",
     "vllm.backend-fallback", None),
    ("RuntimeError: Attention backend \"sage_attn_3\" is not valid for this model (supported: fa, torch_sdpa)",
     "vllm.backend-fallback", None),
])
def test_widened_pattern(text, entry, backend):
    assert top(text) == (entry, backend)


# ---- new entries --------------------------------------------------------------------------------

@pytest.mark.parametrize("text,entry,backend", [
    # a 32-bit (x86) Windows build target
    ("      creating D:\\ai\\SageAttention\\build\\temp.win32-cpython-313\\Release\\csrc\\fused\n"
     "      Emitting ninja build file D:\\ai\\SageAttention\\build\\temp.win32-cpython-313\\Release\\build.ninja...",
     "build.windows-x86-target", "sage"),
    ("copying flash_attn\\ops\\triton\\rotary.py -> build\\lib.win32-cpython-310\\flash_attn\\ops\\triton",
     "build.windows-x86-target", "fa2"),
    ("  building 'xformers._C' extension\n  creating build\\temp.win32-3.9\\Release\\xformers\\csrc",
     "build.windows-x86-target", "xformers"),
    # a BlockMask built for other lengths
    ("ValueError: block_mask was created for block_mask.shape=(4, 16, 8192, 8192) but got q_len=8000 and kv_len=8192.",
     "flex.block-mask-shape", "flex"),
    ("[rank7]: ValueError: block_mask was created for block_mask.shape=(1, 1, 257, 257) but got q_len=300 and kv_len=300. If you",
     "flex.block-mask-shape", "flex"),
    ("E   ValueError: block_mask was created for block_mask.shape=(2, 1, 1024, 2048) but got q_len=1024 and kv_len=1900.",
     "flex.block-mask-shape", "flex"),
    # a head dimension the kernel (or its wrapper) refuses
    ("RuntimeError: flex_attention: we only support 16 <= head dims <= 256 on this device", "attn.head-dim-unsupported", "flex"),
    ("AssertionError: sageattn3: head_dim should be one of 64, 128", "attn.head-dim-unsupported", "sage"),
    ("ValueError: flash_attn_3 head dimension 320 is not supported", "attn.head-dim-unsupported", "fa3"),
    ("xformers: invalid head dim 24 for fa3F", "attn.head-dim-unsupported", "xformers"),
    # a setup.py with no branch for this GPU's capability
    ("  File \"/tmp/pip-req-build-x1/setup.py\", line 142, in <module>\n"
     "    NVCC_FLAGS += [\"-gencode\", f\"arch=compute_{arch},code=sm_{arch}\"]\n"
     "NameError: name 'arch' is not defined", "build.setup-arch-unknown", None),
    ("File \"D:\\src\\sage3\\setup.py\", line 77, in <module>\n"
     "    cc_flag.append(f\"-gencode=arch=compute_{num}a,code=sm_{num}a\")\n"
     "NameError: name 'num' is not defined. Did you mean: 'sum'?", "build.setup-arch-unknown", None),
    ("  File \"/work/ext/setup.py\", line 60, in <module>\n"
     "    TORCH_CUDA_ARCH = ARCH_MAP[capability]\n"
     "NameError: name 'ARCH_MAP' is not defined", "build.setup-arch-unknown", None),
])
def test_new_entry(text, entry, backend):
    assert top(text) == (entry, backend)


# ---- near misses --------------------------------------------------------------------------------

@pytest.mark.parametrize("text,not_entry", [
    # another library's dtype message is not FlashAttention's
    ("RuntimeError: xformers cutlassF only supports fp16 and bf16 data type", "fa2.dtype"),
    # another warning's source line
    ("  warnings.warn(CUDA_NOT_FOUND_MESSAGE)", "nvcc.minor-mismatch"),
    # the enum-name format from a program that is no attention library (a game engine, llama.cpp)
    ("ggml_cuda_compute_forward: CUDA Error: cudaErrorMemoryAllocation", "attn.kernel-launch-error"),
    # pip's resolver conflict is versions.conflict's, not FA4's own coupling
    ("quack-kernels 0.6.5 requires nvidia-cutlass-dsl<4.9,>=4.8.1, but you have nvidia-cutlass-dsl 4.9.0 which is incompatible.",
     "cute.dsl-drift"),
    # an arity error with no CuTe DSL in sight
    ("  File \"/app/train.py\", line 40, in step\nTypeError: clip_grad() takes 2 positional arguments but 3 were given",
     "cute.dsl-drift"),
    # an Inductor lowering failure of a model that uses no attention backend
    ("torch._inductor.exc.InductorError: LoweringException: AssertionError: \n  target: aten.convolution.default",
     "flex.compile-failed"),
    # a sentence saying SageAttention is installed is no frame of the model's failed torch.compile
    ("I have triton 3.2 and sageattention 2.1.1 installed but torch.compile of the VAE fails:\n\n"
     "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\nCompilationError: at 3:4:\ndef triton_poi_fused_0(in_ptr0):",
     "flex.compile-failed"),
    # pybind of a function that is no attention entry point
    ("TypeError: encode(): incompatible function arguments. The following argument types are supported:", "attn.api-mismatch"),
    # a process-group backend is not an attention backend
    ("RuntimeError: The backend 'nccl' is not available for this process group", "vllm.backend-fallback"),
    # the 64-bit build directory
    ("creating build\\temp.win-amd64-cpython-312\\Release\\csrc\\flash_attn\\src", "build.windows-x86-target"),
    # a BlockMask printed while debugging is no error
    ("block_mask.shape=(1, 1, 1280, 1280) sparsity=42.1%", "flex.block-mask-shape"),
    # a head-dim sentence in a log that names no attention backend
    ("conv_head: head dim must be a multiple of 8 for the depthwise projection", "attn.head-dim-unsupported"),
    # causal-conv1d's setup.py NameError is about a CUDA version variable, not an arch branch
    ("  File \"/tmp/pip-install-1/causal-conv1d_9/setup.py\", line 185, in <module>\n"
     "    if bare_metal_version >= Version(\"11.8\"):\nNameError: name 'bare_metal_version' is not defined",
     "build.setup-arch-unknown"),
    # a compiler killed for memory while building something that is no attention library
    ("[812/2239] Building CXX object lib/Target/X86/X86ISelLowering.cpp.o\n"
     "c++: fatal error: Killed signal terminated program cc1plus\ncompilation terminated.", "build.oom"),
    ("/src/megatron/csrc/gemm/fp8_gemm.cu:3:10: fatal error: cutlass/gemm/device/gemm.h: No such file or directory",
     "build.submodule-missing"),
])
def test_field4_near_miss(text, not_entry):
    assert not_entry not in ids(text)


def test_a_build_killed_for_memory_is_still_attentions_when_it_builds_an_attention_library():
    log = ("Building wheels for collected packages: sageattention\n"
           "  [12/40] /usr/local/cuda/bin/nvcc -c csrc/qattn/qk_int_sv_f8_cuda_sm89.cu -o build/temp.linux-x86_64-cpython-312/x.o\n"
           "  nvcc error   : 'cicc' died due to signal 9 (Kill signal)\n")
    assert top(log) == ("build.oom", "sage")


def test_a_sage_frame_still_claims_an_inductor_failure():
    log = ("Traceback (most recent call last):\n"
           "  File \"/venv/lib/python3.12/site-packages/sageattention/triton/quant_per_block.py\", line 60, in per_block_int8\n"
           "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\nRuntimeError: PassManager::run failed\n")
    assert "flex.compile-failed" in ids(log)
