"""Work that every pytest-xdist worker would otherwise redo, done once per test run and shared through a file.

`make test` runs the suite in 4+ worker processes (pytest -n); a helper that caches its answer in the process
(functools.lru_cache) is still computed once per worker. `once_per_run(name, key, compute)` computes it in the first
worker that asks, under a lock, writes the answer as JSON into the folder every worker of this run shares (the run's
pytest base temp folder, as pytest-xdist's documentation shows for session fixtures), and the other workers read it.

Honest by construction: the file's name holds a SHA-256 of `key` (the caller passes what the answer depends on: the
input texts and `source_key()`, the doctor's whole source tree), so an answer computed from other content is never
read; outside xdist (one process, `-n 0`) nothing is written and `compute` runs as before.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
_CONFIG = None  # pytest's config of this process (conftest.py sets it in pytest_configure)


def shared_dir() -> Path | None:
    """The folder all xdist workers of this run share (the parent of each worker's base temp), or None when this
    process is no xdist worker."""
    cfg = _CONFIG
    if cfg is None or not hasattr(cfg, "workerinput") or not hasattr(cfg, "_tmp_path_factory"):
        return None
    return cfg._tmp_path_factory.getbasetemp().parent


def source_key(pkg: Path = ROOT / "attn_doctor") -> str:
    """SHA-256 over every file of attn_doctor/ (path and bytes; no bytecode): what explain and the checks are made of."""
    h = hashlib.sha256()
    for p in sorted(pkg.rglob("*")):
        if p.is_file() and "__pycache__" not in p.parts:
            h.update(p.relative_to(pkg).as_posix().encode() + b"\0")
            h.update(p.read_bytes() + b"\0")
    return h.hexdigest()


def once_per_run(name: str, key: str, compute: Callable[[], object], where: Path | None = None):
    """compute()'s answer (JSON: lists come back as lists), computed once among this run's workers for this `key`.
    `where`: the shared folder (tests name one; by default shared_dir(), and None there means: just compute)."""
    where = shared_dir() if where is None else where
    if where is None:
        return compute()
    digest = hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()[:32]
    path = where / f"{name}-{digest}.json"
    with open(where / f"{name}.lock", "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the others wait here while the first computes
        try:
            if path.exists():
                return json.loads(path.read_text(encoding="utf-8"))
            answer = compute()
            tmp = path.with_name(f".{path.name}.{os.getpid()}")
            tmp.write_text(json.dumps(answer), encoding="utf-8")
            os.replace(tmp, path)  # whole or absent: a worker that dies half-way leaves no answer behind
            return json.loads(path.read_text(encoding="utf-8"))  # what the others read, so every worker sees the same
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
