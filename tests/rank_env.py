"""Run attn-doctor as one rank of a launcher, with that rank made to differ from the others.

A launcher gives every rank the same environment, so a test (or scripts/gpu/fleet.sh) that needs
one rank to differ puts this script between the launcher and attn-doctor:

    python -m torch.distributed.run --nproc-per-node 2 tests/rank_env.py \\
        1:PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True -- check --distributed

Each action before `--` is RANK:WHAT and applies to the rank whose LOCAL_RANK (else RANK, else
SLURM_PROCID) is RANK:
    RANK:VAR=VALUE   set VAR for that rank only
    RANK:hang        that rank sleeps instead of running attn-doctor (a rank that hangs)
    RANK:exit=N      that rank exits N at once (a rank that dies before it reports)
    RANK:exit=N@S    that rank exits N after S seconds (the others are well under way by then, on an idle machine)
    RANK:exit=N@busy that rank exits N once another rank of its launcher has started a child process of its own: that
                     rank is then under way for sure (past its signal handlers: the doctor starts its first child, the
                     torch probe, after them), where S seconds are not enough on a loaded machine (a rank's start-up
                     alone, `python -m attn_doctor` to its handlers, takes seconds when 2 cores run 15 processes)
Everything after `--` goes to `python -m attn_doctor`.
"""

import os
import sys
import time


def sibling_busy() -> bool:
    """Has another child of our parent (another rank of the launcher) a child of its own? (Linux: /proc)"""
    me, parent = os.getpid(), os.getppid()
    kids: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                ppid = int(fh.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        kids.setdefault(ppid, []).append(int(entry))
    return any(kids.get(pid) for pid in kids.get(parent, []) if pid != me)


def wait_busy(limit: float = 600.0) -> None:
    end = time.monotonic() + limit
    while not sibling_busy() and time.monotonic() < end:
        time.sleep(0.05)


def main() -> None:
    args = sys.argv[1:]
    actions = []
    while args and args[0].split(":", 1)[0].isdigit():  # argparse may drop the `--` when no action precedes it
        actions.append(args.pop(0))
    rest = args[1:] if args[:1] == ["--"] else args
    me = os.environ.get("LOCAL_RANK", os.environ.get("RANK", os.environ.get("SLURM_PROCID", "0")))
    for act in actions:
        who, _, what = act.partition(":")
        if who != me:
            continue
        if what == "hang":
            time.sleep(3600)
            sys.exit(0)
        if what.startswith("exit="):
            code, _, after = what[5:].partition("@")
            if after == "busy":
                wait_busy()
            else:
                time.sleep(float(after or 0))
            sys.exit(int(code))
        var, _, value = what.partition("=")
        os.environ[var] = value
    # exec, not a child: the launcher watches (and stops) this very process
    os.execv(sys.executable, [sys.executable, "-m", "attn_doctor", *rest])


if __name__ == "__main__":
    main()
