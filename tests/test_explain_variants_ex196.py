"""Variants for helper ex196 (session 34): the misses of round 196m (fixtures/errors/round196m, gathered blind by ex196m in
session 33, measured twice by the lead, training material since this helper read it).

Every case was written by hand (2026-12-02): other models, versions, paths, GPUs, apps and wordings than the fixtures, Chinese
where prose carries the rule. The positives name what explain must report first (entry, backend; None: any backend); the near
misses what it must not claim; no pattern written or widened here matches an unrelated log of any training round (the
measure-only sets are never read).

Mechanisms (knowledge file: rule; the round 196m text it came from):
  dispatchcut   xformers.toml xformers.no-operator: a traceback cut in xformers' dispatcher (op = _dispatch_fw(...)) under
                Python 3.11's ^^^^ marker line (Haoming02/sd-webui-forge-classic#589)
  convinput     xformers.toml xformers.unsupported-inputs: torch's reshape error raised in xformers' own fmha frame, an operator's
                input conversion given q/k/v that disagree (Mikubill/sd-webui-controlnet#2473)
  ipadapter     frameworks.toml diffusers.ip-adapter-processor-replaced: the IP-Adapter said not to work with xformers on, the two
                said to conflict, set_attn_processor said not to take after enable_xformers... (chengzeyi/stable-fast#81,
                tencent-ailab/IP-Adapter#97)
  implinit      frameworks.toml transformers.attn-impl-unsupported: models said to fail while built with attn_implementation set to
                sdpa or flex_attention (huggingface/transformers#46196)
  maskignored   attention.toml attn.wrong-output: a backend said to ignore or mishandle the mask it was given
                (pytorch/pytorch#188322)
  jointxf       frameworks.toml diffusers.processor-drops-rotary: xformers' generic processor on SD3/Flux joint attention
                (huggingface/diffusers#8535)
  attntype      frameworks.toml vllm.attn-type-unsupported (new): a vLLM attention backend that implements decoder
                self-attention only (intel/llm-scaler#41)
  fallback      frameworks.toml app.fallback-attention-broken (new): an app's path without the backend is what fails
                (AILab-CVC/VideoCrafter#38, OpenMOSS/SpeechGPT-2.0-preview#4)
"""

from __future__ import annotations

from each_case import each
from explain_top import assert_claim_no_unrelated_log, assert_patterns_match_no_unrelated_log, first, ids, tb

FMHA = "/home/ai/ComfyUI/venv/lib/python3.12/site-packages/xformers/ops/fmha"

POSITIVES = [
    # dispatchcut: a backward cut the same way, Linux paths, ~~~ markers; the dispatch.py frame under its own marker line
    ("dispatchcut-bw", "Traceback (most recent call last):\n"
     f'  File "{FMHA}/__init__.py", line 520, in _memory_efficient_attention_backward\n'
     "    op = _dispatch_bw(inp)\n         ~~~~~~~~~~~~^^^^^\n", ("xformers.no-operator", "xformers")),
    ("dispatchcut-priority", f'  File "{FMHA}/__init__.py", line 491, in _memory_efficient_attention_forward\n'
     "    op = _dispatch_fw(inp, False)\n"
     f'  File "{FMHA}/dispatch.py", line 140, in _dispatch_fw\n    return _run_priority_list(\n           ^^^^^^^^^^^^^^^^^^^\n```\n',
     ("xformers.no-operator", "xformers")),
    # convinput: the query's reshape in another operator file, a Linux venv, a trainer's frames above
    ("convinput-linux", tb(("/srv/train/models/unet_blocks.py", 210, "forward", "out = xops.memory_efficient_attention(q, k, v, op=MemoryEfficientAttentionFlashAttentionOp)"),
                           (f"{FMHA}/__init__.py", 310, "_memory_efficient_attention_forward", "out, *_ = op.apply(inp, needs_gradient=False)"),
                           (f"{FMHA}/flash.py", 168, "_convert_input_format", "query=query.reshape([batch * seqlen_q, num_heads, head_dim_q]),"),
                           error="RuntimeError: shape '[16384, 10, 64]' is invalid for input of size 2621440"),
     ("xformers.unsupported-inputs", "xformers")),
    # ipadapter: other words, another app, Chinese
    ("ipadapter-words", "IP-Adapter Plus does not work when xformers is enabled in our Fooocus fork", ("diffusers.ip-adapter-processor-replaced", None)),
    ("ipadapter-conflict", "Probably a conflict between memory_efficient_attention and the IP-Adapter processors, since disabling it fixes the face",
     ("diffusers.ip-adapter-processor-replaced", None)),
    ("ipadapter-setproc", "Once I call pipe.unet.enable_xformers_memory_efficient_attention(), pipe.unet.set_attn_processor(ip_procs) does not take effect.\n"
     "Is there an xformers version of IPAdapterAttnProcessor?", ("diffusers.ip-adapter-processor-replaced", None)),
    ("ipadapter-zh", "启用xformers后IP-Adapter失效了，图像完全不像参考图", ("diffusers.ip-adapter-processor-replaced", None)),
    # implinit: other models, flex_attention, another verb
    ("implinit-flex", "The Florence-2 and Kosmos-2 models fail while loading with `from_pretrained(path, attn_implementation=\"flex_attention\")`",
     ("transformers.attn-impl-unsupported", None)),
    ("implinit-sdpa", "Our speech models crash during initialisation when using attn_implementation='sdpa' on 4.41", ("transformers.attn-impl-unsupported", "sdpa")),
    # maskignored: other backends, other mask words
    ("maskignored-fa", "flash_attn_varlen_func silently ignores the sliding window when window_size is passed as a list", ("attn.wrong-output", "fa2")),
    ("maskignored-flex", "flex_attention mishandles the block mask once Q_LEN is not a multiple of 128", ("attn.wrong-output", "flex")),
    # jointxf: Flux under an xformers switch, an SD3.5 script pasted under its error, the words
    ("jointxf-flux", "FluxPipeline + pipe.enable_xformers_memory_efficient_attention()\n\nTraceback (most recent call last):\n"
     "RuntimeError: The size of tensor a (4608) must match the size of tensor b (4096) at non-singleton dimension 1",
     ("diffusers.processor-drops-rotary", "xformers")),
    ("jointxf-words", "diffusers does not support xformers in the SD3 transformer blocks, use SDPA instead", ("diffusers.processor-drops-rotary", "xformers")),
    # attntype: other backends, a BERT-style embedding model, V0's wording
    ("attntype-triton", "(EngineCore_DP0 pid=4410) NotImplementedError: Encoder self-attention is not implemented for TritonAttentionImpl",
     ("vllm.attn-type-unsupported", None)),
    ("attntype-v0", "serving bart-large-cnn: NotImplementedError: Encoder self-attention and encoder/decoder cross-attention are not implemented for ROCmFlashAttentionImpl",
     ("vllm.attn-type-unsupported", None)),
    # fallback: other backends, words, Chinese
    ("fallback-sage", "The RuntimeError only happens when sageattention is not installed, so the torch path of the node is broken",
     ("app.fallback-attention-broken", "sage")),
    ("fallback-fa", "Once I turn off flash attention (my card is a 2080 Ti) the generated speech is pure noise and the text output is gibberish",
     ("app.fallback-attention-broken", "fa2")),
    ("fallback-zh", "不使用 flash_attn 以后模型输出就乱码了，是不是必须要装", ("app.fallback-attention-broken", "fa2")),
]

NEAR_MISSES = [
    # dispatchcut: the dispatcher's frame with an error line under it that is not its refusal
    ("dispatchcut-cuda", f'  File "{FMHA}/__init__.py", line 491, in _memory_efficient_attention_forward\n    op = _dispatch_fw(inp, False)\n'
     "         ^^^^^^^^^^^^^^^^^^^^^^^^\nRuntimeError: CUDA error: an illegal memory access was encountered", "xformers.no-operator"),
    # convinput: the same reshape error in the app's own frame
    ("convinput-app", tb(("/srv/app/attention.py", 40, "forward", "q = q.reshape(b * n, h, d)"),
                         error="RuntimeError: shape '[4096, 8, 40]' is invalid for input of size 655360"), "xformers.unsupported-inputs"),
    # ipadapter: works with xformers; fails only with xformers off
    ("ipadapter-works", "IP-Adapter works fine with xformers enabled on 0.25", "diffusers.ip-adapter-processor-replaced"),
    ("ipadapter-off", "IP-Adapter does not work when xformers is disabled", "diffusers.ip-adapter-processor-replaced"),
    ("ipadapter-nofx", "pipe.enable_xformers_memory_efficient_attention() then unet.set_attn_processor(lora_procs) does not take effect", "diffusers.ip-adapter-processor-replaced"),
    # implinit: FA2 (the package may be missing), and a model said to load fine
    ("implinit-fa2", "The Idefics models fail while loading with attn_implementation=\"flash_attention_2\"", "transformers.attn-impl-unsupported"),
    ("implinit-fine", "The models load fine with attn_implementation='sdpa' after the fix", "transformers.attn-impl-unsupported"),
    # maskignored: said not to (any more)
    ("maskignored-fixed", "FlexAttention no longer ignores the sparse BlockMask after #188484", "attn.wrong-output"),
    ("maskignored-not", "xformers does not ignore the attn_mask, it applies it before the softmax", "attn.wrong-output"),
    # jointxf: a UNet model family under the same switch and error; SD3 named without xformers
    ("jointxf-sd15", "[SD1.5] pipe.enable_xformers_memory_efficient_attention()\nRuntimeError: The size of tensor a (77) must match the size of tensor b (154) at non-singleton dimension 1",
     "diffusers.processor-drops-rotary"),
    ("jointxf-noxf", "[SD3] pipe.enable_model_cpu_offload()\nRuntimeError: The size of tensor a (154) must match the size of tensor b (2304) at non-singleton dimension 1",
     "diffusers.processor-drops-rotary"),
    # attntype: said implemented
    ("attntype-done", "Encoder self-attention is now implemented for FlashAttentionImpl (vllm 0.6.4)", "vllm.attn-type-unsupported"),
    # fallback: the failure with the backend installed; output garbled after installing it
    ("fallback-installed", "The error happens when xformers is installed, not without it", "app.fallback-attention-broken"),
    ("fallback-after-install", "After installing flash attention the output is garbled", "app.fallback-attention-broken"),
]


def _positive(text, want):
    entry, backend = want
    got = first(text)
    assert got[0] == entry and (backend is None or got[1] == backend), got


def _near_miss(text, must_not):
    assert must_not not in ids(text), ids(text)


def test_round196m_variants():
    each(((name, (text, want)) for name, text, want in POSITIVES), _positive)


def test_round196m_near_misses():
    each(((name, (text, must_not)) for name, text, must_not in NEAR_MISSES), _near_miss)


# Each pattern written or widened here, found by a piece of its text, matches no unrelated log of any training round on its own
# (before ranking and attribution decide anything).
PIECES = {
    "xformers.no-operator": "[\\^~]+",
    "xformers.unsupported-inputs": "is invalid for input of size",
    "diffusers.ip-adapter-processor-replaced": ("take[ \\t]+effect", "conflicts?[ \\t]+between", "不起作用"),
    "transformers.attn-impl-unsupported": "initiali[sz]",
    "attn.wrong-output": "mishandles",
    "diffusers.processor-drops-rotary": ("StableDiffusion3",),
    "vllm.attn-type-unsupported": "implemented",
    "app.fallback-attention-broken": ("arises", "gibberish", "乱码"),
}


def test_round196m_patterns_match_no_unrelated_log():
    assert_patterns_match_no_unrelated_log(PIECES)


def test_round196m_entries_claim_no_unrelated_log():
    assert_claim_no_unrelated_log({"vllm.attn-type-unsupported", "app.fallback-attention-broken"})
