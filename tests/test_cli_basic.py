"""The command line end to end on this machine: exit codes, JSON on stdout, bad input."""

import subprocess
import sys

from attn_doctor import __version__


def run(*args, env=None):
    return subprocess.run([sys.executable, "-m", "attn_doctor", *args], capture_output=True, text=True,
                          timeout=300, env=env)


def test_version():
    r = run("--version")
    assert r.returncode == 0
    assert r.stdout.strip() == f"attn-doctor {__version__}"


# (This file's live `check --no-smoke --json -` and `check --no-smoke` runs, and its unknown backend / unknown flag runs,
# were the same commands as tests/test_cli.py's: their assertions live there now, one run each, since every live probe is
# ~3 s of CPU. test_cli.py: test_json_stdout_is_exactly_one_document (the schema, all seven backends, exit code),
# test_live_plain_text_fits_80_columns (no "Fleet" heading), test_bad_flags_are_one_line_exit_2 ('--frobnicate',
# "unknown backend 'nope'": exit 2, one line, no traceback).)


def test_missing_runtime_dependency_is_one_line_exit_2(tmp_path):
    """FAKE: a `typer` on PYTHONPATH that cannot be imported stands for an interpreter without the
    doctor's dependencies: `python -m attn_doctor` says which one and how to get it, no traceback."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    (tmp_path / "typer.py").write_text("raise ImportError('faked: not installed', name='typer')\n")
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(root)])}
    r = subprocess.run([sys.executable, "-m", "attn_doctor", "check", "--no-smoke"], capture_output=True,
                       text=True, env=env, timeout=60)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert "'typer'" in r.stderr and "pip install typer" in r.stderr
