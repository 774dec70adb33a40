"""What the matcher learns of each pattern before it reads a line (its needles, whether it may span lines, its literal
groups), kept on disk between runs: learning it parses every one of ~1,800 patterns (about 0.4 s of CPU on the 2-core dev
machine, half of a short explain's time), reading it back takes milliseconds.

One JSON file, `index.json`, in $ATTN_DOCTOR_CACHE_DIR, else $XDG_CACHE_HOME/attn-doctor, else ~/.cache/attn-doctor
(ATTN_DOCTOR_CACHE_DIR set empty: no file is read or written). It maps each pattern's text to what was learnt, under a key
that is the hash of the code that learns it (knowledge/match.py and knowledge/__init__.py) and the Python version: a
changed matcher or another Python reads nothing old. Written atomically; a cache that cannot be read or written is
learnt again, silently: it only ever costs time, never changes a reading (tests/test_index_cache.py)."""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
ENV = "ATTN_DOCTOR_CACHE_DIR"
NAME = "index.json"


def directory() -> Path | None:
    v = os.environ.get(ENV)
    if v is not None:
        return Path(v).expanduser() if v.strip() else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "attn-doctor"


@lru_cache(maxsize=1)
def code_key() -> str:
    h = hashlib.sha256(sys.version.encode())
    for name in ("match.py", "__init__.py"):
        try:
            h.update((HERE / name).read_bytes())
        except OSError:  # pragma: no cover - a zipped install: no key, no cache
            return ""
    return h.hexdigest()


def load() -> dict[str, list]:
    """pattern -> [needles, spans_lines, factors or None], or {} (no file, another key, unreadable)."""
    d, key = directory(), code_key()
    if d is None or not key:
        return {}
    try:
        with open(d / NAME, encoding="utf-8") as fh:
            doc = json.load(fh)
    except (OSError, ValueError):
        return {}
    if not isinstance(doc, dict) or doc.get("key") != key or not isinstance(doc.get("patterns"), dict):
        return {}
    return doc["patterns"]


def save(patterns: dict[str, list]) -> None:
    """Write what was learnt (atomically: a temporary file in the same folder, then a rename); any failure is ignored."""
    d, key = directory(), code_key()
    if d is None or not key:
        return
    tmp = None
    try:
        d.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".index-", dir=d)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({"key": key, "patterns": patterns}, fh, ensure_ascii=False, separators=(",", ":"))
        os.replace(tmp, d / NAME)
        tmp = None
    except OSError:
        pass
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
