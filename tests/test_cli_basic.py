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
