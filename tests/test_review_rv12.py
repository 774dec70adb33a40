"""Defects of the new-user trial of session 10 (benchmarks/results/new-user-s10.md), each as a test that
failed before its fix."""

from __future__ import annotations

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
