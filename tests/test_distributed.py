"""`check --distributed` for real on this CPU machine: two ranks under torchrun (and as srun would
start them), on 127.0.0.1 only, with --no-smoke. Ranks made to differ, hang or die go through
tests/rank_env.py, since a launcher hands every rank the same environment."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from attn_doctor import proc
from attn_doctor.fleet import distributed as dist
from attn_doctor.model import UsageError
from torch_here import needs_torch

ROOT = Path(__file__).resolve().parents[1]
RANK_ENV = str(ROOT / "tests" / "rank_env.py")
LIMIT = 600  # a safety net: every run below must end by itself well before this (240 s until ci40a: a torchrun of two
#             ranks runs ~15 s of CPU in a row, the launcher's, a rank's probe and its exchange child each importing torch;
#             the dying-rank run, which stops early, took 100-107 s of wall on one core beside 12 CPU burners)
needs_torch("distributed", "run", reason="torch.distributed is needed for --distributed")  # (found, not imported: the ranks import it)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def env(**extra) -> dict:
    e = {k: v for k, v in os.environ.items() if not k.startswith(("SLURM_", "TORCHELASTIC_"))
         and k not in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT")}
    e.update(PYTHONPATH=str(ROOT), NO_COLOR="1", **extra)
    return e


def torchrun(*actions: str, args=(), timeout=LIMIT) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "torch.distributed.run", "--nproc-per-node", "2", "--master-addr", "127.0.0.1",
           "--master-port", str(free_port()), RANK_ENV, *actions, "--",
           "check", "--distributed", "--no-smoke", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env(), cwd=ROOT)


def test_two_ranks_one_report_on_rank_0():
    r = torchrun(args=["--json", "-"])
    assert r.returncode == 0, r.stderr[-3000:]
    doc = json.loads(r.stdout)  # rank 0's fleet report is all of stdout; rank 1 writes one line on stderr
    assert doc["schema"] == "attn-doctor.fleet/1"
    host = socket.gethostname()
    assert [(m["label"], m["rank"], m["exit_code"]) for m in doc["members"]] == [(f"{host}/r0", 0, 0), (f"{host}/r1", 1, 0)]
    assert doc["missing"] == [] and doc["findings"] == [] and doc["world_size"] == 2
    assert [d["member"] for d in doc["devices"]] == [f"{host}/r0", f"{host}/r1"]
    assert "attn-doctor: rank 1 on" in r.stderr and "rank 0 prints the fleet report" in r.stderr
    # each rank's own report travelled whole
    rep1 = doc["reports"][1]["report"]
    assert rep1["schema"] == "attn-doctor.report/1" and rep1["facts"]["env"]["LOCAL_RANK"] == "1"
    assert rep1["options"]["distributed"]["launcher"] == "torchrun"


def test_one_rank_with_another_environment_is_flagged(tmp_path):
    # one run gives both renderings: the fleet report as JSON in a file (--json PATH) and as text on stdout (each torchrun
    # of two ranks is ~14 s of CPU here: the launcher, and each rank's probe and exchange children import torch)
    out = tmp_path / "fleet.json"
    r = torchrun("1:PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True", args=["--json", str(out)])
    doc = json.loads(out.read_text())
    (f,) = doc["findings"]
    # two ranks, one with the variable: no majority (rank 0 is no reference), make them the same
    assert f["id"] == "fleet.env-differs" and f["params"]["var"] == "PYTORCH_CUDA_ALLOC_CONF"
    assert f["params"]["hosts"].endswith("/r0") and f["params"]["ref_hosts"].endswith("/r1")
    assert f["fix"].endswith("/r1: unset PYTORCH_CUDA_ALLOC_CONF")
    assert r.returncode == doc["exit_code"] == 0  # a warning
    # and in the text report
    flat = " ".join(r.stdout.split())
    assert "PYTORCH_CUDA_ALLOC_CONF is unset on" in flat and "make them the same" in flat and "[fleet.env-differs]" in flat
    assert r.stdout.count("/r0 ") >= 1 and r.stdout.count("/r1 ") >= 1


def test_strict_fails_every_rank_with_warnings():
    r = torchrun(args=["--strict", "--json", "-"])
    doc = json.loads(r.stdout)
    assert [f["id"] for f in doc["findings"]] == ["fleet.member-failed", "fleet.member-failed"]
    assert r.returncode != 0  # rank 0 exits 1 (and rank 1 too, after rank 0 has printed)


def test_a_rank_that_hangs_is_reported_by_rank_0():
    r = torchrun("1:hang", args=["--gather-timeout", "10"])
    flat = " ".join(r.stdout.split())
    assert "Rank 1 of 2 did not report within 10 s" in flat
    assert "MISSING" in r.stdout and flat.endswith("exit 1")
    assert r.returncode != 0


def test_a_rank_that_dies_stops_rank_0_with_a_reason():
    """torchrun stops every rank when one exits non-zero: rank 0 says so and leaves no child behind. Rank 1 exits once rank
    0 has started its first child (rank_env's exit=3@busy): after 4 s instead, rank 0 of a loaded 2-core machine could
    still be starting, before its SIGTERM handler, and die without a word (ci40a)."""
    r = torchrun("1:exit=3@busy", args=["--gather-timeout", "120"])
    assert r.returncode != 0
    assert "attn-doctor: rank 0 was stopped by SIGTERM before every rank had reported" in r.stderr


def slurm(rank: int, port: int, *args, ntasks=2):
    e = env(SLURM_PROCID=str(rank), SLURM_NTASKS=str(ntasks), SLURM_LOCALID=str(rank), SLURM_JOB_ID="4242",
            SLURM_STEP_NODELIST="localhost", MASTER_PORT=str(port))
    return subprocess.Popen([sys.executable, "-m", "attn_doctor", "check", "--distributed", "--no-smoke", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=e, cwd=ROOT)


def test_srun_ranks_rank_0_hosts_the_exchange():
    port = free_port()
    # 120 s: how long rank 1's report waits for rank 0's store and rank 0 for it, never reached (the ranks do the same
    # work; only a loaded machine's scheduling puts one behind the other)
    p1 = slurm(1, port, "--gather-timeout", "120")  # starts first: it waits for rank 0's store
    p0 = slurm(0, port, "--gather-timeout", "120", "--json", "-")
    out0, err0 = p0.communicate(timeout=LIMIT)
    out1, err1 = p1.communicate(timeout=LIMIT)
    doc = json.loads(out0)
    assert [m["rank"] for m in doc["members"]] == [0, 1] and doc["missing"] == []
    assert doc["reports"][0]["report"]["options"]["distributed"]["launcher"] == "slurm"
    assert p0.returncode == 0 and p1.returncode == 0, (err0, err1)
    assert out1 == "" and "rank 1 on" in err1


def test_srun_rank_that_never_started():
    p0 = slurm(0, free_port(), "--gather-timeout", "5")
    out, err = p0.communicate(timeout=LIMIT)
    assert p0.returncode == 1
    flat = " ".join(out.split())
    assert "Rank 1 of 2 did not report within 5 s" in flat and "[fleet.rank-missing]" in flat


# ---- the launcher's environment ----------------------------------------------------------------

def test_launch_env_torchrun():
    r = dist.launch_env({"RANK": "3", "WORLD_SIZE": "8", "LOCAL_RANK": "3", "MASTER_ADDR": "10.1.2.3",
                         "MASTER_PORT": "29400", "TORCHELASTIC_RUN_ID": "job7", "TORCHELASTIC_USE_AGENT_STORE": "True"})
    assert (r.rank, r.world_size, r.local_rank, r.launcher, r.addr, r.port, r.agent_store) == \
        (3, 8, 3, "torchrun", "10.1.2.3", 29400, True)
    assert r.prefix == "attn_doctor/job7/0"


def test_launch_env_srun_defaults():
    r = dist.launch_env({"SLURM_PROCID": "5", "SLURM_NTASKS": "16", "SLURM_LOCALID": "1", "SLURM_JOB_ID": "123456",
                         "SLURM_STEP_NODELIST": "gpu[07-08,11],login1"})
    assert (r.rank, r.world_size, r.local_rank, r.launcher) == (5, 16, 1, "slurm")
    assert (r.addr, r.port, r.agent_store) == ("gpu07", 29500 + 456, False)


@pytest.mark.parametrize("environ, msg", [
    ({}, "needs a launcher"),
    ({"RANK": "x", "WORLD_SIZE": "2"}, "RANK='x' is not a number"),
    ({"RANK": "2", "WORLD_SIZE": "2", "MASTER_ADDR": "h"}, "not within the world size"),
    ({"RANK": "0", "WORLD_SIZE": "2"}, "MASTER_ADDR is not set"),
    ({"RANK": "0", "WORLD_SIZE": "2", "MASTER_ADDR": "h", "MASTER_PORT": "70000"}, "is not a port"),
])
def test_launch_env_bad(environ, msg):
    with pytest.raises(UsageError, match=msg):
        dist.launch_env(environ)


@pytest.mark.parametrize("nodelist, first", [("gpu[03-05,9],cpu1", "gpu03"), ("node7", "node7"),
                                              ("a1,a2", "a1"), ("rack[2-3]-n,x", "rack2-n")])
def test_first_host(nodelist, first):
    assert dist.first_host(nodelist) == first


def test_local_device_is_gpu_0_when_the_launcher_left_one():
    r = dist.launch_env({"RANK": "1", "WORLD_SIZE": "2", "LOCAL_RANK": "1", "MASTER_ADDR": "h"})
    assert dist.local_devices(r, {}) == [1]
    assert dist.local_devices(r, {"CUDA_VISIBLE_DEVICES": "5"}) == [0]
    assert dist.local_devices(r, {"CUDA_VISIBLE_DEVICES": "4,5"}) == [1]


@pytest.mark.parametrize("args, msg", [
    (["check", "--distributed", "--from", "x.json"], "attn-doctor merge"),
    (["check", "--gather-timeout", "5"], "goes with --distributed"),
    (["check", "--distributed", "--no-smoke"], "needs a launcher"),
])
def test_cli_usage_errors(args, msg):
    r = subprocess.run([sys.executable, "-m", "attn_doctor", *args], capture_output=True, text=True, timeout=60,
                       env=env(), cwd=ROOT)
    assert r.returncode == 2 and msg in r.stderr and r.stderr.count("\n") == 1


def test_kill_all_stops_running_children():
    """What a launcher's SIGTERM relies on: children run in their own sessions, so the doctor kills them."""
    out = {}
    t = threading.Thread(target=lambda: out.update(r=proc.run(["sleep", "300"], timeout=600)))
    t.start()
    for _ in range(1200):  # up to 60 s for the thread to start `sleep` (a few ms idle): never reached (ci40a)
        if proc._LIVE:
            break
        threading.Event().wait(0.05)
    proc.kill_all()
    t.join(30)
    assert not t.is_alive()
    assert out["r"].signal_name == "SIGKILL" and not out["r"].timed_out
    assert not proc._LIVE


def test_srun_port_taken_is_one_exchange_finding():
    """MASTER_PORT already in use on rank 0's host: rank 0 cannot host the store; it says so, once."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        p0 = slurm(0, busy.getsockname()[1], "--gather-timeout", "5", "--json", "-")
        out, err = p0.communicate(timeout=LIMIT)
    doc = json.loads(out)
    assert p0.returncode == doc["exit_code"] == 1
    assert [f["id"] for f in doc["findings"]] == ["fleet.exchange-failed"]
    assert "address already in use" in doc["findings"][0]["title"]
    assert [m["rank"] for m in doc["missing"]] == [1]
