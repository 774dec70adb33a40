"""benchmarks/explain_gate.py (helper ex175): the gate condition an unmatched text fails, on texts written for it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import explain_gate as g  # noqa: E402
import explain_prose_structure as ps  # noqa: E402
from attn_doctor import explain as ex  # noqa: E402
from attn_doctor.knowledge.match import scan  # noqa: E402

CUT = ('Traceback (most recent call last):\n  File "/home/u/train.py", line 3, in <module>\n    main()\n'
       '  File "/home/u/model.py", line 9, in forward\n    out = attn(q, k, v)')


@pytest.mark.parametrize("text,gate", [
    ("The run stops after two epochs and I do not know why.", "G1-no-name"),
    ("Question about xformers\n\nWhich version goes with torch 2.4?", "G3-prose/head-no-word"),
    ("My training is weird\n\na\nb\nc\nd\ne\nf\nThe xformers wheel fails to install on Windows.",
     "G3-prose/past-head/name-failure-no-writer"),
    ("flash-attn not installing because reasons", "G3-prose/head-line-context-word-only"),
    ("I set up flash-attn for this model\n" + CUT, "G2-log/frames-no-exception-line"),
    ("RuntimeError: CUDA error: an illegal memory access was encountered", "G4-refused/needs-backend"),
])
def test_gate_condition(text, gate):
    assert not ex.match(text), "the gate table is for unmatched texts"
    got = g.classify(text, scan(text, probes=ex.probes()), ex, *ps.macros(), g.prose_macros())
    assert got[0] == gate, got


def test_catch_all_ids():
    ids = g.catch_all_ids()
    assert {"prose.fails", "prose.said", "triage.error-names-backend", "triage.through-backend"} <= ids
    assert not {"fa2.missing", "xformers.no-operator", "sage.not-installed"} & ids  # the specific entries are left out
