"""`--python PATH`: a torch-less attn-doctor (its own venv, like `pipx install`) checks the venv that
runs these tests (whatever torch build pip put there) through --python, in real subprocesses.

REAL: both interpreters, every probe child, the smoke kernels. FAKED: the torch-less venv is built
offline (tests/torchless.py: no pip, symlinks to attn-doctor's dependencies); the "not a Python"
executables are shell scripts written here.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import torchless

ROOT = Path(__file__).resolve().parents[1]
TARGET = sys.executable  # the venv under test: it has torch (the CPU or the CUDA build)


def env() -> dict:
    e = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    e["NO_COLOR"] = "1"
    return e


@pytest.fixture(scope="module")
def doctor_py(tmp_path_factory) -> str:
    py = torchless.build(tmp_path_factory.mktemp("pipx") / "venv")
    r = subprocess.run([str(py), "-c", "import attn_doctor, typer, rich, packaging\n"
                        "try:\n import torch\nexcept ImportError: print('no torch')"],
                       capture_output=True, text=True, env=env(), timeout=60)
    assert r.stdout.strip() == "no torch", r.stderr  # the doctor's own venv really cannot import torch
    return str(py)


def run(py: str, *args, timeout: int = 300, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([py, "-m", "attn_doctor", *args], capture_output=True, text=True, env=env(),
                          timeout=timeout, cwd=str(cwd))


def verdicts(doc: dict) -> tuple[dict, list]:
    return {n: b["status"] for n, b in doc["backends"].items()}, sorted(f["id"] for f in doc["findings"])


def test_torchless_doctor_alone_finds_no_torch(doctor_py):
    """The contrast that makes the next test mean something: without --python, no torch here."""
    doc = json.loads(run(doctor_py, "check", "--no-smoke", "--json", "-").stdout)
    assert "torch.missing" in verdicts(doc)[1]
    assert doc["facts"]["system"]["python_executable"] == doctor_py


@pytest.fixture(scope="module")
def outside(doctor_py, tmp_path_factory) -> tuple[subprocess.CompletedProcess, dict]:
    """`check --no-smoke --python TARGET` from the torch-less doctor, run once: its JSON report (--json PATH) for
    test_through_python_same_verdicts_as_inside, its text on stdout for test_text_report_names_the_interpreter (each
    run was a torch probe in TARGET; ci40c)."""
    out = tmp_path_factory.mktemp("outside") / "report.json"
    r = run(doctor_py, "check", "--no-smoke", "--python", TARGET, "--json", str(out))
    assert out.exists(), r.stderr
    return r, json.loads(out.read_text())


def test_through_python_same_verdicts_as_inside(outside, doctor_py):
    inside = run(TARGET, "check", "--no-smoke", "--json", "-")
    (outside, a), b = outside, json.loads(inside.stdout)
    assert verdicts(a) == verdicts(b) and outside.returncode == inside.returncode
    assert "torch.missing" not in verdicts(a)[1]
    # packages were read from the checked interpreter's sys.path, and the report names it
    assert a["facts"]["packages"]["stack"]["torch"]["version"] == b["facts"]["packages"]["stack"]["torch"]["version"]
    assert a["facts"]["packages"]["sys_path"][1:] == b["facts"]["packages"]["sys_path"][1:]  # [0]: the cwd / script dir
    s = a["facts"]["system"]
    assert s["python_executable"] == b["facts"]["system"]["python_executable"]
    assert s["doctor_python"] == doctor_py and s["python_requested"] == TARGET
    assert a["options"]["python"] == s["python_executable"]
    assert a["facts"]["marker_env"] == b["facts"]["marker_env"]


@pytest.fixture(scope="module")
def wrapped(doctor_py, tmp_path_factory) -> tuple[dict, Path]:
    """`check -b sdpa --python WRAPPER` (kernels on) from the torch-less doctor, run once and read by two tests (ci42b: they
    were two runs, each a torch probe in TARGET). WRAPPER is TARGET with another attn_doctor first on its sys.path, one
    whose import raises SystemExit (say, an old version pip-installed in the env): test_smoke_tests_run_in_the_checked_
    interpreter reads that the kernels ran in TARGET, test_children_run_the_doctors_code_not_the_targets that every
    child (the smoke child too) loaded this doctor's code. Its report and the other attn_doctor's folder."""
    tmp = tmp_path_factory.mktemp("wrapped")
    other = tmp / "other" / "attn_doctor"
    other.mkdir(parents=True)
    (other / "__init__.py").write_text("raise SystemExit('the wrong attn_doctor was imported')\n")
    wrapper = tmp / "python"
    wrapper.write_text(f"#!/bin/sh\nPYTHONPATH={other.parent} exec {TARGET} \"$@\"\n")
    wrapper.chmod(0o755)
    # run from `tmp`, not the project root: a child's sys.path[0] is its working directory (`python -c`), and from the root
    # a child that imported attn_doctor the plain way would find the doctor's own there and prove nothing (ci42b)
    r = run(doctor_py, "check", "-b", "sdpa", "--python", str(wrapper), "--json", "-", cwd=tmp)
    return json.loads(r.stdout), other.parent


def test_smoke_tests_run_in_the_checked_interpreter(wrapped):
    """Full check of sdpa: its kernels ran in the target (torch is only there), with the same verdict."""
    inside = run(TARGET, "check", "-b", "sdpa", "--json", "-")
    a, b = wrapped[0], json.loads(inside.stdout)
    assert verdicts(a) == verdicts(b)
    cases = [c for per in a["facts"]["smoke"]["devices"].values() for c in (per.get("sdpa") or {}).get("cases", [])]
    assert cases and len(cases) == len([c for per in b["facts"]["smoke"]["devices"].values()
                                        for c in (per.get("sdpa") or {}).get("cases", [])])


def test_text_report_names_the_interpreter(outside):
    r, _ = outside  # the text on stdout of the run whose JSON went to a file
    flat = r.stdout.replace("\n  ", " ")
    assert f"checking {TARGET}: named with --python" in flat and f"Python 3" in flat
    # issue 20: the closing line acts on the same interpreter, not on the one attn-doctor runs from
    assert f"attn-doctor fix --python {TARGET}" in flat


def test_a_venv_directory_is_a_python(doctor_py, tmp_path):
    """--python VENV_DIR (or a conda prefix: the same bin/python layout) finds its interpreter."""
    venv_dir = Path(doctor_py).parent.parent
    doc = json.loads(run(TARGET, "check", "--no-smoke", "-b", "sdpa", "--python", str(venv_dir), "--json", "-").stdout)
    assert doc["facts"]["system"]["python_executable"] == str(venv_dir / "bin" / "python")
    assert "torch.missing" in verdicts(doc)[1]  # it checked the torch-less venv, not the doctor's own


def test_children_run_the_doctors_code_not_the_targets(wrapped):
    """An interpreter whose sys.path holds another attn_doctor (say, an old version pip-installed in the
    env) still runs this doctor's probe children: they load attn_doctor from the doctor's files."""
    doc, other = wrapped
    assert doc["facts"]["torch"]["probe"] is not None and "torch.missing" not in verdicts(doc)[1]
    assert str(other) in doc["facts"]["packages"]["sys_path"]  # its sys.path, as the user has it


def _script(tmp_path: Path, name: str, body: str, mode: int = 0o755) -> str:
    p = tmp_path / name
    p.write_text(body)
    p.chmod(mode)
    return str(p)


@pytest.mark.parametrize("command", [["check", "--no-smoke"], ["fix"], ["bench"]])
def test_not_a_python_is_one_line_exit_2(doctor_py, tmp_path, command):
    bad = {
        "missing": (str(tmp_path / "nope" / "python"), "does not exist"),
        "empty dir": (str(tmp_path), "not a venv or a conda prefix"),
        "not executable": (_script(tmp_path, "py-plain", "print(1)\n", 0o644), "not executable"),
        "silent": (_script(tmp_path, "py-true", "#!/bin/sh\nexit 0\n"), "not a working Python"),
        "fails": (_script(tmp_path, "py-fail", "#!/bin/sh\necho 'bad interpreter' >&2\nexit 3\n"), "not a working Python (exit 3"),
        "old": (_script(tmp_path, "py-old", "#!/bin/sh\necho '@@ATTN_DOCTOR@@{\"sys_path\": [], \"version\": \"3.6.9\", "
                        "\"version_info\": [3, 6, 9]}'\n"), "attn-doctor checks Python 3.10 or newer"),
    }
    for case, (path, words) in bad.items():
        r = run(doctor_py, *command, "--python", path, timeout=120)
        assert r.returncode == 2, (case, r.stdout, r.stderr)
        assert r.stderr.count("\n") == 1 and r.stderr.startswith("attn-doctor: error: --python: "), (case, r.stderr)
        assert words in r.stderr, (case, r.stderr)
        assert r.stdout == "", case


def test_python_and_from_are_one_or_the_other():
    saved = ROOT / "fixtures" / "cpu" / "check-no-smoke.json"  # a saved report (the CPU VM's): no probe to make one
    for command in (["check"], ["fix"]):
        r = run(TARGET, *command, "--from", str(saved), "--python", TARGET)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and "--from" in r.stderr, r.stderr


def test_packages_read_from_the_given_sys_path(tmp_path):
    """facts/packages.py reads the entries it is given, not the doctor's own sys.path."""
    from fakesite import write_dist

    from attn_doctor.facts import packages

    site = tmp_path / "site"
    write_dist(site, "sageattention", "1.0.6")
    pk = packages.collect([str(site)], [str(site)])
    assert pk["sys_path"] == [str(site)] and pk["site_dirs"] == [str(site)]
    assert set(pk["stack"]) == {"sageattention"}  # not the torch of the interpreter running this test


def test_interpreter_query_is_the_targets_own_view(doctor_py):
    from attn_doctor.facts import interpreter

    mine = interpreter.own()
    there = interpreter.query(doctor_py)
    assert there["python"] == doctor_py and there["executable"] == doctor_py
    assert there["in_venv"] is True
    assert not any("site-packages" in p and os.path.exists(os.path.join(p, "torch")) for p in there["sys_path"])
    # the same base interpreter: PEP 508 values computed there (no packaging) equal packaging's here
    assert {k: there["marker_env"].get(k) for k in mine["marker_env"]} == mine["marker_env"]
