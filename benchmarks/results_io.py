#!/usr/bin/env python3
"""benchmarks/results/'s JSON records, plain or packed (standard library only).

A benchmark's `--out` writes a plain JSON file under benchmarks/results/ as before. Records of past days are packed,
by `pack`, into one xz tar per day (records-YYYY-MM-DD.tar.xz: the day the record was first committed, members named
as the files were), and benchmarks/results/RECORDS.tsv lists each packed record (name, archive, bytes, sha256). The
names stay the references: `benchmarks/results/X.json` in a README, a docstring or a knowledge file is read through
`load_json`/`read_bytes`, plain or packed, and from the shell:

    python benchmarks/results_io.py cat results/X.json      # one record's text (a path or a bare name)
    python benchmarks/results_io.py list [PATTERN]           # every record, plain or packed, and where it is
    python benchmarks/results_io.py pack [--before DATE]     # pack plain JSON records first committed before DATE
                                                             # (default: today, UTC), then commit what it changed

Why: every call to the GPU machine carries the tracked tree, at most 64 MiB (scripts/tree_size.py): 33 MiB of plain
JSON records kept it from travelling (helper sz28, session 28). git history keeps every version as it was.
tests/test_results_records.py keeps the plain part small and checks every packed record against RECORDS.tsv.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import fnmatch
import gzip
import hashlib
import io
import json
import lzma
import os
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
INDEX = "RECORDS.tsv"
HEADER = "name\tarchive\tbytes\tsha256"


def index(results: Path = RESULTS) -> dict[str, tuple[str, int, str]]:
    """name -> (archive, bytes, sha256) of every packed record, from RECORDS.tsv."""
    p = results / INDEX
    if not p.is_file():
        return {}
    out = {}
    for line in p.read_text(encoding="utf-8").splitlines()[1:]:
        if line.strip():
            name, archive, size, sha = line.split("\t")
            out[name] = (archive, int(size), sha)
    return out


def _packed(name: str, results: Path) -> bytes | None:
    row = index(results).get(name)
    if row is None:
        return None
    with tarfile.open(results / row[0], "r:xz") as tf:
        fh = tf.extractfile(name)
        return fh.read() if fh else None


def read_bytes(path: str | Path, results: Path = RESULTS) -> bytes:
    """A record's bytes: the file itself where it exists (a .gz one decompressed), else the packed record of that name
    when the path is under benchmarks/results/ (or a bare name, or results/NAME as the READMEs write it)."""
    p = Path(path)
    if p.is_file():
        data = p.read_bytes()
        return gzip.decompress(data) if p.suffix == ".gz" else data
    parent = p.parent.as_posix()
    here = parent in ("", ".", "results", "benchmarks/results") or p.parent.resolve() == results.resolve()
    data = _packed(p.name, results) if here else None
    if data is None:
        raise FileNotFoundError(f"{path}: no such file, and no packed record of that name ({results / INDEX})")
    return data


def load_json(path: str | Path, results: Path = RESULTS):
    return json.loads(read_bytes(path, results).decode("utf-8"))


def records(results: Path = RESULTS) -> dict[str, str]:
    """Every record's name -> where it is ('plain' or its archive)."""
    out = {name: row[0] for name, row in index(results).items()}
    out.update({p.name: "plain" for p in results.glob("*.json")})
    return out


def _first_committed(paths: list[Path], root: Path) -> dict[str, str]:
    """file name -> the day (UTC, YYYY-MM-DD) it landed on this branch (its first-parent line: a merge counts when
    it brought the file); absent if never committed."""
    rel = [p.relative_to(root).as_posix() for p in paths]
    log = subprocess.run(["git", "log", "--first-parent", "-m", "--no-renames", "--diff-filter=A", "--name-only",
                          "--format=@%cd", "--date=format-local:%Y-%m-%d", "--", *rel], cwd=root, capture_output=True,
                         text=True, env={**os.environ, "TZ": "UTC"}, check=True).stdout
    out: dict[str, str] = {}
    day = ""
    for line in log.splitlines():
        if line.startswith("@"):
            day = line[1:]
        elif line.strip():
            out[Path(line).name] = day  # newest first: the last seen is the oldest
    return out


def _write_archive(path: Path, members: dict[str, bytes]) -> None:
    """A reproducible xz tar: sorted members, no directories, mtime 0, owner root."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tf:
        for name in sorted(members):
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(members[name]), 0, 0o644
            tf.addfile(info, io.BytesIO(members[name]))
    path.write_bytes(lzma.compress(buf.getvalue(), preset=9 | lzma.PRESET_EXTREME))


def _read_archive(path: Path) -> dict[str, bytes]:
    with tarfile.open(path, "r:xz") as tf:
        return {m.name: tf.extractfile(m).read() for m in tf.getmembers() if m.isfile()}


def pack(before: str, results: Path = RESULTS, root: Path = ROOT) -> list[str]:
    """Move every plain JSON record first committed before `before` (YYYY-MM-DD) into its day's archive; each archive
    is read back and compared byte for byte before a plain file is removed. Returns the names packed."""
    plain = sorted(results.glob("*.json"))
    days = _first_committed(plain, root) if plain else {}
    todo: dict[str, list[Path]] = {}
    for p in plain:
        day = days.get(p.name)
        if day and day < before:
            todo.setdefault(day, []).append(p)
    idx = index(results)
    for day, paths in sorted(todo.items()):
        arch = results / f"records-{day}.tar.xz"
        members = _read_archive(arch) if arch.is_file() else {}
        clash = [p.name for p in paths if p.name in idx and idx[p.name][0] != arch.name]
        if clash:
            raise SystemExit(f"pack: already packed in another archive: {clash[:5]}")
        members.update({p.name: p.read_bytes() for p in paths})
        _write_archive(arch, members)
        if _read_archive(arch) != members:
            raise SystemExit(f"pack: {arch.name} does not read back as written; nothing removed")
        for name, data in members.items():
            idx[name] = (arch.name, len(data), hashlib.sha256(data).hexdigest())
    rows = [HEADER] + [f"{n}\t{a}\t{s}\t{h}" for n, (a, s, h) in sorted(idx.items())]
    if todo:
        (results / INDEX).write_text("\n".join(rows) + "\n", encoding="utf-8")
    done = []
    for paths in todo.values():
        for p in paths:
            p.unlink()
            done.append(p.name)
    return sorted(done)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="benchmarks/results/'s records, plain or packed")
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("cat").add_argument("record")
    sub.add_parser("list").add_argument("pattern", nargs="?", default="*")
    pk = sub.add_parser("pack")
    pk.add_argument("--before", default=_dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d"),
                    help="pack records first committed before this day (YYYY-MM-DD; default today, UTC)")
    a = ap.parse_args(argv)
    if a.cmd == "cat":
        sys.stdout.buffer.write(read_bytes(a.record))
    elif a.cmd == "list":
        for name, where in sorted(records().items()):
            if fnmatch.fnmatch(name, a.pattern):
                print(f"{name}\t{where}")
    else:
        done = pack(a.before)
        print(f"{len(done)} records packed; plain JSON left: {len(list(RESULTS.glob('*.json')))} "
              f"(commit benchmarks/results/: the archives, {INDEX} and the removed files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
