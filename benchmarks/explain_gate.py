#!/usr/bin/env python3
"""What keeps the still-unmatched training texts out of explain's catch-alls (issue 23, session 30, helper ex175).

A catch-all (prose.*, triage.*, a generic / fallback entry) claims a text only when every condition of its gate holds. The
gate, read from attn_doctor/explain.py and knowledge/ (prose.toml's header, triage.toml's, attribution.toml [needs_backend]):

  G1 name      a backend is named in the text: every catch-all is in [needs_backend], nothing is claimed without one
  then one of two readers:
  G2 log       triage.*: an exception line (`X...Error: msg`, not a loader error nor an out-of-memory, which the import.* and
               OOM entries read) or a traceback through a backend's files; the backend named on the exception's line or its
               innermost frame (attribution.toml in_traceback)
  G3 prose     prose.* `head` entries: a line of the input's head (match.HEAD_LINES said lines within HEAD_MAX_LINES) that
               names the backend (prose.toml B) and says a failure (the failure macros) on the same line, is a prose line
               (LINE's guards) and has the form the kind's pattern wants; past the head, prose.said: the writer (ME), a name
               (BODYB) and a failure word on one line
  G4 refusals  what was scanned survives explain._attribute's refusals (no-failure document, foreign, needs-backend, ...)

Each unmatched text gets the first condition it fails, in that order (`scanned` texts: G4; else G1; else the log reader's
condition where the text is a log, and the prose reader's always: the class is the prose one where the text has no log line
a catch-all could read). Rows with a `new:`-only label or a label backend `none` are kept and marked: they are unmatched by
design or by no entry, and a gate that read them would claim a backend the label denies (none) or name no cause (new).

    PYTHONPATH=$PWD python benchmarks/explain_gate.py s30start --tsv benchmarks/results/explain-gate-s30.tsv

It reads explain_training.py's /tmp/TAG-ar-<round>.json (training rounds only: held-out and measure-only sets are never
measured there) and refuses a round named in compare_matches.MEASURE_ONLY.
"""

from __future__ import annotations

import argparse
import glob
import json
import re
import sys
import tomllib
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from compare_matches import MEASURE_ONLY  # noqa: E402

# an exception line triage.error-names-backend reads (its first pattern's shape), and the ones it leaves to others
EXC = re.compile(r"(?m)^[ \t]*(?:\[rank\d+\]:[ \t]*|E[ \t]+|ERROR:[\w.]*:[ \t]*)?(?P<t>[A-Za-z_][\w.]*(?:Error|Exception)):[ \t]+\S[^\n]*")
LEFT = re.compile(r"(?:ModuleNotFound|Import|OS|OutOfMemory)Error$")
FRAME = re.compile(r'\bFile "[^"\n]+", line \d+')
ERRORISH = re.compile(r"(?mi)^[^\n]*\b(?:error|fatal|failed|segmentation fault|core dumped|killed)\b[^\n]*$")


def prose_macros() -> dict[str, str]:
    return tomllib.loads((ROOT / "attn_doctor/knowledge/prose.toml").read_text(encoding="utf-8"))["macros"]


def body_said(lines: list[str], n: int, m: dict[str, str], failw: re.Pattern) -> str:
    """Past the head: which of prose.said's three (a name, a failure word, the writer) one line lacks at best."""
    bodyb, me = re.compile(m["BODYB"], re.I), re.compile(m["ME"])
    named = [x for x in lines[n:] if bodyb.search(x)]
    if not named:
        return "no-body-name"
    worded = [x for x in named if failw.search(x)]
    if not worded:
        return "name-no-failure-word"
    if not any(me.search(x) for x in worded):
        return "name-failure-no-writer"
    return "name-failure-writer-refused"


def classify(body: str, s, ex, macros_b, failw, m) -> tuple[str, str]:
    """(gate condition failed, detail) for one unmatched text."""
    import explain_prose_structure as ps
    from explain_residuals import _dropped_by
    lines = body.lstrip("\n").splitlines()
    if s.found:
        gates = Counter(_dropped_by(x, s, ex) or "other" for x in s.found)
        ids = " ".join(sorted({x.entry.id for x in s.found}))[:120]
        return f"G4-refused/{gates.most_common(1)[0][0]}", ids
    bodyb = re.compile(m["BODYB"], re.I)
    if not (macros_b.search(body) or bodyb.search(body)):
        return "G1-no-name", ""
    excs = [x for x in EXC.finditer(body)]
    read = [x for x in excs if not LEFT.search(x.group("t").split(".")[-1]) and "out of memory" not in x.group(0).lower()]
    frames = FRAME.findall(body)
    log = bool(excs or frames)
    if log and not read:
        head = "G2-log/exception-left-to-others" if excs else "G2-log/frames-no-exception-line"
    elif log:
        head = "G2-log/exception-unnamed"  # read by no catch-all pattern's shape (not scanned): the line's dress
    else:
        head = ""
    cls, _form = ps.structure(body, macros_b, failw)
    kind = cls.split(":", 1)[0]
    if kind == "one-line":
        prose = f"G3-prose/head-line-{cls.split(':', 1)[1].split(',')[0].replace(' ', '-')}"
    elif kind in ("next-line", "head-no-word"):
        prose = f"G3-prose/{kind}"
    elif kind == "no-name":
        prose = "G1-no-name"
    else:  # past-head, form-under, form-env: the body's reader
        prose = f"G3-prose/past-head/{body_said(lines, ps.head_lines(lines), m, failw)}"
    return (head or prose), (prose if head else "")


def first_u(rounds: list[str]) -> list[tuple[str, str]]:
    """(round, file) of every first-measurement miss of class U (nothing matched) in `rounds`: explain-recurring-s29.tsv's
    rows, and a round measured after it from its first record (results/explain-<round>-*-first-*.json)."""
    out = []
    tsv = (HERE / "results" / "explain-recurring-s29.tsv").read_text(encoding="utf-8").splitlines()
    cols = tsv[0].split("\t")
    for line in tsv[1:]:
        r = dict(zip(cols, line.split("\t")))
        if r["round"] in rounds and r["first_class"] == "U":
            out.append((r["round"], r["file"]))
    for rnd in rounds:
        if any(x[0] == rnd for x in out):
            continue
        for f in sorted((HERE / "results").glob(f"explain-{rnd}-*-first-*.json")):
            out += [(rnd, x["file"]) for x in json.loads(f.read_text(encoding="utf-8"))["results"] if not x["matched"]]
    return out


def _named(backend: str | None, body: str) -> str:
    """Is the label's backend named anywhere in the text in a usual way (explain_residuals.NAMES; '-': a label of none)?"""
    from explain_residuals import NAMES
    return "-" if backend not in NAMES else ("yes" if re.search(NAMES[backend], body, re.I) else "no")


def catch_all_ids() -> set[str]:
    from attn_doctor.knowledge import entries
    from explain_residuals import catch_all
    return {i for i, e in entries().items() if catch_all(e)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tag", nargs="?")
    ap.add_argument("--indir", default="/tmp")
    ap.add_argument("--tsv")
    ap.add_argument("--tree", default=str(ROOT))
    ap.add_argument("--first-u", metavar="ROUNDS", help="instead of TAG's unmatched texts: the first-measurement U rows of these "
                    "rounds (space-separated), read with the catch-alls alone (the specific entries later readers wrote for them "
                    "left out): read right / read wrong / the gate condition each fails")
    a = ap.parse_args(argv)
    import explain_heldout as h
    if not h.import_from(Path(a.tree).resolve(), "explain_gate"):
        return 2
    import explain_prose_structure as ps
    from attn_doctor import explain as ex
    from attn_doctor.knowledge.match import scan
    macros_b, failw = ps.macros()
    m = prose_macros()
    rows = []
    if a.first_u:
        rounds = [r if r.startswith("round") else f"round{r}" for r in a.first_u.split()]
        bad = [r for r in rounds if r in MEASURE_ONLY or "heldout" in r]
        if bad:
            print(f"refused: {' '.join(bad)} measure-only", file=sys.stderr)
            return 2
        ids = catch_all_ids()
        for rnd, file in first_u(rounds):
            meta, body = h.load(ROOT / "fixtures" / "errors" / rnd / file)
            found = ex.match(body, ids=ids)
            want = meta.get("backend")
            if found:
                gate = "read-right" if (found[0].backend or "none") == want else "read-wrong"
                detail = f"{found[0].entry.id}/{found[0].backend}"
            else:
                gate, detail = classify(body, scan(body, ids=ids, probes=ex.probes()), ex, macros_b, failw, m)
            lids = h.label_ids(meta.get("entry", ""))
            label = "none" if want == "none" else ("new" if not lids else "entry")
            rows.append(dict(round=rnd, file=file, backend=want, label=label, gate=gate, also=detail,
                             entry=(meta.get("entry") or "")[:100], named=_named(want, body)))
    for f in ([] if a.first_u else sorted(glob.glob(f"{a.indir}/{a.tag}-ar-*.json"))):
        rnd = f.rsplit("-ar-", 1)[1][:-5]
        if rnd in MEASURE_ONLY or "heldout" in rnd:
            print(f"refused: {rnd} is measure-only", file=sys.stderr)
            return 2
        for r in json.load(open(f, encoding="utf-8"))["results"]:
            if r["matched"]:
                continue
            meta, body = h.load(ROOT / "fixtures" / "errors" / rnd / r["file"])
            s = scan(body, probes=ex.probes())
            gate, detail = classify(body, s, ex, macros_b, failw, m)
            ids = h.label_ids(meta.get("entry", ""))
            label = "none" if r["backend"] == "none" else ("new" if not ids else "entry")
            rows.append(dict(round=rnd, file=r["file"], backend=r["backend"], label=label, gate=gate, also=detail,
                             entry=(r["entry"] or "")[:100], named=_named(r["backend"], body)))
    if a.tsv:
        cols = ("gate", "also", "label", "named", "round", "file", "backend", "entry")
        with open(a.tsv, "w", encoding="utf-8") as out:
            out.write("\t".join(cols) + "\n")
            for x in sorted(rows, key=lambda x: (x["gate"], x["round"], x["file"])):
                out.write("\t".join(str(x[k]).replace("\t", " ").replace("\n", " ") for k in cols) + "\n")
    by = Counter(x["gate"] for x in rows)
    print(f"{len(rows)} {'first-measurement U rows, catch-alls alone' if a.first_u else 'unmatched texts'}")
    print("| gate condition failed | texts | label entry | label new | label none | rounds |")
    print("|---|---:|---:|---:|---:|---:|")
    for g, n in sorted(by.items(), key=lambda kv: (-kv[1], kv[0])):
        xs = [x for x in rows if x["gate"] == g]
        c = Counter(x["label"] for x in xs)
        print(f"| {g} | {n} | {c['entry']} | {c['new']} | {c['none']} | {len({x['round'] for x in xs})} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
