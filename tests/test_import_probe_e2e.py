"""The whole doctor, as a user runs it, against fake backends that fail to import for real.

FAKED: the backend packages. A fake `sageattention` (with the real sageattention-1.0.6 METADATA
header) or a fake `flash_attn.cute` + `nvidia-cutlass-dsl` installed `pip --target`-style sits in a
temporary directory on PYTHONPATH; its import raises an undefined-symbol ImportError or segfaults.
An import that hangs is test_hardening.py::test_import_hang_is_killed_with_nothing_left (i-hang, with these
assertions and `--json -`): that batch waits out a hang anyway, and this module's own hang run made it wait HANG
(90 s) for the same case (ci42b). Everything else is real: `python -m attn_doctor check --no-smoke ... --json -` in a
subprocess, the real torch probe, the real import probe child, the real classification.

The runs are started together (module fixture). Each `check` imports the real torch twice (its torch probe, the
backend's import child), each under --timeout EASY, never reached on a loaded 2-core machine. Under 20 s for all, the CI
machine (the CUDA build of torch, 4 workers on 2 cores) timed out the torch probe in every run (stop 66:
`facts.torch.probe` None).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fakesite import FA4_RECORD, write_dist, write_files

ROOT = Path(__file__).resolve().parents[1]
EASY = 300  # --timeout: never reached
SAGE_META = ("Metadata-Version: 2.1\nName: sageattention\nVersion: 1.0.6\n"
             "Summary: Accurate and efficient 8-bit plug-and-play attention.\n"
             "Home-page: https://github.com/thu-ml/SageAttention\nRequires-Python: >=3.9\n")

SAGE_STUBS = {
    "undefined-symbol": (
        "import os\n"
        "raise ImportError(os.path.join(os.path.dirname(__file__), '_qattn.cpython-311-x86_64-linux-gnu.so')"
        " + ': undefined symbol: _ZN3c104cuda9SetDeviceEi')\n"),
    "segfault": "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n",
}


def sage_site(root: Path, body: str) -> Path:
    site = root / "site"
    write_dist(site, "sageattention", "1.0.6", metadata=SAGE_META)
    write_files(site, {"sageattention/__init__.py": "from .core import sageattn\n", "sageattention/core.py": body})
    return site


def cute_pip_target_site(root: Path) -> Path:
    """flash-attn-4 and nvidia-cutlass-dsl as `pip install --target DIR` leaves them: the .pth that
    would put `cutlass` on sys.path is in DIR, which is not a site dir, so it never runs."""
    site = root / "target"
    write_dist(site, "flash-attn-4", "4.0.0b36", record=FA4_RECORD)
    write_dist(site, "nvidia-cutlass-dsl", "4.8.1")
    write_files(site, {
        "flash_attn/cute/__init__.py": "from .interface import flash_attn_func, flash_attn_varlen_func\n",
        "flash_attn/cute/interface.py": "import cutlass\n",
        "nvidia_cutlass_dsl_packages.pth": "import sys, os, nvidia_cutlass_dsl; sys.path.insert(0, "
                                           "os.path.join(nvidia_cutlass_dsl.__path__[0], 'dsl_packages'))\n",
        "nvidia_cutlass_dsl/__init__.py": "",
        "nvidia_cutlass_dsl/dsl_packages/cutlass/__init__.py": ""})
    # the rest of what FA4's RECORD lists, as stubs: pip leaves every file it records (a missing one is
    # cute.files-missing, another finding)
    write_files(site, {line.split(",")[0]: "" for line in FA4_RECORD
                       if line.startswith("flash_attn/") and not (site / line.split(",")[0]).exists()})
    return site


def start(site: Path, backend: str, timeout: int) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(site)]), NO_COLOR="1")
    return subprocess.Popen([sys.executable, "-m", "attn_doctor", "check", "--no-smoke", "--backend", backend,
                             "--timeout", str(timeout), "--json", "-"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    procs = {}
    for name, body in SAGE_STUBS.items():
        procs[name] = start(sage_site(tmp_path_factory.mktemp(name), body), "sage", EASY)
    procs["cute-pip-target"] = start(cute_pip_target_site(tmp_path_factory.mktemp("cute")), "cute", EASY)
    out = {}
    for name, p in procs.items():
        stdout, stderr = p.communicate(timeout=EASY + 120)
        out[name] = (p.returncode, stdout, stderr)
    return out


def report(runs, name):
    rc, stdout, stderr = runs[name]
    doc = json.loads(stdout)  # stdout is exactly one JSON document
    assert doc["exit_code"] == rc == 1, stderr
    assert doc["facts"]["torch"]["probe"]["import_ok"], "torch itself must import for these tests"
    return doc


def the_finding(doc, backend):
    mine = [f for f in doc["findings"] if f["backend"] == backend and f["section"] == "backends"]
    assert len(mine) == 1, mine
    return mine[0]


def test_undefined_symbol(runs):
    doc = report(runs, "undefined-symbol")
    sage = doc["backends"]["sage"]
    assert sage["status"] == "broken" and sage["version"] == "1.0.6"
    f = the_finding(doc, "sage")
    assert f["id"] == "import.undefined-symbol" and f["severity"] == "error"
    assert "_ZN3c104cuda9SetDeviceEi" in f["title"]
    assert "undefined symbol" in f["detail"]


def test_segfault(runs):
    doc = report(runs, "segfault")
    assert doc["backends"]["sage"]["status"] == "broken"
    assert "SIGSEGV" in doc["backends"]["sage"]["reason"]
    f = the_finding(doc, "sage")
    assert f["id"] == "import.crashed" and "SIGSEGV" in f["title"]
    assert doc["facts"]["imports"]["sage"]["run"]["signal"] == "SIGSEGV"


def test_cutlass_pth_not_processed(runs):
    doc = report(runs, "cute-pip-target")
    assert doc["backends"]["cute"]["status"] == "broken"
    f = the_finding(doc, "cute")
    assert f["id"] == "cute.dsl-pth-not-processed"
    assert f["fix"].startswith("export PYTHONPATH=") and "dsl_packages" in f["fix"]


@pytest.mark.parametrize("name", ["undefined-symbol", "segfault", "cute-pip-target"])
def test_only_json_on_stdout_and_no_traceback(runs, name):
    rc, stdout, stderr = runs[name]
    json.loads(stdout)
    assert "Traceback" not in stderr
