"""facts/nvcc.py against fake nvcc executables written in tmp dirs (FAKED: the nvcc binaries are
shell scripts; the good one prints the real `nvcc --version` banner of CUDA 12.4)."""

from __future__ import annotations

import os

import pytest

import fakefacts as ff
from attn_doctor.facts import nvcc

GOOD = """#!/bin/sh
echo "nvcc: NVIDIA (R) Cuda compiler driver"
echo "Copyright (c) 2005-2024 NVIDIA Corporation"
echo "Built on Thu_Mar_28_02:18:24_PDT_2024"
echo "Cuda compilation tools, release 12.4, V12.4.131"
echo "Build cuda_12.4.r12.4/compiler.34097967_0"
"""
HANG = "#!/bin/sh\nexec sleep 600\n"
GARBAGE = "#!/bin/sh\necho 'hello from a stub'\n"
FAILS = "#!/bin/sh\necho 'nvcc fatal   : Unknown option' >&2\nexit 1\n"


def fake_nvcc(home, script: str, executable: bool = True) -> str:
    """<home>/bin/nvcc containing `script`."""
    b = home / "bin"
    b.mkdir(parents=True, exist_ok=True)
    p = b / "nvcc"
    p.write_text(script)
    p.chmod(0o755 if executable else 0o644)
    return str(p)


def test_good_nvcc(tmp_path):
    info = nvcc.probe(fake_nvcc(tmp_path, GOOD), "PATH", timeout=30)
    assert info["version"] == "12.4" and info["kind"] is None and info["error"] is None


def test_hanging_nvcc_is_killed(tmp_path):
    info = nvcc.probe(fake_nvcc(tmp_path, HANG), "PATH", timeout=1)
    assert info["kind"] == "hang" and info["version"] is None
    assert "within 1 s" in info["error"]


@pytest.mark.parametrize("script,printed", [(GARBAGE, "hello from a stub"), (FAILS, "nvcc fatal")])
def test_garbage_nvcc(tmp_path, script, printed):
    info = nvcc.probe(fake_nvcc(tmp_path, script), "PATH", timeout=30)
    assert info["kind"] == "garbage" and info["version"] is None
    assert printed in info["error"]


def test_not_executable_nvcc(tmp_path):
    path = fake_nvcc(tmp_path, GOOD, executable=False)
    if os.access(path, os.X_OK):  # root needs one x bit too, but some filesystems (noexec off, ACLs) differ
        pytest.skip("this user can execute a mode-0644 file")
    info = nvcc.probe(path, "PATH", timeout=30)
    assert info["kind"] == "not-executable" and info["version"] is None


def test_nvcc_that_is_not_a_program(tmp_path):
    """Executable bit set, but no '#!' and not a binary: exec fails (ENOEXEC)."""
    path = fake_nvcc(tmp_path, "this is not a program\x00\x01\x02")
    info = nvcc.probe(path, "PATH", timeout=30)
    assert info["version"] is None and info["kind"] in ("not-executable", "garbage")


def test_cuda_home_without_bin_nvcc(tmp_path):
    """CUDA_HOME points at a directory with no bin/nvcc: collected as 'absent', then reported."""
    home = tmp_path / "cuda-12.4"
    home.mkdir()
    env = {"CUDA_HOME": str(home), "PATH": ""}
    facts_nvcc = nvcc.collect(env, [], timeout=30)
    mine = [f for f in facts_nvcc["found"] if f["source"] == "$CUDA_HOME"]
    assert mine == [{"path": str(home / "bin" / "nvcc"), "source": "$CUDA_HOME", "version": None,
                     "error": "no such file", "kind": "absent"}]
    assert facts_nvcc["build_choice"] == str(home / "bin" / "nvcc")
    f = ff.gpu_box()
    f["nvcc"] = facts_nvcc
    ff.set_env(f, CUDA_HOME=str(home))
    report = ff.check(f)
    assert "nvcc.cuda-home-no-nvcc" in [x.id for x in report.findings]


def test_collect_finds_every_candidate_and_the_build_choice(tmp_path):
    """A good nvcc in CUDA_HOME, a garbage one and a hanging one on PATH: each probed, in parallel,
    the CUDA_HOME one chosen for builds, and the doctor reports the two bad ones as notes (not used)."""
    home = tmp_path / "cuda-12.4"
    good = fake_nvcc(home, GOOD)
    bad = fake_nvcc(tmp_path / "stub", GARBAGE)
    hang = fake_nvcc(tmp_path / "wrapper", HANG)
    env = {"CUDA_HOME": str(home), "PATH": os.pathsep.join([os.path.dirname(bad), os.path.dirname(hang)])}
    got = nvcc.collect(env, [], timeout=2)
    by_path = {f["path"]: f for f in got["found"]}
    assert by_path[good]["version"] == "12.4" and by_path[good]["source"] == "$CUDA_HOME"
    assert by_path[bad]["kind"] == "garbage"
    assert by_path[hang]["kind"] == "hang"
    assert got["build_choice"] == good
    f = ff.gpu_box()
    ff.set_torch(f, "2.6.0+cu124", cuda="12.4")
    ff.set_gpus(f, [("NVIDIA H200", (9, 0))])
    f["nvcc"] = got
    report = ff.check(f)
    sev = {(x.id, x.params.get("path")): x.severity for x in report.findings if x.section == "nvcc"}
    assert sev[("nvcc.garbage", bad)] == "info" and sev[("nvcc.hang", hang)] == "info"
    assert not [k for k in sev if k[0] in ("nvcc.major-mismatch", "nvcc.minor-mismatch")]


def test_pip_wheel_nvcc_is_found(tmp_path):
    """nvidia-cuda-nvcc wheels put nvcc under site-packages/nvidia/cuda_nvcc/bin."""
    site = tmp_path / "site"
    path = fake_nvcc(site / "nvidia" / "cuda_nvcc", GOOD)
    cands = nvcc.candidates({"PATH": ""}, [str(site)])
    assert (path, "pip wheel") in cands


def test_same_nvcc_twice_is_listed_once(tmp_path):
    """/usr/local/cuda/bin on PATH and CUDA_HOME=/usr/local/cuda name one file: probe it once."""
    home = tmp_path / "cuda"
    good = fake_nvcc(home, GOOD)
    link = tmp_path / "linkdir"
    link.mkdir()
    os.symlink(good, link / "nvcc")
    cands = nvcc.candidates({"CUDA_HOME": str(home), "PATH": str(link)}, [])
    assert [c for c in cands if os.path.realpath(c[0]) == os.path.realpath(good)] == [(good, "$CUDA_HOME")]

