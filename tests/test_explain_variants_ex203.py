"""Variants for helper ex203 (session 42): the misses of round 203m (fixtures/errors/round203m, gathered blind by ex203m in
session 41, measured three times by the lead, training material since 81b1a962).

Every case was written by hand (2026-12-03): other backends, GPUs, versions, paths and wordings than the fixtures. The
positives name what explain must report first (entry, backend; None: no backend named where the entry has none); the near
misses what it must not claim (None: nothing at all); no pattern written here matches an unrelated log of any training round
on its own (the measure-only sets are never read).

Mechanisms (knowledge file: rule; the round 203m text it came from):
  headlist    flash_attn.toml fa2.head-dim: FlashAttention "only supports 32/64/128", the head dims listed as numbers
              (facebookresearch/metaseq#258)
  multiple    attention.toml attn.head-dim-unsupported: "when head_dim is not a multiple of 16" (pytorch/pytorch#182766)
  argtype     attention.toml attn.op-arg-type: "is_causal is receiving a Tensor instead of a bool" (openai/whisper#2359)
  smfirst     cute.toml cute.arch: "SM103, SM120 are not yet supported in FA4" (vllm-project/vllm-omni#2496)
  retshape    attention.toml attn.return-value: "fa3 latest version changed the return shape of the varlen func"
              (Wan-Video/Wan2.1#514)
  pagedq      flash_attn.toml fa2.paged-kv: a paged KV cache asked of flash_attn_with_kvcache (Dao-AILab/flash-attention#660)
  nomask      trainers.toml config.mask-refused: FlashAttention takes no custom or (left) padding mask, asked or said
              (Dao-AILab/flash-attention#1179, #487, OpenNMT/OpenNMT-py#2589)
  endsup      frameworks.toml vllm.backend-fallback: a model that "ends up selecting TRITON_ATTN" (vllm-project/vllm#28660)
  longcomp    guides.toml compile.first-call-slow: "excessively long compilation times for FlexAttention"
              (svg-project/Sparse-VideoGen#11)
  sdpapad     sdpa.toml sdpa.mask-not-flash: "SDPA + flash attention does not support padding" (huggingface/trl#656)
  sagefb      sage.toml sage.runtime-fallback: --use-sage-attention "... automatic fallback to spda attention"
              (iFayens/ComfyUI-PuLID-Flux2#16)
  turingzh    backends.toml backend.unsupported-gpu: "我想在20系列的显卡上安装flash attention" (weicj/vLLM-2080Ti-Definitive#30)
  deviates    attention.toml attn.backend-rounding: "FlexAttention result deviates" (pytorch/pytorch#138556)
  varlen      flash_attn.toml varlen.cu-seqlens: pad or call flash-attn-varlen (Dao-AILab/flash-attention#726); varlen lengths
              that must be divisible (zhuzilin/ring-flash-attention#51)
  ckrdna      accelerators.toml fa2.rocm-ck-gpu-unsupported: flash-attn's CK backend on gfx1200 (ROCm/legacy-rocm-build#6506)
  assertimpl  frameworks.toml transformers.attn-impl-unsupported: `assert config._attn_implementation != "flash_attention_2"`
              (huggingface/transformers#30950); "context parallel not support flash-attention" (axolotl-ai-cloud/axolotl#3173)
  nograd      flex.toml flex.captured-buffer-grad: "score_mod's output doesn't require gradients" (pytorch/pytorch#145050)
  platform    attention.toml attn.wrong-output: "producing different results on ROCm vs NV" (pytorch/pytorch#140855)
  padattend   attention.toml attn.mask-ignored: "the model will pay attention to the padding tokens" (openlm-research/open_llama#87)
"""

from __future__ import annotations

from each_case import each
from explain_top import assert_patterns_match_no_unrelated_log, first, ids

REFUSED = "config.mask-refused"
IMPL = "transformers.attn-impl-unsupported"

POSITIVES = [
    # headlist
    ("headlist-slash", "Swapped to flash attention for the 1.3B run: flash_attn only takes 16/32/64/128, our heads are 80 wide",
     ("fa2.head-dim", "fa2")),
    # multiple
    ("multiple-xformers", "memory_efficient_attention backward NaNs only when the head_dim is not a multiple of 8 (we use 100)",
     ("attn.head-dim-unsupported", "xformers")),
    # argtype
    ("argtype-dropout", "scaled_dot_product_attention under torch.export: dropout_p is getting a Tensor instead of a float",
     ("attn.op-arg-type", "sdpa")),
    # smfirst
    ("smfirst-list", "SM110 and SM121 are not yet supported in flash-attn-4, see the tracking issue", ("cute.arch", "cute")),
    ("smfirst-dsl", "sm110 is not supported by the CuTe DSL kernels", ("cute.arch", "cute")),
    # retshape
    ("retshape-fa2", "flash_attn 2.7 changed the returned value of flash_attn_varlen_func when return_attn_probs is off",
     ("attn.return-value", "fa2")),
    # pagedq
    ("pagedq-order", "flash_attn_with_kvcache with a paged KV cache: is block_table required?", ("fa2.paged-kv", "fa2")),
    # nomask
    ("nomask-arbitrary", "Can FlashAttention 2 handle an arbitrary attention mask like a tree mask for speculative decoding?",
     (REFUSED, "fa2")),
    ("nomask-said", "flash_attn_func doesn't take a padding mask, so we unpad with cu_seqlens first", (REFUSED, "fa2")),
    # endsup
    ("endsup-flashinfer", "Qwen3-Next ended up picking FLASHINFER on the L40S and crashed at warmup", ("vllm.backend-fallback", None)),
    # longcomp
    ("longcomp-inductor", "The sliding-window mask gave really long compile times with inductor on the 8B model",
     ("compile.first-call-slow", None)),
    # sdpapad
    ("sdpapad-kernel", "torch sdpa: the flash kernel cannot handle padding, so padded batches go to mem-efficient",
     ("sdpa.mask-not-flash", "sdpa")),
    # sagefb
    ("sagefb-fell", "Sage attention 2.2 installed, but HunyuanVideo fell back to scaled_dot_product_attention on the 4090",
     ("sage.runtime-fallback", "sage")),
    # turingzh
    ("turingzh-t4", "请问能在T4上安装flash-attention吗？", ("backend.unsupported-gpu", "fa2")),
    # deviates
    ("deviates-sdpa", "SDPA output slightly deviates from the eager attention on fp16 inputs", ("attn.backend-rounding", "sdpa")),
    # varlen
    ("varlen-cn", "用 flash_attn_varlen_func 做 varlen 训练时，每个子序列长度都必须被 world size 整除吗？", ("varlen.cu-seqlens", "fa2")),
    ("varlen-pad", "Is it faster to pad everything to 2048 or use flash_attn_varlen_qkvpacked_func?", ("varlen.cu-seqlens", "fa2")),
    # ckrdna
    ("ckrdna-after", "flash_attn on gfx1201: the Composable Kernel build finished but the wheel only holds gfx942 kernels",
     ("fa2.rocm-ck-gpu-unsupported", "fa2")),
    # assertimpl
    ("assertimpl-flex", "    assert config._attn_implementation != \"flex_attention\", \"flex is not supported for Mamba layers\"",
     (IMPL, "flex")),
    ("assertimpl-cp", "Context parallelism doesn't support flex_attention in this release", (IMPL, "flex")),
    # nograd
    ("nograd-return", "FlexAttention compile fails if the score_mod return value does not require_grad", ("flex.captured-buffer-grad", "flex")),
    # platform
    ("platform-xpu", "sdpa returns different outputs on XPU than on CUDA for the same seeds", ("attn.wrong-output", "sdpa")),
    # padattend
    ("padattend-sdpa", "scaled_dot_product_attention is called with is_causal=True only, so the model paid attention to the padded tokens",
     ("attn.mask-ignored", "sdpa")),
]

NEAR_MISSES = [
    # headlist: FlashAttention listed with no head dims; numbers of something else
    ("headlist-dtype", "flash attention only supports fp16 and bf16 inputs", "fa2.head-dim"),
    ("headlist-gpus", "flash attention only supports 32/64 GPUs per node in our launcher", "fa2.head-dim"),
    # multiple: a head dim that is a multiple
    ("multiple-yes", "head_dim is a multiple of 16 here, so the kernel is fine", "attn.head-dim-unsupported"),
    # argtype: the right type said
    ("argtype-right", "is_causal is receiving a bool as it should", "attn.op-arg-type"),
    # smfirst: supported, or another library
    ("smfirst-yes", "SM100 is supported in FA4", "cute.arch"),
    ("smfirst-other", "sm_120 is not supported by this PyTorch build", "cute.arch"),
    # retshape: the return unchanged; a change of something else
    ("retshape-same", "flash_attn_func still returns the output alone, nothing changed", "attn.return-value"),
    ("retshape-other", "flash-attn 2.8 changed the wheel names on PyPI", "attn.return-value"),
    # pagedq: paged KV of another engine
    ("pagedq-vllm", "vLLM's paged attention kernel with a block size of 16", "fa2.paged-kv"),
    # nomask: a mask it takes (causal, the varlen cu_seqlens) said to be supported
    ("nomask-causal", "does flash attention support causal masks? yes, causal=True", REFUSED),
    ("nomask-other", "Does ONNX Runtime support a custom attention mask?", REFUSED),
    # endsup: the backend wanted is the one chosen; lower-case words
    ("endsup-wanted", "Using FLASH_ATTN backend for Llama 3", "vllm.backend-fallback"),
    ("endsup-lower", "we ended up using triton attention for the prototype", "vllm.backend-fallback"),
    # longcomp: a short compile
    ("longcomp-short", "flex_attention compile time is short now, 20 s for the first step", "compile.first-call-slow"),
    # sdpapad: flash-attn itself (no SDPA on the line)
    ("sdpapad-flashattn", "flash attention does not support padding, use the varlen API", "sdpa.mask-not-flash"),
    # sagefb: a fallback without SageAttention named; the app's own logging call (a diff)
    ("sagefb-code", '+        logger.warning(f"SageAttention failed: {e}, falling back to pytorch attention")', "sage.runtime-fallback"),
    ("sagefb-other", "the node falls back to pytorch attention when xformers is missing", "sage.runtime-fallback"),
    # turingzh: an Ampere card
    ("turingzh-3090", "我想在3090上安装flash attention", "backend.unsupported-gpu"),
    # deviates: deviation of something else
    ("deviates-loss", "the training loss deviates after 2k steps with the new LR schedule", "attn.backend-rounding"),
    # varlen: neither padding nor a varlen call
    ("varlen-none", "I pad every sequence to 512 tokens or truncate them", "varlen.cu-seqlens"),
    # ckrdna: a CDNA GPU
    ("ckrdna-mi300", "flash-attn with the CK backend on MI300X (gfx942) works", "fa2.rocm-ck-gpu-unsupported"),
    # assertimpl: an assert of the implementation asked for; CP supported
    ("assertimpl-eq", "assert config._attn_implementation == \"flash_attention_2\"", IMPL),
    ("assertimpl-cp-ok", "context parallel supports flash attention since 4.57", IMPL),
    # nograd: an output that requires grad
    ("nograd-yes", "score_mod output requires grad through the bias", "flex.captured-buffer-grad"),
    # platform: the same results
    ("platform-same", "the kernel gives identical results on ROCm and CUDA", "attn.wrong-output"),
    # padattend: padding masked; no attention call named
    ("padattend-masked", "the tokenizer's attention_mask stops the model from attending to pad positions", "attn.mask-ignored"),
    ("padattend-no-call", "Why does BERT pay attention to the padding tokens at all?", "attn.mask-ignored"),
]


def _positive(text, want):
    entry, backend = want
    got = first(text)
    assert got[0] == entry and got[1] == backend, (got, ids(text))


def _near_miss(text, must_not):
    found = ids(text)
    assert (not found) if must_not is None else must_not not in found, found


def test_round203m_variants():
    each(((name, (text, want)) for name, text, want in POSITIVES), _positive)


def test_round203m_near_misses():
    each(((name, (text, must_not)) for name, text, must_not in NEAR_MISSES), _near_miss)


# Each pattern written here, found by a piece of its text, matches no unrelated log of any training round on its own (before
# ranking and attribution decide anything).
PIECES = {
    "fa2.head-dim": "(?:16|32|64|96|128)(?:",
    "attn.head-dim-unsupported": "not[ \\t]+(?:a[ \\t]+)?multiples?",
    "attn.op-arg-type": "instead[ \\t]+of[ \\t]+an?",
    "cute.arch": "(?:still[ \\t]+)?not[ \\t]+(?:yet",
    "attn.return-value": "chang(?:e|ed|es|ing)",
    "fa2.paged-kv": "kvcache\\b",
    REFUSED: ("(?:custom|arbitrary", "left[ \\t_-]?padd(?:ing|ed)"),
    "vllm.backend-fallback": "up[ \\t]+(?:selecting",
    "compile.first-call-slow": "excessively",
    "sdpa.mask-not-flash": "(?:any[ \\t]+)?padding",
    "sage.runtime-fallback": "spda",
    "backend.unsupported-gpu": "图灵",
    "attn.backend-rounding": "deviat(?:es?",
    "varlen.cu-seqlens": ("(?:or|vs\\.?|versus", "整除"),
    "fa2.rocm-ck-gpu-unsupported": "Composable[ \\t]+Kernel",
    IMPL: ("_?attn_implementation[ \\t]*!=", "context[ \\t_-]+parallel"),
    "flex.captured-buffer-grad": "return(?:ed)?[ \\t]+value",
    "attn.wrong-output": "different[ \\t]+(?:results?|outputs?|values|numbers)[ \\t]+on",
    "attn.mask-ignored": "pay|pays|paid",
}


def test_round203m_patterns_match_no_unrelated_log():
    assert_patterns_match_no_unrelated_log(PIECES)
