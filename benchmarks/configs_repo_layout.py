"""A config set put back in its repositories' layout (issue 24): each file of a set (fixtures/configs/ROUND/TRAINER/
owner__repo__path) copied to OWNER/REPO/PATH from its expect file's `source` (`owner/repo:path`), so a launcher is
read as `check --config` reads it in the user's checkout and finds what the set holds of its repository, and nothing
else (a lower bound of a real checkout). Used by benchmarks/configs_heldout.py --layout repo and by the round tests
(tests/configs_corpus.py); standard library only, no expect file copied (a checkout has none).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def source_path(source: str) -> str | None:
    """OWNER/REPO/PATH of an expect file's source `owner/repo:path`, or None when it is no such source (an issue's
    `owner/repo#N`, an absolute path or one that climbs out with `..`)."""
    repo, _, inner = source.partition(":")
    if repo.count("/") == 1 and inner and not inner.startswith("/") and ".." not in inner.split("/"):
        return f"{repo}/{inner}"
    return None


def thread_path(source: str, name: str) -> str | None:
    """_threads/OWNER__REPO__N/NAME for a file `name` of a thread `owner/repo#N` (its `owner__repo__N__` prefix taken
    off), or None when the source is no thread."""
    repo, hash_, number = source.partition("#")
    if not (hash_ and repo.count("/") == 1 and number.isdigit()):
        return None
    unit = f"{repo.replace('/', '__')}__{number}"
    return f"_threads/{unit}/{name[len(unit) + 2:] if name.startswith(unit + '__') else name}"


def repository_layout(files: list[Path], root: Path, into: Path) -> dict[Path, Path]:
    """Every file of `files` (a set under `root`) copied to into/OWNER/REPO/PATH, a thread's to
    into/_threads/OWNER__REPO__N/NAME: {file: where it now is}. The first file at a path takes it; the rest, and files
    whose source is neither, go under into/_flat/ as the set keeps them (their path under `root`)."""
    where = {}
    for p in files:
        label = tomllib.loads(p.with_name(p.name + ".expect.toml").read_text(encoding="utf-8"))
        source = str(label.get("source") or "")
        at = source_path(source) or thread_path(source, p.name)
        dest = into / at if at is not None else None
        if dest is None or dest.exists():
            dest = into / "_flat" / p.relative_to(root)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(p, dest)
        where[p] = dest
    return where
