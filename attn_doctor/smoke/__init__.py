"""Run backends for real: one child process per (backend, device), all at once, each with a timeout.

The same child is the import probe (import torch, then the backend) and, when smoke tests are on,
goes on to run the backend's cases on its device. A segfault, a hang, a CUDA error or an
out-of-memory becomes that backend's result; the others still run. What comes back is facts:
the import record goes to facts["imports"], the cases to facts["smoke"].
"""

from __future__ import annotations

import json
import threading

from .. import proc
from ..backends import SPECS
from .child import CASE, IMPORT, PLAN, SENTINEL, START


def read_results(path: str) -> dict:
    """Everything a child wrote: its import record, its plan, finished cases, the case it was in."""
    out: dict = {"import": None, "planned": None, "notes": [], "cases": [], "stuck_in": None, "final": None}
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return out
    for line in lines:
        try:
            if line.startswith(START):
                out["stuck_in"] = json.loads(line[len(START):]).get("name")
            elif line.startswith(CASE):
                out["cases"].append(json.loads(line[len(CASE):]))
                out["stuck_in"] = None
            elif line.startswith(IMPORT):
                out["import"] = json.loads(line[len(IMPORT):])
            elif line.startswith(PLAN):
                p = json.loads(line[len(PLAN):])
                out["planned"], out["notes"] = p.get("cases"), p.get("notes") or []
            elif line.startswith(SENTINEL):
                out["final"] = json.loads(line[len(SENTINEL):])
        except ValueError:
            continue
    return out


def run_child(backend: str, device: str, timeout: float, *, cases: list[dict] | None = None,
              auto: dict | None = None, adapter: str | None = None, import_code: str | None = None,
              python: str | None = None, progress=None, key: str = "") -> dict:
    """Start one child for `backend` on `device` and wait for it. With neither `cases` nor `auto`
    it only imports (the import probe)."""
    path = proc.temp_path(f"attn-doctor-{backend}-", ".jsonl")
    plan = {"backend": backend, "device": device, "adapter": adapter, "cases": cases, "auto": auto,
            "import_code": SPECS[backend].import_code if import_code is None and backend in SPECS else import_code,
            "results_path": path, "seed": 0}
    stop = threading.Event()

    def watch():
        while not stop.wait(0.5):
            r = read_results(path)
            total = len(cases) if cases is not None else len(r["planned"] or [])
            if progress:
                progress(backend, key or device, len(r["cases"]), total,
                         r["stuck_in"] or ("importing" if r["import"] is None else None))

    watcher = threading.Thread(target=watch, daemon=True)
    if progress:
        watcher.start()
    try:
        res = proc.run(proc.child_argv("smoke.child", json.dumps(plan), python=python), timeout=timeout)
    finally:
        stop.set()
        if progress:
            watcher.join(2)
    out = read_results(path)
    proc.discard(path)
    if out["planned"] is None and cases is not None:
        out["planned"] = [c["name"] for c in cases]
    out["wall_seconds"] = round(res.seconds, 3)
    out["device"] = device
    out["run"] = {"returncode": res.returncode, "signal": res.signal_name, "timed_out": res.timed_out,
                  "seconds": round(res.seconds, 3), "start_error": res.start_error,
                  "stderr_tail": res.stderr[-4000:], "stdout_tail": res.stdout[-1000:],
                  "output_bytes": res.output_bytes}
    return out


def refusal_crash(r: dict) -> bool:
    """The run died (a signal) in a dtype-refusal case after every other planned case passed: the
    kernels work; the backend crashes instead of refusing that dtype (a warning, smoke.refusal-crashed)."""
    planned = r.get("planned") or []
    stuck = r.get("stuck_in") or ""
    run = r.get("run") or {}
    ran = {c.get("name") for c in r.get("cases") or []}
    return bool(run.get("signal")) and stuck.startswith("refusal") and bool(planned) and \
        all(c.get("ok") or c.get("not_built") for c in r.get("cases") or []) and \
        set(planned) - ran == {stuck}


def summarize(r: dict) -> str:
    planned = r.get("planned") or []
    passed = sum(1 for c in r["cases"] if c.get("ok"))
    absent = sum(1 for c in r["cases"] if c.get("not_built"))
    built = f", {absent} not in this build" if absent else ""
    run, final = r["run"], r.get("final") or {}
    if refusal_crash(r):
        return f"{passed}/{len(planned) - absent - 1} passed{built}; the {r['stuck_in']} case crashed ({run['signal']})"
    if run["timed_out"]:
        tail = f"hung in '{r.get('stuck_in') or 'start-up'}'"
    elif run["signal"]:
        tail = f"crashed ({run['signal']}) in '{r.get('stuck_in') or 'start-up'}'"
    elif final.get("error"):
        tail = f"failed to {final.get('stage')}"
    elif not final:
        tail = f"exited {run['returncode']} without finishing"
    elif not planned:  # nothing this device can run (its notes say why)
        return "not run"
    else:
        return f"{passed}/{len(planned) - absent} passed{built}"
    return f"{passed}/{len(planned) - absent} passed{built}, then {tail}"


def smoke_record(r: dict) -> dict:
    """The part of a child's result that goes in facts['smoke']."""
    final = r.get("final") or {}
    return {"device": r["device"], "gpu": final.get("gpu") or ("CPU" if r["device"] == "cpu" else None),
            "capability": final.get("capability"), "ran": True, "wall_seconds": r["wall_seconds"],
            "summary": summarize(r), "planned": r.get("planned") or [], "notes": r.get("notes") or [],
            "cases": r["cases"], "stuck_in": r.get("stuck_in"), "run": r["run"], "final": final}


def cute_cache_check(device: str, first_case: dict | None, timeout: float, python: str | None = None) -> dict:
    """With FA4's disk cache on, a fresh process should load the kernel the first one compiled."""
    if not first_case:
        return {}
    r = run_child("cute", device, timeout, cases=[dict(first_case, name="cache check")], python=python)
    c = (r["cases"] or [{}])[0]
    return {"first_seconds": c.get("first_seconds"), "ok": bool(c.get("ok")), "wall_seconds": r["wall_seconds"]}
