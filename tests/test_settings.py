"""Settings that slow a job down or switch a backend off (issue 22): every row of the [[setting]] table
in knowledge/settings.toml, set -> named with its value; unset or set to a value its reader takes as
off -> silent. A smoke failure such a setting causes is tied to it; Flex that passed without
compiling is not silent.

WHAT IS FAKED: the facts (tests/fakefacts.py's healthy H200 box, with the environment variable and the
smoke results each test names). system.env_snapshot runs for real on a dict.
"""

from __future__ import annotations

import pytest

import fakefacts as ff
from attn_doctor import envfile, knowledge
from attn_doctor.checks.settings import is_on, table
from attn_doctor.facts.system import env_snapshot

# A value that switches each reader on, and values it reads as off.
ON = {"1": "1", "any": "1", "nonempty": "1", "triton": "1", "0": "0", "eager": "EAGER", "small-workspace": ":16:8",
      "debug-logs": "+dynamo,recompiles"}
OFF = {"1": ["0", ""], "nonempty": ["", "0"], "triton": ["0", "false", "off"], "0": ["1"], "eager": ["LAZY"],
       "small-workspace": [":4096:8", ":4096:2:16:8", "garbage"], "any": [], "debug-logs": ["recompiles,graph_breaks"]}
ROWS = table()


def setting_ids(report) -> list[str]:
    rows = {r["entry"] for r in ROWS}
    return [f.id for f in report.findings if f.id in rows]


def test_the_table_is_whole():
    """Every row names a real entry, a known reader, and backends the doctor knows; every entry it names
    says where it came from."""
    from attn_doctor.model import BACKENDS

    assert len(ROWS) >= 18
    for r in ROWS:
        e = knowledge.get(r["entry"])
        assert r["read"] in ON, r
        assert set(r["breaks"]) | set(r["fails"]) <= set(BACKENDS), r
        assert e.refs, f"{e.id} cites no source"
        assert e.unset or e.env, f"{e.id}: env.sh would not change {r['var']}"
        if r["fails"]:
            assert r.get("effect"), f"{r['var']}: a setting that explains smoke failures needs its effect"


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["var"])
def test_set_is_named(row):
    value = ON[row["read"]]
    report = ff.check(ff.set_env(ff.gpu_box(), **{row["var"]: value}))
    hits = [f for f in report.findings if f.id == row["entry"]]
    assert len(hits) == 1, [f.id for f in report.findings]
    assert f"{row['var']}={value}" in hits[0].title
    assert hits[0].severity in ("warning", "info")
    assert row["var"] in hits[0].fix


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["var"])
def test_unset_or_off_is_silent(row):
    assert setting_ids(ff.check(ff.gpu_box())) == []
    for value in OFF[row["read"]]:
        assert not is_on(row["read"], value)
        report = ff.check(ff.set_env(ff.gpu_box(), **{row["var"]: value}))
        assert row["entry"] not in setting_ids(report), (row["var"], value)


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["var"])
def test_the_snapshot_records_it(row):
    """The facts keep the variable, so a saved report (check --from) still names it."""
    assert env_snapshot({row["var"]: "1", "UNRELATED": "x"}) == {row["var"]: "1"}


def test_triton_reads_true_and_on_too():
    assert is_on("triton", "True") and is_on("triton", "ON") and not is_on("triton", "yes")


def test_a_required_backend_it_breaks_makes_it_an_error():
    """TORCH_COMPILE_DISABLE=1 with flex required: Flex cannot run fused, so the job should not start."""
    f = ff.set_env(ff.gpu_box(), TORCH_COMPILE_DISABLE="1")
    hit = next(x for x in ff.check(f, required=["flex"]).findings if x.id == "setting.compile-disabled")
    assert hit.severity == "error" and "flex" in hit.detail
    assert ff.check(f, required=["sdpa"]).exit_code == 0


def test_env_sh_unsets_them():
    f = ff.set_env(ff.gpu_box(), CUDA_LAUNCH_BLOCKING="1", TRITON_INTERPRET="1", CUBLAS_WORKSPACE_CONFIG=":16:8")
    text, plan = envfile.build(ff.check(f))
    assert "unset CUDA_LAUNCH_BLOCKING" in text and "unset TRITON_INTERPRET" in text
    assert "export CUBLAS_WORKSPACE_CONFIG=':4096:8'" in text


# ---- smoke failures tied to their cause --------------------------------------------------------

def _interpreted(f: dict, backend: str) -> dict:
    """FAKES a smoke run where every case of `backend` raised, as Triton kernels do under the interpreter."""
    cases = [ff.smoke_case_error(c, "RuntimeError", "CUDA error: an illegal memory access was encountered")
             if c["kind"] != "refusal" else ff.smoke_case(c) for c in ff.smoke_plan(backend)]
    ff.add_smoke(f, backend, cases)
    return f


def test_interpreted_triton_failures_name_their_cause_once_per_backend():
    f = ff.set_env(ff.gpu_box(), TRITON_INTERPRET="1")
    ff.install(f, "sage", "sageattention", "1.0.6")
    _interpreted(f, "flex")
    _interpreted(f, "sage")
    ff.add_smoke(f, "sdpa", [ff.smoke_case(c) for c in ff.smoke_plan("sdpa")])
    report = ff.check(f)
    tied = [x for x in report.findings if x.id == "smoke.setting"]
    assert sorted(x.backend for x in tied) == ["flex", "sage"]
    assert all("TRITON_INTERPRET=1" in x.title and x.fix.startswith("unset TRITON_INTERPRET") for x in tied)
    assert not [x for x in report.findings if x.id in ("smoke.case-error", "smoke.known-error")]
    assert report.backends["sdpa"]["status"] == "ok"
    assert "setting.triton-interpret" in [x.id for x in report.findings]


def test_a_hang_under_the_interpreter_is_tied_too():
    f = ff.set_env(ff.gpu_box(), TRITON_INTERPRET="on")
    cases = ff.smoke_plan("flex")
    ff.add_smoke(f, "flex", [], run=ff.hung_run(300), stuck_in=cases[0]["name"], planned=[c["name"] for c in cases])
    ids = [x.id for x in ff.check(f).findings]
    assert "smoke.setting" in ids and "smoke.hang" not in ids


def test_the_same_failure_without_the_setting_stays_generic():
    f = _interpreted(ff.gpu_box(), "flex")
    ids = [x.id for x in ff.check(f).findings]
    assert "smoke.setting" not in ids and ("smoke.case-error" in ids or "smoke.known-error" in ids or
                                           any(i.startswith("cuda.") for i in ids))


# ---- Flex that passed without compiling ----------------------------------------------------------

def _flex_ok(f: dict, graphs: int) -> dict:
    final = {"pid": 1, "torch_seconds": 3.6, "gpu": "NVIDIA H200", "capability": [9, 0], "load_seconds": 0.4,
             "stage": "done", "after": {"graphs": graphs, "frames": graphs, "recompiles": 0, "mask_builds": 2}}
    ff.add_smoke(f, "flex", [ff.smoke_case(c) for c in ff.smoke_plan("flex")], final=final)
    return f


def test_flex_ok_without_a_graph_is_said():
    report = ff.check(_flex_ok(ff.gpu_box(), graphs=0))
    assert [x.id for x in report.findings] == ["flex.not-compiled"]
    assert report.backends["flex"]["status"] == "ok"


def test_flex_ok_without_a_graph_under_compile_disable_names_the_setting_instead():
    f = _flex_ok(ff.set_env(ff.gpu_box(), TORCH_COMPILE_DISABLE="1"), graphs=0)
    assert [x.id for x in ff.check(f).findings] == ["setting.compile-disabled"]


def test_flex_that_compiled_is_silent():
    assert ff.check(_flex_ok(ff.gpu_box(), graphs=4)).findings == []


def test_torch_line_references_point_at_the_variable():
    """Each entry's torch file:line reference (read in torch 2.13.0) names its variable within three lines
    of that line (or inside the cited range); checked where the venv has that very torch."""
    import re
    from pathlib import Path

    torch_dir = Path(__import__("importlib.util").util.find_spec("torch").origin).parent
    version = (torch_dir / "version.py").read_text()
    if "__version__ = '2.13.0" not in version and '__version__ = "2.13.0' not in version:
        pytest.skip("the references are to torch 2.13.0's files")
    checked = 0
    for entry_id in sorted({r["entry"] for r in ROWS}):
        e = knowledge.get(entry_id)
        names = [r["var"] for r in ROWS if r["entry"] == entry_id]
        refs = [m for ref in e.refs for m in [re.match(r"torch/([\w/]+\.py):(\d+)(?:-(\d+))? \(torch 2\.13\.0\)", ref)] if m]
        for m in refs:
            lines = (torch_dir / m.group(1)).read_text().splitlines()
            lo, hi = int(m.group(2)), int(m.group(3) or m.group(2))
            assert hi <= len(lines), (entry_id, m.group(0))
        if refs:
            windows = ["\n".join((torch_dir / m.group(1)).read_text().splitlines()[max(0, int(m.group(2)) - 4):int(m.group(3) or m.group(2)) + 3])
                       for m in refs]
            assert any(n in w for n in names for w in windows), (entry_id, names)
            checked += 1
    assert checked >= 10
