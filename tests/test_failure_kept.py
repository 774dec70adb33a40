"""A backend whose import or smoke run failed keeps its error finding, whatever else the run printed.

Issue 15: a torch deprecation note (PYTORCH_CUDA_ALLOC_CONF) beside an unrecognised import error
used to stand as "the cause", and the import's error finding was then dropped (exit 0). The property
test below takes every failing import/smoke scenario of tests/test_findings.py (faked facts, see
tests/fakefacts.py) and adds, one at a time, every example text of every warning and info entry of
the knowledge base to what that run printed: the error finding must stay and the exit code must not
drop; a note or a printed warning (an entry that cannot be a cause) must change nothing at all.
"""

from __future__ import annotations

import copy
import pickle

import pytest

import fakefacts as ff
import test_findings as tf
from attn_doctor import advice, knowledge
from attn_doctor.checks.backends import import_failure
from attn_doctor.checks.smoke import failure
from attn_doctor.knowledge.match import best, cause, match

# torch's own words, printed by `import torch` 2.9+ when the old variable is set (FACTS.md).
DEPRECATION = ("/venv/lib/python3.12/site-packages/torch/cuda/__init__.py:63: UserWarning: "
               "PYTORCH_CUDA_ALLOC_CONF is deprecated, use PYTORCH_ALLOC_CONF instead (Triggered internally at "
               "/pytorch/c10/cuda/CUDAAllocatorConfig.cpp:35.)")


def _failing(f: dict) -> dict[str, list]:
    """{backend: [where its failure's output lives]}: import probes and smoke runs that failed. A
    backend's probe imports torch first: when `import torch` itself failed, that is torch's error
    (torch.*), not the backend's."""
    out: dict[str, list] = {}
    torch_failed = not ((f.get("torch") or {}).get("probe") or {}).get("import_ok")
    for name, info in (f.get("imports") or {}).items():
        if info.get("installed") and ("probe" in info or "run" in info) and not torch_failed:
            why = import_failure(name, info)
            if why and why != "torch fails to import":
                out.setdefault(name, []).append(("import", info))
    for per in ((f.get("smoke") or {}).get("devices") or {}).values():
        for name, res in per.items():
            if failure(res):
                out.setdefault(name, []).append(("smoke", res))
    return out


def _sage_unnamed_import_error():
    """FAKES sage's import probe: torch imported, `import sageattention` raised an error no entry names."""
    f = ff.gpu_box()
    ff.install(f, "sage", "sageattention", "1.0.6", probe=ff.failed_import(
        "RuntimeError", "sageattention: kernel registry is empty", tf.PROBE_FRAME))
    return f


def _cute_unnamed_import_error():
    """FAKES flash-attn-4's import failing inside quack with an ImportError no entry names."""
    f = tf._fa4_stack(ff.gpu_box())
    f["imports"]["cute"]["probe"] = ff.failed_import(
        "ImportError", "cannot import name 'make_fake_tensor' from 'quack.compile_utils'",
        tf.PROBE_FRAME + '  File "/venv/lib/python3.12/site-packages/flash_attn/cute/interface.py", line 19, in <module>\n')
    return f


def _sdpa_unnamed_start_up_error():
    """FAKES the SDPA smoke child failing at start-up (stage load) with an error no entry names."""
    f = ff.gpu_box()
    plan = ff.smoke_plan("sdpa")
    ff.add_smoke(f, "sdpa", [], planned=[c["name"] for c in plan], run=dict(ff.run_ok(), returncode=1),
                 final={"pid": 4242, "torch_seconds": 3.6, "gpu": "NVIDIA H200", "capability": [9, 0], "stage": "load",
                        "error": ff.error("RuntimeError", "sdpa adapter: device handshake refused")})
    return f


EXTRA = [tf.Scenario(b.__name__.strip("_"), b, "error", None) for b in
         (_sage_unnamed_import_error, _cute_unnamed_import_error, _sdpa_unnamed_start_up_error)]
FAILING = [s for s in tf.SCENARIOS if _failing(s.build())] + EXTRA
NOISE = [(e.id, e.can_cause, ex) for e in knowledge.entries().values() if e.severity in ("warning", "info")
         for ex in e.examples]


def test_the_property_covers_enough():
    """The fixtures and the noise are the whole set, not a sample that happens to pass."""
    kinds = {k for s in FAILING for runs in _failing(s.build()).values() for k, _ in runs}
    assert kinds == {"import", "smoke"}
    assert len(FAILING) >= 15, [s.name for s in FAILING]
    assert len(NOISE) >= 40
    assert any(not can for _, can, _ in NOISE) and any(can for _, can, _ in NOISE)


def _errors(report, backends) -> dict[str, list[str]]:
    return {b: sorted(x.id for x in report.findings if x.backend == b and x.severity == "error") for b in backends}


def _add(f: dict, backend: str, text: str, into: str) -> None:
    for kind, where in _failing(f)[backend]:
        run = where.setdefault("run", ff.run_ok())
        if into == "warnings" and kind == "import" and where.get("probe"):
            where["probe"].setdefault("warnings", []).append(text)
        else:
            run["stderr_tail"] = (run.get("stderr_tail") or "") + "\n" + text + "\n"


# Each failing scenario gets every third noise text, in turn, in both places: every noise text meets ten scenarios (of
# each kind of failure) and every scenario ~180 noise texts (all 534 x 30 x 2 was 5 minutes of CI's CPU, session 32)
SHARE = 3


def test_every_noise_text_meets_failures_of_every_kind():
    for n, _ in enumerate(NOISE):
        met = [s for i, s in enumerate(FAILING) if (n + i) % SHARE == 0]
        kinds = {k for s in met for runs in _failing(s.build()).values() for k, _ in runs}
        assert len(met) >= len(FAILING) // SHARE and kinds == {"import", "smoke"}, (n, [s.name for s in met])


@pytest.mark.parametrize("i,sc", list(enumerate(FAILING)), ids=lambda x: f"{x.id}-{x.name}" if hasattr(x, "id") else str(x))
def test_noise_never_hides_a_failure(i, sc, monkeypatch):
    base_facts = sc.build()
    # (session 38, ci38b: the ~180 noise checks of each scenario are ~40% of CI's CPU for this module beside their scans)
    # the facts copied by a pickle round trip, not copy.deepcopy: they are plain JSON-like data (dicts, lists, str,
    # numbers, None), which both copy alike; the pickle is ~4x cheaper than deepcopy's per-object dispatch
    frozen = pickle.dumps(base_facts, protocol=pickle.HIGHEST_PROTOCOL)
    assert pickle.loads(frozen) == base_facts
    failing = sorted(_failing(base_facts))
    base = ff.check(copy.deepcopy(base_facts), **sc.ctx)
    before = _errors(base, failing)
    assert all(before.values()), before  # every failed backend has its error to begin with
    assert base.exit_code == 1
    # the warnings place differs from stderr only where an import probe answered (_add); elsewhere (a smoke run, an import
    # that hung or crashed) both put the text in the run's stderr: the same facts, checked once (17 of the 30 scenarios)
    probed = any(kind == "import" and where.get("probe") for runs in _failing(base_facts).values() for kind, where in runs)
    bad = []
    # the noise checks read the findings' ids, severities and backends and the exit code only: advice.apply (the last step
    # of report.evaluate) rewrites each finding's fix, title and params and the backends' reasons, one finding for one, and
    # changes none of those (test_advice_changes_no_id_severity_backend_or_exit_code below); the base check above keeps it
    monkeypatch.setattr(advice, "apply", lambda report: None)
    for source, can_cause, text in NOISE[(-i) % SHARE::SHARE]:
        placed = {}
        for into in ("stderr", "warnings"):
            placed[into] = pickle.loads(frozen)
            for b in failing:
                _add(placed[into], b, text, into)
        if placed["warnings"] == placed["stderr"]:
            assert not probed, (source, "a probe's warnings were not written")
            del placed["warnings"]
        for into, f in placed.items():
            r = ff.check(f, **sc.ctx)
            after = _errors(r, failing)
            if not all(after.values()) or r.exit_code < base.exit_code:
                bad.append((into, source, "lost the error", after, r.exit_code))
            elif not can_cause and after != before:  # a note or a printed warning is nobody's cause
                bad.append((into, source, "changed the cause", before, after))
    assert not bad, bad[:5]


def _kept_fields(report) -> tuple:
    return [(x.id, x.severity, x.backend) for x in report.findings], report.exit_code


def test_advice_changes_no_id_severity_backend_or_exit_code(monkeypatch):
    """What test_noise_never_hides_a_failure leaves out of its noise checks (advice.apply) changes nothing it reads: every
    failing scenario, with one noise text of each kind (a cause, a note) in each place, checked with and without it."""
    causes = [n for n in NOISE if n[1]]
    notes = [n for n in NOISE if not n[1]]
    pairs = []
    for i, sc in enumerate(FAILING):
        base_facts = sc.build()
        for _, _, text in (causes[i % len(causes)], notes[i % len(notes)]):
            for into in ("stderr", "warnings"):
                f = copy.deepcopy(base_facts)
                for b in _failing(f):
                    _add(f, b, text, into)
                pairs.append((sc, f))
    with_advice = [_kept_fields(ff.check(copy.deepcopy(f), **sc.ctx)) for sc, f in pairs]
    monkeypatch.setattr(advice, "apply", lambda report: None)
    assert [_kept_fields(ff.check(f, **sc.ctx)) for sc, f in pairs] == with_advice
    assert len(pairs) >= 4 * 15 and any(k[1] == 1 for k in with_advice)


def test_the_reported_case_sage_import_beside_the_deprecation_note():
    """Issue 15's case: sage's import fails with an error no entry names, while torch's deprecation
    note sits in the probe's warnings (PYTORCH_CUDA_ALLOC_CONF set). FAKED: the probe's answer."""
    f = ff.gpu_box()
    ff.set_env(f, PYTORCH_CUDA_ALLOC_CONF="expandable_segments:True")
    ff.install(f, "sage", "sageattention", "1.0.6", probe=ff.failed_import(
        "RuntimeError", "sageattention: kernel registry is empty", tf.PROBE_FRAME, warnings=[DEPRECATION]))
    r = ff.check(f)
    assert [(x.id, x.severity) for x in r.findings if x.backend == "sage"] == [("import.failed", "error")]
    assert "alloc.old-name" in [x.id for x in r.findings]  # the note is still there, as a note
    assert r.exit_code == 1


def test_the_reported_case_sdpa_start_up_failure_beside_the_deprecation_note():
    """Issue 15's second case: the SDPA smoke child failed at start-up (stage load) with an error no
    entry names, its stderr holding torch's deprecation note. FAKED: the child's final line and stderr."""
    f = ff.gpu_box()
    ff.set_env(f, PYTORCH_CUDA_ALLOC_CONF="expandable_segments:True")
    plan = ff.smoke_plan("sdpa")
    ff.add_smoke(f, "sdpa", [], planned=[c["name"] for c in plan], run=dict(ff.run_ok(), returncode=1, stderr_tail=DEPRECATION),
                 final={"pid": 4242, "torch_seconds": 3.6, "gpu": "NVIDIA H200", "capability": [9, 0], "stage": "load",
                        "error": ff.error("RuntimeError", "sdpa adapter: device handshake refused")})
    r = ff.check(f)
    assert [(x.id, x.severity) for x in r.findings if x.backend == "sdpa"] == [("smoke.case-error", "error")]
    assert r.backends["sdpa"]["status"] == "broken"
    assert r.exit_code == 1


def test_a_cause_reported_as_a_warning_does_not_swallow_the_failure():
    """FAKES the Inductor cache's disk with 1 GiB free (the caches check warns: cache.low-space) and
    flash-attn-4's import failing with ENOSPC while it wrote there. The import's finding names that
    cause and stays an error: dropping it for the warning would let the run exit 0 with cute broken."""
    f = tf._fa4_stack(ff.gpu_box())
    ff.get_cache(f, "inductor")["free_bytes"] = ff.GIB
    f["imports"]["cute"]["probe"] = ff.failed_import(
        "OSError", "[Errno 28] No space left on device: '/home/user/.cache/torchinductor/fxgraph/ab/x.tmp'", tf.PROBE_FRAME)
    r = ff.check(f)
    assert ("cache.low-space", "warning") in [(x.id, x.severity) for x in r.findings]
    mine = [x for x in r.findings if x.backend == "cute" and x.severity == "error"]
    assert [(x.id, x.params.get("cause")) for x in mine] == [("import.known-error", "cache.low-space")]
    assert r.exit_code == 1


def test_a_cause_reported_in_full_as_an_error_is_not_repeated():
    """The other side of the rule: quack-kernels 0.2.4 under flash-attn-4 (versions check: an error
    about cute, cute.quack-guide-pin) and cute's import failing with the AttributeError the H100
    recorded for it (fault-quack.json): one error, not the same cause twice."""
    f = tf._fa4_stack(ff.gpu_box(), quack="0.2.4")
    f["imports"]["cute"]["probe"] = ff.failed_import(
        "AttributeError", "module 'cutlass._mlir.dialects.nvvm' has no attribute 'RoundingModeKind'", tf.PROBE_FRAME)
    ids = [x.id for x in ff.check(f).findings if x.backend == "cute" and x.severity == "error"]
    assert "cute.quack-guide-pin" in ids and "import.known-error" not in ids


def test_another_backends_warning_is_not_this_ones_cause():
    """FAKES sage's import failing with an error no entry names while its stderr holds xformers'
    refusal text (an entry about xformers): sage's finding is its own failure, not xformers'."""
    f = ff.gpu_box()
    ff.install(f, "sage", "sageattention", "1.0.6", probe=ff.failed_import(
        "RuntimeError", "sageattention: kernel registry is empty", tf.PROBE_FRAME),
        run=dict(ff.run_ok(), stderr_tail=knowledge.get("xformers.no-operator").examples[0]))
    assert [x.id for x in ff.check(f).findings if x.backend == "sage"] == ["import.failed"]


# ---- the matcher itself -------------------------------------------------------------------------

def test_best_never_names_a_note_as_a_cause():
    """best() answers "why did it fail": an info note's own text alone has no cause."""
    assert [m.entry.id for m in match(DEPRECATION)] == ["alloc.old-name"]
    assert best(DEPRECATION) is None
    assert cause("RuntimeError: something new", DEPRECATION) is None


def test_catch_all_is_decided_per_line():
    """A generic entry is dropped on the lines a specific cause explains, not for the whole text: a
    note at the top of a log does not hide the unrecognised import error at its bottom, and a
    specific error elsewhere (100 lines away) does not either."""
    err = "ModuleNotFoundError: No module named 'flash_attn.layers.rotary_fast'"  # an import nobody names
    log = DEPRECATION + "\n" + "step ok\n" * 100 + err
    assert [m.entry.id for m in match(log)] == ["import.failed", "alloc.old-name"]
    other = "OSError: libcudart.so.12: cannot open shared object file: No such file or directory"
    log = other + "\n" + "step ok\n" * 100 + err
    assert [m.entry.id for m in match(log)] == ["import.cuda-lib-missing", "import.failed"]
    # the same specific error inside the same traceback explains it
    assert [m.entry.id for m in match(other + "\n" + err)] == ["import.cuda-lib-missing"]


def test_cause_prefers_the_exception_then_a_specific_noise_entry():
    exc = "ImportError: cannot import name 'x' from 'flash_attn' (/venv/flash_attn/__init__.py)"  # generic
    lib = "libcudart.so.12: cannot open shared object file: No such file or directory"  # specific
    assert cause(exc, "").entry.id == "import.failed"
    assert cause(exc, lib, "fa2").entry.id == "import.cuda-lib-missing"
    assert cause(lib, exc, "fa2").entry.id == "import.cuda-lib-missing"
