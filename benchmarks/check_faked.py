#!/usr/bin/env python3
"""Whole `check`s on faked facts and short `explain`s, in-process, two checkouts side by side (A B A B ..., a fresh
interpreter each time): per-call milliseconds, median over --rounds, and B/A. What the slow property tests do
(tests/test_failure_kept.py, tests/test_findings.py's "any import error text renders"): a backend's import probe failed
with an error no entry names, and each run adds one knowledge example (a warning or a note) to what it printed; a
short explain reads each example text once, as a fresh report (explain.examine).

    python benchmarks/check_faked.py --a ../attn-doctor-start --b . --rounds 3 -n 150

Each child warms up first (one check, one explain: the index, the compiled patterns), then times n checks and n
explains; the numbers include no start-up. Under load (other processes on the cores) compare A and B from the same
run, by their medians.

The three property tests of tests/test_findings.py that run a whole `check` per knowledge example (helper ci39a, session
39) are timed too, each over n examples it has not read before in that child (as the tests read each text once):
`import_ms` (a backend's import probe raised with the example as its traceback, the backend in turn:
test_any_import_error_text_renders), `torch_ms` (`import torch` raised so: test_any_torch_import_error_text_renders) and
`cuda_ms` (torch could not start CUDA and warned with the example: test_any_cuda_init_warning_renders). Every figure is
CPU time (time.process_time: on a shared machine, wall time measures the neighbours), per call.

    python benchmarks/check_faked.py --a ../before --b . --reports /tmp/reports

--reports DIR: no timing; each checkout's child runs those three tests' every case (as their tests build them, each
test's cases in its own order) and keeps a SHA-256 of each report as `check --format json` and `--format markdown`
print it (DIR/A.json, DIR/B.json); the two are compared case by case: a change that only makes `check` cheaper must
leave every one the same.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def child(n: int) -> dict:
    """Run in the checkout on sys.path: n checks, n explains; per-call ms."""
    import fakefacts as ff
    from attn_doctor import knowledge
    from attn_doctor.explain import examine

    base = ff.gpu_box()  # FAKED: sage installed, its import raised an error no entry names (tests/test_failure_kept.py)
    ff.install(base, "sage", "sageattention", "1.0.6", probe=ff.failed_import(
        "RuntimeError", "sageattention: kernel registry is empty",
        'Traceback (most recent call last):\n  File "<attn-doctor import probe>", line 1, in <module>\n'))
    noise = [ex for e in knowledge.entries().values() if e.severity in ("warning", "info") for ex in e.examples]
    texts = [ex for e in knowledge.entries().values() for ex in e.examples]
    ff.check(copy.deepcopy(base))
    examine(texts[0])

    def with_noise(text: str) -> dict:
        f = copy.deepcopy(base)
        run = f["imports"]["sage"]["probe"]
        run["warnings"] = list(run.get("warnings") or []) + [text]
        return f

    t = time.process_time()
    for i in range(n):
        ff.check(with_noise(noise[i % len(noise)]))
    check_ms = (time.process_time() - t) / n * 1000
    step = max(1, len(texts) // n)
    t = time.process_time()
    for text in texts[::step][:n]:
        examine(text)
    explain_ms = (time.process_time() - t) / min(n, len(texts[::step])) * 1000
    out = {"check_ms": check_ms, "explain_ms": explain_ms}
    # the property tests' cases, each on examples this child has not read yet (three disjoint slices, past those above)
    read = set(texts[::step][:n])
    for k, (key, (build, cases)) in enumerate(property_cases().items()):
        mine = [c for c in cases[k::3] if c[-1] not in read][:n]
        t = time.process_time()
        for args in mine:
            ff.check(build(*args))
        out[f"{key}_ms"] = (time.process_time() - t) / len(mine) * 1000
    return out


IMPORTING = ("cute", "fa2", "fa3", "sage", "xformers")
DISTS = {"cute": "flash-attn-4", "fa2": "flash-attn", "fa3": "flash_attn_3", "sage": "sageattention",
         "xformers": "xformers"}


def property_cases() -> dict:
    """name -> (build, its cases), as tests/test_findings.py builds them (_import_cases, _one_of_two): each case's
    args are (case id, ..., the example's text)."""
    import fakefacts as ff
    from attn_doctor import knowledge

    examples = [(e.id, ex) for e in knowledge.entries().values() for ex in e.examples]

    def failed_import(case, backend, text):
        f = ff.gpu_box()
        ff.install(f, backend, DISTS[backend], "1.0", probe=ff.failed_import("ImportError", text.splitlines()[-1],
                                                                              text + "\n"))
        return f

    def torch_import(case, text):
        f = ff.gpu_box()
        f["torch"]["probe"] = {"import_ok": False, "warnings": [],
                               "import_error": ff.error("ImportError", text.splitlines()[-1], text + "\n")}
        return f

    def cuda_init(case, text):
        f = ff.gpu_box()
        ff.set_gpus(f, [("NVIDIA H200", (9, 0))], torch_sees=False)
        f["torch"]["probe"]["warnings"] = [text]
        return f

    imports, seen = [], set()
    for n, (eid, text) in enumerate(examples):
        for backend in (IMPORTING if eid not in seen else (IMPORTING[n % len(IMPORTING)],)):
            imports.append((f"{backend}-{eid}#{n}", backend, text))
        seen.add(eid)
    halves: list[list] = [[], []]
    seen = set()
    for n, (eid, text) in enumerate(examples):
        for which in (0, 1):
            if eid not in seen or n % 2 == which:
                halves[which].append((f"{eid}#{n}", text))
        seen.add(eid)
    return {"import": (failed_import, imports), "torch": (torch_import, halves[0]), "cuda": (cuda_init, halves[1])}


def reports(every: int = 1) -> dict:
    """case -> SHA-256 of its report as JSON and as Markdown, for every `every`-th case of each property test."""
    import fakefacts as ff
    from attn_doctor.render import json as as_json, markdown

    out = {}
    for key, (build, cases) in property_cases().items():
        for args in cases[::every]:
            r = ff.check(build(*args))
            out[f"{key}:{args[0]}"] = hashlib.sha256((as_json.dumps(r) + "\0" + markdown.render(r)).encode()).hexdigest()
    return out


def once(tree: str, n: int, extra: tuple[str, ...] = ()) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([tree, os.path.join(tree, "tests")]))
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", "-n", str(n), *extra], env=env,
                         cwd=tree, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"check_faked: the child in {tree} failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", help="checkout A (e.g. a worktree of the commit before)")
    ap.add_argument("--b", default=str(HERE.parent), help="checkout B (default: this one)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("-n", type=int, default=100, help="checks and explains timed in each child")
    ap.add_argument("--reports", metavar="DIR", help="no timing: each checkout's report digests, compared (DIR/A.json, B.json)")
    ap.add_argument("--every", type=int, default=1, help="with --reports: every k-th case of each test (default all)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--digests", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.n < 1 or a.rounds < 1 or a.every < 1:
        print("check_faked: -n, --rounds and --every must be 1 or more", file=sys.stderr)
        return 2
    if a.child:
        print(json.dumps(reports(a.every) if a.digests else child(a.n)))
        return 0
    trees = {"A": a.a, "B": a.b} if a.a else {"B": a.b}
    for name, tree in trees.items():
        if not (Path(tree) / "attn_doctor").is_dir() or not (Path(tree) / "tests" / "fakefacts.py").is_file():
            print(f"check_faked: {tree}: not a checkout of attn-doctor", file=sys.stderr)
            return 2
    if a.reports:
        return compare_reports(trees, Path(a.reports), a.every)
    got: dict[str, list[dict]] = {k: [] for k in trees}
    for r in range(a.rounds):
        for name, tree in trees.items():
            got[name].append(once(str(Path(tree).resolve()), a.n))
            print(f"round {r + 1} {name}: " + ", ".join(f"{k} {v:.2f}" for k, v in got[name][-1].items()), flush=True)
    med = {name: {k: statistics.median(x[k] for x in rows) for k in rows[0]} for name, rows in got.items()}
    for name in trees:
        print(f"{name} ({trees[name]}): median of {a.rounds}, CPU ms per call (n={a.n}): "
              + ", ".join(f"{k[:-3]} {v:.2f}" for k, v in med[name].items()))
    if "A" in med:
        print("B/A: " + ", ".join(f"{k[:-3]} {med['B'][k] / med['A'][k]:.2f}" for k in med["B"]))
    return 0


def compare_reports(trees: dict, out: Path, every: int) -> int:
    out.mkdir(parents=True, exist_ok=True)
    got = {}
    for name, tree in trees.items():
        got[name] = once(str(Path(tree).resolve()), 1, ("--digests", "--every", str(every)))
        (out / f"{name}.json").write_text(json.dumps(got[name], indent=0, sort_keys=True) + "\n")
        print(f"{name} ({tree}): {len(got[name])} reports", flush=True)
    if "A" not in got:
        return 0
    a, b = got["A"], got["B"]
    differ = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
    for k in differ[:20]:
        print(f"  differs: {k}")
    print(f"the same reports: {len(a) - len(differ)} of {len(a)} cases" + (f" ({len(differ)} differ)" if differ else ""))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
