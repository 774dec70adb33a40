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
    assert f.id == "fleet.env-differs" and f.severity == "warning"
    assert f.title == ("PYTORCH_CUDA_ALLOC_CONF is unset on h/r0, but expandable_segments:True on h/r1 "
                       "(no majority: make them the same).")
    # the first line sets, never removes; the other side's line rides in its comment
    assert f.fix == ("export PYTORCH_CUDA_ALLOC_CONF='expandable_segments:True'   # on h/r0; or one value on every "
                     "rank (set it in the job script, not in one shell); or, on h/r1: unset PYTORCH_CUDA_ALLOC_CONF")
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
    attn-doctor version, a member without the FA4 stack the others have, and two members that
    disagree with no majority. (tests/test_fix_lines.py pastes their fix lines too.)"""
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
    tie = [with_package(on_host(cpu_report(), h), "einops", v) for h, v in (("s", "0.8.1"), ("t", "0.7.0"))]
    with_env(tie[0], "TRITON_CACHE_DIR", "/s")
    found += fleet.build(members(*tie)).findings  # no majority: each fix gives both lines
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
    assert "CUDA_HOME is unset on a, but /usr/local/cuda-12.8 on b (no majority: make them the same)" in \
        " ".join(r.stdout.split())
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
    (f,) = view.findings  # two ranks, one with the variable: no majority, make them the same
    assert f.id == "fleet.env-differs" and f.params["var"] == "PYTORCH_CUDA_ALLOC_CONF"
    assert f.params["hosts"] == "vm/r0" and f.fix.endswith("or, on vm/r1: unset PYTORCH_CUDA_ALLOC_CONF")
    assert view.exit_code == doc["exit_code"] == 0
    # the fleet file and a plain report (not under torchrun) merge into one fleet of three; what
    # torchrun sets for its workers (TORCH_NCCL_ASYNC_ERROR_HANDLING, RANK...) is no difference
    view = fleet.merge([str(TORCHRUN), str(NO_SMOKE)])
    assert [m.label for m in view.members] == ["vm/r0", "vm/r1", "vm"]
    assert [(f.id, f.params["hosts"]) for f in view.findings] == [("fleet.env-extra", "vm/r1")]


def test_every_fleet_entry_is_in_knowledge():
    """Ids the fleet code names literally exist in knowledge (a typo would crash at run time)."""
    import re

    src = "".join((ROOT / "attn_doctor" / "fleet" / name).read_text() for name in ("__init__.py", "differ.py"))
    assert '"fleet.stack-differs"' in src  # the files that name them are read
    named = set(re.findall(r'"(fleet\.[a-z-]+)"', src)) | {f"fleet.{k}-differs" for k in
                                                           ("python", "driver", "gpu", "doctor", "torch-build")}
    assert named - set(knowledge.entries()) == set()


# ---- order-free and never destructive (issue 20, item 3) ------------------------------------------
# The reports of ../shared/reports/new-user-2026-11-24.md row 6, all REAL (see each README):
GPU2 = FIX / "gpu2-check.json"  # 2 x H200, sdpa and flex ok, no FA4 or Sage (2026-11-22)
H100 = ROOT / "fixtures" / "gpu" / "h100-issues11-16" / "sixteen" / "check.json"  # H100, FA4 stack and Sage ok
CUDA_NO_GPU = ROOT / "fixtures" / "cuda-no-gpu" / "check-no-smoke.json"  # torch 2.13.0+cu130, no GPU
# The report's `local.json` was the CPU VM's CPU torch (NO_SMOKE here) and `cuda.json` a cu130 torch on
# that VM (CUDA_NO_GPU here): the same kinds of member, captured by the project.
FA4_PINS = ["'flash-attn-4==4.0.0b36'", "'quack-kernels==0.6.5'", "'nvidia-cutlass-dsl==4.8.1'",
            "'nvidia-cutlass-dsl-libs-base==4.8.1'", "'nvidia-cutlass-dsl-libs-core==4.8.1'",
            "'nvidia-cutlass-dsl-libs-cu13==4.8.1'", "'apache-tvm-ffi==0.1.15.post2'", "'torch-c-dlpack-ext==0.1.5'"]


def load(path) -> dict:
    return json.loads(Path(path).read_text())


def findings_part(out: str) -> str:
    """The merge output from its fleet findings on (the members table follows the argument order)."""
    return out[out.index("\nFleet\n"):]


def fix_lines(out: str) -> list[str]:
    return [ln.strip() for ln in out.splitlines() if ln.strip().startswith("fix: ")]


def test_row6_gpu_reports_merge_the_same_in_both_orders_and_remove_nothing():
    """Row 6: `merge gpu2-check.json sixteen/check.json` told the H100, where FA4 and Sage pass their
    smoke tests, to uninstall them (11 errors), and the other order said the opposite."""
    ab = cli("merge", str(GPU2.relative_to(ROOT)), str(H100.relative_to(ROOT)), cwd=ROOT)
    ba = cli("merge", str(H100.relative_to(ROOT)), str(GPU2.relative_to(ROOT)), cwd=ROOT)
    assert ab.returncode == ba.returncode == 1, ab.stderr
    assert findings_part(ab.stdout) == findings_part(ba.stdout)
    out = ab.stdout
    flat = " ".join(out.split())
    assert "uninstall" not in out
    assert flat.count("[fleet.stack-differs]") == 1 and "[fleet.package-extra]" not in flat
    (stack,) = [ln for ln in fix_lines(out) if "flash-attn-4" in ln]
    # one pinned line for the whole stack, run by the H200 host's own interpreter, on that host only
    assert stack.startswith("fix: /opt/torch/.venv/bin/python3 -m pip install " + " ".join(FA4_PINS) + "   # on ")
    assert stack.endswith("# on vm [gpu2-check.json]")
    assert "fix: /opt/torch/.venv/bin/python3 -m pip install 'sageattention==1.0.6'   # on vm [gpu2-check.json]" in out
    # cute and sage missing there is said by the lines that install them: no backend-differs besides
    assert "[fleet.backend-differs]" not in flat
    assert "2 error(s)" in flat


def test_row6_with_cpu_reports_the_gpu_host_is_never_told_to_copy_them():
    """Row 6 with CPU reports added: a CPU torch was proposed for the H100, `pip uninstall -y
    triton` on it, and 'keep the job on one GPU type (no GPU)'."""
    args = [str(NO_SMOKE), str(CUDA_NO_GPU), str(H100)]
    r = cli("merge", *args, "--json", "-")
    doc = json.loads(r.stdout)
    assert r.returncode == doc["exit_code"] == 1
    labels = {m["source"]: m["label"] for m in doc["members"]}
    gpu, cpus = labels[str(H100)], [labels[str(NO_SMOKE)], labels[str(CUDA_NO_GPU)]]
    assert doc["findings"]
    for f in doc["findings"]:
        p = f["params"]
        assert gpu not in p.get("hosts", ""), f  # the H100 is never the member told to change
        for cpu in cpus:  # a CPU-only member is named as such wherever a finding names it
            for where in (p.get("hosts", ""), p.get("ref_hosts", "")):
                assert cpu not in where or f"{cpu} (CPU-only)" in where, (f["id"], where)
        assert "uninstall" not in f["fix"] and "+cpu'" not in f["fix"] and "(no GPU)" not in f["fix"]
        assert "/opt/torch/.venv/bin/python3" not in f["fix"] and "/opt/torch/.venv/bin/python3" not in p.get("plan", "")
    assert sum(f["id"] == "fleet.stack-differs" for f in doc["findings"]) == 1
    text_out = cli("merge", *args).stdout
    assert "(CPU-only)" in text_out and "a CPU-only member is never the model for GPU hosts" in " ".join(text_out.split())
    again = cli("merge", *reversed(args))
    assert findings_part(again.stdout) == findings_part(text_out)


def _fresh(reports: list[tuple[dict, str]]) -> list[fleet.Member]:
    return [fleet.member(copy.deepcopy(rep), src) for rep, src in reports]


def _outcome(view: fleet.Fleet) -> tuple:
    return ([f.to_dict() for f in view.findings], [(f.to_dict(), labels) for f, labels in rfleet.grouped(view)],
            view.exit_code)


def _faked_fleet() -> list[tuple[dict, str]]:
    """FAKES four CPU-VM members: another torch on n1; einops at three versions; an FA4 stack whose
    backend works (cute ok) on n2 only; xformers on n3 where it does not work; PYTHONPATH differing
    two against two; a member that fails its own check."""
    reps = [on_host(cpu_report(), f"n{i}") for i in range(4)]
    with_torch(reps[1], "2.12.0+cpu")
    for r, v in zip(reps, ("0.8.1", "0.8.1", "0.7.0", None)):
        with_package(r, "einops", v)
    for name, v in (("flash-attn-4", "4.0.0b36"), ("quack-kernels", "0.6.5"), ("nvidia-cutlass-dsl", "4.8.1")):
        with_package(reps[2], name, v)
    with_status(reps[2], "cute", "ok")
    with_package(reps[3], "xformers", "0.0.35")
    for r, v in zip(reps, ("/a", "/b", "/a", "/b")):
        with_env(r, "PYTHONPATH", v)
    failing(reps[0])
    return [(r, f"/r/{r['facts']['system']['hostname']}.json") for r in reps]


def _three_way_tie() -> list[tuple[dict, str]]:
    """FAKES three members that each have another torch and another TRITON_CACHE_DIR."""
    reps = [on_host(cpu_report(), h) for h in ("x", "y", "z")]
    for r, v in zip(reps, ("2.11.0+cpu", "2.12.0+cpu", "2.13.0+cpu")):
        with_torch(r, v)
    for r, v in zip(reps, ("/c1", "/c2", None)):
        with_env(r, "TRITON_CACHE_DIR", v)
    return [(r, f"/t/{r['facts']['system']['hostname']}.json") for r in reps]


def _real_four() -> list[tuple[dict, str]]:
    return [(load(p), str(p)) for p in (GPU2, H100, NO_SMOKE, CUDA_NO_GPU)]


@pytest.mark.parametrize("make", [_real_four, _faked_fleet, _three_way_tie])
def test_every_finding_is_the_same_in_every_order(make):
    """All permutations of 3-4 reports give the same fleet findings, the same members' findings
    (each once, with who has it) and the same exit code."""
    import itertools

    reports = make()
    first = _outcome(fleet.build(_fresh(reports)))
    assert first[0]
    for order in itertools.permutations(reports):
        assert _outcome(fleet.build(_fresh(list(order)))) == first, [src for _, src in order]


def test_a_stack_that_works_on_the_minority_is_installed_on_the_others():
    """FAKES the FA4 stack on c only. Where cute works there (status ok), removing it would break
    it: the direction flips, one pinned line for the others. Where cute does not work on c, the
    stack is removed there, in one line."""
    reps = [on_host(cpu_report(), h) for h in "abc"]
    for name, v in (("flash-attn-4", "4.0.0b36"), ("quack-kernels", "0.6.5"), ("apache-tvm-ffi", "0.1.15.post2")):
        with_package(reps[2], name, v)
    with_status(reps[2], "cute", "ok")
    (f,) = [f for f in fleet.build(members(*reps)).findings if f.id != "fleet.backend-differs"]
    assert f.id == "fleet.stack-differs" and f.backend == "cute"
    assert f.params["hosts"] == "a, b" and f.params["ref_hosts"] == "c"
    assert f.title.endswith("(1 of 3 members; the other way would break what works on c).")
    assert f.fix == (f"{pip(reps[0])} install 'flash-attn-4==4.0.0b36' 'quack-kernels==0.6.5' "
                     "'apache-tvm-ffi==0.1.15.post2'   # on a, b")
    with_status(reps[2], "cute", "missing")
    (g,) = fleet.build(members(*reps)).findings
    assert g.id == "fleet.stack-differs" and g.params["hosts"] == "c"
    assert g.fix == f"{pip(reps[2])} uninstall -y flash-attn-4 quack-kernels apache-tvm-ffi   # on c"


def test_a_package_a_working_backend_requires_is_not_removed():
    """FAKES einops on c, where FA4 works and its metadata requires einops; a and b have neither.
    einops is no FA4 package by name (advice.NEEDS), but removing it would break FA4 there."""
    reps = [on_host(cpu_report(), h) for h in "abc"]
    with_package(with_package(reps[2], "flash-attn-4", "4.0.0b36"), "einops", "0.8.2")
    reps[2]["facts"]["packages"]["stack"]["flash-attn-4"]["requires"] = ["einops", "pytest; extra == 'dev'"]
    with_status(reps[2], "cute", "ok")
    got = {f.params.get("package"): f for f in fleet.build(members(*reps)).findings if f.id.startswith("fleet.package")}
    assert got["einops"].id == "fleet.package-differs" and got["einops"].params["hosts"] == "a, b"
    assert "install 'einops==0.8.2'" in got["einops"].fix and "uninstall" not in got["einops"].fix


def test_more_backends_ok_breaks_a_tie_and_an_equal_tie_gives_both_lines():
    """FAKES einops 0.8.1 on a and 0.7.0 on b; then sage ok on b only (one more backend ok there)."""
    a = with_package(on_host(cpu_report(), "a"), "einops", "0.8.1")
    b = with_package(on_host(cpu_report(), "b"), "einops", "0.7.0")
    (f,) = fleet.build(members(a, b)).findings
    assert f.title.endswith("(no majority, and as many backends ok on each side: make them the same).")
    assert f.fix == (f"{pip(a)} install 'einops==0.7.0'   # on a; or, on b: {pip(b)} install 'einops==0.8.1'")
    assert fleet.build(members(b, a)).findings == [f]
    with_status(b, "sage", "ok")  # (and so a sage difference too)
    (g,) = [f for f in fleet.build(members(a, b)).findings if f.id == "fleet.package-differs"]
    assert (g.params["hosts"], g.params["ref_hosts"]) == ("a", "b")
    assert g.title.endswith("(1 of 2 members, with more backends ok there: 3 against 2 per member).")
    assert g.fix == f"{pip(a)} install 'einops==0.7.0'   # on a"
    assert g in fleet.build(members(b, a)).findings


def test_torch_is_not_moved_under_a_compiled_backend_that_works():
    """FAKES torch 2.10.0+cpu on a, where FA2 (built against it) works; b and c have 2.13.0+cpu and
    no compiled backend. Moving a's torch would break FA2: b and c take a's torch instead."""
    reps = [on_host(cpu_report(), h) for h in "abc"]
    with_status(with_torch(reps[0], "2.10.0+cpu"), "fa2", "ok")
    (f,) = [f for f in fleet.build(members(*reps)).findings if f.id == "fleet.torch-differs"]
    assert f.params["hosts"] == "b, c" and f.params["ref_hosts"] == "a"
    assert f.fix.startswith(f"{pip(reps[1])} install 'torch==2.10.0+cpu'")
    assert "would break what works on a" in f.title


def test_each_member_gets_the_line_for_its_own_interpreter():
    """FAKES five members; b and c lack the xformers the others have, and have their venvs at other
    paths (xformers is not ok anywhere: the majority decides)."""
    reps = [with_package(on_host(cpu_report(), h), "xformers", "0.0.35") for h in "abc"]
    for r, where in ((reps[1], "/opt/b/venv/bin/python"), (reps[2], "/opt/c/venv/bin/python")):
        with_package(r, "xformers", None)
        r["facts"]["system"]["python_executable"] = where
    reps += [with_package(on_host(cpu_report(), h), "xformers", "0.0.35") for h in "de"]
    (f,) = fleet.build(members(*reps)).findings
    assert f.params["hosts"] == "b, c"
    assert f.fix == "/opt/b/venv/bin/python -m pip install 'xformers==0.0.35'   # on b"
    assert f.params["plan"] == "/opt/c/venv/bin/python -m pip install 'xformers==0.0.35'   # on c"
    out = text(fleet.build(members(*reps)))
    assert "/opt/c/venv/bin/python -m pip install 'xformers==0.0.35'   # on c" in out


def test_a_cpu_only_majority_is_not_the_model_for_a_gpu_host():
    """Two CPU VMs (REAL report, FAKED host names) and the REAL H100: the CPU members are the
    majority but never the model; each is named CPU-only."""
    reps = [on_host(cpu_report(), "dev1"), on_host(cpu_report(), "dev2")]
    view = fleet.build(members(*reps) + [fleet.member(load(H100), str(H100))])
    assert view.findings
    for f in view.findings:
        assert "vm" not in f.params.get("hosts", "") and "+cpu'" not in (f.fix or "")
        assert f.params.get("hosts") in (None, "dev1 (CPU-only), dev2 (CPU-only)"), f.params.get("hosts")
    torch = next(f for f in view.findings if f.id == "fleet.torch-differs")
    assert torch.params["reference"] == "2.11.0" and "'torch==2.11.0+cu130'" in torch.fix
    gpu = next(f for f in view.findings if f.id == "fleet.gpu-differs")
    assert "keep the job on one GPU type (NVIDIA H100 80GB HBM3 sm90)" in gpu.fix
    assert not any(f.id == "fleet.driver-differs" for f in view.findings)  # no GPU, no driver to compare
