#!/usr/bin/env python3
"""Would a change to the prose layer's vocabulary have read a blind round's prose misses? (issue 23, session 23, helper ex139)

explain_blind_carry.py asks whether any rule carried to a blind round before it was read; this asks it of one change, on the
code each round was measured blind with. The change is taken as a vocabulary delta between two trees of this checkout: what
it appends to knowledge/prose.toml's macros (B, FAIL, LINE, ...) and the name patterns it adds to attribution.toml's
libraries. That delta is laid onto each round's first-measurement commit (`git archive`, explain_blind_carry.tree) and the
round's texts are measured with and without it (explain_blind_carry.measure: today's fixture texts and labels). A prose miss
is a first-measurement text of class U-prose-only or B-backendless-first (explain_blind_carry.klass); it is read when it
reaches the right backend with the delta. Also counted: texts the delta loses (right backend -> not) and unrelated logs it
claims. Rounds 101m-122m by default (their texts were not read to write the delta); never held-out or measure-only sets.

    python benchmarks/explain_vocabulary_carry.py --base s23start      # the delta is this tree's knowledge minus the tag's
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from compare_matches import MEASURE_ONLY  # noqa: E402
from explain_blind_carry import COMMITS, klass, level, measure, tree  # noqa: E402

# round 122m is not in explain_blind_carry.COMMITS: its gathering commit and the first parent of its reader's merge (ex128);
# round 129m: session 22's start (a358b1f3), where its first measurement was taken (e8c8f9d2; helper ex143)
FIRST = {**{r: c[0] for r, c in COMMITS.items()}, "122m": "acd8c8af", "129m": "a358b1f3"}
PROSE_MISSES = ("U-prose-only", "B-backendless-first")
MACRO = re.compile(r"^([A-Z]+) = '''(.*?)'''$", re.M | re.S)


def _git_show(ref: str, path: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), "show", f"{ref}:{path}"], capture_output=True, text=True,
                          check=True).stdout


def delta(base: str) -> tuple[dict[str, str], dict[str, list[str]]]:
    """What this tree appends to prose.toml's macros (name -> suffix) and adds to attribution.toml's names (backend ->
    lines), against `base`. A macro changed otherwise than by an appended tail is left out (and said on stderr)."""
    old = dict(MACRO.findall(_git_show(base, "attn_doctor/knowledge/prose.toml")))
    new = dict(MACRO.findall((ROOT / "attn_doctor/knowledge/prose.toml").read_text(encoding="utf-8")))
    tails = {}
    for name, value in new.items():
        if name in old and value != old[name]:
            if value.startswith(old[name]):
                tails[name] = value[len(old[name]):]
            else:
                print(f"macro {name} changed other than by a tail: not carried", file=sys.stderr)
    before = set(_git_show(base, "attn_doctor/knowledge/attribution.toml").splitlines())
    names: dict[str, list[str]] = {}
    backend = None
    for line in (ROOT / "attn_doctor/knowledge/attribution.toml").read_text(encoding="utf-8").splitlines():
        if m := re.match(r'backend = "(\w+)"', line):
            backend = m.group(1)
        elif line not in before and line.startswith("    '") and backend:
            names.setdefault(backend, []).append(line)
    return tails, names


def patched(code: Path, tails: dict[str, str], names: dict[str, list[str]], out: Path) -> Path:
    """A copy of `code`'s attn_doctor with the delta laid on: each macro's tail appended where the macro exists, each
    library's added names put first in its `names = [` list."""
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(code, out)
    prose = out / "attn_doctor/knowledge/prose.toml"
    text = prose.read_text(encoding="utf-8")
    for name, tail in tails.items():
        text = re.sub(rf"^({name} = '''.*?)(''')$", lambda m: m.group(1) + tail + m.group(2), text, count=1,
                      flags=re.M | re.S)
    prose.write_text(text, encoding="utf-8")
    attribution = out / "attn_doctor/knowledge/attribution.toml"
    lines, backend, names = [], None, dict(names)
    for line in attribution.read_text(encoding="utf-8").splitlines():
        lines.append(line)
        if m := re.match(r'backend = "(\w+)"', line):
            backend = m.group(1)
        elif line == "names = [" and backend in names:
            lines.extend(names.pop(backend))
    attribution.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", required=True, help="the commit or tag the delta is taken against (this tree minus it)")
    ap.add_argument("--rounds", default="101m 105m 109m 113m 118m 122m")
    ap.add_argument("--cache", default="/tmp/explain-blind-carry")
    a = ap.parse_args(argv)
    tails, names = delta(a.base)
    print("macros with a tail:", ", ".join(sorted(tails)) or "none", "| names added:",
          ", ".join(f"{b} {len(v)}" for b, v in sorted(names.items())) or "none")
    total = {"misses": 0, "read": 0, "lost": 0, "unrelated_before": 0, "unrelated_after": 0}
    for r in a.rounds.split():
        rnd = f"round{r}"
        assert rnd not in MEASURE_ONLY and "heldout" not in rnd
        code = tree(FIRST[r], Path(a.cache))
        mine = patched(code, tails, names, Path(a.cache) / f"{code.name}+vocabulary")
        was, now = measure(code, [rnd])[rnd], measure(mine, [rnd])[rnd]
        after = {x["file"]: x for x in now["results"]}
        misses = read = lost = 0
        for x in was["results"]:
            y = after[x["file"]]
            body = (ROOT / "fixtures" / "errors" / rnd / x["file"]).read_text(encoding="utf-8").partition("\n---\n")[2]
            if level(x) in ("U", "B") and klass(level(x), x, body) in PROSE_MISSES:
                misses += 1
                if level(y) in ("C", "ok"):
                    read += 1
                    print(f"  {rnd} read: {x['file']} -> {y['top'] if 'top' in y else y['all'][:1]}")
            lost += level(x) in ("C", "ok") and level(y) in ("U", "B")
        ub = sum(x["matched"] for x in was["unrelated_results"])
        ua = sum(x["matched"] for x in now["unrelated_results"])
        print(f"{rnd} (first {FIRST[r]}): prose misses {misses}, read with the right backend {read}, right backend lost {lost}, "
              f"unrelated claimed {ub} -> {ua}")
        for k, v in zip(total, (misses, read, lost, ub, ua)):
            total[k] += v
    print("total:", total)
    return 0


if __name__ == "__main__":
    sys.exit(main())
