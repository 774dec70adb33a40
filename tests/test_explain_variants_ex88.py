"""Variants for helper ex88 (session 13): slowness reports (fixtures/errors/round88), a run that does not fail but is slower than
the user expected.

Every case was written by hand (2026-11-29): other models, GPUs, versions and wordings than the fixtures. The positives name what
explain must report first (entry, backend); the near misses what it must not claim.

Mechanisms (knowledge file: rule):
  mask      sdpa.toml sdpa.mask-not-flash: an attention mask (padding, bool, no-op) said to keep SDPA off its flash kernel or to
            cost it time (fairseq2#438, OneTrainer#1109, transformers#36584, LightGlue#116); sdpa.toml sdpa.mask-dtype no longer
            reads "a boolean mask instead of a float mask ... degrading its runtime" as a dtype refusal
  graph     compile.toml compile.backend-untraceable and its [[evidence_backend]] row: torch.compile said to break the graph at
            every attention call, or unable to trace a wrapper's flash-attention probe (SDPAParams makes it SDPA's) (keras#23327)
  throttle  prose.toml gpu.throttled-said and its [[evidence_backend]] row (none): a GPU said to be thermally or power throttled
            (llm-rig#100)
  words     prose.toml SLOW: "didn't observe any performance gain", "struggling to achieve a speedup", "low speedup", "makes time
            longer", "0% speed boost", "benchmark is low", "没有提升"; SPEEDSAID: prose.gpu leaves a sentence that says a backend
            is no faster or slower on a GPU to prose.slow (SageAttention#200, #69, diffusers#8873); a slowness title without a
            backend over a first line that names it (ComfyUI#4538, flash-attention#1589)
  pinned    sdpa.toml sdpa.math-pinned: the code that pins SDPA to math (sdpa_kernel(SDPBackend.MATH), the old flags) (pytorch#141756)
  rocm      sdpa.toml sdpa.rocm-experimental: TORCH_ROCM_AOTRITON_ENABLE_EXPERIMENTAL beside "No available kernel" / a fall
            through to math (unsloth#8821)
  eager     flex.toml flex.uncompiled: FlexAttention said slow and, within a few lines, not compiled (attention-gym#95)
"""

from __future__ import annotations

import pytest

from explain_top import first, ids


@pytest.mark.parametrize("text, want", [
    # mask
    ("We pass a float padding mask to scaled_dot_product_attention and the step time doubles compared to no mask",
     ("sdpa.mask-not-flash", "sdpa")),
    ("Training is 30% slower with attention_mask in SDPA (Llama-3 8B, H200), without the mask it is fast",
     ("sdpa.mask-not-flash", "sdpa")),
    ("PyTorch does not use flash for this call: an attention mask is passed, so SDPA falls to the memory efficient kernel instead",
     ("sdpa.mask-not-flash", "sdpa")),
    ("Removing the no-op attention mask lets torch sdpa pick flash; with it the model uses memory_efficient attention instead",
     ("sdpa.mask-not-flash", "sdpa")),
    # graph
    ("torch.compile: 32 graph breaks, one at every attention layer (flash_attn_func is not a custom op)",
     ("compile.backend-untraceable", "fa2")),
    ("Our wrapper breaks the graph at each attention call: dynamo cannot trace the flash attention probe (SDPAParams)",
     ("compile.backend-untraceable", "sdpa")),
    ("xformers: a graph break in every attention layer under torch.compile", ("compile.backend-untraceable", "xformers")),
    # throttle
    ("My RTX 3090 gets thermally throttled after 5 minutes of SDXL, generation goes from 6 it/s to 3 it/s",
     ("gpu.throttled-said", None)),
    ("The A100s are power throttled in this rack: clocks are throttled to 900 MHz while training with flash attention",
     ("gpu.throttled-said", None)),
    # words
    ("I didn't notice any speedup with sageattention on my RTX 3060", ("prose.slow", "sage")),
    ("We are struggling to achieve a speedup with xformers on T4", ("prose.slow", "xformers")),
    ("FlashAttention-3 gives a low speedup on H20 compared to FA2", ("prose.slow", "fa3")),
    ("Installing SageAttention makes the generation time longer on my 4070", ("prose.slow", "sage")),
    ("Sage attention 2.2 gives 0% speed boost on RTX 5080", ("prose.slow", "sage")),
    ("开启flash attention后训练速度没有提升", ("prose.slow", "fa2")),
    ("xformers is not any faster on a RTX 4060 than pytorch attention", ("prose.slow", "xformers")),
    ("Wan 2.2 generation is very slow since the update\nsageattention is installed and shows in the log", ("prose.slow", "sage")),
    # pinned
    ("    with sdpa_kernel(SDPBackend.MATH):\n        out = F.scaled_dot_product_attention(q, k, v)\nit is 5x slower on 2.6",
     ("sdpa.math-pinned", "sdpa")),
    ("with torch.backends.cuda.sdp_kernel(enable_math=True, enable_flash=False, enable_mem_efficient=False):\n    y = attn(q, k, v)\n"
     "this is 4x slower than before", ("sdpa.math-pinned", "sdpa")),
    # rocm
    ("export TORCH_ROCM_AOTRITON_ENABLE_EXPERIMENTAL=0\nflash: No available kernel\nmem_efficient: No available kernel",
     ("sdpa.rocm-experimental", "sdpa")),
    ("Without TORCH_ROCM_AOTRITON_ENABLE_EXPERIMENTAL SDPA falls through to the math kernel on the RX 9070", ("sdpa.rocm-experimental", "sdpa")),
    # eager
    ("flex_attention is slow in my benchmark (3x sdpa)\n\nyou are running it in eager mode; compile it",
     ("flex.uncompiled", "flex")),
])
def test_round88_mechanism_variants(text, want):
    assert first(text) == want, ids(text)


@pytest.mark.parametrize("text, must_not", [
    # mask: a mask passed with no cost said; a mask bug that is no speed report; is_causal=True
    ("out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)", "sdpa.mask-not-flash"),
    ("RuntimeError: Expected attn_mask dtype to be bool or float or to match query dtype", "sdpa.mask-not-flash"),
    ("scaled_dot_product_attention with is_causal=True runs the flash kernel at full speed", "sdpa.mask-not-flash"),
    # a fix that passes a bool mask is still the dtype entry's (no speed said)
    ("Fix: pass a boolean mask instead of a float mask to scaled_dot_product_attention (the 0/1 mask was added to the scores)",
     "sdpa.mask-not-flash"),
    # graph: a break elsewhere; a graph without breaks
    ("torch.compile graph break in the data augmentation at torchvision.transforms", "compile.backend-untraceable"),
    ("Compiled with fullgraph=True: no graph breaks at every attention layer anymore", "compile.backend-untraceable"),
    # throttle: a CPU throttled, an API rate limit, a thermal sensor read that is fine
    ("The laptop's CPU throttles under load, so tokenization is slow", "gpu.throttled-said"),
    ("HF hub requests are throttled (429) while downloading the model", "gpu.throttled-said"),
    ("GPU temperature 54C, no throttling, 4.1 it/s with xformers", "gpu.throttled-said"),
    # words: a backend that does not run on a GPU is still the GPU report
    ("SageAttention does not work on RTX 2080 (sm75)", "prose.slow"),
    ("flash attention 2 is faster than sdpa on my 4090, as expected", "prose.slow"),
    # pinned: the math kernel named as one of several, or turned off
    ("with sdpa_kernel([SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH]):", "sdpa.math-pinned"),
    ("with torch.backends.cuda.sdp_kernel(enable_flash=True, enable_math=False, enable_mem_efficient=False):", "sdpa.math-pinned"),
    # pinned: the math kernel as a test's reference, no cost said
    ("with sdpa_kernel(SDPBackend.MATH):\n    ref = F.scaled_dot_product_attention(q.float(), k.float(), v.float())\ntorch.testing.assert_close(out, ref)",
     "sdpa.math-pinned"),
    # rocm: the flag set and the kernels available
    ("TORCH_ROCM_AOTRITON_ENABLE_EXPERIMENTAL=1\nflash: OK    mem_efficient: OK", "sdpa.rocm-experimental"),
    # eager: compiled flex said slow at small shapes
    ("flex_attention (compiled with torch.compile) is slower than FA2 at 64 tokens", "flex.uncompiled"),
])
def test_round88_near_misses(text, must_not):
    assert must_not not in ids(text), ids(text)


@pytest.mark.parametrize("path", ["unrelated"])
def test_round88_unrelated_slowness_is_claimed_by_nothing(path):
    """Slowness whose cause is no attention backend's (a dataloader, shared GPU memory, ggml's own flash-attention op)."""
    from pathlib import Path
    folder = Path(__file__).resolve().parents[1] / "fixtures" / "errors" / "round88" / path
    texts = sorted(folder.glob("*.txt"))
    assert len(texts) >= 8
    for p in texts:
        body = p.read_text(encoding="utf-8").split("\n---\n", 1)[1]
        assert ids(body) == [], (p.name, ids(body))
