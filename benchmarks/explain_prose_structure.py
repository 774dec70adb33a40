#!/usr/bin/env python3
"""Why is a prose miss unread? Its structure, counted by rule, not by reading (issue 23, session 24, helper ex143).

Session 23's ex139 counted the blind rounds' prose misses by structure with a throw-away script
(benchmarks/results/explain-prose-vocabulary-s23.md, section 3). This is that count as a tool, on any round list, with the
issue form's structure added. A prose miss is a text that is not matched or matched with no backend, whose class is
U-prose-only or B-backendless-first (explain_blind_carry.klass: attention words and no error line an entry reads). Its
structure is read with the prose layer's own macros (knowledge/prose.toml: B the names, the failure-word macros) and the
head as knowledge/match.py takes it (HEAD_LINES lines that say something within HEAD_MAX_LINES), into one class each:

- one-line:     a head line carries a backend's name and a failure word, still unread (the line's form, a guard, attribution)
- next-line:    a head line names the backend and the failure word is on a neighbouring head line of the same paragraph or
                on the title line (the first)
- head-no-word: the backend is named in the head and no failure word is on its line, its neighbours or the title
- form-under:   named only past the head, in the first paragraph under an issue form's description heading ("### Describe
                the bug", "**Describe the bug**", "### 问题描述", ...)
- form-env:     named past the head only inside an issue form's environment section ("### System Info", "Environment",
                "Versions", `pip list`): no failure is said there
- past-head:    named only past the head, elsewhere
- no-name:      no backend's name anywhere

Each text is also marked `form` when it carries an issue form's headings. The state a round is measured in is a training
run's results (--tag: /tmp/TAG-ar-<round>.json) or its first blind measurement (--first: the code of the round's first
commit, explain_blind_carry's cache). Held-out and measure-only sets are refused.

    python benchmarks/explain_prose_structure.py --tag s24start                  # every training round
    python benchmarks/explain_prose_structure.py --first --rounds "101m 105m"    # blind rounds at their first measurement
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tomllib
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from compare_matches import MEASURE_ONLY, ROUNDS  # noqa: E402
from explain_blind_carry import klass, level  # noqa: E402

PROSE_MISSES = ("U-prose-only", "B-backendless-first")
CLASSES = ("one-line", "next-line", "head-no-word", "form-under", "form-env", "past-head", "no-name")
FAILURE_MACROS = ("FAIL", "NOTON", "IMPORT", "CRASH", "NUMBERS", "NUMBERSX", "SLOW", "SPEEDSAID", "IGNORED", "FAILX", "BUILD",
                  "COMPILE")
# of those, the words that are a failure's context, not a failure: NOTON ("not", "no", "only": prose.gpu needs a GPU beside it),
# BUILD ("install", "pip": prose.build needs FAIL beside it), COMPILE (torch.compile: prose.compile needs a failure word)
CONTEXT_MACROS = ("NOTON", "BUILD", "COMPILE")
# an issue form's headings: Markdown's `#` headings and a bold line of its own (GitHub's issue forms and the older templates)
HEADING = re.compile(r"^[ \t]{0,3}(?:#{1,6}[ \t]+(?P<h>[^\n]*?)[ \t#]*|\*\*(?P<b>[^*\n]{2,80})\*\*[ \t]*:?[ \t]*)$")
DESCRIBE = re.compile(r"describe|description|what happened|bug|problem|issue|summary|current behavi|actual behavi|question|"
                      r"问题|描述|现象|当前行为|バグ|問題|説明|현상|문제|설명", re.I)
ENVIRONMENT = re.compile(r"system info|environment|versions?|platform|hardware|setup|configuration|installed packages|"
                         r"pip list|collect_env|your current environment|环境|系統|系统|版本|環境|환경", re.I)


def macros() -> tuple[re.Pattern, re.Pattern]:
    m = tomllib.loads((ROOT / "attn_doctor/knowledge/prose.toml").read_text(encoding="utf-8"))["macros"]
    return re.compile(m["B"], re.I), re.compile("|".join(f"(?:{m[k]})" for k in FAILURE_MACROS), re.I)


def _groups(rx: str) -> list[str]:
    """The top-level groups of a regex written as a row of groups (prose.toml's LINE: `^` and lookaheads)."""
    out, depth, start, k = [], 0, None, 0
    while k < len(rx):
        c = rx[k]
        if c == "\\":
            k += 2
            continue
        if c == "[":  # a class: to its end
            k += 1 + (rx[k + 1] == "]")
            while rx[k] != "]":
                k += 1 + (rx[k] == "\\")
        elif c == "(":
            if depth == 0:
                start = k
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                out.append(rx[start:k + 1])
        k += 1
    return out


def guards() -> list[re.Pattern]:
    """LINE's guards, each on its own, in LINE's order (LINE#0 the first: not indented)."""
    m = tomllib.loads((ROOT / "attn_doctor/knowledge/prose.toml").read_text(encoding="utf-8"))["macros"]
    return [re.compile("^" + g, re.I | re.M) for g in _groups(m["LINE"])]


def refused_by(line: str) -> str:
    """Why a head line with a name and a failure word is unread: 'context-word-only' (its only failure words are contexts:
    CONTEXT_MACROS), 'LINE#k' (LINE's k-th guard refuses it), 'pattern-read, ...' (a prose pattern reads the line: explained
    alone, the line gets a backend (outranked in the text: another entry without a backend first) or none (attribution)) or 'pattern-form' (a prose line no prose pattern reads: the kind's other condition, a GPU, a
    title's form)."""
    from attn_doctor.knowledge import entries
    m = tomllib.loads((ROOT / "attn_doctor/knowledge/prose.toml").read_text(encoding="utf-8"))["macros"]
    if not any(re.search(m[k], line, re.I) for k in FAILURE_MACROS if k not in CONTEXT_MACROS):
        return "context-word-only"
    for k, rx in enumerate(guards()):
        if not rx.match(line):
            return f"LINE#{k}"
    prose = [e for e in entries().values() if e.id.startswith("prose.") and e.head]
    if any(re.search(p, line, re.I | re.M) for e in prose for p in e.patterns):
        from attn_doctor.explain import match
        alone = match(line)
        return "pattern-read, outranked in the text" if alone and alone[0].backend else "pattern-read, attribution refuses"
    return "pattern-form"


def head_lines(lines: list[str]) -> int:
    """How many of `lines` match.py's head reads: HEAD_LINES that say something within HEAD_MAX_LINES."""
    from attn_doctor.knowledge.match import HEAD_LINES, HEAD_MAX_LINES
    said = n = 0
    while said < HEAD_LINES and n < HEAD_MAX_LINES and n < len(lines):
        said += bool(lines[n].strip())
        n += 1
    return n


def sections(lines: list[str]) -> list[tuple[str | None, int, int]]:
    """(heading text or None for the part before the first heading, first line, end) of each section of an issue form."""
    out, title, start = [], None, 0
    for i, line in enumerate(lines):
        if m := HEADING.match(line):
            out.append((title, start, i))
            title, start = (m.group("h") or m.group("b") or "").strip(), i + 1
    out.append((title, start, len(lines)))
    return out


def structure(body: str, B: re.Pattern, FAILW: re.Pattern) -> tuple[str, bool]:
    """One class of CLASSES for a prose miss's body, and whether it is an issue form."""
    lines = body.lstrip("\n").splitlines()
    secs = sections(lines)
    form = sum(1 for t, _, _ in secs if t is not None) >= 1 and any(t and (DESCRIBE.search(t) or ENVIRONMENT.search(t))
                                                                    for t, _, _ in secs)
    n = head_lines(lines)
    head = lines[:n]
    named = [i for i, line in enumerate(head) if B.search(line)]
    if named:
        if any(FAILW.search(head[i]) for i in named):
            line = next(head[i] for i in named if FAILW.search(head[i]))
            return f"one-line:{refused_by(line)}", form
        for i in named:
            near = [j for j in (i - 1, i + 1) if 0 <= j < n and head[j].strip() and head[i].strip()]
            if any(FAILW.search(head[j]) for j in near) or (i and FAILW.search(head[0])):
                return "next-line", form
        return "head-no-word", form
    if not B.search(body):
        return "no-name", form
    for title, a, z in secs:
        if title is None or z <= n:
            continue
        part = lines[max(a, n):z]
        if DESCRIBE.search(title) and not ENVIRONMENT.search(title):
            para = []
            for line in part:  # the first paragraph under the heading
                if not line.strip() and para:
                    break
                if line.strip():
                    para.append(line)
            if any(B.search(line) for line in para):
                return "form-under", form
    outside_env = [line for title, a, z in secs if not (title and ENVIRONMENT.search(title))
                   for line in lines[max(a, n):z]]
    if form and not any(B.search(line) for line in outside_env):
        return "form-env", form
    return "past-head", form


def state_of(rounds: list[str], tag: str | None, first: bool, cache: str) -> dict[str, dict]:
    if tag:
        return {r: json.loads(Path(f"/tmp/{tag}-ar-{r}.json").read_text(encoding="utf-8")) for r in rounds}
    from explain_blind_carry import measure, tree
    from explain_vocabulary_carry import FIRST
    return {r: measure(tree(FIRST[r[len("round"):]], Path(cache)), [r])[r] for r in rounds}


def misses(doc: dict, rnd: str, B: re.Pattern, FAILW: re.Pattern) -> list[dict]:
    out = []
    for x in doc["results"]:
        body = (ROOT / "fixtures" / "errors" / rnd / x["file"]).read_text(encoding="utf-8").partition("\n---\n")[2]
        if level(x) in ("U", "B") and klass(level(x), x, body) in PROSE_MISSES:
            cls, form = structure(body, B, FAILW)
            out.append(dict(round=rnd, file=x["file"], source=x["source"], cls=cls, form=form))
    return out


def carry(rounds: list[str], base: str, cache: str) -> dict:
    """Of each round's first-measurement prose misses, which this tree reads (unmatched -> the right backend) that `base` does
    not: measured on today's texts and labels with three codes (the round's first commit, `base`, this tree) and with this
    tree's change (`git diff base` over attn_doctor/) laid onto the first commit where it applies. Also: texts lost (right
    backend -> not) and unrelated logs claimed."""
    import shutil
    import subprocess
    from explain_blind_carry import measure, tree
    from explain_vocabulary_carry import FIRST
    diff = subprocess.run(["git", "-C", str(ROOT), "diff", base, "--", "attn_doctor"], capture_output=True, check=True).stdout
    B, FAILW = macros()
    out = {}
    for r in rounds:
        first = tree(FIRST[r[len("round"):]], Path(cache))
        laid = Path(cache) / f"{first.name}+ex143"
        if laid.exists():
            shutil.rmtree(laid)
        shutil.copytree(first, laid)
        applied = subprocess.run(["patch", "-p1", "-s", "-f", "-d", str(laid)], input=diff, capture_output=True).returncode == 0
        docs = {"first": measure(first, [r])[r], "base": measure(tree(base, Path(cache)), [r])[r],
                "now": measure(ROOT, [r])[r]}
        if applied:
            docs["laid"] = measure(laid, [r])[r]
        by = {k: {x["file"]: x for x in d["results"]} for k, d in docs.items()}
        rows = []
        for m in misses(docs["first"], r, B, FAILW):
            rows.append({**m, **{k: level(by[k][m["file"]]) for k in docs if k != "first"}})
        lost = {k: sum(level(by["base"][f]) in ("C", "ok") and level(by[k][f]) in ("U", "B") for f in by["base"])
                for k in ("now",)}
        unrelated = {k: sum(x["matched"] for x in d["unrelated_results"]) for k, d in docs.items()}
        out[r] = dict(misses=rows, applied=applied, lost=lost, unrelated=unrelated)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", help="round names (101m or round101m), space-separated; default every training round")
    ap.add_argument("--tag", help="a training run's tag (/tmp/TAG-ar-<round>.json)")
    ap.add_argument("--first", action="store_true", help="each round's first blind measurement (explain_vocabulary_carry.FIRST)")
    ap.add_argument("--cache", default="/tmp/explain-blind-carry")
    ap.add_argument("--out", help="every prose miss with its class (JSON)")
    ap.add_argument("--carry", metavar="BASE", help="with --first: which of the prose misses this tree reads that BASE "
                    "(a commit or tag) does not, and with this tree's change laid onto each round's first commit")
    a = ap.parse_args(argv)
    if bool(a.tag) == a.first:
        ap.error("give one of --tag, --first")
    rounds = [r if r.startswith("round") else f"round{r}" for r in a.rounds.split()] if a.rounds else list(ROUNDS)
    bad = [r for r in rounds if r in MEASURE_ONLY or "heldout" in r or r.endswith("m") and int(r[5:-1]) >= 136]
    if bad:
        ap.error(f"held-out or measure-only: {' '.join(bad)}")
    if a.carry:
        if not a.first:
            ap.error("--carry goes with --first")
        res = carry(rounds, a.carry, a.cache)
        read = lambda s: s in ("C", "ok")  # noqa: E731
        tot: Counter = Counter()
        print("round      misses  read@base  read@now  new@now  laid-on-first  lost@now  unrelated first/base/now/laid")
        for r, d in res.items():
            ms = d["misses"]
            row = Counter(misses=len(ms), base=sum(read(m["base"]) for m in ms), now=sum(read(m["now"]) for m in ms),
                          new=sum(read(m["now"]) and not read(m["base"]) for m in ms),
                          laid=sum(read(m.get("laid", "U")) for m in ms), lost=d["lost"]["now"])
            tot += row
            u = d["unrelated"]
            print(f"{r:10s} {row['misses']:6d} {row['base']:10d} {row['now']:9d} {row['new']:8d} "
                  f"{(str(row['laid']) if d['applied'] else 'n/a'):>14s} {row['lost']:9d}  "
                  f"{u['first']}/{u['base']}/{u['now']}/{u.get('laid', '-')}")
            for m in ms:
                if read(m["now"]) and not read(m["base"]) or read(m.get("laid", "U")):
                    print(f"    {m['source']}: base {m['base']} now {m['now']} laid {m.get('laid', '-')} ({m['cls']})")
        print("total", dict(tot))
        if a.out:
            Path(a.out).write_text(json.dumps(res, indent=1, ensure_ascii=False), encoding="utf-8")
        return 0
    B, FAILW = macros()
    docs = state_of(rounds, a.tag, a.first, a.cache)
    rows = [m for r in rounds for m in misses(docs[r], r, B, FAILW)]
    table = Counter((m["cls"].split(":")[0], m["form"]) for m in rows)
    print(f"{len(rows)} prose misses in {len(rounds)} rounds")
    print(f"{'class':14s} {'all':>4s} {'form':>5s}")
    for c in CLASSES:
        print(f"{c:14s} {table[c, True] + table[c, False]:4d} {table[c, True]:5d}")
    why = Counter(m["cls"].split(":", 1)[1] for m in rows if ":" in m["cls"])
    print("one-line, refused by:", ", ".join(f"{k} {v}" for k, v in why.most_common()))
    if a.out:
        Path(a.out).write_text(json.dumps(rows, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
