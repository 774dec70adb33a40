"""One row per device a report covers (each GPU, or the CPU) with each backend's state on it.

Shared by the per-GPU table of `check` and the fleet view. A GPU's states use that GPU's own
capability, so on a node that mixes GPUs a backend that cannot run on one of them is "n/a" there
and may still be "ok" on the others.
"""

from __future__ import annotations

from .backends import SPECS, cap_str, forward_reason
from .facts import view

OK, FAIL, NA, NONE = "ok", "FAIL", "n/a", "-"
LEGEND = ("ok: its kernels passed there (with --no-smoke: it imports); FAIL: broken there; "
          "n/a: it cannot run on that device; -: not installed or not tested")


def _key_order(key: str):
    return (1, 0) if key == "cpu" else (0, int(key)) if key.isdigit() else (2, key)


def device_keys(facts: dict, only: list[str] | None = None) -> list[str]:
    """The devices a report speaks for: where smoke tests ran, else every visible GPU, else the CPU."""
    ran = list(((facts.get("smoke") or {}).get("devices") or {}))
    keys = ran or [str(g["index"]) for g in view.gpus(facts)] or ["cpu"]
    if only:
        keys = [k for k in keys if k in only] or keys
    return sorted(keys, key=_key_order)


def describe(facts: dict, key: str) -> tuple[str, list[int] | None]:
    """(name, capability) of a device: from the smoke children that ran there, else torch's or
    the driver's GPU list."""
    if key == "cpu":
        return "CPU", None
    for res in (((facts.get("smoke") or {}).get("devices") or {}).get(key) or {}).values():
        final = res.get("final") or {}
        cap = final.get("capability") or res.get("capability")
        if cap:
            return final.get("gpu") or res.get("gpu") or "?", list(cap)
    g = next((g for g in view.gpus(facts) if str(g.get("index")) == key), {})
    return g.get("name") or "?", list(g["capability"]) if g.get("capability") else None


def cell(name: str, status: dict, res: dict | None, cap, key: str, tested: bool = False) -> tuple[str, str]:
    """(state, why) of one backend on one device; `tested`: smoke tests ran on this device."""
    from .checks.smoke import failure

    st = status.get("status")
    if st in (None, "missing", "skipped"):
        return NONE, status.get("reason") or ""
    why = forward_reason(SPECS[name], tuple(cap) if cap else None) if (cap or key == "cpu") else None
    if why:
        return NA, why
    if res is not None:
        bad = failure(res)
        if bad:
            return FAIL, bad
        return (OK, res.get("summary") or "") if res.get("cases") else (NONE, "; ".join(res.get("notes") or []))
    if st == "broken":
        return FAIL, status.get("reason") or ""
    if st == "unsupported":
        return NA, status.get("reason") or ""
    if tested:  # others ran kernels here, this one did not
        return NONE, "not tested on this device"
    return OK, status.get("reason") or ""


def rows(facts: dict, backends: dict[str, dict], only: list[str] | None = None) -> list[dict]:
    """[{device, name, capability, cap, cells: {backend: state}, why: {backend: reason}}] for the
    devices of `facts`; `only` limits them (a distributed rank speaks for its own GPU)."""
    per_dev = ((facts.get("smoke") or {}).get("devices")) or {}
    out = []
    for key in device_keys(facts, only):
        name, cap = describe(facts, key)
        cells, why = {}, {}
        for b in SPECS:
            cells[b], why[b] = cell(b, backends.get(b) or {}, (per_dev.get(key) or {}).get(b), cap, key,
                                    tested=key in per_dev)
        out.append({"device": key, "name": name, "capability": cap, "cap": cap_str(cap) if cap else "-",
                    "cells": cells, "why": why})
    return out


def shown_backends(all_rows: list[dict]) -> list[str]:
    """Backends worth a column: installed or tested somewhere."""
    return [b for b in SPECS if any(r["cells"].get(b, NONE) != NONE for r in all_rows)]

