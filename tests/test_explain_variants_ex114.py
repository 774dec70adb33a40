"""Variants for helper ex114 (session 19): the misses left in rounds 110 and 105m (fixtures/errors/round110, round105m; both
training material), fixed by mechanism.

Every case was written by hand (2026-11-29): other paths, versions, symbols, backends and wordings than the fixtures. The
positives name what explain must report first (entry, backend; None: any backend), the near misses what it must not do; no
pattern written or widened here matches an unrelated log of any training round (the measure-only sets are never read).

Mechanisms (knowledge file: rule; the text it came from):
  dynamo     compile.toml compile.backend-untraceable: Dynamo cannot resolve an attention function's global name while tracing
             (torch 2.5's "InternalTorchDynamoError: NameError: name 'sageattn' is not defined", torch 2.9+'s "Failed to find name
             `...` in frame's builtins"); a plain NameError stays attn.import-guard (thu-ml/SageAttention#106)
  sparge     attribution.toml sage names: the block-sparse Sage kernels and SpargeAttn's helpers as libraries built on them name them
             (block_sparse_sage2_attn_cuda, sparge_mask_convert, SpargeSageAttnBackend: mit-han-lab/radial-attention#54)
  cutefiles  backends.toml cute.shares-files-with-fa2: flash-attn's install said to overwrite flash_attn/cute, or the pair's
             namespace conflict (PrimeIntellect-ai/prime-rl#1949)
  replaced   attribution/sentences.py REPLACED: "replace X with Y" names Y, "X outperforms Y" names Y (jt-zhang/Sparse_Attention_API#2,
             ROCm/flash-attention#142); prose.toml SLOW: the time cost / step time said to increase; "outperforms" is speed said
             (SLOW, SPEEDSAID), and prose.gpu's title-on-a-GPU pattern leaves a title that says speed to prose.slow
  headsize   frameworks.toml vllm.head-size: a backend class's head-size check said not to list the model's sizes
             (vllm-project/vllm#48855)
  oldgpu     backends.toml backend.unsupported-gpu: a user's own sentence naming their older GPU and FlashAttention working only
             with Ampere / not supporting Turing, no error in the next lines (Mega4alik/ollm#55, turboderp-org/exllamav3#44, round 41m)
  tooold     xformers.toml xformers.gpu-too-old reads xformers' "(too old)" operator reason itself (backend.unsupported-gpu keeps
             "(too new)"), so xformers.no-operator's explained_by applies and the reason ranks first (aigc-apps/EasyAnimate#11, round 47)
  missing    flash_attn.toml fa2.missing: a title that says flash_attn / FlashAttention (not 3/4) is missing (rounds 21m, 7a:
             PozzettiAndrea/ComfyUI-TRELLIS2#27, kijai/ComfyUI-MochiWrapper#1)
  commented  attribution/sentences.py COMMENTED_OUT: a line of code commented out names no backend that ran
             (huggingface/transformers#32848)
"""

from __future__ import annotations

import re

import pytest

from attn_doctor.knowledge import entries
from explain_top import first, ids, training_unrelated_logs


@pytest.mark.parametrize("text, want", [
    # dynamo
    ('  File "/home/u/miniconda3/lib/python3.11/site-packages/torch/_dynamo/symbolic_convert.py", line 1302, in load_builtin_from_argval\n'
     "    raise NameError(f\"name '{argval}' is not defined\")\n"
     "torch._dynamo.exc.InternalTorchDynamoError: NameError: name 'flash_attn_varlen_func' is not defined",
     ("compile.backend-untraceable", "fa2")),
    ("torch._dynamo.exc.Unsupported: failed to find name in frame builtins\n"
     "  Explanation: Failed to find name `sageattn_qk_int8_pv_fp8_cuda` in frame's builtins.",
     ("compile.backend-untraceable", "sage")),
    ("torch._dynamo.exc.InternalTorchDynamoError: NameError: name 'memory_efficient_attention' is not defined", ("compile.backend-untraceable", "xformers")),
    # sparge
    ('  File "/data/radial/radial_attn/attn_mask.py", line 301, in SpargeSageAttnBackend\n'
     "    out = block_sparse_sage2_attn_cuda(q, k, v, mask_id=mask)\n"
     "RuntimeError: CUDA error: an illegal memory access was encountered", ("cuda.kernel-fault", "sage")),
    ('  File "/opt/app/sparse/masks.py", line 44, in sparge_mask_convert\n'
     "    return mask.repeat(1, 1, n, 1)\n"
     "torch.AcceleratorError: CUDA error: an illegal memory access was encountered", ("cuda.kernel-fault", "sage")),
    # cutefiles
    ("Dockerfile: pip install flash-attn==2.8.3 after flash-attn-4 replaced flash_attn/cute with an old copy, FA4 no longer imports",
     ("cute.shares-files-with-fa2", "cute")),
    ("uninstalling flash_attn removed flash_attn/cute/interface.py and the other FA4 files", ("cute.shares-files-with-fa2", "cute")),
    ("the flash_attn/cute directory is overwritten by flash-attn when both are in requirements.txt", ("cute.shares-files-with-fa2", "cute")),
    ("[arm64] namespace clash between flash-attn and flash-attn-cute in the trainer image", ("cute.shares-files-with-fa2", "cute")),
    # replaced
    ("Replacing xformers with sageattention in my Wan 2.2 workflow, the generation time increased.", ("prose.slow", "sage")),
    ("We replaced SDPA with flex_attention in the encoder and the step time doubled.", ("prose.slow", "flex")),
    ("xformers outperforms FlashAttention 2 on the A100 at seqlen 4096", ("prose.slow", "fa2")),
    ("SDPA significantly outperforms flex attention on H100 for document masking", ("prose.slow", "flex")),
    # headsize
    ("`FlashInferMLABackend.supports_mla_dimensions` doesn't include qk_rope_head_dim=32, so the model is excluded from it",
     ("vllm.head-size", None)),
    ("TritonAttentionImpl.supports_head_size(72) returned False, so vLLM picked another backend", ("vllm.head-size", None)),
    # oldgpu
    ("Support for older cards\n\nMy lab has GTX 1080 Ti boards, and flash attention only works on Ampere, so the server refuses.",
     ("backend.unsupported-gpu", "fa2")),
    ("Please add a fallback\n\nWe're on T4s in Colab and flash-attn is not supported on Turing, so the notebook is stuck.",
     ("backend.unsupported-gpu", "fa2")),
    # missing
    ("Linux install issue (missing flash_attn)\n\nAfter pip install -r requirements.txt the node does not load.", ("fa2.missing", "fa2")),
    ("Flash-Attention seems to be missing from the docker image?", ("fa2.missing", "fa2")),
    # tooold
    ("NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:\n"
     "     query       : shape=(2, 1024, 16, 64) (torch.float16)\n"
     "`fa2F@2.6.3-pt` is not supported because:\n"
     "    requires device with capability > (8, 0) but your GPU has capability (6, 1) (too old)\n"
     "`cutlassF-pt` is not supported because:\n    operator wasn't built - see `python -m xformers.info` for more info",
     ("xformers.gpu-too-old", "xformers")),
    # commented
    ("Batched generation gives garbled outputs for all but the last prompt\n\n"
     "model = AutoModelForCausalLM.from_pretrained(\n    name,\n    # attn_implementation=\"flash_attention_2\",\n)\n\n"
     "Ok I found it might be some issue in the attention.\nEverything works fine when I set attn_implementation=\"eager\".\n\n"
     "Yes, gemma 2 does not work well with SDPA.",
     ("attn.wrong-output", "sdpa")),
])
def test_ex114_variants(text, want):
    got = first(text)
    assert got[0] == want[0] and (want[1] is None or got[1] == want[1]), (text, ids(text), got)


@pytest.mark.parametrize("text, must_not", [
    # dynamo: a plain NameError (an import guard), and Dynamo's NameError of a user's own name
    ("NameError: name 'sageattn' is not defined", "compile.backend-untraceable"),
    ("torch._dynamo.exc.InternalTorchDynamoError: NameError: name 'rotary_emb' is not defined", "compile.backend-untraceable"),
    # cutefiles: FA4 installed over FA2 (its files put back), and an FA4 error with no install said
    ("installing flash-attn-4 overwrites flash_attn/cute with its own files, so FA4 works again", "cute.shares-files-with-fa2"),
    ('  File "/venv/lib/python3.12/site-packages/flash_attn/cute/interface.py", line 300, in _flash_attn_fwd\n'
     "AssertionError: head_dim must be a multiple of 8", "cute.shares-files-with-fa2"),
    # replaced: outperforming on accuracy is not speed
    ("FA3 outperforms FA2 in accuracy on the long-context eval", "prose.slow"),
    # replaced: a backend that outperforms something that is no backend (eager, a checkpointing setting) is not slow
    ("## Correction: SDPA + grad-ckpt **does** outperform eager + grad-ckpt at fixed bs on the H100", "prose.slow"),
    # oldgpu: a guess beside a real error, a sentence naming no older GPU, FA3, a title that says it crashes on an old GPU (another
    # library's kernel may be meant: round 63m's unrelated ELS-RD/kernl#84)
    ("Flash attention crashes on Turing hardware\n\nWhen running the flash attention test with a Tesla T4, a segfault occurs.",
     "backend.unsupported-gpu"),
    ("Import fails\n\nI think flash attention doesn't support Turing (my T4)\nTraceback (most recent call last):\n"
     '  File "/app/run.py", line 3, in <module>\nImportError: libcudart.so.12: cannot open shared object file', "backend.unsupported-gpu"),
    ("Flash attention only works with Ampere and newer, which is what the README says", "backend.unsupported-gpu"),
    ("flash attention 3 errors on a T4 as expected", "backend.unsupported-gpu"),
    # missing: FA3 missing, a missing wheel, missing support
    ("flash_attn_3 is missing from the wheel index", "fa2.missing"),
    ("Missing flash-attn wheel for torch 2.9 and CUDA 13", "fa2.missing"),
    ("Missing flash attention support for the new vision tower", "fa2.missing"),
    ("[Feature] fall back to SDPA if flash-attn is missing on the Jetson", "fa2.missing"),
    # headsize: the check passing
    ("FlashAttentionBackend.supports_head_size(128) returns True", "vllm.head-size"),
])
def test_ex114_near_misses(text, must_not):
    assert must_not not in ids(text), ids(text)


def test_ex114_sparge_words_name_sage_only_as_names():
    """A sparse attention with no Sage in its name stays unattributed to sage; the Sage names read anywhere on the line."""
    plain = ('  File "/opt/app/sparse/masks.py", line 44, in sparse_attention_mask\n'
             "RuntimeError: CUDA error: an illegal memory access was encountered")
    assert first(plain)[1] != "sage"


def test_ex114_commented_out_title_still_names():
    """A title that starts like a comment goes on past its one token: it still names the backend it reports."""
    assert first("# flash_attn=2.7.3 crashes on the RTX 5090 with no kernel image\nRuntimeError: CUDA error: no kernel image is "
                 "available for execution on the device")[1] == "fa2"


WIDENED = {
    # entry id: the patterns written here (their start), each checked against every training round's unrelated logs
    "compile.backend-untraceable": ("\\b(?:InternalTorchDynamoError", "\\bFailed to find name"),
    "cute.shares-files-with-fa2": ("\\b(?:install", "\\bflash_attn[/", "\\bflash[-_]attn[-_](?:cute"),
    "vllm.head-size": ("\\b\\w+(?:Backend|Impl)`?\\.",),
    "fa2.missing": ("\\A(?![^\\n]*\\b(?:when|if|in[ \\t]+case",),
    "backend.unsupported-gpu": ("^(?=[^\\n]*?(?<![A-Za-z'’])(?:I|",),
}


def test_ex114_patterns_match_no_unrelated_log():
    """No pattern written here matches an unrelated log of any training round (held-out and measure-only rounds never read)."""
    known = entries()
    rxs = []
    for eid, starts in WIDENED.items():
        pats = [p for p in known[eid].patterns if p.startswith(starts)]
        assert len(pats) >= len(starts), (eid, starts)
        rxs += [(eid, re.compile(p, re.IGNORECASE | re.MULTILINE)) for p in pats]
    logs = training_unrelated_logs()
    assert len(logs) >= 100
    for path, body in logs:
        for eid, rx in rxs:
            assert not rx.search(body), (str(path), eid)
