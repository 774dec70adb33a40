"""Attribution variants for helper ex180 (session 32, issue 23: explain names the wrong backend). Written from the training
texts matched with another backend than their label (benchmarks/explain_training.py, round by round), for the mechanism,
not the sample: every case below was written by hand (2026-12-02), with other models, wordings and failures than the
fixtures. Each positive names the backend explain must NOT give first (the one that works, or no backend of the seven) or
the one it must give; each near miss keeps the reading the rule must not change.

Mechanisms (where: what; the training text it came from):
  eager    sentences.EAGER_FAILS (_healthy_removed): a clause that says backends work beside one that says transformers'
           eager attention fails names no failing backend (round 83: LLaVA-VL/LLaVA-NeXT#254, huggingface/transformers#33615);
           not torch.compile's "eager mode", and not a clause that says eager works
  ie       sentences.CLAUSE_BREAK: the full stops of "i.e." and "e.g." do not end a clause, so a parenthesis that says a
           backend works is read whole (round 136m: QwenLM/Qwen3-TTS#15)
  triton   attribution.toml [[library]] other: "Triton flash attention" named bare is a FlashAttention written in Triton (Triton's
           tutorial kernel, a project's port), none of the seven, as "Triton-based Flash Attention" was (round 172m:
           triton-lang/triton#1957); not flash-attn's own Triton backend (ROCm, FLASH_ATTENTION_TRITON_AMD_ENABLE,
           flash_attn_triton)
  offered  search.OFFER (nearest()'s search down the log): the items of a list offered as things to try ("There are other options
           worth trying:", "Possible workarounds:") name cures, not the failing backend (round 105m: QwenLM/Qwen3#670); not a
           list of what the writer tried, nor steps to reproduce
  backref  sentences._first_named: a shared FlashAttention name after such a precise other-FlashAttention name on the line goes
           back to it ("with triton flash attention ... without flash attention the loss is fine")
"""

from __future__ import annotations

from explain_top import first

SEVEN = ("sdpa", "flex", "fa2", "fa3", "cute", "sage", "xformers")

# (text, the backend explain must not report first: the text's failing side is none of them)
NOT_THESE = [
    # eager
    ("Gemma-2 runs fine with sdpa and flash_attention_2, but the output turns to gibberish with attn_implementation='eager' in fp16",
     ("sdpa", "fa2")),
    ("Qwen2.5 works well with FA2 or SDPA, but the loss is NaN with eager attention under fp16", ("sdpa", "fa2")),
    ("Mistral performs well using --attn_implementation flash_attention_2, while --attn_implementation eager gives repeated tokens",
     ("fa2",)),
    # triton
    ("Loss becomes NaN with Triton flash attention in bf16", SEVEN),
    ("The triton flash attention kernel fails: triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: "
     "232448, Hardware limit: 101376", SEVEN),
    # backref
    ("loss goes NaN with triton flash attention; without flash attention the loss is fine", SEVEN),
]

# (text, the backend explain must report first)
THESE = [
    # ie: the parenthesis that says FA2 works is read whole, the failing FA3 stays
    ("We keep the FA2 path (i.e. the old flag still works) - but it crashes with FA3 on H100", "fa3"),
    # near misses
    ("FA3 fails to import (i.e. flash_attn_interface is missing), but FA2 works fine", "fa3"),  # ie: the parenthesis is the failure's
    ("FlexAttention works when compiled, but fails in eager mode with an OOM", "flex"),  # eager: torch.compile's eager mode
    ("Runs fine with eager attention, but flash_attention_2 gives NaN loss", "fa2"),  # eager: eager is the healthy side
    ("NaN loss with the Triton flash attention backend on ROCm (FLASH_ATTENTION_TRITON_AMD_ENABLE=TRUE)", "fa2"),  # flash-attn's own
    ("flash_attn.flash_attn_triton gives NaN loss in bf16", "fa2"),  # flash-attn's Triton module
    ("loss goes NaN with flash attention; the triton flash attention port is fine", "fa2"),  # backref: the shared name first
    # triton: packages in a list, not a Triton-written FlashAttention (round 95m: kijai/ComfyUI-HunyuanVideoWrapper#37's words)
    ("pip show says triton flash attention and sageattention are installed but flash attention fails: NoneType object is not "
     "callable", "fa2"),
    ("triton flashattn sageattention all installed, yet 'NoneType' object is not callable when using flashattn", "fa2"),
]


FP16 = ("Mistral-7B SFT: with left padding in fp16 the hidden states have NaNs that start at the padding tokens; batch size 1 is "
        "fine.\n\nbf16 works, but our V100 has no bf16.\n\nThis is common with float16 training.\n")
NOT_THESE += [  # offered
    (FP16 + "There are other options worth trying:\n1. using a fused kernel, e.g. pytorch sdpa or flash_attention_2\n2. a lower lr\n",
     SEVEN),
    (FP16 + "Possible workarounds:\n- attn_implementation=\"flash_attention_2\"\n- gradient clipping\n", SEVEN),
]
THESE += [  # offered: near misses, the backend below the error is still read
    (FP16 + "I tried these options:\n- flash_attention_2: still NaN\n- eager: OOM\n", "fa2"),
    (FP16 + "Steps to reproduce:\n1. pip install flash-attn==2.6.3\n2. run train.py with flash_attention_2\n", "fa2"),
]


def test_ex180_attribution_variants():
    bad = []
    for text, not_these in NOT_THESE:
        got = first(text)
        if got[1] in not_these:
            bad.append((text, got, "must not be", not_these))
    for text, want in THESE:
        got = first(text)
        if got[1] != want:
            bad.append((text, got, "want", want))
    assert not bad, "\n".join(map(repr, bad))
