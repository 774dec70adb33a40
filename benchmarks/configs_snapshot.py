#!/usr/bin/env python3
"""Every trainer-config fixture's whole reading by `attn_doctor.configs.load` (trainer, format, script, dtype, attention,
compile, required, fixes, ...; or the refusal's message), as one JSON {path under fixtures/configs: reading}. Two
snapshots, before and after a reader change, show every reading it changed: each must be one that was meant.
Held-out and measure-only sets (benchmarks/configs_refusals.py's MEASURE_ONLY) are never read.

    python benchmarks/configs_snapshot.py /tmp/before.json --tree /path/to/a/worktree/of/main
    python benchmarks/configs_snapshot.py /tmp/after.json
    python benchmarks/configs_snapshot.py --diff /tmp/before.json /tmp/after.json   # exit 1 when any reading differs
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SKIP_NAMES = (".expect.toml", ".md", ".tsv", ".expect.json")


def measure_only() -> set[str]:
    """benchmarks/configs_refusals.py's MEASURE_ONLY, read from its text (importing it would import this checkout's
    attn_doctor before --tree's)."""
    import ast

    tree = ast.parse((HERE / "configs_refusals.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "MEASURE_ONLY" for t in node.targets):
            return set(ast.literal_eval(node.value))
    raise SystemExit("configs_snapshot: no MEASURE_ONLY in benchmarks/configs_refusals.py")


def training_files(tree: Path, skip: set[str]) -> list[Path]:
    """The trainer-config files of `tree`'s fixtures/configs/ that are read (not their expect files or notes), outside
    the folders in `skip` (measure_only())."""
    base = tree / "fixtures" / "configs"
    return [p for p in sorted(base.rglob("*")) if p.is_file() and p.relative_to(base).parts[0] not in skip
            and not p.name.endswith(SKIP_NAMES)]


def snapshot(tree: Path, skip: set[str]) -> dict[str, dict]:
    sys.path.insert(0, str(tree))
    from attn_doctor import configs
    from attn_doctor.model import UsageError

    if not configs.__file__.startswith(str(tree) + os.sep):
        raise SystemExit(f"configs_snapshot: attn_doctor imports from {configs.__file__}, not {tree}")
    base = tree / "fixtures" / "configs"
    out: dict[str, dict] = {}
    for p in training_files(tree, skip):
        rel = p.relative_to(base)
        try:
            cfg = {k: v for k, v in configs.load(str(p)).items() if k != "path"}
            reading = json.loads(json.dumps(cfg, sort_keys=True, default=str).replace(str(tree), "<tree>"))
        except UsageError as e:
            reading = {"refused": str(e).replace(str(tree), "<tree>")}
        except Exception as e:  # noqa: BLE001  (a crash is a reading too: the snapshot shows it)
            reading = {"crash": f"{type(e).__name__}: {e}"}
        out[rel.as_posix()] = reading
    return out


def diff(a: dict, b: dict) -> int:
    bad = 0
    for k in sorted(set(a) | set(b)):
        if a.get(k) != b.get(k):
            bad += 1
            print(f"{k}\n  before {a.get(k)}\n  after  {b.get(k)}")
    print(f"{len(a)} files before, {len(b)} after; {bad} readings differ")
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", nargs="?", help="write the snapshot here (JSON)")
    ap.add_argument("--tree", default=str(HERE.parent), help="the checkout whose readers are run")
    ap.add_argument("--diff", nargs=2, metavar=("BEFORE", "AFTER"), help="compare two snapshots")
    a = ap.parse_args(argv)
    if a.diff:
        sys.path.insert(0, str(HERE))
        from results_io import load_json  # a snapshot kept under benchmarks/results/ may be packed

        try:
            docs = [load_json(x) for x in a.diff]
        except (OSError, ValueError) as e:
            print(f"configs_snapshot: {e}", file=sys.stderr)
            return 2
        return diff(*docs)
    if not a.out:
        ap.error("give the output path, or --diff BEFORE AFTER")
    snap = snapshot(Path(a.tree).resolve(), measure_only())
    Path(a.out).write_text(json.dumps(snap, indent=0, sort_keys=True), encoding="utf-8")
    print(f"{len(snap)} files -> {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
