"""Runs in a child interpreter: import torch and report what it sees. Prints one JSON line.

Only the standard library and torch are imported here; a torch that crashes takes down this child,
never the doctor.
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
    return {"type": type(e).__name__, "message": str(e)[:2000], "traceback": "".join(tb)[-6000:]}


def probe() -> dict:
    out: dict = {}
    t0 = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            import torch
        except BaseException as e:
            out["import_ok"] = False
            out["import_error"] = _err(e)
            out["warnings"] = [str(w.message)[:1000] for w in caught][:20]
            return out
        out["import_ok"] = True
        out["import_seconds"] = round(time.perf_counter() - t0, 3)
        out["version"] = torch.__version__
        out["python"] = "%d.%d.%d" % sys.version_info[:3]  # the interpreter torch runs in (wheel tags)
        out["cuda"] = getattr(torch.version, "cuda", None)
        out["hip"] = getattr(torch.version, "hip", None)
        out["git"] = getattr(torch.version, "git_version", None)
        out["debug"] = bool(getattr(torch.version, "debug", False))
        try:
            out["cxx11_abi"] = bool(torch._C._GLIBCXX_USE_CXX11_ABI)
        except Exception:
            out["cxx11_abi"] = None
        out["sdpa"] = hasattr(torch.nn.functional, "scaled_dot_product_attention")
        try:
            from torch.nn.attention.flex_attention import flex_attention  # noqa: F401
            out["flex"] = {"ok": True}
        except BaseException as e:
            out["flex"] = {"ok": False, "error": _err(e)}
        cuda: dict = {"available": False, "device_count": 0, "devices": []}
        try:
            cuda["available"] = bool(torch.cuda.is_available())
            cuda["device_count"] = int(torch.cuda.device_count()) if cuda["available"] else 0
            if cuda["available"]:
                cuda["arch_list"] = list(torch.cuda.get_arch_list())
                for i in range(cuda["device_count"]):
                    p = torch.cuda.get_device_properties(i)
                    cuda["devices"].append({
                        "index": i, "name": p.name, "capability": [p.major, p.minor],
                        "memory_mib": int(p.total_memory // (1024 * 1024)),
                        "sms": getattr(p, "multi_processor_count", None),
                        "uuid": str(getattr(p, "uuid", "")) or None,
                    })
                try:
                    cuda["cudnn"] = torch.backends.cudnn.version()
                except Exception:
                    cuda["cudnn"] = None
        except BaseException as e:
            cuda["error"] = _err(e)
        out["cuda_runtime"] = cuda
        out["warnings"] = [str(w.message)[:1000] for w in caught][:20]
    try:
        import triton

        out["triton"] = {"ok": True, "version": getattr(triton, "__version__", None)}
    except ModuleNotFoundError as e:
        out["triton"] = {"ok": False, "missing": e.name == "triton", "error": _err(e)}
    except BaseException as e:
        out["triton"] = {"ok": False, "missing": False, "error": _err(e)}
    return out


def main() -> None:
    try:
        result = probe()
    except BaseException as e:  # the probe itself must always answer
        result = {"import_ok": False, "probe_error": _err(e)}
    sys.stdout.flush()
    # A leading newline: whatever torch printed without one must not swallow the answer's marker.
    print("\n" + SENTINEL + json.dumps(result, default=str), flush=True)


if __name__ == "__main__":
    main()
