"""The low-severity defects left by the new-user trial of session 10 (benchmarks/results/new-user-s10.md #11-14)
and rv12's leftovers, each as a test that failed before its fix."""

from __future__ import annotations

import shlex

from attn_doctor.trace.report import build

EAGER = [{"pid": 1, "rows": [{"site": "/work/train.py:3", "function": "main", "backend": "sdpa", "kernel": "math",
                              "compiled": False, "dtype": "float32", "mask": "none", "head_dim": 64, "device": "cpu",
                              "entry": "torch.nn.functional.scaled_dot_product_attention", "count": 1,
                              "first_seen": 0.1}], "errors": []}]


def _cfg(path: str, by: str) -> dict:
    return {"trainer": "axolotl", "trainer_title": "axolotl", "path": path, "required": ["fa2"],
            "detected": {"trainer": "axolotl", "by": by},
            "attention": [{"name": "flash_attention: true", "setting": "flash_attention", "backend": "fa2"}]}


def _differs(cfg: dict):
    (cd,) = [f for f in build(EAGER, config=cfg, command=["python", "train.py"], program_exit_code=0).findings
             if f.id == "trace.config-differs"]
    return cd


# rv12 #5 left: trace's `check --config` hint drops --trainer, so pasted it reads the file as another trainer
def test_trace_config_hint_carries_trainer():
    words = shlex.split(_differs(_cfg("/work/cfg.json", "--trainer")).fix.split("#")[0])
    assert words[:2] == ["attn-doctor", "check"]
    assert words[words.index("--config") + 1] == "/work/cfg.json"
    assert words[words.index("--trainer") + 1] == "axolotl"


def test_trace_config_hint_detected_trainer_not_forced_and_path_quoted():
    words = shlex.split(_differs(_cfg("/work/my configs/a b.yml", "content")).fix.split("#")[0])
    assert "--trainer" not in words  # detected from the content: check detects it the same way
    assert words[words.index("--config") + 1] == "/work/my configs/a b.yml"


# rv12 #4 left: fleet.package-extra's fix said "or install it on every other member": where the package's backend is
# broken on every member that has it (or the majority runs without it), that copies a broken install to the others
def _fleet_pair(package: str, version: str, backend: str, status: str, extra_plain: int = 0):
    import copy
    import json
    from pathlib import Path

    from attn_doctor import fleet

    base = json.loads((Path(__file__).resolve().parents[1] / "fixtures/fleet/cpu-check-no-smoke.json").read_text())
    reports = []
    for i in range(2 + extra_plain):
        r = copy.deepcopy(base)
        r["facts"]["system"]["hostname"] = f"h{i}"
        reports.append(r)
    b = reports[-1]
    b["facts"]["packages"]["stack"][package] = {"name": package, "version": version, "requires": [],
                                                "location": "/venv/lib/python3.12/site-packages"}
    b["backends"][backend].update(status=status, reason="faked")
    return fleet.build([fleet.member(r, f"r{i}.json") for i, r in enumerate(reports)]).findings


def test_package_extra_never_says_install_it_elsewhere():
    cases = [("xformers", "0.0.35", "xformers", "broken", 0), ("sageattention", "1.0.6", "sage", "broken", 0),
             ("xformers", "0.0.35", "xformers", "broken", 2), ("flash-attn-4", "4.0.0b36", "cute", "broken", 1)]
    for package, version, backend, status, extra in cases:
        found = [f for f in _fleet_pair(package, version, backend, status, extra) if f.id == "fleet.package-extra"]
        assert found, (package, status, extra)
        for f in found:
            assert "uninstall -y" in f.fix and package in f.fix, f.fix
            assert "install it" not in f.fix and " install " not in f.fix.split("uninstall", 1)[1], f.fix


def test_package_of_a_working_backend_is_installed_on_the_others_not_uninstalled():
    """Near miss: sage is ok on the one member that has it: the others are told to install it (fleet rule 1)."""
    found = _fleet_pair("sageattention", "1.0.6", "sage", "ok", 1)
    assert not [f for f in found if f.id == "fleet.package-extra"]
    (f,) = [f for f in found if f.id == "fleet.package-differs"]
    assert "install 'sageattention==1.0.6'" in f.fix


# #11: one missing dependency, one finding: cute's missing `cutlass` was import.dep-missing and
# versions.requirement-missing both, with the same pip line
def _missing_dep_box(backend: str, dist: str, version: str, module: str, requires: list[str], gpu: bool = True):
    import fakefacts as ff

    f = ff.gpu_box() if gpu else ff.cpu_box()
    ff.install(f, backend, dist, version, probe=ff.failed_import(
        "ModuleNotFoundError", f"No module named '{module}'",
        f'  File "{ff.SITE}/x/__init__.py", line 3, in <module>\n    import {module}\n', name=module))
    ff.add_dist(f, dist, version, requires=requires)
    return ff.check(f).findings


def test_missing_dependency_reported_once():
    for backend, dist, version, module, dep, req in (
            ("cute", "flash-attn-4", "4.0.0b36", "cutlass", "nvidia-cutlass-dsl", "nvidia-cutlass-dsl>=4.6.2"),
            ("cute", "flash-attn-4", "4.0.0b36", "quack.activation", "quack-kernels", "quack-kernels>=0.5.3"),
            ("xformers", "xformers", "0.0.35", "einops", "einops", "einops")):
        found = _missing_dep_box(backend, dist, version, module, [req])
        about = [x for x in found if x.params.get("dep") == dep]
        assert [x.id for x in about] == ["import.dep-missing"], [(x.id, x.fix) for x in about]


def test_requirement_missing_kept_when_no_import_fails_of_it():
    """Near miss: flash-attn-4 requires einops too, which its import did not fail on: that one is still said."""
    found = _missing_dep_box("cute", "flash-attn-4", "4.0.0b36", "cutlass", ["nvidia-cutlass-dsl>=4.6.2", "einops"])
    assert [x.id for x in found if x.params.get("dep") == "einops"] == ["versions.requirement-missing"]


# #12: with no NVIDIA driver, torch.missing's fix said "cu130 is the newest this machine's driver runs"; the Versions
# section said "no attention packages besides torch" and FlexAttention "triton ?" where torch is not installed
def _no_torch(driver_cuda: str | None):
    import fakefacts as ff

    f = ff.gpu_box()
    if driver_cuda is None:
        f["driver"] = {}
    else:
        f["driver"]["driver_cuda"] = driver_cuda
    for key in ("stack", "versions"):
        f["packages"][key].pop("torch")
        f["packages"][key].pop("triton", None)
    f["torch"] = {"dist": None, "run": ff.run_ok(0.1), "probe": {
        "import_ok": False, "warnings": [],
        "import_error": ff.error("ModuleNotFoundError", "No module named 'torch'", name="torch")}}
    return f


def test_torch_missing_without_a_driver_does_not_name_its_driver():
    import fakefacts as ff

    (f,) = [x for x in ff.check(_no_torch(None)).findings if x.id == "torch.missing"]
    assert "driver runs" not in f.fix and "no NVIDIA driver" in f.fix and "cu130" in f.fix, f.fix
    (f,) = [x for x in ff.check(_no_torch("12.8")).findings if x.id == "torch.missing"]
    assert "cu128 is the newest this machine's driver runs" in f.fix, f.fix


def test_sections_without_torch_say_so():
    from attn_doctor.render.text import flex_lines, versions_lines

    facts = _no_torch(None)
    assert versions_lines(facts) == ["no attention packages, and no torch"]
    assert flex_lines(facts)[0].startswith("no torch")
    import fakefacts as ff  # near miss: with torch and nothing else, as before

    assert versions_lines(ff.cpu_box()) == ["no attention packages besides torch"]  # REAL: torch 2.13.0+cpu alone
    assert flex_lines(ff.gpu_box())[0].startswith("triton 3.6.0")


# #13: require()'s PreflightError listed the failing findings of backends it was not asked about, and the API's
# usage errors named the CLI's flags (`--backend: unknown backend`) instead of the function's arguments
def _three_broken():
    import fakefacts as ff

    f = ff.gpu_box()
    for backend, dist, version, module in (("cute", "flash-attn-4", "4.0.0b36", "cutlass"),
                                           ("sage", "sageattention", "1.0.6", "triton_kernels"),
                                           ("xformers", "xformers", "0.0.35", "xformers._C")):
        ff.install(f, backend, dist, version, probe=ff.failed_import(
            "ModuleNotFoundError", f"No module named '{module}'",
            f'  File "{ff.SITE}/{backend}/__init__.py", line 3, in <module>\n    import {module}\n', name=module))
    ff.add_dist(f, "flash-attn-4", "4.0.0b36", requires=["nvidia-cutlass-dsl>=4.6.2", "einops"])
    return f


def test_preflight_error_lists_only_the_named_backends():
    import fakefacts as ff

    from attn_doctor import PreflightError

    report = ff.check(_three_broken(), required=["sdpa", "xformers"])
    other = [f for f in report.findings if f.severity == "error" and f.backend in ("cute", "sage")]
    assert other  # they are in the report
    msg = str(PreflightError(report, ["xformers"]))
    assert "xformers" in msg.splitlines()[0]
    theirs = [f for f in report.findings if f.id == "versions.requirement-missing" and f.params["dist"] == "flash-attn-4"]
    assert theirs
    for f in other + theirs:
        assert f"{f.id}: {f.title}" not in msg, f.id  # cute's and sage's, and flash-attn-4's requirements
    mine = [f for f in report.findings if f.severity == "error" and f.backend == "xformers"]
    assert mine and all(f"{f.id}: {f.title}" in msg for f in mine)
    # near miss: named, cute's own findings and its package's unmet requirement are listed
    msg = str(PreflightError(report, ["cute"]))
    assert all(f"{f.id}: {f.title}" in msg for f in theirs)


def test_api_usage_errors_name_the_arguments():
    import pytest

    import attn_doctor

    for call, word in ((lambda: attn_doctor.check(backends=["nope"], smoke=False), "backends"),
                       (lambda: attn_doctor.check(require="flash", smoke=False), "require"),
                       (lambda: attn_doctor.check(trainer="axolotl", smoke=False), "trainer"),
                       (lambda: attn_doctor.check(compile_mode="fast", smoke=False), "compile_mode"),
                       (lambda: attn_doctor.require("nope", smoke=False), "require")):
        with pytest.raises(attn_doctor.UsageError) as e:
            call()
        msg = str(e.value)
        assert msg.startswith(word) and "--" not in msg, msg


def test_api_select_takes_one_string_as_one_value():
    from attn_doctor import selection

    assert selection.parse("torch.missing,cache.", "select") == ["torch.missing", "cache."]
    assert selection.parse(["torch.*"], "select") == ["torch.*"]


# #14: after `make check`, the closing line says `attn-doctor fix ...`, but attn-doctor is in .venv/bin, not on PATH
def _make_check(tmp_path, rc: int):
    import os
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    tool = venv / "bin" / "attn-doctor"
    tool.write_text(f"#!/bin/sh\necho 'fix: attn-doctor fix --write-env && . ./env.sh'\nexit {rc}\n")
    tool.chmod(0o755)
    marker = venv / "bin" / ".installed"
    marker.write_text("")
    future = (root / "pyproject.toml").stat().st_mtime + 10
    os.utime(marker, (future, future))  # up to date: make runs only the check
    return subprocess.run(["make", "-s", "-C", str(root), "check", f"VENV={venv}"], capture_output=True, text=True,
                          timeout=60)


def test_make_check_says_how_to_run_the_printed_lines(tmp_path):
    for rc in (0, 1):
        p = _make_check(tmp_path / str(rc), rc)
        assert (p.returncode == 0) == (rc == 0), p.stderr  # the check's own verdict still decides
        out = p.stdout + p.stderr
        assert "venv/bin/activate" in out, out
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    assert ". .venv/bin/activate" in readme.split("## Install")[0]


# README, run as written on a fresh clone: the excerpt of `check --from .../fault-quack-nosmoke.json` is what it prints
def test_readme_quack_excerpt_is_what_check_from_prints():
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    readme = (root / "README.md").read_text()
    cmd = "attn-doctor check --from fixtures/gpu/h100-final/reports/fault-quack-nosmoke.json"
    assert f"(`{cmd}`)" in readme
    excerpt = readme.split(f"(`{cmd}`):", 1)[1].split("```", 2)[1]
    p = subprocess.run([sys.executable, "-m", "attn_doctor", *cmd.split()[1:]], capture_output=True, text=True,
                       cwd=str(root), timeout=120, env={"PATH": "/usr/bin:/bin", "COLUMNS": "80", "HOME": "/root"})
    lines = [ln for ln in excerpt.strip("\n").splitlines() if ln != "..."]
    assert lines and all(ln in p.stdout.splitlines() for ln in lines), [ln for ln in lines if ln not in p.stdout]
