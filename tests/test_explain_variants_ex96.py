"""Variants for helper ex96 (session 15): slowness and wrong-number reports (fixtures/errors/round96), split by source into
halves A and B before any rule; the rules of half A were written first and measured on half B, then half B was read.

Every case was written by hand (2026-11-29): other models, GPUs, versions, backends and wordings than the fixtures. The
positives name what explain must report first (entry, backend); the near misses what it must not claim; and no entry or
pattern written here may claim an unrelated log of any round.

Mechanisms (knowledge file: rule), half A:
  cold      attention.toml attn.cold-call-timed: one attention call timed with the wall clock, no warm-up or synchronize
            (SageAttention#280, #161)
  scale     attention.toml attn.scale-mismatch: scale=1 (or a pre-scaled query) against the default 1/sqrt(d)
            (PainlessInferenceAcceleration#22; half B's flash-attention#1359)
  mask      flex.toml flex.block-mask-per-step: create_block_mask rebuilt every step costs more than the attention
            (pytorch#151043, TorchSpec#86)
  eff       sdpa.toml sdpa.efficient-not-flash: SDPA held on its efficient kernel where flash would be faster (DiffSynth-Engine#267)
  compile   compile.toml compile.slower-than-eager: an attention call slower compiled than eager (pytorch#130740)
  serve     frameworks.toml vllm.backend-wrong-output: a serving engine's attention backend gives wrong output where another is
            right (flashinfer#1931; half B's sglang#26791)
  widened   attention.toml attn.nondeterministic-backward (same seed, different runs; atomic adds), attn.backend-rounding
            (floating-point discrepancies between two), attn.layout-mismatch (wrong permutes), attn.wrong-output (an image
            filled with noise with "xform"; a library's own accuracy assert), attn.nan-output (a function's name, then NaNs);
            attribution.toml: ollama's and llama.cpp's env vars name the program (unrelated ollama#9415)
half B:
  release   attention.toml attn.release-regression: slower after upgrading the backend (xformers#1176, flash-attention#1432,
            unsloth#1321)
  cache     attention.toml attn.unfilled-cache-attended: decoding over KV-cache slots not yet written (gpt-fast#233)
  cudnn     sdpa.toml sdpa.cudnn-slower: SDPA's cuDNN kernel the slower one (pytorch#138386)
  pick      frameworks.toml vllm.backend-slower: the engine's own choice of backend slower than another (vllm#56564)
  words     prose.toml SLOW ("not much speed gain", "performs similar as"), prose.slow over a percentage; IMPORT no longer reads
            "I'm missing something"; attn.backend-rounding (SageAttention's quality loss); attn.fully-masked-rows ("pieces that are
            completely masked out"); half A's attn.nondeterministic-backward (the same run twice) and attn.nan-output ("getting NaNs")
"""

from __future__ import annotations

from pathlib import Path

import pytest

from explain_top import assert_claim_no_unrelated_log, first, ids

ROOT = Path(__file__).resolve().parents[1]
NEW = ("attn.cold-call-timed", "attn.scale-mismatch", "flex.block-mask-per-step", "sdpa.efficient-not-flash",
       "compile.slower-than-eager", "vllm.backend-wrong-output", "attn.release-regression", "attn.unfilled-cache-attended",
       "sdpa.cudnn-slower", "vllm.backend-slower")


@pytest.mark.parametrize("text, want", [
    # cold
    ("start = time.perf_counter()\nout = flex_attention(q, k, v, block_mask=bm)\nprint('flex', time.perf_counter() - start)\n"
     "flex is 200x slower than sdpa??", ("attn.cold-call-timed", "flex")),
    ("    t0 = time.time()\n    o = xformers.ops.memory_efficient_attention(q, k, v)\n    dt = time.time() - t0",
     ("attn.cold-call-timed", "xformers")),
    ("tic = time.time()\nres = flash_attn_varlen_func(q, k, v, cu, cu, 4096, 4096)\nprint(time.time() - tic)",
     ("attn.cold-call-timed", "fa2")),
    # scale
    ("The outputs do not match:\nref = F.scaled_dot_product_attention(\n    q, k, v,\n    scale=1,\n)\nout = flash_attn_func(q, k, v)",
     ("attn.scale-mismatch", "sdpa")),
    ("out = flash_attn_func(q, k, v, softmax_scale=1.0)\n# after replacing the eager attention the generations are wrong",
     ("attn.scale-mismatch", "fa2")),
    ("Swapping our attention for memory_efficient_attention doubly scaled the scores: the query is multiplied by 1/sqrt(d) in the model",
     ("attn.scale-mismatch", "xformers")),
    # mask
    ("create_block_mask takes about 120 ms per call for our packed 32k sequences, flex_attention itself 9 ms",
     ("flex.block-mask-per-step", "flex")),
    ("Profiler: flex attention block mask creation is the bottleneck of the step (document masking, H100)",
     ("flex.block-mask-per-step", "flex")),
    ("Most of the step is spent in create_block_mask rather than in the attention", ("flex.block-mask-per-step", "flex")),
    # eff
    ("our context-parallel sdpa path used the memory-efficient kernel; moving it to flash made training 18% faster",
     ("sdpa.efficient-not-flash", "sdpa")),
    ("scaled_dot_product_attention runs the cutlass efficient kernel instead of flash here, which is slower",
     ("sdpa.efficient-not-flash", "sdpa")),
    # compile
    ("torch.compile slows down our flex attention decode loop", ("compile.slower-than-eager", "flex")),
    ("After wrapping flash_attn_with_kvcache as a torch.library op, with torch.compile the decode is 4.5x slower than eager",
     ("compile.slower-than-eager", "fa2")),
    # serve
    ("Gemma 3 answers with garbage in vLLM 0.9 on the H200; when I set the attention backend to TRITON_ATTN it works fine",
     ("vllm.backend-wrong-output", None)),
    ("VLLM_ATTENTION_BACKEND=FLASHINFER gives garbled output for Qwen3 on sm_120", ("vllm.backend-wrong-output", None)),
    # widened (half A)
    ("Same seed, same data: the eval loss differs between runs only when flash attention is enabled",
     ("attn.nondeterministic-backward", "fa2")),
    ("dk is not deterministic here (it uses atomic adds)\nflash_attn 2.6.3", ("attn.nondeterministic-backward", "fa2")),
    ("We see floating-point discrepancies between FA3 and eager attention in the bf16 backward", ("attn.backend-rounding", "fa3")),
    ("The output is wrong because of a wrong transpose before scaled_dot_product_attention (q was B, S, H, D)",
     ("attn.layout-mismatch", "sdpa")),
    ("With sageattn on, the video is nothing but noise; with sdpa it is right", ("attn.wrong-output", "sage")),
    (">   assert (out - out_ref).abs().max().item() <= 2 * (out_pt - out_ref).abs().max().item()\n"
     "E   AssertionError: assert 2.5 <= (2 * 0.0039)\nflash-attention/tests/test_flash_attn.py", ("attn.wrong-output", "fa2")),
    ("scaled_dot_product_attention returns NaN for bf16 inputs with a 512 head dim", ("attn.nan-output", "sdpa")),
    # release
    ("Inference got slower after updating xformers to 0.0.30 (2.1 it/s -> 1.4 it/s on the 3090)", ("attn.release-regression", "xformers")),
    ("I upgraded flash-attn to v2.7.4 and saw a drop in performance of 30% on the A100", ("attn.release-regression", "fa2")),
    ("Found it: a bug in sageattention 2.2 that hurts the speed on sm89", ("attn.release-regression", "sage")),
    # cache
    ("Our static cache is preallocated to 4096; the attention reads uninitialized cache slots, so the flash_attn_with_kvcache output "
     "is wrong", ("attn.unfilled-cache-attended", "fa2")),
    # cudnn
    ("Training got 15% slower after moving to torch 2.5.1\n\nthe graph now calls aten._scaled_dot_product_cudnn_attention",
     ("sdpa.cudnn-slower", "sdpa")),
    ("On H100 the cuDNN SDPA path is noticeably slower than FLASH_ATTENTION for head_dim 64", ("sdpa.cudnn-slower", "sdpa")),
    # pick
    ("SGLang on B200: the default attention backend is 20% slower than triton for this model", ("vllm.backend-slower", None)),
    ("[Performance]: TRITON_ATTN backend is slower than FLASH_ATTN for Llama 3 on L40S", ("vllm.backend-slower", None)),
    # words (half B)
    ("We switched to xformers but there was not much speed gain on the A10", ("prose.slow", "xformers")),
    ("flash attention 2 performs on par with sdpa for short prompts", ("prose.slow", "fa2")),
    ("Does SageAttention 3 help on the 5090?\n\nIt runs, but the quality degradation is obvious on hands.",
     ("attn.backend-rounding", "sage")),
    ("The efficient SDPA kernel returns NaN for rows that are fully masked out (left padding)", ("attn.fully-masked-rows", "sdpa")),
    ("With xformers.ops.memory_efficient_attention we ran the same experiment twice and the curves were different",
     ("attn.nondeterministic-backward", "xformers")),
    ("Seeing NaNs with a block-diagonal bias in xformers 0.0.27", ("attn.nan-output", "xformers")),
])
def test_round96_mechanism_variants(text, want):
    assert first(text) == want, ids(text)


@pytest.mark.parametrize("text, must_not", [
    # cold: a synchronized or do_bench timing; a clock around a non-attention call
    ("t0 = time.time()\nout = sageattn(q, k, v)\ntorch.cuda.synchronize()\nprint(time.time() - t0)", "attn.cold-call-timed"),
    ("ms = triton.testing.do_bench(lambda: flash_attn_func(q, k, v))\nprint(ms)", "attn.cold-call-timed"),
    ("t0 = time.time()\nbatch = next(loader)\nprint(time.time() - t0)", "attn.cold-call-timed"),
    # scale: an explicit scale that is not 1, or scale=1 with nothing said wrong
    ("out = F.scaled_dot_product_attention(q, k, v, scale=0.125)\nthe outputs are different from flash", "attn.scale-mismatch"),
    ("y = flash_attn_func(q, k, v, softmax_scale=1.0)\nworks fine, thanks", "attn.scale-mismatch"),
    # mask: the mask build's memory or an error, not its time
    ("create_block_mask runs out of memory: CUDA out of memory. Tried to allocate 16.00 GiB", "flex.block-mask-per-step"),
    ("create_block_mask raises an error for Q_LEN=1: shape mismatch", "flex.block-mask-per-step"),
    # eff: a mask's doing, or the Windows build without flash
    ("sdpa with an attn_mask uses the efficient kernel instead of flash, which is slower", "sdpa.efficient-not-flash"),
    ("On Windows torch is built without flash, so sdpa falls back to the slower mem-efficient kernel", "sdpa.efficient-not-flash"),
    # compile: the first call's compile time, not the steady state
    ("with torch.compile the first step of flash attention is 40x slower than eager (compilation)", "compile.slower-than-eager"),
    ("torch.compile makes the data loader slower than without it", "compile.slower-than-eager"),
    # serve: a backend switch that does not fix it; no wrong output said
    ("If I switch the backend to FLASH_ATTN the problem is still there", "vllm.backend-wrong-output"),
    ("VLLM_ATTENTION_BACKEND=FLASHINFER vllm serve Qwen/Qwen3-8B --port 8000", "vllm.backend-wrong-output"),
    # release: slower after upgrading torch or the app, not the backend
    ("Slower after upgrading ComfyUI to v0.3.40, nothing else changed", "attn.release-regression"),
    ("I updated the driver to 575.51 and saw a drop in performance", "attn.release-regression"),
    # cache: empty slots named with no attention or result said
    ("The cache has 12 empty slots left after the request", "attn.unfilled-cache-attended"),
    # cudnn: a finding that puts cuDNN first and calls flash slower; cuDNN said faster
    ("TORCH_CUDNN_SDPA_PREFERRED=0 takes cuDNN attention off the top of SDPA's order on H100/B200: plain scaled_dot_product_attention"
     " calls pick the flash kernel, measured 1.5-1.8x slower forward on an H200.", "sdpa.cudnn-slower"),
    ("cuDNN attention is faster than flash on the H200 for our shapes", "sdpa.cudnn-slower"),
    # pick: the engine's backend named faster
    ("FLASHINFER is faster than FLASH_ATTN on H100 for decoding", "vllm.backend-slower"),
    # words: "missing" a module is still an import; an idiom in another sentence is no slowness
    ("I think I'm missing something in my setup, sageattention gives black images", "prose.import"),
])
def test_round96_near_misses(text, must_not):
    assert must_not not in ids(text), ids(text)


def test_round96_missing_module_is_still_an_import():
    assert "prose.import" in ids("sageattention is missing from the venv after the update, ComfyUI says so at start")



def test_round96_new_entries_claim_no_unrelated_log_of_any_round():
    """None of the entries written here claims an unrelated log of any training round (the measure-only sets excluded)."""
    assert_claim_no_unrelated_log(NEW)


def test_round96_unrelated_logs_are_claimed_by_nothing():
    """Slowness and NaN whose cause is no attention backend's (a dataloader, batch size, a MoE path, fp16 VAEs, bf16 grad norms,
    ollama's own flash attention)."""
    texts = sorted((ROOT / "fixtures" / "errors" / "round96" / "unrelated").glob("*.txt"))
    assert len(texts) >= 8
    for p in texts:
        body = p.read_text(encoding="utf-8").split("\n---\n", 1)[1]
        assert ids(body) == [], (p.name, ids(body))
