#!/usr/bin/env python3
"""Does a catch-all's sentence, decided by concept words, carry to rounds its vocabulary never saw? (issue 23, session 29,
helper ex169; results: benchmarks/results/explain-recurring-s29.md "Session 29 (ex169)")

The hypothesis (task ex169 A): explain_recurring's commonest first-measurement miss is label -> catch-all (a prose / triage
catch-all with the right backend ranks first, the label's entry matches nothing). The catch-all has already found the sentence
that says the failure; decide the entry from that sentence's concept words, written once per entry (CONCEPTS, a TOML table:
`to`, `backend`, `words`; [guard] question; [macros]) from the rounds up to some round, and measure on later rounds.

This patches the concept step into explain (attribution.specialized: a catch-all the table decides is said as its entry) for
the run only; explain itself does not use it. Two measures, for the rounds given:

  misses      the C-catch-all-first rows of explain-recurring-s29.tsv (first measurement: a catch-all ranked first where the
              label names an entry), read with the catch-alls only (`ids`: prose.*, triage.*, generic and fallback entries;
              the specific patterns later readers wrote for those texts are left out, as they were not there at first
              measurement): how many the label's entry and backend now, without and with the concept step
  promotions  every text of the rounds (their unrelated/ logs too), read the same way: every finding the concept step adds,
              right (an entry of the label), wrong (another), on an unrelated log

    PYTHONPATH=$PWD python benchmarks/explain_concepts_carry.py round142m round148m round154m round160m

Only training rounds are read (compare_matches.ROUNDS, never MEASURE_ONLY).
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from functools import lru_cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import explain_heldout as h  # noqa: E402
from compare_matches import MEASURE_ONLY, ROUNDS  # noqa: E402

CONCEPTS = HERE / "concepts_s29.toml"
TABLE = HERE / "results" / "explain-recurring-s29.tsv"
SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|[;；]\s*")


@lru_cache(maxsize=1)
def _concepts(path: Path = CONCEPTS):
    import tomllib

    from attn_doctor.knowledge import _expand

    data = tomllib.loads(path.read_text(encoding="utf-8"))
    macros = data.get("macros", {})
    rows = tuple((x["to"], frozenset(x["backend"]), re.compile(_expand(x["words"], macros, path.name), re.IGNORECASE))
                 for x in data.get("concept", ()))
    return re.compile(data["guard"]["question"], re.IGNORECASE), rows


def catch_all(entry) -> bool:
    return bool(entry.generic or entry.fallback or entry.id.split(".", 1)[0] in ("prose", "triage"))


def conceptual(entry, backend: str | None, evidence: str) -> str | None:
    """The entry the catch-all's line says in concept words, else None: one sentence of the line that names `backend` and no
    other of the seven, no question, on no setup line (attribution.toml [setup]), holding one row's words."""
    from attn_doctor.knowledge.attribution.naming import names_on
    from attn_doctor.knowledge.attribution.tables import rules

    if backend is None or not catch_all(entry):
        return None
    question, rows = _concepts()
    rows = [r for r in rows if backend in r[1]]
    if not rows or any(rx.search(evidence) for rx in rules().setup):
        return None
    for sentence in SENTENCE_END.split(evidence):
        if question.search(sentence) or names_on(sentence) != {backend}:
            continue
        for to, _, words in rows:
            if words.search(sentence):
                return to if to != entry.id else None
    return None


def patch(on: bool) -> None:
    """The concept step on (after attribution.toml's own [[specialize]] rows) or off."""
    from attn_doctor.knowledge import attribution
    from attn_doctor.knowledge.attribution import evidence

    if on:
        attribution.specialized = lambda entry, backend, ev, lines=(), line=0: (
            evidence.specialized(entry, backend, ev, lines, line) or conceptual(entry, backend, ev))
    else:
        attribution.specialized = evidence.specialized


def read(path: Path, ids: set[str]):
    from attn_doctor import explain

    return explain.match(h.load(path)[1], ids=ids)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("rounds", nargs="+")
    ap.add_argument("--rows", action="store_true", help="print each miss row and each promotion")
    a = ap.parse_args(argv)
    bad = [r for r in a.rounds if r in MEASURE_ONLY or r not in ROUNDS]
    if bad:
        ap.error(f"not training rounds: {bad}")
    from attn_doctor.knowledge import entries

    ids = {e.id for e in entries().values() if catch_all(e)}
    root = HERE.parent / "fixtures" / "errors"
    rows = [r for r in csv.DictReader(TABLE.open(encoding="utf-8"), delimiter="\t")
            if r["round"] in a.rounds and r["first_class"] == "C-catch-all-first"]
    hits = {False: 0, True: 0}
    for on in (False, True):
        patch(on)
        for r in rows:
            found = read(root / r["round"] / r["file"], ids)
            top = next((m for m in found if m.entry.can_cause), found[0] if found else None)
            ok = top is not None and top.entry.id in h.label_ids(r["label"]) and top.backend == r["label_backend"]
            hits[on] += ok
            if a.rows and on:
                print(f"miss\t{r['round']}\t{r['file']}\t{r['label']}\t"
                      f"{top.entry.id + '/' + str(top.backend) if top else '-'}\t{'right' if ok else '-'}")
    print(f"misses: {len(rows)} C-catch-all-first rows; label's entry and backend without the concept step {hits[False]}, "
          f"with it {hits[True]}")
    count = {"right": 0, "wrong": 0, "unrelated": 0}
    for rnd in a.rounds:
        d = root / rnd
        for p in sorted(list(d.glob("*.txt")) + list((d / "unrelated").glob("*.txt"))):
            patch(False)
            before = {(m.entry.id, m.backend) for m in read(p, ids)}
            patch(True)
            added = {(m.entry.id, m.backend) for m in read(p, ids)} - before
            labels = h.label_ids(h.load(p)[0].get("entry", ""))
            for e, b in sorted(added, key=str):
                kind = "unrelated" if p.parent.name == "unrelated" else "right" if e in labels else "wrong"
                count[kind] += 1
                if a.rows:
                    print(f"promotion\t{rnd}\t{p.name}\t{e}/{b}\t{kind}\tlabel={' | '.join(labels)}")
    patch(False)
    print(f"promotions: {sum(count.values())} ({count['right']} right, {count['wrong']} wrong, {count['unrelated']} on unrelated logs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
