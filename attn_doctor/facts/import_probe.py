"""Runs in a child interpreter: import torch, then one backend. Prints one JSON line.

argv: the backend's import code. The answer says how long each import took, what it raised
(type, message, traceback tail) and what it warned.
"""

from __future__ import annotations

import json
import sys
import time
import traceback
import warnings

SENTINEL = "@@ATTN_DOCTOR@@"


def _err(e: BaseException) -> dict:
    tb = traceback.format_exception(type(e), e, e.__traceback__)
    return {"type": type(e).__name__, "message": str(e)[:2000], "traceback": "".join(tb)[-6000:],
            "name": getattr(e, "name", None)}


def probe(code: str) -> dict:
    out: dict = {"ok": False}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t0 = time.perf_counter()
        try:
            import torch  # noqa: F401
        except BaseException as e:
            out["stage"] = "torch"
            out["error"] = _err(e)
            return out
        t1 = time.perf_counter()
        out["torch_seconds"] = round(t1 - t0, 3)
        try:
            exec(compile(code, "<attn-doctor import probe>", "exec"), {})
        except BaseException as e:
            out["stage"] = "backend"
            out["error"] = _err(e)
        else:
            out["ok"] = True
        out["seconds"] = round(time.perf_counter() - t1, 3)
        out["warnings"] = [f"{w.category.__name__}: {w.message}"[:2000] for w in caught][:20]
    return out


def main() -> None:
    code = sys.argv[1] if len(sys.argv) > 1 else ""
    try:
        result = probe(code)
    except BaseException as e:
        result = {"ok": False, "stage": "probe", "error": _err(e)}
    sys.stdout.flush()
    print(SENTINEL + json.dumps(result, default=str), flush=True)


if __name__ == "__main__":
    main()
