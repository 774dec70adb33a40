"""knowledge/match.py's PREFIX_FIRST: the class of bytes _AFTER_LINE_END looks for after a line end before it tries the ~45
ways of LINE_PREFIX (a speed-up for long logs). It must take every byte one of the ways can begin with, so that the guard
passes over only lines no way could strip: here the bytes each way can begin with are read off the parsed pattern (each
single-character test asked about every byte), and the stripping compared with and without the guard."""

from __future__ import annotations

import re
from pathlib import Path

from attn_doctor.knowledge import match as M

try:
    from re import _compiler, _parser
except ImportError:  # pragma: no cover - Python 3.10
    import sre_compile as _compiler  # type: ignore[no-redef]
    import sre_parse as _parser  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parent.parent
ALL = frozenset(range(256))


def _single(op, av) -> frozenset[int]:
    """The bytes one single-character item of a parsed bytes pattern takes (the engine asked about each byte)."""
    sub = _parser.SubPattern(_parser.State(), [(op, av)])
    rx = _compiler.compile(sub, 0)
    return frozenset(b for b in range(256) if rx.match(bytes([b])))


def _first(seq) -> tuple[set[int], bool]:
    """(the bytes a match of the parsed sequence may begin with, may it match empty)."""
    out: set[int] = set()
    for op, av in seq:
        name = str(op)
        if name in ("LITERAL", "NOT_LITERAL", "ANY", "IN", "CATEGORY"):
            return out | _single(op, av), False
        if name in ("AT", "ASSERT", "ASSERT_NOT"):
            continue  # zero width: what follows begins the match (a lookahead only narrows it)
        if name == "SUBPATTERN":
            f, empty = _first(av[-1])
        elif name == "ATOMIC_GROUP":
            f, empty = _first(av)
        elif name == "BRANCH":
            f, empty = set(), False
            for way in av[1]:
                g, e = _first(way)
                f |= g
                empty = empty or e
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            f, empty = _first(av[2])
            empty = empty or av[0] == 0
        else:  # a back-reference or anything unknown: any byte
            return set(ALL), True
        out |= f
        if not empty:
            return out, False
    return out, True


def _ways_begin_with() -> tuple[set[int], bool]:
    tree = list(_parser.parse(M.LINE_PREFIX.pattern, 0))
    assert str(tree[0][0]) == "AT"  # `^`, then the ways
    return _first(tree[1:])


def test_the_guard_takes_every_byte_a_way_begins_with():
    begins, empty = _ways_begin_with()
    assert not empty  # no way matches empty: a line whose first byte none takes has no prefix
    guard = re.compile(M.PREFIX_FIRST)
    takes = {b for b in range(256) if guard.fullmatch(bytes([b]))}
    assert begins <= takes, bytes(sorted(begins - takes))
    assert takes - begins == set()  # and no more than those (a wider class would only cost time)
    assert len(begins) > 20 and ord("{") not in takes and ord(" ") not in takes and ord("/") not in takes


def test_the_reader_of_first_bytes_reads():  # _first on small patterns whose answer is known
    def first(p):
        return _first(list(_parser.parse(p, 0)))

    assert first(rb"ab|c") == ({ord("a"), ord("c")}, False)
    assert first(rb"(?:x?)+y") == ({ord("x"), ord("y")}, False)
    assert first(rb"(?=q)\d") == (set(b"0123456789"), False)
    assert first(rb"a*") == ({ord("a")}, True)


def _lines() -> list[bytes]:
    """Lines that begin with every byte, every way's prefix, and real fixture lines."""
    out = [bytes([b]) + b"x: Traceback (most recent call last):" for b in range(256) if b != 10]
    out += [b"[rank0]: Traceback (most recent call last):", b"(Worker pid=12) ImportError: x", b"trainer-1  | x",
            b"ERROR 10-15 07:53:38 [core.py:708] x", b"2026-03-01 12:00:01,123 - ERROR - x", b"> quoted", b">",
            b"E0301 12:00:01.123456  1234 file.cc:12] x", b"#12 1830.5 x", b"3: x", b"worker-1: x", b"10.0.0.2: x",
            b"[pod/x/c] x", b"Nov 28 07:20:34 host python[12]: x", b"[12:03 PM] x", b"<details><summary>Log</summary>",
            b"</details>", b"\"RuntimeError: x", b"\xe2\x80\x9cAssertionError: x\xe2\x80\x9d", b"[1,0]<stderr>: x",
            b"{'loss': 1.0}", b"  File \"/x.py\", line 1, in f", b"/venv/x.py:87: UserWarning: x", b" 10%|#  | 1/10"]
    for d in ("round74", "round79", "round17", "round32"):
        for f in sorted((ROOT / "fixtures" / "errors" / d).glob("*.txt"))[:30]:
            out += f.read_bytes().replace(b"\r\n", b"\n").split(b"\n")
    return out


def test_stripping_is_the_same_with_and_without_the_guard():
    unguarded = re.compile(b"\n" + M.LINE_PREFIX.pattern[1:])
    lines = _lines()
    assert len(lines) > 1000
    data = b"\n".join(lines) + b"\n"
    want = unguarded.sub(b"\n", data)
    assert M._AFTER_LINE_END.sub(b"\n", data) == want
    assert want != data  # prefixes were stripped: the comparison compares something
    for line in lines[:300]:  # and each line alone, at the end of the text too (`\Z`)
        assert M._AFTER_LINE_END.sub(b"\n", b"\n" + line) == unguarded.sub(b"\n", b"\n" + line)
