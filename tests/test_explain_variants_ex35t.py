"""Variants for helper ex35t (session 35, issue 23): texts thin on evidence: the question whether a backend runs on a GPU or
platform, a selection said not to take, a diagnosis in words. Training misses of this shape: round 9 thu-ml/SageAttention#66 ("Possibilities of support Pascal" over "I was wonder
if sage attention is usable via DP4A"), round 26 evo-design/evo#118 ("Running evo on V100 or A100", the backend two lines
below: not read), round 47 Beinsezii/comfyui-amd-go-fast#4 ("FlashAttention 2 ROCM support is upstreamed?", labelled
prose.slow: not read); ex34u found backend.unsupported-gpu missed in five blind rounds or more (explain-recurring-s29.md).

Every case was written by hand (2026-12-02): other backends, GPUs, platforms and wordings than the fixtures, in English,
Chinese, Japanese, Korean, Russian, Spanish and Portuguese. Mechanisms (knowledge/prose.toml, blocks marked ex35t):
  question  NOTON (prose.gpu's words of a GPU the backend does not serve) widened with the question forms: "usable / compatible
            ...?", "plans to support", "possibility of supporting", "I wonder if X works / is usable", and the same questions in
            the other languages (可以在 X 上用吗, 是否支持, 有计划支持, 対応予定, 사용 가능한가요, 지원 계획, планируете ли поддержку,
            будет ли поддержка, hay planes de soportar, há planos de suportar)
  cjkgpu    GPU: a V100 / P40 / T4 / L40S / MI300X / B200 / GB10 / Pro 6000 bounded by ASCII letters and digits only (as the RTX
            names were since round 25): "V100에서", "在P40上" name the GPU
(Not written: a title that is only the backend on a GPU with a question mark, "sageattention on a P40?": the corpus keeps that shape
as a question with no failure, fixtures/errors/nearmiss-s10/unrelated feature-xformers-mac.txt "xformers on Apple Silicon?" and
qa-fa3-h100.txt "Is FA3 used automatically on H100?"; a title pattern for it claimed both.)
  ignored   IGNORED (prose.ignored): the other attention said, in the passive, to be still used / selected rather than / over
            the backend (round 75 dyscorv/nix-comfyui#4 "'cross-attention' is still being used rather than xformers"), Japanese
            and Korean forms
  blame     BLAMEW / BLAMEAFTER (prose.fails, in the head only): a sentence that states the backend as the cause
            ("the culprit is", "caused by", "the reason is that", 问题出在, 原因是, 导致的, のせい, 때문, проблема в, el problema es,
            o problema é); not negated, not asked, not a hedged suspicion
(Also not written: a traceback cut before its error line under a report that names a backend, as a last resort of its own
(triage.cut-traceback): it read 3 training misses (kijai/ComfyUI-WanVideoWrapper#695, zhuzilin/ring-flash-attention#53,
Dao-AILab/flash-attention#108) but changed 202 texts' readings, outranking the frames' and the head's readings, and claimed 2
unrelated logs (yaof20/Flash-RL#1, chengzeyi/stable-fast#115): most stored excerpts end inside a traceback.)
The near misses: the same words where nothing is asked or refused (a success report, a changelog line, a speed question, an
install question, a statement that it is usable).
"""

from __future__ import annotations

from each_case import each
from explain_top import first, ids

GPU_ENTRIES = {"backend.unsupported-gpu", "prose.gpu"}

POSITIVES = [
    # question: English forms
    ("usable-pascal", "Is sageattention usable on a Pascal card like the P40?", "sage"),
    ("compatible-mi", "Is xformers compatible with the MI250X?", "xformers"),
    ("plans-volta", "Any plans to support Volta in FlashAttention 2?", "fa2"),
    ("plans-turing-fa3", "Do you have plans for supporting Turing in FA3?", "fa3"),
    ("possibility-turing", "Possibility of supporting Turing GPUs in sageattention", "sage"),
    ("wonder-t4", "I wonder whether flex attention works on a T4 at all.", "flex"),
    ("possibilities-title", "Possibilities of support Maxwell\n\nI was wondering if flash attention can be made to run through the fp32 path.", "fa2"),
    # question: other languages
    ("zh-keyi", "sageattention 可以在 2080 上用吗", "sage"),
    ("zh-shifou", "flash attention 是否支持 V100？", "fa2"),
    ("zh-jihua", "请问 xformers 有计划支持 MI300X 吗", "xformers"),
    ("ja-yotei", "FlashAttention 2 の Turing 対応予定はありますか", "fa2"),
    ("ko-ganeung", "T4에서 sageattention 사용 가능한가요?", "sage"),
    ("ko-gyehoek", "flash attention 볼타(V100) 지원 계획이 있나요?", "fa2"),
    ("ru-plan", "Планируете ли вы поддержку Pascal в sageattention?", "sage"),
    ("ru-budet", "Будет ли поддержка Turing в FlashAttention 3?", "fa3"),
    ("es-planes", "¿Hay planes de soportar Turing en flash attention?", "fa2"),
    ("es-compatible", "¿xformers es compatible con la P100?", "xformers"),
    ("pt-planos", "Há planos de suportar Pascal no sageattention?", "sage"),
    # cjkgpu: a GPU's name against CJK or Korean characters
    ("cjk-v100", "V100에서 flash attention 사용 가능한가요?", "fa2"),
    ("cjk-p40", "sageattention 在P40上不支持吗", "sage"),
]

NEAR_MISSES = [
    # a statement, not a question: it is usable / compatible / runs
    ("usable-said", "flash attention is usable on the A100 and fast."),
    ("compatible-said", "xformers 0.0.28 is compatible with the MI250X since ROCm 6.1."),
    ("runs-great", "flash attention runs great on the V100 now, thanks"),
    ("zh-haoyong", "xformers 在 V100 上很好用"),
    ("ja-taiou-done", "FlashAttention 2.7 で Turing に対応しました。"),
    # a changelog line and a success report
    ("changelog", "- sageattention: kernels for the P40 and other Pascal cards are now built by default"),
    ("success", "I can confirm sageattention works on my P40 with the new wheel."),
    # a question about speed or memory, a why / how question, an install question
    ("why-faster", "Why is flash attention faster on the H100?"),
    ("memory-q", "flash attention memory use on the A100?"),
    ("install-q", "pip install flash-attn on Windows with a 4090?"),
    ("howto-q", "How do I enable xformers on my 3090?"),
    # plans said of something else (a feature, not a GPU)
    ("plans-feature", "Any plans to support paged KV cache in flash attention?"),
]


def _positive(text, backend):
    got = first(text)
    assert got[0] in GPU_ENTRIES and got[1] == backend, got


def _near_miss(text):
    assert not GPU_ENTRIES & set(ids(text)), ids(text)


def test_ex35t_gpu_questions():
    each(((name, (text, backend)) for name, text, backend in POSITIVES), _positive)


def test_ex35t_near_misses():
    each(((name, (text,)) for name, text in NEAR_MISSES), _near_miss)


# ---- the other shapes: a selection said not to take in the passive, a diagnosis that states the backend as the cause
# (prose.toml IGNORED, BLAMEW / BLAMEAFTER); not a hedged suspicion ("seems to be a problem in flash-attn": round 24m unrelated
# OpenGVLab/VideoChat-Flash#7)

SHAPES = [
    # ignored: the other attention still used rather than / over the backend, in the passive, and in Japanese and Korean
    ("ignored-passive", "On my 3090 split attention is still being used rather than xformers.", ("prose.ignored", "xformers")),
    ("ignored-over", "Sub-quadratic attention is still selected over sage attention after the restart", ("prose.ignored", "sage")),
    ("ignored-ja", "xformers ではなく split attention が使われたままです", ("prose.ignored", "xformers")),
    ("ignored-ko", "xformers가 아니라 여전히 split attention이 사용됩니다", ("prose.ignored", "xformers")),
    # blame: the head and the body, other backends, other languages
        ("blame-culprit", "The culprit was flash attention 2.7.4 on this card.", ("prose.fails", "fa2")),
    ("blame-reason", "The reason is that `flex_attention` is less tuned on this card.", ("prose.fails", "flex")),
    ("blame-caused", "It was caused by sageattention 2.1 and the fp8 kernels.", ("prose.fails", "sage")),
    ("blame-indeed", "It's indeed a bug in sage attention, which the sampler uses.", ("prose.fails", "sage")),
    ("blame-zh", "这次是 sageattention 导致的", ("prose.fails", "sage")),
    ("blame-zh-head", "原因是 xformers 版本太新", ("prose.fails", "xformers")),
    ("blame-ja", "画像が乱れるのは xformers が原因でした", ("prose.fails", "xformers")),
    ("blame-ko", "에러는 flash attention 때문입니다", ("prose.fails", "fa2")),
    ("blame-ru", "Проблема в xformers 0.0.28, с 0.0.27 всё работает", ("prose.fails", "xformers")),
    ("blame-es", "El problema es xformers 0.0.28 en Windows", ("prose.fails", "xformers")),
    ("blame-pt", "O problema é o sageattention 2.2 no Windows", ("prose.fails", "sage")),
]

SHAPE_MISSES = [
    # ignored: a choice said, and the backend still used as wanted
    ("ignored-wanted", "xformers is still being used, which is what we want", "prose.ignored"),
    # blame: negated, asked, exonerated, and a changelog
    ("blame-not", "Black images on the 3090\n\n" + "It's not caused by xformers, the VAE is the problem.", "prose.fails"),
    ("blame-isnot", "Black images on the 3090\n\n" + "The problem is not xformers, it is the VAE.", "prose.fails"),
    ("blame-asked", "Black images on the 3090\n\n" + "Is this caused by xformers?", "prose.fails"),
    ("blame-suspect", "Black images on the 3090\n\n" + "It seems to be a problem in flash-attn, although I followed your instructions step by step.", "prose.fails"),
    ("blame-zh-not", "Black images on the 3090\n\n" + "不是 xformers 导致的", "prose.fails"),
    ("blame-ja-not", "Black images on the 3090\n\n" + "黒い画像は xformers のせいではないです", "prose.fails"),
    ("blame-ko-not", "Black images on the 3090\n\n" + "에러는 xformers 때문이 아닙니다", "prose.fails"),
]


def _shape(text, want):
    got = first(text)
    assert got == want, got


def _shape_miss(text, must_not):
    assert must_not not in ids(text), ids(text)


def test_ex35t_shapes():
    each(((name, (text, want)) for name, text, want in SHAPES), _shape)


def test_ex35t_shape_misses():
    each(((name, (text, must_not)) for name, text, must_not in SHAPE_MISSES), _shape_miss)

