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
           "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\nAssertionError: unexpected layout\n")
    assert "flex.compile-failed" in ids(log)


# ---- from half B (added after it was measured) ----------------------------------------------------

@pytest.mark.parametrize("line,backend", [
    ("Processing ./flash_attn-2.7.4.post1+cu12torch2.6cxx11abiFALSE-cp311-cp311-linux_x86_64.whl", "fa2"),
    ("  Downloading flash_attn-2.8.3.tar.gz (8.4 MB)", "fa2"),
    ("Successfully built flash_attn_3-3.0.0b1", "fa3"),
    ("ptxas info    : Compiling entry function '_Z48fmha_cutlassF_f16_aligned_64x128_rf_sm80N14AttentionKernel' for 'sm_90'", "xformers"),
    ("python main.py --listen --use-sage-attention --fast", "sage"),
    ("launching with --use-flash-attention --lowvram", "fa2"),
    ("python -m sglang.launch_server --attention-backend 'fa3' --tp 2", "fa3"),
    ("Using attention backend `fa4` on sm_100", "cute"),
])
def test_more_naming_lines(line, backend):
    assert attribution.backend_named(line) == backend


@pytest.mark.parametrize("text,entry,backend", [
    # a failed build's evidence is above its traceback: the compile lines name what was built
    ("  [3/18] /usr/local/cuda/bin/nvcc -c /tmp/pip-req-build-7/csrc/qattn/qk_int_sv_f8_cuda_sm90.cu -o build/temp/sageattention/x.o\n"
     "  FAILED: build/temp.linux-x86_64-cpython-311/csrc/qattn/qk_int_sv_f8_cuda_sm90.o\n"
     "  ninja: build stopped: subcommand failed.\n"
     "  Traceback (most recent call last):\n"
     "    File \"/venv/lib/python3.11/site-packages/torch/utils/cpp_extension.py\", line 2104, in _run_ninja_build\n"
     "      subprocess.run(\n"
     "  subprocess.CalledProcessError: Command '['ninja', '-v', '-j', '8']' returned non-zero exit status 1.",
     "build.compile-failed", "sage"),
    # a wheel's name says flash-attn when the build prints nothing else
    ("Guessing wheel URL:  https://example.invalid/flash_attn-2.6.3+cu123torch2.4cxx11abiTRUE-cp310-cp310-linux_x86_64.whl\n"
     "Precompiled wheel not found. Building from source...\n"
     "/opt/venv/lib/python3.10/site-packages/torch/utils/cpp_extension.py:502: UserWarning: Attempted to use ninja as the BuildExtension backend but we could not find ninja.. Falling back to using the slow distutils backend.",
     "build.no-ninja", "fa2"),
    # an app's flag names the backend whose Triton cannot target the GPU
    ("python main.py --use-sage-attention\n\n'sm_121' is not a recognized processor for this target (ignoring processor)",
     "triton.unknown-arch", "sage"),
    # importing FA4 replaced cute.compile
    ("from flash_attn.cute.interface import flash_attn_func\nfn = cute.compile[cute.KeepCUBIN](launch, x)\nTypeError: 'function' object is not subscriptable",
     "cute.dsl-drift", "cute"),
    # transformers' flash-attention utils module: any name from it, the module, its names alone
    ("ImportError: cannot import name 'prepare_fa_kwargs_from_position_ids' from 'transformers.modeling_flash_attention_utils'",
     "transformers.helper-moved", "fa2"),
    ("ModuleNotFoundError: No module named 'transformers.modeling_flash_attention_utils'", "transformers.helper-moved", "fa2"),
    ("ImportError: cannot import name 'is_flash_attn_greater_or_equal_2_10'", "transformers.helper-moved", "fa2"),
    # kernels hub: the per-variant lines, a caller's own wording
    ("Cannot load kernels-community/flash-attn3:\n  torch28-cxx11-cu129-x86_64-linux: Torch version (2.8) does not match environment Torch version (2.13)",
     "kernels.hub-no-build", "fa3"),
    ("RuntimeError: Failed to load FlashAttention-2 kernels from the Hub. Please ensure the wheel is available for your platform.",
     "kernels.hub-no-build", "fa2"),
    ("ModuleNotFoundError: No module named 'kernels'\n(attn_implementation=\"kernels-community/flash-attn3\")", "kernels.not-installed", "fa3"),
    ("  File \"/app/pipeline.py\", line 12, in <module>\n    from kernels import get_kernel\nModuleNotFoundError: No module named 'kernels'",
     "kernels.not-installed", None),
    # a node refusing an older SageAttention
    ("Exception Message: sageattention is not new enough version or could not determine CUDA architecture, cannot apply Qwen Sage Patch.",
     "sage.api-mismatch", "sage"),
    # Triton's pass pipeline on a GPU it does not know
    ("  File \"/usr/lib/python3.12/site-packages/sageattention/triton/attn_qk_int8_per_block.py\", line 140, in forward\n"
     "    _attn_fwd[grid](q, k, v)\nRuntimeError: PassManager::run failed", "triton.pass-failed", "sage"),
    ("Flex Attention on the GB300: test_flex_attention fails\nRuntimeError: PassManager::run failed", "triton.pass-failed", "flex"),
    ("RuntimeError: PassManager::run failed", "triton.pass-failed", None),
    # head dims phrased as embedding dims
    ("  File \"/venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py\", line 1130\n"
     "ValueError: NYI: Currently non power of 2 embedding dimension are not supported. Got E=80 and Ev=80.",
     "attn.head-dim-unsupported", "flex"),
    # SDPA's FA3 route has no backward
    ("RuntimeError: FA3 does not support backward pass. Either: 1. Use torch.no_grad() for inference.", "sdpa.fa4-route", "sdpa"),
    ("loss.backward()\nRuntimeError: FA3 does not support the backward", "sdpa.fa4-route", "sdpa"),
    # an engine refusing a backend on an architecture
    ("ValueError: The 'fa3' backend is not supported on Blackwell GPUs", "backend.unsupported-gpu", "fa3"),
    ("RuntimeError: The fa4 attention backend is not supported on Ampere", "cute.arch", "cute"),  # FA4's own entry for its architectures (helper ex123: attribution.toml [[specialize]])
    # an attention library's compiled extension module is missing
    ("  File \"/opt/fork/hopper/flash_attn_interface.py\", line 8, in <module>\n    import fork_fa3_cuda\nModuleNotFoundError: No module named 'fork_fa3_cuda'",
     "import.failed", "fa3"),
    # MSVC outside a developer prompt
    ("C:\\sd\\venv\\Lib\\site-packages\\torch\\utils\\cpp_extension.py:415: UserWarning: Error checking compiler version for cl: [WinError 2] The system cannot find the file specified\n"
     "building 'flash_attn_2_cuda' extension", "build.msvc-env", "fa2"),
    ("'cl.exe' is not recognized as an internal or external command,\nBuilding wheel for sageattention (setup.py) ... error", "build.msvc-env", "sage"),
    ("error: Microsoft Visual C++ 14.0 or greater is required.\n  ERROR: Failed building wheel for xformers", "build.msvc-env", "xformers"),
    # an extension setup.py found no sources (submodule not checked out)
    ("  File \"/tmp/pip-install-3k1/xformers_0f3a9c21b8d74e55/setup.py\", line 412, in get_extensions\n"
     "  File \"/venv/lib/python3.12/site-packages/torch/utils/cpp_extension.py\", line 1130, in CUDAExtension\n"
     "AssertionError: assert len(sources) > 0", "build.submodule-missing", "xformers"),
])
def test_half_b_mechanism(text, entry, backend):
    assert top(text) == (entry, backend)


@pytest.mark.parametrize("text,not_entry", [
    # a failed ninja build of a library that is no attention backend
    ("  [4/9] c++ -c /src/detectron2/layers/csrc/nms_rotated/nms_rotated_cpu.cpp -o build/x.o\n  Traceback (most recent call last):\n"
     "  subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit status 1.", "build.compile-failed"),
    ("'function' object is not subscriptable", "cute.dsl-drift"),
    ("ImportError: cannot import name 'LlamaAttention' from 'transformers.models.llama.modeling_llama'", "transformers.helper-moved"),
    ("OSError: Failed to load model weights from the Hub: 401 Unauthorized", "kernels.hub-no-build"),
    ("ModuleNotFoundError: No module named 'kernels_utils'", "kernels.not-installed"),
    ("RuntimeError: torch is not new enough for this node", "sage.api-mismatch"),
    # a Triton pass failure in another library's kernel
    ("  File \"/venv/lib/python3.12/site-packages/fla/ops/gated_delta_rule/chunk.py\", line 88, in forward\n"
     "    chunk_fwd_kernel[grid](x)\nRuntimeError: PassManager::run failed", "triton.pass-failed"),
    ("ValueError: the tokenizer embedding dimension 300 is not supported by this checkpoint", "attn.head-dim-unsupported"),
    ("xformers fa3F does not support backward with dropout", "sdpa.fa4-route"),
    ("RuntimeError: The 'gloo' backend is not supported on Windows for this collective", "backend.unsupported-gpu"),
    ("ModuleNotFoundError: No module named 'selective_scan_cuda'", "import.failed"),
    ("ModuleNotFoundError: No module named 'my_point_ops_cuda'", "import.failed"),
    ("UserWarning: Error checking compiler version for cl: [WinError 2]\nbuilding 'detectron2._C' extension", "build.msvc-env"),
    ("  File \"/src/pointnet2/setup.py\", line 30, in <module>\nAssertionError: assert len(sources) > 0", "build.submodule-missing"),
])
def test_half_b_near_miss(text, not_entry):
    assert not_entry not in ids(text)
