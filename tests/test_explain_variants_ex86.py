"""Variants for helper ex86 (session 13): backend attribution by the kind of evidence a text gives, written so that it carries
to texts no rule was written from (benchmarks/results/explain-backend-ex86.md: the training texts matched with a wrong
backend, grouped by the evidence that named the right one and the evidence that misled).

Every case was written by hand (2026-11-29): other paths, versions, kernels, programs, wrappers (vLLM, SGLang, diffusers,
ComfyUI, transformers, LLaMA-Factory) and languages (Chinese, Japanese) than the fixtures. Positives name what explain must
report first (entry, backend: None where the text names no backend of the seven); near misses what it must not.

Rules (knowledge file: table) and the rounds of training texts each fixes:
  kernel   attribution_evidence.toml [[generalize]] flex.shared-memory -> triton.out-of-resources and [[own_where_shown]] flex.no-triton: a
           message every Triton kernel (or every torch.compile) raises -- OutOfResources, "Cannot find a working triton
           installation" -- is FlexAttention's only where the text shows FlexAttention (its API; for OutOfResources also
           Inductor's generated kernels); a serving engine's, a model's own Triton attention or any torch.compile is said by
           the backend-neutral reading, with the backend the text names (rounds 74, 8, 79). OutOfResources only in a report
           that says things in words: a bare message or a log with no sentence keeps FlexAttention's reading
  cure     attribution/ CURE_WHEN_ABSENT (in _scrub): a fallback proposed for when a backend is absent ("Use PyTorch SDPA when
           Flash Attention is not available", "For cases where FA is unavailable, switch attn_implementation to sdpa instead of
           flash_attention_2") names the absent backend as the subject, the proposed one as the cure (rounds 63m, 76)
  import   attribution_evidence.toml [[fallback_backend]] torch.attention-api-too-old: the module whose import failed names the backend when
           nothing near the error does: torch.nn.attention is SDPA's selector package, torch.nn.attention.flex_attention
           FlexAttention's (rounds 49m, 54m)
"""

from __future__ import annotations

import pytest

from explain_top import first, ids, tb

OOR = "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: {}, Hardware limit: {}. Reducing block sizes or `num_stages` may help."


@pytest.mark.parametrize("text, want", [
    # kernel: another program's Triton kernel out of shared memory, nothing of FlexAttention in the text
    ("sglang 0.5 on RTX PRO 6000 (sm_120): the decode kernel picks BLOCK=128\n" + OOR.format(114688, 101376),
     ("triton.out-of-resources", None)),
    ("vLLM の triton_attn バックエンドで RTX 4090 を使うと落ちます\n" + OOR.format(135168, 101376),
     ("triton.out-of-resources", None)),
    ("用自己写的 Triton attention kernel (head_dim=256) 在 3090 上训练时报错：\n"
     "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 196608, Hardware limit: 101376",
     ("triton.out-of-resources", None)),
    # ... and FlexAttention's where the text shows it: its API, Inductor's generated kernel, its decoding template
    ("flex_attention backward on an RTX 4090 (head_dim 128)\n" + OOR.format(147456, 101376), ("flex.shared-memory", "flex")),
    (tb(("/w/.venv/lib/python3.12/site-packages/torch/_inductor/runtime/triton_heuristics.py", 573, "_make_launchers",
         "launchers.append(result.make_launcher())"), error=OOR.format(139264, 101376)), ("flex.shared-memory", "flex")),
    ("FlexAttention with a document mask on the A6000:\n" + OOR.format(131072, 101376), ("flex.shared-memory", "flex")),
    # kernel: Triton missing under torch.compile with no FlexAttention: Triton's install (no backend)
    ("KSampler\nbackend='inductor' raised:\nRuntimeError: Cannot find a working triton installation. Either the package is not "
     "installed or it is too old. More information on installing Triton can be found at: https://github.com/triton-lang/triton",
     ("flex.no-triton", None)),
    ("torch.compile(model) 在 Windows 上报错：\nRuntimeError: Cannot find a working triton installation. More information on "
     "installing Triton can be found at https://github.com/openai/triton", ("flex.no-triton", None)),
    # ... FlexAttention's where the text shows it
    ("compiling flex_attention on Windows fails:\nRuntimeError: Cannot find a working triton installation. More information on "
     "installing Triton can be found at https://github.com/openai/triton", ("flex.no-triton", "flex")),
    # import: torch.nn.attention missing, nothing else named: SDPA's selector package
    ("ModuleNotFoundError: No module named 'torch.nn.attention'", ("torch.attention-api-too-old", "sdpa")),
    ("running the demo with torch 2.1.2 gives `ModuleNotFoundError: No module named 'torch.nn.attention'` on import",
     ("torch.attention-api-too-old", "sdpa")),
    ("ImportError: cannot import name 'sdpa_kernel' from 'torch.nn.attention' (C:\\AI\\venv\\lib\\site-packages\\torch\\nn\\"
     "attention\\__init__.py)", ("torch.attention-api-too-old", "sdpa")),
    # ... and torch.nn.attention.flex_attention: FlexAttention's
    ("ModuleNotFoundError: No module named 'torch.nn.attention.flex_attention'", ("flex.torch-too-old", "flex")),
    ("the sampler dies at import: No module named 'torch.nn.attention' (from torch.nn.attention.flex_attention import "
     "create_block_mask, torch 2.1)", ("torch.attention-api-too-old", "flex")),
    # cure: the fallback proposed for a backend's absence is the cure; the absent backend is the subject
    ("Use xformers when flash-attn is not installed\n\nOn our V100 nodes the model crashes at import because the flash_attn "
     "wheel is missing.", ("prose.import", "fa2")),
    ("Use F.scaled_dot_product_attention when FlashAttention is unavailable", ("prose.import", "fa2")),
    ("[Feature] switch the ViT encoder to TORCH_SDPA when flash_attn is missing on ROCm", ("prose.import", "fa2")),
    # ... a failure said of the backend named first stays its own (no proposal)
    ("SDPA crashes when flash-attn is not installed", ("prose.import", "sdpa")),
])
def test_ex86_variants(text, want):
    assert first(text) == want, ids(text)


@pytest.mark.parametrize("text, must_not", [
    # kernel: a bare message, or one in a log that says nothing in words, keeps FlexAttention's reading (nothing says whose
    # kernel it was: the earlier rounds' decision)
    (OOR.format(114688, 101376), "triton.out-of-resources"),
    ("\n".join(f"step {i}/500 | loss 1.{i:03d} | 2.9 it/s" for i in range(20)) + "\n" + OOR.format(131072, 101376),
     "triton.out-of-resources"),
    # kernel: a traceback through an engine's own Triton attention (no frame of the seven) is not FlexAttention's
    (tb(("/opt/sglang/python/sglang/srt/layers/attention/triton_ops/extend_attention.py", 412, "extend_attention_fwd",
         "_fwd_kernel[grid]("),
        ("/opt/venv/lib/python3.12/site-packages/triton/runtime/jit.py", 347, "<lambda>",
         "return lambda *args, **kwargs: self.run(grid=grid, warmup=False, *args, **kwargs)"),
        error=OOR.format(106496, 101376)), "flex.shared-memory"),
    # kernel: an out-of-resource reading only where Triton's message is there at all
    ("flex_attention is 2x slower than SDPA on the 4090 with a causal mask", "triton.out-of-resources"),
    # kernel: the bare message with FlexAttention's API a few lines up is FlexAttention's
    ("block_mask = create_block_mask(causal, B=None, H=None, Q_LEN=8192, KV_LEN=8192)\nout = flex_attention(q, k, v, block_mask=block_mask)\n"
     + OOR.format(163840, 101376), "triton.out-of-resources"),
])
def test_ex86_near_misses(text, must_not):
    assert must_not not in ids(text), ids(text)
