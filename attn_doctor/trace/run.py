"""`attn-doctor trace -- CMD ...`: run the user's command unchanged, with the hook in its Python processes.

The command inherits stdin, stdout and stderr (its output is its own, byte for byte); the report goes
to stderr after it exits (or as JSON with --json). Each Python process writes its own data file into a
temporary directory (one per rank under torchrun), merged here at the end. torch is never imported
in this process.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time

from ..model import UsageError
from . import HOOK_FILE
from .report import TraceReport, build

GRACE = 60.0  # seconds past --seconds before the program, still running, is interrupted from outside


def _environment(site_dir: str, data_dir: str, steps: int | None, seconds: float | None) -> dict:
    env = dict(os.environ)
    old = env.get("PYTHONPATH")
    env["PYTHONPATH"] = site_dir + (os.pathsep + old if old else "")
    env["ATTN_DOCTOR_TRACE_DIR"] = data_dir
    env["ATTN_DOCTOR_TRACE_HOOK"] = HOOK_FILE
    for k in ("ATTN_DOCTOR_TRACE_STEPS", "ATTN_DOCTOR_TRACE_SECONDS"):
        env.pop(k, None)
    if steps:
        env["ATTN_DOCTOR_TRACE_STEPS"] = str(steps)
    if seconds:
        env["ATTN_DOCTOR_TRACE_SECONDS"] = str(seconds)
    return env


def _load(data_dir: str) -> list[dict]:
    out = []
    for path in sorted(glob.glob(os.path.join(data_dir, "proc-*.json"))):
        try:
            with open(path, encoding="utf-8") as fh:
                d = json.load(fh)
            if isinstance(d, dict):
                out.append(d)
        except (OSError, ValueError):
            continue  # a process killed mid-write leaves only its .tmp: nothing to read
    out.sort(key=lambda d: (str(d.get("rank") if d.get("rank") is not None else "~"), d.get("pid") or 0))
    return out


def _returncode(rc: int) -> int:
    return 128 - rc if rc < 0 else rc  # killed by a signal: the shell's 128 + N


def _wait(proc: subprocess.Popen, seconds: float | None) -> int:
    """Wait for the program. With --seconds, a program still running GRACE s after its deadline (stuck
    outside attention) gets SIGINT, as Ctrl-C would, then SIGTERM, then SIGKILL."""
    if not seconds:
        return proc.wait()
    try:
        return proc.wait(timeout=seconds + GRACE)
    except subprocess.TimeoutExpired:
        pass
    for sig, wait in ((signal.SIGINT, 15), (signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        try:
            proc.send_signal(sig)
            return proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            continue
        except OSError:
            break
    return proc.wait()


def run(command: list[str], *, steps: int | None = None, seconds: float | None = None, required: list[str] | None = None,
        config: dict | None = None) -> TraceReport:
    if not command:
        raise UsageError("trace: give the command to run after --, e.g. attn-doctor trace -- python train.py")
    exe = command[0]
    if os.sep not in exe and shutil.which(exe) is None:
        raise UsageError(f"trace: cannot run {exe!r}: command not found")
    tmp = tempfile.mkdtemp(prefix="attn-doctor-trace-")
    try:
        site_dir, data_dir = os.path.join(tmp, "site"), os.path.join(tmp, "data")
        os.makedirs(site_dir)
        os.makedirs(data_dir)
        shutil.copyfile(os.path.join(os.path.dirname(HOOK_FILE), "sitecustomize.py"),
                        os.path.join(site_dir, "sitecustomize.py"))
        env = _environment(site_dir, data_dir, steps, seconds)
        start = time.monotonic()
        try:
            proc = subprocess.Popen(command, env=env)
        except OSError as e:
            raise UsageError(f"trace: cannot run {exe!r}: {e.strerror or e}") from None
        # Ctrl-C reaches the program from the terminal; here it must not end the wait (the report comes
        # after the program has stopped). A SIGTERM for us is passed on to it.
        old_int = signal.signal(signal.SIGINT, lambda *_: None)
        old_term = signal.signal(signal.SIGTERM, lambda *_: _forward(proc, signal.SIGTERM))
        try:
            rc = _returncode(_wait(proc, seconds))
        finally:
            signal.signal(signal.SIGINT, old_int)
            signal.signal(signal.SIGTERM, old_term)
        elapsed = round(time.monotonic() - start, 2)
        processes = _load(data_dir)
        return build(processes, required=required, config=config, command=list(command), program_exit_code=rc,
                     cwd=os.getcwd(), seconds=elapsed)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _forward(proc: subprocess.Popen, sig: int) -> None:
    try:
        proc.send_signal(sig)
    except OSError:
        pass


def dumps(rep: TraceReport) -> str:
    return json.dumps(rep.to_dict(), indent=2, default=str, ensure_ascii=False) + "\n"
