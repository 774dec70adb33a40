"""Settings in the environment that make a job slow, or stop a backend from working as it should
(issue 22): compilation off, interpreted or debug kernels, synchronous launches, the allocator or
the compile caches off, slow algorithms forced, SDPA's fastest kernel pushed down, compile workers
limited. Which variables, how each is read and what it breaks is data: the [[setting]] table of
knowledge/settings.toml. Checked on any machine: the job may run on another one.
"""

from __future__ import annotations

from functools import lru_cache

from ..facts import view
from ..knowledge import HERE, finding, tomllib
from . import Context, check

TRITON_TRUE = ("1", "true", "on")


@lru_cache(maxsize=1)
def table() -> tuple[dict, ...]:
    """The [[setting]] rows of knowledge/settings.toml."""
    with open(HERE / "settings.toml", "rb") as fh:
        rows = tomllib.load(fh).get("setting", [])
    for r in rows:
        r.setdefault("breaks", [])
        r.setdefault("fails", [])
    return tuple(rows)


def _small_workspace(value: str) -> bool:
    """cuBLAS's `:SIZE:COUNT[:SIZE:COUNT...]` (SIZE in KiB) with every size under 4096 (`:16:8`)."""
    parts = value.strip().split(":")
    if len(parts) < 3 or parts[0] != "" or (len(parts) - 1) % 2:
        return False
    sizes = parts[1::2]
    return all(s.isdigit() for s in sizes) and all(int(s) < 4096 for s in sizes)


def is_on(read: str, value: str | None) -> bool:
    """Does this value switch the setting on, as its reader parses it (see settings.toml's header)?"""
    if value is None:
        return False
    if read == "any":
        return True
    if read == "nonempty":
        return value != "" and value != "0"  # "0": only releases before the == "1" test read it as on
    if read == "1":
        return value.strip() == "1"
    if read == "0":
        return value.strip() == "0"
    if read == "triton":
        return value.strip().lower() in TRITON_TRUE
    if read == "eager":
        return value.strip().upper() == "EAGER"
    if read == "small-workspace":
        return _small_workspace(value)
    if read == "debug-logs":
        return any(part.strip().startswith("+") for part in value.split(","))
    raise ValueError(f"settings.toml: unknown read {read!r}")


def active(env: dict) -> list[dict]:
    """The settings switched on in `env`, each row with its `value`."""
    return [dict(r, value=env[r["var"]]) for r in table() if is_on(r["read"], env.get(r["var"]))]


def failing_cause(facts: dict, backend: str) -> dict | None:
    """The setting that explains a smoke failure of `backend` (its row, with `value`), or None."""
    return next((s for s in active(view.env(facts)) if backend in s["fails"]), None)


def compile_off(facts: dict) -> dict | None:
    return next((s for s in active(view.env(facts)) if s["class"] == "compile-off"), None)


@check("settings")
def environment_settings(facts: dict, ctx: Context):
    for s in active(view.env(facts)):
        needed = [b for b in s["breaks"] if b in ctx.required]
        yield finding(s["entry"], var=s["var"], value=s["value"], severity="error" if needed else None,
                      detail=f"breaks {', '.join(needed)}, which this job requires" if needed else None)
