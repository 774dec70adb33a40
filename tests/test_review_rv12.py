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


# #1: explain's fix lines, aimed at an env it knows (--python, --from), are checked for harm there as check's are
FA2_SYMBOL = ('Traceback (most recent call last):\n  File "train.py", line 3, in <module>\n'
              '    import flash_attn_2_cuda as flash_attn_cuda\n'
              'ImportError: /venv/lib/python3.11/site-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: '
              'undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE\n')


def _runnable(fix: str) -> list[str]:
    return [ln for ln in fix.split("\n") if ln.strip() and not ln.lstrip().startswith("#")]


def _fa2_into(fix: str, python: str) -> bool:
    """A line that installs flash-attn into the env `python` runs (a separate env's install is fine)."""
    return any(ln.startswith(python) and "flash-attn" in ln and " install" in ln for ln in _runnable(fix))


def _fa4_report(tmp_path, fa4_ok: bool = True):
    import json

    f = ff.gpu_box()
    ff.add_dist(f, "flash-attn-4", "4.0.0b36", requires=[])
    if fa4_ok:
        ff.install(f, "cute", "flash-attn-4", "4.0.0b36", probe=ff.ok_import())
    path = tmp_path / "report.json"
    path.write_text(json.dumps(ff.check(f).to_dict()))
    return str(path)


def test_explain_from_report_refuses_fa2_over_fa4(tmp_path):
    from attn_doctor import explain

    env = explain.environment(None, _fa4_report(tmp_path))
    for text in (FA2_SYMBOL, FA2_SYMBOL.replace("python3.11", "python3.12").replace("cpython-311", "cpython-312")):
        res = explain.examine(text, env=env)
        fa2 = [x for x in res.found if x.backend == "fa2"]
        assert fa2, [x.entry.id for x in res.found]
        for x in fa2:
            assert not _fa2_into(x.fix, env.target.shown), x.fix
            assert "flash-attn-4" in x.fix  # says what it would break


def test_explain_from_report_keeps_fa2_fix_without_fa4(tmp_path):
    """Near miss: no flash-attn-4 in the env: the FA2 reinstall stays a command."""
    import json

    from attn_doctor import explain

    path = tmp_path / "plain.json"
    path.write_text(json.dumps(ff.check(ff.gpu_box()).to_dict()))
    res = explain.examine(FA2_SYMBOL, env=explain.environment(None, str(path)))
    env = explain.environment(None, str(path))
    (x,) = [x for x in res.found if x.backend == "fa2"][:1]
    assert _fa2_into(x.fix, env.target.shown), x.fix


def test_explain_python_env_refuses_fa2_over_fa4(tmp_path):
    """--python: the env's packages read from its metadata (no probe): flash-attn-4 installed is enough."""
    import sys
    import venv

    from attn_doctor import explain

    root = tmp_path / "env"
    venv.EnvBuilder(with_pip=False, system_site_packages=False).create(root)
    site = next((root / "lib").glob("python3*/site-packages"))
    d = site / "flash_attn_4-4.0.0b36.dist-info"
    d.mkdir()
    (d / "METADATA").write_text("Metadata-Version: 2.1\nName: flash-attn-4\nVersion: 4.0.0b36\n")
    (d / "RECORD").write_text("")
    (site / "flash_attn" / "cute").mkdir(parents=True)
    env = explain.environment(str(root / "bin" / "python"), None)
    res = explain.examine(FA2_SYMBOL, env=env)
    fa2 = [x for x in res.found if x.backend == "fa2"]
    assert fa2
    for x in fa2:
        assert not _fa2_into(x.fix, env.target.shown), x.fix


# #4: merge never copies a package from members where its backend is not ok (no majority either way)
def _fleet_pair(package: str, version: str, backend: str, status: str):
    import copy
    import json
    from pathlib import Path

    from attn_doctor import fleet

    base = json.loads((Path(__file__).resolve().parents[1] / "fixtures/fleet/cpu-check-no-smoke.json").read_text())
    a, b = copy.deepcopy(base), copy.deepcopy(base)
    a["facts"]["system"]["hostname"], b["facts"]["system"]["hostname"] = "a", "b"
    b["facts"]["packages"]["stack"][package] = {"name": package, "version": version, "requires": [],
                                                "location": "/venv/lib/python3.12/site-packages"}
    b["backends"][backend].update(status=status, reason="faked")
    return [fleet.member(r, f"r{i}.json") for i, r in enumerate((a, b))]


def test_merge_does_not_copy_a_broken_backends_package():
    from attn_doctor import fleet

    for package, version, backend in (("xformers", "0.0.35", "xformers"), ("sageattention", "1.0.6", "sage"),
                                      ("flash-attn-4", "4.0.0b36", "cute")):
        for order in (0, 1):
            ms = _fleet_pair(package, version, backend, "broken")
            found = [f for f in fleet.build(ms[::-1] if order else ms).findings if f.params.get("package") == package]
            assert found, package
            for f in found:
                assert f" install '{package}==" not in (f.fix or "").split("#")[0], f.fix


def test_merge_still_copies_a_working_backends_package():
    """Near miss: the backend is ok where it is installed: the others are told to install it."""
    from attn_doctor import fleet

    ms = _fleet_pair("sageattention", "1.0.6", "sage", "ok")
    (f,) = [f for f in fleet.build(ms).findings if f.params.get("package") == "sageattention"]
    assert "install 'sageattention==1.0.6'" in f.fix.split("#")[0], f.fix


# #5: the printed follow-ups carry --trainer with --config, so the pasted fix reads the file the same way
def test_follow_ups_carry_trainer():
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    cfg = root / "fixtures/configs/real/sd-scripts/zhopkins__default_config.json"
    for trainer in ("axolotl", "transformers"):
        out = subprocess.run([sys.executable, "-m", "attn_doctor", "check", "--no-smoke", "--backend", "sdpa",
                              "--config", str(cfg), "--trainer", trainer], capture_output=True, text=True,
                             cwd=root, timeout=300, env={**__import__("os").environ, "COLUMNS": "400"})
        assert out.returncode in (0, 1), out.stderr
        fixes = [ln for ln in out.stdout.splitlines() if ln.startswith("fix: attn-doctor fix")]
        assert fixes, out.stdout[-800:]
        for ln in fixes:
            assert ln.count("--config") == ln.count(f"--trainer {trainer}"), ln


# #7: Sage's missing-arch-kernel fix clones before it builds and uninstalls nothing first
def test_sage_arch_kernel_fix_clones_and_keeps_the_install():
    from attn_doctor import explain

    for text in ("AssertionError: SM89 kernel is not available. Make sure you GPUs with compute capability 8.9.",
                 "ModuleNotFoundError: No module named 'sageattention._qattn_sm90'"):
        (x,) = [x for x in explain.examine(text).found if x.entry.id == "sage.arch-kernel"]
        code = x.fix.split("#")[0]
        assert "uninstall" not in code, x.fix
        assert code.index("git clone") < code.index("cd SageAttention"), x.fix


# #8: on a CPU-only torch, Sage's missing triton is fixed by the CUDA torch, never an unpinned triton
def _sage_without_triton(torch: str, cuda: str | None) -> dict:
    f = ff.cpu_box() if cuda is None else ff.gpu_box()
    if cuda is None:
        ff.set_torch(f, torch, None)
    f["packages"]["stack"].pop("triton", None)
    f["packages"].get("versions", {}).pop("triton", None)
    ff.install(f, "sage", "sageattention", "1.0.6", probe=ff.failed_import(
        "ModuleNotFoundError", "No module named 'triton'",
        PROBE_FRAME + '  File "/venv/lib/python3.12/site-packages/sageattention/core.py", line 1, in <module>\n'
                      "    import triton\n", name="triton"))
    return f


def test_cpu_torch_sage_triton_fix_is_the_cuda_torch():
    for version in ("2.13.0+cpu", "2.11.0+cpu"):
        f = _sage_without_triton(version, None)
        (x,) = [x for x in ff.check(f).findings if x.id == "import.dep-missing" and x.backend == "sage"]
        assert f"'torch=={version.split('+')[0]}+cu" in x.fix and "install 'triton'" not in x.fix, x.fix


def test_cuda_torch_sage_triton_fix_stays_triton():
    """Near miss: a CUDA torch without triton gets triton (pinned as torch pins it), not another torch."""
    f = _sage_without_triton("", "13.0")
    (x,) = [x for x in ff.check(f).findings if x.id == "import.dep-missing" and x.backend == "sage"]
    assert "triton" in x.fix and "torch==" not in x.fix, x.fix


# #9: on a machine with no GPU, the CUDA torch line says it is only for an env meant for GPU hosts
def test_cpu_build_without_gpu_says_where_the_cuda_torch_is_for():
    f = ff.cpu_box()
    (x,) = [x for x in ff.check(f).findings if x.id == "torch.cpu-build"]
    assert "no GPU" in x.fix and "GPU hosts" in x.fix, x.fix
    g = ff.gpu_box()
    ff.set_torch(g, "2.13.0+cpu", None)
    (y,) = [y for y in ff.check(g).findings if y.id == "torch.cpu-build"]
    assert "GPU hosts" not in y.fix, y.fix  # near miss: GPUs here, the CUDA build is the fix


# #10: an option trace does not have is named as one (exit 2, one line), not run as the command
def test_trace_unknown_option_is_one_line():
    import subprocess
    import sys

    for opt in ("--python", "--bogus"):
        out = subprocess.run([sys.executable, "-m", "attn_doctor", "trace", opt, "/tmp/x", "--", "python", "t.py"],
                             capture_output=True, text=True, timeout=120)
        assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
        assert f"no such option: {opt}" in out.stderr and "command not found" not in out.stderr, out.stderr
