"""The round-5b texts (fixtures/errors/round5b/, issue 23: real texts for the variant-stress classes,
captured 2026-11-25 by the ex5b helper) are well formed, kept out of the held-out split and out of the
rest of fixtures/errors/ (round4a's and round4b's included), and explain keeps recognising them.

They were measured on main's rules before any rule of round 5b was written
(benchmarks/results/explain-round5b-main.json: 9/17 matched, 9/17 right backend) and after
(explain-round5b-after.json); the floors below sit at the after figures, so a change that loses a
mechanism fails here. round5b/fresh/ holds 11 more texts gathered after those rules were committed, to
measure how they carry (explain-round5b-fresh.json: 9/11 matched, 7/11 right backend; main's rules 8/11,
6/11); only their format is checked here. Labels with several ids (`a | b`) are allowed, as in the
held-out corpus.
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
CORPUS = ERRORS / "round5b"
BACKENDS = {"sdpa", "flex", "fa2", "fa3", "cute", "sage", "xformers", "none"}
GITHUB = re.compile(r"^https://github\.com/([^/]+)/([^/]+)/(issues|pull|discussions)/(\d+)$")
MIN_MATCHED = 16  # of 17 (9 on main's rules); the miss: Dao-AILab/flash-attention#745 (module 'flash_attn' has no attribute ...)
MIN_RIGHT_BACKEND = 16


def _module(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


split = _module("heldout_split", ROOT / "scripts" / "heldout_split.py")
bench = _module("explain_heldout", ROOT / "benchmarks" / "explain_heldout.py")
TEXTS = sorted(CORPUS.glob("*.txt"))
FRESH = sorted((CORPUS / "fresh").glob("*.txt"))  # gathered after the rules: measured only, no floor here


def _sources(paths) -> set[str]:
    out = set()
    for p in paths:
        meta, _ = bench.load(p)
        out.add(meta["source"])
    return out


# the training corpus, its unrelated logs and rounds 4a/4b (never heldout/, which is not read here)
OTHERS = _sources(list(ERRORS.glob("*.txt")) + list((ERRORS / "unrelated").glob("*.txt"))
                  + [p for d in ("round4a", "round4b", "round4b-check") for p in (ERRORS / d).rglob("*.txt")])


def test_corpus_is_there():
    assert len(TEXTS) >= 15


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
