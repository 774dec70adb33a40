#!/usr/bin/env python3
"""Where explain looks sure and names the wrong thing (issue 23, session 25, helper ex148): every training text that
matched with the wrong backend, and every right-backend text whose first problem is not its label's cause, each with
what explain said, the line the decision rested on, and a mechanism class decided by rule (below).

It reads the per-text results explain_training.py wrote (/tmp/TAG-ar-<round>.json; training rounds only: the rounds
are whatever that run measured, which never holds heldout/ or a measure-only set) and runs the matcher again on the
residual texts only, twice: as `explain -` runs it, and with the label's ids alone (explain.match's `ids`: the others as
absent) to tell "the label's entry matches but ranks below or is dropped" from "no entry of the label matches at all".

    PYTHONPATH=$PWD python benchmarks/explain_residuals.py TAG                 # the table of classes
    PYTHONPATH=$PWD python benchmarks/explain_residuals.py TAG --rows r.tsv    # and one row per text
    python benchmarks/explain_residuals.py s25start --tree /work/wt/s25start  # TAG's own checkout (its lines, its classes)
    PYTHONPATH=$PWD python benchmarks/explain_residuals.py TAG --unmatched --rows u.tsv   # the texts explain says nothing about

Classes (the first rule that holds; a label naming only `new: ...` causes is counted apart, no entry describes it):
  wrong backend (matched, the first problem's backend is not the label's)
    B-entry-right-unnamed   the first problem is the label's cause, attribution named no backend
    B-entry-right-other     the first problem is the label's cause, attribution named another backend
    B-none-claimed          the label says no backend's failure (a wrapper's, a vendor's, the user's), a backend named
    B-generic-other         a catch-all (prose.*, triage.*, generic / fallback) named another backend or none
    B-specific-other        another specific entry, of another backend or none, ranks first
  wrong cause (right backend, the first problem is not one of the label's ids)
    C-new-label             the label names no entry (`new: ...`): counted apart
    C-label-outranked       the label's entry matches alone, but another one ranks first (split by the winner: a
                            catch-all / a symptom / another specific)
    C-label-dropped         the label's entry matches alone and is not among the printed problems (attribution
                            dropped it, or a winner's explained_by / generic rule hid it)
    C-label-unmatched       no entry of the label matches the text (split by the winner: a catch-all / specific)
"""

from __future__ import annotations

import argparse
import glob
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


# Failure families by entry id (the first that holds): a winner of the label's own family is a sibling entry (another id for the
# same failure: a label policy or a granularity question), one of another family names another mechanism.
FAMILIES = (
    ("absent", r"missing|not-installed|not-available|unavailable|libraries-absent|^import\.|import-guard|namespace|import-name|"
               r"no-extension|extension-missing"),
    ("gpu-arch", r"unsupported-gpu|arch|gpu-too-old|^gpu\."),
    ("build-install", r"^build\.|^install\.|^versions\.|^nvcc\.|wheel|built-for|not-compiled"),
    ("output-numbers", r"wrong-output|nan|numbers|overflow|rounding|precision"),
    ("api", r"api-|too-old|helper-moved|attention-class|signature|unpack|return-value"),
    ("fallback-ignored", r"fallback|ignored|selection|no-effect|^config\."),
    ("kernel-fault", r"kernel-fault|kernel-launch|native-crash|crash"),
)
# a text with a line a program printed (a frame, an exception, an error line), not words alone
LOG_LINE = re.compile(r'(?m)^\W{0,12}(?:Traceback \(most recent|File "|\w+(?:Error|Exception)\b:|error:|ERROR\b|FAILED\b|'
                      r'RuntimeError|AssertionError|CUDA error|Segmentation fault|LLVM ERROR)')
# the label's backend named in the text in any usual way (not the case: the backend is the tracker's, outside the text)
NAMES = {"fa2": r"flash[ _-]?att|\bFA2\b|\bFA\b", "fa3": r"flash[ _-]?att|\bFA3\b|hopper", "cute": r"\bcute\b|\bFA4\b|flash[ _-]?att",
         "sage": r"sage|sparge", "xformers": r"xformers|memory_efficient_attention", "flex": r"flex",
         "sdpa": r"scaled_dot_product|\bsdpa?\b|\bSDP\b|\bflash[ _-]?att|efficient[ _]attention|cudnn"}


def family(ids) -> str:
    for name, rx in FAMILIES:
        if any(re.search(rx, i) for i in ids):
            return name
    return "other"


def catch_all(entry) -> bool:
    return bool(entry.generic or entry.fallback or entry.id.split(".", 1)[0] in ("prose", "triage"))


def classify(r: dict, ex, h, entries) -> dict:
    """The residual `r` (one text of an explain_training result) with its class and the decision's lines."""
    meta, body = h.load(Path(r["path"]))
    ids = h.label_ids(meta.get("entry", ""))
    found = ex.match(body)  # as explain_heldout.measure feeds it
    top = found[0] if found else None
    row = {k: r[k] for k in ("round", "file", "backend", "top", "top_backend")}
    row["entry"] = (r["entry"] or "")[:160]  # a `new: ...` label in full is in the file's header
    if top is not None:
        row["evidence"] = f"{top.line}: {top.evidence[:160]}"
        row["named_by"] = f"{top.named_by.line}: {top.named_by.text[:120]}" if top.named_by else ""
    else:
        row["evidence"] = row["named_by"] = ""
    winner = entries.get(r["top"]) if r["top"] else None
    kind = "catch-all" if winner is not None and catch_all(winner) else \
        "symptom" if winner is not None and winner.symptom else "specific"
    row["form"] = "log" if LOG_LINE.search(body) else "words"
    want = r["backend"] or ""
    row["named"] = "yes" if want in NAMES and re.search(NAMES[want], body, re.I) else ("-" if want not in NAMES else "no")
    if not r["right_backend"]:
        if r["right_cause"] and row["named"] == "no":
            row["class"] = "B-entry-right-backend-outside-text"
        elif r["right_cause"]:
            row["class"] = "B-entry-right-unnamed" if r["top_backend"] in (None, "", "none") else "B-entry-right-other"
        elif r["backend"] == "none":
            row["class"] = "B-none-claimed"
        elif kind == "catch-all":
            row["class"] = "B-generic-other"
        else:
            row["class"] = "B-specific-other"
        return row
    if not ids:
        row["class"] = "C-new-label"
        return row
    alone = ex.match(body, ids=set(ids))
    kin = "sibling" if r["top"] and family([r["top"]]) == family(ids) != "other" else "other-family"
    if alone and any(i in ids for i in r["all"]):
        row["class"] = f"C-label-outranked/{kind}"
    elif alone:
        row["class"] = f"C-label-dropped/{kind}"
    elif kind == "catch-all":
        row["class"] = f"C-label-unmatched/catch-all/{row['form']}"
    else:
        row["class"] = f"C-label-unmatched/{kind}/{kin}"
    row["family"] = family(ids)
    return row


# The label's own words that say the stored text shows no failure (curated by the gatherers in the `new:` part of a label)
OUTSIDE = re.compile(r"cut before|stops before|screenshot|attachment|no (?:error|log|traceback)\b|not in the (?:excerpt|stored)|"
                     r"shows no (?:cause|build error|error)|no error text|only the exception's name|before the (?:error|exception|assert)",
                     re.I)
QUOTED = re.compile(r"(?m)^[ \t]*>[ \t]?")
HTML = re.compile(r"&(?:lt|gt|amp|quot|#\d+);|</?(?:p|br|pre|code|div|span)\b[^>]*>", re.I)
OTHER_SCRIPT = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\u0400-\u04ff]")
# a line a program printed anywhere in the text, its prefix whatever it is (a journal's, a worker's, a compiler's location)
PRINTED = re.compile(r'\bFile "[^"\n]+", line \d+|:\d+(?::\d+)?: (?:fatal )?error:|\b(?:nvcc|ninja|cmake|g\+\+|c\+\+|hipcc)\b[^\n]*?'
                     r' -[cIoD]\b|(?:^|\W)[A-Z]\w*(?:Error|Exception): ', re.M)
EXCEPTION_LINE = re.compile(r"(?m)^\W{0,12}[\w.]*(?:Error|Exception|Exit|Interrupt|Warning)\b(?::|$)|^\W{0,12}E\s+\w+Error")


def _dropped_by(m, s, ex) -> str | None:
    """The first of explain._attribute's refusals that drops the scanned match `m` (the same order; None: it stands)."""
    from attn_doctor.knowledge import attribution as a
    from attn_doctor.knowledge.attribution import backend_of

    lines, e, n = s.lines, m.entry, m.line
    if a.no_failure_document(lines):
        return "no-failure-document"
    gates = (("foreign-kernel", lambda: a.foreign_kernel(e, lines, n)), ("program-printed", lambda: a.program_printed(e, lines, n)),
             ("described-fallback", lambda: a.described_fallback(e, lines, n)),
             ("foreign", lambda: a.foreign(e, backend_of(e), lines, n)),
             ("needs-backend", lambda: a.unclaimed(e, backend_of(e), lines, n) and ex._claimed_elsewhere(m, lines) is None),
             ("required-by-other", lambda: a.required_by_other(e, lines, n)),
             ("optimizer", lambda: a.raised_by_optimizer(e, lines, n)), ("grid-limit", lambda: a.grid_limit_elsewhere(e, lines, n)),
             ("interrupted", lambda: a.interrupted(e, lines, n)))
    for name, gate in gates:
        if gate():
            return name
    named_by = a.attribute(e, backend_of(e), lines, n)[1]
    return "optional-notice" if a.optional_notice(e, lines, n, named_by) else None


def classify_unmatched(r: dict, ex, h) -> dict:
    """The unmatched text `r` with its mechanism class (the module's docstring, --unmatched) and what was read."""
    from attn_doctor.knowledge.match import scan

    meta, body = h.load(Path(r["path"]))
    ids = set(h.label_ids(meta.get("entry", "")))
    s = scan(body, probes=ex.probes())
    row = {k: r[k] for k in ("round", "file", "backend")}
    row["entry"] = (r["entry"] or "")[:160]
    row["family"] = family(ids) if ids else "new"
    row["scanned"] = " ".join(f"{m.entry.id}@{m.line}" for m in s.found[:4])
    want = r["backend"] or ""
    row["named"] = "yes" if want in NAMES and re.search(NAMES[want], body, re.I) else ("-" if want not in NAMES else "no")
    frames = list(re.finditer(r'\bFile "[^"\n]+", line \d+', body))
    steps = list(re.finditer(r"(?m)^[^\n]*\b(?:nvcc|hipcc|g\+\+|c\+\+|clang\+\+)\b[^\n]* -c\b[^\n]*$|"
                             r"^[ \t]*In file included from [^\n]+:\d+[:,]$", body))  # a build's compile steps, its include chain
    row["form"] = "log" if LOG_LINE.search(body) or PRINTED.search(body) or steps else "words"
    letters = sum(c.isalpha() for c in body) or 1
    row["script"] = "other" if len(OTHER_SCRIPT.findall(body)) / letters >= 0.2 else "latin"
    own = [m for m in s.found if m.entry.id in ids]
    if not ids and OUTSIDE.search(meta.get("entry", "")):
        row["class"] = "U-failure-outside-text"
    elif own and row["named"] == "no":  # attribution found no name for it: the label's backend is outside the text
        row["evidence"] = f"{own[0].line}: {own[0].evidence[:160]}"
        row["class"] = "U-backend-outside-text"
    elif own:
        row["evidence"] = f"{own[0].line}: {own[0].evidence[:160]}"
        row["class"] = f"U-attribution-refused/{_dropped_by(own[0], s, ex) or 'other'}"
    elif not ids:
        row["class"] = "U-new-cause"
    elif row["named"] == "no":
        row["class"] = "U-backend-outside-text"
    else:
        undressed = {"quoted": QUOTED.sub("", body) if QUOTED.search(body) else None,
                     "html": __import__("html").unescape(HTML.sub("\n", body)) if HTML.search(body) else None}
        kind = next((k for k, t in undressed.items() if t is not None and ex.match(t, ids=ids)), None)
        if kind:
            row["class"] = f"U-decoration/{kind}"
        elif row["script"] == "other":
            row["class"] = "U-language"
        elif frames and not EXCEPTION_LINE.search(body[frames[-1].end():]) or \
                steps and not re.search(r"\berror\b", body[steps[-1].end():], re.I):
            row["class"] = "U-error-line-cut"  # frames or compile steps, and no exception or error line after the last
        elif row["form"] == "words":  # by its structure as explain_prose_structure.py reads it (the prose layer's macros)
            from explain_prose_structure import macros, structure

            row["class"] = f"U-prose-skipped/{structure(body, *macros())[0].split(':', 1)[0]}"
        else:
            row["class"] = "U-pattern-narrow"
    return row


def table(by: dict) -> str:
    """Markdown: each class with its texts and the rounds it spans, then the unmatched labels by failure family."""
    out = ["| class | texts | rounds | the rounds |", "|---|---:|---:|---|"]
    for c in sorted(by):
        rounds = sorted({x["round"] for x in by[c]})
        out.append(f"| {c} | {len(by[c])} | {len(rounds)} | {' '.join(r.removeprefix('round') for r in rounds)} |")
    if all(c.startswith("U-") for c in by):
        return "\n".join(out)
    fams = defaultdict(lambda: defaultdict(list))
    for c, xs in by.items():
        if c.startswith("C-") and c != "C-new-label":
            for x in xs:
                fams[x["family"]][c.split("/", 1)[0]].append(x)
    cols = ("C-label-unmatched", "C-label-outranked", "C-label-dropped")
    out += ["", "| label's family | " + " | ".join(cols) + " | rounds |", "|---|" + "---:|" * (len(cols) + 1)]
    for f in sorted(fams, key=lambda f: -sum(len(v) for v in fams[f].values())):
        rounds = {x["round"] for v in fams[f].values() for x in v}
        out.append(f"| {f} | " + " | ".join(str(len(fams[f][c])) for c in cols) + f" | {len(rounds)} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tag", help="the explain_training.py tag whose /tmp/TAG-ar-<round>.json files are read")
    ap.add_argument("--indir", default="/tmp")
    ap.add_argument("--rows", help="write one tab-separated row per residual text here")
    ap.add_argument("--unmatched", action="store_true", help="class the texts explain says nothing about (U- classes)")
    ap.add_argument("--tree", default=str(HERE.parent), help="the checkout whose attn_doctor ran TAG (lines and classes are its)")
    a = ap.parse_args(argv)
    import explain_heldout as h

    if not h.import_from(Path(a.tree).resolve(), "explain_residuals"):
        return 2
    from attn_doctor import explain as ex
    from attn_doctor.knowledge import entries

    known = entries()
    root = HERE.parent / "fixtures" / "errors"
    rows = []
    for f in sorted(glob.glob(f"{a.indir}/{a.tag}-ar-*.json")):
        rnd = f.rsplit("-ar-", 1)[1][:-5]
        for r in json.load(open(f, encoding="utf-8"))["results"]:
            r = {**r, "round": rnd, "path": str(root / rnd / r["file"])}
            if a.unmatched:
                if not r["matched"]:
                    rows.append(classify_unmatched(r, ex, h))
                continue
            if not r["matched"] or (r["right_backend"] and r["right_cause"]):
                continue
            rows.append(classify(r, ex, h, known))
    by = defaultdict(list)
    for row in rows:
        by[row["class"]].append(row)
    print(table(by))
    if a.rows:
        cols = ("class", "family", "form", "named", "script", "round", "file", "backend", "entry", "scanned", "evidence") if a.unmatched else \
            ("class", "family", "form", "named", "round", "file", "backend", "entry", "top", "top_backend", "evidence", "named_by")
        with open(a.rows, "w", encoding="utf-8") as out:
            out.write("\t".join(cols) + "\n")
            for row in sorted(rows, key=lambda x: (x["class"], x["round"], x["file"])):
                out.write("\t".join(str(row.get(k) or "").replace("\t", " ").replace("\n", " ") for k in cols) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
