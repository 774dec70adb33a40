"""attn_doctor.proc.run with real children that crash, hang, spawn grandchildren or flood their
output. Nothing is mocked: each test starts a Python child that does the bad thing for real."""

from __future__ import annotations

import signal
import sys
import time

from attn_doctor import proc


def py(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def alive(pid: int) -> bool:
    """Running (a zombie nobody reaped counts as dead: it runs nothing)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            state = fh.read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in ("Z", "X")


def wait_dead(pid: int, patience: float = 10.0) -> bool:
    """SIGKILL is asynchronous: give the kernel a moment (a deadline for slow CI, not a timing test)."""
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.05)
    return not alive(pid)


def test_answer_is_parsed_from_the_sentinel_line():
    r = proc.run(py(f"print('noise'); print({proc.SENTINEL!r} + '{{\"a\": 1}}'); print('more noise')"), timeout=60)
    assert r.ok and r.payload == {"a": 1}
    assert "noise" in r.stdout


def test_segfault_is_a_result_not_a_crash():
    r = proc.run(py("import os, signal; print('about to crash', flush=True); os.kill(os.getpid(), signal.SIGSEGV)"),
                 timeout=60)
    assert r.returncode == -signal.SIGSEGV
    assert r.signal_name == "SIGSEGV"
    assert not r.ok and not r.timed_out and r.payload is None
    assert "about to crash" in r.stdout


def test_hang_is_killed_with_its_grandchildren(tmp_path):
    """The child starts a grandchild (same process group) and both sleep forever."""
    pidfile = tmp_path / "grandchild.pid"
    code = ("import subprocess, sys, time\n"
            "g = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'])\n"
            f"open({str(pidfile)!r}, 'w').write(str(g.pid))\n"
            "print('started', flush=True)\n"
            "time.sleep(600)\n")
    # 10 s: the child must start Python, start its grandchild and say so before the kill; that took 2.0-2.6 s of wall
    # (0.05 s of CPU) on one core beside 12 CPU burners here, where the 3 s this had were nearly spent (ci40a)
    r = proc.run(py(code), timeout=10)
    assert r.timed_out and not r.ok
    assert r.returncode == -signal.SIGKILL
    assert "started" in r.stdout  # what it printed before the kill is kept
    gpid = int(pidfile.read_text())
    assert wait_dead(gpid), f"grandchild {gpid} survived the timeout kill"


def test_grandchild_left_behind_by_a_child_that_exits_is_killed(tmp_path):
    """A child that exits 0 but leaves a grandchild holding its stdout open: run() still returns,
    and the grandchild is gone."""
    pidfile = tmp_path / "grandchild.pid"
    code = ("import subprocess, sys\n"
            "g = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'])\n"
            f"open({str(pidfile)!r}, 'w').write(str(g.pid))\n")
    r = proc.run(py(code), timeout=60)
    assert r.returncode == 0 and not r.timed_out
    assert wait_dead(int(pidfile.read_text()))


def test_megabytes_of_output_are_capped_without_deadlock():
    """40 MB on stdout and 8 MB on stderr, then the answer: no pipe fills up, the head and tail are
    kept, the total is counted, and the answer at the very end is still found."""
    code = ("import sys\n"
            "chunk = 'x' * 1023 + '\\n'\n"
            "for _ in range(8 * 1024): sys.stderr.write(chunk)\n"
            "for _ in range(40 * 1024): sys.stdout.write(chunk)\n"
            f"sys.stdout.write({proc.SENTINEL!r} + '{{\"done\": true}}\\n')\n")
    r = proc.run(py(code), timeout=120)
    assert r.ok and not r.timed_out
    assert r.payload == {"done": True}
    tail_line = len(proc.SENTINEL) + len('{"done": true}\n')
    assert r.output_bytes == 48 * 1024 * 1024 + tail_line
    assert len(r.stdout) <= 2 * proc.MAX_KEEP + 100
    assert len(r.stderr) <= 2 * proc.MAX_KEEP + 100
    assert "bytes not kept" in r.stdout and "bytes not kept" in r.stderr


def test_a_child_that_cannot_start():
    r = proc.run(["/nonexistent/bin/python-nope"], timeout=5)
    assert r.start_error and "FileNotFoundError" in r.start_error
    assert r.returncode is None and not r.ok


def test_stdin_is_fed():
    r = proc.run(py("import sys; print(sys.stdin.read().upper())"), timeout=60, stdin_text="hello")
    assert r.ok and r.stdout.strip() == "HELLO"


def test_a_child_closing_its_own_stdout_early(tmp_path):
    """A child that closes stdout and keeps running until the timeout: no hang in the reader."""
    r = proc.run(py("import os, time; os.close(1); time.sleep(600)"), timeout=2)
    assert r.timed_out and r.returncode == -signal.SIGKILL


def test_undecodable_output_does_not_raise():
    r = proc.run(py("import sys; sys.stdout.buffer.write(b'\\xff\\xfe bad bytes\\n')"), timeout=60)
    assert r.ok and "bad bytes" in r.stdout
