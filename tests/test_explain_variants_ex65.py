"""Variants for session 10's helper ex65 (issue 23: the shapes of text no layer of explain reads; the in-sample residue is
classed in benchmarks/results/explain-unmatched-s10.md). Every text was written by hand from the mechanism, NOT copied from
a thread: other backends, libraries, wordings, languages. Near misses beside each say what must NOT happen.

  tagged   an exception line behind another library's tag ("[detectron2] RuntimeError: FlashAttention only supports
           Ampere GPUs or newer."): the tag names the program that logged it, the message's backend is the subject
           (knowledge/attribution.py _subject_of_match, EXCEPTION_TYPE).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from attn_doctor.explain import match

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
