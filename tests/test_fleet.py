"""The fleet view (attn_doctor/fleet): members, what differs from the majority, exit codes, merge.

Every member report starts from a REAL report captured on the 2-core CPU dev VM
(fixtures/fleet/, see its README). Each variant below edits that report and says in its docstring
what it fakes; the fleet logic sees nothing but those dicts.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from attn_doctor import fleet, knowledge
from attn_doctor.checks import Context
from attn_doctor.render import fleet as rfleet
from attn_doctor.render.text import make_console
from attn_doctor.report import evaluate
from test_gpu_rows import two_gpu_facts

ROOT = Path(__file__).resolve().parents[1]
FIX = ROOT / "fixtures" / "fleet"
NO_SMOKE = FIX / "cpu-check-no-smoke.json"
TORCHRUN = FIX / "cpu-torchrun-env-differs.json"


def cpu_report() -> dict:
    """REAL: `check --no-smoke --json` on the CPU dev VM (host 'vm', torch 2.13.0+cpu, exit 0,
    warnings torch.cpu-build and cache.volatile)."""
    return copy.deepcopy(json.loads(NO_SMOKE.read_text()))


def on_host(rep: dict, host: str, rank: int | None = None) -> dict:
    """FAKES another machine (or rank) by its name only: hostname, and the rank check --distributed records."""
    rep["facts"]["system"]["hostname"] = host
    if rank is not None:
        rep.setdefault("options", {})["distributed"] = {"rank": rank, "host": host, "device": None}
    return rep


def with_torch(rep: dict, version: str, cuda: str | None = None) -> dict:
    """FAKES another torch: its metadata version and what its probe said (version, CUDA build)."""
    rep["facts"]["packages"]["stack"]["torch"]["version"] = version
    rep["facts"]["torch"]["probe"]["version"] = version
    rep["facts"]["torch"]["probe"]["cuda"] = cuda
    return rep


def with_env(rep: dict, var: str, value: str | None) -> dict:
    """FAKES an environment variable set (or unset) on that machine only."""
    if value is None:
        rep["facts"]["env"].pop(var, None)
    else:
        rep["facts"]["env"][var] = value
    return rep


def with_package(rep: dict, name: str, version: str | None) -> dict:
    """FAKES a distribution of the attention stack installed (or removed) there, metadata only."""
    stack = rep["facts"]["packages"]["stack"]
    if version is None:
        stack.pop(name, None)
    else:
        stack[name] = {"name": name, "version": version, "requires": [], "location": "/venv/lib/python3.12/site-packages"}
    return rep


def with_status(rep: dict, backend: str, status: str, reason: str = "faked") -> dict:
    """FAKES a backend's evaluated status in that report (as if its import or smoke test failed)."""
    rep["backends"][backend].update(status=status, reason=reason)
    return rep


def failing(rep: dict) -> dict:
    """FAKES a member whose own check failed: one error finding, exit code 1."""
    rep["findings"].append({"id": "import.failed", "severity": "error", "section": "backends",
                            "title": "FlashAttention-4 (CuTe) 4.0.0b36 is installed but does not import.",
                            "fix": "pip install --force-reinstall --pre flash-attn-4", "backend": "cute",
                            "detail": None, "params": {}})
    rep["exit_code"] = 1
    return rep


def members(*reps: dict) -> list[fleet.Member]:
    return [fleet.member(r, f"report{i}.json") for i, r in enumerate(reps)]


def ids(view: fleet.Fleet) -> list[str]:
    return [f.id for f in view.findings]


def pip(rep: dict) -> str:
    """How a fix line runs pip for that member: its own interpreter, as its report names it."""
    from attn_doctor.target import from_facts

    return f"{from_facts(rep['facts']).shown} -m pip"


def text(view: fleet.Fleet, verbose: bool = False) -> str:
    import io

    buf = io.StringIO()
    rfleet.render(view, make_console(buf, width=80), verbose=verbose)
    return buf.getvalue()


# ---- aggregation and the majority ---------------------------------------------------------------

def test_identical_members_match_and_pass():
    view = fleet.build(members(on_host(cpu_report(), "a"), on_host(cpu_report(), "b")))
    assert view.findings == []
    assert view.exit_code == 0
    assert [m.label for m in view.members] == ["a", "b"]
    rows = view.rows()
    assert [(r["member"].label, r["device"], r["cells"]["sdpa"], r["cells"]["cute"]) for r in rows] == \
        [("a", "cpu", "ok", "-"), ("b", "cpu", "ok", "-")]


def test_the_minority_is_named_against_the_majority():
    reps = [on_host(cpu_report(), h) for h in ("n1", "n2", "n3")]
    with_torch(reps[1], "2.12.0+cpu")
    view = fleet.build(members(*reps))
    (f,) = view.findings
    assert f.id == "fleet.torch-differs" and f.severity == "error"
    assert f.params["hosts"] == "n2" and f.params["value"] == "2.12.0+cpu"
    assert f.params["reference"] == "2.13.0+cpu" and f.params["ref_hosts"] == "n1, n3"
    assert "(2 of 3 members)" in f.title
    assert f.fix.startswith(f"{pip(reps[1])} install 'torch==2.13.0+cpu'   # the cpu build: from PyTorch's wheel index for cpu")
    assert f.fix.endswith("on n2")
    assert view.exit_code == 1


def test_two_members_that_disagree_have_no_direction():
    """Two members that disagree on a variable: no majority, and how many backends work says nothing
    about a variable: the finding says to make them the same, with the line for each side, and
    reads the same whichever member comes first (rank 0 is no reference)."""
    a, b = on_host(cpu_report(), "h", rank=0), with_env(on_host(cpu_report(), "h", rank=1),
                                                         "PYTORCH_CUDA_ALLOC_CONF", "expandable_segments:True")
    view = fleet.build(members(b, a))  # given out of order: ranks decide the order of the rows
    assert [m.label for m in view.members] == ["h/r0", "h/r1"]
    (f,) = view.findings
    assert f.id == "fleet.env-extra" and f.severity == "warning"
    assert f.title == ("PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True is set on h/r1, but not on h/r0 "
                       "(no majority: make them the same).")
    assert f.fix == ("unset PYTORCH_CUDA_ALLOC_CONF   # on h/r1; or set it on every rank, in the job script; "
                     "or, on h/r0: export PYTORCH_CUDA_ALLOC_CONF='expandable_segments:True'")
    assert view.exit_code == 0  # a warning
    assert fleet.build(members(a, b), strict=True).exit_code == 1
    # the same two as plain reports (no ranks), in either order: the same finding
    c, d = on_host(cpu_report(), "c"), with_env(on_host(cpu_report(), "d"), "PYTORCH_CUDA_ALLOC_CONF", "x")
    assert fleet.build(members(c, d)).findings == fleet.build(members(d, c)).findings


def test_two_against_two_is_a_tie_in_any_order():
    reps = [on_host(cpu_report(), f"n{i}") for i in range(4)]
    for r in reps[2:]:
        with_env(r, "TORCHINDUCTOR_CACHE_DIR", "/scratch/inductor")
    with_env(reps[0], "TORCHINDUCTOR_CACHE_DIR", "/home/u/.cache/inductor")
    with_env(reps[1], "TORCHINDUCTOR_CACHE_DIR", "/home/u/.cache/inductor")
    (f,) = fleet.build(members(*reps)).findings
    assert f.id == "fleet.env-differs"
    assert (f.params["value"], f.params["hosts"]) == ("/scratch/inductor", "n2, n3")
    assert (f.params["reference"], f.params["ref_hosts"]) == ("/home/u/.cache/inductor", "n0, n1")
    assert f.title.endswith("(no majority: make them the same).")
    assert f.fix.startswith("export TORCHINDUCTOR_CACHE_DIR='/home/u/.cache/inductor'   # on n2, n3")
    assert f.fix.endswith("; or, on n0, n1: export TORCHINDUCTOR_CACHE_DIR='/scratch/inductor'")
    # the same members in the other order: the same finding (the first group is no reference)
    assert fleet.build(members(*reps[2:], *reps[:2])).findings == [f]
    assert fleet.build(members(reps[3], reps[0], reps[2], reps[1])).findings == [f]


def test_many_members_one_differs_and_names_are_capped():
    reps = [on_host(cpu_report(), "node", rank=r) for r in range(8)]
    with_package(reps[5], "flash-attn-4", "4.0.0b36")
    view = fleet.build(members(*reps))
    (f,) = view.findings
    assert f.id == "fleet.package-extra"
    assert f.params["hosts"] == "node/r5"
    assert f.params["ref_hosts"] == "node/r0, node/r1, node/r2 and 4 more"
    assert f.title.endswith("(7 of 8 members).")
    # cute is not ok there (only its package was added): nothing that works is removed
    assert f.fix.startswith(f"{pip(reps[5])} uninstall -y flash-attn-4   # on node/r5")


def test_a_package_missing_on_one_member():
    reps = [with_package(on_host(cpu_report(), h), "xformers", "0.0.35") for h in ("a", "b", "c")]
    with_package(reps[2], "xformers", None)
    (f,) = fleet.build(members(*reps)).findings
    assert f.id == "fleet.package-differs"
    assert (f.params["value"], f.params["reference"]) == ("not installed", "0.0.35")
    assert f.fix == f"{pip(reps[2])} install 'xformers==0.0.35'   # on c"


def test_per_rank_variables_are_never_differences():
    """torchrun and srun give each rank its own RANK, LOCAL_RANK, TORCHELASTIC_* and SLURM_*."""
    reps = []
    for r in range(3):
        rep = on_host(cpu_report(), "h", rank=r)
        for var in ("RANK", "LOCAL_RANK", "SLURM_PROCID", "CUDA_VISIBLE_DEVICES"):
            with_env(rep, var, str(r))
        with_env(rep, "TORCHELASTIC_ERROR_FILE", f"/tmp/err{r}.json")
        reps.append(rep)
    assert fleet.build(members(*reps)).findings == []


def test_a_backend_not_selected_on_one_member_is_not_compared_there():
    """FAKES `check --backend sdpa` on member b: its other backends are 'skipped'; c has flex broken."""
    a, b, c = (on_host(cpu_report(), h) for h in "abc")
    for name in ("flex", "cute", "fa2", "fa3", "sage", "xformers"):
        with_status(b, name, "skipped", "not selected (--backend)")
    with_status(c, "flex", "broken")
    (f,) = fleet.build(members(a, b, c)).findings
    assert f.id == "fleet.backend-differs" and f.backend == "flex"
    assert f.params["hosts"] == "c" and f.params["ref_hosts"] == "a"
    assert f.title.endswith("(1 of 2 members, where it is ok).")


def test_torch_build_differs_only_when_the_version_is_the_same():
    """A source build of one torch version, built for two CUDA versions: no wheel tag tells them apart."""
    reps = [with_torch(on_host(cpu_report(), h), "2.11.0", cuda="13.0") for h in ("a", "b", "c")]
    with_torch(reps[0], "2.11.0", cuda="12.8")
    (f,) = fleet.build(members(*reps)).findings
    assert f.id == "fleet.torch-build-differs"
    assert (f.params["value"], f.params["reference"]) == ("CUDA 12.8", "CUDA 13.0")
    assert "'torch==2.11.0+cu130'" in f.fix
    # versions that differ already say it: no second finding about the build; the pin is the
    # reference's version and build, from its probe (the metadata version has no +cu130)
    with_torch(reps[0], "2.10.0", cuda="12.8")
    (g,) = fleet.build(members(*reps)).findings
    assert g.id == "fleet.torch-differs" and "'torch==2.11.0+cu130'" in g.fix


def test_backend_status_python_driver_gpu_and_doctor_differences():
    """FAKES on member c: cute broken, Python 3.12, another driver, an A100 (a GPU row from nvidia-smi),
    and another attn-doctor version."""
    reps = [on_host(cpu_report(), h) for h in ("a", "b", "c")]
    for r in reps:
        r["facts"]["driver"]["driver"] = "580.159.04"
        r["facts"]["driver"]["gpus"] = [{"index": 0, "name": "NVIDIA H200", "capability": [9, 0]}]
    c = reps[2]
    with_status(c, "cute", "broken")
    reps[0]["backends"]["cute"]["status"] = reps[1]["backends"]["cute"]["status"] = "ok"
    c["facts"]["system"]["python"] = "3.12.3"
    c["facts"]["driver"]["driver"] = "570.86.15"
    c["facts"]["driver"]["gpus"] = [{"index": 0, "name": "NVIDIA A100-SXM4-80GB", "capability": [8, 0]}]
    c["facts"]["tool_version"] = "0.0.9"
    view = fleet.build(members(*reps))
    got = {f.id: f for f in view.findings}
    assert set(got) == {"fleet.backend-differs", "fleet.python-differs", "fleet.driver-differs",
                        "fleet.gpu-differs", "fleet.doctor-differs"}
    assert got["fleet.backend-differs"].backend == "cute"
    assert got["fleet.backend-differs"].title.startswith("cute is broken on c, but ok on a, b")
    assert got["fleet.python-differs"].params["value"] == "3.12"
    assert got["fleet.gpu-differs"].params["value"] == "NVIDIA A100-SXM4-80GB sm80"
    assert got["fleet.gpu-differs"].params["reference"] == "NVIDIA H200 sm90"
    assert got["fleet.driver-differs"].severity == "warning"
    assert got["fleet.doctor-differs"].severity == "info"
    assert view.exit_code == 1  # backend and Python differences are errors


def every_fleet_finding() -> list:
    """FAKES, across three small fleets: another torch, package versions, an env var set on one
    member and changed on another, a failing member, a missing rank, a rank that sent an error,
    a failed exchange, a member with another Python, driver, GPU, torch build, cute status and
    attn-doctor version, and a member without the FA4 stack the others have. (tests/test_fix_lines.py
    pastes their fix lines too.)"""
    reps = [on_host(cpu_report(), h, rank=i) for i, h in enumerate("abc")]
    with_torch(reps[1], "2.12.0")
    for r in reps:
        with_package(r, "einops", "0.8.1")
    with_package(reps[1], "einops", "0.7.0")
    with_package(reps[2], "xformers", "0.0.35")
    with_env(reps[2], "NCCL_NVLS_ENABLE", "1")
    with_env(reps[0], "TRITON_CACHE_DIR", "/a")
    with_env(reps[1], "TRITON_CACHE_DIR", "/a")
    with_env(reps[2], "TRITON_CACHE_DIR", "/b")
    failing(reps[0])
    found = fleet.build(members(*reps), missing=[{"rank": 3, "world_size": 4, "seconds": 60}], world_size=4).findings
    found += fleet.build([fleet.member(None, "rank 1", host="h", rank=1, error="OSError: x")]).findings
    found += fleet.build(members(cpu_report()), exchange_error={"error": "DistNetworkError: refused",
                                                                "addr": "10.0.0.1"}).findings
    other = [on_host(cpu_report(), h) for h in "xyz"]
    for r in other:
        with_torch(r, "2.11.0", cuda="13.0")
        r["facts"]["driver"].update(driver="580.159.04", gpus=[{"index": 0, "name": "NVIDIA H200", "capability": [9, 0]}])
    z = other[2]
    with_torch(z, "2.11.0", cuda="12.8")
    z["facts"]["system"]["python"] = "3.12.3"
    z["facts"]["driver"].update(driver="570.86.15", gpus=[{"index": 0, "name": "NVIDIA A100", "capability": [8, 0]}])
    with_status(z, "sdpa", "broken")
    z["facts"]["tool_version"] = "0.0.9"
    found += fleet.build(members(*other)).findings
    stack = [on_host(cpu_report(), h) for h in "pqr"]  # FA4 and quack-kernels on p and q, not on r
    for r in stack[:2]:
        with_package(with_package(r, "flash-attn-4", "4.0.0b36"), "quack-kernels", "0.6.5")
    found += fleet.build(members(*stack)).findings
    return found


def test_every_fleet_entry_fires_and_renders_fully():
    """Each fleet.* knowledge entry fires from the fleet code, with no {placeholder} or None left."""
    import re

    found = every_fleet_finding()
    fleet_ids = {e.id for e in knowledge.entries().values() if e.section == "fleet"}
    assert {f.id for f in found} == fleet_ids
    for f in found:
        assert f.section == "fleet" and f.severity == knowledge.get(f.id).severity
        for s in (f.title, f.fix):
            assert s and not re.search(r"\{\w+\}", s) and "None" not in s, (f.id, s)


# ---- members that fail, ranks that are missing --------------------------------------------------

def test_a_failing_member_fails_the_fleet():
    view = fleet.build(members(on_host(cpu_report(), "a"), failing(on_host(cpu_report(), "b"))))
    assert view.exit_code == 1
    (f,) = [f for f in view.findings if f.id == "fleet.member-failed"]
    assert f.params["member"] == "b" and f.params["ids"] == "import.failed"
    # the member's own finding is shown once, with who has it
    out = text(view)
    assert "FlashAttention-4 (CuTe) 4.0.0b36 is installed but does not import." in out
    assert "on b\n" in out


def test_strict_turns_members_warnings_into_failures():
    view = fleet.build(members(on_host(cpu_report(), "a"), on_host(cpu_report(), "b")), strict=True)
    assert ids(view) == ["fleet.member-failed", "fleet.member-failed"]
    assert view.findings[0].params["ids"] == "cache.volatile, torch.cpu-build"
    assert view.exit_code == 1


def test_missing_rank_is_an_error_and_a_row():
    view = fleet.build(members(on_host(cpu_report(), "h", rank=0)),
                       missing=[{"rank": 1, "world_size": 2, "seconds": 30.0, "why": "no report"}], world_size=2)
    (f,) = view.findings
    assert f.id == "fleet.rank-missing"
    assert f.title == "Rank 1 of 2 did not report within 30 s: it died, hung, or never started."
    assert "--gather-timeout 60" in f.fix
    assert view.exit_code == 1
    out = text(view)
    assert "rank 1" in out and "MISSING" in out and "1 missing - exit 1" in " ".join(out.split())


def test_a_rank_that_sent_an_error_instead_of_a_report():
    view = fleet.build([fleet.member(cpu_report(), "rank 0", rank=0),
                        fleet.member(None, "rank 1", host="gpu7", rank=1, error="PermissionError: /proc")])
    assert view.members[1].label == "gpu7/r1"
    (f,) = view.findings
    assert f.id == "fleet.rank-error" and "PermissionError: /proc" in f.title
    assert "no report" in text(view)
    assert view.exit_code == 1


def test_an_exchange_that_failed_is_one_finding_not_one_per_rank():
    missing = [{"rank": k, "world_size": 4, "seconds": 0, "why": "not gathered"} for k in (1, 2, 3)]
    view = fleet.build(members(cpu_report()), missing=missing,
                       exchange_error={"error": "DistNetworkError: address in use", "addr": "gpu1"})
    assert ids(view) == ["fleet.exchange-failed"]
    assert "export MASTER_ADDR=gpu1" in view.findings[0].fix
    assert view.exit_code == 1
    assert text(view).count("MISSING") == 3


def test_same_host_twice_is_told_apart_by_file():
    view = fleet.build([fleet.member(cpu_report(), "/x/before.json"), fleet.member(cpu_report(), "/y/after.json")])
    assert [m.label for m in view.members] == ["vm [before.json]", "vm [after.json]"]
    out = text(view)
    assert "vm [before.json]" in out  # not eaten as markup


def test_fleet_json_round_trips_through_merge(tmp_path):
    reps = [on_host(cpu_report(), "a", rank=0), with_env(on_host(cpu_report(), "a", rank=1), "FA_X", "1")]
    view = fleet.build(members(*reps), missing=[{"rank": 2, "world_size": 3, "seconds": 5, "why": "no report"}])
    p = tmp_path / "fleet.json"
    p.write_text(rfleet.dumps(view))
    doc = json.loads(p.read_text())
    assert doc["schema"] == "attn-doctor.fleet/1" and doc["exit_code"] == 1
    assert [m["label"] for m in doc["members"]] == ["a/r0", "a/r1"]
    assert {d["member"] for d in doc["devices"]} == {"a/r0", "a/r1"}
    again = fleet.merge([str(p)])
    assert [m.label for m in again.members] == ["a/r0", "a/r1"]
    assert sorted(ids(again)) == sorted(ids(view))
    assert again.missing[0]["rank"] == 2


# ---- GPUs: a row each ----------------------------------------------------------------------------

def test_fleet_rows_use_each_gpus_own_capability():
    facts = two_gpu_facts()
    report = evaluate(facts, Context(smoke=True)).to_dict()
    view = fleet.build([fleet.member(report, "node.json")])
    assert [(r["device"], r["cap"], r["cells"]["cute"]) for r in view.rows()] == [("0", "sm90", "ok"), ("1", "sm75", "n/a")]
    # a distributed rank speaks for its own GPU only
    report["options"]["distributed"] = {"rank": 1, "host": "vm", "device": "1"}
    (row,) = fleet.build([fleet.member(report, "rank 1")]).rows()
    assert row["device"] == "1"


# ---- the merge command -------------------------------------------------------------------------

def cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "attn_doctor", *args], capture_output=True, text=True,
                          timeout=120, cwd=cwd, env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})


def test_merge_cli_exit_codes_and_json(tmp_path):
    a = tmp_path / "a.json"
    b = tmp_path / "b.json"
    a.write_text(json.dumps(on_host(cpu_report(), "a")))
    b.write_text(json.dumps(with_env(on_host(cpu_report(), "b"), "CUDA_HOME", "/usr/local/cuda-12.8")))
    r = cli("merge", str(a), str(b))
    assert r.returncode == 0, r.stderr
    assert "CUDA_HOME=/usr/local/cuda-12.8 is set on b, but not on a" in r.stdout.replace("\n          ", " ")
    assert r.stdout.rstrip().endswith("exit 0")
    assert cli("merge", "--strict", str(a), str(b)).returncode == 1
    r = cli("merge", str(a), str(b), "--json", "-")
    doc = json.loads(r.stdout)
    assert doc["schema"] == "attn-doctor.fleet/1" and doc["exit_code"] == r.returncode == 0
    c = tmp_path / "c.json"
    c.write_text(json.dumps(failing(on_host(cpu_report(), "c"))))
    assert cli("merge", str(a), str(b), str(c)).returncode == 1


@pytest.mark.parametrize("content, msg", [
    ("not json at all", "is not JSON"),
    ('{"schema": "something/1"}', "is not an attn-doctor report"),
    ("[1, 2]", "is not an attn-doctor report"),
    (None, "cannot read"),
])
def test_merge_bad_input_is_one_line_and_exit_2(tmp_path, content, msg):
    p = tmp_path / "r.json"
    if content is not None:
        p.write_text(content)
    r = cli("merge", str(NO_SMOKE), str(p))
    assert r.returncode == 2
    assert r.stderr.startswith("attn-doctor: error:") and r.stderr.count("\n") == 1 and msg in r.stderr
    assert "Traceback" not in r.stderr


def test_merge_with_no_file_is_usage_error():
    r = cli("merge")
    assert r.returncode == 2 and "Traceback" not in r.stderr


def test_merge_reads_the_captured_torchrun_fleet():
    """The REAL two-rank run on the CPU VM (fixtures/fleet/README.md): rank 1 had PYTORCH_CUDA_ALLOC_CONF."""
    doc = json.loads(TORCHRUN.read_text())
    assert [m["label"] for m in doc["members"]] == ["vm/r0", "vm/r1"]
    view = fleet.merge([str(TORCHRUN)])
    (f,) = view.findings
    assert f.id == "fleet.env-extra" and f.params["var"] == "PYTORCH_CUDA_ALLOC_CONF"
    assert f.params["hosts"] == "vm/r1" and view.exit_code == doc["exit_code"] == 0
    # the fleet file and a plain report (not under torchrun) merge into one fleet of three; what
    # torchrun sets for its workers (TORCH_NCCL_ASYNC_ERROR_HANDLING, RANK...) is no difference
    view = fleet.merge([str(TORCHRUN), str(NO_SMOKE)])
    assert [m.label for m in view.members] == ["vm/r0", "vm/r1", "vm"]
    assert [(f.id, f.params["hosts"]) for f in view.findings] == [("fleet.env-extra", "vm/r1")]


def test_every_fleet_entry_is_in_knowledge():
    """Ids the fleet code names literally exist in knowledge (a typo would crash at run time)."""
    import re

    src = "".join(p.read_text() for p in (ROOT / "attn_doctor" / "fleet").glob("*.py"))
    assert '"fleet.stack-differs"' in src  # the files that name them are read
    named = set(re.findall(r'"(fleet\.[a-z-]+)"', src)) | {f"fleet.{k}-differs" for k in
                                                           ("python", "driver", "gpu", "doctor", "torch-build")}
    assert named - set(knowledge.entries()) == set()
