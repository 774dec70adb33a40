"""Is a thread in explain's held-out set (issue 23)? The split is fixed by the thread's name alone, so
it was decided before any text was gathered and whoever writes rules can skip held-out threads:

    python scripts/heldout_split.py Dao-AILab/flash-attention#1122 https://github.com/pytorch/pytorch/issues/5
    python scripts/heldout_split.py --quiet SOURCE     # exit 0: held-out, 1: not (one source)

A GitHub thread `owner/repo#N` (owner/repo exactly as GitHub spells it, case kept) is held-out iff
int(sha1("owner/repo#N"), 16) % 3 == 0. A GitHub issue or pull URL is keyed as its `owner/repo#N`;
any other page (a forum thread) is keyed by its URL as written. fixtures/errors/heldout/README.md
says the same.
"""

from __future__ import annotations

import hashlib
import re
import sys

_GITHUB = re.compile(r"^https?://github\.com/([^/\s]+)/([^/\s]+)/(?:issues|pull|discussions)/(\d+)(?:[/?#].*)?$")
_SOURCE = re.compile(r"^([^/\s#]+)/([^/\s#]+)#(\d+)$")


def key(source: str) -> str:
    """The split key: `owner/repo#N` for a GitHub thread (a `source:` line or its URL), else the URL."""
    s = source.strip()
    m = _GITHUB.match(s)
    if m:
        return f"{m.group(1)}/{m.group(2)}#{m.group(3)}"
    return s


def is_heldout(source: str) -> bool:
    return int(hashlib.sha1(key(source).encode()).hexdigest(), 16) % 3 == 0


def main(argv: list[str]) -> int:
    quiet = "--quiet" in argv
    sources = [a for a in argv if a != "--quiet"]
    if not sources or (quiet and len(sources) != 1):
        print("usage: heldout_split.py [--quiet] SOURCE [SOURCE ...]  (owner/repo#N or a URL; --quiet takes one)",
              file=sys.stderr)
        return 2
    if quiet:
        return 0 if is_heldout(sources[0]) else 1
    for s in sources:
        print(f"{'held-out' if is_heldout(s) else 'not held-out'}\t{key(s)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
