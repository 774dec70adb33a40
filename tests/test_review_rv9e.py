"""Session 8, helper rv9e: explain's code without repetition, its answers unchanged (the allrounds comparison, text by text,
is in the commits' messages and the report). These pin the pieces the mends made one: each built once and read by all
that read it before."""

from __future__ import annotations

import re

from attn_doctor.knowledge import LINE_GAP, attribution
from attn_doctor.knowledge import match as M
from attn_doctor.model import BACKENDS

NOT_SEVEN = {"none", "foreign", "other"}


# match: a long line's elision, written once (_read_of_line), for the prefilter's shapes and the patterns' regions


def test_a_long_line_is_read_at_its_ends_and_a_short_one_whole():
    short = b"x" * (2 * M.LINE_READ)
    assert M._read_of_line(short) == short
    long = b"a" * M.LINE_READ + b"flash_attn" * 5000 + b"z" * M.LINE_READ
    read = M._read_of_line(long)
    assert read == b"a" * M.LINE_READ + b"\0" * (LINE_GAP + 1) + b"z" * M.LINE_READ
    data = short + b"\n" + long + b"\nend"
    assert M._read_of_long_lines(data) == b"\n".join([short, read, b"end"])  # each line as _read_of_line reads it


# attribution: the library rules split once into those that name one of the seven and the rest


def test_the_library_rules_split_once_into_the_sevens_and_the_rest_in_order():
    r = attribution.rules()
    assert list(r.seven) == [(b, rx) for b, rx, _ in r.libraries if b not in NOT_SEVEN]
    assert list(r.not_seven) == [rx for b, rx, _ in r.libraries if b in NOT_SEVEN]
    assert r.seven and r.not_seven and {b for b, _ in r.seven} <= set(BACKENDS)


def test_torchs_own_rules_are_indexed_once_and_win_on_their_line():
    r = attribution.rules()
    assert list(r.torch_own) == [rx for b, rx, shared in r.libraries if b == "none" and not shared] and r.torch_own
    # torch's build named first beside a backend (session 7, ex48): the line names no backend, whatever else it names
    assert attribution._first_rule("Torch and xFormers do not support RTX 50xx yet") == ("none", False)
    assert attribution._first_rule("xFormers does not support RTX 50xx yet") == ("xformers", False)


# attribution: [[evidence_backend]] and [[specialize]] read by one grouping helper; [absent_notice] stands for six rows


def test_rows_are_grouped_by_their_key_in_the_files_order():
    rows = [{"k": "a", "v": 1}, {"k": "b", "v": 2}, {"k": "a", "v": 3}]
    assert attribution._grouped(rows, lambda x: x["k"], lambda x: x["v"]) == {"a": (1, 3), "b": (2,)}


NOTICE = {"xformers": ("xformers", "xformers.not-installed"), "flash_attn": ("fa2", "fa2.missing"),
          "sageattention": ("sage", "sage.not-installed")}


def test_the_absent_notice_table_stands_for_one_title_rule_and_one_specialization_per_library():
    r = attribution.rules()
    rows = r.evidence_backend["app.attention-libraries-absent"]
    assert [(b, title, unless) for b, _, title, unless in rows] == [(b, True, None) for b, _ in NOTICE.values()]
    for (module, (backend, to)), (_, when, _, _) in zip(NOTICE.items(), rows):
        assert "<MODULE>" not in when.pattern
        assert when.search(f"No module '{module}'. Proceeding without it.")
        assert not any(when.search(f"No module '{other}'. Proceeding without it.") for other in NOTICE if other != module)
        assert r.specialize[("app.attention-libraries-absent", backend)] == ((to, None, None, None),)
