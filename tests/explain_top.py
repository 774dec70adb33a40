"""What `explain` reports first for a text: the helpers the explain variant tests share (rounds 6a-8, b)."""

from __future__ import annotations

from attn_doctor.explain import match


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
