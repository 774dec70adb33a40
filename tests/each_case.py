"""One test that checks many cases, where a parametrised test made each case a pytest item (session 33, helper ci33r).

Each item costs pytest and xdist ~1-2 ms of CPU beyond its own work (its creation at collection, in each of CI's 4
workers, its setup, report and transfer to the controller): the ~26,000 items of the largest parametrised tests were
about a minute of CI's CPU doing no checking. `each` runs every case, keeps going past a failing one, and fails once,
naming every case that failed and why (an assertion's rewritten message included, since the check is a function of the
test module, which pytest rewrites)."""

from __future__ import annotations

import traceback
from typing import Callable, Iterable

SHOWN = 40  # the failing cases spelled out in the message; the count says how many more


def each(cases: Iterable[tuple[str, tuple]], check: Callable[..., object]) -> int:
    """Call check(*args) for every (name, args); fail naming each case that raised. Returns how many ran."""
    failed, n = [], 0
    for name, args in cases:
        n += 1
        try:
            check(*args)
        except Exception as e:  # noqa: BLE001 (an error in one case is that case's failure, not the others')
            where = traceback.extract_tb(e.__traceback__)[-1]
            failed.append(f"{name}: {type(e).__name__}: {e} (line {where.lineno})")
    assert n, "no case to check"
    assert not failed, f"{len(failed)} of {n} cases failed:\n" + "\n".join(failed[:SHOWN]) + (
        f"\n... and {len(failed) - SHOWN} more" if len(failed) > SHOWN else "")
    return n
