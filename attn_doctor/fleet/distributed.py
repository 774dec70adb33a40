"""`check --distributed`: every rank of a launcher checks its own GPU; rank 0 reports for all.

The launcher does the fan-out. Under torchrun each rank gets RANK, WORLD_SIZE, LOCAL_RANK,
MASTER_ADDR and MASTER_PORT, and the ranks share torchrun's own TCP store. Under SLURM `srun` each
task gets SLURM_PROCID, SLURM_NTASKS and SLURM_LOCALID; MASTER_ADDR defaults to the first node of
the step and MASTER_PORT to 29500 + SLURM_JOB_ID % 1000, and rank 0 hosts the store there (set
MASTER_PORT yourself when that port may be taken).

Each rank runs the normal check for its local GPU in this process (torch only in children), then
a child (fleet/exchange.py) moves the reports to rank 0 with a deadline. This module gives rank 0
the fleet view (the command prints it; it exits non-zero if any rank failed or never reported) and
the other ranks one line and their own code; they exit after rank 0 has printed.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import sys
from dataclasses import asdict, dataclass

from .. import proc
from ..model import EXIT_FINDINGS, UsageError

DEFAULT_PORT = 29500
STARTUP = 120.0  # seconds a child gets on top of its deadline to import torch


@dataclass
class Rank:
    rank: int
    world_size: int
    local_rank: int
    launcher: str  # torchrun | slurm
    addr: str
    port: int
    agent_store: bool  # torchrun hosts the store; else rank 0 does
    prefix: str  # our keys in the store, apart from the launcher's own
    host: str

    def describe(self, device: str | None) -> dict:
        return dict(asdict(self), device=device)


def _int(environ: dict, name: str) -> int | None:
    raw = environ.get(name)
    if raw is None or raw == "":
        return None
    if not raw.strip().isdigit():
        raise UsageError(f"--distributed: {name}={raw!r} is not a number")
    return int(raw)


def first_host(nodelist: str) -> str | None:
    """The first host of a SLURM node list: 'gpu[03-05,9],cpu1' -> 'gpu03', 'r[1-2]-n' -> 'r1-n'."""
    m = re.match(r"\s*([^,\[\s]+)(?:\[([^\]]+)\]([^,\s]*))?", nodelist or "")
    if not m:
        return None
    prefix, ranges, suffix = m.group(1), m.group(2), m.group(3) or ""
    if not ranges:
        return prefix
    return prefix + ranges.split(",")[0].split("-")[0] + suffix


def launch_env(environ: dict | None = None) -> Rank:
    """Who this process is among the ranks, from torchrun's or srun's environment."""
    environ = os.environ if environ is None else environ
    host = socket.gethostname()
    if environ.get("RANK") is not None and environ.get("WORLD_SIZE") is not None:
        rank, world, local = _int(environ, "RANK"), _int(environ, "WORLD_SIZE"), _int(environ, "LOCAL_RANK")
        launcher = "torchrun" if environ.get("TORCHELASTIC_RUN_ID") else "env"
        prefix = f"attn_doctor/{environ.get('TORCHELASTIC_RUN_ID', 'env')}/{environ.get('TORCHELASTIC_RESTART_COUNT', '0')}"
    elif environ.get("SLURM_PROCID") is not None and environ.get("SLURM_NTASKS") is not None:
        rank, world, local = _int(environ, "SLURM_PROCID"), _int(environ, "SLURM_NTASKS"), _int(environ, "SLURM_LOCALID")
        launcher = "slurm"
        prefix = f"attn_doctor/{environ.get('SLURM_JOB_ID', 'job')}.{environ.get('SLURM_STEP_ID', '0')}"
    else:
        raise UsageError("--distributed needs a launcher: run it under torchrun (RANK, WORLD_SIZE) or srun "
                         "(SLURM_PROCID, SLURM_NTASKS)")
    if world < 1 or not 0 <= rank < world:
        raise UsageError(f"--distributed: rank {rank} is not within the world size {world}")
    addr = environ.get("MASTER_ADDR")
    if not addr and launcher == "slurm":
        addr = first_host(environ.get("SLURM_STEP_NODELIST") or environ.get("SLURM_JOB_NODELIST")
                          or environ.get("SLURM_NODELIST") or "")
    if not addr and world > 1:
        raise UsageError("--distributed: MASTER_ADDR is not set (the host of rank 0, reachable from every rank)")
    port = _int(environ, "MASTER_PORT")
    if port is None:
        job = _int(environ, "SLURM_JOB_ID") if launcher == "slurm" else None
        port = DEFAULT_PORT + (job % 1000 if job is not None else 0)
    if not 0 < port < 65536:
        raise UsageError(f"--distributed: MASTER_PORT={port} is not a port")
    return Rank(rank=rank, world_size=world, local_rank=local if local is not None else rank, launcher=launcher,
                addr=addr or "127.0.0.1", port=port,
                agent_store=environ.get("TORCHELASTIC_USE_AGENT_STORE") == "True", prefix=prefix, host=host)


def local_devices(r: Rank, environ: dict | None = None) -> list[int]:
    """The GPU this rank checks: its local rank, or GPU 0 when the launcher left it only one."""
    environ = os.environ if environ is None else environ
    cvd = environ.get("CUDA_VISIBLE_DEVICES")
    if cvd is not None and len([x for x in cvd.split(",") if x.strip()]) == 1:
        return [0]
    return [r.local_rank]


# ---- being stopped by the launcher ------------------------------------------------------------

_state = {"printed": False, "code": EXIT_FINDINGS, "rank": None}


def guard_signals(r: Rank) -> None:
    """torchrun stops every rank when one exits non-zero: leave no child running, and say why."""
    _state["rank"] = r.rank

    def stopped(signum, frame):
        proc.kill_all()
        proc.remove_temps()  # os._exit skips the `finally` blocks that would remove them
        if not _state["printed"]:
            sys.stderr.write(f"attn-doctor: rank {r.rank} was stopped by {signal.Signals(signum).name} before every "
                             f"rank had reported: another rank exited early (the launcher's log says which)\n")
            sys.stderr.flush()
            os._exit(128 + signum)
        os._exit(_state["code"])

    signal.signal(signal.SIGTERM, stopped)


# ---- the exchange -------------------------------------------------------------------------------

def _child(plan: dict, timeout: float, python: str | None) -> dict:
    r = proc.run(proc.child_argv("fleet.exchange", json.dumps(plan), python=python), timeout=timeout)
    if r.payload is not None:
        return r.payload
    why = "timed out" if r.timed_out else (r.signal_name or r.start_error or f"exit {r.returncode}")
    tail = [ln for ln in r.text().splitlines() if ln.strip()][-1:]
    return {"ok": False, "error": f"the exchange process {why}" + (f": {tail[0][:300]}" if tail else "")}


def _plan(r: Rank, role: str, **extra) -> dict:
    return dict(role=role, addr=r.addr, port=r.port, prefix=r.prefix, rank=r.rank, world_size=r.world_size,
                host_store=not r.agent_store, **extra)


def gather(r: Rank, mine: dict, deadline: float, python: str | None = None) -> tuple[dict[int, dict], list[dict], dict | None]:
    """Rank 0: ({rank: payload}, missing ranks, exchange error or None)."""
    got = {0: mine}
    if r.world_size == 1:
        return got, [], None
    out_path = proc.temp_path("attn-doctor-fleet-", ".json")
    try:
        res = _child(_plan(r, "gather", deadline=deadline, out_path=out_path), deadline + STARTUP, python)
        if res.get("ok"):
            with open(out_path, encoding="utf-8") as fh:
                for k, v in json.load(fh).items():
                    got[int(k)] = json.loads(v)
    finally:
        proc.discard(out_path)
    if not res.get("ok"):
        missing = [{"rank": k, "world_size": r.world_size, "seconds": 0, "why": "not gathered: the exchange failed"}
                   for k in range(1, r.world_size)]
        return got, missing, {"error": res.get("error", "?"), "addr": r.addr}
    missing = [{"rank": k, "world_size": r.world_size, "seconds": deadline,
                "why": f"no report from rank {k} within {deadline:.0f} s"} for k in res.get("missing") or []]
    return got, missing, None


def deliver(r: Rank, mine: dict, deadline: float, python: str | None = None) -> dict:
    """Ranks > 0: send the report, then wait for rank 0 to have printed (bounded)."""
    in_path = proc.temp_path("attn-doctor-rank-", ".json")
    with open(in_path, "w", encoding="utf-8") as fh:
        json.dump(mine, fh, default=str)
    try:
        # Rank 0 may start gathering up to `deadline` later than we finish, then wait as long.
        return _child(_plan(r, "deliver", deadline=deadline, in_path=in_path, done_wait=2 * deadline + 60),
                      3 * deadline + 60 + STARTUP, python)
    finally:
        proc.discard(in_path)


def release(r: Rank, python: str | None = None) -> None:
    """Rank 0, after printing: let the waiting ranks exit. Under srun the store left with the gather
    child, which already ended their wait."""
    if r.world_size > 1 and r.agent_store:
        _child(_plan(r, "done", deadline=60), 60 + STARTUP, python)


# ---- one rank, start to end ---------------------------------------------------------------------

@dataclass
class Outcome:
    """What the exchange left this rank: rank 0 the fleet view to print; the others a line to say."""
    code: int
    view: object = None  # fleet.Fleet, on rank 0
    line: str | None = None  # ranks > 0: their one line for stderr


def exchange(r: Rank, report, error: str | None, *, gather_timeout: float, strict: bool,
             python: str | None = None) -> Outcome:
    """Move the reports to rank 0; rank 0 gets the fleet view (the command prints it, then calls
    `printed`), the other ranks their exit code and the line that says where their report went."""
    from .. import fleet

    mine = {"rank": r.rank, "host": r.host, "report": report.to_dict() if report is not None else None, "error": error}
    if r.rank != 0:
        res = deliver(r, mine, gather_timeout, python)
        own = report.exit_code if report is not None else EXIT_FINDINGS
        state = f"{report.count('error')} error(s), {report.count('warning')} warning(s)" if report is not None else error
        tail = "; rank 0 prints the fleet report" if res.get("ok") else f"; could not send it to rank 0: {res.get('error')}"
        return Outcome(code=own if res.get("ok") else max(own, EXIT_FINDINGS),
                       line=f"attn-doctor: rank {r.rank} on {r.host}: {state} - exit {own}{tail}")
    got, missing, exch_error = gather(r, mine, gather_timeout, python)
    members = [fleet.member(p.get("report"), f"rank {k}", host=p.get("host"), rank=k, error=p.get("error"))
               for k, p in sorted(got.items())]
    view = fleet.build(members, missing, strict=strict, world_size=r.world_size, exchange_error=exch_error)
    _state["code"] = view.exit_code
    return Outcome(code=view.exit_code, view=view)


def printed(r: Rank, python: str | None = None) -> None:
    """Rank 0 has printed the fleet report: a stop signal now exits with its code; release the ranks."""
    _state["printed"] = True
    release(r, python)
