"""Variants for helper ex40r (session 40): explain's misses that recur at the blind rounds' first measurement
(benchmarks/results/explain-recurring-s40.md, .tsv: every first-measurement miss of 35 rounds, 21m-201m).

Two label classes were missed at first measurement in the most rounds since 166m and are still missed on texts today:
attn.wrong-output (8 of the 10 rounds 172m-201m, 21 of 35 in all) and prose.slow (4 of 10, 10 of 35). Every case below was
written by hand (2026-12-03): other backends, GPUs, numbers, wordings and Chinese, not the fixtures' sentences. Positives name
what explain must report first (entry, backend; None: any backend); near misses what it must not report (None: nothing).

Mechanisms (knowledge file: rule; the training texts they came from):
  perf      prose.toml PERF (prose.slow reads it with the backend on the line; prose.gpu does not take such a line for a GPU
            refusal): a verb that lowers the speed ("decreases / reduces / hurts / kills performance", not a modal's, a
            question's or "... overhead"), the speed said to decrease (not a model's performance, not accuracy), "no
            significant speed-up", "the speed-up is not obvious", "not significantly faster", 提速/加速/速度提升 不明显 / 有限,
            "hoping to see a benefit ... but" (round 198m AUTOMATIC1111/stable-diffusion-webui#4467, round 24m
            thu-ml/TurboDiffusion#86, round 198m thu-ml/SageAttention#285, round 160m Comfy-Org/ComfyUI#13658)
  hedge     prose.toml FAIL: "doesn't / does not" is no failure where it hedges ("doesn't always / necessarily mean", "does not
            matter"), so prose.build no longer takes a speed complaint that says it installs the backend (round 178m
            huggingface/diffusers#1753)
  window    attention.toml attn.wrong-output: a sliding window of N said to mask / see / attend to another number of
            tokens, or an off-by-one of the window (round 172m vllm-project/vllm#3385)
"""

from __future__ import annotations

from each_case import each
from explain_top import assert_patterns_match_no_unrelated_log, first, ids

POSITIVES = [
    ("perf-decreases", "Enabling xformers decreases performance on my 3060 a lot", ("prose.slow", "xformers")),
    ("perf-kills", "sageattention kills the generation speed on the 4060 Ti", ("prose.slow", "sage")),
    ("perf-reduced", "flash-attn 2.7.4 reduced the training throughput by 20% on our H100 nodes", ("prose.slow", "fa2")),
    ("perf-speed-dropped", "With flex attention the inference speed dropped noticeably after the upgrade", ("prose.slow", "flex")),
    ("perf-no-significant", "No significant speedup from SageAttention on an L40S", ("prose.slow", "sage")),
    ("perf-not-obvious", "The speedup is not obvious with xformers on SDXL at 1024px", ("prose.slow", "xformers")),
    ("perf-not-significantly", "flash_attn is not significantly faster for Llama-3-8B fine-tuning on my 4090", ("prose.slow", "fa2")),
    ("perf-zh-not-obvious", "用了 xformers 之后加速不明显，还是 3 秒一张", ("prose.slow", "xformers")),
    ("perf-zh-limited", "开启 flash_attn 后速度提升很有限", ("prose.slow", "fa2")),
    ("perf-hoping", "I was hoping to see some benefit from sage attention, but the step time stays at 41 s", ("prose.slow", "sage")),
    ("hedge-slow", "Having flash-attn installed doesn't necessarily mean it should be used: I install it for inference, but training gets slower with flash-attn",
     ("prose.slow", "fa2")),
    ("hedge-slow-matter", "Which sageattention build I install does not matter, sageattention makes my Wan runs slower on the 3090", ("prose.slow", "sage")),
    ("hedge-build-stays", "flash-attn doesn't install on Windows with CUDA 12.4", ("prose.build", "fa2")),
    ("window-count", "With flash_attn_func and window_size=(1024, 0) a sliding window of 1024 attends to 1025 keys in our port",
     ("attn.wrong-output", "fa2")),
    ("window-underscore", "xformers' local attention: a window_size of 4096 only sees 4095 tokens here", ("attn.wrong-output", "xformers")),
    ("window-offbyone", "There is an off-by-one in the sliding window of the SDPA path, outputs differ after 4k tokens",
     ("attn.wrong-output", "sdpa")),
    ("window-offbyone-after", "The sliding window in our sage attention wrapper has an off-by-one, the logits drift past 8k",
     ("attn.wrong-output", "sage")),
]

NEAR_MISSES = [
    ("perf-question", "Will sageattention reduce performance on a 4090?", "prose.slow"),
    ("perf-overhead", "xformers helps to reduce the performance overhead of attention", "prose.slow"),
    ("perf-modal", "Does flash attention decrease the speed on a T4?", "prose.slow"),
    ("perf-model-accuracy", "The model performance degraded after switching to flash attention 2", "prose.slow"),
    ("perf-significant", "sageattention gives a significant speedup, 2x on the 4090", "prose.slow"),
    ("perf-zh-obvious", "用了 xformers 之后加速很明显", "prose.slow"),
    ("window-same", "Mistral's sliding window of 4096 tokens works fine with flash attention 2", "attn.wrong-output"),
    ("window-equal", "with window_size=512 each query sees 512 keys in xformers", "attn.wrong-output"),
    ("offbyone-elsewhere", "off-by-one error in the tokenizer, flash attention is fine", "attn.wrong-output"),
    ("window-no-backend", "the pooling window of 3 covers 9 elements of the feature map", None),
]


def _positive(text, want):
    entry, backend = want
    got = first(text)
    assert got[0] == entry and (backend is None or got[1] == backend), (got, ids(text))


def _near_miss(text, must_not):
    found = ids(text)
    assert (not found) if must_not is None else must_not not in found, found


def test_ex40r_variants():
    each(((name, (text, want)) for name, text, want in POSITIVES), _positive)


def test_ex40r_near_misses():
    each(((name, (text, must_not)) for name, text, must_not in NEAR_MISSES), _near_miss)


# Each attn.wrong-output pattern written here, found by a piece of its text, matches no unrelated log of any training round on its
# own (before ranking and attribution decide anything). prose.slow's patterns are left out: each holds all of PERF and read whole
# over ~1,100 logs they cost 9 s (CI's budget); they are head-only in use, and compare_matches showed no unrelated log changed.
PIECES = {
    "attn.wrong-output": ("(?:off[ -]by[ -]one|one[ -]off)", "(?:sliding[ _-]?)?window(?:[ _]size)?[ \\t]+(?:of"),
}


def test_ex40r_patterns_match_no_unrelated_log():
    assert_patterns_match_no_unrelated_log(PIECES)
