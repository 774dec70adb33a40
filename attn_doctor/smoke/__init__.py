"""Run every usable backend's kernels for real: one child process per (backend, device), all at
once, each with a timeout. A segfault, a hang, a CUDA error or an out-of-memory becomes that
backend's result; the others still run. Results are facts: they go in facts["smoke"]."""

from __future__ import annotations

import json
import os
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from .. import proc
from ..backends import SPECS
from ..facts import child_argv, view
from . import plan as planner
from .child import CASE, SENTINEL, START


def targets(facts: dict, backends: dict[str, dict]) -> list[str]:
    """Backends worth running: those whose status is ok after the probes."""
    return [n for n, row in backends.items() if row.get("status") == "ok"]


def devices(facts: dict, wanted: list[int] | None = None) -> list[dict]:
    """Where to run: each visible CUDA GPU torch can use (or the chosen ones), else the CPU."""
    t = view.torch(facts)
    rt = view.cuda_runtime(facts)
    if (t["cuda"] or t["hip"]) and rt.get("available") and rt.get("devices"):
        devs = [d for d in rt["devices"] if wanted is None or d["index"] in wanted]
        return [{"key": str(d["index"]), "device": f"cuda:{d['index']}", "cap": tuple(d["capability"]),
                 "name": d["name"]} for d in devs]
    return [{"key": "cpu", "device": "cpu", "cap": None, "name": "CPU"}]


def read_results(path: str) -> tuple[list[dict], str | None, dict | None]:
    """(finished cases, the case that started but never finished, the final record)."""
    cases, started, final = [], None, None
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return cases, None, None
    for line in lines:
        try:
            if line.startswith(START):
                started = json.loads(line[len(START):]).get("name")
            elif line.startswith(CASE):
                c = json.loads(line[len(CASE):])
                cases.append(c)
                started = None
            elif line.startswith(SENTINEL):
                final = json.loads(line[len(SENTINEL):])
        except ValueError:
            continue
    return cases, started, final


def run_one(backend: str, dev: dict, cases: list[dict], timeout: float, adapter: str | None = None,
            env: dict | None = None, python: str | None = None, progress=None) -> dict:
    fd, path = tempfile.mkstemp(prefix=f"attn-doctor-{backend}-", suffix=".jsonl")
    os.close(fd)
    plan = {"device": dev["device"], "adapter": adapter or backend, "cases": cases, "seed": 0, "results_path": path}
    stop = threading.Event()

    def watch():
        while not stop.wait(0.5):
            done, started, _ = read_results(path)
            if progress:
                progress(backend, dev["key"], len(done), len(cases), started)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        r = proc.run(child_argv("smoke.child", json.dumps(plan), python=python), timeout=timeout, env=env)
    finally:
        stop.set()
        watcher.join(2)
    done, started, final = read_results(path)
    try:
        os.unlink(path)
    except OSError:
        pass
    passed = sum(1 for c in done if c.get("ok"))
    res = {
        "device": dev["device"], "gpu": dev["name"], "ran": True, "wall_seconds": round(r.seconds, 3),
        "cases": done, "planned": [c["name"] for c in cases], "stuck_in": started,
        "run": {"returncode": r.returncode, "signal": r.signal_name, "timed_out": r.timed_out,
                "start_error": r.start_error, "stderr_tail": r.stderr[-3000:], "output_bytes": r.output_bytes},
        "final": final,
    }
    if r.timed_out or r.signal_name or (final is None) or final.get("error"):
        res["summary"] = f"{passed}/{len(cases)} passed, then " + (
            f"hung in '{started}'" if r.timed_out else
            f"crashed ({r.signal_name}) in '{started}'" if r.signal_name else
            f"failed to {final.get('stage')}" if final and final.get("error") else f"exited {r.returncode}")
    else:
        res["summary"] = f"{passed}/{len(cases)} passed"
    return res


def cute_cache_hit(dev: dict, case: dict, timeout: float, python: str | None = None) -> dict:
    """With FA4's disk cache on, a fresh process should load the kernel the first run compiled."""
    r = run_one("cute", dev, [dict(case, name="cache check " + case["name"])], timeout, python=python)
    c = (r["cases"] or [{}])[0]
    first = c.get("first_seconds")
    return {"first_seconds": first, "ok": bool(c.get("ok")), "wall_seconds": r["wall_seconds"]}


def run(facts: dict, backends: dict[str, dict], timeout: float, level: str = "standard",
        config: dict | None = None, device_ids: list[int] | None = None, progress=None,
        python: str | None = None) -> dict:
    """Smoke-test every ok backend on every chosen device. Returns facts["smoke"]."""
    config = config or {}
    devs = devices(facts, device_ids)
    jobs = []
    for dev in devs:
        for name in targets(facts, backends):
            if dev["cap"] is None and not SPECS[name].cpu:
                continue
            cases, notes = planner.plan(name, dev["cap"], level=level, dtype=config.get("dtype"),
                                        head_dims=config.get("head_dims"))
            if cases:
                jobs.append((name, dev, cases, notes))
    out: dict = {"level": level, "devices": {d["key"]: {} for d in devs}}
    started = time.monotonic()
    fa4_cache = (facts.get("env") or {}).get("FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED") == "1"

    def job(item):
        name, dev, cases, notes = item
        res = run_one(name, dev, cases, timeout, python=python, progress=progress)
        res["notes"] = notes
        if name == "cute" and fa4_cache and res["cases"]:
            first = res["cases"][0]
            fwd = first.get("first_seconds") or 0
            if first.get("ok") and fwd > 1.0:  # it compiled: does a second process find the kernel?
                res["cache_check"] = cute_cache_hit(dev, cases[0], timeout, python=python)
            elif first.get("ok"):
                res["cache_check"] = {"first_seconds": fwd, "ok": True, "warm_already": True}
        return name, dev["key"], res

    with ThreadPoolExecutor(max_workers=max(1, min(16, len(jobs)))) as ex:
        for name, key, res in ex.map(job, jobs):
            out["devices"][key][name] = res
    out["wall_seconds"] = round(time.monotonic() - started, 3)
    return out
