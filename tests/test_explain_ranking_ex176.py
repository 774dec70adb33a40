"""Ranking for helper ex176 (session 30; benchmarks/results/explain-ranking-s30.md): two readings of one line, a catch-all
and a specific entry that is no cause (a warning, a symptom): the specific one ranks first, wherever on the line each match
starts. Source: round 109m d8ahazard/sd_dreambooth_extension#1094 (import.failed above import.blocked-in-sys-modules on
"ModuleNotFoundError: import of xformers halted; None in sys.modules"); carry: round 160m's first measurement,
Dao-AILab/flash-attention#250 (import.failed above fa2.extension-missing on one "No module named 'dropout_layer_norm'" line).

Written by hand (2026-12-01): other libraries, wordings and tracebacks than the fixtures. The variants fail on the start code
(s30start, main at 11ab55e1): the catch-all ranked first there. The near misses keep the order by position: a catch-all on
a line of its own above a specific warning, and a catch-all beside a note (which ranks last whatever it reads).
"""

from __future__ import annotations

import pytest

from attn_doctor import explain
from attn_doctor.knowledge import entries
from attn_doctor.knowledge.match import _Candidate, _rank


def _ids(text: str) -> list[str]:
    return [m.entry.id for m in explain.match(text)]


@pytest.mark.parametrize("text,backend", [
    ("ModuleNotFoundError: import of xformers halted; None in sys.modules", "xformers"),
    ("ImportError: import of xformers.ops halted; None in sys.modules", "xformers"),
    ("ModuleNotFoundError: import of flash_attn halted; None in sys.modules", "fa2"),
    ("ModuleNotFoundError: import of sageattention halted; None in sys.modules", "sage"),
    ('Traceback (most recent call last):\n  File "D:\\webui\\extensions\\sd-animate\\scripts\\attn.py", line 7, in <module>\n'
     "    import xformers.ops\nModuleNotFoundError: import of xformers halted; None in sys.modules", "xformers"),
])
def test_blocked_import_before_the_catch_all_on_its_line(text, backend):
    found = explain.match(text)
    assert [m.entry.id for m in found][:2] == ["import.blocked-in-sys-modules", "import.failed"], [m.entry.id for m in found]
    assert found[0].backend == backend


def _cand(entry_id: str, line: int, column: int) -> _Candidate:
    return _Candidate(entries()[entry_id], best=20, patterns={0}, position=(line << 24) + column, first_line=line,
                      evidence="ModuleNotFoundError: No module named 'rotary_emb'", starts={line}, lines={line})


@pytest.mark.parametrize("specific", ["fa2.extension-missing", "import.blocked-in-sys-modules", "xformers.built-for-other-cuda"])
def test_same_line_specific_non_cause_first(specific):
    # the mechanism, whatever the entries: the catch-all's match starts earlier on the shared line (column 0 vs 21)
    order = [m.entry.id for m in _rank([_cand("import.failed", 3, 0), _cand(specific, 3, 21)])]
    assert order == [specific, "import.failed"]


def test_catch_all_on_its_own_earlier_line_stays_first():
    # near miss: two lines, two readings: by where each first shows, as before
    order = [m.entry.id for m in _rank([_cand("import.failed", 3, 0), _cand("fa2.extension-missing", 4, 0)])]
    assert order == ["import.failed", "fa2.extension-missing"]


def test_catch_all_beside_a_note_stays_first():
    # near miss: a note on the line does not outrank the catch-all (notes come last whatever they read)
    order = [m.entry.id for m in _rank([_cand("import.failed", 3, 0), _cand("app.attention-libraries-absent", 3, 21)])]
    assert order == ["import.failed", "app.attention-libraries-absent"]


def test_not_installed_then_blocked_keeps_its_order():
    # near miss: the first import's own failure on an earlier line is a specific cause, and stays first
    text = ("ModuleNotFoundError: No module named 'xformers'\nProceeding without it.\n"
            "ModuleNotFoundError: import of xformers halted; None in sys.modules")
    assert _ids(text)[:2] == ["xformers.not-installed", "import.blocked-in-sys-modules"]
