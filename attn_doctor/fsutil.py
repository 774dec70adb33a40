"""Writing files the way a doctor must: atomically, never half-way, never through a surprise symlink."""

from __future__ import annotations

import os
import tempfile

from .model import UsageError


def write_atomic(path: str, data: str | bytes, mode: int = 0o644, follow_symlink: bool = False) -> None:
    """Write `data` to `path` via a temporary file in the same directory and a rename.

    A symlink at `path` is replaced by a regular file (its target is never written) unless
    `follow_symlink`; a missing directory or an unwritable one is a UsageError (one line, exit 2)."""
    target = os.path.realpath(path) if follow_symlink else os.path.abspath(path)
    directory = os.path.dirname(target) or "."
    if os.path.isdir(target):
        raise UsageError(f"{path} is a directory")
    if not os.path.isdir(directory):
        raise UsageError(f"cannot write {path}: directory {directory} does not exist")
    raw = data.encode("utf-8", "backslashreplace") if isinstance(data, str) else data  # lone surrogates: escaped
    try:
        fd, tmp = tempfile.mkstemp(prefix=".attn-doctor-", dir=directory)
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror or e}") from None
    done = False
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
        done = True
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror or e}") from None
    finally:
        if not done:  # a full disk, a size limit, Ctrl-C: the old file stays, the temporary goes
            try:
                os.unlink(tmp)
            except OSError:
                pass
