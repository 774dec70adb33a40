#!/usr/bin/env python3
"""Where an error was raised, measured apart from what it says (helper ex91, session 14), per half of ex91's fixed split of the
training rounds (benchmarks/results/explain-ex91-split.md; CHECK is totals only: never its texts).

  default   the structural reading alone: explain with only the entries that read WHERE an error was raised (a traceback's
            frames in a backend's package: knowledge/triage.toml triage.raised-in-*, triage.through-backend,
            knowledge/triage.toml ex91.raised-beneath-*), every message-level entry switched off: texts it names a backend for, right or wrong, and
            unrelated logs claimed.
  --scrub   every entry on, but each exception line's message replaced by words no rule knows ("RuntimeError: <the message>"
            keeps its type; ModuleNotFoundError's "No module named" stays: Python's words never change), in the texts that hold a Python traceback and in the unrelated logs: what explain says of a real
            traceback whose message is new, which is what a blind set brings.

    python benchmarks/explain_structural.py [--scrub] [--tree DIR] [--list]   # --list: DEV's texts, one a line

The texts are this checkout's fixtures; the code measured is --tree's attn_doctor (another checkout, or a `git archive` of a
commit's attn_doctor/ into DIR: the base the change is compared with).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from compare_matches import CHECK, DEV, MEASURE_ONLY  # noqa: E402

PREFIXES = ("triage.raised-in-", "triage.through-backend", "ex91.")
FRAME = re.compile(r'^\W{0,12}\s*File "[^"\n]+", line \d+|^[ \t]*[│|][ \t]*\S*[/\\]\S+\.py:\d+ in\b', re.M)
# an exception line (a log's prefix before it kept): its type stays, its message goes
# (not ModuleNotFoundError's: Python's own words, "No module named 'x'", never new)
EXCEPTION = re.compile(r'^((?:\[rank\d+\]:[ \t]*|E[ \t]+)?(?![\w.]*ModuleNotFoundError\b)[A-Za-z_][\w.]*(?:Error|Exception)): [^\n]*$', re.M)
NEW_WORDS = "an internal check failed in a way the rules have never seen (code 7, state 0x3f)"


def scrub(body: str) -> str:
    return EXCEPTION.sub(lambda m: f"{m.group(1)}: {NEW_WORDS}", body)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", default=str(HERE.parent), help="the directory whose attn_doctor is measured")
    ap.add_argument("--scrub", action="store_true", help="all entries, messages replaced (texts with a traceback only)")
    ap.add_argument("--list", action="store_true", help="print DEV's texts (never CHECK's)")
    a = ap.parse_args(argv)
    import explain_heldout as h

    if not h.import_from(Path(a.tree).resolve(), "explain_structural"):
        return 2
    import attn_doctor
    from attn_doctor import knowledge
    from attn_doctor import explain as ex

    ids = None if a.scrub else {i for i in knowledge.entries() if i.startswith(PREFIXES)}
    print(f"code: {attn_doctor.__file__}; " + ("every entry, exception messages replaced" if a.scrub else
                                             f"structural entries only: {', '.join(sorted(ids))}"))
    for half, rounds in (("DEV", DEV), ("CHECK", CHECK)):
        t = dict(texts=0, named=0, right=0, wrong=0, logs=0, claimed=0)
        for r in rounds:
            if "heldout" in r or r in MEASURE_ONLY:
                return 2
            corpus = HERE.parent / "fixtures" / "errors" / r
            for path in sorted(corpus.glob("*.txt")):
                meta, body = h.load(path)
                if a.scrub:
                    if not FRAME.search(body):
                        continue
                    body = scrub(body)
                found = ex.match(body, ids=ids)
                t["texts"] += 1
                if not found:
                    continue
                backend = found[0].backend if a.scrub else next(
                    (m.backend for m in found if m.backend not in (None, "", "none")), None)
                if backend is None and not a.scrub:
                    continue
                t["named"] += 1
                ok = backend == meta.get("backend") or (meta.get("backend") == "none" and backend in (None, "", "none"))
                t["right" if ok else "wrong"] += 1
                if a.list and half == "DEV":
                    print(f"  {r}/{path.name}: label {meta.get('backend')}, read {backend} "
                          f"({found[0].entry.id}){'' if ok else '  WRONG'}")
            for path in sorted((corpus / "unrelated").glob("*.txt")):
                meta, body = h.load(path)
                found = ex.match(scrub(body) if a.scrub else body, ids=ids)
                t["logs"] += 1
                t["claimed"] += bool(found)
                if a.list and half == "DEV" and found:
                    print(f"  {r}/unrelated/{path.name}: claimed ({found[0].entry.id}, {found[0].backend})")
        what = "texts with a traceback, messages replaced" if a.scrub else "texts"
        print(f"{half:5}: {t['texts']} {what}: {t['named']} read ({'any entry' if a.scrub else 'a backend named'}), "
              f"right backend {t['right']}, wrong {t['wrong']}; unrelated logs claimed {t['claimed']}/{t['logs']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
