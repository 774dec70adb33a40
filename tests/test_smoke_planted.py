"""The smoke runner catches planted defects: a real child process runs a fake backend (tests/
fake_adapters.py: torch's CPU SDPA, broken on purpose) through the real cases and comparisons."""

import pytest

from attn_doctor import smoke
from attn_doctor.checks import Context
from attn_doctor.checks.smoke import failure
from attn_doctor.knowledge import entries
from attn_doctor.report import evaluate
from attn_doctor.smoke import plan as planner
from torch_here import needs_torch

needs_torch()  # (its children import torch; this process never needs it)


def cases(kind=None):
    cs, _ = planner.plan("sdpa", None)
    return [c for c in cs if kind is None or c["kind"] == kind]


def run(adapter, cs, timeout=600):  # never reached (ci40a), but by the hang test's own
    r = smoke.run_child("sdpa", "cpu", timeout, cases=cs, adapter=f"tests.fake_adapters:{adapter}")
    return smoke.smoke_record(r)


def findings_for(res):
    """Evaluate a fake sdpa smoke result as if it came from this machine."""
    facts = {"smoke": {"devices": {"cpu": {"sdpa": res}}}}
    rep = evaluate(facts, Context())
    return [f for f in rep.findings if f.section == "smoke"], rep


@pytest.fixture(scope="module")
def good():
    """The good fake over every case: one child (each imports torch, ~3 s of CPU), read by the tests that need a good
    run of a case (session 38, helper ci38c)."""
    return run("good", cases())


def test_good_backend_passes_every_case(good):
    res = good
    assert failure(res) is None, res["summary"]
    assert res["summary"] == f"{len(cases())}/{len(cases())} passed"


def test_one_row_off_is_caught():
    case = next(c for c in cases("dense") if c["dtype"] == "bfloat16")
    res = run("one_row_off", [case])
    c = res["cases"][0]
    assert not c["ok"]
    # one wrong row among 4096 barely moves the global error; the worst-row check alone catches it
    assert c["row_err"] > case["row_tol"] * 5
    fs, _ = findings_for(res)
    assert [f.id for f in fs] == ["smoke.wrong-result"]


def test_a_kernel_writing_into_its_input_is_caught_though_its_output_is_right(good):
    """The fake subtracts k's mean from the caller's k in place, as sageattention 1.0.6 does: the output still matches
    the float64 reference of the inputs as given, so the case passes, and the changed input is its own warning."""
    case = next(c for c in cases("dense") if c["dtype"] == "float32")
    res = run("mutates_k", [case])
    c = res["cases"][0]
    assert c["ok"] and c["inputs_changed"] == ["k"]
    fs, _ = findings_for(res)
    assert [f.id for f in fs] == ["smoke.inputs-changed"] and fs[0].severity == "warning"
    assert "changed its input k in place" in fs[0].title
    (same,) = [x for x in good["cases"] if x["name"] == case["name"]]  # the same case, run by the good fake
    assert same["ok"] and "inputs_changed" not in same


def test_leak_across_varlen_sequences_is_caught():
    res = run("leaky_varlen", cases("varlen"))
    c = res["cases"][0]
    assert not c["ok"]
    assert failure(res)
    fs, rep = findings_for(res)
    assert fs and fs[0].id in ("smoke.varlen-leak", "smoke.wrong-result")


def test_unwritten_output_is_nan_and_caught():
    res = run("nan_output", cases("dense")[:1])
    assert res["cases"][0]["nonfinite"] > 0
    fs, _ = findings_for(res)
    assert fs[0].id == "smoke.nan" and fs[0].severity == "error"


def test_segfault_becomes_a_finding():
    res = run("segfault", cases("dense")[:1])
    assert res["run"]["signal"] == "SIGSEGV"
    assert res["stuck_in"] == cases("dense")[0]["name"]
    fs, _ = findings_for(res)
    assert fs[0].id == "smoke.crashed"


def test_hang_is_killed_at_the_timeout():
    res = run("hang", cases("dense")[:1], timeout=8)
    assert res["run"]["timed_out"]
    fs, _ = findings_for(res)
    assert fs[0].id == "smoke.hang" and "stuck in" in fs[0].title


def test_a_case_a_reduced_build_left_out_is_not_built_not_failed():
    """A FlashAttention build without head dim 64: the d128 case passes, the d64 one is 'not in this build',
    the backend's run counts as passed, and a warning says which case and why."""
    cs = [c for c in cases("dense") if c["head_dim"] in (64, 128)]
    assert {c["head_dim"] for c in cs} == {64, 128}
    res = run("d64_not_built", cs)
    gone = [c for c in res["cases"] if c.get("not_built")]
    assert [c["name"] for c in gone] == [c["name"] for c in cs if c["head_dim"] == 64]
    assert failure(res) is None
    n = len(cs) - len(gone)
    assert res["summary"] == f"{n}/{n} passed, {len(gone)} not in this build"
    fs, _ = findings_for(res)
    assert [f.id for f in fs] == ["smoke.not-built"] and fs[0].severity == "warning"
    assert "head dim 64" in fs[0].title and gone[0]["name"] in fs[0].title


def test_error_text_goes_through_the_matcher():
    res = run("oom", cases("dense")[:1])
    fs, _ = findings_for(res)
    assert fs[0].id == "smoke.oom"


def test_every_smoke_entry_renders():
    for e in entries().values():
        if e.section == "smoke":
            assert e.title and e.fix
