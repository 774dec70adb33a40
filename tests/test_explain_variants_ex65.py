"""Variants for session 10's helper ex65 (issue 23: the shapes of text no layer of explain reads; the in-sample residue is
classed in benchmarks/results/explain-unmatched-s10.md). Every text was written by hand from the mechanism, NOT copied from
a thread: other backends, libraries, wordings, languages. Near misses beside each say what must NOT happen.

  tagged   an exception line behind another library's tag ("[detectron2] RuntimeError: FlashAttention only supports
           Ampere GPUs or newer."): the tag names the program that logged it, the message's backend is the subject
           (knowledge/attribution/ _subject_of_match, EXCEPTION_TYPE).
  wrapped  a report's first sentence hard-wrapped over two lines, the backend on the first and the failure on the next
           (knowledge/match.py _wrapped_head: the head only, so a long log costs the same).
  prefix   log prefixes read through (knowledge/match.py LINE_PREFIX): Hydra's job log, the Hugging Face example scripts'
           logging format, a rank's tag as Lightning and others write it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from attn_doctor.explain import match
from attn_doctor.knowledge import match as matcher

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from explain_generic import generic_ids  # noqa: E402


def first(text: str, generic: bool = False) -> tuple[str | None, str | None]:
    """(entry id, backend) of the first problem explain reports (with the generic layer alone if asked)."""
    found = match(text, ids=generic_ids()) if generic else match(text)
    return (found[0].entry.id, found[0].backend) if found else (None, None)


# ---- tagged ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,entry,backend", [
    ("[detectron2] RuntimeError: FlashAttention only supports Ampere GPUs or newer.", "backend.unsupported-gpu", "fa2"),
    ("detectron2: RuntimeError: FlashAttention only supports Ampere GPUs or newer.", "backend.unsupported-gpu", "fa2"),
    ("[mmcv] RuntimeError: FlashAttention only supports Ampere GPUs or newer.", "backend.unsupported-gpu", "fa2"),
    ("[causal_conv1d] RuntimeError: FlashAttention only supports Ampere GPUs or newer.", "backend.unsupported-gpu", "fa2"),
    # in a log, the tag on the error's line and the library named again above it
    ("Loading config from configs/mask_rcnn.yaml\n[detectron2] building the backbone\n"
     "[detectron2] RuntimeError: FlashAttention only supports Ampere GPUs or newer.", "backend.unsupported-gpu", "fa2"),
])
def test_tagged_exception_is_the_messages_backend(text, entry, backend):
    assert first(text) == (entry, backend)


@pytest.mark.parametrize("text", [
    # near misses: a tagged exception whose message names no attention backend stays the library's (or nobody's)
    "[detectron2] RuntimeError: CUDA error: no kernel image is available for execution on the device",
    # the library named in the message, before the backend: the library's own failure
    "[mmcv] RuntimeError: mmcv was compiled without flash attention support",
    # a library's own binary in the exception's message (its undefined symbol), not a tag
    "ImportError: /venv/lib/python3.10/site-packages/mmcv/_ext.cpython-310-x86_64-linux-gnu.so: undefined symbol: "
    "_ZN2at4_ops5zeros4callEN3c108ArrayRefINS2_6SymIntEEE",
])
def test_tagged_near_misses(text):
    assert first(text)[1] in (None, "none", "foreign")


def test_tag_rule_needs_the_library_before_the_exception_type():
    from attn_doctor.knowledge.attribution import EXCEPTION_TYPE

    assert EXCEPTION_TYPE.search("[detectron2] RuntimeError: FlashAttention only").start() == len("[detectron2] ")
    assert EXCEPTION_TYPE.search("torch.OutOfMemoryError: CUDA out of memory") is not None
    assert EXCEPTION_TYPE.search("the error: flash attention fails") is None  # a lower-case word is no exception type


# ---- wrapped --------------------------------------------------------------------------------------------------------

WRAPPED = [
    ("When I enable sage attention in the KSampler node of my Wan workflow the whole generation\n"
     "fails with black images only.", "prose.numbers", "sage"),
    ("Wenn ich Sage Attention im KSampler aktiviere, bekomme ich seit dem Update\nnur noch schwarze Bilder.",
     "prose.numbers", "sage"),
    ("Cuando activo sage attention en el nodo KSampler de mi flujo de trabajo la\n"
     "generación falla siempre con imágenes negras.", "prose.numbers", "sage"),
    ("Training a Qwen2.5 LoRA with flash attention 2.7.4 on our A6000 box keeps\nfailing at the first optimizer step.",
     "prose.fails", "fa2"),
    ("After updating torch to 2.6 the flex_attention call in my model compiles but takes\n"
     "almost 20 minutes on every start.", "prose.slow", "flex"),
    # a short first line that cannot end a sentence ("... with the")
    ("Since I switched to xformers 0.0.29 with the\nsampler crashes at the first step.", "prose.crash", "xformers"),
]


@pytest.mark.parametrize("text,entry,backend", WRAPPED)
def test_wrapped_first_sentence(text, entry, backend):
    assert first(text) == (entry, backend)
    assert first(text, generic=True) == (entry, backend)


@pytest.mark.parametrize("text", [
    # near misses: a blank line between the two lines: two paragraphs, not one sentence
    "When I enable sage attention in the KSampler node of my Wan workflow the whole generation\n\n"
    "fails with black images only.",
    # a short title that can end where it ends, over a lower-case line
    "Question about sage attention and ComfyUI\nbroken links in the readme",
    # the first line ends its sentence
    "I use sage attention in the KSampler node of my Wan workflow and it works well.\n"
    "black images come from the VAE decode in fp16.",
    # the next line is a command the report pastes
    "Steps I followed to install sage attention 2.2 on the new Windows machine with\n"
    "python -m pip install broken-package-name",
    # an indented next line (code, a log) continues nothing
    "When I enable sage attention in the KSampler node of my Wan workflow the whole generation\n"
    "    fails = check_black_images(frames)",
])
def test_wrapped_near_misses(text):
    assert first(text) == (None, None)


def test_wrapped_head_keeps_line_numbers_and_reads_the_head_only():
    head = b"When I enable sage attention in the KSampler node of my Wan workflow the whole generation\nfails with black.\nok"
    joined = matcher._wrapped_head(head)
    assert joined is not None and joined.count(b"\n") == head.count(b"\n")
    assert joined.split(b"\n")[1] == b""
    assert matcher._wrapped_head(b"a title\nnext line") is None  # no backend named: nothing joined
    # past the head (line 30), the same two lines are no report's first sentence
    text = "\n".join(f"step {i} loss 0.{i:03d}" for i in range(30)) + "\n" + WRAPPED[0][0]
    assert first(text)[0] != "prose.numbers"
    # the reported line is the sentence's first, with the backend's name on it
    found = match(WRAPPED[3][0])
    assert found and found[0].line == 1


# ---- prefix ---------------------------------------------------------------------------------------------------------

def traceback(prefix: str, path: str, error: str) -> str:
    rows = ["Traceback (most recent call last):", '  File "/workspace/train.py", line 41, in <module>', "    main()",
            f'  File "/venv/lib/python3.11/site-packages/{path}", line 88, in forward', "    out = kernel(q, k, v)", error]
    return "\n".join(prefix + r for r in rows)


@pytest.mark.parametrize("text,entry,backend", [
    # Hydra's job log at ERROR and at INFO (a traceback logged through it), every line prefixed
    (traceback("[2026-11-28 10:00:00,123][__main__][ERROR] - ", "flash_attn/flash_attn_interface.py",
               "RuntimeError: an error the rules do not know"), "triage.raised-in-fa2", "fa2"),
    (traceback("[2026-11-28 10:00:00,123][nemo_logger][INFO] - ", "xformers/ops/fmha/dispatch.py",
               "RuntimeError: an error the rules do not know"), "triage.raised-in-xformers", "xformers"),
    # the Hugging Face example scripts' format
    (traceback("11/28/2026 10:00:00 - ERROR - __main__ - ", "sageattention/core.py",
               "ValueError: an error the rules do not know"), "triage.raised-in-sage", "sage"),
    (traceback("11/28/2026 10:00:00 - INFO - transformers.trainer - ", "flash_attn/bert_padding.py",
               "IndexError: an error the rules do not know"), "triage.raised-in-fa2", "fa2"),
    # a rank's tag in other spellings
    (traceback("[rank: 1] ", "xformers/ops/fmha/cutlass.py", "RuntimeError: an error the rules do not know"),
     "triage.raised-in-xformers", "xformers"),
    (traceback("[Rank 3]: ", "sageattention/quant.py", "AssertionError: an error the rules do not know"),
     "triage.raised-in-sage", "sage"),
    # an exception line alone behind Hydra's ERROR prefix
    ("[2026-11-28 10:00:00,123][__main__][ERROR] - ValueError: an xformers op the rules do not know failed",
     "triage.error-names-backend", "xformers"),
])
def test_log_prefixes_read_through(text, entry, backend):
    assert first(text) == (entry, backend)


@pytest.mark.parametrize("text", [
    # near misses: an INFO line that is no traceback keeps its prefix, and a notice stays a notice
    "[2026-11-28 10:00:00,123][__main__][INFO] - xFormers not available\n[2026-11-28 10:00:01,000][__main__][INFO] - step 1",
    "11/28/2026 10:00:00 - INFO - __main__ - Using flash attention 2 for the model\n"
    "11/28/2026 10:00:05 - INFO - __main__ - step 10 loss 1.2",
])
def test_log_prefix_near_misses(text):
    assert first(text) == (None, None)


def test_prefix_forms_are_stripped_only_where_they_stand_first():
    for line in (b"[2026-11-28 10:00:00,123][root][ERROR] - x", b"11/28/2026 10:00:00 - WARNING - root - x", b"[rank: 0] x",
                 b"[Rank 12]: x"):
        m = matcher.LINE_PREFIX.match(line)
        assert m is not None and line[m.end():] == b"x"
    for line in (b"see [rank 0] for x", b"[2026-11-28 10:00:00,123][root][INFO] - x", b"[ranking 3] x"):
        m = matcher.LINE_PREFIX.match(line)
        assert m is None or m.end() == 0
