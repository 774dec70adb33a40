"""`explain` on the field failures of knowledge/field.toml and the attribution rules added with them:
each case is a variant written here (other paths, versions, GPUs, symbol names and kernel names than
the entries' examples and the real texts in fixtures/errors/), so a pattern that only fits one
sample fails. The near misses at the end must stay silent or keep their own entry."""

import pytest

from attn_doctor.explain import match


def top(text):
    found = match(text)
    return (found[0].entry.id, found[0].backend) if found else (None, None)


@pytest.mark.parametrize("text,entry,backend", [
    # FA4 (CuTe DSL) tile/MMA shape errors: other modes, sizes, ops
    ("cutlass.base_dsl.common.DSLRuntimeError: OpError: expects the N-mode to be 128, but got 192\nError Code: MmaF16BF16Op error",
     "cute.mma-shape", "cute"),
    ("Error Code: MmaF8F6F4Op error", "cute.mma-shape", "cute"),
    ("/root/.venv/lib/python3.12/site-packages/flash_attn/cute/flash_bwd_sm90.py:540:8: error: 'cute.copy' op expects pred "
     "to have compatible shape with: (1,(2)) but got actual predShape: (1,(3,1))", "cute.mma-shape", "cute"),
    # CuTe DSL / cuda-python with a driver older than it needs
    ("cutlass.base_dsl.common.DSLCudaRuntimeError: DSLCudaRuntimeError: (<cudaError_t.cudaSuccess: 0>, "
     "b'cudaErrorInsufficientDriver') (error code: 35)", "cute.driver-too-old", "cute"),
    ("- Error name: (<cudaError_t.cudaErrorInsufficientDriver: 35>, b'cudaErrorInsufficientDriver')", "cute.driver-too-old", "cute"),
    # xformers without a CUDA GPU, with an op class another release has, not installed
    ("ValueError: torch.cuda.is_available() should be True but is False. xformers' memory efficient attention is only available for GPU",
     "xformers.no-cuda", "xformers"),
    ("AttributeError: module 'xformers.ops' has no attribute 'MemoryEfficientAttentionCutlassFwdFlashBwOp'", "xformers.api-removed", "xformers"),
    # helper ex97 (session 15): the submodule itself missing is xformers.ops never loaded, not a renamed operator
    ("AttributeError: module 'xformers' has no attribute 'ops'", "xformers.ops-not-loaded", "xformers"),
    ("[LoRA] No module named 'xformers.ops'", "xformers.not-installed", "xformers"),
    # SageAttention / FA2 missing in the app's Python, and the fallbacks apps log
    ("Cannot import sageattention: No module named 'sageattention'\nPatchSageAttentionKJ failed", "sage.not-installed", "sage"),
    ("RuntimeError: Sage3 (sageattn3) is not available: No module named 'sageattn3'", "sage.not-installed", "sage"),
    ("WARNING  SageAttention 2 not found. Falling back to default SDPA.", "sage.not-installed", "sage"),
    ("INFO: Flash Attention 2 is not installed; falling back to sdpa", "fa2.not-available-fallback", "fa2"),
    ("flash-attn not available on this GPU, switching to xformers", "fa2.not-available-fallback", "fa2"),
    # SDPA mask dtype, cuDNN status errors through SDPA
    ("RuntimeError: Expected attn_mask dtype to be bool or to match query dtype, but got attn_mask.dtype: struct c10::Half "
     "and  query.dtype: float instead.", "sdpa.mask-dtype", "sdpa"),
    ("  File \"/app/venv/lib/python3.11/site-packages/torch/nn/functional.py\", line 5500, in scaled_dot_product_attention\n"
     "RuntimeError: cuDNN error: CUDNN_STATUS_INTERNAL_ERROR", "sdpa.cudnn-status", "sdpa"),
    # FlexAttention mask_mod under vmap: other messages, other torch layouts
    ("  File \"C:\\venv\\Lib\\site-packages\\torch\\nn\\attention\\flex_attention.py\", line 870, in create_block_mask\n"
     "    mask_tensor = create_mask(mask_mod, B, H, Q_LEN, KV_LEN, device)\n"
     "RuntimeError: vmap: It looks like you're attempting to use a Tensor in some data-dependent control flow. "
     "We don't support that yet.", "flex.mask-mod-vmap", "flex"),
    # torch too old for the attention API
    ("    from torch.nn.attention.flex_attention import flex_attention\nModuleNotFoundError: No module named 'torch.nn.attention'",
     "torch.attention-api-too-old", "flex"),
    ("ImportError: cannot import name 'SDPBackend' from 'torch.nn.attention' (/opt/venv/lib/python3.10/site-packages/torch/nn/attention/__init__.py)",
     "torch.attention-api-too-old", "sdpa"),
    ("ImportError: cannot import name 'and_masks' from 'torch.nn.attention.flex_attention'", "torch.attention-api-too-old", "flex"),
    # Triton's launcher: another compiler, another launcher file; the kernel named in -o is Sage's
    ("subprocess.CalledProcessError: Command '['/usr/bin/cc', '/tmp/tmpzz/cuda_utils.c', '-O3', '-shared', '-fPIC', "
     "'-Wno-psabi', '-o', '/tmp/tmpzz/cuda_utils.cpython-310-x86_64-linux-gnu.so', '-lcuda', '-L/usr/lib64']' returned non-zero exit status 1.",
     "triton.launcher-build", None),
    ("subprocess.CalledProcessError: Command '['/usr/bin/gcc', '/tmp/tmpk1/main.c', '-O3', '-shared', '-fPIC', '-lcuda', '-o', "
     "'/tmp/tmpk1/quant_per_block_int8_kernel.cpython-311-x86_64-linux-gnu.so']' returned non-zero exit status 1.",
     "triton.launcher-build", "sage"),
    ("/tmp/tmpq9/main.c:6:10: fatal error: Python.h: No such file or directory", "build.no-python-headers", None),
    # Triton that does not know the GPU
    ("'sm_121a' is not a recognized processor for this target (ignoring processor)", "triton.unknown-arch", None),
    ("  File \"/venv/lib/python3.12/site-packages/sageattention/core.py\", line 150, in sageattn\n"
     "Assertion failed: false && \"computeCapability not supported\", file D:\\triton\\lib\\Dialect\\TritonGPU\\Transforms\\AccelerateMatmul.cpp, line 41",
     "triton.unknown-arch", "sage"),
    ("loc(\"/opt/env/site-packages/sageattention/attn_qk_int8_per_block_causal.py\":30:11): error: 'tt.dot' op operand "
     "#0 must be ranked tensor of floating-point values", "triton.lowering-failed", "sage"),
    # cache renames on Windows and races on Linux
    ("PermissionError: [WinError 32] The process cannot access the file because it is being used by another process: "
     "'D:\\\\tmp\\\\torchinductor_bob\\\\fx\\\\tmpab12' -> 'D:\\\\tmp\\\\torchinductor_bob\\\\fx\\\\cd34'", "cache.rename-failed", None),
    ("FileExistsError: [Errno 17] File exists: '/scratch/.triton/cache/ABC'", "cache.rename-failed", None),
    # kernel launch errors inside a backend's sources: the path names whose
    ("CUDA error (/home/ci/xformers/third_party/flash-attention/hopper/flash_fwd_launch_template.h:201): invalid argument",
     "attn.kernel-launch-error", "xformers"),
    ("CUDA error (/workspace/flash-attention/hopper/flash_bwd_launch_template.h:77): invalid argument", "attn.kernel-launch-error", "fa3"),
    ("CUDA error (C:/a/xformers/xformers/third_party/flash-attention/hopper\\flash_fwd_launch_template.h:188): no kernel image is "
     "available for execution on the device", "gpu.arch-not-in-torch", "xformers"),
    # a native crash in an attention call, named by the function
    ("Fatal Python error: Segmentation fault\n\nThread 0x00007f00aa (most recent call first):\n"
     "  File \"/srv/app/venv/lib/python3.11/site-packages/xformers/ops/fmha/__init__.py\", line 324 in memory_efficient_attention",
     "attn.native-crash", "xformers"),
    ("Windows fatal exception: access violation\n\nStack (most recent call first):\n"
     "  File \"E:\\ComfyUI\\comfy\\ldm\\modules\\attention.py\", line 540 in attention_xformers", "attn.native-crash", "xformers"),
    # vLLM's head-size check names a backend in passing: the finding has none
    ("ValueError: Head size 80 is not supported by FlashMLA. Supported head sizes are: [576]. Set VLLM_ATTENTION_BACKEND=FLEX_ATTENTION "
     "to use FlexAttention backend which supports all head sizes.", "vllm.head-size", None),
])
def test_field_failure_gets_its_entry_and_backend(text, entry, backend):
    assert top(text) == (entry, backend)


@pytest.mark.parametrize("text,backend", [
    # the q/k/v dtype check: torch's C++ (c10 names, with or without commas, MSVC's "struct") is SDPA's;
    # FlexAttention's Python check prints torch.* names
    ("RuntimeError: Expected query, key, and value to have the same dtype, but got query.dtype: c10::BFloat16 key.dtype: float "
     "and value.dtype: float instead.", "sdpa"),
    ("Expected query, key, and value to have the same dtype, but got query.dtype: float, key.dtype: struct c10::BFloat16, "
     "and value.dtype: struct c10::BFloat16 instead.", "sdpa"),
    ("ValueError: Expected query, key, and value to have the same dtype, but got query.dtype: torch.float32, key.dtype: "
     "torch.bfloat16, and value.dtype: torch.bfloat16 instead.", "flex"),
    # ComfyUI's attention functions name the backend in the traceback
    ("  File \"/ComfyUI/comfy/ldm/modules/attention.py\", line 612, in attention_pytorch\n"
     "    out = optimized(q, k, v)\nRuntimeError: CUDA error: no kernel image is available for execution on the device", "sdpa"),
    ("  File \"/ComfyUI/comfy/ldm/modules/attention.py\", line 530, in attention_sage\n"
     "    out = sageattn(q, k, v, tensor_layout=tensor_layout)\nRuntimeError: CUDA error: no kernel image is available for execution on the device",
     "sage"),
    # flash_attn_func named in the frames of a generic error
    ("  File \"/work/train.py\", line 40, in forward\n    out = flash_attn_varlen_func(q, k, v, cu_q, cu_k, mq, mk)\n"
     "RuntimeError: CUDA error: no kernel image is available for execution on the device", "fa2"),
])
def test_backend_named_by_words(text, backend):
    assert top(text)[1] == backend


@pytest.mark.parametrize("text,not_entry", [
    # vmap errors outside FlexAttention are somebody else's
    ("  File \"/work/ens.py\", line 9, in <module>\n    out = torch.func.vmap(step)(batch)\n"
     "RuntimeError: vmap: It looks like you're calling .item() on a Tensor.", "flex.mask-mod-vmap"),
    # a cuDNN convolution error is not SDPA's
    ("  File \"/venv/lib/python3.10/site-packages/torch/nn/modules/conv.py\", line 456, in _conv_forward\n"
     "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_SUPPORTED. This error may appear if you passed in a non-contiguous input.",
     "sdpa.cudnn-status"),
    # a CUDA error raised in another library's source file
    ("CUDA error (/src/csrc/ops.cu:73): invalid argument", "attn.kernel-launch-error"),
    # Inductor's own C++ build is not Triton's launcher
    ("CalledProcessError: Command '['g++', '/tmp/torchinductor_me/ab/cabc.cpp', '-shared', '-fPIC', '-o', '/tmp/x.so']' "
     "returned non-zero exit status 1.", "triton.launcher-build"),
    # a crash outside attention
    ("Fatal Python error: Segmentation fault\n\nCurrent thread 0x00007f (most recent call first):\n"
     "  File \"/venv/lib/python3.11/site-packages/cv2/__init__.py\", line 181 in bootstrap", "attn.native-crash"),
    # A1111 saying xformers is optional
    ("No module 'xformers'. Proceeding without it.", "xformers.not-installed"),
    # a Windows permission error on a dataset, not a cache
    ("PermissionError: [WinError 5] Access is denied: 'D:\\\\data\\\\train\\\\0001.png'", "cache.rename-failed"),
])
def test_near_misses_do_not_get_the_entry(text, not_entry):
    assert not_entry not in [m.entry.id for m in match(text)]


@pytest.mark.parametrize("text,entry,backend", [
    ("RuntimeError: Number of heads in key/value must divide number of heads in query", "attn.gqa-heads", "fa2"),
    ("  File \"/src/flash-attention/hopper/flash_attn_interface.py\", line 80, in _flash_attn_forward\n"
     "RuntimeError: Number of heads in key/value must divide number of heads in query", "attn.gqa-heads", "fa3"),
    ("AssertionError: num_head must be divisible by num_head_kv", "attn.gqa-heads", "cute"),
    ("AssertionError: Block sparsity backward not supported on SM 12.0", "cute.feature-arch", "cute"),
    ("AssertionError: SM120 forward only supports num_splits=1", "cute.feature-arch", "cute"),
    ("RuntimeError: v must have shape (batch_size, seqlen_k, num_heads_k, head_size_og)", "fa2.input-shape", "fa2"),
    ("AssertionError: Unsupported compute capability. Supported: 9.x, 10.x, 11.x, 12.x", "backend.no-backward-on-gpu", "cute"),
])
def test_flash_attention_limits_name_their_version(text, entry, backend):
    assert top(text) == (entry, backend)


@pytest.mark.parametrize("text,entry,backend", [
    ("  File \"/opt/venv/lib/python3.12/site-packages/flash_attn/cute/interface.py\", line 300, in _flash_attn_fwd\n"
     "RuntimeError: CUDA Error: CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "cuda.driver-older-than-build", "cute"),
    ("cudaErrorInsufficientDriver", "cuda.driver-older-than-build", None),
    ("AssertionError: Input tensors must be in dtype of torch.float16 or torch.bfloat16", "sage.inputs", "sage"),
    ("RuntimeError: No target compute capabilities. Set TORCH_CUDA_ARCH_LIST or build on a machine with GPUs.\n"
     "ERROR: Failed building wheel for sageattention", "build.no-arch-list", "sage"),
])
def test_driver_and_sage_variants(text, entry, backend):
    assert top(text) == (entry, backend)


@pytest.mark.parametrize("frame,backend", [
    ("  File \"/venv/lib/python3.11/site-packages/diffusers/models/attention_dispatch.py\", line 1012, in _sage_attention", "sage"),
    ("  File \"/venv/lib/python3.11/site-packages/diffusers/models/attention_dispatch.py\", line 750, in _native_cudnn_attention", "sdpa"),
    ("  File \"/venv/lib/python3.11/site-packages/diffusers/models/attention_dispatch.py\", line 690, in _flash_attention_3", "fa3"),
    ("  File \"/venv/lib/python3.11/site-packages/diffusers/models/attention_dispatch.py\", line 640, in _flash_attention", "fa2"),
    ("  File \"/venv/lib/python3.11/site-packages/diffusers/models/attention_processor.py\", line 2100, in __call__ of XFormersAttnProcessor", "xformers"),
    ("  File \"/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py\", line 96, in sdpa_attention_forward", "sdpa"),
])
def test_dispatch_functions_name_the_backend(frame, backend):
    text = frame + "\nRuntimeError: CUDA error: no kernel image is available for execution on the device"
    assert top(text) == ("gpu.arch-not-in-torch", backend)
