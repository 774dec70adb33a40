"""The held-out corpus for `attn-doctor explain` (fixtures/errors/heldout/, issue 23) is well formed and
really held out: every file parses, its sources obey the split rule (scripts/heldout_split.py) and
none also appears in the corpus the rules are written from (fixtures/errors/ outside heldout/).

Accuracy on these texts is measured by benchmarks/explain_heldout.py and is never asserted here; the
last tests check only that script's scoring on made-up matches.
"""

from __future__ import annotations

import functools
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from attn_doctor.knowledge import entries

ROOT = Path(__file__).resolve().parents[1]
ERRORS = ROOT / "fixtures" / "errors"
HELDOUT = ERRORS / "heldout"
BACKENDS = {"sdpa", "flex", "fa2", "fa3", "cute", "sage", "xformers", "none"}
GITHUB = re.compile(r"^https://github\.com/([^/]+)/([^/]+)/(issues|pull|discussions)/(\d+)$")


def _module(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


split = _module("heldout_split", ROOT / "scripts" / "heldout_split.py")
bench = _module("explain_heldout", ROOT / "benchmarks" / "explain_heldout.py")

TEXTS = sorted(HELDOUT.glob("*.txt"))
UNRELATED = sorted((HELDOUT / "unrelated").glob("*.txt"))


@functools.lru_cache(maxsize=1)
def _outside_sources() -> frozenset[str]:
    """The sources of every text under fixtures/errors/ outside heldout/ (whose folder is not walked here), read when the
    first test asks: at import it was ~0.6 s of CPU at the collection of each of CI's 4 workers (session 42, ci42d)."""
    out = set()
    for top in sorted(ERRORS.iterdir()):
        if top == HELDOUT:
            continue
        for p in (top.rglob("*.txt") if top.is_dir() else [top] if top.suffix == ".txt" else []):
            for line in p.read_text(encoding="utf-8").splitlines():
                if line.startswith("source:"):
                    out.add(line.split(":", 1)[1].strip())
                if line == "---":
                    break
    return frozenset(out)


def test_corpus_is_there():
    assert TEXTS and UNRELATED, "no held-out texts"


@pytest.mark.parametrize("path", TEXTS + UNRELATED, ids=lambda p: p.relative_to(HELDOUT).as_posix())
def test_file_is_well_formed_and_held_out(path):
    meta, body = bench.load(path)
    for key in ("source", "url", "captured", "backend", "family", "class"):
        assert meta.get(key), f"no {key}:"
    assert meta["backend"] in BACKENDS
    assert body.strip(), "an empty text"
    source, url = meta["source"], meta["url"]
    m = GITHUB.match(url)
    if m:  # a GitHub thread: the split key is owner/repo#N, and the file is named after it
        assert source == f"{m.group(1)}/{m.group(2)}#{m.group(4)}", "source: and url: name different threads"
        assert path.name.startswith(f"{m.group(1)}__{m.group(2)}__{m.group(4)}")
    assert split.is_heldout(source), f"{source} is not a held-out thread"
    assert source not in _outside_sources(), f"{source} is also in fixtures/errors/ outside heldout/"
    if path.parent.name == "unrelated":
        assert meta["backend"] == "none" and "entry" not in meta
    else:
        entry = meta.get("entry", "")
        assert entry, "no entry:"
        known = entries()
        for part in (p.strip() for p in entry.split("|")):
            assert part.startswith("new: ") or part in known, f"entry {part!r} is neither an id nor 'new: <cause>'"


def test_split_key_and_cli():
    src = "Dao-AILab/flash-attention#1785"
    assert split.key("https://github.com/Dao-AILab/flash-attention/issues/1785") == src
    assert split.key("https://github.com/Dao-AILab/flash-attention/pull/1785") == src
    assert split.key("https://discuss.example.org/t/thread/9") == "https://discuss.example.org/t/thread/9"
    script = str(ROOT / "scripts" / "heldout_split.py")
    for s in (src, "Dao-AILab/flash-attention#1786", "pytorch/pytorch#2"):
        rc = subprocess.run([sys.executable, script, "--quiet", s]).returncode
        assert rc == (0 if split.is_heldout(s) else 1)
    assert split.is_heldout(src) and not split.is_heldout("pytorch/pytorch#2")  # the rule's own values
    assert subprocess.run([sys.executable, script], capture_output=True).returncode == 2


class _E:
    def __init__(self, id_):
        self.id = id_


class _M:
    def __init__(self, id_, backend):
        self.entry, self.backend = _E(id_), backend


def test_scoring_of_the_benchmark():
    meta = {"backend": "fa2", "entry": "import.undefined-symbol | fa2.wheel-mismatch"}
    right = bench.verdict(meta, [_M("fa2.wheel-mismatch", "fa2"), _M("import.failed", None)])
    assert right["matched"] and right["right_backend"] and right["right_cause"] and right["cause_listed"]
    late = bench.verdict(meta, [_M("import.failed", None), _M("import.undefined-symbol", "fa2")])
    assert late["matched"] and not late["right_backend"] and not late["right_cause"] and late["cause_listed"]
    assert not bench.verdict(meta, [])["matched"]
    new = bench.verdict({"backend": "none", "entry": "new: something no entry says"}, [_M("x.y", None)])
    assert new["right_backend"] and not new["right_cause"]
    as_json = bench.verdict(meta, bench._as_list({"matches": [{"id": "fa2.wheel-mismatch", "backend": "fa2"}]}))
    assert as_json["right_cause"] and as_json["right_backend"]
