"""Variants for helper ex80 (session 12): the mechanisms behind round 73m's misses (fixtures/errors/round73m, training
material since ex80).

Every case was written by hand (2026-11-29): other paths, versions, symbols, programs and wordings than the fixtures. The
positives name what explain must report first (entry, backend); the near misses what it must not claim.

Mechanisms (knowledge file: rule):
  dep        attribution.toml [entry_takes_over] flex.no-triton = fa2, cute and [[specialize]] flex.no-triton -> import.dep-missing
             for fa2, cute, sage: "No module named 'triton'" under flash-attn's (or FA4's, SageAttention's) own import is that
             backend's missing dependency, not FlexAttention's compiler (flash-attention#757, HunyuanVideo#110)
  engine     attention.toml attn.api-mismatch (a constructor: `Attention...Impl.__init__() got an unexpected keyword argument`) and
             attribution.toml [[evidence_backend]] attn.api-mismatch -> none: a serving engine's own attention backend class is
             no backend of the seven (vllm#22383)
  dispatch   sdpa.toml sdpa.no-kernel: "No available kernel ... dispatch" is torch's SDPA dispatch (torch-xpu-ops#4201)
  cudnn      sdpa.toml sdpa.cudnn: a title naming SDPA's cuDNN attention and a failure (HunyuanVideo#77, pytorch#139298); not
             TransformerEngine's fused attention nor JAX's, not a title that denies an error; NaN gradients stay sdpa.backward-nan's
  symbol     backends.toml import.undefined-symbol: the loader's failure told in words, a backend named (Isaac-GR00T#474)
  musubi     sage.toml sage.training: a musubi-tuner / sd-scripts *train_network.py launched with --sage_attn (musubi-tuner#158)
  noop       xformers.toml xformers.not-compiled: "No such operator xformers" with the operator left out (lora-scripts#81)
  opns       sage.toml sage.arch-kernel: the family's torch op namespace without the kernel asked for (Wan2GP#1814)
  dtype      flash_attn.toml fa2.dtype: flash-attn's own dtype assertion, flash-attn named in the text (flash-attention#9)
  tooold     attribution.toml [[specialize]] backend.unsupported-gpu (xformers, "(too old)") -> xformers.gpu-too-old (Trellis2#77)
  words      attention.toml attn.api-mismatch (an interface said to take only other arguments: long-context-attention#142),
             attn.wrong-output (a backend said not to work correctly under a mask: Ascend/pytorch#88), flex.toml
             flex.captured-buffer-grad (flex_attention's backward failing where its tensors require grad: pytorch#148112),
             wheels.toml install.no-distribution (no wheel of the requested version exists: DazzleML installer#19)
"""

from __future__ import annotations

import pytest

from explain_top import first_cause, ids, tb


@pytest.mark.parametrize("text, want", [
    # dep: flash-attn's Triton ops, FA4, SageAttention importing a Triton that is not installed
    (tb(("/opt/conda/lib/python3.11/site-packages/flash_attn/ops/triton/layer_norm.py", 9, "<module>", "import triton"),
        error="ModuleNotFoundError: No module named 'triton'"), ("import.dep-missing", "fa2")),
    (tb(("/srv/venv/lib/python3.12/site-packages/flash_attn/layers/rotary.py", 8, "<module>",
         "from flash_attn.ops.triton.rotary import apply_rotary"),
        ("/srv/venv/lib/python3.12/site-packages/flash_attn/ops/triton/rotary.py", 6, "<module>", "import triton"),
        error="ModuleNotFoundError: No module named 'triton'"), ("import.dep-missing", "fa2")),
    ("Failed to import SageAttention: No module named 'triton' (ComfyUI portable, python_embeded)", ("import.dep-missing", "sage")),
    # engine: a serving engine's attention backend class constructed with an argument it does not take
    ("TypeError: FlashAttentionImpl.__init__() got an unexpected keyword argument 'sinks'", ("attn.api-mismatch", None)),
    ("(EngineCore_DP0 pid=412) TypeError: TritonAttentionImpl.__init__() got an unexpected keyword argument 'kv_sharing_target_layer_name'",
     ("attn.api-mismatch", None)),
    # dispatch
    ("No available kernel for flash attention dispatch on Arc B580", ("sdpa.no-kernel", "sdpa")),
    ("RuntimeError: no available kernel found while dispatching scaled attention (head_dim=320, xpu)", ("sdpa.no-kernel", "sdpa")),
    # cudnn: titles
    ("torch 2.5.1 cudnn attention error on H100 in the text encoder\n\nDowngrading torch to 2.4 fixes it.", ("sdpa.cudnn", "sdpa")),
    ("cudnn attention on H100 crashes with an illegal memory access in the text encoder", ("sdpa.cudnn", "sdpa")),
    # ... but NaN gradients out of it stay sdpa.backward-nan's
    ("cuDNN SDPA gives NaN in backward with bf16 after a few thousand steps", ("sdpa.backward-nan", "sdpa")),
    ("[Bug] sdpa via cudnn crashes when the mask is padded", ("sdpa.cudnn", "sdpa")),
    # symbol: told in words with a backend named
    ("the sageattention wheel installs, but importing it fails to find a symbol in _qattn_sm89", ("import.undefined-symbol", "sage")),
    ("xformers 0.0.33 can't find a C++ symbol at import after moving to torch 2.10", ("import.undefined-symbol", "xformers")),
    # musubi: a training launch that selects SageAttention
    ("accelerate launch --num_cpu_threads_per_process 1 src/musubi_tuner/qwen_image_train_network.py \\\n"
     "  --dit qwen_image_bf16.safetensors \\\n  --sage_attn \\\n  --network_module networks.lora_qwen_image", ("sage.training", "sage")),
    # noop
    ("RuntimeError: No such operator xformers - training stops at the first step", ("xformers.not-compiled", "xformers")),
    # opns
    ("AttributeError: '_OpNamespace' 'sageattention_qattn_sm90' object has no attribute 'qk_int8_sv_f8_accum_f32_attn_inst_buf'",
     ("sage.arch-kernel", "sage")),
    # dtype
    (tb(("/home/u/venv/lib/python3.9/site-packages/flash_attn/flash_attention.py", 24, "forward",
         "assert qkv.dtype == torch.float16"), error="AssertionError"), ("fa2.dtype", "fa2")),
    # tooold: xformers' own operator reason for a GPU older than the operator needs
    ("`fa2F@2.5.7` is not supported because:\n    requires device with capability > (8, 0) but your GPU has capability (6, 1) (too old)",
     ("xformers.gpu-too-old", "xformers")),
    # words
    ("Since flash attn 2.7 the interface only takes softcap as a keyword argument, so this call breaks", ("attn.api-mismatch", "fa2")),
    ("flex_attention errors in backward when the captured bias tensors require grad", ("flex.captured-buffer-grad", "flex")),
    ("scaled_dot_product_attention isn't correct with a boolean attn_mask on npu", ("attn.wrong-output", "sdpa")),
    ("the installer asks for xformers 0.0.28 but no wheel exists for torch 2.9 + cu130, so it reports a compile failure",
     ("install.no-distribution", "xformers")),
])
def test_round73m_mechanism_variants(text, want):
    assert first_cause(text) == want, ids(text)


@pytest.mark.parametrize("text, must_not", [
    # dep: Triton missing where Inductor (FlexAttention's compiler) imports it stays FlexAttention's
    (tb(("/venv/lib/python3.12/site-packages/torch/_inductor/runtime/triton_heuristics.py", 30, "<module>", "import triton"),
        error="ModuleNotFoundError: No module named 'triton'"), "import.dep-missing"),
    # engine: a model's own attention class stays an attention API mismatch only where it is one (not any class's __init__)
    ("TypeError: Blocks.__init__() got an unexpected keyword argument 'analytics_enabled'", "attn.api-mismatch"),
    # cudnn: TransformerEngine's fused attention, a title that denies an error
    ("TransformerEngine cudnn attention error with the THD layout", "sdpa.cudnn"),
    ("cudnn attention runs without any errors but is slower than flash", "sdpa.cudnn"),
    # musubi: the generate script takes --sage_attn rightly; a training launch with --sdpa
    ("python src/musubi_tuner/wan_generate_video.py --task t2v-14B --sage_attn --save_path out", "sage.training"),
    ("python wan_train_network.py --sdpa --fp8_base\n\npython wan_generate_video.py --sage_attn", "sage.training"),
    # dtype: a bare assertion with no flash-attn named is anybody's
    ("assert q.dtype == torch.float16\nAssertionError", "fa2.dtype"),
    # tooold: "(too new)" is not a GPU too old
    ("requires device with capability < (5, 0) but your GPU has capability (12, 0) (too new)", "xformers.gpu-too-old"),
    # words: captured tensors that do not require grad; a backend that works with a mask
    ("flex_attention works when the captured tensors do not require grad", "flex.captured-buffer-grad"),
    ("flash attention only accepts fp16 and bf16 tensors", "attn.api-mismatch"),
])
def test_round73m_near_misses(text, must_not):
    assert must_not not in ids(text), ids(text)
