"""Defects of the new-user trial of session 10 (benchmarks/results/new-user-s10.md), each as a test that
failed before its fix."""

from __future__ import annotations

import shlex

import fakefacts as ff

PROBE_FRAME = '  File "<attn-doctor import probe>", line 1, in <module>\n'


def _xformers_beside_fa4(message: str, name: str, frame: str) -> dict:
    f = ff.gpu_box()
    ff.install(f, "xformers", "xformers", "0.0.35", probe=ff.failed_import(
        "ModuleNotFoundError", message, PROBE_FRAME + frame, name=name))
    f["packages"]["flash_attn"] = {"copies": [{"path": f"{ff.SITE}/flash_attn", "has_init": False, "has_cute": True,
                                               "has_fa2_interface": False}], "cute_owners": {"flash-attn-4": 60}}
    ff.add_dist(f, "flash-attn-4", "4.0.0b36", requires=[])
    return f


# #3: xformers' import failing for a reason of its own is not FA4's namespace, and its fix is no uninstall
def test_xformers_own_failure_beside_fa4_is_not_the_namespace():
    f = _xformers_beside_fa4("No module named 'xformers._C'", "xformers._C",
                             '  File "/venv/lib/python3.12/site-packages/xformers/ops/fmha/__init__.py", line 8, in <module>\n'
                             "    import xformers._C\n")
    ids = [x.id for x in ff.check(f).findings if x.backend == "xformers"]
    assert "xformers.fa4-namespace" not in ids, ids
    assert not any("uninstall" in (x.fix or "") for x in ff.check(f).findings if x.backend == "xformers")


def test_xformers_namespace_failure_beside_fa4_still_named():
    for msg, name in (("No module named 'flash_attn.flash_attn_interface'", "flash_attn.flash_attn_interface"),
                      ("No module named 'flash_attn_2_cuda'", "flash_attn_2_cuda")):
        f = _xformers_beside_fa4(msg, name, '  File "/venv/lib/python3.12/site-packages/xformers/ops/fmha/flash.py", '
                                            'line 59, in <module>\n    import flash_attn.flash_attn_interface\n')
        assert "xformers.fa4-namespace" in [x.id for x in ff.check(f).findings], msg


# #6: an installed package whose import fails is not "not installed"
def test_installed_xformers_never_said_not_installed():
    f = ff.gpu_box()
    ff.install(f, "xformers", "xformers", "0.0.35", probe=ff.failed_import(
        "ModuleNotFoundError", "No module named 'xformers._C'",
        PROBE_FRAME + '  File "/venv/lib/python3.12/site-packages/xformers/ops/fmha/__init__.py", line 8, in <module>\n'
                      "    import xformers._C\n", name="xformers._C"))
    ids = [x.id for x in ff.check(f).findings]
    assert "xformers.not-installed" not in ids, ids
    assert any(x.backend == "xformers" and x.severity == "error" for x in ff.check(f).findings), ids


def test_installed_sage_never_said_not_installed():
    f = ff.gpu_box()
    ff.install(f, "sage", "sageattention", "2.2.0", probe=ff.failed_import(
        "ModuleNotFoundError", "No module named 'sageattention.core'",
        PROBE_FRAME + '  File "/venv/lib/python3.12/site-packages/sageattention/__init__.py", line 1, in <module>\n'
                      "    from .core import sageattn\n", name="sageattention.core"))
    found = ff.check(f).findings
    assert "sage.not-installed" not in [x.id for x in found]
    assert any(x.backend == "sage" and x.severity == "error" for x in found)


def test_not_installed_entry_still_explains_text():
    """Near miss of the check-side rule: explain keeps reading the line as the entry it is (matching untouched)."""
    from attn_doctor.knowledge.match import cause
    m = cause("ModuleNotFoundError: No module named 'xformers'", "", None)
    assert m is not None and m.entry.id == "xformers.not-installed"


# #2: trace's printed commands act on the interpreter the job ran, not attn-doctor's own
def _traced(python: str | None, rows: list[dict] | None = None) -> list[dict]:
    p = {"pid": 1, "rank": "0", "steps": 1, "attention_steps": 1, "errors": [], "patched": [], "rows": rows or []}
    if python:
        p["python"] = python
    return [p]


def test_trace_require_fix_names_the_traced_python():
    from attn_doctor.trace.report import build
    from test_trace import _row, FA4_ROUTE_RAISED

    rows = [_row(kernel="flash (FA4 via SDPA)", site="/work/f.py:6", mask="causal", device="cuda:0", dtype="bfloat16",
                 **FA4_ROUTE_RAISED)]
    for exe in ("/opt/train venv/bin/python", "/tmp/job/bin/python3"):
        found = build(_traced(exe, rows), required=["fa2"], command=[exe, "t.py"], program_exit_code=0).findings
        (req,) = [f for f in found if f.id == "trace.require-not-met"]
        assert req.fix.startswith(f"attn-doctor check --python {shlex.quote(exe)} --require fa2"), req.fix
        (known,) = [f for f in found if f.id == "trace.call-raised-known"]
        assert known.fix.startswith(f"{shlex.quote(exe)} -c "), known.fix  # the entry's `python -c ...`


def test_trace_fix_unchanged_for_attn_doctors_own_python_or_many():
    import sys

    from attn_doctor.trace.report import build

    found = build(_traced(sys.executable), required=["fa2"], command=["python", "t.py"], program_exit_code=0).findings
    assert [f.fix for f in found if f.id == "trace.require-not-met"][0].startswith("attn-doctor check --require fa2")
    two = _traced("/a/bin/python") + _traced("/b/bin/python")
    found = build(two, required=["fa2"], command=["python", "t.py"], program_exit_code=0).findings
    assert [f.fix for f in found if f.id == "trace.require-not-met"][0].startswith("attn-doctor check --require fa2")


def test_trace_tells_two_venvs_of_one_base_python_apart(tmp_path):
    """A venv's bin/python is a link to the base interpreter: two venvs resolve to the same file."""
    import os
    import sys

    from attn_doctor.trace.report import traced_python

    venv = tmp_path / "job" / "bin"
    venv.mkdir(parents=True)
    os.symlink(os.path.realpath(sys.executable), venv / "python")
    assert traced_python(_traced(str(venv / "python"))) == str(venv / "python")
    assert traced_python(_traced(sys.executable)) is None
