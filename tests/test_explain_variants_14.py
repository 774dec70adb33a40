"""Variants for round 14 (issue 23, helper ex14): the mechanisms fixtures/errors/round14/ (trainers', UIs' and model
repos' trackers, where the backend is named only through a wrapper's frames or words, or the error line is generic)
missed on main's rules.

Every case was written by hand for this round (2026-11-28) from the mechanism, NOT copied from a real thread:
another model, path, size, version, symbol or wording. Each positive case asserts the entry (one of a few acceptable
ids where two say the same) and the backend of the first problem that can be a failure's cause (None: no backend
of the seven); the near misses beside each mechanism assert what must NOT be claimed.

Mechanisms (knowledge file or module: entry):
  cut-tb     attribution/ nearest(): a report's title (the error) above a traceback that the paste cuts before an
             exception line of its own: that traceback's frames are the title's evidence
  unpad      attribution.toml fa2 shared names: transformers' FlashAttention unpadding helpers (_get_unpad_data,
             _upad_input, index_first_axis) and the nonzero(attention_mask.flatten()) line they raise from
  attn-key   attribution.toml fa2 files / sdpa names: the trainers' attn_impl / attn_implementation key in YAML, CLI
             or a sentence ("attn_impl: flash_attention_2", "--attn_impl sdpa", "attn_impl as sdpa")
  sage-ops   attribution.toml sage names: SageAttention's compiled ops by their C++ names in an extension's error
  sdpa-nan   sdpa.toml sdpa.backward-nan: SDPA / cuDNN attention / attn_impl sdpa said to lead to NaN loss or
             gradients; cuDNN SDPA's backward strides warning followed by a logged grad_norm of nan
  te-cudnn   frameworks.toml te.fused-attn-cudnn: TransformerEngine named with a cuDNN (frontend) error;
             NVTE_FUSED_ATTN=0 said to fix it
  vllm-enum  frameworks.toml vllm.backend-fallback: a model refusing vLLM's backend by its enum
             ("does not support _Backend.X backend")
  xf-gpu     xformers.toml xformers.gpu-too-old: "xformers ... no longer supports my GPU ... capability" in words
  arch-fatal xformers.toml xformers.kernel-arch-mismatch (after review; first build.arch-list-leaves-out-gpu, whose arch-list
             fix is right for only one of the message's two meanings): the CUTLASS kernel's "FATAL: kernel `...` is for smA-smB, but
             was built for smC" (the build's arch list left the GPU out)
  ad-launch  attention.toml attn.kernel-launch-error: xformers' frames then "CUDA error: invalid configuration argument";
             AnimateDiff's "An xformers bug was encountered in AnimateDiff" and its retelling
  crash      attention.toml attn.native-crash: a backend (a node named after it) said to crash, with the interpreter's
             fatal error in the sentence
  guard      attention.toml attn.import-guard: "X is not available, but is needed/required"; a mode selected "without
             having it installed"
  bad-out    attention.toml attn.wrong-output: FlashInfer / vLLM's Triton attention generating bad output (no backend of
             the seven); a backend returning zero output or gradients
  fp-assert  flash_attn.toml fa2.dtype: a flash-attn model's fp16/bf16 assertion in words
  off        attribution/ _scrub: "when flash attention is turned off" names no failing backend
  stub       attention.toml attn.import-guard: a wrapper's stub raising "NotImplementedError: flash_attn not available"
  dispatch   xformers.toml xformers.no-operator: a traceback the paste cuts in xformers' operator dispatcher
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids, tb


HF = "/opt/conda/lib/python3.11/site-packages/transformers"


@pytest.mark.parametrize("text,ids,backend", [
    # cut-tb: a title over a traceback that ends inside the flash-attn frames
    ("CUDA error: an illegal memory access was encountered while training Qwen2.5-Omni\n\n"
     + tb((f"{HF}/modeling_flash_attention_utils.py", 512, "_flash_attention_forward",
           "attn_output = flash_attn_varlen_func("),
          ("/opt/conda/lib/python3.11/site-packages/flash_attn/flash_attn_interface.py", 1443, "flash_attn_varlen_func",
           "return FlashAttnVarlenFunc.apply(")),
     {"cuda.kernel-fault"}, "fa2"),
    # unpad: the helper frames and the line they raise from, cut before the error
    ("RuntimeError: CUDA error: device-side assert triggered\n"
     + tb((f"{HF}/modeling_flash_attention_utils.py", 94, "_get_unpad_data",
           "indices = torch.nonzero(attention_mask.flatten(), as_tuple=False).flatten()")),
     {"cuda.kernel-fault", "cuda.device-assert"}, "fa2"),
    (tb((f"{HF}/models/llama/modeling_llama.py", 610, "_upad_input",
         "query_layer = index_first_axis(query_layer.reshape(batch_size * kv_seq_len, -1, head_dim), indices_k)"),
        error="RuntimeError: CUDA error: an illegal memory access was encountered"),
     {"cuda.kernel-fault"}, "fa2"),
    # attn-key + sdpa-nan: the short key in a sentence and in YAML
    ("with attn_implementation set to sdpa the Gemma 3 run leads to NaN after the warmup; eager trains fine",
     {"sdpa.backward-nan"}, "sdpa"),
    ("model:\n  attn_impl: sdpa\n...\nstep 12: loss nan. cuDNN attention causes NaN gradients on our B200 nodes",
     {"sdpa.backward-nan"}, "sdpa"),
    # sdpa-nan: the log form (another torch line, another loss)
    ("/usr/lib/python3/site-packages/torch/autograd/graph.py:829: UserWarning: cuDNN SDPA backward got "
     "grad_output.strides() != output.strides(), attempting to materialize a grad_output with matching strides...\n"
     "  return Variable._execution_engine.run_backward(\n"
     "{'loss': 0.0, 'grad_norm': nan, 'learning_rate': 9.8e-06, 'epoch': 0.12}",
     {"sdpa.backward-nan"}, "sdpa"),
    # sage-ops: the extension's C++ op name alone
    ("RuntimeError: void quant_per_block_int8_cuda(at::Tensor, at::Tensor, at::Tensor, double, int64_t, int64_t) "
     "failed to dispatch data type Float",
     # (helper ex34: sage.fused-dtype-dispatch, written from deepbeepmeep/Wan2GP#712, is this op's refusal)
     {"triage.error-names-backend", "sage.dtype", "attn.dtype", "sage.fused-dtype-dispatch"}, "sage"),
    # te-cudnn
    ("Training Llama 3 70B with Transformer Engine 1.12 stops with a cuDNN error in fused attention on H20",
     {"te.fused-attn-cudnn"}, None),
    ("export NVTE_FUSED_ATTN=0 and the crash went away, though step time got worse",
     {"te.fused-attn-cudnn"}, None),
    # vllm-enum
    ("ValueError: Gemma3 vision tower does not support _Backend.TORCH_SDPA backend yet.",
     {"vllm.backend-fallback"}, None),
    # xf-gpu
    ("pip pulled xformers 0.0.30 which doesn't support my GPU anymore (compute capability 7.0, a V100)",
     {"xformers.gpu-too-old"}, "xformers"),
    # arch-fatal
    ("FATAL: kernel `fmha_cutlassF_bf16_aligned_64x128_rf_sm80` is for sm80-sm100, but was built for sm70",
     {"xformers.kernel-arch-mismatch"}, "xformers"),
    # ad-launch
    (tb(("/home/u/sd/ComfyUI/comfy/ldm/modules/attention.py", 388, "attention_xformers",
         "out = xformers.ops.memory_efficient_attention(q, k, v, attn_bias=None)"),
        error="RuntimeError: CUDA error: invalid configuration argument"),
     {"attn.kernel-launch-error"}, "xformers"),
    ("!!! Exception during processing !!! An xformers bug was encountered in AnimateDiff - disable xformers for AD to run",
     {"attn.kernel-launch-error"}, "xformers"),
    ("another xformers bug with AnimateDiff-Evolved at 48 frames, same invalid configuration",
     {"attn.kernel-launch-error"}, "xformers"),
    # crash
    ("loading flash_attn in the sampler node crashes python instantly with Fatal Python error: Segmentation fault",
     {"attn.native-crash"}, "fa2"),
    # guard
    ("ImportError: xformers is not available, but it is required for memory efficient attention in this pipeline",
     {"attn.import-guard"}, "xformers"),
    ("you probably selected flash_attn in the loader without having it installed",
     {"attn.import-guard"}, "fa2"),
    # bad-out: no backend of the seven; a backend of the seven returning zeros
    ("on 0.10 the TRITON_ATTN backend gives garbled output for Qwen3 after 2k tokens",
     {"attn.wrong-output"}, None),
    ("xformers returns all zero output when the BlockDiagonalMask has an empty segment", {"attn.wrong-output"}, "xformers"),
    # stub
    ("!!! Exception during processing !!! NotImplementedError: sageattn is not available", {"attn.import-guard"}, "sage"),
    # dispatch: cut at the dispatcher's frame, or at the line that calls it, with a fence after it
    ("Error occurred when executing KSamplerAdvanced:\n\n"
     + tb(("/content/ComfyUI/comfy/ldm/modules/attention.py", 301, "attention_xformers",
           "out = xformers.ops.memory_efficient_attention(q, k, v, attn_bias=mask)"),
          ("/usr/local/lib/python3.10/dist-packages/xformers/ops/fmha/dispatch.py", 63, "_run_priority_list",
           "raise NotImplementedError(msg)")),
     {"xformers.no-operator"}, "xformers"),
    ("```\n" + tb(("/srv/venv/lib/python3.11/site-packages/xformers/ops/fmha/__init__.py", 412,
                    "_memory_efficient_attention_forward", "op = _dispatch_fw(inp, False)")) + "\n```\n",
     {"xformers.no-operator"}, "xformers"),
    # fp-assert
    ("after peft wraps it the flash-attention encoder fails the fp16 or bf16 assertion since q is float32",
     {"fa2.dtype"}, "fa2"),
])
def test_mechanism(text, ids, backend):
    got = _top(text)
    assert got[0] in ids and got[1] == backend, got


@pytest.mark.parametrize("text,absent", [
    # sdpa-nan: a forward NaN of SDPA (fully masked rows) is not its backward; NaN without SDPA; a fix that removed NaN
    ("SDPA returns NaN for rows where the mask blocks every key", "sdpa.backward-nan"),
    ("the loss goes to NaN at step 300 with bf16, fp32 is fine", "sdpa.backward-nan"),
    ("cuDNN SDPA backward got grad_output.strides() != output.strides(), attempting to materialize\n{'loss': 1.93, 'grad_norm': 0.41}",
     "sdpa.backward-nan"),
    # te-cudnn: TransformerEngine without a cuDNN error; NVTE_FUSED_ATTN=0 that did not help
    ("TransformerEngine 1.12 installed fine, training runs", "te.fused-attn-cudnn"),
    ("NVTE_FUSED_ATTN=0 did not change anything", "te.fused-attn-cudnn"),
    # vllm-enum: a model refusing a feature, not a backend
    ("ValueError: Qwen2-VL does not support LoRA for the vision tower", "vllm.backend-fallback"),
    # xf-gpu: xformers supporting the GPU; the GPU unsupported by another library
    ("xformers supports my GPU fine (capability 8.6)", "xformers.gpu-too-old"),
    ("bitsandbytes does not support my GPU with compute capability 3.5", "xformers.gpu-too-old"),
    # arch-fatal: another FATAL
    ("FATAL: kernel fmha_cutlassF is not supported on this device", "xformers.kernel-arch-mismatch"),
    ("FATAL: module 'mpi' failed to load", "xformers.kernel-arch-mismatch"),
    # ad-launch: the error without xformers near it; a bug report about AnimateDiff that is not xformers'
    ("RuntimeError: CUDA error: invalid configuration argument\nin torch.nn.functional.interpolate", "attn.kernel-launch-error"),
    ("AnimateDiff bug: the context window ignores the overlap setting", "attn.kernel-launch-error"),
    # crash: a backend that stopped the crash
    ("installing sageattention fixed the Fatal Python error: Aborted we had with the old build", "attn.native-crash"),
    # guard: a backend available; an install instruction; a plain NoneType error
    ("Flash Attention is available and will be used for dense attention", "attn.import-guard"),
    ("TypeError: 'NoneType' object is not callable", "attn.import-guard"),
    # bad-out: FlashInfer fine; a backend returning its output
    ("the FlashInfer backend generates correct output once the sampler is fixed", "attn.wrong-output"),
    ("scaled_dot_product_attention returns output of shape (2, 8, 128, 64)", "attn.wrong-output"),
    # stub: another NotImplementedError of the backend is no import guard
    ("NotImplementedError: flash_attn varlen with alibi is not implemented on ROCm", "attn.import-guard"),
    # dispatch: a traceback through the dispatcher that ends in another error
    (tb(("/x/xformers/ops/fmha/__init__.py", 412, "_memory_efficient_attention_forward", "op = _dispatch_fw(inp, False)"),
        error="torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"), "xformers.no-operator"),
    # fp-assert: the assertion of another library
    ("bitsandbytes trips the fp16/bf16 assertion in its 8-bit optimizer", "fa2.dtype"),
])
def test_near_miss(text, absent):
    assert absent not in _ids(text), _ids(text)


def test_cut_traceback_only_when_it_is_cut():
    # cut-tb: a traceback with its own exception line below the title is the evidence of that exception, not the title's
    text = ("CUDA error: an illegal memory access was encountered\n\n"
            + tb(("/x/flash_attn/flash_attn_interface.py", 90, "_flash_attn_forward", "out = flash_attn_cuda.fwd("),
                 error="ValueError: some other error"))
    from attn_doctor.knowledge.attribution import _cut_traceback
    lines = text.split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith("Traceback"))
    assert not _cut_traceback(lines, start)
    assert _cut_traceback(lines[:-1], start)


def test_switched_off_backend_is_not_the_failing_one():
    # off: the failing path is the one without flash attention; with it on the same words name it
    from attn_doctor.knowledge.attribution import _scrub

    assert "flash" not in _scrub("the loss is NaN when flash attention is turned off").lower()
    assert "flash" in _scrub("the loss is NaN when flash attention is turned on").lower()
    assert "flash" in _scrub("flash attention off-by-one in the mask").lower()
