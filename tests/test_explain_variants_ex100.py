"""Variants for helper ex100 (session 16): the misses of round 95m (fixtures/errors/round95m, gathered blind by ex95m in
session 15, measured three times by the lead, training material since this helper read it).

Every case was written by hand (2026-11-29): other models, GPUs, versions, paths, backends and wordings than the fixtures.
The positives name what explain must report first (entry, backend); the near misses what it must not claim; and no entry or
pattern written here may claim an unrelated log of any training round (the measure-only sets are never read).

Mechanisms (knowledge file: rule; the round 95m text it came from):
  setup     attention.toml attn.functorch-setup-context (new): torch.func transforms refuse an attention library's
            autograd.Function without setup_context; [needs_backend] (flash-attention#2352, scGPT#69)
  partial   flex.toml flex.mask-mod-partial (new): Dynamo cannot trace a functools.partial mask_mod (pytorch#170489)
  nvcc      env.toml nvcc.major-mismatch: torch's message unformatted ('(%s)', CUDA_MISMATCH_MESSAGE) (flash-attention#2783)
  order     builds.toml build.isolation: "requires torch to be (pre-)installed" (Aleph-Alpha-Research/scaling#1)
  nan       attention.toml attn.nan-output: NaN logits / log-probs / hidden states on a line naming the backend (flash-attention#1834)
  limit     compile.toml compile.recompile-limit: the limit said in words beside an attention function (pytorch#166153)
  title     guides.toml flex.compile-failed: a title naming torch.compile and flex_attention over an exception's message
            (pytorch#157833)
  helper    frameworks.toml transformers.flex-blockmask-as-tensor: the model's mask helper said not to handle flex_attention
            (transformers#37381)
  inverted  sdpa.toml sdpa.mask-inverted: "wrongly inverted causal attention mask ... SDPA" (transformers#38094)
  guard     attention.toml attn.import-guard: "'NoneType' object is not callable when using <backend>" (HunyuanVideoWrapper#37)
  oneline   xformers.toml xformers.no-operator: the whole message on one line claims it over one operator's GPU reason
            (sd-webui-forge-classic#495)
  routes    frameworks.toml app.backend-selection-ignored: "reports X, but ... still routes to Y", and attribution.toml
            [[evidence_backend]] rows that name X where it is a bare setting value (nanochat#691)
  paged     attribution.toml [[evidence_backend]]: FA2's page-size check is FA2's whatever FA3/FA4 the text names (torchtitan#4097)
  slow      prose.toml: SLOW reads speed regressions and issues, "not gain speedups", "makes no difference" at a line's end;
            NUMBERS no longer reads "performance degradation"; B reads memory_efficient_attention; a slowness title over a
            markdown heading and the line naming the backend (flash-attention#2878, SageAttention#48, vision-language-examples#14,
            xformers#762, #678, #941)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from explain_top import assert_claim_no_unrelated_log, first, ids

ROOT = Path(__file__).resolve().parents[1]
NEW = ("attn.functorch-setup-context", "flex.mask-mod-partial")


@pytest.mark.parametrize("text, want", [
    # setup
    ("Traceback (most recent call last):\n  File \"/home/u/venv/lib/python3.12/site-packages/flash_attn/flash_attn_interface.py\", "
     "line 1201, in flash_attn_varlen_func\n    return FlashAttnVarlenFunc.apply(\nRuntimeError: In order to use an autograd.Function "
     "with functorch transforms (vmap, grad, jvp, jacrev, ...), it must override the setup_context staticmethod.",
     ("attn.functorch-setup-context", "fa2")),
    ("jacrev over my flash_attn_func layer fails: it must override the setup_context staticmethod",
     ("attn.functorch-setup-context", "fa2")),
    # partial
    ("torch._dynamo.exc.Unsupported: can't handle functions not implemented in python\n  Explanation: Dynamo can only handle "
     "functions defined in python\n  Developer debug context: functools.partial(<function prefix_lm_mask_mod at 0x7fa1b2c3d4e0>, "
     "prefix_len=128)", ("flex.mask-mod-partial", "flex")),
    ("Developer debug context: functools.partial(<function Model._alibi_score_mod at 0x7f00aa11bb80>, slopes=tensor(...))\n"
     "torch._dynamo.exc.Unsupported: can't handle functions not implemented in python", ("flex.mask-mod-partial", "flex")),
    # nvcc
    ("      RuntimeError: ('The detected CUDA version (%s) mismatches the version that was used to compilePyTorch (%s). Please make "
     "sure to use the same CUDA versions.', '11.8', '12.4')\n      building xformers from source", ("nvcc.major-mismatch", "xformers")),
    # order
    ("Our docs should say flash-attn requires torch to be pre-installed before pip install -e .[gpu]", ("build.isolation", "fa2")),
    # nan
    ("Fine-tuning Mistral with SDPA in fp16 we see NaN logits from step 3 on", ("attn.nan-output", "sdpa")),
    ("nan log-probs in the rollout only when xformers is enabled", ("attn.nan-output", "xformers")),
    # limit
    ("scaled_dot_product_attention with a varying mask reaches the recompile limit after 8 batches", ("compile.recompile-limit", "sdpa")),
    # title
    ("flex_attention fails under torch.compile: AttributeError: 'NoneType' object has no attribute 'get_stride'",
     ("flex.compile-failed", "flex")),
    # helper
    ("The Phi-3 _update_causal_mask() is not handling attn_implementation='flex_attention' at all", ("transformers.flex-blockmask-as-tensor", "flex")),
    # inverted
    ("Fix inverted padding mask passed to scaled_dot_product_attention in the T5 encoder", ("sdpa.mask-inverted", "sdpa")),
    # guard
    ("'NoneType' object is not callable when using xformers in the VAE decode step", ("attn.import-guard", "xformers")),
    # oneline
    ("error: No operator found for `memory_efficient_attention_backward` with inputs: query : shape=(1, 77, 8, 160) (torch.float32) "
     "`cutlassB-pt` is not supported because: requires device with capability <= (9, 0) but your GPU has capability (10, 0) (too new)",
     ("xformers.no-operator", "xformers")),
    # routes
    ("The config says sdpa, but the sampler still calls sageattn for every step", ("app.backend-selection-ignored", "sdpa")),
    ("USE_ATTN reports `flex` while the decoder still dispatches every layer to flash_attn_func", ("app.backend-selection-ignored", "flex")),
    # paged
    ("FA3 is not built for this Blackwell card and FA4 is missing, so vLLM uses its FA2 path:\nRuntimeError: Paged KV cache block size "
     "must be divisible by 256", ("fa2.paged-kv", "fa2")),
    # slow
    ("[FA3] decode speed regression after 3.0.0b2 on H100", ("prose.slow", "fa3")),
    ("Sage attention speed issue on the 4090 with Wan 2.2", ("prose.slow", "sage")),
    ("xformers performance degradation on L40S", ("prose.slow", "xformers")),
    ("Flash attention did not gain any speedup for our ViT-H", ("prose.slow", "fa2")),
    ("`flex_attention` makes no difference", ("prose.slow", "flex")),
    ("Training is much slower after the update\n\n## Describe the bug\nSince switching to xformers 0.0.30 each step takes longer.",
     ("prose.slow", "xformers")),
])
def test_round95m_variants(text, want):
    assert first(text) == want, (text, ids(text))


@pytest.mark.parametrize("text, must_not", [
    # setup: torch's message for a Function of no attention library
    ("RuntimeError: In order to use an autograd.Function with functorch transforms (vmap, grad, jvp, jacrev, ...), it must override "
     "the setup_context staticmethod.\n  File \"/srv/app/ops/rms_norm.py\", line 40, in forward", "attn.functorch-setup-context"),
    # partial: a partial of no mask_mod / score_mod
    ("torch._dynamo.exc.Unsupported: can't handle functions not implemented in python\n  Developer debug context: "
     "functools.partial(<function gelu_tanh at 0x7f11>, approximate='tanh')", "flex.mask-mod-partial"),
    # order: a sentence that asks for an app, not torch, to be preinstalled
    ("this node pack requires ComfyUI-Manager to be pre-installed", "build.isolation"),
    # nan: denied, or no backend on the line
    ("no nan logits with flash attention after the fix", "attn.nan-output"),
    ("NaN logits appear at step 3 of the bf16 run", "attn.nan-output"),
    # limit: no attention function named
    ("my training loop hit the recompile limit after the dataloader change", "compile.recompile-limit"),
    # helper: the mask helper handles sdpa fine (no flex)
    ("_update_causal_mask does not handle the sdpa path with static cache", "transformers.flex-blockmask-as-tensor"),
    # inverted: not a mask
    ("the inverted residual block in MobileNet is slow under sdpa", "sdpa.mask-inverted"),
    # slow: "makes no difference" said of an error, and quality degradation is not speed
    ("Installing xformers makes no difference, the error stays", "prose.slow"),
    ("sageattention quality degradation on faces", "prose.slow"),
])
def test_round95m_near_misses(text, must_not):
    assert must_not not in ids(text), ids(text)


def test_round95m_quality_degradation_is_still_wrong_output():
    """NUMBERS lost "performance degradation" only: a quality degradation stays a wrong-output reading."""
    assert first("sageattention quality degradation on faces") == ("attn.wrong-output", "sage")




def test_round95m_new_entries_claim_no_unrelated_log_of_any_round():
    """None of the entries written here claims an unrelated log of any training round (the measure-only sets excluded)."""
    assert_claim_no_unrelated_log(NEW)


def test_round95m_unrelated_claims_are_the_known_notes_only():
    """Round 95m's unrelated logs: two claims, both the readings other rounds keep as known claims (round 10, round 75): torch
    built without the GPU's architecture (gpu.arch-not-in-torch) and transformers' FA2 advisory (an info note, never a cause)."""
    folder = ROOT / "fixtures" / "errors" / "round95m" / "unrelated"
    claimed = {}
    for p in sorted(folder.glob("*.txt")):
        body = p.read_text(encoding="utf-8").split("\n---\n", 1)[1]
        if ids(body):
            claimed[p.name] = ids(body)[0]
    # (LLaVA#1338's FA2 advisory beside its IndexError claims nothing since ex35u, session 35: a note beside another failure)
    assert claimed == {"ai2cm__ace__301.txt": "gpu.arch-not-in-torch"}
