#!/usr/bin/env python3
"""Which candidate matches explain finds and then drops, and which filter drops each (helper ex99).

For every training text (compare_matches.ROUNDS, split as compare_matches.DEV / CHECK) that explain leaves unmatched or
gives the wrong backend, list the entries the matcher found before explain's filters and the filter that dropped each:

  probe:optional       match._without_optional_probes / _past_optional_probes (only inside an optional import probe)
  rank:specific        match._rank: a specific entry whose every line a more specific one claimed
  rank:catch-all       match._rank: a catch-all beside a specific cause (or its lines taken)
  rank:last-resort     match._rank: a last resort (triage) beside a cause
  rank:weak            match._rank: a weak reading (frames) beside a cause
  settle               sdpa_reasons.settle (torch's SDPA warnings read as a note)
  no-failure-document  attribution.no_failure_document (the whole text)
  <attribution fn>     explain._attribute's filters (foreign_kernel, program_printed, described_fallback, foreign,
                       unclaimed, required_by_other, raised_by_optimizer, interrupted, generalized, optional_notice)
  routed               accelerator.route replaced the entry (not a drop; listed where the text is wrong-backend)

Instrumentation only: it wraps those functions while explain runs; what explain prints is unchanged.
DEV's texts are listed by name; CHECK prints totals only (ex91's split: CHECK is never read text by text).

    python benchmarks/explain_dropped.py [--half DEV|CHECK|both] [--rounds r1 r2 ...]
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
from compare_matches import CHECK, DEV, MEASURE_ONLY  # noqa: E402

FILTERS = ("foreign_kernel", "program_printed", "described_fallback", "foreign", "unclaimed", "required_by_other",
           "raised_by_optimizer", "interrupted", "optional_notice")


class Recorder:
    def __init__(self):
        self.reset()

    def reset(self):
        self.cands = []  # entry ids found before any filter
        self.dropped = {}  # entry id -> filter
        self.in_elsewhere = False

    def install(self):
        from attn_doctor import explain
        from attn_doctor.knowledge import accelerator, attribution, match, sdpa_reasons

        rec = self
        orig_without = match._without_optional_probes
        orig_rank = match._rank
        orig_past = match._past_optional_probes

        def without(cands, lines):
            rec.cands = [c.entry.id for c in cands]
            out = orig_without(cands, lines)
            kept = {id(c.entry) for c in out}
            for c in cands:
                if id(c.entry) not in kept:
                    rec.dropped.setdefault(c.entry.id, "probe:optional")
            return out

        def rank(cands):
            out = orig_rank(cands)
            kept = {m.entry.id for m in out}
            for c in cands:
                if c.entry.id in kept:
                    continue
                e = c.entry
                why = ("rank:weak" if e.weak_copy else "rank:last-resort" if e.fallback
                       else "rank:catch-all" if e.generic else "rank:specific")
                rec.dropped.setdefault(e.id, why)
            return out

        def past(found, lines):
            out = orig_past(found, lines)
            kept = {m.entry.id for m in out}
            for m in found:
                if m.entry.id not in kept:
                    rec.dropped.setdefault(m.entry.id, "probe:optional")
            return out

        match._without_optional_probes, match._rank, match._past_optional_probes = without, rank, past

        orig_settle = sdpa_reasons.settle

        def settle(found, probed):
            out = list(orig_settle(found, probed))
            kept = {m.entry.id for m in out}
            for m in found:
                if m.entry.id not in kept:
                    rec.dropped.setdefault(m.entry.id, "settle")
            return out

        sdpa_reasons.settle = settle

        orig_nfd = attribution.no_failure_document

        def nfd(lines):
            r = orig_nfd(lines)
            if r:
                rec.dropped["*"] = "no-failure-document"
            return r

        attribution.no_failure_document = nfd

        for name in FILTERS:
            orig = getattr(attribution, name)

            def wrapped(entry, *a, _orig=orig, _name=name, **kw):
                r = _orig(entry, *a, **kw)
                if r and not rec.in_elsewhere:
                    rec.dropped[entry.id] = _name  # the last filter that said so (unclaimed may be moved, then kept)
                return r

            setattr(attribution, name, wrapped)

        orig_gen = attribution.generalized

        def gen(entry, *a, **kw):
            r = orig_gen(entry, *a, **kw)
            if r is not None:
                rec.dropped[entry.id] = f"generalized->{r}"
            return r

        attribution.generalized = gen

        orig_else = explain._claimed_elsewhere

        def elsewhere(m, lines):
            rec.in_elsewhere = True
            try:
                return orig_else(m, lines)
            finally:
                rec.in_elsewhere = False

        explain._claimed_elsewhere = elsewhere

        orig_route = accelerator.route

        def route(entry_id, *a, **kw):
            r = orig_route(entry_id, *a, **kw)
            if r is not None:
                rec.dropped[entry_id] = f"routed->{r}"
            return r

        accelerator.route = route


def run(rounds, show: bool, rec: Recorder):
    import explain_heldout as h

    root = HERE.parent / "fixtures" / "errors"
    fn, feed, _ = h._resolve(None)
    by_filter = collections.Counter()  # texts whose only candidates all dropped, by the filter of the first
    any_filter = collections.Counter()  # candidates dropped in unmatched / wrong-backend texts, by filter
    n_unmatched = n_wrong = n_unm_with = 0
    for r in rounds:
        if "heldout" in r or r in MEASURE_ONLY:
            continue
        for path in sorted((root / r).glob("*.txt")):
            meta, body = h.load(path)
            rec.reset()
            found = h.run_matcher(fn, feed, body)
            v = h.verdict(meta, found)
            if v["matched"] and v["right_backend"]:
                continue
            final = set(v["all"])
            dropped = {i: why for i, why in rec.dropped.items() if i not in final}
            if not v["matched"]:
                n_unmatched += 1
                if dropped:
                    n_unm_with += 1
                    whys = sorted(set(dropped.values()))
                    for w in whys:
                        by_filter[w.split("->")[0]] += 1
            else:
                n_wrong += 1
            for w in dropped.values():
                any_filter[w.split("->")[0]] += 1
            if show and dropped:
                state = "UNMATCHED" if not v["matched"] else f"wrong backend {v['top']} ({v['top_backend']})"
                print(f"{r}/{path.name} [{meta.get('backend')} {meta.get('entry')}] {state}")
                for i, why in dropped.items():
                    print(f"    {i:40} {why}")
    return n_unmatched, n_wrong, n_unm_with, by_filter, any_filter


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--half", choices=("DEV", "CHECK", "both"), default="both")
    ap.add_argument("--rounds", nargs="*", help="only these DEV rounds (listed text by text)")
    a = ap.parse_args(argv)
    rec = Recorder()
    rec.install()
    halves = []
    if a.rounds:
        bad = [r for r in a.rounds if r not in DEV]
        if bad:
            print(f"explain_dropped: {', '.join(bad)}: not a DEV round (CHECK is totals only)", file=sys.stderr)
            return 2
        halves.append(("DEV", tuple(a.rounds)))
    else:
        if a.half in ("DEV", "both"):
            halves.append(("DEV", DEV))
        if a.half in ("CHECK", "both"):
            halves.append(("CHECK", CHECK))
    for half, rounds in halves:
        un, wrong, with_drop, by_filter, any_filter = run(rounds, half == "DEV", rec)
        print(f"{half}: {un} unmatched texts, {with_drop} with a dropped candidate; {wrong} wrong-backend texts")
        print(f"{half}: unmatched texts with a candidate dropped, by filter: "
              + ", ".join(f"{k} {n}" for k, n in by_filter.most_common()))
        print(f"{half}: candidates dropped in unmatched or wrong-backend texts, by filter: "
              + ", ".join(f"{k} {n}" for k, n in any_filter.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
