"""The in-process API: attn_doctor.check / attn_doctor.require / attn_doctor.PreflightError.

Verdicts come from saved reports of faked machines (tests/fakefacts.py: a healthy H200, or one
whose FA4 import failed), through `from_report`, so they hold on any machine. What must hold for
real (nothing of torch or a backend in the caller's process) is run in a fresh interpreter that
HAS torch installed: the venv running these tests.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import fakefacts as ff
import pytest

import attn_doctor

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("torch", "triton", "flash_attn", "flash_attn_interface", "sageattention", "xformers", "cutlass", "quack")


def saved(tmp_path: Path, facts: dict, name: str = "r.json") -> str:
    """A report as `check --json` saves it, for these (faked) facts."""
    p = tmp_path / name
    p.write_text(json.dumps(ff.check(facts).to_dict(), default=str))
    return str(p)


@pytest.fixture
def broken_fa4(tmp_path) -> str:
    """FAKED: the H200 box with flash-attn-4 installed, its import failing (cutlass missing)."""
    f = ff.gpu_box()
    ff.install(f, "cute", "flash-attn-4", "4.0.0b36",
               probe=ff.failed_import("ModuleNotFoundError", "No module named 'cutlass'", name="cutlass"))
    return saved(tmp_path, f)


def test_check_is_the_json_report(gpu_box, tmp_path):
    path = saved(tmp_path, gpu_box)
    report = attn_doctor.check(from_report=path)
    assert isinstance(report, attn_doctor.Report)
    d = report.to_dict()
    assert d["exit_code"] == report.exit_code == 0
    assert d["backends"]["sdpa"]["status"] == "ok"
    assert d == {**json.loads(Path(path).read_text()), "options": d["options"]}  # the same Report as --json


def test_require_returns_the_report_when_every_named_backend_is_ok(gpu_box, tmp_path):
    report = attn_doctor.require("sdpa", "flex", from_report=saved(tmp_path, gpu_box))
    assert report.required == ["sdpa", "flex"] and report.exit_code == 0


def test_require_raises_with_the_failing_findings_and_their_fixes(broken_fa4):
    with pytest.raises(attn_doctor.PreflightError) as exc:
        attn_doctor.require("sdpa", "cute", from_report=broken_fa4)
    e = exc.value
    assert e.backends == ["cute"] and e.report.exit_code == 1
    msg = str(e)
    assert msg.splitlines()[0].startswith("required attention backend(s) not ok: cute (broken")
    errors = [f for f in e.report.findings if f.severity == "error"]
    assert errors and {f.id for f in errors} >= {"require.not-ok"}
    for f in errors:  # every failing finding, with its fix
        assert f"{f.id}: {f.title}" in msg
        if f.fix:
            assert f"fix: {f.fix}" in msg
    assert isinstance(e, RuntimeError)


def test_require_only_fails_for_the_named_backends(broken_fa4):
    """The FA4 error fails a check, but a trainer that only needs sdpa may go on."""
    assert attn_doctor.check(from_report=broken_fa4).exit_code == 1
    assert attn_doctor.require("sdpa", from_report=broken_fa4).backends["cute"]["status"] == "broken"


@pytest.mark.parametrize("call", [
    lambda: attn_doctor.check(backends="nope", smoke=False),
    lambda: attn_doctor.check(require=["sdpa", "flash"], smoke=False),
    lambda: attn_doctor.check(python="/nonexistent/python", smoke=False),
    lambda: attn_doctor.check(from_report="/nonexistent/report.json"),
    lambda: attn_doctor.require(smoke=False),
])
def test_bad_arguments_raise_usage_error_before_probing(call):
    with pytest.raises(attn_doctor.UsageError):
        call()


def test_require_takes_names_not_require():
    with pytest.raises(TypeError):
        attn_doctor.require("sdpa", require=["flex"])


def _fresh(code: str) -> dict:
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=str(ROOT))
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_import_is_light():
    got = _fresh("import json, sys, attn_doctor\n"
                 "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
                 "('attn_doctor', 'typer', 'rich', 'packaging', 'torch'))))")
    assert got == ["attn_doctor"]


# One fresh interpreter (where torch IS importable) runs a real check of sdpa, kernels included, then a real require of
# sdpa and cute without kernels (probed again: -b sdpa --require sdpa,cute --no-smoke), and says which heavy modules it
# then holds and what require's report was: read by the two tests below (one child and three torch imports fewer than a
# child each; ci40c).
REQUIRE_ARGS = ["--no-smoke", "-b", "sdpa", "--require", "sdpa,cute"]


@pytest.fixture(scope="module")
def fresh_api() -> dict:
    return _fresh(f"""
import importlib.util, json, sys
import attn_doctor
assert importlib.util.find_spec("torch") is not None  # torch is there to be imported
r = attn_doctor.check(backends="sdpa", timeout=240)
cases = sum(len(per.get("sdpa", {{}}).get("cases") or []) for per in r.facts["smoke"]["devices"].values())
report = None
try:
    attn_doctor.require("sdpa", "cute", backends=["sdpa"], smoke=False)
    raised = None
except attn_doctor.PreflightError as e:
    raised, report = e.backends, e.report.to_dict()
print(json.dumps({{"heavy": sorted(m for m in sys.modules if m.split(".")[0] in {HEAVY!r}),
                  "sdpa": r.backends["sdpa"]["status"], "cases": cases, "raised": raised,
                  "exit": r.exit_code, "findings": [f.to_dict()["id"] for f in r.findings],
                  "require_report": report}}, default=str))
""")


def test_check_and_require_never_import_torch_into_the_caller(fresh_api):
    """A real check, kernels included, and a real require, from a process where torch IS importable: afterwards,
    neither torch nor any backend is in sys.modules."""
    got = fresh_api
    assert got["heavy"] == []
    assert got["cases"] > 0  # kernels did run (in children)
    assert got["raised"] == ["cute"]  # FA4 is not installed here
    assert got["sdpa"] in ("ok", "broken")  # whichever torch build: the verdict is the report's


def test_check_matches_the_cli(fresh_api, tmp_path):
    """attn_doctor.check() (here as require() calls it, with backends, require and smoke=False) and `check --json` with
    the same flags agree on a fresh probe of this machine."""
    out = tmp_path / "cli.json"
    subprocess.run([sys.executable, "-m", "attn_doctor", "check", *REQUIRE_ARGS, "--json", str(out)],
                   capture_output=True, timeout=300, cwd=str(ROOT))
    cli = json.loads(out.read_text())
    api = fresh_api["require_report"]
    assert {n: b["status"] for n, b in api["backends"].items()} == {n: b["status"] for n, b in cli["backends"].items()}
    assert [f["id"] for f in api["findings"]] == [f["id"] for f in cli["findings"]]
    assert api["exit_code"] == cli["exit_code"] and api["options"] == cli["options"]
