"""The open rows of ../shared/reports/new-user-2026-12-03.md (helper nu41's trial, session 41), fixed by helper nu41b with
a test each. Faked facts throughout: nothing here imports torch; one test starts a small child (the CLI on binary
input, the process boundary being what row 8 is about)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.each_case import each

ROOT = Path(__file__).resolve().parents[1]


# Row 1's rest: for the OS's own Python (PEP 668), the closing line's fix goes through a new venv ($VENV), but its
# "then: attn-doctor fix --python /usr/bin/python3" named the OS Python again, so the next check judged an env where
# nothing was installed. The line after an install names the venv the install made.
def test_row_1_the_line_after_a_venv_install_checks_that_venv():
    from attn_doctor.render.text import fix_command, next_steps
    from attn_doctor.model import Report
    from attn_doctor.model import Finding
    from attn_doctor.target import Target

    managed = Target(python="/usr/bin/python3", how="--python", has_pip=True, managed=True)
    t = managed.installed_into()
    assert t.shown == '"$VENV"' and not t.managed
    assert Target(python="/usr/bin/python3", how="--python").installed_into().python == "/usr/bin/python3"

    def closing(target, fix):
        f = Finding(id="torch.missing", severity="error", section="platform", title="torch is not installed", fix=fix)
        rep = Report(tool_version="0", findings=[f], facts={"target": target.to_dict()}, backends={}, options={})
        return next_steps(rep)[-1].plain, fix_command(rep)

    venv_fix = ('/usr/bin/python3 -m venv "${VENV:?a new venv}" && "$VENV"/bin/python -m pip install torch')
    line, plain = closing(managed, venv_fix)
    assert line.endswith('then: attn-doctor fix --python "$VENV" lists every fix'), line
    assert plain == "attn-doctor fix --python /usr/bin/python3"  # before the install: the env as checked
    # near misses: a target whose pip installs into itself keeps its own --python after the install
    own = Target(python="/opt/venv/bin/python", how="--python")
    line, _ = closing(own, "/opt/venv/bin/python -m pip install torch")
    assert line.endswith("then: attn-doctor fix --python /opt/venv/bin/python lists every fix"), line
    # and README says the exception in a sentence
    assert 'the line after them checks that venv (`--python "$VENV"`)' in " ".join(
        (ROOT / "README.md").read_text(encoding="utf-8").split())


# Row 2 (the report's row 2): `explain --python ENV` on FA2's `undefined symbol` printed a flash-attn rebuild "against the
# installed torch" while that torch was 2.13.0+cpu: a build that cannot succeed. A GPU backend's install in an env whose
# torch is a CPU build now comes after the CUDA torch line (torch.cpu-build's advice), through advice.safe.
def test_row_2_a_backend_rebuild_over_a_cpu_torch_asks_for_a_cuda_torch_first():
    import dataclasses

    from attn_doctor.advice import Situation, safe
    from attn_doctor.target import Target

    t = Target(python="/e/bin/python", how="--python")
    cpu = Situation(installed={"torch": "2.13.0+cpu", "flash-attn": "2.8.3"}, working=set(), torch="2.13.0+cpu",
                    cpu_torch=True, probed=False)
    fa2 = ("pip install --force-reinstall --no-deps --no-cache-dir flash-attn --no-build-isolation   "
           "# builds against the installed torch")

    def first_cuda(line, dist):
        out = safe(line, cpu, t, "fa2", cpu_first=True).split("\n")
        assert out[0].startswith("# first: torch 2.13.0+cpu here is a CPU-only build (torch.cpu-build): " + dist), out
        assert out[1].startswith('/e/bin/python -m pip install "torch==2.13.0+${CU:?'), out
        assert out[-1].startswith("/e/bin/python -m pip install "), out
        assert len(out) == 3, out

    each([("fa2 rebuild", (fa2, "flash-attn")), ("xformers", ("pip install -U xformers", "xformers")),
          ("sage", ("pip install sageattention==2.2.0", "sageattention"))], first_cuda)
    # near misses: a CUDA torch, a ROCm-less unknown torch, a line that installs no GPU backend: as before, one line
    cuda = dataclasses.replace(cpu, torch="2.13.0+cu130", cpu_torch=False)
    assert safe(fa2, cuda, t, "fa2", cpu_first=True).count("\n") == 0
    assert safe("pip install einops", cpu, t, cpu_first=True).count("\n") == 0
    assert safe("pip show flash-attn", cpu, t, cpu_first=True).count("\n") == 0
    # check's and the fleet's lines (no cpu_first): torch.cpu-build is their own finding, printed first; one line each
    assert safe(fa2, cpu, t, "fa2").count("\n") == 0


def test_row_2_explain_python_reads_a_cpu_torch_from_its_files(tmp_path):
    """tailor.from_python on an env whose torch/version.py says `cuda = None`: a CPU build (no import, no torch)."""
    from attn_doctor.explain import examine
    from attn_doctor.knowledge import tailor

    site = tmp_path / "site"
    (site / "torch").mkdir(parents=True)
    (site / "torch" / "version.py").write_text("__version__ = '2.13.0'\ncuda: Optional[str] = None\nhip = None\n")
    dist = site / "torch-2.13.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: torch\nVersion: 2.13.0\n")
    info = {"python": "/e/bin/python", "has_pip": True, "sys_path": [str(site)], "site_dirs": [str(site)]}
    import attn_doctor.facts.interpreter as interp

    real = interp.query
    interp.query = lambda python, timeout=60.0: info
    try:
        v = tailor.from_python("/e")
    finally:
        interp.query = real
    assert v.situation.cpu_torch and v.torch == "2.13.0", v
    log = ("ImportError: /v/lib/python3.11/site-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: undefined "
           "symbol: _ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE\n")
    fix = examine(log, v).found[0].fix
    assert fix.startswith("# first: torch 2.13.0 here is a CPU-only build"), fix
    assert "flash-attn" in fix.split("\n")[-1], fix


# Row 5: `trace -- python -c ...` where `python` on PATH was pyenv's (no torch), not the venv attn-doctor checks: "0 of 1
# Python process ran attention", exit 1, and nothing said another Python ran. trace.other-python says so, with the same
# command run by the checked env's interpreter.
def test_row_5_trace_says_the_program_ran_another_python():
    from attn_doctor.trace.report import build

    venv = "/work/x/.venv/bin/python"
    pyenv = {"pid": 1, "python": "/root/.pyenv/versions/3.11.7/bin/python3.11", "torch": None, "rows": []}

    def ids(rep):
        return [f.id for f in rep.findings]

    rep = build([pyenv], command=["python", "-c", "import torch; print(1)"], program_exit_code=1, checked=venv)
    assert ids(rep) == ["trace.other-python"] and rep.exit_code == 1, ids(rep)
    (f,) = rep.findings
    assert "/root/.pyenv/versions/3.11.7/bin/python3.11" in f.title and venv in f.title, f.title
    assert f.fix.startswith("attn-doctor trace -- /work/x/.venv/bin/python -c 'import torch; print(1)'   # "), f.fix
    launcher = build([pyenv], command=["accelerate", "launch", "train.py"], program_exit_code=1, checked=venv)
    assert launcher.findings[0].fix.startswith('PATH=/work/x/.venv/bin:"$PATH" attn-doctor trace -- accelerate '
                                               "launch train.py"), launcher.findings[0].fix
    # near misses: the checked env's own Python (a venv python is a link to its base: its bin/ tells them apart), a
    # process that recorded no interpreter, and another Python whose job ran attention
    own = dict(pyenv, python=venv)
    assert "trace.other-python" not in ids(build([own], command=["python", "x.py"], program_exit_code=1, checked=venv))
    assert "trace.other-python" not in ids(build([dict(pyenv, python=None)], command=["python"], program_exit_code=1,
                                                 checked=venv))
    row = {"site": "x.py:3 (f)", "backend": "sdpa", "kernel": "math", "compiled": False, "dtype": "float32",
           "mask": None, "head_dim": 8, "device_type": "cpu", "entry": "F.scaled_dot_product_attention"}
    ran = dict(pyenv, torch="2.13.0+cpu", rows=[dict(row, count=1)])
    assert "trace.other-python" not in ids(build([ran], command=["python", "x.py"], program_exit_code=0, checked=venv))


# Row 8: `explain bin.dat` (random bytes) said "no known problem matches this text (8 line(s) read)", exit 1, where
# `check --config bin.dat` says it is binary, exit 2. Bad input is exit 2 with one line; a log padded with NULs (a crash
# cut it) and UTF-16 text are text.
def test_row_8_explain_on_binary_data_is_bad_input(tmp_path):
    import random

    from attn_doctor.knowledge.match import looks_binary

    rnd = random.Random(8)
    data = bytes(rnd.getrandbits(8) for _ in range(3000))
    assert looks_binary(data)
    text = "epoch 1 loss 0.5\n\x1b[32mok\x1b[0m 10%|#   | 1/10\r 20%|##  | 2/10\n"
    for name, ok in {"log": text.encode(), "NUL-padded": text.encode() + b"\x00" * 5000,
                     "UTF-16": text.encode("utf-16-le"), "empty": b""}.items():
        assert not looks_binary(ok), name
    (tmp_path / "bin.dat").write_bytes(data)
    (tmp_path / "ok.log").write_bytes(text.encode() + b"\x00" * 100)
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1")
    code = "import sys; from attn_doctor.cli import main; sys.exit(main(['explain', sys.argv[1]]))"

    def run(arg, stdin=None):
        return subprocess.run([sys.executable, "-c", code, arg], capture_output=True, text=True, timeout=120, env=env,
                              cwd=str(tmp_path), stdin=stdin)

    r = run("bin.dat")
    assert r.returncode == 2 and r.stderr.strip().count("\n") == 0 and "bin.dat is binary, not a log" in r.stderr, r
    with open(tmp_path / "bin.dat", "rb") as fh:
        r = run("-", stdin=fh)
    assert r.returncode == 2 and "stdin is binary, not a log" in r.stderr, r
    r = run("ok.log")  # a text log: no match is exit 1, as before
    assert r.returncode == 1 and "no known problem matches" in r.stderr, r
