"""Variants for helper ex34u (session 34, issue 23): mechanisms of report texts that recur in new threads, which explain read
nothing of (benchmarks/results/explain-misses-s34.md says how each was found and what it changed in the training rounds).

Every case was written by hand (2026-12-02): other backends, versions, GPUs, wordings and languages than any fixture. The
positives name what explain must report first (entry, backend); the near misses what it must not report.

Mechanisms (knowledge file: rule; where it came from):
  wheels    builds.toml build.prebuilt-wheel-missing, helper ex34u's patterns: a backend's wheel said absent ("no wheel for
            flash-attn on Windows", "no xformers wheel for cu129", "the wheels are missing for torch 2.9") or asked for (please
            / could you / add / is there / where can I find ... a wheel of the backend for a named torch, CUDA, Python, OS or
            GPU), and the absence in Chinese, Japanese, Korean and Russian; build.prebuilt-wheel-missing and
            install.no-distribution were missed at the first measurement of 9 and 5 blind rounds (explain-recurring-s29.md)
  loss      prose.toml NUMBERS: a training loss that rises, blows up, goes up, keeps increasing, first drops then rises or turns
            unstable, in seven languages (round 9 karpathy/nanoGPT#137, round 172m triton-lang/triton#1957 said so)
  torch     versions.toml versions.needs-other-torch: the backend's torch against the writer's, in words ("xformers 0.0.30
            requires torch 2.7 but I have 2.6"); pip's own line was read before
  smrange   prose.toml NOTON: an SM range a backend supports ("which support SM80-90") is a limit, as "only supports" was
            (round 6b sgl-project/sglang#12178)
  envrows   knowledge/match.py ENV_ROW: a line that is only an environment field and a short value ("Machine: RTX Pro 6000",
            "CUDA:12.8", "- **GPU:** RTX 5090") is no sentence of a report's head, as a blank line is not (round 6b
            sgl-project/sglang#12178: its FA3 sentence on line 6 under three such lines)
"""

from __future__ import annotations

from each_case import each
from explain_top import assert_patterns_match_no_unrelated_log, first

WHEELS = [
    ("No wheel for flash-attn on Windows", "fa2"),
    ("There is no wheel for sageattention for python 3.13 yet", "sage"),
    ("no xformers wheel for cu129", "xformers"),
    ("Missing wheel for FA3 on CUDA 13", "fa3"),
    ("flash-attn 2.8.3 has no wheel for my setup, pip builds it from source", "fa2"),
    ("The SageAttention wheels are still missing for torch 2.9", "sage"),
    ("Please release a flash-attn wheel for torch 2.8 and cu128", "fa2"),
    ("Could you please provide xformers wheels for cu129?", "xformers"),
    ("[Feature Request] Windows wheels for SageAttention 2.2", "sage"),
    ("Add SageAttention 3 wheels for PyTorch 2.14 / CUDA 13.1", "sage"),
    ("Where can I find a flash_attn_3 wheel for python 3.12 and torch 2.9?", "fa3"),
    ("Is there a precompiled wheel of flash attention for ARM64 (GH200)?", "fa2"),
    ("FA3 没有 torch 2.8 的 whl 吗", "fa3"),
    ("xformers 缺少 cu128 的 wheel，只能自己编译", "xformers"),
    ("flash-attn に Windows 用の wheel がない", "fa2"),
    ("sageattention는 Windows용 휠이 없나요?", "sage"),
    ("Для xformers 0.0.28 нет готовых wheel под Windows", "xformers"),
]
# not an absence or a request: advice, an install that worked, a change list, a build's own failure, pip's refusal of a wheel
# file, pip's --no-binary option, the `wheel` package
WHEELS_NEAR = [
    "Please use the flash-attn wheel for torch 2.8 from the release page.",
    "I installed the flash-attn wheel for torch 2.8 cu128 and it works.",
    "Added flash-attn wheels for torch 2.8 and cu128",
    "ERROR: Failed building wheel for flash-attn",
    "Building wheel for xformers (setup.py) ... error",
    "ERROR: sageattention-2.2.0-cp312-cp312-win_amd64.whl is not a supported wheel on this platform.",
    "- Add `--no-binary flash-attn` to force compilation from source with SM100 CUDA arch",
    "      ModuleNotFoundError: No module named 'wheel'\n      [end of output]\n"
    "  note: This error originates from a subprocess, and is likely not a problem with pip.\nerror: metadata-generation-failed\n"
    "× Encountered error while generating package metadata.\n╰─> flash-attn",
    "No problem, the flash-attn wheel for torch 2.8 works on Windows now.",
    # a backend not installed in this environment, said as its wheel "missing" with no release combination (session 34's CI:
    # tests/test_explain_variants_ex86.py reads it as prose.import)
    "On our V100 nodes the model crashes at import because the flash_attn wheel is missing.",
    "the xformers wheel is missing from the image, so the import fails",
]


def test_wheel_absent_or_asked_for_in_words():
    def check(text, backend):
        assert first(text) == ("build.prebuilt-wheel-missing", backend), first(text)

    def near(text):
        assert first(text)[0] != "build.prebuilt-wheel-missing", first(text)

    each(((t, (t, b)) for t, b in WHEELS), check)
    each(((t[:60], (t,)) for t in WHEELS_NEAR), near)


LOSS = [
    ("loss blows up with flash attention", "fa2"),
    ("The loss suddenly explodes when I enable xformers", "xformers"),
    ("Loss goes up after enabling SageAttention", "sage"),
    ("loss keeps increasing with FlashAttention 2", "fa2"),
    ("Loss is unstable with xformers", "xformers"),
    ("With FA3 the training loss first drops and then rises again", "fa3"),
    ("Loss goes up after 2000 steps\nDisabling flash attention fixed it for me.", "fa2"),  # a title over the sentence naming it
    ("开启 flash attention 后 loss 不降反升", "fa2"),
    ("使用 xformers 后 loss 爆炸", "xformers"),
    ("flash attention を使うと loss が発散します", "fa2"),
    ("С flash attention лосс растёт", "fa2"),
    ("SageAttention 사용 시 loss가 발산합니다", "sage"),
    ("Con flash attention la pérdida aumenta", "fa2"),
]
# a loss that falls, a backend that is the cure (without it the loss diverges), memory that grows
LOSS_NEAR = [
    "With flash attention the loss is decreasing and the accuracy increasing as expected.",
    "flash attention: loss decreasing, accuracy increasing, all good",
    "Training diverges without flash attention",
    "Training baichuan2 13b, when pp>1, it will nanloss when flash attention is turned off.",
]


def test_training_loss_that_rises_is_wrong_numbers():
    def check(text, backend):
        assert first(text) == ("prose.numbers", backend), first(text)

    def near(text):
        assert first(text) == (None, None), first(text)

    each(((t, (t, b)) for t, b in LOSS), check)
    each(((t, (t,)) for t in LOSS_NEAR), near)


TORCH = [
    ("xformers 0.0.30 requires torch 2.7 but I have 2.6", "xformers"),
    ("xformers needs torch 2.7 but my ComfyUI has 2.6", "xformers"),
    ("sageattention 2.2.0 needs torch>=2.3 while my env has torch 2.1", "sage"),
    ("flash-attn 2.8.3 requires torch 2.6+, I have 2.4", "fa2"),
    ("FA3 needs torch 2.8 but the installed one is 2.7", "fa3"),
    ("I have torch 2.6 but flash-attn 2.8.3 was built for torch 2.7", "fa2"),
    ("xformers 需要 torch 2.7 但我的是 2.6", "xformers"),
]
# the requirement as a fact or a recipe, with no other torch of the writer's
TORCH_NEAR = [
    "xformers 0.0.30 requires torch 2.7.",
    "xformers 0.0.30 requires torch 2.7, so install torch 2.7 first and it works.",
]


def test_backend_torch_against_the_writers_in_words():
    def check(text, backend):
        assert first(text) == ("versions.needs-other-torch", backend), first(text)

    def near(text):
        assert first(text)[0] != "versions.needs-other-torch", first(text)

    each(((t, (t, b)) for t, b in TORCH), check)
    each(((t, (t,)) for t in TORCH_NEAR), near)


def test_new_patterns_match_no_unrelated_log():
    # each of the patterns written here holds one of these pieces (the exclusions every English one opens with, a word of each
    # language's)
    assert_patterns_match_no_unrelated_log({
        "build.prebuilt-wheel-missing": ("""named[ \\t]+['"`]?wheel""", "缺乏", "ホイール", "휠", "отсутств"),
        "versions.needs-other-torch": ("whereas", "可是")})


SMRANGE = [
    ("flash-attention3 supports SM80-90, my GPU is SM120", "fa3"),
    ("My card is an RTX Pro 6000\nThe default attention backend is FlashAttention 3, which support sm80 - sm90.", "fa3"),
    ("SageAttention 2 supports sm_80 to sm_90 here, the card is sm_120.", "sage"),
]


def test_sm_range_supported_is_a_limit():
    def check(text, backend):
        assert first(text) == ("prose.gpu", backend), first(text)

    each(((t[:60], (t, b)) for t, b in SMRANGE), check)


def _env_report(rows: list[str], backend_line: str) -> str:
    return "\n".join(["RTX Pro 6000 not compatible with the trainer"] + rows + ["1) The trainer's kernels are built for SM100 only.",
                                                                                  backend_line])


ENV = [["Machine: RTX Pro 6000", "CUDA:12.8", "TORCH: >2.7.0"],
       ["- **OS:** Ubuntu 24.04", "- **GPU:** RTX 5090 (32 GB)", "- **Python:** 3.12"],
       ["Driver Version: 575.51", "torch==2.8.0", "transformers: 4.56.1"]]
# what each report's sixth line says (its backend), read once the field lines above it count as nothing
SIXTH = [("2) The default attention backend is flash-attention3, which only supports SM80-90.", "fa3"),
         ("2) xformers does not support this GPU yet.", "xformers")]


def test_environment_fields_are_no_sentences_of_the_head():
    def check(rows, line, backend):
        from attn_doctor.knowledge import entries

        got = first(_env_report(rows, line))  # the head's reading of the sixth line (a head entry's), not a body sentence's
        assert got[1] == backend and got[0] is not None and entries()[got[0]].head, got

    def near(line):
        # three sentences in place of the field lines: the sixth line is past the head's five sentences, as before (no head
        # entry reads it; a body sentence's reading, prose.said, may)
        from attn_doctor.knowledge import entries

        rows = ["I bought the card last week.", "The trainer installs fine.", "Then the first step stops."]
        got = first(_env_report(rows, line))
        assert got[0] is None or not entries()[got[0]].head, got

    each(((f"{rows[0]} / {line[:30]}", (rows, line, b)) for rows in ENV for line, b in SIXTH), check)
    each(((line[:40], (line,)) for line, _ in SIXTH), near)
    from attn_doctor.knowledge.match import ENV_ROW

    def row(text, said):
        b = text.encode()
        assert bool(ENV_ROW.match(b, 0, len(b))) is not said

    each(((t, (t, s)) for t, s in [("Machine: RTX Pro 6000", False), ("CUDA:12.8", False), ("• GPU: RTX 4090", False),
                                   ("GPU: not detected", True), ("RuntimeError: CUDA error: no kernel image", True),
                                   ("torch: fails to import after the update", True),
                                   ("OS: Windows 11, and every generation with sage attention crashes after two minutes of work", True)]),
         row)
