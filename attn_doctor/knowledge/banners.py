"""A program's banner or log line is no report's title (helper ex93): attribution.nearest reads an input's first lines as a
pasted report's title for an error that names no backend; a line there that a program printed (a log's timestamp or level, a
start-up line saying which attention it uses) names what the program selected, not what failed. The table is
knowledge/ex93.toml [banner]."""

from __future__ import annotations

import re
from functools import lru_cache

from . import toml_data

SOURCE = "ex93.toml"  # (knowledge/, beside this module)


@lru_cache(maxsize=1)
def _rules() -> tuple[tuple[re.Pattern, ...], re.Pattern]:
    d = toml_data(SOURCE)["banner"]
    return tuple(re.compile(p) for p in d["lines"]), re.compile(d["warns"])


def banner(line: str) -> bool:
    """Is `line` a program's log line or start-up line ([banner] in ex93.toml) that warns of nothing?"""
    lines, warns = _rules()
    return any(rx.search(line) for rx in lines) and not warns.search(line)
