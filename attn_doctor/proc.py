"""Run a child process that may crash, hang or flood its output, and always come back.

Everything the doctor learns by importing or running a backend goes through `run`: the child
gets its own process group (so a hang is killed with everything it started), output is capped,
and the answer is a `ProcResult`, never an exception.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

# A child prints its answer as one line starting with this marker; anything else it (or a library
# it loads) prints is kept only as evidence.
SENTINEL = "@@ATTN_DOCTOR@@"
MAX_KEEP = 64 * 1024  # bytes of each stream kept: the head and the tail

# Process groups of the children now running: a signal to the doctor (a launcher stopping a rank)
# must not leave them running on the GPU, since each runs in its own session.
_LIVE: set[int] = set()
_LIVE_LOCK = threading.RLock()  # re-entrant: kill_all may run in a signal handler of the same thread


@dataclass
class ProcResult:
    argv: list[str]
    returncode: int | None
    seconds: float
    timed_out: bool = False
    stdout: str = ""
    stderr: str = ""
    payload: dict | None = None  # the child's JSON answer, if it gave one
    start_error: str | None = None  # the child could not be started at all
    output_bytes: int = 0  # everything it printed, counted
    extra: dict = field(default_factory=dict)

    @property
    def signal_name(self) -> str | None:
        if self.returncode is not None and self.returncode < 0:
            try:
                return signal.Signals(-self.returncode).name
            except ValueError:
                return f"signal {-self.returncode}"
        return None

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out and self.start_error is None

    def text(self) -> str:
        """stderr then stdout: what a matcher should read."""
        return "\n".join(s for s in (self.stderr, self.stdout) if s)


class _Drain(threading.Thread):
    """Read a pipe to the end, keeping the head and the tail, so a chatty child never blocks."""

    def __init__(self, stream):
        super().__init__(daemon=True)
        self.stream = stream
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def run(self):
        try:
            while True:
                chunk = self.stream.read(65536)
                if not chunk:
                    break
                self.total += len(chunk)
                if len(self.head) < MAX_KEEP:
                    room = MAX_KEEP - len(self.head)
                    self.head += chunk[:room]
                    chunk = chunk[room:]
                if chunk:
                    self.tail += chunk
                    if len(self.tail) > MAX_KEEP:
                        del self.tail[: len(self.tail) - MAX_KEEP]
        except (OSError, ValueError):
            pass

    def text(self) -> str:
        data = bytes(self.head)
        if self.tail:
            skipped = self.total - len(self.head) - len(self.tail)
            if skipped > 0:
                data += f"\n[... {skipped} bytes not kept ...]\n".encode()
            data += bytes(self.tail)
        return data.decode("utf-8", "replace")


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, OSError):
        pass


_TEMPS: set[str] = set()  # temporary files the doctor made and has not removed yet


def temp_path(prefix: str, suffix: str) -> str:
    """A new empty temporary file, remembered until `discard`, so that a run stopped by a signal
    can still remove it (remove_temps)."""
    import tempfile

    fd, path = tempfile.mkstemp(prefix=prefix, suffix=suffix)
    os.close(fd)
    _TEMPS.add(path)
    return path


def discard(path: str) -> None:
    _TEMPS.discard(path)
    try:
        os.unlink(path)
    except OSError:
        pass


def remove_temps() -> None:
    """Remove every temporary file not discarded yet (the SIGTERM path, which skips `finally`)."""
    for path in list(_TEMPS):
        discard(path)


def kill_all() -> None:
    """Kill every child `run` has started and not yet reaped, with everything they started."""
    with _LIVE_LOCK:
        pids = list(_LIVE)
    for pid in pids:
        _kill_group(pid)


def run(argv: list[str], timeout: float, env: dict | None = None, cwd: str | None = None,
        stdin_text: str | None = None) -> ProcResult:
    start = time.monotonic()
    try:
        p = subprocess.Popen(
            argv, stdin=subprocess.PIPE if stdin_text is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd,
            start_new_session=True,
        )
    except (OSError, ValueError) as e:
        return ProcResult(argv, None, time.monotonic() - start, start_error=f"{type(e).__name__}: {e}")
    with _LIVE_LOCK:
        _LIVE.add(p.pid)
    out, err = _Drain(p.stdout), _Drain(p.stderr)
    out.start()
    err.start()
    if stdin_text is not None:
        try:
            p.stdin.write(stdin_text.encode())
            p.stdin.close()
        except OSError:
            pass
    timed_out = False
    try:
        p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
    finally:  # also when the wait is interrupted (Ctrl-C, a signal handler's exception)
        # Whatever the child left running in its group (a hang, or a grandchild) goes now.
        _kill_group(p.pid)
    if timed_out:
        p.wait()
    with _LIVE_LOCK:
        _LIVE.discard(p.pid)
    out.join(5)
    err.join(5)
    for drain in (out, err):  # a pipe left to the garbage collector warns (ResourceWarning) under -W default / -X dev
        if not drain.is_alive():  # one still reading (a grandchild kept the pipe) holds its buffer's lock: leave it
            try:
                drain.stream.close()
            except OSError:
                pass
    res = ProcResult(argv, p.returncode, time.monotonic() - start, timed_out=timed_out,
                     stdout=out.text(), stderr=err.text(), output_bytes=out.total + err.total)
    res.payload = parse_payload(res.stdout)
    return res


def live_pids() -> list[int]:
    """The doctor's children running now."""
    with _LIVE_LOCK:
        return sorted(_LIVE)


def parse_payload(stdout: str) -> dict | None:
    for line in reversed(stdout.splitlines()):
        if line.startswith(SENTINEL):
            try:
                value = json.loads(line[len(SENTINEL):])
            except ValueError:
                return None
            return value if isinstance(value, dict) else None
    return None


def python_argv(code: str, *args: str, python: str | None = None) -> list[str]:
    """A child interpreter running `code`, like a user's `python -c` (same env, same sys.path)."""
    return [python or sys.executable, "-c", code, *args]


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # holds the attn_doctor package

# Loads the doctor's own attn_doctor package (light: the standard library only) from where the doctor
# is, whatever the interpreter has on its sys.path (another attn-doctor version, none at all), and
# the child's own package without its __init__ (the doctor's side of it may need packaging); the
# interpreter's sys.path stays as the user has it.
_LOADER = (
    "import sys, types, importlib.util as u\n"
    "s = u.spec_from_file_location('attn_doctor', {init!r}, submodule_search_locations=[{pkg!r}])\n"
    "m = u.module_from_spec(s); sys.modules['attn_doctor'] = m; s.loader.exec_module(m)\n"
    "p = types.ModuleType({parent!r}); p.__path__ = [{parent_dir!r}]; sys.modules[{parent!r}] = p\n"
    "setattr(m, {leaf!r}, p)\n"
    "from attn_doctor.{module} import main; main()\n"
)


def child_argv(module: str, *args: str, python: str | None = None) -> list[str]:
    """A child interpreter (the doctor's own, or the one --python names) that runs
    attn_doctor.<module>.main() from the doctor's files; nothing is added to its sys.path."""
    pkg = os.path.join(ROOT, "attn_doctor")
    parent, _, _ = module.rpartition(".")
    code = _LOADER.format(init=os.path.join(pkg, "__init__.py"), pkg=pkg, parent=f"attn_doctor.{parent}",
                          parent_dir=os.path.join(pkg, *parent.split(".")), leaf=parent.split(".")[-1], module=module)
    return python_argv(code, *args, python=python)
