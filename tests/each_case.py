"""One test that checks many cases, where a parametrised test made each case a pytest item (session 33, helper ci33r).

Each item costs pytest and xdist ~1-2 ms of CPU beyond its own work (its creation at collection, in each of CI's 4
workers, its setup, report and transfer to the controller): the ~26,000 items of the largest parametrised tests were
about a minute of CI's CPU doing no checking. `each` runs every case, keeps going past a failing one, and fails once,
naming every case that failed and why (an assertion's rewritten message included, since the check is a function of the
test module, which pytest rewrites)."""

from __future__ import annotations

import traceback
from typing import Callable, Iterable

import pytest

SHOWN = 40  # the failing cases spelled out in the message; the count says how many more


def each(cases: Iterable[tuple[str, tuple]], check: Callable[..., object],
         still_wrong: dict[str, str] | None = None) -> int:
    """Call check(*args) for every (name, args); fail naming each case that raised. Returns how many ran.

    still_wrong ({name: why}): cases known to fail, as pytest's strict xfail had them (session 34, helper ci34b): such a
    case must raise, and one that passes fails the test (it reads right now: its entry goes)."""
    failed, n = [], 0
    still_wrong = still_wrong or {}
    for name, args in cases:
        n += 1
        try:
            check(*args)
        # (pytest.fail's exception, which pytest.raises raises when nothing was raised, is no Exception: a case's too)
        except (Exception, pytest.fail.Exception) as e:  # noqa: BLE001 (one case's failure, not the others')
            if name in still_wrong:
                continue
            where = traceback.extract_tb(e.__traceback__)[-1]
            failed.append(f"{name}: {type(e).__name__}: {e} (line {where.lineno})")
        else:
            if name in still_wrong:
                failed.append(f"{name}: passes, but is listed as still wrong ({still_wrong[name]}): off the list")
    assert n, "no case to check"
    assert not failed, f"{len(failed)} of {n} cases failed:\n" + "\n".join(failed[:SHOWN]) + (
        f"\n... and {len(failed) - SHOWN} more" if len(failed) > SHOWN else "")
    return n
