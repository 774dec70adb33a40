"""A doctor is run on broken machines: it must finish, say what it saw, and never make things worse.

Every case of the hardening issue, and the test that proves it. Unless a row says otherwise the test
runs the real `attn-doctor check` CLI in a subprocess against a machine faked in a temporary
directory (tests/fakeenv.py says exactly what is faked), with a hard outer bound, and asserts that
the doctor exited by itself, the exit code, and the finding id / backend status in its JSON report.
Runs that wait out a timeout are started together (the `batch` fixture), so each wait is paid once. They and the seed
(i-raise) start in an empty HOME; the others with a copy of the doctor's own cache as the seed left it (fakeenv.run_all).
The runs whose case is not torch itself (a backend's import, caches, metadata, nvcc) import a stub torch (build()'s
no_gpu); the kernels, torch's own output and the allocator variables meet the real one.

| what breaks | test(s) |
|---|---|
| backend segfaults on import | test_import_probe_e2e.py::test_segfault (CLI, fake sageattention) |
| backend segfaults in its kernel | test_kernel_fault[segfault] (CLI, torch's SDPA broken by tests/fault_site); test_smoke_planted.py::test_segfault_becomes_a_finding (smoke runner) |
| backend hangs on import | test_import_hang_is_killed_with_nothing_left (test_import_probe_e2e's hang case too) |
| backend hangs in its kernel | test_kernel_fault[hang] + test_no_process_outlives_the_doctor[k-hang]; test_smoke_planted.py::test_hang_is_killed_at_the_timeout |
| backend raises at import | test_import_raises; test_import_probe_e2e.py::test_undefined_symbol |
| backend returns NaN | test_kernel_fault[nan]; test_smoke_planted.py::test_unwritten_output_is_nan_and_caught |
| backend returns wrong values | test_kernel_fault[wrong]; test_smoke_planted.py::test_one_row_off_is_caught |
| backend prints megabytes | test_megabytes_of_output[i-flood / k-flood / t-flood]; test_smoke_runner_survives_a_flood |
| backend leaves child processes | test_no_process_outlives_the_doctor[i-grandchild / k-grandchild / ...]; test_smoke_runner_kills_a_grandchild |
| torch fails to import | test_torch_import_fails[t-raise / t-segfault]; test_torch_probe_that_cannot_start (its interpreter cannot be run) |
| torch imports, CUDA init fails | test_torch_cuda_init_fails |
| nvcc hangs / prints garbage / not executable | test_broken_nvcc |
| nvidia-smi missing / hangs | test_nvidia_smi_missing, test_nvidia_smi_hangs |
| cache dir unreadable / unwritable / a file / full disk | test_cache_dir[...], test_cache_dir_unreadable, test_cache_on_a_full_disk |
| env vars empty / huge / binary / newlines | test_allocator_env[...], test_binary_env_var_on_a_strict_utf8_stdout, test_inductor_cache_dir_env, test_fa4_cache_enabled_yes, test_absurd_environment |
| distribution metadata corrupted / missing | test_corrupt_metadata, test_missing_record |
| config binary / huge / symlink loop / directory | test_bad_config_is_one_line_exit_2 |
| --from not ours (not JSON, other schema, 100 MB, directory) | test_bad_from_is_one_line_exit_2 |
| writing files (JSON, JUnit, plots, env.sh): symlinks, temporaries, partial files | test_output_*, test_fix_write_env_*, test_bench_plot_*, test_write_atomic_* below |
| nothing left in TMPDIR / HOME | test_nothing_left_behind (every batch run) |
| a kernel that exhausts GPU memory; two doctors on one GPU | GPU only: scripts/gpu/hardening.sh (output kept under fixtures/gpu/hardening/) |

Where this machine cannot produce a case (no root for a tmpfs, no setpriv), the test is skipped
with the reason; test_findings.py still drives the check from faked facts.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import fakeenv as fe
from fakesite import write_dist
from torch_here import needs_torch

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = str(ROOT / "fixtures" / "cpu" / "check-no-smoke.json")
HANG = 90  # --timeout for runs whose child hangs until the timeout (a backend's import, a kernel). The doctor's clock
#            runs from each child's start, the real `import torch` inside it: i-hang's and k-hang's torch probe and their
#            hanging child each import torch under HANG before they get to the hang. At 20 s both probes timed out and
#            neither fake reached its hang (no pid written, the smoke child stuck in start-up) in a trial of the batch's
#            first runs on one core beside three CPU burners (ci40a, benchmarks/results/ci40a-timeouts.md), where their
#            torch imports took 20-34 s; the CI machine (CUDA torch, up to 2x slower) is that loaded when this module
#            starts. Waited out asleep, beside the rest of the batch, whose CPU takes longer than that on CI (setup 140 s)
EASY = 300  # --timeout for the others: never reached, so a loaded 2-core machine cannot flake them. A hanging nvidia-smi
#            or nvcc is waited out at the doctor's own min(timeout, 15) s whatever --timeout says (facts/__init__.py),
#            so their runs take EASY too: under HANG the real torch's import probe in the nvcc run timed out on a loaded
#            machine (torch.import-hang, rc 1: test_broken_nvcc failed in session 34's batch). 300 as
#            test_import_probe_e2e's: the torch probe took 34 s of 90 in the trial above
TOOL_WAIT = 15  # that cap
MiB = 1 << 20
SEED = "i-raise"  # started cold before the others, which start with a copy of its HOME's attn-doctor cache (run_all)


# ----------------------------------------------------------------------------------------------
# machinery: tmpfs mounts (root only), file modes that bind root too
# ----------------------------------------------------------------------------------------------

def mount_tmpfs(path: Path, size: str) -> str | None:
    """Mount a small tmpfs at `path`; the reason it could not be done, or None."""
    if os.geteuid() != 0:
        return "mounting a tmpfs needs root"
    if not shutil.which("mount"):
        return "no mount command"
    path.mkdir(parents=True, exist_ok=True)
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(path)],
                       capture_output=True, text=True)
    return None if r.returncode == 0 else f"mount -t tmpfs failed: {r.stderr.strip()[:200]}"


def remount_ro(path: Path) -> str | None:
    r = subprocess.run(["mount", "-o", "remount,ro", str(path)], capture_output=True, text=True)
    return None if r.returncode == 0 else f"remount,ro failed: {r.stderr.strip()[:200]}"


def umount(path: Path) -> None:
    subprocess.run(["umount", "-l", str(path)], capture_output=True)


def fill(directory: Path) -> None:
    """Write zeros into `directory` until its filesystem is full."""
    try:
        with open(directory / "filler", "wb") as fh:
            while True:
                fh.write(b"\0" * 4096)
                fh.flush()
    except OSError:  # ENOSPC: full, as wanted
        pass


def without_dac_override() -> tuple[list[str], str | None]:
    """The argv prefix under which file modes bind (root bypasses them), or why there is none. As root:
    setpriv drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from the bounding set, which the doctor's
    children inherit; the uid stays 0, so the interpreter (wherever root installed it) still runs."""
    if os.geteuid() != 0:
        return [], None  # unprivileged already: a mode-000 directory is unreadable to us
    setpriv = shutil.which("setpriv")
    if not setpriv:
        return [], "running as root and no setpriv to drop CAP_DAC_OVERRIDE"
    prefix = [setpriv, "--bounding-set=-dac_override,-dac_read_search"]
    probe = tempfile.mkdtemp()
    try:
        os.chmod(probe, 0)
        code = f"import os\ntry:\n    os.listdir({probe!r})\nexcept PermissionError:\n    print('denied')"
        r = subprocess.run([*prefix, sys.executable, "-c", code], capture_output=True, text=True)
    finally:
        os.chmod(probe, 0o700)
        os.rmdir(probe)
    if r.stdout.strip() != "denied":
        return [], f"setpriv could not take CAP_DAC_OVERRIDE away here: {(r.stderr or r.stdout).strip()[-200:]}"
    return prefix, None


# ----------------------------------------------------------------------------------------------
# the batch: every fake machine, built and checked at once
# ----------------------------------------------------------------------------------------------

def build(base: Path, mounts: list[Path]) -> tuple[list[fe.Run], dict[str, str]]:
    """The runs, and the reasons some could not be built here; `mounts` collects what to undo."""
    fx = base / "fixtures"
    runs: list[fe.Run] = []
    why_not: dict[str, str] = {}
    easy = ["--timeout", str(EASY)]
    hang = ["--timeout", str(HANG)]
    # FAKE torch (fakeenv.torch_site 'no-gpu': a CUDA build that sees no GPU, as CI's real torch does) for the runs whose
    # case is not torch: a backend's import, a cache folder, metadata, nvcc, a cache variable. Their torch probe and the
    # backend's import child then import the stub (~0.1 s) instead of the real torch (~3 s of CPU here, more for CI's
    # CUDA build: 20 of the batch's 37 real imports, ci42b). The runs whose case is torch's own reaction keep the real
    # one: the kernels (k-*), t-flood, and the allocator variables (e-alloc-*, e-absurd: CUDA builds read them at import)
    no_gpu = fe.torch_site(fx / "t-no-gpu", "no-gpu")

    # backends, import: a fake sageattention. i-hang writes its report to stdout (--json -): a hung import puts nothing
    # but the report there (test_import_probe_e2e's own hang run, the same case, was folded into this one)
    for kind in ("raise", "hang", "flood", "grandchild"):
        site = fe.sage_site(fx / f"i-{kind}", kind)
        runs.append(fe.Run(f"i-{kind}", ["--no-smoke", "--backend", "sage", *(hang if kind == "hang" else easy)],
                           sites=[site, no_gpu], slow=kind == "hang", json_stdout=kind == "hang"))
    # backends, kernels: the real torch with its SDPA broken in the doctor's children
    for kind in ("segfault", "hang", "nan", "wrong", "flood", "grandchild"):
        runs.append(fe.Run(f"k-{kind}", ["--backend", "sdpa", *(hang if kind == "hang" else easy)],
                           sites=[fe.FAULT_SITE], env={"ATTN_DOCTOR_TEST_SDPA_FAULT": kind}, slow=kind == "hang"))
    # torch
    for kind in ("raise", "segfault"):
        runs.append(fe.Run(f"t-{kind}", ["--no-smoke", *easy], sites=[fe.torch_site(fx / f"t-{kind}", kind)]))
    runs.append(fe.Run("t-flood", ["--no-smoke", "--backend", "sdpa", *easy], sites=[fe.FAULT_SITE],
                       env={"ATTN_DOCTOR_TEST_TORCH_FAULT": "flood"}))
    smi = fe.tool(fx / "smi-h100", "nvidia-smi", fe.SMI_H100).parent
    runs.append(fe.Run("t-cuda-init", ["--backend", "sdpa", *easy], sites=[fe.torch_site(fx / "t-cuda-init", "cuda-init")],
                       bins=[smi]))
    # tools
    runs.append(fe.Run("smi-missing", ["--no-smoke", *easy], sites=[no_gpu]))
    runs.append(fe.Run("smi-hang", ["--no-smoke", *easy], sites=[no_gpu], slow=True,
                       bins=[fe.tool(fx / "smi-hang", "nvidia-smi", fe.sleeper()).parent]))
    nvcc_bins = [fe.tool(fx / "nvcc-hang", "nvcc", fe.sleeper()).parent,
                 fe.tool(fx / "nvcc-garbage", "nvcc", "#!/bin/sh\nprintf '\\177ELF\\002\\001 not a compiler\\n'\n").parent,
                 fe.tool(fx / "nvcc-noexec", "nvcc", "#!/bin/sh\necho 'Cuda compilation tools, release 12.8, V12.8.93'\n",
                         executable=False).parent]
    runs.append(fe.Run("nvcc-broken", ["--no-smoke", *easy], sites=[no_gpu], bins=nvcc_bins, slow=True))
    # caches (torch installed: Inductor's cache is in use; the folders are judged by the doctor, not by torch)
    (fx / "c-file").mkdir(parents=True)
    (fx / "c-file" / "inductor").write_text("not a directory\n")
    runs.append(fe.Run("c-file", ["--no-smoke", *easy], sites=[no_gpu],
                       env={"TORCHINDUCTOR_CACHE_DIR": str(fx / "c-file" / "inductor")}))
    ro = fx / "c-unwritable"
    if os.geteuid() == 0:  # root writes anywhere a mode allows nothing: only a read-only filesystem stops it
        why = mount_tmpfs(ro, "64k")
        if why is None:
            mounts.append(ro)
            (ro / "inductor").mkdir()
            why = remount_ro(ro)
    else:
        (ro / "inductor").mkdir(parents=True)
        (ro / "inductor").chmod(0o555)
        why = None
    if why:
        why_not["c-unwritable"] = why
    else:
        runs.append(fe.Run("c-unwritable", ["--no-smoke", *easy], sites=[no_gpu],
                           env={"TORCHINDUCTOR_CACHE_DIR": str(ro / "inductor")}))
    prefix, why = without_dac_override()
    if why:
        why_not["c-unreadable"] = why
    else:
        (fx / "c-unreadable" / "inductor").mkdir(parents=True)
        (fx / "c-unreadable" / "inductor").chmod(0)
        runs.append(fe.Run("c-unreadable", ["--no-smoke", *easy], prefix=prefix, sites=[no_gpu],
                           env={"TORCHINDUCTOR_CACHE_DIR": str(fx / "c-unreadable" / "inductor")}))
    full = fx / "c-full"
    why = mount_tmpfs(full, "256k")
    if why:
        why_not["c-full"] = why + " (statvfs cannot be faked otherwise; test_findings.py fakes cache.low-space)"
    else:
        mounts.append(full)
        (full / "inductor").mkdir()
        fill(full)
        runs.append(fe.Run("c-full", ["--no-smoke", *easy], sites=[no_gpu],
                           env={"TORCHINDUCTOR_CACHE_DIR": str(full / "inductor")}))
    # environment variables. Linux refuses any one environment string over 128 KiB (MAX_ARG_STRLEN)
    # at exec, so "huge" is 100 kB: the most a user's shell can hand over.
    alloc = {
        "e-alloc-empty": "",
        "e-alloc-garbage": "x" * 100_000,
        "e-alloc-long-valid": ",".join(["expandable_segments:True"] * 4000),
        "e-alloc-newline": "expandable_segments:True\nmax_split_size_mb:64",
    }
    for name, value in alloc.items():
        runs.append(fe.Run(name, ["--no-smoke", "--backend", "sdpa", *easy], env={"PYTORCH_CUDA_ALLOC_CONF": value}))
    runs.append(fe.Run("e-alloc-binary", ["--no-smoke", "--backend", "sdpa", "--format", "text", *easy],
                       env={"PYTORCH_CUDA_ALLOC_CONF": b"expandable_segments:\xff\xfe",
                            "PYTHONIOENCODING": "utf-8:strict"}))  # stdout as under a UTF-8 locale
    runs.append(fe.Run("e-inductor-empty", ["--no-smoke", "--backend", "sdpa", *easy], sites=[no_gpu],
                       env={"TORCHINDUCTOR_CACHE_DIR": ""}))
    runs.append(fe.Run("e-inductor-long", ["--no-smoke", "--backend", "sdpa", *easy], sites=[no_gpu],
                       env={"TORCHINDUCTOR_CACHE_DIR": "/tmp/" + "cache/" * 1700}))
    runs.append(fe.Run("e-fa4-yes", ["--no-smoke", "--backend", "cute", *easy], sites=[fe.fa4_site(fx / "e-fa4-yes"), no_gpu],
                       env={"FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED": "yes"}))
    runs.append(fe.Run("e-absurd", ["--no-smoke", *easy], env={
        "CUDA_VISIBLE_DEVICES": b"\xff,\xfe", "TRITON_CACHE_DIR": b"/tmp/\xff\xfe", "CC": "gcc" * 30_000,
        "PYTORCH_ALLOC_CONF": ",,,:::[[[", "TORCH_CUDA_ARCH_LIST": "9.0;\n\t;\x01", "CUDA_HOME": "",
        "FLASH_ATTENTION_CUTE_DSL_CACHE_DIR": "\n", "XDG_CACHE_HOME": "relative/path", "LOGNAME": "",
        "DIFFUSERS_ATTN_BACKEND": "\x7f" * 1000}))
    # distribution metadata
    meta = fx / "m-corrupt"
    write_dist(meta, "sageattention", "1.0.6", metadata=b"")
    write_dist(meta, "xformers", "0.0.35", metadata=b"\x00\xff\xfe\x7fELF\x02\x01\x01" + b"\x00" * 64)
    write_dist(meta, "quack-kernels", "0.6.5", metadata="Metadata-Version: 2.1\nName: quack-kernels\n")
    (write_dist(meta, "einops", "0.8.1") / "METADATA").unlink()
    runs.append(fe.Run("m-corrupt", ["--no-smoke", "--backend", "sdpa", *easy], sites=[meta, no_gpu]))
    runs.append(fe.Run("m-no-record", ["--no-smoke", "--backend", "cute", *easy],
                       sites=[fe.fa4_site(fx / "m-no-record", record=False), no_gpu]))
    return runs, why_not


@pytest.fixture(scope="module")
def batch():
    # Not pytest's tmp_path: mounts and mode changes under a directory of our own, removed at the end.
    base = Path(tempfile.mkdtemp(prefix="attn-doctor-hardening-"))
    mounts: list[Path] = []
    runs: list[fe.Run] = []
    try:
        runs, why_not = build(base, mounts)
        done = fe.run_all(runs, base, seed=SEED)
        yield done, why_not
    finally:
        for m in mounts:
            umount(m)
        for r in runs:  # never leave our own fakes behind, whatever the tests concluded
            for pid in fe.pids(r.pidfile) if r.dir else []:
                if fe.alive(pid):
                    os.kill(pid, signal.SIGKILL)
        fe.restore_modes(base)
        shutil.rmtree(base, ignore_errors=True)


def get(batch, name: str) -> fe.Run:
    done, why_not = batch
    if name in why_not:
        pytest.skip(f"{name}: {why_not[name]}")
    r = done[name]
    assert not r.killed, f"{name}: the doctor did not exit within {r.bound:.0f} s; stderr: {r.stderr[-2000:]}"
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr, r.stderr[-3000:]
    assert r.rc in (0, 1), (r.rc, r.stderr[-2000:])
    assert r.doc is not None and r.doc["schema"] == "attn-doctor.report/1", r.stderr[-2000:]
    assert r.doc["exit_code"] == r.rc
    return r


def finding(r: fe.Run, fid: str, backend: str | None = None) -> dict:
    hits = [f for f in r.findings(fid) if backend is None or f["backend"] == backend]
    assert hits, f"{r.name}: no {fid} among {sorted(r.ids())}"
    return hits[0]


# ----------------------------------------------------------------------------------------------
# backends
# ----------------------------------------------------------------------------------------------

def test_import_raises(batch):
    r = get(batch, "i-raise")
    assert r.doc["backends"]["sage"]["status"] == "broken"
    f = finding(r, "import.failed", "sage")
    assert f["severity"] == "error" and "triton" in f["title"]
    assert r.rc == 1


def test_import_hang_is_killed_with_nothing_left(batch):
    """Also test_import_probe_e2e's hang case (folded in here, ci42b): the report is all of stdout (--json -), and the
    hang is the one finding of sage's."""
    r = get(batch, "i-hang")
    assert r.doc["facts"]["torch"]["probe"]["import_ok"], "the torch probe timed out too: HANG is too short for this machine's load"
    mine = [f for f in r.findings() if f["backend"] == "sage" and f["section"] == "backends"]
    assert [f["id"] for f in mine] == ["import.hang"], mine
    f = finding(r, "import.hang", "sage")
    assert f"{HANG} s" in f["title"]
    assert r.doc["facts"]["imports"]["sage"]["run"]["timed_out"] is True
    assert r.doc["backends"]["sage"]["status"] == "broken" and r.rc == 1
    hung = fe.pids(r.pidfile)
    assert hung, "the fake import never got to say its pid"
    assert [p for p in hung if not fe.gone(p)] == []


KERNEL = {  # fault → (finding, backend status)
    "segfault": ("smoke.crashed", "broken"),
    "hang": ("smoke.hang", "broken"),
    "nan": ("smoke.nan", "broken"),
    "wrong": ("smoke.wrong-result", "broken"),
}


@pytest.mark.parametrize("kind", sorted(KERNEL))
def test_kernel_fault(batch, kind):
    """The real torch's SDPA, broken in the smoke child only: the finding names the backend and the case."""
    r = get(batch, f"k-{kind}")
    fid, status = KERNEL[kind]
    f = finding(r, fid, "sdpa")
    assert f["severity"] == "error"
    sdpa = r.doc["backends"]["sdpa"]
    assert sdpa["status"] == status and r.rc == 1
    run = r.doc["facts"]["smoke"]["devices"]["cpu"]["sdpa"]["run"]
    if kind == "segfault":
        assert run["signal"] == "SIGSEGV" and "fwd+bwd" in f["title"]
    if kind == "hang":
        assert run["timed_out"] is True and run["seconds"] >= HANG
        # killed in the kernel, not in the child's start-up (`import torch` under HANG), with torch itself fine
        stuck = r.doc["facts"]["smoke"]["devices"]["cpu"]["sdpa"]["stuck_in"]
        assert stuck and f"stuck in '{stuck}'" in f["title"], (stuck, f["title"])
        assert r.doc["facts"]["torch"]["probe"], "the torch probe timed out too: HANG is too short for this machine's load"


@pytest.mark.parametrize("name", ["i-flood", "k-flood", "t-flood"])
def test_megabytes_of_output(batch, name):
    """16 MiB on stdout and stderr (half of it without a newline) change nothing: the child's answer
    is read, the report is the same as without the noise, and the doctor's own stdout is its report."""
    r = get(batch, name)
    if name == "i-flood":
        rec = r.doc["facts"]["imports"]["sage"]
        assert rec["probe"]["ok"] is True and rec["run"]["output_bytes"] >= 16 * MiB
        assert not [f for f in r.findings() if f["id"].startswith("import.")]
        assert r.doc["backends"]["sage"]["status"] != "broken"
    elif name == "k-flood":
        rec = r.doc["facts"]["smoke"]["devices"]["cpu"]["sdpa"]
        assert rec["run"]["output_bytes"] >= 16 * MiB
        assert r.doc["backends"]["sdpa"]["status"] == "ok"
        assert not [f for f in r.findings() if f["section"] == "smoke"]
    else:  # torch itself prints during `import torch`: the torch probe's answer still comes through
        t = r.doc["facts"]["torch"]
        assert t["probe"] and t["probe"]["import_ok"] is True
        assert not [f for f in r.findings() if f["id"].startswith("torch.import")]
    assert r.rc == 0
    assert len(r.stdout) < MiB  # the noise stayed in the child's pipe


@pytest.mark.parametrize("name", ["i-grandchild", "k-grandchild", "i-hang", "k-hang"])
def test_no_process_outlives_the_doctor(batch, name):
    """A process the backend started (or the hung child itself) is gone when the doctor exits."""
    r = get(batch, name)
    started = fe.pids(r.pidfile)
    assert started, f"{name}: the fake never wrote its pid"
    assert [p for p in started if not fe.gone(p)] == []
    if name.endswith("grandchild"):  # and the backend that did it is not blamed for it
        backend = "sage" if name.startswith("i-") else "sdpa"
        assert r.doc["backends"][backend]["status"] != "broken"


def test_smoke_runner_survives_a_flood():
    """The smoke runner itself (tests/fake_adapters.py: flood): every case passes despite 16 MiB of output."""
    needs_torch()  # (the smoke child imports torch; this process never needs it)
    from attn_doctor import smoke
    from attn_doctor.smoke import plan as planner

    cases = [c for c in planner.plan("sdpa", None)[0] if c["kind"] == "dense"][:1]
    res = smoke.smoke_record(smoke.run_child("sdpa", "cpu", EASY, cases=cases, adapter="tests.fake_adapters:flood"))
    assert res["run"]["output_bytes"] >= 16 * MiB
    assert res["summary"] == "1/1 passed", res["summary"]
    assert len(res["run"]["stderr_tail"]) <= 4000


def test_smoke_runner_kills_a_grandchild():
    """The smoke runner itself (tests/fake_adapters.py: grandchild): the sleeper it started is gone."""
    needs_torch()  # (the smoke child imports torch; this process never needs it)
    import re

    from attn_doctor import smoke
    from attn_doctor.smoke import plan as planner

    cases = [c for c in planner.plan("sdpa", None)[0] if c["kind"] == "dense"][:1]
    r = smoke.run_child("sdpa", "cpu", EASY, cases=cases, adapter="tests.fake_adapters:grandchild")
    m = re.search(r"GRANDCHILD_PID=(\d+)", r["run"]["stderr_tail"])
    assert m, r["run"]["stderr_tail"][-500:]
    pid = int(m.group(1))
    try:
        assert smoke.summarize(r) == "1/1 passed"
        assert fe.gone(pid)  # killed with the child's process group when run_child returned
    finally:
        if fe.alive(pid):  # our own fake: never left running, whatever the verdict
            os.kill(pid, signal.SIGKILL)


# ----------------------------------------------------------------------------------------------
# torch
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, fid", [("t-raise", None), ("t-segfault", "torch.import-crashed")])
def test_torch_import_fails(batch, name, fid):
    r = get(batch, name)
    t = r.doc["facts"]["torch"]
    assert t["probe"] is None or t["probe"].get("import_ok") is False
    platform = [f for f in r.findings() if f["section"] == "platform" and f["severity"] == "error"]
    assert platform, sorted(r.ids())
    if fid:
        assert platform[0]["id"] == fid and "SIGSEGV" in platform[0]["title"]
    else:  # the error torch raised is in the sentence the user reads
        assert platform[0]["id"].startswith("torch.") and "libtorch_cuda.so" in platform[0]["title"]
    for name_ in ("sdpa", "flex"):  # torch's own backends cannot be ok without torch
        assert r.doc["backends"][name_]["status"] != "ok"
    assert r.rc == 1


def test_torch_cuda_init_fails(batch):
    """FAKED: torch 2.11+cu128 whose CUDA init fails with torch's real warning, and an nvidia-smi that
    lists an H100. With smoke tests on, the doctor says it once (a platform error) instead of
    blaming each backend, and runs no kernels on a GPU torch cannot use."""
    r = get(batch, "t-cuda-init")
    f = finding(r, "gpu.cuda-init-failed")
    assert f["severity"] == "error" and "Error 804" in f["title"]
    assert r.doc["facts"]["smoke"].get("skipped") == "torch cannot use CUDA"
    assert not [f for f in r.findings() if f["section"] == "smoke"]
    assert r.rc == 1


def test_torch_probe_that_cannot_start(tmp_path):
    """The interpreter for the children cannot be executed (seen running as a user who may not enter
    the directory Python is installed in). FAKED: the saved CPU report's torch probe, as proc.run
    records that case; `check --from` re-evaluates it."""
    doc = json.loads(Path(FIXTURE).read_text())
    doc["facts"]["torch"]["probe"] = None
    doc["facts"]["torch"]["run"] = {"returncode": None, "signal": None, "timed_out": False, "seconds": 0.0,
                                    "start_error": "PermissionError: [Errno 13] Permission denied: '/opt/py/bin/python3'",
                                    "stderr_tail": "", "stdout_tail": "", "output_bytes": 0}
    saved = tmp_path / "saved.json"
    saved.write_text(json.dumps(doc))
    r = doctor("check", "--from", str(saved), "--json", "-")
    assert r.returncode == 1, r.stderr
    # report row 19: the interpreter cannot be run by this user; nothing is said to be wrong with torch
    found = json.loads(r.stdout)["findings"]
    f = next(f for f in found if f["id"] == "python.not-executable")
    assert "PermissionError" in f["title"] and f["fix"].startswith("ls -lL ")
    assert not any(x["id"].startswith("torch.") for x in found)


# ----------------------------------------------------------------------------------------------
# tools
# ----------------------------------------------------------------------------------------------

def test_nvidia_smi_missing(batch):
    """FAKED: a CUDA torch that sees no GPU; no nvidia-smi anywhere on PATH."""
    r = get(batch, "smi-missing")
    drv = r.doc["facts"]["driver"]
    assert drv["nvidia_smi"] is None and drv["gpus"] == [] and drv["error"] is None
    finding(r, "gpu.none")
    assert "gpu.smi-failed" not in r.ids()
    assert r.rc == 0  # warnings: nothing here is an error for a machine with no GPU


def test_nvidia_smi_hangs(batch):
    r = get(batch, "smi-hang")
    drv = r.doc["facts"]["driver"]
    assert f"did not answer within {TOOL_WAIT} s" in drv["error"]
    assert "did not answer" in finding(r, "gpu.smi-failed")["title"]
    finding(r, "gpu.none")
    assert r.rc == 0


def test_broken_nvcc(batch):
    """Three broken nvccs first on PATH: each is named; the one a source build would pick is a
    warning, the others are information; none stops the run."""
    r = get(batch, "nvcc-broken")
    kinds = {f["path"].split(os.sep)[-2]: f["kind"] for f in r.doc["facts"]["nvcc"]["found"] if "fixtures" in f["path"]}
    assert kinds == {"nvcc-hang": "hang", "nvcc-garbage": "garbage", "nvcc-noexec": "not-executable"}
    hung = next(f for f in r.doc["facts"]["nvcc"]["found"] if f["kind"] == "hang")
    assert hung["error"] == f"no answer to --version within {TOOL_WAIT} s"  # the doctor's own cap, not --timeout
    assert finding(r, "nvcc.hang")["severity"] == "warning"  # first on PATH: the build's choice
    assert finding(r, "nvcc.garbage")["severity"] == "info"
    assert finding(r, "nvcc.not-executable")["severity"] == "info"
    assert r.rc == 0


# ----------------------------------------------------------------------------------------------
# caches
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, fid", [("c-file", "cache.not-a-directory"), ("c-unwritable", "cache.unwritable")])
def test_cache_dir(batch, name, fid):
    """A file where the Inductor cache should be; a cache directory that cannot be written (as root:
    on a read-only tmpfs, since modes do not stop root)."""
    r = get(batch, name)
    f = finding(r, fid)
    assert f["severity"] == "error" and "TORCHINDUCTOR_CACHE_DIR" in f["title"]
    assert f["fix"].startswith("export TORCHINDUCTOR_CACHE_DIR=")
    assert r.rc == 1


def test_cache_dir_unreadable(batch):
    """A mode-000 cache directory, checked by a user that file modes apply to (as root: without
    CAP_DAC_OVERRIDE). It cannot be written either, and that is what stops torch."""
    r = get(batch, "c-unreadable")
    c = next(c for c in r.doc["facts"]["caches"] if c["name"] == "inductor")
    assert c["is_dir"] and c["readable"] is False and c["writable"] is False
    finding(r, "cache.unwritable")
    assert r.rc == 1


def test_cache_on_a_full_disk(batch):
    """A 256 KiB tmpfs filled to the last block."""
    r = get(batch, "c-full")
    c = next(c for c in r.doc["facts"]["caches"] if c["name"] == "inductor")
    assert c["free_bytes"] == 0 and c["fs_type"] == "tmpfs"
    assert "0.0 GiB" in finding(r, "cache.low-space")["title"]
    assert r.rc == 0  # a warning: the job may still run


# ----------------------------------------------------------------------------------------------
# environment variables
# ----------------------------------------------------------------------------------------------

ALLOC_ERRORS = {"alloc.syntax", "alloc.bad-value", "alloc.unknown-key", "alloc.bool-case"}


@pytest.mark.parametrize("name, expected, rc", [
    ("e-alloc-empty", set(), 0),  # torch treats an empty value as unset
    ("e-alloc-garbage", {"alloc.syntax"}, 1),
    ("e-alloc-long-valid", set(), 0),  # recorded cut at 4 KiB: the cut must not read as an error
    ("e-alloc-newline", {"alloc.bad-value", "alloc.syntax"}, 1),  # 'True\nmax_split_size_mb' is one token
])
def test_allocator_env(batch, name, expected, rc):
    r = get(batch, name)
    assert expected <= r.ids() and not (r.ids() & (ALLOC_ERRORS - expected)), sorted(r.ids())
    assert r.rc == rc
    for f in r.findings():  # a 100 kB value is cut in what is recorded and shown
        assert len(f["title"]) < 10_000


def test_binary_env_var_on_a_strict_utf8_stdout(batch):
    """PYTORCH_CUDA_ALLOC_CONF holds bytes that are not UTF-8, and stdout is strict UTF-8 (a UTF-8
    locale): the text report escapes them instead of dying with UnicodeEncodeError."""
    r = get(batch, "e-alloc-binary")
    f = finding(r, "alloc.bad-value")
    assert "\\udcff" in f["title"]  # the undecodable byte, shown escaped
    assert "alloc.bad-value" in r.stdout and "\\udcff" in r.stdout
    assert r.rc == 1


def test_inductor_cache_dir_env(batch):
    """TORCHINDUCTOR_CACHE_DIR='' is unset for torch (the default applies); a 10 kB path cannot be created."""
    r = get(batch, "e-inductor-empty")
    c = next(c for c in r.doc["facts"]["caches"] if c["name"] == "inductor")
    assert c["path"].endswith("torchinductor_" + r.doc["facts"]["system"]["user"]) and c["set"] is False
    r = get(batch, "e-inductor-long")
    f = finding(r, "cache.uncreatable")
    assert "bytes long" in f["title"] and r.rc == 1


def test_fa4_cache_enabled_yes(batch):
    """FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED=yes: FA4 only takes '1', so its cache is still off."""
    r = get(batch, "e-fa4-yes")
    f = finding(r, "cache.fa4-enable-value", "cute")
    assert "yes" in f["title"]


def test_absurd_environment(batch):
    """Binary, huge, empty, newline and control-character values in a dozen variables at once."""
    r = get(batch, "e-absurd")
    assert r.doc["facts"]["env"]["CC"].endswith("[90000 characters]")
    finding(r, "alloc.syntax")
    t = r.doc["facts"]["torch"]
    if t["build"].get("cuda") and t["run"].get("signal") == "SIGABRT":
        # CUDA builds of torch 2.13 parse PYTORCH_ALLOC_CONF during `import torch` and abort on this
        # one (fixtures/cuda-no-gpu/alloc-garbage.json): the report says so, and sdpa cannot be ok
        # (the crash names the allocator string as its likely cause: issue 11)
        crash = finding(r, "torch.import-crashed-alloc")
        assert crash["severity"] == "error" and "PYTORCH_ALLOC_CONF" in crash["title"]
        assert r.doc["backends"]["sdpa"]["status"] == "broken" and r.rc == 1
    else:  # the CPU build reads it only when CUDA memory is first asked for: torch imports
        assert t["probe"]["import_ok"] is True
        assert r.doc["backends"]["sdpa"]["status"] in ("ok", "skipped")


def test_cuda_build_aborts_on_a_garbage_allocator_string():
    """REAL (fixtures/cuda-no-gpu/alloc-garbage.json: torch 2.13.0+cu130, no GPU): `import torch`
    died of SIGABRT with PYTORCH_ALLOC_CONF=',,,:::[[['. Re-evaluated here, whatever torch this
    machine has: both causes are named, torch's own backends are broken, exit 1."""
    saved = ROOT / "fixtures" / "cuda-no-gpu" / "alloc-garbage.json"
    r = doctor("check", "--from", str(saved), "--json", "-")
    doc = json.loads(r.stdout)
    assert r.returncode == 1 == doc["exit_code"], r.stderr
    ids = {f["id"]: f for f in doc["findings"]}
    assert ids["alloc.syntax"]["severity"] == "error"
    crash = ids["torch.import-crashed-alloc"]  # the crash, with the allocator string named as its likely cause
    assert crash["severity"] == "error" and "SIGABRT" in crash["title"] and "PYTORCH_ALLOC_CONF=" in crash["title"]
    assert "torch.import-crashed" not in ids  # one finding for one crash
    assert {doc["backends"][n]["status"] for n in ("sdpa", "flex")} == {"broken"}
    assert doc["facts"]["torch"]["build"] == {"cuda": "13.0", "hip": None}


# ----------------------------------------------------------------------------------------------
# distribution metadata
# ----------------------------------------------------------------------------------------------

def test_corrupt_metadata(batch):
    """METADATA empty (sageattention), binary (xformers), without Version (quack-kernels), missing
    (einops): each is named, none stops the run."""
    r = get(batch, "m-corrupt")
    named = {f["params"]["dist"] for f in r.findings("versions.metadata-unreadable")}
    assert named >= {"sageattention", "xformers", "quack-kernels"}, named
    einops = r.doc["facts"]["packages"]["versions"].get("einops")
    assert einops == "0.8.1"  # known from the directory name even without METADATA
    assert r.rc == 0


def test_missing_record(batch):
    """flash-attn-4 without its RECORD: who owns flash_attn/cute is unknown, the import still runs."""
    r = get(batch, "m-no-record")
    assert r.doc["facts"]["imports"]["cute"]["probe"]["ok"] is True
    assert r.doc["backends"]["cute"]["status"] != "broken"


def test_nothing_left_behind(batch):
    """No run left anything in its private TMPDIR or HOME (the smoke results files included)."""
    done, _ = batch
    left = {name: r.leftovers for name, r in done.items() if r.leftovers}
    assert left == {}
    # both kinds of HOME were there: the hangs and the seed began without a cache (and the seed wrote one whole), the
    # others with the seed's
    cold = sorted(name for name, r in done.items() if not r.warm)
    assert SEED in cold and {"i-hang", "k-hang"} <= set(cold) and len(cold) < len(done) // 2, cold
    assert (done[SEED].dir / "home" / ".cache" / "attn-doctor" / "index.json").is_file()


# ----------------------------------------------------------------------------------------------
# hostile input: one line on stderr, exit 2, nothing else
# ----------------------------------------------------------------------------------------------

def doctor(*args, cwd=None, preexec=None) -> subprocess.CompletedProcess:
    # no bytecode written: under _fsize_limit a module whose .pyc is stale (after any edit or merge) would be cached cut at the
    # limit (importlib writes it whole or not at all only where write() fails; with SIGXFSZ ignored it writes 1 KiB and
    # succeeds), and every later import of that module in the tree fails with "marshal data too short" (review rev26)
    env = dict(fe.base_env(), PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, "-m", "attn_doctor", *args], capture_output=True, text=True,
                          timeout=120, env=env, cwd=cwd or str(ROOT), preexec_fn=preexec)


def one_line_exit_2(r: subprocess.CompletedProcess, *needles: str) -> None:
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    assert r.stderr.startswith("attn-doctor: error: ") and r.stderr.count("\n") == 1, r.stderr[-2000:]
    assert r.stdout == ""
    for n in needles:
        assert n in r.stderr, r.stderr


def _sparse(p: Path, size: int) -> Path:
    with open(p, "wb") as fh:
        fh.truncate(size)  # no disk used
    return p


def _loop(d: Path) -> Path:
    (d / "a.json").symlink_to(d / "b.json")
    (d / "b.json").symlink_to(d / "a.json")
    return d / "a.json"


BAD_CONFIG = {
    "binary": (lambda d: (d / "config.json").write_bytes(b"\x7fELF\x02\x01\x01\x00" * 64) and d / "config.json", "binary"),
    "50 MB": (lambda d: _sparse(d / "config.json", 50 * MiB), "too large"),
    "symlink loop": (_loop, "cannot read"),
    "directory": (lambda d: d, "is a directory"),
}


@pytest.mark.parametrize("kind", sorted(BAD_CONFIG))
def test_bad_config_is_one_line_exit_2(tmp_path, kind):
    """The live command (no --from): the config is read before anything is probed."""
    make, needle = BAD_CONFIG[kind]
    one_line_exit_2(doctor("check", "--no-smoke", "--config", str(make(tmp_path))), needle)


BAD_FROM = {
    "not JSON": (lambda d: (d / "r.json").write_text("{ nope") and d / "r.json", "not JSON"),
    "another schema": (lambda d: (d / "r.json").write_text('{"schema": "pip-audit/1", "facts": {}}') and d / "r.json",
                       "not an attn-doctor report"),
    "100 MB": (lambda d: _sparse(d / "r.json", 100 * MiB), "larger than"),
    "directory": (lambda d: d, "is a directory"),
}


@pytest.mark.parametrize("kind", sorted(BAD_FROM))
def test_bad_from_is_one_line_exit_2(tmp_path, kind):
    make, needle = BAD_FROM[kind]
    one_line_exit_2(doctor("check", "--from", str(make(tmp_path))), needle)


# ----------------------------------------------------------------------------------------------
# writing files: atomically, never through a symlink, never half-way, nothing else touched
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("flag", ["--json", "--junit"])
def test_output_symlink_is_replaced_not_followed(tmp_path, flag):
    """--json PATH (also tests/test_cli.py) and --junit PATH: a symlink at PATH becomes the report;
    the file it pointed to, elsewhere, keeps its bytes."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    target = elsewhere / "precious.txt"
    target.write_text("keep me\n")
    out = tmp_path / "out"
    out.mkdir()
    link = out / "report.out"
    link.symlink_to(target)
    r = doctor("check", "--from", FIXTURE, flag, str(link))
    assert r.returncode == 0, r.stderr
    assert target.read_text() == "keep me\n" and sorted(os.listdir(elsewhere)) == ["precious.txt"]
    assert not link.is_symlink() and link.stat().st_size > 100
    assert sorted(os.listdir(out)) == ["report.out"]


def test_output_into_an_unwritable_directory(tmp_path):
    """Refused before probing, in one line; the old report is untouched and nothing is added.
    As root a read-only tmpfs is the only unwritable directory."""
    d = tmp_path / "ro"
    if os.geteuid() == 0:
        why = mount_tmpfs(d, "64k")
        if why:
            pytest.skip(why)
    else:
        d.mkdir()
    try:
        (d / "report.json").write_text("old\n")
        if os.geteuid() == 0:
            why = remount_ro(d)
            if why:
                pytest.skip(why)
        else:
            d.chmod(0o555)
        r = doctor("check", "--no-smoke", "--json", str(d / "report.json"))
        one_line_exit_2(r, "is not writable")
        assert sorted(os.listdir(d)) == ["report.json"] and (d / "report.json").read_text() == "old\n"
    finally:
        if os.geteuid() == 0:
            umount(d)
        else:
            d.chmod(0o755)


def _fsize_limit(limit: int):
    def preexec():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return preexec


@pytest.mark.parametrize("flag", ["--json", "--junit"])
def test_output_failing_half_way_keeps_the_old_file(tmp_path, flag):
    """The write fails after 1 KiB (RLIMIT_FSIZE: as a full disk would, any user can set it): exit 2
    in one line, the old file keeps its bytes, no temporary file is left."""
    out = tmp_path / "report.out"
    out.write_text("old report\n")
    r = doctor("check", "--from", FIXTURE, flag, str(out), preexec=_fsize_limit(1024))
    one_line_exit_2(r, "cannot write", "too large")
    assert out.read_text() == "old report\n"
    assert sorted(os.listdir(tmp_path)) == ["report.out"]


def test_output_on_a_full_disk(tmp_path):
    """A real full filesystem (a tmpfs filled to the last block): same promise as above."""
    d = tmp_path / "full"
    why = mount_tmpfs(d, "64k")
    if why:
        pytest.skip(why + "; test_output_failing_half_way_keeps_the_old_file covers it without root")
    try:
        (d / "report.json").write_text("old report\n")
        fill(d)
        r = doctor("check", "--from", FIXTURE, "--json", str(d / "report.json"))
        one_line_exit_2(r, "No space left on device")
        assert (d / "report.json").read_text() == "old report\n"
        assert sorted(os.listdir(d)) == ["filler", "report.json"]
    finally:
        umount(d)


def test_write_atomic_interrupted_leaves_nothing(tmp_path, monkeypatch):
    """Ctrl-C between the temporary file and the rename (library level: a signal cannot be timed
    from outside): the KeyboardInterrupt goes on, the old file stays, the temporary is gone."""
    from attn_doctor import fsutil

    out = tmp_path / "report.json"
    out.write_text("old\n")

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(fsutil.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        fsutil.write_atomic(str(out), "new\n")
    assert out.read_text() == "old\n" and sorted(os.listdir(tmp_path)) == ["report.json"]


def test_bench_plot_replaces_a_symlink(tmp_path):
    pytest.importorskip("matplotlib", reason="bench --plot needs matplotlib, which this environment lacks")
    target = tmp_path / "precious.png"
    target.write_bytes(b"keep")
    link = tmp_path / "plot.png"
    link.symlink_to(target)
    r = doctor("bench", "--backend", "sdpa", "--seqlen", "64", "--min-time", "0.05", "--no-backward",
               "--plot", str(link), "--json", str(tmp_path / "bench.json"))
    assert r.returncode in (0, 1), r.stderr
    assert target.read_bytes() == b"keep" and not link.is_symlink()
    assert sorted(os.listdir(tmp_path)) == ["bench.json", "plot.png", "precious.png"]


def test_fix_write_env_never_writes_through_a_symlink(tmp_path):
    """`fix --write-env PATH` (tests/test_envfile.py has the library cases): a symlink to a file that
    is not ours is refused in one line; with --force it is replaced (its content kept in PATH.bak) and
    the file it pointed to, elsewhere, keeps its bytes."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    target = elsewhere / "profile.sh"
    target.write_text("export KEEP=me\n")
    out = tmp_path / "out"
    out.mkdir()
    link = out / "env.sh"
    link.symlink_to(target)
    one_line_exit_2(doctor("fix", "--from", FIXTURE, "--write-env", str(link)), "not written by attn-doctor")
    assert link.is_symlink() and sorted(os.listdir(out)) == ["env.sh"]
    r = doctor("fix", "--from", FIXTURE, "--write-env", str(link), "--force")
    assert r.returncode == 0, r.stderr
    assert target.read_text() == "export KEEP=me\n" and sorted(os.listdir(elsewhere)) == ["profile.sh"]
    assert not link.is_symlink() and "TORCHINDUCTOR_CACHE_DIR" in link.read_text()
    assert (out / "env.sh.bak").read_text() == "export KEEP=me\n"
    assert sorted(os.listdir(out)) == ["env.sh", "env.sh.bak"]


def test_fix_write_env_failing_half_way_keeps_the_old_file(tmp_path):
    """env.sh as --json above: a write cut short (RLIMIT_FSIZE) leaves the previous env.sh whole."""
    out = tmp_path / "env.sh"
    r = doctor("fix", "--from", FIXTURE, "--write-env", str(out))
    assert r.returncode == 0, r.stderr
    old = out.read_bytes()
    out.write_bytes(old + b"export MINE=1\n")  # so that what fix would write differs, and it writes
    old = out.read_bytes()
    r = doctor("fix", "--from", FIXTURE, "--write-env", str(out), preexec=_fsize_limit(64))
    one_line_exit_2(r, "cannot write")
    assert out.read_bytes() == old
    assert sorted(os.listdir(tmp_path)) == ["env.sh"]
