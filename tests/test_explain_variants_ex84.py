"""Variants for helper ex84 (session 13): the mechanisms behind round 81m's misses (fixtures/errors/round81m, gathered blind by
ex81m in session 12, training material since ex84).

Every case was written by hand (2026-11-29): other paths, versions, models, ops and wordings than the fixtures. The positives
name what explain must report first (entry, backend); the near misses what it must not claim.

Mechanisms (knowledge file: rule):
  selector   frameworks.toml vllm.backend-fallback: vLLM's assertion that a chosen backend runs on one device only ("Torch SDPA
             backend is only used for the CPU device", vllm#9096)
  ignored    frameworks.toml app.backend-selection-ignored: the implementation asked for said not to be applied (unsloth#2177)
  wrong      attention.toml attn.wrong-output: a title's noun phrase "<backend> incorrect results when ..." (pytorch#108503); a
             "quality crash" said of the backend run (vllm-omni#2990); an attention call pasted as code with "the result is
             different" under it (paged-attention-minimal#3); a significant (not slight) discrepancy against a named reference
             (flashattention2-custom-mask#18)
  blockmask  flex.toml flex.block-mask-shape: a BlockMask created for fixed Q_LEN/KV_LEN, wrong at another length; reusing one
             block mask for shorter inputs (attention-gym#34)
  windows    sdpa.toml sdpa.built-without-flash: SDPA on Windows said to fall back to its memory-efficient kernel (VDN-H3#1)
  gcc        builds.toml build.gcc-unsupported: the build goes through only with a downgraded gcc (xformers#962)
  title      builds.toml build.compile-failed: a report titled with setuptools' "building '<ext>' extension" step of an attention
             library's extension (flash-attention#267)
  uv         builds.toml build.isolation: uv's "Build backend failed to determine extra requires with `build_wheel()`" for an
             attention library, no other exception shown (uv#7015)
  engine     attribution.toml [[generalize]] flex.shared-memory -> triton.out-of-resources where the nearest library named is an
             attention kernel outside the seven (vLLM's unified Triton attention, its names rule) (vllm#57712)
  bytes      triton.toml triton.out-of-resources: a config's shared memory in bytes against the limit; FlexAttention's is
             flex.shared-memory ([[specialize]]) (pytorch#198228)
  cure       attribution/ CHANGED_TO_AVOID: the backend a setting is changed TO in order to avoid a failure is the cure;
             attribution.toml: VLLM_ATTENTION_BACKEND names the engine's own attention; cuda.toml cuda.kernel-fault: a change
             made to avoid an illegal memory access (verl#113)
  causal     attention.toml attn.causal-alignment: the mask said to be wrong in an attention call, a KV cache in the report
             (pytorch#110144)
  flag       frameworks.toml transformers.remote-code-attn-flag and its [[evidence_backend]] rows: a remote-code class without the
             attention flag a newer transformers reads (ComfyUI-Florence2#174)
  npu        accelerators.toml npu.fused-attention-wrong-output: torch_npu's fused attention said to ignore a mask or return wrong values
             (vllm-ascend#15503)
  packing    trainers.toml config.packing-contamination (said in words) and attribution.toml [never]: sample packing without
             flash attention (axolotl#449)
             and [[evidence_backend]] none where the sentence says packing needs flash attention or runs without it
  checkbox   accelerators.toml: an issue template's unticked "- [ ] macOS" is no Apple platform evidence (axolotl#449)
  int32      attention.toml attn.int32-overflow: the failure's threshold said as a sequence length where L*L crosses 2**31 or
             2**32 (46341.., 65536), a failure or a mask on the line (pytorch#145040, #147585)
  noext      flash_attn.toml fa2.no-extension: flash-attn's compiled extension said in words to be missing (flash-attention#2343)
  compared   attribution/ COMPARED_TO: the backend a result is compared to is the reference; attribution.toml "other": a
             FlashAttention written anew in Triton by another project (flashattention2-custom-mask#18)
  amdtriton  flash_attn.toml fa2.triton-amd-off-amd: flash-attn's Triton AMD backend run on an NVIDIA GPU (flash-attention#1595)
  sliced     flex.toml flex.sliced-block-mask: a sliced BlockMask's mask_mod replaced by noop_mask (pytorch#164702)
  placement  attribution.toml "foreign": torch's device check naming a non-attention op ("in method wrapper_CUDA_nll_loss_forward");
             prose.toml NUMBERS: a device, version, dtype or shape mismatch is no wrong numbers (unrelated/: lmppl#12)
"""

from __future__ import annotations

import pytest

from explain_top import first_cause, ids, tb


@pytest.mark.parametrize("text, want", [
    # selector
    ("ERROR 03-02 10:11:12 engine.py:366] AssertionError: Torch SDPA backend is only used for the CPU device.",
     ("vllm.backend-fallback", None)),
    ("AssertionError: IPEX backend is only supported on the XPU device", ("vllm.backend-fallback", None)),
    # ignored
    ("model = AutoModelForCausalLM.from_pretrained(path, attn_implementation=\"flash_attention_2\")\n\n"
     "but the requested attention implementation is not being applied: the model still runs sdpa", ("app.backend-selection-ignored", "fa2")),
    # wrong: title noun phrase
    ("flash_attn_varlen_func wrong outputs when cu_seqlens has a zero-length sequence", ("attn.wrong-output", "fa2")),
    ("memory_efficient_attention incorrect gradients with an additive bias on A100", ("attn.wrong-output", "xformers")),
    # wrong: quality crash
    ("Wan 2.1 with sageattn 2.2 on an RTX 4090: video quality collapses after 20 frames", ("attn.wrong-output", "sage")),
    ("xformers 0.0.30 causes a quality breakdown in SDXL upscales", ("attn.wrong-output", "xformers")),
    # wrong: code, then the result differs
    ("    out_ref = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)\n    out = my_kernel(q, k, v, mask)\n\n"
     "the outputs are not the same", ("attn.wrong-output", "sdpa")),
    ("o = flash_attn_varlen_func(q, k, v, cu_q, cu_k, max_q, max_k, causal=True)\n```\nBut the results are wrong.",
     ("attn.wrong-output", "fa2")),
    # wrong: a significant discrepancy against a reference
    ("FlexAttention shows large numerical differences compared to eager attention at 32k tokens", ("attn.wrong-output", "flex")),
    # blockmask
    ("mask = create_block_mask(doc_mask, None, None, Q_LEN=16384, KV_LEN=16384, device='cuda')\n"
     "y = flex_attention(q, k, v, block_mask=mask)\n\nResults are incorrect for seq_len 4096 inputs.", ("flex.block-mask-shape", "flex")),
    ("Can I reuse one BlockMask for shorter sequences, or must it be rebuilt per batch?", ("flex.block-mask-shape", "flex")),
    # windows
    ("PyTorch SDPA falls back to the math kernel on Windows here, so the node is slow", ("sdpa.built-without-flash", "sdpa")),
    ("on Windows the SDPA call falls back to memory-efficient attention (no flash kernel in the wheel)", ("sdpa.built-without-flash", "sdpa")),
    # gcc
    ("Building sageattention from source only works if I downgrade gcc; with gcc 14 nvcc stops", ("build.gcc-unsupported", "sage")),
    ("pip install flash-attn --no-build-isolation fails until I downgrade g++ to 12", ("build.gcc-unsupported", "fa2")),
    # title
    ("building 'xformers._C' extension\n\nThe build stops here on Ubuntu 24.04 with CUDA 12.8", ("build.compile-failed", "xformers")),
    # uv
    ("$ uv pip install xformers==0.0.28\nerror: Failed to prepare distributions\n  Caused by: Failed to fetch wheel: xformers==0.0.28\n"
     "  Caused by: Build backend failed to determine extra requires with `build_wheel()` with exit status: 1", ("build.isolation", "xformers")),
    # engine: a bare OutOfResources beside an engine's own Triton attention
    ("SGLang's Triton attention backend fails on a T4 at startup:\n\n"
     "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 81920, Hardware limit: 65536. "
     "Reducing block sizes or `num_stages` may help.", ("triton.out-of-resources", None)),
    ("vLLM 0.11 on a V100: the triton_unified_attention kernel does not fit\n"
     "out of resource: shared memory, Required: 131072, Hardware limit: 98304", ("triton.out-of-resources", None)),
    # bytes
    ("flex_attention backward on an RTX 4090: the default config needs 131072 bytes of shared memory, more than the 101376 limit",
     ("flex.shared-memory", "flex")),
    ("Our Triton kernel uses 114688 bytes of shared memory, above the hardware limit of 101376 on sm_120", ("triton.out-of-resources", None)),
    # cure
    ("fix: set VLLM_ATTENTION_BACKEND to FLASHINFER to avoid an illegal memory access in the rollout", ("cuda.kernel-fault", None)),
    # causal
    ("is_causal mask seems wrong in scaled_dot_product_attention for chunked decoding\n\n"
     "With past_key_values of 10 tokens and 3 new queries, the new queries cannot see the cache.", ("attn.causal-alignment", "sdpa")),
    # flag
    ("  File \"/root/.cache/huggingface/modules/transformers_modules/Phi-3-vision/modeling_phi3_v.py\", line 1210, in __init__\n"
     "AttributeError: 'Phi3VForCausalLM' object has no attribute '_supports_flash_attn_2'", ("transformers.remote-code-attn-flag", "fa2")),
    ("AttributeError: 'MolmoForCausalLM' object has no attribute '_supports_sdpa'. Did you mean: '_supports_sdpa_attention'?",
     ("transformers.remote-code-attn-flag", "sdpa")),
    # npu
    ("torch_npu.npu_fusion_attention gives wrong results for sequences longer than 2048 with a bool atten_mask",
     ("npu.fused-attention-wrong-output", None)),
    # packing
    ("Flash attention must be enabled when using sample packing, otherwise the packed samples see each other",
     ("config.packing-contamination", None)),
    ("We should not enable sample_packing without flash attention: packed samples leak into each other", ("config.packing-contamination", None)),
    # int32
    ("SDPA with an attn_mask raises CUDA error: an illegal memory access was encountered when seq_len=46345; 46340 is fine",
     ("attn.int32-overflow", "sdpa")),
    ("flex_attention backward fails once kv_len reaches 65536 with a document mask", ("attn.int32-overflow", "flex")),
    # noext
    ("After building on ROCm 6.4 the compiled extension flash_attn_2_cuda is not found, though flash_attn imports", ("fa2.no-extension", "fa2")),
    # compared
    ("My Triton-based FlashAttention 2 kernel shows significant discrepancies compared with torch SDPA at 32k tokens",
     ("attn.wrong-output", None)),
    ("xformers gives large numerical differences versus SDPA for fp16 inputs", ("attn.wrong-output", "xformers")),
    # amdtriton
    ("Is FLASH_ATTENTION_TRITON_AMD_ENABLE=TRUE meant to work on an A100? the varlen backward disagrees with the CUDA build",
     ("fa2.triton-amd-off-amd", "fa2")),
    ("With an RTX 3090 I switched on flash_attn_triton_amd to get the Triton decode kernel; outputs are garbage",
     ("fa2.triton-amd-off-amd", "fa2")),
    # sliced
    ("Slicing a BlockMask per head drops the mask_mod (it becomes noop_mask), so my sliding window is ignored", ("flex.sliced-block-mask", "flex")),
])
def test_round81m_mechanism_variants(text, want):
    assert first_cause(text) == want, ids(text)


@pytest.mark.parametrize("text, must_not", [
    # selector: a sentence about where a backend runs best is no assertion
    ("The FlashInfer backend is fast on the GPU but slow elsewhere", "vllm.backend-fallback"),
    # ignored: an implementation that is applied
    ("the specified attention implementation is applied as expected", "app.backend-selection-ignored"),
    # wrong: "no quality loss" / "without quality degradation"; slight differences stay rounding; results the same
    ("SageAttention 2 gives a 2x speedup with no quality loss", "attn.wrong-output"),
    ("sageattn runs without quality degradation on Wan 2.2", "attn.wrong-output"),
    ("out = F.scaled_dot_product_attention(q, k, v)\n\nThe result is the same as the math kernel.", "attn.wrong-output"),
    ("there is no significant difference compared to sdpa", "attn.wrong-output"),
    # blockmask: a block mask built for the lengths it is used with
    ("bm = create_block_mask(causal, None, None, Q_LEN=2048, KV_LEN=2048)\nout = flex_attention(q, k, v, block_mask=bm)\nworks fine",
     "flex.block-mask-shape"),
    # windows: Linux falls back too, but says nothing of Windows
    ("SDPA falls back to the math kernel for fp32 inputs on Linux", "sdpa.built-without-flash"),
    # gcc: upgrading gcc, or gcc named without a downgrade
    ("I upgraded gcc to 13 and the build still works", "build.gcc-unsupported"),
    # title: a line in the middle of a log, not the title; another package's extension
    ("running build_ext\nbuilding 'flash_attn_2_cuda' extension\ncreating build/temp.linux-x86_64-cpython-310", "build.compile-failed"),
    ("building 'pytorch3d._C' extension\n\nfails on Windows", "build.compile-failed"),
    # uv: an exception shown under it says the cause
    ("  Caused by: Failed to fetch wheel: flash-attn==2.7.4\n  Caused by: Build backend failed to determine extra requires with "
     "`build_wheel()` with exit status: 1\n--- stderr:\nOSError: CUDA_HOME environment variable is not set.", "build.isolation"),
    # engine: a FlexAttention kernel out of shared memory stays FlexAttention's
    ("torch.compile(flex_attention) on an RTX 3090:\ntriton.runtime.errors.OutOfResources: out of resource: shared memory, "
     "Required: 139264, Hardware limit: 101376. Reducing block sizes or `num_stages` may help.", "triton.out-of-resources"),
    # cure: the backend changed to still names the failing one when it fails
    ("fix: change the attention backend to xformers to avoid an illegal memory access", "prose.crash"),
    # causal: a mask said to be wrong with no cache in sight
    ("The causal mask is wrong in SDPA when the batch has padding", "attn.causal-alignment"),
    # flag: a model's flag read rightly
    ("model._supports_sdpa is True for Qwen2", "transformers.remote-code-attn-flag"),
    # npu: the op working
    ("npu_fusion_attention matches the reference within 1e-3", "npu.fused-attention-wrong-output"),
    # packing: packing with flash attention on
    ("sample_packing: true\nflash_attention: true\ntraining runs fine", "config.packing-contamination"),
    # int32: vLLM's KV-cache capacity message, a config line beside an OOM, a length far from the thresholds
    ("ValueError: The model's max seq len (131072) is larger than the maximum number of tokens that can be stored in KV cache "
     "(65536). Try increasing `gpu_memory_utilization`", "attn.int32-overflow"),
    ("max_seq_len: 65536\nerror: CUDA out of memory", "attn.int32-overflow"),
    ("SDPA fails with an error when seq_len=8192 and a mask", "attn.int32-overflow"),
    ("flex_attention backward hits an illegal memory access when seq_len > 65536 (torch 2.9.1, H200)", "attn.int32-overflow"),
    # noext: the extension there
    ("flash_attn_2_cuda is available and imports fine", "fa2.no-extension"),
    # placement: a device mismatch in a loss beside a backend's name is the caller's placement
    ("fixed device mismatch when using xformers\n\nRuntimeError: Expected all tensors to be on the same device, but found at least two "
     "devices, cuda:0 and cpu! (when checking argument for argument index in method wrapper_CUDA__index_select)", "triage.error-names-backend"),
    ("tensor device mismatch with flash_attn enabled", "prose.numbers"),
    # amdtriton: the Triton AMD backend on an AMD GPU
    ("FLASH_ATTENTION_TRITON_AMD_ENABLE=TRUE on an MI300X: the backward is slow", "fa2.triton-amd-off-amd"),
    ("flash_attn_triton_amd on gfx1100 (Radeon 7900 XTX) fails to compile", "fa2.triton-amd-off-amd"),
    # sliced: a sliced BlockMask used for its block layout only
    ("Slicing the BlockMask with [] keeps the block layout for the rows taken", "flex.sliced-block-mask"),
])
def test_round81m_near_misses(text, must_not):
    assert must_not not in ids(text), ids(text)


def test_unticked_macos_checkbox_is_no_apple_platform():
    # an issue template's OS list, Linux ticked: a V100's flash attention question stays CUDA's, not FA2 on a Mac
    text = ("flash attention errors on V100 with sample packing\n\n### Which Operating Systems are you using?\n\n- [X] Linux\n"
            "- [ ] macOS\n- [ ] Windows\n\nRuntimeError: FlashAttention only supports Ampere GPUs or newer.")
    assert "fa2.platform-unsupported" not in ids(text), ids(text)
    ticked = text.replace("- [ ] macOS", "- [X] macOS on a MacBook Pro (MPS)").replace("- [X] Linux", "- [ ] Linux")
    assert "fa2.platform-unsupported" in ids(ticked) or first_cause(ticked)[0] is not None, ids(ticked)
