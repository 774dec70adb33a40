"""Runs in a child interpreter: move the ranks' reports to rank 0 through a torch.distributed TCPStore.

Only the standard library and torch.distributed are imported. No process group is formed: each
rank puts its report under its own key, and rank 0 polls for them until a deadline, so it knows
exactly which ranks never arrived (a collective would only time out, naming no one). The store
lives on the CPU, so a broken GPU, CUDA or NCCL cannot break the exchange.

Roles (argv[1] is a JSON plan):
- "gather" (rank 0): host the store (srun) or join the launcher's (torchrun); wait for every other
  rank's report; write them to out_path.
- "deliver" (ranks > 0): put this rank's report (read from in_path), then wait for rank 0's "done",
  so that no rank exits before rank 0 has printed (torchrun stops every rank when one fails).
- "done" (rank 0, after printing): tell the waiting ranks they may exit.
"""

from __future__ import annotations

import json
import sys
import time
import traceback
import zlib

SENTINEL = "@@ATTN_DOCTOR@@"


def _store(plan: dict, is_master: bool, timeout: float):
    from datetime import timedelta

    import torch.distributed as dist

    store = dist.TCPStore(plan["addr"], int(plan["port"]), is_master=is_master, wait_for_workers=False,
                          timeout=timedelta(seconds=timeout))
    return dist.PrefixStore(plan["prefix"], store)


def gather(plan: dict) -> dict:
    deadline = float(plan["deadline"])
    t0 = time.monotonic()
    store = _store(plan, plan["host_store"], deadline)
    waiting = set(range(1, int(plan["world_size"])))
    got: dict[str, str] = {}
    while waiting:
        for r in sorted(waiting):
            key = f"report/{r}"
            if store.check([key]):
                got[str(r)] = zlib.decompress(store.get(key)).decode("utf-8")
                waiting.discard(r)
        if not waiting or time.monotonic() - t0 > deadline:
            break
        time.sleep(0.2)
    with open(plan["out_path"], "w", encoding="utf-8") as fh:
        json.dump(got, fh)
    return {"ok": True, "got": sorted(int(r) for r in got), "missing": sorted(waiting),
            "seconds": round(time.monotonic() - t0, 3)}


def deliver(plan: dict) -> dict:
    with open(plan["in_path"], "rb") as fh:
        data = zlib.compress(fh.read(), 6)
    store = _store(plan, False, float(plan["deadline"]))
    store.set(f"report/{plan['rank']}", data)
    out = {"ok": True, "delivered": True}
    try:
        from datetime import timedelta

        store.wait(["done"], timedelta(seconds=float(plan["done_wait"])))
        out["done"] = True
    except Exception as e:  # rank 0 gone (srun: its store went with it) or slow: our part is done
        out.update(done=False, wait_error=f"{type(e).__name__}: {str(e).splitlines()[0][:300] if str(e) else ''}")
    return out


def done(plan: dict) -> dict:
    store = _store(plan, False, float(plan["deadline"]))
    store.set("done", b"1")
    return {"ok": True}


def main() -> None:
    plan = json.loads(sys.argv[1])
    try:
        result = {"gather": gather, "deliver": deliver, "done": done}[plan["role"]](plan)
    except BaseException as e:  # the parent turns this into a finding; it must always get an answer
        msg = str(e).strip().splitlines()
        result = {"ok": False, "error": f"{type(e).__name__}: {msg[0][:500] if msg else ''}",
                  "traceback": traceback.format_exc()[-3000:]}
    sys.stdout.flush()
    print(SENTINEL + json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
