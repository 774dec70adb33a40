#!/usr/bin/env python3
"""How the trainer-config readers follow a launcher to the files it names (issue 24, helper cfg23, 2026-11-28).

Every folder under tests/data/config_layouts_s6/ is a small repository written by hand (its layout.expect.toml says
which corpus files it was modelled on): a launcher (a .sh, .bat, .ps1, a Makefile) and the files it references, a
config beside it, under it, named through `${VAR:-default}` / `$VAR` / `%VAR%` / `$PSScriptRoot`, after a `cd`, or
missing. The launcher is read as `check --config LAUNCHER` reads it (attn_doctor.configs.load, no --trainer), from a
working directory outside the layout (so a path is never found because attn-doctor happens to run beside it), and
compared with layout.expect.toml:

  trainer, required (as a set), dtype ("" when unknown), compile ("" and "none" alike), all four right;
  unread: every file the launcher names that is not there must be named by the reading (cfg["unread"]: each entry is
          a path as the launcher wrote it, after the variables it settles), never guessed;
  refused: a refusal (one-line UsageError) must carry the words given.

A layout is right when all four fields and its unread / refused condition hold. Nothing is executed (static reads).

  python benchmarks/configs_layouts.py --out benchmarks/results/configs-layouts-s6-main.json
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from attn_doctor import configs  # noqa: E402
from attn_doctor.model import UsageError  # noqa: E402

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

LAYOUTS = ROOT / "tests" / "data" / "config_layouts_s6"
TRAINER = {"musubi-tuner": "musubi", "blissful-tuner": "blissful"}
SAME_READING = {"blissful": {"musubi"}}


def layouts(root: Path = LAYOUTS) -> list[Path]:
    return sorted(d for d in root.iterdir() if (d / "layout.expect.toml").is_file())


def expect(layout: Path) -> dict:
    return tomllib.loads((layout / "layout.expect.toml").read_text(encoding="utf-8"))


def _norm(p: str) -> str:
    return str(p).replace("\\", "/")


def names_unread(cfg: dict, want: str) -> bool:
    """The reading names `want` (a path as the launcher writes it, or its end) among what it could not read."""
    got = [_norm(u) for u in cfg.get("unread") or []]
    w = _norm(want)
    return any(g == w or g.endswith("/" + w.lstrip("./")) or g.endswith(w) for g in got)


def _in_place(layout: Path, e: dict, tmp: str) -> Path:
    """The layout's folder to read: itself, or a copy under `tmp` with its `copies` (a name -> a corpus file, relative to
    the repository) put in place, so that a corpus file several layouts run is kept once."""
    if not e.get("copies"):
        return layout
    dest = Path(tmp) / "layouts" / layout.name
    shutil.copytree(layout, dest)
    for name, src in e["copies"].items():
        shutil.copyfile(ROOT / src, dest / name)
    return dest


def judge(layout: Path) -> dict:
    e = expect(layout)
    out = {"layout": layout.name, "launcher": e["launcher"],
           "want": {"trainer": e["trainer"], "required": sorted(e["required"]), "dtype": e["dtype"],
                    "compile": e["compile_mode"] or "none", "unread": e.get("unread", []),
                    "refused": e.get("refused")}}
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)  # a working directory outside the layout
        folder = _in_place(layout, e, tmp)
        try:
            cfg = configs.load(str(folder / e["launcher"]))
        except UsageError as err:
            msg = str(err).replace(str(LAYOUTS) + os.sep, "").replace(str(folder.parent) + os.sep, "")
            out.update(outcome="refused", message=msg)
            out["right"] = bool(e.get("refused")) and e["refused"] in msg and "\n" not in msg
            return out
        except Exception as err:  # noqa: BLE001 - a crash is a finding
            out.update(outcome="crashed", message=f"{type(err).__name__}: {err}", right=False)
            return out
        finally:
            os.chdir(here)
    det = cfg.get("detected") or {}
    got = {"trainer": det.get("trainer"), "required": sorted(cfg.get("required") or []), "dtype": cfg.get("dtype") or "",
           "compile": cfg.get("compile_mode") or "none",
           "unread": [_norm(u) for u in cfg.get("unread") or []]}
    want_t = TRAINER.get(e["trainer"], e["trainer"])
    fields = {"trainer": got["trainer"] == want_t or got["trainer"] in SAME_READING.get(want_t, ()),
              "required": got["required"] == sorted(e["required"]), "dtype": got["dtype"] == e["dtype"],
              "compile": got["compile"] == (e["compile_mode"] or "none")}
    unread_ok = all(names_unread(cfg, u) for u in e.get("unread", []))
    out.update(outcome="read", got=got, fields=fields, unread_named=unread_ok,
               right=not e.get("refused") and all(fields.values()) and unread_ok)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", default=str(LAYOUTS))
    ap.add_argument("--out")
    ap.add_argument("--note", default="")
    a = ap.parse_args()
    results = [judge(d) for d in layouts(Path(a.dir))]
    n = len(results)
    right = sum(r["right"] for r in results)
    four = sum(r.get("outcome") == "read" and all(r["fields"].values()) for r in results)
    missing = [r for r in results if r["want"]["unread"]]
    named = sum(r.get("unread_named", False) for r in missing)
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    summary = {"layouts": n, "right": right, "four_fields_right": four, "with_missing_file": len(missing),
               "missing_file_named": named, "refused": sum(r["outcome"] == "refused" for r in results),
               "crashed": sum(r["outcome"] == "crashed" for r in results)}
    print(f"{right}/{n} layouts right ({four} with all four fields right; {named}/{len(missing)} missing files named; "
          f"{summary['refused']} refused, {summary['crashed']} crashed)")
    for r in results:
        if not r["right"]:
            why = r.get("message") or {k: r["got"][k] for k, ok in r["fields"].items() if not ok}
            if r.get("outcome") == "read" and not r.get("unread_named"):
                why = dict(why, unread=r["got"]["unread"]) if isinstance(why, dict) else why
            print(f"  {r['layout']}: {why}"[:300])
    if a.out:
        Path(a.out).write_text(json.dumps({"date": datetime.date.today().isoformat(), "commit": commit, "note": a.note,
                                           "summary": summary, "results": results}, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
