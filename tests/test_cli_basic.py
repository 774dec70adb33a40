"""The command line end to end on this machine: exit codes, JSON on stdout, bad input."""

import json
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


def test_json_stdout_is_one_document():
    r = run("check", "--no-smoke", "--json", "-")
    doc = json.loads(r.stdout)
    assert doc["schema"] == "attn-doctor.report/1"
    assert set(doc["backends"]) == {"sdpa", "flex", "cute", "fa2", "fa3", "sage", "xformers"}
    assert doc["exit_code"] == r.returncode


def test_unknown_backend_is_usage_error():
    r = run("check", "--no-smoke", "--backend", "nope")
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "unknown backend 'nope'" in r.stderr
    assert "Traceback" not in r.stderr


def test_unknown_flag_is_usage_error():
    r = run("check", "--frobnicate")
    assert r.returncode == 2
    assert r.stderr.startswith("attn-doctor: error:") and r.stderr.count("\n") == 1


def test_a_single_machine_report_has_no_fleet_heading():
    r = run("check", "--no-smoke")
    assert r.returncode in (0, 1)
    assert "Fleet" not in r.stdout.splitlines()


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
