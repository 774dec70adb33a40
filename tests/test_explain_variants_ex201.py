"""Variants for helper ex201 (session 40): the misses of round 201m (fixtures/errors/round201m, gathered blind by ex201m in
session 39, measured three times by the lead, training material since 66b8ad3c).

Every case was written by hand (2026-12-03): other backends, ops, devices, versions, paths and wordings than the fixtures.
The positives name what explain must report first (entry, backend); the near misses what it must not claim (None: nothing at
all); no pattern written here matches an unrelated log of any training round on its own (the measure-only sets are never read).

Mechanisms (knowledge file: rule; the round 201m text it came from):
  device      sdpa.toml sdpa.op-not-on-device: torch's "The operator 'aten::_scaled_dot_product_...' is not ..." cut before the
              device (intel/torch-xpu-ops#3131)
  mask        sdpa.toml sdpa.mask-size-mismatch: muDNN's ScaledDotProductAttention::RunX refusing the mask shape
              (MooreThreads/torch_musa#45)
  stride      flash_attn.toml fa2.last-dim-contiguous: the ROCm build's "Expected dout_seq_stride == out_seq_stride to be true"
              (ROCm/flash-attention#40)
  long        smoke.toml sdpa.math-fallback: SDPA out of device memory only at a longer context (pytorch/pytorch#135085)
  notclose    attention.toml attn.wrong-output: "Tensor-likes are not close!" with a greatest absolute difference of 0.5 or more
              under an attention test (intel/torch-xpu-ops#4401); FlexAttention's "Compiled error X is greater than ref error Y by more than"
              (intel/torch-xpu-ops#5105); outputs "unsatisfactory" against what they were compared with (pytorch/pytorch#119389)
  converter   attention.toml attn.onnx-export-unsupported: a backend "not (natively) supported in TensorRT / ONNX Runtime"
              (mohamedsamirx/YOLOv12-ONNX-CPP#1)
  release     attention.toml attn.release-regression: "regression of <attention call> ... in torch N" (pytorch/pytorch#141128)
  causal      attention.toml attn.causal-alignment: a causal mask that "used top-left alignment" (thu-ml/SageAttention#372)
  guard       attention.toml attn.import-guard: a backend's function "not imported but still ends up being used"
              (huggingface/transformers#41078)
  npu         accelerators.toml fa2.platform-unsupported: "flash attention ... NPU不支持" and "turn off flash attention ...
              because of NPUs" (OpenGVLab/InternVL#696)
  rounding    attention.toml attn.backend-rounding: a backend that "uses a different ... mechanism", so differences "are
              expected" (huggingface/diffusers#1745)
  sm          sage.toml sage.arch-kernel: one of SageAttention's kernels "not usable on sm1xx" (thu-ml/SageAttention#109)
  opfw        xformers.toml xformers.no-operator: fmha's op_fw left None, in words (facebookresearch/xformers#1304)
  scale       attention.toml attn.scale-mismatch: a custom scale "not used", so the call applies its default
              (huggingface/pytorch-image-models#2280)
  cute        cute.toml cute.kernel-arg-type: a value cast to cutlass.Int32/Float32 for cute.compile; cute.arch is explained_by it
              (Dao-AILab/flash-attention#2671)
  redirect    attention.toml attn.api-mismatch: an app's *_redirect / *_override of a backend's call refusing an argument
              (hiyouga/LlamaFactory#9368)
  nofa        frameworks.toml vllm.backend-fallback: GPUs that "get no FlashAttention backend" in a serving engine
              (1CatAI/1Cat-vLLM#612: an RFC, which explain refuses as a whole; the mechanism is kept for reports)
  njt         flex.toml flex.input-shape: flex_attention with NJTs and a shape error (pytorch/pytorch#153371); sdpa.toml
              sdpa.no-kernel: an argument "isn't supported" with jagged tensors + SDPA (pytorch/pytorch#153472)
"""

from __future__ import annotations

from each_case import each
from explain_top import assert_patterns_match_no_unrelated_log, first, ids

WRONG = "attn.wrong-output"

POSITIVES = [
    # device
    ("device-cut-title", "[CI] NotImplementedError: The operator 'aten::_scaled_dot_product_flash_attention_for_cpu_backward' is not cur",
     ("sdpa.op-not-on-device", "sdpa")),
    # mask
    ("mask-mudnn", "muDNN(v2500) ERROR# INVALID_PARAMETER in ScaledDotProductAttention::RunFlash, Reason:\n    Internal error 3d mask shape",
     ("sdpa.mask-size-mismatch", "sdpa")),
    # stride
    ("stride-dq", "RuntimeError: Expected dq_head_stride == q_head_stride to be true, but got false.  (Could this error message be improved?)",
     ("fa2.last-dim-contiguous", "fa2")),
    # long
    ("long-mps", "MPS out of memory at longer context lengths with F.scaled_dot_product_attention (16k tokens, fp16)",
     ("sdpa.math-fallback", "sdpa")),
    # notclose
    ("notclose-flex", "flex_attention with a sliding-window block mask on H20: test_builtin_score_mods fails\nAssertionError: Tensor-likes are not close!\n\nMismatched elements: 512 / 2048 (25.0%)\nGreatest absolute difference: 1.71 at index (0, 3, 7, 1)",
     (WRONG, "flex")),
    ("notclose-compiled", "test_flex_attention.py::TestFlexAttentionCUDA::test_kv_batch_broadcast_float16 FAILED\nAssertionError: Grad_Key Compiled error 3.2e-03 is greater than ref error 1.1e-05 by more than 5.0X.",
     (WRONG, "flex")),
    ("notclose-unsatisfactory", "flash_attn_varlen_func on gfx942: the outputs are unsatisfactory when compared with the eager reference",
     (WRONG, "fa2")),
    # converter
    ("converter-sage-trt", "SageAttention is not supported by TensorRT, so the exported engine runs plain attention",
     ("attn.onnx-export-unsupported", "sage")),
    # release
    ("release-mps", "Possible regression of torch.nn.functional.scaled_dot_product_attention on MPS in PyTorch 2.8",
     ("attn.release-regression", "sdpa")),
    # causal
    ("causal-fa2", "flash_attn 2.0's causal mask uses top-left alignment when seqlen_q != seqlen_k",
     ("attn.causal-alignment", "fa2")),
    # guard
    ("guard-kvcache", "flash_attn_with_kvcache was not imported but still ends up being called in the decode path",
     ("attn.import-guard", "fa2")),
    # npu
    ("npu-chinese", "请问 flash-attn 在 NPU 上不支持，微调时怎么关掉", ("fa2.platform-unsupported", "fa2")),
    ("npu-english", "Please turn off flash attention in the trainer because of the XPUs we train on", ("fa2.platform-unsupported", "fa2")),
    # rounding
    ("rounding-fa2", "FlashAttention uses a different algorithm (tiling and an online softmax), so small differences against the reference are expected",
     ("attn.backend-rounding", "fa2")),
    # sm
    ("sm-spark", "SageAttention 2.2 on a DGX Spark: its Triton kernel is not supported yet on sm121, so the per-thread quantisation fails",
     ("sage.arch-kernel", "sage")),
    # opfw
    ("opfw-words", "In xformers 0.0.29 op_fw comes back None when p > 0, so _dispatch_fw raises", ("xformers.no-operator", "xformers")),
    # scale
    ("scale-sdpa", "the scale argument was not forwarded to scaled_dot_product_attention, so it used the default 1/sqrt(head_dim)",
     ("attn.scale-mismatch", "sdpa")),
    # cute
    ("cute-window", "convert window_size_left to cutlass.Int32 for cute.compile (SM90 path)", ("cute.kernel-arg-type", "cute")),
    ("cute-before-arch", "FA4 fails on SM120 in the backward\n\n- cast softmax_scale to cutlass.Float32 for cute.compile", ("cute.kernel-arg-type", "cute")),
    # redirect
    ("redirect-xformers", "xformers on the NPU: TypeError: xformers_npu_override() got an unexpected keyword argument 'attn_bias'",
     ("attn.api-mismatch", "xformers")),
    ("redirect-typo", "TypeError: sdpa_npu_redirect() got an unexpected keyward argument 'enable_gqa' (transformers' scaled_dot_product_attention call)",
     ("attn.api-mismatch", "sdpa")),
    # nofa
    ("nofa-volta", "Volta cards get no FlashAttention backend in this vLLM build, so it picks TRITON_ATTN", ("vllm.backend-fallback", None)),
    # njt
    ("njt-flex", "flex_attention on nested tensors: shape mismatch when the head dim differs from the batch size", ("flex.input-shape", "flex")),
    ("njt-sdpa", "is_causal is not supported, a limit of jagged tensors with scaled_dot_product_attention today", ("sdpa.no-kernel", "sdpa")),
]

NEAR_MISSES = [
    # device: an exporter's refusal of the same op is no device's missing kernel
    ("device-exporter", "The operator 'aten::_scaled_dot_product_efficient_attention' is not supported by the ONNX exporter at opset 14",
     "sdpa.op-not-on-device"),
    # mask: the same vendor kernel refusing something else
    ("mask-other", "muDNN ERROR# INVALID_PARAMETER in ScaledDotProductAttention::RunMath, Reason: Internal error head dim 320", "sdpa.mask-size-mismatch"),
    # stride: another op's stride check
    ("stride-conv", "RuntimeError: Expected weight_stride == input_stride to be true, but got false.", None),
    # long: an OOM that names no attention call
    ("long-mlp", "CUDA out of memory with a longer context in the MLP layers of the decoder", "sdpa.math-fallback"),
    # notclose: a small greatest difference is rounding, however many elements; no attention named is nobody's
    ("notclose-rounding", "flex_attention with a sliding-window block mask in bf16: test_builtin_score_mods fails\nAssertionError: Tensor-likes are not close!\n\nMismatched elements: 1187 / 2048 (58.0%)\nGreatest absolute difference: 0.0039 at index (0, 1, 2, 3) (up to 1e-05 allowed)", WRONG),
    ("notclose-conv", "test_conv2d_cudnn fails on H20\nAssertionError: Tensor-likes are not close!\n\nMismatched elements: 900 / 1024 (87.9%)\nGreatest absolute difference: 2.5 at index (3, 1) (up to 1e-05 allowed)", None),
    ("notclose-smaller", "Grad_Query Compiled error 1.0e-05 is within 2.0X of ref error 9.0e-06", None),
    ("notclose-satisfactory", "the results are unsatisfactory compared with last year's model", None),
    # converter: another platform, not a converter
    ("converter-windows", "flash-attn is not supported on Windows without building it yourself", "attn.onnx-export-unsupported"),
    # release: no regression said
    ("release-none", "no regression in flex_attention with torch 2.9 on our benchmarks", "attn.release-regression"),
    # causal: the other corner
    ("causal-bottom-right", "the causal mask uses bottom-right alignment since flash-attn 2.1", "attn.causal-alignment"),
    # guard: imported and unused is no guard
    ("guard-unused", "flash_attn_func is imported but never used in this file", "attn.import-guard"),
    # npu: a CUDA GPU's missing feature
    ("npu-4090", "flash_attn 在 4090 上不支持 fp8 吗", "fa2.platform-unsupported"),
    # rounding: a different kernel that crashes
    ("rounding-crash", "xformers uses a different kernel on this GPU, and it crashes with an illegal memory access", "attn.backend-rounding"),
    # sm: said to be supported
    ("sm-supported", "SageAttention: the Triton kernel is supported on sm120 since 2.2", "sage.arch-kernel"),
    # opfw: the backward operator missing is not this wording
    ("opfw-set", "op_fw is set to Cutlass and op_bw to the Flash backward", "xformers.no-operator"),
    # scale: Tenstorrent's op ignoring its scale names no default of the seven's calls; a scale that is used
    ("scale-ttnn", "ttnn.transformer.scaled_dot_product_attention gives identical output with and without scale. It look likes `scale` attribute is not applied.",
     "attn.scale-mismatch"),
    ("scale-used", "the scale argument is used by scaled_dot_product_attention as given, not the default", "attn.scale-mismatch"),
    # cute: a cast in a score_mod, no compile argument
    ("cute-score-mod", "cast the mask to cutlass.Boolean inside the score_mod", "cute.kernel-arg-type"),
    # redirect: a function of no attention library
    ("redirect-url", "TypeError: url_redirect() got an unexpected keyword argument 'code'", None),
    # nofa: the backend is there
    ("nofa-h100", "H100 gets the FlashAttention backend by default in vLLM", "vllm.backend-fallback"),
    # njt: no shape error said
    ("njt-no-error", "flex_attention with nested tensors works, no shape error after 2.6", "flex.input-shape"),
    ("njt-dense", "attn_mask is supported with dense tensors in scaled_dot_product_attention", "sdpa.no-kernel"),
]


def _positive(text, want):
    entry, backend = want
    got = first(text)
    assert got[0] == entry and got[1] == backend, (got, ids(text))


def _near_miss(text, must_not):
    found = ids(text)
    assert (not found) if must_not is None else must_not not in found, found


def test_round201m_variants():
    each(((name, (text, want)) for name, text, want in POSITIVES), _positive)


def test_round201m_near_misses():
    each(((name, (text, must_not)) for name, text, must_not in NEAR_MISSES), _near_miss)


# Each pattern written here, found by a piece of its text, matches no unrelated log of any training round on its own (before
# ranking and attribution decide anything).
PIECES = {
    "sdpa.op-not-on-device": "The operator ['",
    "sdpa.mask-size-mismatch": "ScaledDotProductAttention::",
    "fa2.last-dim-contiguous": "_stride[ \\t]*==",
    "sdpa.math-fallback": "(?:larger|longer|long|bigger",
    WRONG: ("Tensor-likes are not close!?[ \\t]*\\n", "Compiled[ \\t]+error", "not[ \\t]+satisfactory|unsatisfactory"),
    "attn.onnx-export-unsupported": "(?:natively[ \\t]+|directly",
    "attn.release-regression": "(?:possible[ \\t]+|potential",
    "attn.causal-alignment": "left[ \\t]+align(?:ed|ment)",
    "attn.import-guard": "imported[ \\t]+but",
    "fa2.platform-unsupported": ("不支持|不兼容", "because[ \\t]+(?:of"),
    "attn.backend-rounding": "uses?[ \\t]+a[ \\t]+different",
    "sage.arch-kernel": "(?:Triton|CUDA)[ \\t]+kern[ae]ls?[ \\t]+(?:is|are)[ \\t]+(?:not[ \\t]+(?:usable",
    "xformers.no-operator": "\\bop_fw\\b",
    "attn.scale-mismatch": "(?:used|passed|applied|forwarded)",
    "cute.kernel-arg-type": "cute\\.compile",
    "attn.api-mismatch": "_(?:redirect",
    "vllm.backend-fallback": "no[ \\t]+(?:FlashAttention",
    "flex.input-shape": "(?:NJTs?",
    "sdpa.no-kernel": "(?:NJTs?",
}


def test_round201m_patterns_match_no_unrelated_log():
    assert_patterns_match_no_unrelated_log(PIECES)
