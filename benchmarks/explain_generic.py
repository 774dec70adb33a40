#!/usr/bin/env python3
"""How far explain's GENERIC layer reaches on every training round (issue 23, session 8, helper ex50).

On a text nobody wrote a rule from, what answers is mostly the generic layer: the entries marked `generic` or
`fallback` (knowledge/prose.toml: a backend named in a report's title or first sentences plus a kind of failure;
knowledge/triage.toml: a traceback whose innermost frame is in a backend's own code, an exception line that names a
backend, a message a backend's source raises; the backend-less catch-alls of the other files) and attribution
(knowledge/attribution.toml/.py: which backend a backend-less finding belongs to). Specific entries fit the texts
they were written from; this benchmark measures what is left when they are gone.

Every training round (ROUNDS: compare_matches.ROUNDS, the folders fixtures/errors/round*/ whose rules were written or that
were made training after their blind measurement; not round4b-check, a sample measured once after round 4b's rules; never
held-out/, never compare_matches.MEASURE_ONLY, never a measure-only set being gathered) is run twice through the matcher `attn-doctor explain -` runs (attn_doctor.explain.match):
  normal         every entry
  generic-only   only the entries marked generic or fallback, and the frames-only entries (triage.through-backend:
                 weak evidence, no pattern of its own); a specific entry's `frames` (its weak copy) goes with it.
                 The filter is explain.match's own `ids` argument (the matcher sees the others as absent); the
                 knowledge and match.py are unchanged, and attribution runs as it does normally (it may still word
                 a generic finding as its backend's own entry: attribution.toml [[specialize]]).
and reports per round and in total: texts, matched, right backend, right cause, unrelated logs claimed (false
positives), for both modes. Measures only; no test asserts these figures.

    python benchmarks/explain_generic.py                         # table on stdout
    python benchmarks/explain_generic.py --out r.json            # and the JSON (per text, both modes)
    python benchmarks/explain_generic.py --out r.json --misses-md r.md
                                                                 # and the texts normal mode gets right but
                                                                 # generic-only misses, classed by why
    python benchmarks/explain_generic.py --rounds round44,round46   # some rounds only
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from explain_heldout import load, verdict  # noqa: E402  (the same reading of a corpus file and of a verdict)

# the training rounds of explain (in-sample): compare_matches.ROUNDS, the one list the in-sample runner reads (a list,
# not a glob, so that a measure-only set added under fixtures/errors/ stays out until it has been measured). Until
# session 17 this file kept its own copy, which had stopped at round 63m (1518 of 2087 texts: ex107).
from compare_matches import MEASURE_ONLY, ROUNDS as _TRAINING  # noqa: E402

# never read here: the held-out corpus and compare_matches.MEASURE_ONLY (rounds gathered blind, measured by the lead)
REFUSED = {"heldout", *MEASURE_ONLY}
ROUNDS = tuple(r for r in _TRAINING if r not in REFUSED)


def generic_ids() -> set[str]:
    """The ids of the generic layer: entries marked generic or fallback, and frames-only entries (weak evidence)."""
    from attn_doctor.knowledge import entries

    return {e.id for e in entries().values() if e.generic or e.fallback or (e.frames and not e.patterns)}


def run_round(corpus: Path, ids: set[str] | None) -> dict:
    from attn_doctor.explain import match

    texts, unrelated = [], []
    for path in sorted(corpus.glob("*.txt")):
        meta, body = load(path)
        v = verdict(meta, match(body, ids=ids))
        label = {"source": meta.get("source"), "backend": meta.get("backend")} if ids is None else {}  # once: normal's
        texts.append({"file": path.name, **label,
                      **{k: v[k] for k in ("matched", "right_backend", "right_cause", "top", "top_backend")}})
    for path in sorted((corpus / "unrelated").glob("*.txt")):
        meta, body = load(path)
        found = match(body, ids=ids)
        unrelated.append({"file": path.name, "matched": bool(found), "all": [m.entry.id for m in found]})
    return {"results": texts, "unrelated_results": unrelated}


def totals(doc: dict) -> dict:
    rs, us = doc["results"], doc["unrelated_results"]
    return {"texts": len(rs), **{k: sum(bool(r[k]) for r in rs) for k in ("matched", "right_backend", "right_cause")},
            "unrelated": len(us), "unrelated_claimed": sum(u["matched"] for u in us)}


def measure(rounds: list[str]) -> dict:
    gen = generic_ids()
    out = {"schema": "attn-doctor.explain-generic/1", "date": _dt.date.today().isoformat(),
           "generic_ids": sorted(gen), "rounds": {}}
    t0 = time.perf_counter()
    for r in rounds:
        corpus = ROOT / "fixtures" / "errors" / r
        out["rounds"][r] = {"normal": run_round(corpus, None), "generic": run_round(corpus, gen)}
        for mode in ("normal", "generic"):
            out["rounds"][r][mode]["totals"] = totals(out["rounds"][r][mode])
    out["seconds"] = round(time.perf_counter() - t0, 1)
    out["totals"] = {mode: {k: sum(d[mode]["totals"][k] for d in out["rounds"].values())
                            for k in ("texts", "matched", "right_backend", "right_cause", "unrelated",
                                      "unrelated_claimed")}
                     for mode in ("normal", "generic")}
    return out


def render(doc: dict) -> str:
    head = f"{'round':<10}{'texts':>6} | {'normal: matched':>15}{'backend':>8}{'cause':>7}{'unrel':>8} | " \
           f"{'generic: matched':>16}{'backend':>8}{'cause':>7}{'unrel':>8}"
    lines = [head, "-" * len(head)]

    def row(name, n, g):
        return (f"{name:<10}{n['texts']:>6} | {n['matched']:>15}{n['right_backend']:>8}{n['right_cause']:>7}"
                f"{str(n['unrelated_claimed']) + '/' + str(n['unrelated']):>8} | {g['matched']:>16}"
                f"{g['right_backend']:>8}{g['right_cause']:>7}{str(g['unrelated_claimed']) + '/' + str(g['unrelated']):>8}")
    for r, d in doc["rounds"].items():
        lines.append(row(r, d["normal"]["totals"], d["generic"]["totals"]))
    lines += ["-" * len(head), row("all", doc["totals"]["normal"], doc["totals"]["generic"])]
    n, g = doc["totals"]["normal"], doc["totals"]["generic"]
    t = n["texts"] or 1
    lines.append(f"normal: matched {100 * n['matched'] / t:.1f}%, right backend {100 * n['right_backend'] / t:.1f}%; "
                 f"generic-only: matched {100 * g['matched'] / t:.1f}%, right backend {100 * g['right_backend'] / t:.1f}% "
                 f"({len(doc['generic_ids'])} generic ids, {doc['seconds']} s)")
    return "\n".join(lines)


# ---- why the generic layer misses a text normal mode gets right (heuristic classes, for reading) ----------------

_B = None


def _prose_macros() -> dict[str, re.Pattern]:
    global _B
    if _B is None:
        try:
            import tomllib
        except ModuleNotFoundError:  # Python 3.10
            import tomli as tomllib  # type: ignore[no-redef]
        with open(ROOT / "attn_doctor" / "knowledge" / "prose.toml", "rb") as fh:
            m = tomllib.load(fh)["macros"]
        _B = {k: re.compile(m[k], re.I | re.M) for k in ("B", "FAIL", "NOTON", "GPU", "IMPORT", "CRASH", "NUMBERS",
                                                          "BUILD", "COMPILE", "IGNORED", "SLOW")}
    return _B


KINDS = ("FAIL", "IMPORT", "CRASH", "NUMBERS", "IGNORED", "SLOW")


def _kind(line: str) -> bool:
    """Does `line` say a kind of failure as prose.toml's entries read it (a GPU's refusal only beside a GPU)?"""
    M = _prose_macros()
    return any(M[k].search(line) for k in KINDS) or bool(M["GPU"].search(line) and M["NOTON"].search(line))


def _prose_line() -> str:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    with open(ROOT / "attn_doctor" / "knowledge" / "prose.toml", "rb") as fh:
        return tomllib.load(fh)["macros"]["LINE"]


FRAME = re.compile(r'^[ \t]*File "([^"\n]+)", line \d+, in ([^\n]*)$', re.M)
EXC = re.compile(r"^(?:[ \t]*(?:\[rank\d+\]:[ \t]*|E[ \t]+)?)([A-Za-z_][\w.]*(?:Error|Exception)):", re.M)
MODULE_NAME = re.compile(r"\b(?:sdp_utils|sdp_kernel|sdpa_kernel|efficient_attention|_scaled_dot_product\w*|flash_attn(?:_2_cuda|_3|_interface|_func|_varlen_func)?|FlashAttention2|"
                         r"\w+FlashAttention2?\b|xformers\.ops|memory_efficient_attention\w*|sageattn\w*|"
                         r"sageattention|flex_attention|scaled_dot_product_attention|_flash_attention_forward|"
                         r"flash_attn_gpu|flashattn_hopper_cuda|_C_flashattention)\b")
WRAPPERS = re.compile(r"modeling_flash_attention_utils|attention_dispatch|[/\\]comfy[/\\][^\"]*attention|"
                      r"integrations[/\\](?:sdpa|flash|flex)_attention|sdpa_attention|ldm[/\\]modules[/\\]attention|"
                      r"attention_processor|[/\\]vllm[/\\][^\"]*attention|[/\\]modeling_\w+\.py|"
                      r"[/\\]diffusers[/\\]|[/\\]transformers[/\\]")
BACKEND_FILE = re.compile(r"[/\\](?:flash_attn(?:_3)?|xformers|sageattention|sageattn3?|spas_sage_attn|quack|cutlass)"
                          r"[/\\]|flash_attn_interface\.py|flex_attention\.py")


def _generic() -> set[str]:
    global _GEN
    if _GEN is None:
        _GEN = generic_ids()
    return _GEN


_GEN = None


def _scan(body: str, ids: set[str]):
    from attn_doctor.knowledge.match import scan

    return scan(body, ids=ids)


def classify(body: str, generic_top: str | None, generic_backend: str | None, want: str) -> tuple[str, str] | str:
    """The likeliest reason the generic layer misses a text (a heuristic: the class a reader checks first)."""
    M = _prose_macros()
    lines = body.splitlines()
    head = [ln for ln in lines[:6] if ln.strip()][:5]  # match.py HEAD_MAX_LINES, HEAD_LINES
    head_text = "\n".join(head)
    if generic_top is not None:
        return "generic matched, another backend", f"{generic_top} ({generic_backend or 'none'})"
    if want == "none":
        return "labelled backend none (torch's, the driver's, the job's failure): the generic layer claims no backend-less cause here"
    raw = sorted({m.entry.id for m in _scan(body, ids=set(_generic())).found})
    if raw:
        return "the generic layer matched but attribution dropped it (no backend near it, another library's, a notice)", \
            ", ".join(raw[:3])
    frames = FRAME.findall(body)
    excs = EXC.findall(body)
    if frames and excs:
        innermost = frames[-1][0]
        if any(e.split(".")[-1] in ("ImportError", "ModuleNotFoundError", "OSError") for e in excs):
            return "ImportError/ModuleNotFoundError/OSError: excluded from triage"
        if BACKEND_FILE.search(innermost):
            return "traceback innermost frame in the backend's code, exception form not read (triage shape)"
        if WRAPPERS.search(innermost) or any(WRAPPERS.search(f) for f, _ in frames[-3:]):
            return "traceback innermost frame in a wrapper (transformers/diffusers/comfy/vllm), not the backend's code"
        if any(BACKEND_FILE.search(f) for f, _ in frames):
            return "traceback passes through the backend's code, innermost frame elsewhere (torch, the user's code)"
    if M["B"].search(head_text):
        if not any(_kind(ln) for ln in head):
            return "backend named in the head, no failure word there"
        line_rx = re.compile(_prose_line(), re.I | re.M)
        same = [ln for ln in head if M["B"].search(ln) and _kind(ln)]
        if not same:
            return "head: the backend on one line, the failure word on another (a title and its sentence)"
        if not any(line_rx.match(ln) for ln in same):
            return "head: backend and failure word on one line that prose's LINE refuses (indent, a timestamp or level, a frame, OOM, advice, 'error below')"
        return "head: backend and failure word on one prose line, yet no prose entry kept it (read it)"
    if MODULE_NAME.search(head_text):
        return "head names the backend only by module/package/class name (not the B macro)"
    if M["B"].search(body) or MODULE_NAME.search(body):
        if excs and any(M["B"].search(ln) or MODULE_NAME.search(ln) for ln in lines if EXC.match(ln)):
            return "an exception line names the backend but is ImportError/OSError-like or shaped otherwise"
        line_rx = re.compile(_prose_line(), re.I | re.M)
        body_lines = lines[6:]
        if any(line_rx.match(ln) and M["B"].search(ln) and _kind(ln) for ln in body_lines):
            return "body: a prose line past the head names the backend and a failure (a sentence the head rules never read)"
        if any(M["B"].search(ln) and _kind(ln) for ln in body_lines):
            return "body: a log line (indented, prefixed, unlabelled message) names the backend and a failure word"
        return "backend named only in the body (past HEAD_LINES), never beside a failure word"
    return "no backend named anywhere (attribution has nothing to go on)"


def misses_md(doc: dict) -> str:
    from collections import defaultdict

    classes: dict[str, list[str]] = defaultdict(list)
    n = 0
    for r, d in doc["rounds"].items():
        gen = {x["file"]: x for x in d["generic"]["results"]}
        for x in d["normal"]["results"]:
            if not x["right_backend"] or gen[x["file"]]["right_backend"]:
                continue
            n += 1
            g = gen[x["file"]]
            _, body = load(ROOT / "fixtures" / "errors" / r / x["file"])
            c = classify(body, g["top"], g["top_backend"], x["backend"])
            c, detail = c if isinstance(c, tuple) else (c, "")
            classes[c].append(f"{r}/{x['file']} ({x['source']}): backend {x['backend']}, normal {x['top']}"
                              + (f"; generic {detail}" if detail else ""))
    out = [f"# Texts normal explain gets right (right backend) that the generic layer alone misses: {n}",
           "",
           f"Written by benchmarks/explain_generic.py --misses-md on {doc['date']} (generic ids: "
           f"{len(doc['generic_ids'])}). Classes are heuristic (benchmarks/explain_generic.py classify: the first",
           "that fits, in its order); read a text before writing a rule from its class.", ""]
    for c, items in sorted(classes.items(), key=lambda kv: -len(kv[1])):
        out += [f"## {c}: {len(items)}", ""] + [f"- {i}" for i in items] + [""]
    return "\n".join(out)


def dump(o, ind: str = "") -> str:
    """JSON with one line per text (a result row, a list of scalars), indented elsewhere: small and diffable."""
    if isinstance(o, dict) and "file" not in o and o:
        inner = ind + " "
        return "{\n" + ",\n".join(f"{inner}{json.dumps(k)}: {dump(v, inner)}" for k, v in o.items()) + "}"
    if isinstance(o, list) and o and any(isinstance(x, (dict, list)) for x in o):
        inner = ind + " "
        return "[\n" + ",\n".join(inner + dump(x, inner) for x in o) + "]"
    return json.dumps(o, ensure_ascii=False)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", metavar="PATH", help="write the JSON result here")
    ap.add_argument("--misses-md", metavar="PATH", help="write the texts generic-only misses, classed, here")
    ap.add_argument("--rounds", help="comma-separated rounds (default: every training round)")
    args = ap.parse_args(argv)
    rounds = args.rounds.split(",") if args.rounds else list(ROUNDS)
    bad = [r for r in rounds if r in REFUSED or r.startswith("heldout")]
    if bad:
        print(f"explain_generic: refused (held-out or measure-only): {', '.join(bad)}", file=sys.stderr)
        return 2
    # only training rounds: a folder not yet in compare_matches.ROUNDS may be a measure-only set being gathered
    unknown = [r for r in rounds if r not in ROUNDS]
    if unknown:
        print(f"explain_generic: not a training round (compare_matches.ROUNDS): {', '.join(unknown)}", file=sys.stderr)
        return 2
    missing = [r for r in rounds if not (ROOT / "fixtures" / "errors" / r).is_dir()]
    if missing:
        print(f"explain_generic: no corpus folder for {', '.join(missing)}", file=sys.stderr)
        return 2
    doc = measure(rounds)
    print(render(doc))
    if args.out:
        from attn_doctor.fsutil import write_atomic
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        write_atomic(args.out, dump(doc) + "\n")
        print(f"wrote {args.out}")
    if args.misses_md:
        Path(args.misses_md).write_text(misses_md(doc) + "\n", encoding="utf-8")
        print(f"wrote {args.misses_md}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
