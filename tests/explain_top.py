"""What `explain` reports first for a text: the helpers the explain variant tests share (rounds 6a-8, b)."""

from __future__ import annotations

import re
import sys
from functools import lru_cache
from pathlib import Path

import run_shared
from attn_doctor.explain import match

ERRORS = Path(__file__).resolve().parents[1] / "fixtures" / "errors"
sys.path.insert(0, str(ERRORS.parents[1] / "benchmarks"))
import compare_matches  # noqa: E402  (standard library only: its MEASURE_ONLY, the blind explain rounds)


def first(text: str) -> tuple[str | None, str | None]:
    """(entry id, backend) of the first problem explain reports; (None, None) when it reports none."""
    found = match(text)
    return (found[0].entry.id, found[0].backend) if found else (None, None)


def first_cause(text: str) -> tuple[str | None, str | None]:
    """The first problem that can be a failure's cause, else (a warning-only text) the first one."""
    found = match(text)
    causes = [m for m in found if m.entry.can_cause] or found
    return (causes[0].entry.id, causes[0].backend) if causes else (None, None)


def ids(text: str) -> list[str]:
    """Every problem's entry id, in explain's order."""
    return [m.entry.id for m in match(text)]


def tb(*frames: tuple[str, int, str, str], error: str = "") -> str:
    """A Python traceback of (file, line, function, code) frames, cut where `error` is empty."""
    out = ["Traceback (most recent call last):"]
    for path, line, func, code in frames:
        out += [f'  File "{path}", line {line}, in {func}', f"    {code}"]
    return "\n".join(out + ([error] if error else []))



def training_unrelated_logs() -> list[tuple[Path, str]]:
    """(path, text below the header) of every round's unrelated log, held-out and measure-only rounds never read."""
    skip = {"heldout", *compare_matches.MEASURE_ONLY}
    out = []
    for folder in sorted(p for p in ERRORS.glob("*/unrelated") if p.parent.name not in skip):
        for p in sorted(folder.glob("*.txt")):
            raw = p.read_text(encoding="utf-8")
            out.append((p, raw.split("\n---\n", 1)[1] if "\n---\n" in raw else raw))
    return out


def patterns_holding(entry_id: str, pieces: str | tuple[str, ...]) -> list[str]:
    """The entry's patterns that hold one of `pieces` (the ones a helper wrote or widened)."""
    from attn_doctor.knowledge import entries

    pieces = (pieces,) if isinstance(pieces, str) else pieces
    return [p for p in (getattr(x, "pattern", x) for x in entries()[entry_id].patterns) if any(bit in p for bit in pieces)]


def assert_patterns_match_no_unrelated_log(pieces: dict) -> None:
    """Each pattern of entry E that holds one of pieces[E] (patterns_holding) matches no unrelated log of any training
    round (at least 100 of them read), as explain compiles it (IGNORECASE, MULTILINE); each E has such a pattern."""
    logs = training_unrelated_logs()
    assert len(logs) >= 100
    for entry_id, bits in sorted(pieces.items()):
        pats = patterns_holding(entry_id, bits)
        assert pats, entry_id
        for p in pats:
            rx = re.compile(p, re.IGNORECASE | re.MULTILINE)
            hit = [str(path.name) for path, body in logs if rx.search(body)]
            assert not hit, (entry_id, p[:80], hit)


def assert_claim_no_unrelated_log(new: tuple[str, ...] | set[str]) -> None:
    """None of the entries `new` claims an unrelated log of any training round (at least 100 of them read)."""
    logs = _unrelated_ids()
    for p, found in logs:
        claimed = [i for i in found if i in new]
        assert not claimed, (str(p.relative_to(ERRORS.parents[1])), claimed)
    assert len(logs) >= 100


@lru_cache(maxsize=1)
def _unrelated_ids() -> tuple[tuple[Path, tuple[str, ...]], ...]:
    """What explain finds in each training round's unrelated log, found once per test run: thirteen tests ask the same
    of ~1,070 logs (each asking again was 7 minutes of CI's CPU, session 32; once per xdist worker, 15-28 s each, was
    paid by every worker until session 34: tests/run_shared.py shares it, keyed on the logs and the doctor's source)."""
    logs = training_unrelated_logs()
    key = "\0".join([run_shared.source_key(), *(f"{p.relative_to(ERRORS).as_posix()}\0{body}" for p, body in logs)])
    found = run_shared.once_per_run("unrelated-ids", key, lambda: [ids(body) for _, body in logs])
    assert len(found) == len(logs)
    return tuple((p, tuple(f)) for (p, _), f in zip(logs, found))


def unrelated_ids_of(path: Path) -> list[str] | None:
    """What explain finds in one training round's unrelated log (every problem's entry id, in explain's order), read from
    the once-per-run answer above; None for a file that is no training round's unrelated log (the caller matches it)."""
    return _unrelated_by_name().get(Path(path).resolve().relative_to(ERRORS.resolve()).as_posix())


@lru_cache(maxsize=1)
def _unrelated_by_name() -> dict[str, list[str]]:
    return {p.resolve().relative_to(ERRORS.resolve()).as_posix(): list(found) for p, found in _unrelated_ids()}
