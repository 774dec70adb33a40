"""Reading a saved report (check --from, fix --from, merge): validated, one clear line when it is not ours."""

from __future__ import annotations

import json
import os

from .model import SCHEMA, UsageError

MAX_REPORT = 64 * 1024 * 1024


def load_report(path: str) -> dict:
    data = load_json(path)
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise UsageError(f"{path} is not an attn-doctor report (no \"schema\": \"{SCHEMA}\")")
    if not isinstance(data.get("facts"), dict):
        raise UsageError(f"{path} has no facts to re-evaluate")
    return data


def load_json(path: str):
    """The JSON document at `path` ('-': stdin), or a UsageError naming what is wrong with it."""
    try:
        if path == "-":
            import sys

            raw = sys.stdin.buffer.read(MAX_REPORT + 1)
        else:
            if os.path.isdir(path):
                raise UsageError(f"{path} is a directory, not a report")
            with open(path, "rb") as fh:
                raw = fh.read(MAX_REPORT + 1)
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror or e}") from None
    if len(raw) > MAX_REPORT:
        raise UsageError(f"{path} is larger than {MAX_REPORT // (1024 * 1024)} MiB: not an attn-doctor report")
    try:
        data = json.loads(raw.decode("utf-8"))
    except RecursionError:
        raise UsageError(f"{path} is too deeply nested to be an attn-doctor report") from None
    except (UnicodeDecodeError, ValueError) as e:
        raise UsageError(f"{path} is not JSON ({type(e).__name__}): not an attn-doctor report") from None
    return data


def prior_options(data: dict) -> dict:
    """What a saved run was asked for: the flags `check --from` applies again unless they are given anew."""
    o = data.get("options") or {}
    return {
        "require": list(o.get("require", data.get("required") or [])),  # older reports: the full list
        "config": data.get("config"), "config_path": o.get("config"),
        "compile_mode": o.get("compile_mode"), "strict": bool(o.get("strict")),
        "select": o.get("select"), "ignore": list(o.get("ignore") or []), "backends": o.get("backends"),
    }
