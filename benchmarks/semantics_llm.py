"""attn_doctor.configs.load on the LLM-trainer semantics audit's synthetic configs (benchmarks/semantics_llm_cases.py):
per row, what the trainer's source does against what attn-doctor reads (trainer, required, dtype, compile_mode).

    python benchmarks/semantics_llm.py [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from attn_doctor import configs  # noqa: E402
from attn_doctor.model import UsageError  # noqa: E402
from semantics_llm_cases import CASES  # noqa: E402


def read(case: dict) -> dict:
    with tempfile.TemporaryDirectory() as d:
        for rel, text in case.get("files", {}).items():
            (Path(d) / rel).parent.mkdir(parents=True, exist_ok=True)
            (Path(d) / rel).write_text(text, encoding="utf-8")
        p = Path(d) / case["name"]
        p.write_text(case["text"], encoding="utf-8")
        try:
            cfg = configs.load(str(p))
        except UsageError as e:
            return {"error": str(e)}
    return {"trainer": cfg["trainer"], "required": cfg["required"], "dtype": cfg["dtype"],
            "compile_mode": cfg["compile_mode"]}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", help="write the per-row results here")
    a = ap.parse_args()
    rows, right = [], 0
    for c in CASES:
        got = read(c)
        want = {"trainer": c["trainer"], "required": c["required"], "dtype": c["dtype"],
                "compile_mode": c["compile_mode"]}
        ok = got == want
        right += ok
        rows.append({"id": c["id"], "ok": ok, "got": got, "want": want, "source": c["source"]})
        if not ok:
            diff = {k: f"{got.get(k)!r} -> {want[k]!r}" for k in want if got.get(k) != want[k]}
            print(f"MISS {c['id']}: {diff}" + (f" ({got['error']})" if "error" in got else ""))
    print(f"{right}/{len(CASES)} rows right in all four fields")
    if a.json:
        Path(a.json).write_text(json.dumps({"right": right, "total": len(CASES), "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
