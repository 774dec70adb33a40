"""Variants for helper ex35p (session 35): performance complaints in prose (issue 23): a backend named with a comparison of
its speed or memory, no error ("no speedup with flash-attn", "SageAttention is slower than sdpa on my 3090", "xformers uses
more VRAM", "it/s dropped", "训练速度没有变化").

Every case was written by hand (2026-12-02) from the mechanism, not copied from a round: other backends, GPUs, apps, numbers
in several forms (it/s, s/it, tokens/s, "2x slower", "same speed") and nine languages. The positives name what explain must
report first (entry, backend); the near misses what it must not claim (a benchmark that IS faster, a release note, a
changelog line, a question not about speed, the same words in the other direction); no pattern written or widened here
matches an unrelated log of any training round (the measure-only sets are never read).

Mechanisms (knowledge file: rule):
  perf       prose.toml prose.slow, PERF: speed, time or memory said unaffected by the backend, performance said worse or
             lower than another, it/s said to drop or s/it to rise, more memory said used or memory said not reduced; in
             Chinese, Japanese, Korean, Russian, Spanish, Portuguese, German and French too; prose.gpu and prose.ignored
             leave such a line to it ("not giving any speed boost on 4090", "no effect on speed")
  perfnum    prose.toml prose.slow, PERFNUM: two throughput figures on a line that names the backend, said by the writer,
             with no word of gain on it
  perftitle  prose.toml prose.slow: a title in PERF's words without the backend over a first line that names it
  perfhead   prose.toml prose.slow: a title naming the backend over a head sentence (up to three lines on) that says the
             slowness without it; a title that says it (SLOW, PERF) over a prose line two or three lines on that names it
  using      attribution.toml [announcement]: "Using flash attention doesn't make ..." is a writer's sentence, not an app's
             start-up line
  windows    sdpa.toml sdpa.built-without-flash: SDPA slow (or heavier on memory) on Windows: no flash SDPA kernel there
  amd        sdpa.toml sdpa.rocm-experimental: SDPA slow on an AMD consumer GPU: AOTriton's kernels stay off, math runs
  warmup     guides.toml compile.first-call-slow: the first step or call slow, the later ones fast
  upgrade    attention.toml attn.release-regression: the backend said slower after updating it to a version
  blockmask  flex.toml flex.block-mask-per-step: the block mask rebuilt at every step, said beside slowness
  ignored    prose.toml prose.ignored: no speed-up, and the log still says it uses another attention
"""

from __future__ import annotations

from each_case import each
from explain_top import assert_patterns_match_no_unrelated_log, first, ids

POSITIVES = [
    # perf: speed unchanged, in English
    ("perf-noeffect", "FlashAttention seems to have no effect on speed for Llama 3 8B", ("prose.slow", "fa2")),
    ("perf-notfaster-make", "Using flash attention doesn't make training any faster on the A6000", ("prose.slow", "fa2")),
    ("perf-didnt-speedup", "sageattention didn't speed anything up in my Wan 2.2 workflow", ("prose.slow", "sage")),
    ("perf-no-boost", "xformers not giving any speed boost on 4090", ("prose.slow", "xformers")),
    ("perf-negligible", "The speed-up from sageattn is negligible on A100", ("prose.slow", "sage")),
    ("perf-worse-than", "Performance with flex_attention is worse than sdpa at 4k tokens", ("prose.slow", "flex")),
    ("perf-lower-than", "fa3 performance lower than fa2 on H800", ("prose.slow", "fa3")),
    ("perf-poor-throughput", "Low GPU utilization and poor throughput with flash attention varlen", ("prose.slow", "fa2")),
    ("perf-its-dropped", "it/s dropped after updating torch with sage attention", ("prose.slow", "sage")),
    ("perf-sit-rose", "s/it went up from 2.9 to 4.0 once xformers was enabled", ("prose.slow", "xformers")),
    ("perf-2x", "Training with flash_attention_2 is 2x slower than with sdpa", ("prose.slow", "fa2")),
    ("perf-same-its", "Sageattention does nothing for me, same it/s as before", ("prose.slow", "sage")),
    ("perf-shouldnt", "Shouldn't flash attention be faster than this?", ("prose.slow", "fa2")),
    ("perf-no-difference", "flash-attn makes no difference for Qwen2-VL inference time", ("prose.slow", "fa2")),
    ("perf-expected-but", "I expected a big speedup from FA3 but got maybe 5%", ("prose.slow", "fa3")),
    ("perf-barely", "SageAttention barely helps: 10% at best on the 4090", ("prose.slow", "sage")),
    ("perf-template", "Expected Behavior: sage attention should speed up generation. Actual Behavior: same time as without it.",
     ("prose.slow", "sage")),
    ("perf-twice-as-long", "FlexAttention takes twice as long as SDPA in my model", ("prose.slow", "flex")),
    ("perf-zh-throughput", "FA2 训练吞吐量下降了 30%", ("prose.slow", "fa2")),
    # perf: memory
    ("perf-more-vram", "xformers uses more VRAM than the default attention", ("prose.slow", "xformers")),
    ("perf-mem-higher", "Memory usage is higher with flash attention than with sdpa", ("prose.slow", "fa2")),
    ("perf-increases-mem", "xformers increases memory usage instead of reducing it", ("prose.slow", "xformers")),
    ("perf-not-reduce", "flash_attn doesn't reduce memory usage at all", ("prose.slow", "fa2")),
    ("perf-more-gb", "SageAttention takes 3 GB more VRAM on the 4060 Ti", ("prose.slow", "sage")),
    # perf: other languages
    ("perf-zh-same", "使用flash attention后训练速度没有变化", ("prose.slow", "fa2")),
    ("perf-zh-slower-than", "flash_attn 比 sdpa 还慢", ("prose.slow", "fa2")),
    ("perf-zh-vram", "xformers 显存占用反而更高", ("prose.slow", "xformers")),
    ("perf-ja-same", "FlashAttention を使っても速度が変わらない", ("prose.slow", "fa2")),
    ("perf-ja-vram", "sageattention を有効にするとVRAM使用量が増えた", ("prose.slow", "sage")),
    ("perf-ko-slower", "sage attention 사용 시 오히려 더 느립니다", ("prose.slow", "sage")),
    ("perf-ru-same", "С flash attention скорость не изменилась", ("prose.slow", "fa2")),
    ("perf-ru-mem", "xformers потребляет больше видеопамяти, чем sdpa", ("prose.slow", "xformers")),
    ("perf-es", "flash attention no mejora la velocidad en mi RTX 3090", ("prose.slow", "fa2")),
    ("perf-pt", "Com sageattention a geração não ficou mais rápida", ("prose.slow", "sage")),
    ("perf-de", "Mit xformers ist das Training nicht schneller", ("prose.slow", "xformers")),
    ("perf-fr", "Avec flash attention l'entraînement n'est pas plus rapide", ("prose.slow", "fa2")),
    # perfnum: two figures said by the writer
    ("perfnum-sit", "SageAttention2 on my RTX 3060: 1.8 s/it vs 1.6 s/it with pytorch attention", ("prose.slow", "sage")),
    ("perfnum-its", "With xformers I get 4.1 it/s, without it 4.3 it/s", ("prose.slow", "xformers")),
    ("perfnum-tokens", "Why do I only get 1900 tokens/s with flash attention when sdpa gives 2000 tokens/s?", ("prose.slow", "fa2")),
    ("perfnum-body", "Sage attention vs sdpa\n\nOn my 4070 sage gives 2.1 it/s and sdpa gives 2.2 it/s.", ("prose.slow", "sage")),
    # perftitle: the title says it, the first line names the backend
    ("perftitle", "No effect on generation speed\n\nI installed sageattention 2.2 and added --use-sage-attention to the launcher.",
     ("prose.slow", "sage")),
    ("perftitle-zh", "显存占用反而更高了\n\n我在 4090 上开启了 xformers，训练 SDXL LoRA。", ("prose.slow", "xformers")),
    # perfhead: the backend in the title, the complaint in a sentence under it; the complaint in the title, the backend two lines on
    ("perfhead-below", "Sage attention on RTX 3090\n\nI installed it following the guide.\nIt is slower than sdpa for me.", ("prose.slow", "sage")),
    ("perfhead-same", "FlashAttention 2 with Qwen2.5-7B\n\nHi,\nI enabled it in my training script but the training speed is the same as before.",
     ("prose.slow", "fa2")),
    ("perfhead-vram", "xformers and SDXL training\n\nEverything works, but it uses more VRAM than without it.", ("prose.slow", "xformers")),
    ("perfhead-question", "FA3 on H100\n\nIs it expected that it's not faster than FA2 for head dim 64?", ("prose.slow", "fa3")),
    ("perfhead-title", "No speedup at all\n\nEnvironment: torch 2.5, CUDA 12.4, RTX 4090\nI installed sageattention 2.1.1 and patched the model.",
     ("prose.slow", "sage")),
    ("perfhead-title-slower", "Training got slower\n\nHi all,\nI switched the model to flash_attention_2 yesterday.", ("prose.slow", "fa2")),
    # using: a writer's sentence that opens with "Using ... attention"
    ("using-sentence", "Using sage attention, the generation is slower than before", ("prose.slow", "sage")),
    # windows, amd: SDPA's kernel on the platform
    ("windows", "SDPA is much slower on Windows than on Linux with the same GPU", ("sdpa.built-without-flash", "sdpa")),
    ("windows-pytorch-attn", "With --use-pytorch-cross-attention ComfyUI uses more VRAM on Windows 11 than on Linux", ("sdpa.built-without-flash", "sdpa")),
    # (the titles tests/test_explain_variants_ex123.py had: the title names the cause itself, a deprecation note below it or not)
    ("windows-title-deprecated", "HunyuanVideo SDPA is very slow on Windows\n\n- step 1: ran the same workflow\n\n"
     "C:\\app\\attention.py:12: FutureWarning: `torch.backends.cuda.sdp_kernel()` is deprecated.", ("sdpa.built-without-flash", "sdpa")),
    ("amd", "SDPA is slow on my AMD RX 7900 XTX", ("sdpa.rocm-experimental", "sdpa")),
    ("amd-gfx", "scaled_dot_product_attention very slow on gfx1201 (ROCm 6.4)", ("sdpa.rocm-experimental", "sdpa")),
    # warmup: first call slow, then fast
    ("warmup", "The first iteration with flash attention takes 40 s, then each one is 1.2 s", ("compile.first-call-slow", None)),
    ("warmup-gen", "the first generation with sage attention is very slow, after that it is fast", ("compile.first-call-slow", None)),
    ("warmup-zh", "用 FA3 第一次推理很慢，之后就快了", ("compile.first-call-slow", None)),
    # upgrade: the backend's own upgrade
    ("upgrade", "xformers got slower after updating to 0.0.30", ("attn.release-regression", "xformers")),
    ("upgrade-sage", "sageattention is 20% slower since upgrading it to 2.2.0", ("attn.release-regression", "sage")),
    # blockmask
    ("blockmask", "FlexAttention gets slower because the block mask is rebuilt every step", ("flex.block-mask-per-step", "flex")),
    # ignored: no speed-up because the log still names another attention
    ("ignored-log", "sage attention no speedup, the log still says using pytorch attention", ("prose.ignored", "sage")),
]

NEAR_MISSES = [
    # a benchmark or a note that says the backend IS faster or lighter
    ("faster", "FlashAttention-3 is 1.5-2.0x faster than FA2 on H100 with FP16", "prose.slow"),
    ("bench-gain", "sage attention: 2.9 it/s, sdpa: 2.1 it/s, a nice speed-up on my 4090", "prose.slow"),
    ("bench-plain", "Benchmark: flash attention 2 reaches 3.1 it/s vs 2.4 it/s with sdpa", "prose.slow"),
    ("release", "xformers 0.0.29 release notes: memory_efficient_attention uses 30% less memory and is faster on H100", "prose.slow"),
    ("changelog-nolonger", "- Fix: FA2 no longer uses more memory than sdpa on long sequences (#1234)", "prose.slow"),
    ("changelog-doesnot", "v2.6.0: flash attention does not use more VRAM for the backward pass anymore", "prose.slow"),
    ("mem-than-expected", "flash-attn 2.8 uses much more memory than expected at 32k", "prose.slow"),  # prose.fails' (ex107)
    ("perf-than-expected", "training performance lower than expected with the new data mix (flash attention on)", "prose.slow"),  # ex94
    ("mem-lower", "With flash attention memory usage is lower than with sdpa", "prose.slow"),
    ("mem-reduced", "flash attention reduced VRAM usage from 20GB to 12GB", "prose.slow"),
    ("mem-efficiency", "SageAttention increases memory efficiency by quantizing Q and K", "prose.slow"),
    ("added", "Add sage attention support, generation now 2x faster", "prose.slow"),
    ("accuracy", "The model's performance with flash attention is worse than eager on MMLU", "prose.slow"),
    ("pr-should", "Use flash attention in the VAE too, which should be faster", "prose.slow"),
    ("same-time", "I load sage attention and the LoRA at the same time as before", "prose.slow"),
    # questions and requests not about speed
    ("how", "How do I enable flash attention in ComfyUI?", "prose.slow"),
    ("need", "Does sage attention need triton on Windows?", "prose.slow"),
    ("request", "[Feature] add a flag to compare flash attention and sdpa speed", "prose.slow"),
    # the same words, the other direction, in other languages
    ("zh-faster", "使用flash attention后训练速度明显提升", "prose.slow"),
    ("zh-vram-lower", "xformers 显存占用明显降低", "prose.slow"),
    ("ja-faster", "SageAttention を入れたら速くなった", "prose.slow"),
    ("ko-faster", "flash attention 적용 후 속도가 빨라졌어요", "prose.slow"),
    ("ru-faster", "С flash attention скорость выросла в два раза", "prose.slow"),
    ("es-faster", "Con sage attention la generación es más rápida", "prose.slow"),
    ("de-faster", "Mit xformers ist das Training schneller", "prose.slow"),
    ("fr-faster", "Avec flash attention l'entraînement est plus rapide", "prose.slow"),
    ("pt-faster", "Com sageattention a geração ficou mais rápida", "prose.slow"),
    # an app's start-up lines stay announcements
    ("banner", "Using xformers attention in VAE", "prose.slow"),
    # a title naming the backend over sentences that say it is faster, or ask something else
    ("head-faster", "flash attention installed\n\nI built it from source. Everything works fine and it is much faster now.", "prose.slow"),
    ("head-question", "Sage attention on RTX 3090\n\nI installed it following the guide.\nHow do I check that it is used?", "prose.slow"),
    # the mechanisms' near misses: WSL, an Instinct card, a warm-up without a fast word, a PR's cache note, another package upgraded
    ("windows-wsl", "SDPA is slow under WSL on Windows 11", "sdpa.built-without-flash"),
    ("amd-mi300", "SDPA is slow on AMD MI300X with ROCm 6.2", "sdpa.rocm-experimental"),
    ("warmup-cache", "CuTe DSL compiles on first use, so the first step takes 40 s; later steps use the cache.", "compile.first-call-slow"),
    ("blockmask-fast", "the block mask is built once per shape and reused at every step", "flex.block-mask-per-step"),
]


def _positive(text, want):
    entry, backend = want
    got = first(text)
    assert got[0] == entry and (backend is None or got[1] == backend), got


def _near_miss(text, must_not):
    assert must_not not in ids(text), ids(text)


def test_ex35p_variants():
    each(((name, (text, want)) for name, text, want in POSITIVES), _positive)


def test_ex35p_near_misses():
    each(((name, (text, must_not)) for name, text, must_not in NEAR_MISSES), _near_miss)


# Each pattern written or widened here, found by a piece of its text, matches no unrelated log of any training round on its own
# (before ranking and attribution decide anything).
PIECES = {
    "prose.slow": ("negligible|minimal|marginal", "img/s|fps|sec/it"),
    "sdpa.built-without-flash": ("WSL",),
    "sdpa.rocm-experimental": ("Strix",),
    "compile.first-call-slow": ("forever|ages", "首次", "初回"),
    "attn.release-regression": ("slowed[ \\t]+down|slow)\\b[^\\n]{0,40}",),
    "flex.block-mask-per-step": ("rebuilt",),
}


def test_ex35p_patterns_match_no_unrelated_log():
    assert_patterns_match_no_unrelated_log(PIECES)
