"""What would travel to the GPU machine: the tree `git ls-files` names, by folder, and its largest files.

The device tool sends every tracked file and every untracked file git does not ignore, at most 64 MiB with the paths a
call carries (the real FA4 stack travels as two carried halves of about 46 MiB: ../shared/gpu/stage.sh). This prints
that figure from `git ls-files` (apparent sizes, MiB = 2**20 bytes), by top folder and by the folders below fixtures/,
tests/ and benchmarks/, then the largest files.

Held-out and measure-only folders (fixtures/errors|configs/heldout, every `roundNNm` folder there and every name the
MEASURE_ONLY lists give) are summed as one line each, sizes only: no name below them is printed, and none of them is
listed among the largest files.

    python scripts/tree_size.py [--top 25] [--limit-mib 16] [--tracked-only]

Exit 1 when the total is over --limit-mib (default: none, exit 0).
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Iterable

ROOT = Path(__file__).resolve().parents[1]
MIB = 1 << 20
# the corpora whose sets may be held out or measure-only
GUARDED_PARENTS = ("fixtures/errors", "fixtures/configs")
# where the measure-only lists live (read as text: importing them would import a checkout)
MEASURE_ONLY_FILES = ("benchmarks/compare_matches.py", "benchmarks/configs_refusals.py",
                      "tests/test_staged_error_corpora.py")
BLIND = re.compile(r"^(heldout|round\d+m)$")
# what a GPU call leaves out of the work tree (and restores from git after): the corpora, tests and records no GPU run
# reads (scripts/gpu/final28.sh); what is left, plus the carried FA4 stack's halves, must fit the device's 64 MiB
LEFT_OUT_OF_GPU_CALLS = ("benchmarks", "docs", "fixtures", "tests")


def measure_only_names(root: Path = ROOT) -> set[str]:
    """Every quoted folder name on a MEASURE_ONLY line (or the block it opens) of the three lists."""
    names: set[str] = set()
    for rel in MEASURE_ONLY_FILES:
        p = root / rel
        if not p.is_file():
            continue
        text = p.read_text(encoding="utf-8")
        for m in re.finditer(r"^MEASURE_ONLY\b[^\n]*(?:\n(?:[ \t)][^\n]*)?)*", text, re.M):
            names.update(re.findall(r"[\"'](round\w+|heldout)[\"']", m.group(0)))
    return names


def guarded_folder(path: str, extra: set[str]) -> str | None:
    """The guarded folder `path` lies in (e.g. 'fixtures/errors/heldout'), or None."""
    for parent in GUARDED_PARENTS:
        if path.startswith(parent + "/"):
            head = path[len(parent) + 1:].split("/", 1)
            if len(head) == 2 and (BLIND.match(head[0]) or head[0] in extra):
                return f"{parent}/{head[0]}"
    return None


def travelling_files(root: Path = ROOT, tracked_only: bool = False) -> list[str]:
    args = [["git", "ls-files", "-z"]]
    if not tracked_only:
        args.append(["git", "ls-files", "-z", "--others", "--exclude-standard"])
    out: list[str] = []
    for a in args:
        raw = subprocess.run(a, cwd=root, check=True, capture_output=True).stdout
        out += [p for p in raw.decode("utf-8", "surrogateescape").split("\0") if p]
    return out


def sizes(root: Path = ROOT, tracked_only: bool = False) -> dict[str, int]:
    """path -> apparent size in bytes (links as links; a tracked file deleted in the work tree counts 0)."""
    res = {}
    for p in travelling_files(root, tracked_only):
        try:
            res[p] = (root / p).lstat().st_size
        except FileNotFoundError:
            res[p] = 0
    return res


def folder_of(path: str, depth_two: tuple[str, ...] = ("fixtures", "tests", "benchmarks")) -> str:
    parts = path.split("/")
    if len(parts) == 1:
        return "."
    if parts[0] in depth_two and len(parts) > 2:
        return "/".join(parts[:2])
    return parts[0]


def device_count(sizes_: Iterable[int]) -> int:
    """The tree's size as the device tool counts it, tar-like. Measured in session 28 (fixtures/gpu/h200-s28-smoke-dtype):
    56.8 MiB of files in 14178 files was refused as over 64 MiB (67.1 by this count), 50.1 MiB in 13657 files went through
    (60.0 by this count); 4 KiB disk blocks (96 / 88 MiB) would have refused both."""
    return sum(512 + (n + 511) // 512 * 512 for n in sizes_)


def gpu_call_sizes(files: dict[str, int]) -> dict[str, int]:
    """The files a GPU call carries once it has left LEFT_OUT_OF_GPU_CALLS out of the work tree."""
    return {p: n for p, n in files.items() if p.split("/", 1)[0] not in LEFT_OUT_OF_GPU_CALLS}


def report(root: Path = ROOT, top: int = 25, tracked_only: bool = False) -> tuple[int, str]:
    files = sizes(root, tracked_only)
    extra = measure_only_names(root)
    total = sum(files.values())
    by_top: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    by_folder: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    guarded: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    visible = []
    for p, n in files.items():
        g = guarded_folder(p, extra)
        t = p.split("/", 1)[0] if "/" in p else "."
        by_top[t][0] += n
        by_top[t][1] += 1
        if g:
            guarded[g][0] += n
            guarded[g][1] += 1
            continue
        f = folder_of(p)
        by_folder[f][0] += n
        by_folder[f][1] += 1
        visible.append((n, p))
    what = "tracked" if tracked_only else "tracked + untracked not ignored"
    counted = device_count(files.values())
    lines = [f"what travels ({what}): {total / MIB:.1f} MiB in {len(files)} files (device limit 64 MiB with carried "
             "paths)", f"as the device counts it (a 512-byte header per file, contents in 512-byte blocks): "
             f"{counted / MIB:.1f} MiB", f"room left for carried paths: {(64 * MIB - counted) / MIB:.1f} MiB (the FA4 "
             "stack's halves are ~46 MiB each: ../shared/gpu/stage.sh; a call may leave folders it does not need out of "
             "the work tree and restore them from git after)",
             f"a GPU call that leaves {', '.join(f + '/' for f in LEFT_OUT_OF_GPU_CALLS)} out (restored from git after): "
             f"{device_count(gpu_call_sizes(files).values()) / MIB:.1f} MiB as the device counts it", "",
             "by top folder:"]
    row = "  {:8.2f} MiB {:6d} files  {}".format
    lines += [row(n / MIB, c, t) for t, (n, c) in sorted(by_top.items(), key=lambda kv: -kv[1][0])]
    lines += ["", "by folder (fixtures/, tests/, benchmarks/ one level down; guarded sets apart):"]
    lines += [row(n / MIB, c, f) for f, (n, c) in sorted(by_folder.items(), key=lambda kv: -kv[1][0]) if n >= MIB // 10]
    lines += ["", "held-out, measure-only and blind-gathered (roundNNm) folders, one line each (sizes only):"]
    lines += [row(n / MIB, c, g) for g, (n, c) in sorted(guarded.items())]
    lines += ["", f"largest {top} files (guarded folders left out):"]
    lines += [f"  {n / 1024:9.1f} KiB  {p}" for n, p in sorted(visible, reverse=True)[:top]]
    return total, "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--limit-mib", type=float, default=None)
    ap.add_argument("--tracked-only", action="store_true")
    a = ap.parse_args(argv)
    total, text = report(ROOT, a.top, a.tracked_only)
    print(text)
    if a.limit_mib is not None and total > a.limit_mib * MIB:
        print(f"\nover the limit: {total / MIB:.1f} MiB > {a.limit_mib} MiB", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
