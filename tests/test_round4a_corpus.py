"""The round-4a texts (fixtures/errors/round4a/, issue 23: real texts from the backends' own trackers,
captured 2026-11-25 by the ex4a helper) are well formed, kept out of the held-out split and out of the
rest of fixtures/errors/, and explain keeps recognising them.

They were measured before any rule was written from them (benchmarks/results/explain-round4a-before.json:
22/42 matched, 22/42 right backend) and after (explain-round4a-after.json: 41/42, 41/42); the floors
below sit just under the after figures, so a change that loses a mechanism fails here. round4a/fresh/
and round4a/batch2/ hold 12 and 8 more texts gathered after those rules were written, to measure how
they carry (READMEs there); only their format is checked here. Labels with
`new: <cause>` (no entry describes the failure yet) or several ids (`a | b`) are allowed, as in the
held-out corpus; tests/test_error_corpus.py covers fixtures/errors/*.txt, whose labels are single ids.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from attn_doctor.explain import match
from attn_doctor.knowledge import entries

ROOT = Path(__file__).resolve().parents[1]
ERRORS = ROOT / "fixtures" / "errors"
CORPUS = ERRORS / "round4a"
BACKENDS = {"sdpa", "flex", "fa2", "fa3", "cute", "sage", "xformers", "none"}
GITHUB = re.compile(r"^https://github\.com/([^/]+)/([^/]+)/(issues|pull|discussions)/(\d+)$")
MIN_MATCHED = 39  # of 42 (41 after field6a)
MIN_RIGHT_BACKEND = 39


def _module(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


split = _module("heldout_split", ROOT / "scripts" / "heldout_split.py")
bench = _module("explain_heldout", ROOT / "benchmarks" / "explain_heldout.py")
TEXTS = sorted(CORPUS.glob("*.txt"))
FRESH = sorted((CORPUS / "fresh").glob("*.txt")) + sorted((CORPUS / "batch2").glob("*.txt"))  # gathered after the rules: measured only, no floor here


def _sources(paths) -> set[str]:
    out = set()
    for p in paths:
        meta, _ = bench.load(p)
        out.add(meta["source"])
    return out


# the training corpus and its unrelated logs (never heldout/, which is not read here)
OTHERS = _sources(list(ERRORS.glob("*.txt")) + list((ERRORS / "unrelated").glob("*.txt")))


def test_corpus_is_there():
    assert len(TEXTS) >= 40


@pytest.mark.parametrize("path", TEXTS + FRESH, ids=lambda p: p.relative_to(CORPUS).as_posix())
def test_file_is_well_formed_new_and_not_held_out(path):
    meta, body = bench.load(path)
    for key in ("source", "url", "captured", "backend", "family", "entry", "class"):
        assert meta.get(key), f"no {key}:"
    assert meta["backend"] in BACKENDS and body.strip()
    m = GITHUB.match(meta["url"])
    assert m and meta["source"] == f"{m.group(1)}/{m.group(2)}#{m.group(4)}"
    assert path.name.startswith(f"{m.group(1)}__{m.group(2)}__{m.group(4)}")
    assert not split.is_heldout(meta["source"]), "a held-out thread"
    assert meta["source"] not in OTHERS, "already in fixtures/errors/"
    known = entries()
    for part in (p.strip() for p in meta["entry"].split("|")):
        assert part.startswith("new: ") or part in known, f"entry {part!r} is neither an id nor 'new: <cause>'"


def test_no_thread_twice():
    sources = [bench.load(p)[0]["source"] for p in TEXTS + FRESH]
    assert len(sources) == len(set(sources))


def test_explain_keeps_recognising_them():
    matched = right = 0
    for path in TEXTS:
        meta, body = bench.load(path)
        v = bench.verdict(meta, match(body))
        matched += v["matched"]
        right += v["right_backend"]
    assert matched >= MIN_MATCHED and right >= MIN_RIGHT_BACKEND, (matched, right, len(TEXTS))
