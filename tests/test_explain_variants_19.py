"""Variants for the mechanisms round 15 (fixtures/errors/round15/, training material since 2026-11-28, helper ex19)
taught explain. No real text is a case here: each is written by hand from the mechanism, with other paths, versions,
GPUs, wrappers and wordings; the near misses say what must NOT be claimed.

  xf-cuda        "xformers wasn't built with CUDA support" (the grammar mended) (xformers.toml xformers.not-compiled)
  sm-quoted      FA1's arch check quoted without its tail, "Expected is_sm80 to be true" (flash_attn.toml fa2.arch-check)
  gcc-ice        the host compiler's internal compiler error on a backend's sources (builds.toml build.compiler-error)
  block-sparse   Block-Sparse-Attention (an FA2 fork) is no listed backend's; FA2's Ampere refusal is a shared name
                 (attribution.toml)
  wrong-output   a backend that returns/outputs/results in wrong, invalid, garbage or gray output; SGLang's intel_xpu
                 attention backend (attention.toml attn.wrong-output; attribution.toml "other")
  fa-old-gpu     FlashAttention said not to support a Volta/Turing/Pascal GPU (backends.toml backend.unsupported-gpu)
  xf-old-gpu     an xformers release said not to support an older GPU (xformers.toml xformers.gpu-too-old)
  none-call      a wrapper's backend call failing with "'NoneType' object is not callable" (attention.toml
                 attn.import-guard, first_named); an OOM quoted by the same wrapper is not fa2.not-available-fallback
  namespace      "cannot import name X from 'sageattention' (unknown location)" (imports.toml import.shadowed-package)
  fallback-note  transformers' "... will fallback to sdpa" notice is neither fa2.dtype nor prose.ignored
  bwd-gpu        FlashAttention's backward said to fail on an sm86/sm89 GPU (flash_attn.toml fa2.bwd-head-dim-gpu)
  tcgen05        the CuTe DSL's "Unsupported tcgen05 MMA op kind" (cute.toml cute.dsl-drift)
  cudnn          a bare CUDNN_STATUS_EXECUTION_FAILED is SDPA's only with SDPA named (sdpa.toml sdpa.cudnn-execution);
                 under TransformerEngine's fused attention it is TE's (frameworks.toml te.fused-attn-cudnn)
  msvc           nvcc's "unsupported Microsoft Visual Studio version!" (builds.toml build.msvc-unsupported)
  hang           "stuck at scaled_dot_product_attention" (attention.toml attn.kernel-hang)
  keyerror       transformers' flash-attn availability check raising KeyError 'flash_attn'
                 (frameworks.toml transformers.flash-attn-check-keyerror)
  subgraph       Inductor's SubgraphLoweringException under flex (guides.toml flex.compile-failed)
  fa4-path       "FA4 path does not support <feature>" (cute.toml cute.feature-arch)
  internal-assert  INTERNAL ASSERT FAILED at an attention kernel's own source (attention.toml attn.internal-assert)
  flex-device    FlexAttention's device check and its missing CPU/MPS backward (flex.toml flex.device-unsupported)
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids, tb

SITE = "/home/u/.venv/lib/python3.11/site-packages"


# --- xf-cuda ----------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "xformers wasn't built with CUDA support",
    "[Bug] xFormers wasnt built with CUDA support after updating the Colab notebook (torch 2.1.0+cu121)",
    "`fa2F@2.5.6-pt` is not supported because:\n    xFormers wasn’t built with CUDA support",
    "Dreambooth: RuntimeError at step 0 -- xformers wasn't built with CUDA support (T4)",
])
def test_xformers_without_cuda_said_built(text):
    assert _top(text) == ("xformers.not-compiled", "xformers")


def test_xformers_built_with_cuda_is_not_claimed():
    assert "xformers.not-compiled" not in _ids("xformers was built with CUDA support 12.1 (python -m xformers.info)")


# --- sm-quoted --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "On the RTX 3090 it fails with\n> Expected is_sm80 to be true",
    "flash-attn 1.0.4 on a T4: `Expected is_sm8x || is_sm75 to be true`",
    "The error is 'Expected is_sm90 || is_sm8x to be true' on H20 with flash-attn 1.0.9",
])
def test_fa1_arch_check_quoted_without_its_tail(text):
    assert _top(text) == ("fa2.arch-check", "fa2")


def test_a_check_that_is_not_an_arch_flag_is_not_the_arch_check():
    assert "fa2.arch-check" not in _ids("Expected is_causal to be true when the mask is None")


# --- gcc-ice ----------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ("Building wheel for xformers (setup.py) ... error\n"
     "/tmp/pip-install-a1/xformers_0c1d/third_party/cutlass/include/cute/layout.hpp:311: internal compiler error: in "
     "tsubst_copy, at cp/pt.c:16843", "xformers"),
    ("building flash-attn 2.6.3 on CentOS 7 (devtoolset-9)\n"
     "csrc/flash_attn/src/flash_fwd_hdim128_fp16_sm80.cu:5: internal compiler error: Segmentation fault", "fa2"),
    ("SageAttention setup.py build on Debian 11\n"
     "csrc/qattn/qk_int_sv_f16_cuda_sm80.cu:88: internal compiler error: in cp_parser_template_id, at cp/parser.c:16720",
     "sage"),
])
def test_host_compiler_internal_error_in_a_backends_build(text, backend):
    assert _top(text) == ("build.compiler-error", backend)


def test_gcc_killed_for_memory_is_still_the_oom():
    text = "building flash-attn: g++: internal compiler error: Killed (program cc1plus)"
    assert "build.compiler-error" not in _ids(text)


def test_an_internal_compiler_error_of_no_attention_library_is_not_claimed():
    assert _ids("src/engine/render.cpp:422: internal compiler error: in tsubst_copy, at cp/pt.c:16843") == []


# --- block-sparse -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "RuntimeError: FlashAttention only supports Ampere GPUs or newer.\n"
    "Exception raised from mha_fwd_block at /home/u/Block-Sparse-Attention/csrc/block_sparse_attn/flash_api.cpp:1485 "
    "(most recent call first):",
    tb((f"{SITE}/block_sparse_attn/block_sparse_attn_interface.py", 41, "_block_sparse_attn_forward",
        "out, q, k, v, out_padded, softmax_lse, S_dmask, rng_state = block_sparse_attn_cuda.fwd_block("),
       error="RuntimeError: FlashAttention only supports Ampere GPUs or newer."),
])
def test_block_sparse_attention_is_no_listed_backend(text):
    assert _top(text) == ("backend.unsupported-gpu", None)


@pytest.mark.parametrize("text", [
    "RuntimeError: FlashAttention only supports Ampere GPUs or newer.\n"
    "Exception raised from mha_fwd at /tmp/flash-attention/csrc/flash_attn/flash_api.cpp:360 (most recent call first):",
    tb((f"{SITE}/flash_attn/flash_attn_interface.py", 91, "_flash_attn_forward",
        "out, softmax_lse, S_dmask, rng_state = flash_attn_gpu.fwd("),
       error="RuntimeError: FlashAttention only supports Ampere GPUs or newer."),
    "RuntimeError: FlashAttention only supports Ampere GPUs or newer.",
])
def test_flash_attns_own_refusal_stays_fa2(text):
    assert _top(text) == ("backend.unsupported-gpu", "fa2")


# --- wrong-output -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ("[XPU] F.scaled_dot_product_attention returns incorrect values for fp16 Whisper after the 2.9 nightly", "sdpa"),
    ("Our Flux node's SageAttention 2.2 override outputs only grey noise on the RTX 3090", "sage"),
    ("Using `sageattn_qk_int8_pv_fp8_cuda` results in a corrupted output for HunyuanVideo at 720p", "sage"),
    ("xformers 0.0.28 gives wrong results for bf16 with an attn_bias on the A10", "xformers"),
    ("SGLang: the intel_xpu attention backend produces incoherent output on Arc A770", None),
])
def test_a_backend_said_to_produce_wrong_output(text, backend):
    assert _top(text) == ("attn.wrong-output", backend)


@pytest.mark.parametrize("text", [
    "scaled_dot_product_attention returns wrong output shape when the mask is 3D",
    "No module 'xformers'. Proceeding without it. The output is fine.",
    "SDPA returns a tensor of the same shape as the query",
])
def test_wrong_output_near_misses(text):
    assert "attn.wrong-output" not in _ids(text)


# --- fa-old-gpu -------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "flash-attn 2 doesn't work on the Tesla T4, Colab falls back to eager",
    "Flash Attention 不支持 RTX 2080 Ti 显卡吗？",
    "用的FlashAttention不支持V100显卡，怎么办",
    "FlashAttention does not support the V100, what can I use instead?",
])
def test_flashattention_said_not_to_support_an_older_gpu(text):
    assert _top(text) == ("backend.unsupported-gpu", "fa2")


def test_flashattention_on_an_a100_is_not_an_older_gpu():
    assert "backend.unsupported-gpu" not in _ids("FlashAttention does not support the A100 80GB in fp32")


# --- xf-old-gpu -------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "是最新版的xformers0.0.28.post1不支持2080显卡，换成0.0.27.post2就好了",
    "xformers 0.0.29 no longer supports the Tesla T4? training stops at the first step",
    "新版 xformers 不支持 RTX 2060 显卡",
    "It seems xformers dropped support for Pascal (GTX 1080 Ti) in 0.0.30",
])
def test_an_xformers_release_said_not_to_support_an_older_gpu(text):
    assert _top(text) == ("xformers.gpu-too-old", "xformers")


def test_xformers_on_a_new_gpu_is_not_too_old():
    assert "xformers.gpu-too-old" not in _ids("xformers 0.0.29 does not support the RTX 5090 yet")


# --- none-call --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ("Using sage attention\n...\n[WARNING] Flash Attention failed for blocks.3.attn, using original: 'NoneType' object is not callable",
     "fa2"),
    ("[WARN] SageAttention call failed in double_blocks.3, falling back to sdpa: 'NoneType' object is not callable", "sage"),
    ("flash_attn_varlen_func failed (layer 12): 'NoneType' object is not callable", "fa2"),
])
def test_a_wrappers_backend_call_that_was_none(text, backend):
    assert _top(text) == ("attn.import-guard", backend)


def test_an_oom_quoted_by_the_wrapper_is_no_fallback_and_no_guard():
    text = "⚠️ [WARNING] Flash Attention failed for blocks.0.attn, using original: Allocation on device."
    assert "fa2.not-available-fallback" not in _ids(text)
    assert "attn.import-guard" not in _ids(text)


def test_the_wrappers_plain_fallback_is_still_the_fallback():
    assert _top("[MyNode] flash_attn import failed, using sdpa") == ("fa2.not-available-fallback", "fa2")


# --- namespace --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ("Can't import SageAttention: cannot import name 'sageattn' from 'sageattention' (unknown location)", "sage"),
    ("ImportError: cannot import name 'sageattn_qk_int8_pv_fp16_triton' from 'sageattention' (unknown location)", "sage"),
    ("ImportError: cannot import name 'ops' from 'xformers' (unknown location)", "xformers"),
    ("ImportError: cannot import name 'flash_attn_func' from 'flash_attn_interface' (unknown location)", "fa3"),
])
def test_a_name_from_a_namespace_package_is_a_shadowing_folder(text, backend):
    assert _top(text) == ("import.shadowed-package", backend)


def test_a_name_an_installed_release_lacks_is_still_the_api_mismatch():
    text = f"ImportError: cannot import name 'sageattn_varlen' from 'sageattention' ({SITE}/sageattention/__init__.py)"
    assert _top(text) == ("sage.api-mismatch", "sage")


# --- fallback-note ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Qwen2_5OmniToken2WavModel must inference with fp32, but flash_attention_2 only supports fp16 and bf16, attention "
    "implementation of Qwen2_5OmniToken2WavModel will fallback to sdpa.",
    "Qwen3OmniMoeCode2Wav must inference with fp32, but flash_attention_2 only supports fp16 and bf16, attention "
    "implementation of Qwen3OmniMoeCode2Wav will fallback to sdpa.",
    "MyVocoder must run in fp32, but flash attention only supports fp16 and bf16, so it will fall back to eager",
])
def test_a_models_notice_of_a_fallback_it_takes_is_no_failure(text):
    assert _ids(text) == []


def test_the_refusal_itself_is_still_fa2_dtype():
    assert _top("ValueError: Flash Attention 2 only supports torch.float16 and torch.bfloat16 dtypes. You passed torch.float32")[0] == "fa2.dtype"
    assert _top("flash attention only supports fp16 and bf16, my model is fp32")[0] == "fa2.dtype"


# --- bwd-gpu ----------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "v0.2.6: flash_attn_cuda.bwd failing on RTX 3090 -- sm86 vs sm80?",
    "flash_attn backward failing on the RTX 4090 with head dim 128, forward is fine",
    "flash-attention.bwd error on L40S for Llama 13B fine-tuning",
    "FlashAttention backward pass not supported on A6000 for headdim 128?",
])
def test_flashattention_backward_said_to_fail_on_an_sm86_sm89_gpu(text):
    assert _top(text) == ("fa2.bwd-head-dim-gpu", "fa2")


def test_backward_on_an_a100_is_not_the_consumer_gpu_limit():
    assert "fa2.bwd-head-dim-gpu" not in _ids("flash_attn backward failing on A100 with NaN gradients")


# --- tcgen05 ----------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "- causal=True headdim=128 batch=4 seqlen=4096: TypeError('Unsupported tcgen05 MMA op kind: MmaF8F6F4Op')",
    f"  File \"{SITE}/nvidia_cutlass_dsl/python_packages/cutlass/cute/nvgpu/tcgen05/mma.py\", line 201, in __post_init__\n"
    "TypeError: Unsupported tcgen05 MMA op kind: MmaF16BF16Op",
    "flash_attn.cute fp8 forward on GB200: Unsupported tcgen05 MMA op kind: MmaI8Op (nvidia-cutlass-dsl 4.6.0)",
])
def test_the_dsl_refusing_an_mma_op_kind_fa4_builds(text):
    assert _top(text) == ("cute.dsl-drift", "cute")


def test_another_tcgen05_message_is_not_the_op_kind_drift():
    assert "cute.dsl-drift" not in _ids("tcgen05 MMA op kind MmaF8F6F4Op is supported on sm_100a")


# --- cudnn ------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED",
    tb(("main.py", 63, "main", "model = Net().cuda()"),
       (f"{SITE}/torch/nn/modules/rnn.py", 917, "forward", "result = _VF.lstm(input, hx, self._flat_weights, self.bias,"),
       error="RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED"),
    "AttentionXML on Colab: RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED",
])
def test_a_bare_cudnn_failure_is_not_sdpas(text):
    assert "sdpa.cudnn-execution" not in _ids(text)


@pytest.mark.parametrize("text", [
    tb(("/app/model.py", 61, "forward", "out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)"),
       error="RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED"),
    "CUDNN_STATUS_EXECUTION_FAILED from F.scaled_dot_product_attention on the L40S with torch 2.5.1",
    "with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):\n    out = attn(q, k, v)\nRuntimeError: cuDNN Frontend error: CUDNN_STATUS_EXECUTION_FAILED",
])
def test_the_cudnn_failure_under_sdpa_is_sdpas(text):
    assert _top(text) == ("sdpa.cudnn-execution", "sdpa")


@pytest.mark.parametrize("text", [
    f"  File \"{SITE}/transformer_engine/pytorch/cpp_extensions/fused_attn.py\", line 310, in fused_attn_fwd\n"
    "    output_tensors = tex.fused_attn_fwd(\nE! CuDNN (v90500) function cudnnBackendFinalize() called:\n"
    "e!         Error: CUDNN_STATUS_EXECUTION_FAILED; Reason: finalize_internal()",
    "Cosmos crashes in fused_attn.py / fused_attn_forward:\ne!         Error: CUDNN_STATUS_NOT_SUPPORTED; Reason: ptr.isSupported()",
    "FusedAttention forward on the L40: cudnnBackendFinalize failed with CUDNN_STATUS_EXECUTION_FAILED",
])
def test_the_cudnn_failure_under_transformer_engine_is_tes(text):
    assert _top(text)[0] == "te.fused-attn-cudnn"


# --- msvc -------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ("Building wheel for flash-attn (setup.py) ... error\n"
     "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8\\include\\crt/host_config.h(160): fatal error C1189: "
     "#error:  -- unsupported Microsoft Visual Studio version! Only the versions between 2017 and 2022 (inclusive) are supported!",
     "fa2"),
    ("xformers source build on Windows 11 with VS 2026:\n"
     "host_config.h(164): fatal error C1189: #error:  -- unsupported Microsoft Visual Studio version! Only the versions "
     "between 2017 and 2022 (inclusive) are supported!", "xformers"),
    ("pip install sageattention: crt/host_config.h(153): fatal error C1189: #error -- unsupported Microsoft Visual Studio "
     "version! Only the versions between 2017 and 2019 (inclusive) are supported!", "sage"),
])
def test_nvcc_refusing_the_visual_studio_version(text, backend):
    assert _top(text) == ("build.msvc-unsupported", backend)


def test_the_visual_studio_refusal_of_no_attention_library_is_not_claimed():
    text = ("building my_cuda_ext: host_config.h(160): fatal error C1189: #error:  -- unsupported Microsoft Visual Studio "
            "version! Only the versions between 2017 and 2022 (inclusive) are supported!")
    assert "build.msvc-unsupported" not in _ids(text)


def test_the_gnu_refusal_stays_gcc_unsupported():
    text = ("flash-attn build: /usr/local/cuda/include/crt/host_config.h:132:2: error: #error -- unsupported GNU version! "
            "gcc versions later than 12 are not supported!")
    assert "build.msvc-unsupported" not in _ids(text)


# --- hang -------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ("inference stuck at scaled_dot_product_attention.", "sdpa"),
    ("Training hangs in flash_attn_varlen_func after 2k steps on 8xH100 (no error, GPU at 100%)", "fa2"),
    ("vae decode is fine but the run is stuck at `sageattn` forever on the 4090", "sage"),
    ("the process froze inside memory_efficient_attention_forward with a 3D bias", "xformers"),
])
def test_a_process_stuck_in_an_attention_call(text, backend):
    assert _top(text) == ("attn.kernel-hang", backend)


@pytest.mark.parametrize("text", [
    "pip install is stuck at building flash_attn_2_cuda for an hour",
    "stuck at importing sageattn on startup",
])
def test_a_build_or_an_import_stuck_is_no_kernel_hang(text):
    assert "attn.kernel-hang" not in _ids(text)


# --- keyerror ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    tb((f"{SITE}/transformers/utils/import_utils.py", 1012, "is_flash_attn_2_available",
        'dist_names = PACKAGE_DISTRIBUTION_MAPPING["flash_attn"]'), error="KeyError: 'flash_attn'"),
    "# workaround: 'flash_attn' missing from PACKAGE_DISTRIBUTION_MAPPING on transformers 5.5.1, so the node adds it",
    "transformers 5.5: PACKAGE_DISTRIBUTION_MAPPING['flash_attn'] raises KeyError when flash-attn is not installed",
])
def test_transformers_flash_attn_check_raising_keyerror(text):
    assert _top(text) == ("transformers.flash-attn-check-keyerror", "fa2")


def test_another_keyerror_is_not_the_flash_attn_check():
    text = tb((f"{SITE}/transformers/utils/import_utils.py", 1012, "is_flash_attn_2_available",
               "return _is_package_available('flash_attn')"), error="KeyError: 'model.layers.0.self_attn.q_proj.weight'")
    assert "transformers.flash-attn-check-keyerror" not in _ids(text)


def test_a_users_report_of_an_ignored_selection_is_still_read():
    assert _top("flash attention still falls back to sdpa even though I set attn_implementation=flash_attention_2")[0] == "prose.ignored"


# --- subgraph (round 15: pytorch/pytorch#148107) -- guides.toml flex.compile-failed ----------------------------------

@pytest.mark.parametrize("text", [
    "SubgraphLoweringException in flex_attention when using custom score_mod with torch.dot (MLA)",
    tb((f"{SITE}/torch/nn/attention/flex_attention.py", 1410, "flex_attention", "out, lse = flex_attention_hop("),
       error="torch._inductor.exc.SubgraphLoweringException: Buffers cannot be created while lowering a pointwise subgraph."),
    "compiled flex_attention with a mask_mod that indexes a sorted tensor: SubgraphLoweringException at the first step",
])
def test_inductor_cannot_lower_a_flex_subgraph(text):
    assert _top(text) == ("flex.compile-failed", "flex")


def test_a_subgraph_lowering_failure_of_no_flex_is_not_claimed():
    assert _ids("torch._inductor.exc.SubgraphLoweringException: while lowering associative_scan combine_fn") == []


# --- fa4-path (round 15: sgl-project/sglang#31640) -- cute.toml cute.feature-arch --------------------------------------

@pytest.mark.parametrize("text", [
    "NotImplementedError: FA4 path does not support descale.",
    "NotImplementedError: FA4 path does not support q_descale (vLLM fp8 kv-cache on GB200)",
    "[Bug] decode crashes: the FA4 backend doesn't support sinks with page_size 64",
])
def test_an_fa4_dispatch_refusing_a_feature(text):
    assert _top(text) == ("cute.feature-arch", "cute")


def test_the_fa3_path_refusing_a_feature_is_not_fa4s():
    assert "cute.feature-arch" not in _ids("NotImplementedError: FA3 path does not support descale on sm80")


# --- internal-assert (round 15: huggingface/diffusers#1261) -- attention.toml attn.internal-assert ---------------------

@pytest.mark.parametrize("text,backend", [
    ("Xformers backward broken | RuntimeError: p.gQ_strideM() == grad_q.stride(1) INTERNAL ASSERT FAILED at "
     "\"*/mem_eff_attention/attention_backward_generic.cu\":180, please report a bug to PyTorch.", "xformers"),
    ("RuntimeError: p.gK_strideM() == grad_k.stride(1) INTERNAL ASSERT FAILED at "
     "\"/tmp/xformers/xformers/csrc/attention/cuda/fmha/mem_eff_attention/attention_backward_generic.cu\":212", "xformers"),
    ("RuntimeError: q.stride(-1) == 1 INTERNAL ASSERT FAILED at \"/home/runner/work/flash-attention/csrc/flash_attn/flash_api.cpp\":409",
     "fa2"),
    ("RuntimeError: attn_bias.stride(1) == 0 INTERNAL ASSERT FAILED at "
     "\"../aten/src/ATen/native/transformers/cuda/mem_eff_attention/kernel_forward.h\":988, please report a bug to PyTorch.",
     "sdpa"),
])
def test_an_assert_inside_an_attention_kernels_source(text, backend):
    assert _top(text) == ("attn.internal-assert", backend)


@pytest.mark.parametrize("text", [
    "RuntimeError: !block->expandable_segment_ INTERNAL ASSERT FAILED at \"../c10/cuda/CUDACachingAllocator.cpp\":2814",
    "RuntimeError: mha_graph->validate().is_good() INTERNAL ASSERT FAILED at \"/pytorch/aten/src/ATen/native/cudnn/MHA.cpp\":520",
    "RuntimeError: false INTERNAL ASSERT FAILED at \"/opt/src/my_conv_ext/kernels/conv.cu\":77",
])
def test_other_internal_asserts_are_not_an_attention_kernels(text):
    assert "attn.internal-assert" not in _ids(text)


# --- flex-device (round 15: Ascend/pytorch#147, pytorch/pytorch#148752) -- flex.toml flex.device-unsupported ----------

@pytest.mark.parametrize("text", [
    tb((f"{SITE}/torch/nn/attention/flex_attention.py", 1350, "_validate_device", "raise ValueError("),
       error="ValueError: FlexAttention is only supported on CUDA, CPU, XPU, HPU, or MPS devices. Found input tensors on npu device."),
    "NotImplementedError: FlexAttention does not support backward on CPU. Please set the input requires_grad to False or use another device.",
    "[rank3]: NotImplementedError: FlexAttention does not support backward on MPS. Please set the input requires_grad to False",
    "Ascend 910B: torch-npu does not support flex_attention, the speculator training stops",
    "FYI training with flex attention on CPU is not supported, only inference",
])
def test_flexattention_refusing_the_device_or_its_backward(text):
    assert _top(text) == ("flex.device-unsupported", "flex")


@pytest.mark.parametrize("text", [
    "FlexAttention is supported on CUDA and CPU devices since 2.6",
    "inference with flex_attention on CPU is slow",
])
def test_flex_on_cpu_said_otherwise_is_not_the_device_check(text):
    assert "flex.device-unsupported" not in _ids(text)
