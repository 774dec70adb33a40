#!/usr/bin/env python3
"""`attn-doctor explain` on the held-out corpus (fixtures/errors/heldout/, issue 23): texts its rules
were never written from. Measures only; nothing here is tuned, and no test asserts these figures.

For every held-out error text it runs the same matcher `attn-doctor explain -` runs on stdin and reports
  matched       explain found any known problem in the text
  right backend the first (top-ranked) problem's backend is the file's `backend:` (for `none`: the
                first problem has no backend)
  right cause   the first problem's id is one of the file's `entry:` ids (`new: ...` labels, which
                no entry describes yet, never count as right)
  cause listed  one of the file's `entry:` ids is among all the problems explain printed
and, over unrelated/ (real logs whose failure is no attention backend's), the false positives: any match.

    python benchmarks/explain_heldout.py                       # table on stdout
    python benchmarks/explain_heldout.py --out                 # also benchmarks/results/explain-heldout-<date>.json
    python benchmarks/explain_heldout.py --out r.json --misses # a chosen path; list every miss

The matcher is found the way the CLI finds it: a whole-log streaming function of attn_doctor.explain
when there is one (issue 23 adds one), else attn_doctor.explain.match on the text read as
`explain -` reads it (read_text). Results are read by attribute or key, so small API changes do not
break the script; --call module:function picks another callable.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import importlib
import inspect
import io
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CORPUS = ROOT / "fixtures" / "errors" / "heldout"
BACKENDS = {"sdpa", "flex", "fa2", "fa3", "cute", "sage", "xformers", "none"}
STREAM_NAMES = ()  # explain.match is what `attn-doctor explain` runs (through examine): the one matcher measured


def import_from(tree: Path, who: str) -> bool:
    """Put checkout `tree` first on sys.path and import its attn_doctor; False (said on stderr, as `who`) where another one
    was imported (the benchmarks that measure another checkout: explain_training, explain_structural, explain_residuals)."""
    import os

    sys.path.insert(0, str(tree))
    import attn_doctor

    if attn_doctor.__file__.startswith(str(tree) + os.sep):
        return True
    print(f"{who}: attn_doctor imports from {attn_doctor.__file__}, not {tree}", file=sys.stderr)
    return False


# ---- the corpus ----------------------------------------------------------------------------------

def load(path: Path) -> tuple[dict[str, str], str]:
    """(header, body) of one corpus file: `key: value` lines, a `---` line, then the text."""
    raw = path.read_text(encoding="utf-8")
    header, sep, body = raw.partition("\n---\n")
    if not sep:
        raise ValueError(f"{path.name}: no '---' line between the header and the text")
    meta: dict[str, str] = {}
    for line in header.splitlines():
        key, colon, value = line.partition(":")
        if not colon:
            raise ValueError(f"{path.name}: header line without 'key:': {line!r}")
        meta[key.strip()] = value.strip()
    return meta, body


def label_ids(entry: str) -> list[str]:
    """The acceptable entry ids of an `entry:` label (`a | b`); `new: ...` parts name no id."""
    return [p.strip() for p in (entry or "").split("|") if p.strip() and not p.strip().startswith("new:")
            and p.strip() != "?"]


def tracker(meta: dict[str, str]) -> str:
    return meta.get("source", "").split("#", 1)[0] or "?"


# ---- the matcher, found as the CLI finds it --------------------------------------------------------

def _resolve(spec: str | None):
    """(callable, how it is fed: 'stream' or 'text', its name)."""
    if spec:
        mod_name, _, fn_name = spec.partition(":")
        fn = getattr(importlib.import_module(mod_name), fn_name)
        return fn, ("stream" if fn_name in STREAM_NAMES else "text"), spec
    ex = importlib.import_module("attn_doctor.explain")
    for name in STREAM_NAMES:
        fn = getattr(ex, name, None)
        if callable(fn):
            return fn, "stream", f"attn_doctor.explain.{name}"
    return ex.match, "text", "attn_doctor.explain.match"


def _as_list(result) -> list:
    if result is None:
        return []
    if isinstance(result, dict):  # {"matches": [...]} as --json prints it
        for key in ("matches", "found", "problems"):
            if key in result:
                return list(result[key])
        return []
    if isinstance(result, tuple) and len(result) == 2 and isinstance(result[1], str):  # (found, how)
        return list(result[0])
    return list(result)


def run_matcher(fn, feed: str, text: str) -> list:
    if feed == "stream":
        for arg in (io.StringIO(text), io.BytesIO(text.encode("utf-8")), text.splitlines(keepends=True), text):
            try:
                return _as_list(fn(arg))
            except (TypeError, AttributeError):
                continue
        raise TypeError(f"cannot call {fn!r} with a stream, lines or text")
    try:
        ex = importlib.import_module("attn_doctor.explain")
        if getattr(fn, "__name__", "") == "match" and hasattr(ex, "read_text") and \
                "stream" in inspect.signature(ex.read_text).parameters:
            text = ex.read_text(io.BytesIO(text.encode("utf-8")))  # exactly what `explain -` searches
    except (TypeError, ValueError):
        pass
    return _as_list(fn(text))


def _get(obj, name: str):
    return obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)


def match_id(m) -> str | None:
    entry = _get(m, "entry")
    if entry is not None:
        return entry if isinstance(entry, str) else _get(entry, "id")
    return _get(m, "id")


def match_backend(m) -> str | None:
    for name in ("backend",):
        if isinstance(m, dict) and name in m:
            return m[name]
        if not isinstance(m, dict) and hasattr(m, name):
            return getattr(m, name)
    entry = _get(m, "entry")  # an older Match without a backend: the entry's own
    if entry is not None and not isinstance(entry, str):
        try:
            return importlib.import_module("attn_doctor.explain").backend_of(entry)
        except AttributeError:
            return _get(entry, "backend")
    return None


# ---- measuring -------------------------------------------------------------------------------------

def verdict(meta: dict[str, str], found: list) -> dict:
    want_backend = meta.get("backend", "")
    ids = label_ids(meta.get("entry", ""))
    top = found[0] if found else None
    top_id, top_backend = (match_id(top), match_backend(top)) if top is not None else (None, None)
    all_ids = [match_id(m) for m in found]
    return {
        "matched": bool(found),
        "right_backend": bool(found) and (top_backend == want_backend or
                                          (want_backend == "none" and top_backend in (None, "none", ""))),
        "right_cause": bool(found) and top_id in ids,
        "cause_listed": any(i in ids for i in all_ids),
        "top": top_id, "top_backend": top_backend, "all": all_ids,
    }


def pct(n: int, d: int) -> str:
    return f"{100.0 * n / d:5.1f}%" if d else "   - "


def measure(corpus: Path, spec: str | None) -> dict:
    fn, feed, name = _resolve(spec)
    texts, unrelated = [], []
    t0 = time.perf_counter()
    for path in sorted(corpus.glob("*.txt")):
        meta, body = load(path)
        v = verdict(meta, run_matcher(fn, feed, body))
        texts.append({"file": path.name, "source": meta.get("source"), "class": meta.get("class", "?"),
                      "tracker": tracker(meta), "backend": meta.get("backend"), "entry": meta.get("entry"),
                      "new": not label_ids(meta.get("entry", "")), **v})  # a label naming no entry id (only `new:` / `?`)
    for path in sorted((corpus / "unrelated").glob("*.txt")):
        meta, body = load(path)
        found = run_matcher(fn, feed, body)
        unrelated.append({"file": path.name, "source": meta.get("source"), "tracker": tracker(meta),
                          "matched": bool(found), "all": [match_id(m) for m in found]})
    seconds = time.perf_counter() - t0

    def totals(rows: list[dict]) -> dict:
        n = len(rows)
        return {"texts": n, **{k: sum(r[k] for r in rows) for k in ("matched", "right_backend", "right_cause",
                                                                       "cause_listed")},
                "new_labels": sum(r["new"] for r in rows)}

    by_class, by_tracker = defaultdict(list), defaultdict(list)
    for r in texts:
        by_class[r["class"]].append(r)
        by_tracker[r["tracker"]].append(r)
    return {
        "schema": "attn-doctor.explain-heldout/1",
        "date": _dt.date.today().isoformat(),
        "matcher": name, "fed": feed, "seconds": round(seconds, 3),
        "totals": totals(texts),
        "unrelated": {"texts": len(unrelated), "false_positives": sum(u["matched"] for u in unrelated)},
        "by_class": {k: totals(v) for k, v in sorted(by_class.items())},
        "by_tracker": {k: totals(v) for k, v in sorted(by_tracker.items())},
        "results": texts, "unrelated_results": unrelated,
    }


def render(doc: dict, misses: bool) -> str:
    t, u = doc["totals"], doc["unrelated"]
    n = t["texts"]
    out = [f"explain on the held-out corpus ({n} texts, {u['texts']} unrelated logs) — {doc['matcher']} "
           f"fed {doc['fed']}, {doc['seconds']:.2f} s",
           "",
           f"{'class':<22}{'texts':>6}{'matched':>9}{'backend':>9}{'cause':>9}{'listed':>9}{'new:':>6}"]
    for k, c in doc["by_class"].items():
        out.append(f"{k:<22}{c['texts']:>6}{c['matched']:>9}{c['right_backend']:>9}{c['right_cause']:>9}"
                   f"{c['cause_listed']:>9}{c['new_labels']:>6}")
    out += ["-" * 70,
            f"{'all':<22}{n:>6}{t['matched']:>9}{t['right_backend']:>9}{t['right_cause']:>9}"
            f"{t['cause_listed']:>9}{t['new_labels']:>6}",
            f"{'rates':<22}{'':>6}{pct(t['matched'], n):>9}{pct(t['right_backend'], n):>9}"
            f"{pct(t['right_cause'], n):>9}{pct(t['cause_listed'], n):>9}",
            f"right cause among texts an entry describes: {t['right_cause']}/{n - t['new_labels']} "
            f"({pct(t['right_cause'], n - t['new_labels']).strip()})",
            f"unrelated logs matched (false positives): {u['false_positives']}/{u['texts']}"]
    if misses:
        out += ["", "misses (file: label -> explain's first problem):"]
        for r in doc["results"]:
            if not (r["right_backend"] and r["right_cause"]):
                top = f"{r['top']} ({r['top_backend'] or 'no backend'})" if r["matched"] else "nothing"
                out.append(f"  {r['file']}: {r['backend']} / {r['entry']} -> {top}")
        for r in doc["unrelated_results"]:
            if r["matched"]:
                out.append(f"  unrelated/{r['file']}: matched {', '.join(map(str, r['all']))}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", nargs="?", const="", default=None, metavar="PATH",
                    help="write the JSON result (default path benchmarks/results/explain-heldout-<date>.json)")
    ap.add_argument("--corpus", default=str(CORPUS), help="the held-out corpus folder")
    ap.add_argument("--call", default=None, metavar="MODULE:FUNCTION", help="another matcher callable")
    ap.add_argument("--misses", action="store_true", help="list every text not fully right, and every false positive")
    args = ap.parse_args(argv)
    corpus = Path(args.corpus)
    if not corpus.is_dir():
        print(f"explain_heldout: no corpus folder {corpus}", file=sys.stderr)
        return 2
    doc = measure(corpus, args.call)
    print(render(doc, args.misses))
    if args.out is not None:
        path = Path(args.out or ROOT / "benchmarks" / "results" / f"explain-heldout-{doc['date']}.json")
        from attn_doctor.fsutil import write_atomic
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(str(path), json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
