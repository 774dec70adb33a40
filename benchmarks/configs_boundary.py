"""The transformers / unclaimed boundary on synthetic mutation variants (helper cfg44, issue 24, session 10).

tests/data/configs_cfg44/ holds files written for the purpose (each says what it fakes): training, inference, data and
evaluation files on both sides of the boundary the convention draws (benchmarks/results/configs-boundary-s10.md),
changed only in what the convention says does not matter. EXPECT.toml gives each file's side. Prints, per file, where
it lands, and the count on the wrong side.

    PYTHONPATH=$PWD python benchmarks/configs_boundary.py [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from attn_doctor import configs  # noqa: E402
from attn_doctor.model import UsageError  # noqa: E402

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

DATA = ROOT / "tests" / "data" / "configs_cfg44"


def files() -> dict:
    expect = tomllib.loads((DATA / "EXPECT.toml").read_text())
    out = {}
    for stem, e in expect.items():
        (path,) = [p for p in DATA.iterdir() if p.stem == stem]
        out[stem] = (path, e)
    return out


def reading(path: Path) -> dict:
    try:
        cfg = configs.load(str(path))
    except UsageError as err:
        return {"side": "refused", "why": str(err).split(" is ", 1)[-1][:160]}
    det = cfg.get("detected") or {}
    return {"side": det.get("trainer") if isinstance(det, dict) else str(det), "required": cfg.get("required"),
            "evidence": (det.get("evidence") or [])[:3] if isinstance(det, dict) else []}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    a = ap.parse_args()
    rows, wrong, req_wrong = {}, [], []
    for stem, (path, e) in sorted(files().items()):
        got = reading(path)
        rows[stem] = {"expect": e, "got": got}
        ok = got["side"] == e["side"]
        if not ok:
            wrong.append(stem)
        elif e["side"] != "refused" and sorted(got.get("required") or []) != sorted(e.get("required", [])):
            req_wrong.append(stem)
        print(f"{'ok ' if ok else 'XX '} {stem:32} expect {e['side']:12} got {got['side']:12} "
              f"{got.get('required', '')} {got.get('evidence') or got.get('why', '')}")
    n_t = sum(1 for _, e in files().values() if e["side"] != "refused")
    n_r = len(rows) - n_t
    wt = [s for s in wrong if rows[s]["expect"]["side"] != "refused"]
    wr = [s for s in wrong if rows[s]["expect"]["side"] == "refused"]
    print(f"\n{len(rows)} variants: {len(wrong)} on the wrong side ({len(wt)}/{n_t} claimed files refused or misread, "
          f"{len(wr)}/{n_r} files to refuse read as a trainer); required wrong on the right side: {len(req_wrong)} "
          f"{req_wrong}")
    if a.json:
        Path(a.json).write_text(json.dumps({"rows": rows, "wrong": wrong, "required_wrong": req_wrong}, indent=1,
                                           default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
