"""What one line names, as the search reads it: _named (backend, and whether only by a name several backends
share or in a clause that says it works: a weak naming), backend_named, _file_named (an attention backend's file or hub
repository only) and names_on (every backend of the seven on a line). All read the line after sentences._scrub.
"""

from __future__ import annotations

from functools import lru_cache

from .tables import _first_rule, NOT_SEVEN, rules
from .sentences import _healthy_blanked, _scrub, HEALTHY


def backend_named(line: str) -> str | None:
    """The backend this one line names, if any: a library file before a name, then the first rule."""
    named = _named(line)
    return named[0] if named else None


@lru_cache(maxsize=1024)
def _named(line: str) -> tuple[str, bool] | None:
    """(backend, only by a name several backends share) for one line, or None. Cached: the same line is asked about once
    per match near it, and each asking runs every library rule (the rules are loaded once, rules())."""
    line = _scrub(line)
    hit = _first_rule(line)
    if hit is not None and not hit[1] and hit[0] not in NOT_SEVEN and HEALTHY.search(line) and _first_rule(_healthy_blanked(line)) is None:
        # every backend the line names is in a clause that says it works ("The same shapes run fine with FA2 and FA3;
        # only the compiled flex kernel fails"): weak, as a shared name is, so that a line that names the subject
        # decides (session 6, ex37); alone it still names it ("FA2 worked in 2.6 but fails in 2.7")
        return hit[0], True
    return hit


def _file_named(line: str) -> tuple[str, bool] | None:
    """(backend, False) when an attention backend's file or hub repository (not a name) is on the line, else None
    (torch's and other libraries' files are not: a code line under torch's frame may name the backend it calls)."""
    line = _scrub(line)
    for backend, rx in rules().files:
        if rx.search(line):
            return backend, False
    return None


def names_on(line: str) -> set[str]:
    """Every backend of the seven that a line names, by any library rule (after _scrub)."""
    line = _scrub(line)
    return {b for b, rx in rules().seven if rx.search(line)}
