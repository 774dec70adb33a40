#!/usr/bin/env python3
"""How bound each knowledge pattern is to the sample it was written from (helper ex115, session 19).

Blind sets carry ~20 points lower than the texts rules came from: most misses were one widening away from an existing
rule, whose pattern held its sample's sentence (wording, version, path, model or symbol name), not the constant part of
the mechanism. This lists, for every pattern of every knowledge entry, the measures of that binding:

  run     the longest literal run (characters of fixed text between regex operators; a whitespace class counts as one)
  words   the most fixed words in a row (whitespace classes between them do not break the row)
  vers    literal version numbers (2.5.1, cu124, cp310, torch 2.4) in the fixed text
  paths   literal paths (a/b/c.py, C:\\..., site-packages, /home/...) in the fixed text
  names   literal model or user-ish names (llama, qwen, flux, wan2.1, sdxl ...) in the fixed text
  prose   runs of 6 or more fixed words (a sentence of someone's prose, or a library's whole message)
  texts   training texts (compare_matches.ROUNDS, outside unrelated/) the pattern matches on the normalized text
  alone   of those, texts where its entry is among explain's matches (the runner's `all`, /tmp/TAG-ar-*.json)
          and no other pattern of the entry matches: the texts that only this pattern holds
  unrel   unrelated/ logs the pattern matches (a wide pattern must keep this at 0)

The search is per pattern (needle, then the compiled pattern on the normalized text, as knowledge/match.py compiles it),
without the matcher's rewrites (joined hard wraps, quoted leads): an approximation of which pattern holds a text, enough
to rank. No explain run is needed. Patterns taken from knowledge/messages/ (the backends' own raised messages, exact by
design) are left out unless --messages.

    python benchmarks/explain_pattern_specificity.py            # the worst 40
    python benchmarks/explain_pattern_specificity.py --top 100 --tag s19start --json /tmp/spec.json
"""

from __future__ import annotations

import argparse
import glob
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

VERSION = re.compile(r"(?<![\w.])(?:v?\d+\.\d+(?:\.\d+)+|\d+\.\d+(?=[+\s_-]|$)|cu\d{3}|cp3\d{1,2}|py3\d{1,2}|torch\d+\.\d+)"
                     r"|(?:torch|python|cuda|triton|xformers|flash[_-]attn)[ =_-]?v?\d+\.\d+", re.I)
PATH = re.compile(r"(?:[A-Za-z]:\\|/home/|/root/|/usr/|/opt/|\\Users\\|/Users/|site-packages|dist-packages|"
                  r"(?:[\w.-]+/){2,}[\w.-]+|[\w-]+/[\w-]+\.(?:py|cpp|cu|h|so|dll|yaml|json))", re.I)
NAMES = re.compile(r"(?<![a-z])(?:llama|qwen|mistral|mixtral|gemma|phi-?\d|flux|sdxl|sd3|wan2|hunyuan|deepseek|gpt-?\d|"
                   r"bert|ltx|cogvideo|stable.?diffusion|olmo|glm|internvl|llava|whisper|pixart|kolors|chroma)",
                   re.I)
WORD = re.compile(r"[A-Za-z][\w'.-]*")
PROSE_WORDS = 6


def _space_class(op, av) -> bool:
    """A class or repeat of one that matches whitespace only (`\\s`, `[ \\t]`, ` +`, `\\s*`)."""
    name = str(op)
    if name == "LITERAL":
        return chr(av) in " \t"
    if name == "IN":
        for o, a in av:
            if str(o) == "CATEGORY" and str(a) == "CATEGORY_SPACE":
                continue
            if str(o) == "LITERAL" and chr(a) in " \t\n":
                continue
            if str(o) == "NEGATE":
                return False
            return False
        return True
    if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
        body = list(av[2])
        return len(body) == 1 and _space_class(*body[0])
    return False


def literal_runs(pattern: str) -> list[str]:
    """The runs of fixed text in `pattern` (a whitespace class read as one space)."""
    from attn_doctor.knowledge import regex_parser

    runs: list[str] = []

    def walk(sub) -> None:
        cur: list[str] = []

        def cut() -> None:
            s = "".join(cur).strip()
            if s:
                runs.append(re.sub(r"\s+", " ", s))
            cur.clear()

        for op, av in sub:
            name = str(op)
            if name == "LITERAL":
                cur.append(chr(av))
            elif _space_class(op, av):
                cur.append(" ")
            elif name == "SUBPATTERN":
                cut()
                walk(av[-1])
            elif name == "BRANCH":
                cut()
                for b in av[1]:
                    walk(b)
            elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
                cut()
                walk(av[2])
            elif name in ("ATOMIC_GROUP",):
                cut()
                walk(av)
            elif name in ("ASSERT", "ASSERT_NOT"):
                cut()
                walk(av[1])
            else:
                cut()
        cut()

    try:
        walk(regex_parser.parse(pattern))
    except Exception:  # noqa: BLE001 - a pattern the parser refuses is reported, not measured
        return []
    return runs


def measure_pattern(pattern: str) -> dict:
    runs = literal_runs(pattern)
    fixed = " | ".join(runs)
    words = max((len(WORD.findall(r)) for r in runs), default=0)
    return {
        "run": max((len(r) for r in runs), default=0),
        "words": words,
        "vers": sorted(set(m.group(0) for r in runs for m in VERSION.finditer(r))),
        "paths": sorted(set(m.group(0) for r in runs for m in PATH.finditer(r))),
        "names": sorted(set(m.group(0).lower() for r in runs for m in NAMES.finditer(r))),
        "prose": [r for r in runs if len(WORD.findall(r)) >= PROSE_WORDS],
        "fixed": fixed,
    }


def score(m: dict) -> float:
    """Higher is more bound to a sample: a long sentence, versions, paths and names in fixed text, few texts held."""
    s = max(0, m["words"] - 3) * 2 + m["run"] / 20 + 6 * len(m["vers"]) + 5 * len(m["paths"]) + 4 * len(m["names"])
    s += 3 * len(m["prose"])
    if m.get("texts") is not None and m["texts"] <= 1:
        s += 3
    return round(s, 1)


def corpus_texts(rounds: list[str]) -> tuple[dict[str, str], dict[str, str]]:
    import explain_heldout as h
    from attn_doctor.knowledge.match import normalize

    texts, logs = {}, {}
    for r in rounds:
        d = ROOT / "fixtures" / "errors" / r
        for p in sorted(d.glob("*.txt")):
            texts[f"{r}/{p.name}"] = normalize(h.load(p)[1])
        for p in sorted((d / "unrelated").glob("*.txt")):
            logs[f"{r}/unrelated/{p.name}"] = normalize(h.load(p)[1])
    return texts, logs


def hits(pattern: str, corpus: dict[str, str], lowered: dict[str, str]) -> list[str]:
    from attn_doctor.knowledge import compile_pattern
    from attn_doctor.knowledge.match import needles

    alts = needles(pattern, min_len=1, masked=False)
    rx = compile_pattern(pattern)
    out = []
    for name, text in corpus.items():
        if alts and not any(a in lowered[name] for a in alts):
            continue
        if rx.search(text):
            out.append(name)
    return out


def runner_all(tag: str) -> dict[str, set[str]]:
    """text (ROUND/file) -> the entry ids explain matched there, from the in-sample runner's files."""
    out: dict[str, set[str]] = {}
    for f in glob.glob(f"/tmp/{tag}-ar-round*.json"):
        r = f.split("-ar-")[1][:-5]
        with open(f, encoding="utf-8") as fh:
            d = json.load(fh)
        for x in d["results"]:
            out[f"{r}/{x['file']}"] = set(x.get("all") or [])
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--top", type=int, default=40, help="the worst N patterns printed")
    ap.add_argument("--tag", help="the in-sample runner's tag whose /tmp/TAG-ar-*.json name the matches "
                                   "(benchmarks/explain_training.py TAG writes them); needed unless --no-texts")
    ap.add_argument("--messages", action="store_true", help="include the patterns taken from knowledge/messages/")
    ap.add_argument("--no-texts", action="store_true", help="skip the per-text counts (the listing only)")
    ap.add_argument("--json", help="write every pattern's measures here")
    ap.add_argument("--entry", action="append", default=[], help="only this entry id (repeatable)")
    a = ap.parse_args(argv)
    if not a.no_texts and not (a.tag and glob.glob(f"/tmp/{a.tag}-ar-round*.json")):
        ap.error(f"no /tmp/{a.tag or 'TAG'}-ar-round*.json: run benchmarks/explain_training.py TAG first and pass --tag TAG "
                 "(or --no-texts for the listing alone)")
    sys.path.insert(0, str(ROOT))
    from compare_matches import MEASURE_ONLY, ROUNDS

    from attn_doctor.knowledge import entries

    rounds = [r for r in ROUNDS if "heldout" not in r and r not in MEASURE_ONLY]
    es = entries()
    message_patterns: set[str] = set()
    if not a.messages:
        from attn_doctor.knowledge.messages import messages

        message_patterns = {m.pattern for m in messages()}
    rows = []
    for e in es.values():
        if a.entry and e.id not in a.entry:
            continue
        for kind, pats in (("pattern", e.patterns), ("frame", e.frames)):
            for i, p in enumerate(pats):
                if p in message_patterns:
                    continue
                m = measure_pattern(p)
                rows.append(dict(id=e.id, file=e.file, kind=kind, index=i, pattern=p, **m))
    if not a.no_texts:
        texts, logs = corpus_texts(rounds)
        low_t = {k: v.lower() for k, v in texts.items()}
        low_l = {k: v.lower() for k, v in logs.items()}
        matched = runner_all(a.tag)
        by_entry: dict[str, list[dict]] = {}
        for row in rows:
            row["_hits"] = set(hits(row["pattern"], texts, low_t))
            row["texts"] = len(row["_hits"])
            row["unrel"] = len(hits(row["pattern"], logs, low_l))
            by_entry.setdefault(row["id"], []).append(row)
        for row in rows:
            others = set().union(*(o["_hits"] for o in by_entry[row["id"]] if o is not row))
            row["alone"] = sum(1 for t in row["_hits"] - others if row["id"] in matched.get(t, ()))
        for row in rows:
            row.pop("_hits")
        print(f"{len(rows)} patterns of {len({r['id'] for r in rows})} entries; {len(texts)} training texts and "
              f"{len(logs)} unrelated logs of {len(rounds)} rounds; runner files: /tmp/{a.tag}-ar-*.json "
              f"({len(matched)} texts)")
    else:
        print(f"{len(rows)} patterns of {len({r['id'] for r in rows})} entries (no text counts)")
    for row in rows:
        row["score"] = score(row)
    rows.sort(key=lambda r: (-r["score"], r["id"], r["index"]))
    n = len(rows)
    summary = {
        "patterns": n,
        "prose (>= 6 fixed words)": sum(1 for r in rows if r["prose"]),
        "literal versions": sum(1 for r in rows if r["vers"]),
        "literal paths": sum(1 for r in rows if r["paths"]),
        "literal model names": sum(1 for r in rows if r["names"]),
        "longest literal run >= 60 chars": sum(1 for r in rows if r["run"] >= 60),
    }
    if not a.no_texts:
        summary["matching no training text"] = sum(1 for r in rows if r["texts"] == 0)
        summary["holding one text alone"] = sum(1 for r in rows if r["alone"] == 1)
        summary["matching an unrelated log"] = sum(1 for r in rows if r["unrel"])
    for k, v in summary.items():
        print(f"  {k}: {v}")
    print(f"\nthe worst {min(a.top, n)} (score: words past 3 x2, run/20, version x6, path x5, name x4, prose x3, "
          f"<= 1 text +3)")
    for r in rows[: a.top]:
        counts = "" if a.no_texts else f" texts={r['texts']} alone={r['alone']} unrel={r['unrel']}"
        flags = " ".join(f"{k}={','.join(r[k])}" for k in ("vers", "paths", "names") if r[k])
        print(f"{r['score']:6.1f} {r['id']} ({r['file']} {r['kind']} {r['index']}) run={r['run']} words={r['words']}"
              f"{counts} {flags}")
        print(f"       {r['pattern'][:160]}")
    if a.json:
        Path(a.json).write_text(json.dumps({"summary": summary, "rows": rows}, indent=1, ensure_ascii=False),
                                encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
