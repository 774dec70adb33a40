"""Variants for helper ex182 (session 32): the misses of round 184m (fixtures/errors/round184m, gathered blind by ex179m in
session 31, measured twice by the lead, training material since this helper read it).

Every case was written by hand (2026-12-02): other models, versions, paths, GPUs, apps and wordings than the fixtures, Chinese
where prose carries the rule. The positives name what explain must report first (entry, backend; None: any backend); the near
misses what it must not claim; no pattern written or widened here matches an unrelated log of any training round (the
measure-only sets are never read).

Mechanisms (knowledge file: rule; the round 184m text it came from):
  mps        xformers.toml xformers.no-cuda: xformers said not to support MPS / a Mac / Apple Silicon, the name in backticks as
             posts write it (AUTOMATIC1111/stable-diffusion-webui#12231)
  macwheel   xformers.toml xformers.no-cuda: pip failing to build xformers with a Mac named near, either side
             (AUTOMATIC1111/stable-diffusion-webui#16921)
  dispatch   frameworks.toml transformers.attn-impl-unsupported: a model class whose SDPA / FA2 dispatch is said to fail
             (huggingface/transformers#47917)
  posids     flash_attn.toml varlen.cu-seqlens: transformers' position_ids packing helper said to fail with batch size > 1
             (huggingface/transformers#33268)
  mhanograd  attention.toml attn.mha-fastpath-none-arg: nn.MultiheadAttention said to throw under no_grad / eval with a mask
             (pytorch/audio#3264)
  headlist   frameworks.toml vllm.head-size: a head size removed from FlashAttention while the engine's list keeps it
             (vllm-project/vllm#16206)
  respected  frameworks.toml app.backend-selection-ignored: attn_implementation said not to be respected
             (huggingface/transformers#35153)
  traceable  guides.toml flex.compile-failed: flex_attention said not traceable by torch.compile (pytorch/pytorch#167116)
  rocmdrv    cuda.toml cuda.driver-older-than-build: torch's ROCm / CUDA said newer than what the driver supports
             (jpata/particleflow#302)
  eagervs    attention.toml attn.wrong-output: an eager-vs-backend comparison whose assert_close fails a few lines on
             (pytorch/pytorch#175545)
  rename     attention.toml attn.api-mismatch: an argument said to need renaming for the latest release of a backend
             (deepbeepmeep/Wan2GP#167)
  tei        flash_attn.toml fa2.missing: its title reading ("Flash attention is not installed." alone over a blank line) not taken
             where the text is a text-embeddings-inference run, whose flash attention is a cargo feature of its candle build
             (round 184m unrelated: huggingface/text-embeddings-inference#317)
"""

from __future__ import annotations

from explain_top import assert_claim_no_unrelated_log, assert_patterns_match_no_unrelated_log, first, ids

POSITIVES = [
    # mps
    ("Launching with --xformers on my M2 Pro fails again; as far as I know `xformers` does not support MPS at all",
     ("xformers.no-cuda", "xformers")),
    ("xformers is not supported on Apple Silicon, so the extension should skip it", ("xformers.no-cuda", "xformers")),
    ("The \"xformers\" kernels don't run on macOS, drop that flag from webui-user.sh", ("xformers.no-cuda", "xformers")),
    # macwheel
    ("Fresh install on a Mac Studio M2 Ultra, Python 3.11:\n  error: subprocess-exited-with-error\n"
     "  ERROR: Failed building wheel for xformers\n  Running setup.py clean for xformers\nFailed to build xformers",
     ("xformers.no-cuda", "xformers")),
    ("ERROR: Failed to build installable wheels for some pyproject.toml based projects (xformers)\n\n"
     "系统：苹果M3 Max，macOS 15", ("xformers.no-cuda", "xformers")),
    # dispatch
    ("Dinov2WithRegistersModel: flash_attention_2 dispatch fails on 4.57 although the vision tower is a ViT",
     ("transformers.attn-impl-unsupported", "fa2")),
    ("`CLIPVisionModel`: sdpa support is not declared, from_pretrained(attn_implementation='sdpa') raises",
     ("transformers.attn-impl-unsupported", "sdpa")),
    # posids
    ("_prepare_from_posids breaks once the per-device batch size is larger than 1 (packing with DataCollatorWithFlattening)",
     ("varlen.cu-seqlens", None)),
    ("用 padding-free 打包训练，prepare_fa2_from_position_ids 在 bs > 1 时报错", ("varlen.cu-seqlens", None)),
    # mhanograd
    ("torch.nn.MultiheadAttention fails when inference_mode() and an attn_mask are used together (torch 2.0.1)",
     ("attn.mha-fastpath-none-arg", "sdpa")),
    # headlist
    ("head size 192 was dropped from flash-attn in 2.7, but the backend's supported list still includes it so no fallback",
     ("vllm.head-size", None)),
    ("We should fix the FA supported headsizes list: 80 is not in it anymore", ("vllm.head-size", None)),
    # respected
    ("attn_implementation=\"flash_attention_2\" is ignored for Qwen2-VL: model.config._attn_implementation prints 'sdpa'",
     ("app.backend-selection-ignored", "fa2")),
    ("加载 Gemma2 时 attn_implementation 没有生效，打印出来还是 eager", ("app.backend-selection-ignored", None)),
    # traceable
    ("FlexAttention is not traceable by dynamo when the decoder layer runs under torch.utils.checkpoint",
     ("flex.compile-failed", "flex")),
    # rocmdrv
    ("The crash is likely because torch is built for ROCm 6.2 but the node's amdgpu driver only supports ROCm up to 6.0",
     ("cuda.driver-older-than-build", None)),
    # eagervs
    ("reference vs xformers memory_efficient_attention (BlockDiagonalMask)\nTraceback (most recent call last):\n"
     "  File \"check_attn.py\", line 88, in <module>\n    torch.testing.assert_close(out_ref, out_xf, atol=1e-3, rtol=0)\n"
     "AssertionError: Tensor-likes are not close!", ("attn.wrong-output", "xformers")),
    ("FlashAttention-2 vs eager, window=256\nMismatched elements: 812 / 65536 (1.2%)\nAssertionError: Tensor-likes are not close!",
     ("attn.wrong-output", "fa2")),
    # rename
    ("Replace window_size_left with window_size to make it work with the latest flash_attn_interface build",
     ("attn.api-mismatch", None)),
    ("xformers 新版本需要把 attn_bias 的 BlockDiagonalMask 改成 BlockDiagonalPaddedKeysMask", ("attn.api-mismatch", "xformers")),
    # tei: the title reading kept for a Python run
    ("Flash attention is not installed.\n\nI start it with python serve.py --model Qwen2-7B on an A100", ("fa2.missing", "fa2")),
]

NEAR_MISSES = [
    # mps: MPS named for another library, and xformers supporting CUDA
    ("bitsandbytes does not support MPS, use the float16 path", "xformers.no-cuda"),
    ("xformers does not support CUDA 11.3 builds any more", "xformers.no-cuda"),
    # macwheel: the wheel failing on Linux, and a Mac named with xformers built fine
    ("Ubuntu 22.04, RTX 4090:\n  ERROR: Failed building wheel for xformers\nFailed to build xformers", "xformers.no-cuda"),
    ("On my Mac M1 pip says Successfully installed xformers-0.0.20; the error comes later from bitsandbytes", "xformers.no-cuda"),
    # dispatch: a dispatch said to work
    ("LlamaModel: SDPA dispatch works fine on 4.40", "transformers.attn-impl-unsupported"),
    # posids: batch size 1, and another function
    ("prepare_fa2_from_position_ids works with batch_size 1", "varlen.cu-seqlens"),
    ("collate_fn fails with batch_size > 1 because the images differ in size", "varlen.cu-seqlens"),
    # mhanograd: another module, and the mask alone
    ("TransformerDecoder throws an error if torch.no_grad() and a cache are both given", "attn.mha-fastpath-none-arg"),
    ("nn.MultiheadAttention raises when the attn_mask has the wrong shape", "attn.mha-fastpath-none-arg"),
    # headlist: a head size added
    ("head size 96 was added to flash-attn in 2.1", "vllm.head-size"),
    # respected: attn_implementation respected
    ("attn_implementation is respected now, thanks for the fix", "app.backend-selection-ignored"),
    # traceable: flex compiled fine
    ("flex_attention is traceable by torch.compile since 2.5 and runs fine", "flex.compile-failed"),
    # rocmdrv: versions named, no driver too old
    ("torch built for ROCm 6.2, and the driver supports ROCm 6.3 just fine", "cuda.driver-older-than-build"),
    # eagervs: a comparison that passes
    ("eager vs sdpa: outputs match\nall close: True", "attn.wrong-output"),
    # rename: a rename for another library
    ("change tokenizer to processor for it to work with the latest transformers", "attn.api-mismatch"),
    # tei: the same title over a text-embeddings-router run
    ("Flash attention is not installed.\n\ntext-embeddings-router --model-id BAAI/bge-large-en-v1.5 --port 8080 --dtype float16",
     "fa2.missing"),
]


def test_round184m_variants():
    wrong = []
    for text, (entry, backend) in POSITIVES:
        got = first(text)
        if got[0] != entry or (backend is not None and got[1] != backend):
            wrong.append((text[:70], (entry, backend), got))
    assert not wrong, wrong


def test_round184m_near_misses():
    wrong = [(text[:70], must_not, ids(text)) for text, must_not in NEAR_MISSES if must_not in ids(text)]
    assert not wrong, wrong


# Each pattern written or widened here, found by a piece of its text, matches no unrelated log of any training round on its own
# (before ranking and attribution decide anything).
PIECES = {
    "xformers.no-cuda": ("Macs?|macOS|Apple[ \\t]+(?:Silicon", "Failed[ \\t]+(?:building"),
    "transformers.attn-impl-unsupported": "(?:dispatch|selection|support)[ \\t]+(?:fails",
    "varlen.cu-seqlens": "prepare_fa2_from_position_ids",
    "attn.mha-fastpath-none-arg": "MultiheadAttention\\b[`'\"]?[^\\n]{0,40}?",
    "vllm.head-size": ("(?:removed|dropped)[ \\t]+from", "supported[ \\t]+head"),
    "app.backend-selection-ignored": ("taken[ \\t]+into[ \\t]+account", "不生效"),
    "flex.compile-failed": "trace?able",
    "cuda.driver-older-than-build": "driver\\b[^\\n]{0,30}?",
    "attn.wrong-output": "assert_close\\(",
    "attn.api-mismatch": ("for[ \\t]+it[ \\t]+to[ \\t]+work", "改为"),
}


def test_round184m_patterns_match_no_unrelated_log():
    assert_patterns_match_no_unrelated_log(PIECES)


def test_round184m_entries_claim_no_unrelated_log():
    assert_claim_no_unrelated_log({"transformers.attn-impl-unsupported", "vllm.head-size", "attn.mha-fastpath-none-arg"})
