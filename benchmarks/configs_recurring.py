#!/usr/bin/env python3
"""Configs' misses at each blind round's FIRST measurement, against today's reading (issue 24, session 29, helper cfg122).

Every blind configs round that is training material now (an `m` round of FIRST below, never one benchmarks/configs_refusals.py
MEASURE_ONLY lists: asserted) was measured once before anyone read it: a small held-out sample. This lists every miss of
that first measurement — a claimed file refused or read wrong in any of the four fields, an unclaimed / none file read as
a trainer — in both layouts, beside what today's code reads (this checkout, configs_heldout.score in the flat and the
repository layout). Old readings are judged against TODAY's labels (configs_heldout.judge), so a label mended since is
not counted as a miss of the code.

Where the first reading comes from: the committed record of the round whose `commit` is the round's first code
(benchmarks/results/configs-roundNNm-*, plain or packed: results_io), per layout; where none was committed (the flat
layout of rounds before 64m, the repository layout before 72m mostly), the flat reading of that commit's attn_doctor
taken by configs_blind_carry (git archive into its cache, run over today's files), and no repository-layout first.
Each miss gets a coarse class (refused: configs_refusals.reason; else the first wrong field) and, from MECHANISM below
(read file by file: benchmarks/results/configs-recurring-s29.md), the mechanism class of its evidence.

    python benchmarks/configs_recurring.py --tsv benchmarks/results/configs-recurring-s29.tsv
    python benchmarks/configs_recurring.py --only 99m,103m          # some rounds
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
import results_io  # noqa: E402
from configs_blind_carry import COMMITS, measure, miss_class  # noqa: E402
from configs_heldout import TRAINER, expect, judge  # noqa: E402
from configs_refusals import MEASURE_ONLY  # noqa: E402
from explain_blind_carry import tree  # noqa: E402

# round -> the code of its first measurement: configs_blind_carry.COMMITS's first, plus the rounds read since
# (the `commit` of their earliest committed record: session 23 start 178ca03e ... session 27 "first" 9ac548b1)
FIRST = {r: c[0] for r, c in COMMITS.items()}
FIRST.update({"95m": "178ca03e", "99m": "69139402", "103m": "15e7edae", "107m": "c6e34c6a", "111m": "9ac548b1",
              "119m": "834eef7d", "123m": "1ab6b1ec", "130m": "9be101e2", "133m": "c7b7aa74", "135m": "64867602", "137m": "afead92c",
              "139m": "85d97abc", "141m": "de515b8b", "143m": "aae28052", "145m": "c06212b7", "147m": "798e757b"})  # 119m: session 29 "first"
# (cfg124, session 30); 123m: session 30 "first" (cfg127, session 32); 130m: session 32 "first" (cfg132, session 33);
# 133m: session 33 "first" (cfg134, session 34); 135m: session 34 "first" (session 35); 137m: session 35 "first" (session 36);
# 139m: session 36 "first" (session 37); 141m: session 38 "first" (session 39); 143m: session 39 "first" (session 40); 145m: session
# 40 "first" (session 41); 147m: session 41 "first" (session 42)
CONFIGS = ROOT / "fixtures" / "configs"


def committed_first(r: str, commit: str) -> dict[str, list[dict]]:
    """layout -> the records of round r's committed measurement made with `commit` (short hashes of either length)."""
    out: dict[str, list[dict]] = {}
    prefix = f"configs-round{r}-"
    for name in sorted(results_io.records()):
        if not name.startswith(prefix) or not name.endswith(".json"):
            continue
        d = results_io.load_json(results_io.RESULTS / name)
        c = str(d.get("commit") or "")
        if not c or not (c.startswith(commit[:7]) or commit.startswith(c[:7])):
            continue
        layout = d.get("layout") or ("repo" if "repo" in name else "flat")
        out.setdefault(layout, d["files"])
    return out


def rejudge(r: str, recs: list[dict]) -> dict[str, dict]:
    """file -> the old reading judged against today's label (files gone since are left out)."""
    out = {}
    for x in recs:
        p = CONFIGS / f"round{r}" / x["file"]
        if p.with_name(p.name + ".expect.toml").is_file():
            out[x["file"]] = judge(x["file"], expect(p), x["got"])
    return out


def missed(x: dict | None) -> bool:
    if x is None:
        return False
    return not x["all_right"] if x["kind"] == "claimed" else x["got"]["outcome"] == "read"


def klass(x: dict) -> str:
    if x["kind"] != "claimed":
        return f"{x['expected']['trainer']} read as {x['got']['trainer']}"
    return miss_class(x)


def said(x: dict | None) -> str:
    if x is None:
        return "-"
    g = x["got"]
    if g["outcome"] != "read":
        return f"{g['outcome']}: {' '.join(g.get('message', '').split())[:100]}"
    return f"{g['trainer']} {','.join(sorted(g['required'])) or '-'} {g['dtype'] or '-'} {g['compile_mode'] or 'none'}"


def label(x: dict) -> str:
    e = x["expected"]
    if x["kind"] != "claimed":
        return e["trainer"]
    return (f"{TRAINER.get(e['trainer'], e['trainer'])} {','.join(sorted(e['required'])) or '-'} {e['dtype'] or '-'} "
            f"{e['compile_mode'] or 'none'}")


# (round, file) -> mechanism class, where the rule below (mechanism()) cannot tell it: read file by file from the
# label's `why` (configs-recurring-s29.md says what each class is)
KBIT = "float32: a k-bit model upcast by TRL's SFTTrainer (peft_config), no dtype named"
LOAD32 = "float32: no dtype and no AMP, transformers' / TRL's release not shown"
MECHANISM: dict[tuple[str, str], str] = {
    ("111m", "transformers/huggingface__trl__1055__sft_example.py"): KBIT,
    ("47m", "transformers/nihardamera__Commit-Suggestor__scripts__model_finetuning.py"): KBIT,  # relabelled by cfg122
    ("107m", "transformers/sehyeondev__llama2-fine-tune__fine_tune.py"): KBIT,
    ("107m", "transformers/huggingface__trl__2635__sft.py"): LOAD32,
    ("103m", "transformers/huggingface__transformers__25180__run_clm.sh"): LOAD32,
    ("103m", "transformers/huggingface__trl__1829__cmd.sh"): LOAD32,
    ("95m", "transformers/GOptimistic__chatglm_finetune__finetune_hf.py"): LOAD32,
    ("57m", "transformers/ZaheedaT__Llama3-Finetuning__app__main.py"): LOAD32,
}
# (119m, cfg124, session 30: what its three first-measurement misses were, read from the trainers' source)
PASTED = "a pasted text's shape hides the command (a label glued before it, a log record wrapped onto indented lines)"
MODEL_CODE = "a trainer's model type whose own code requires a backend, missing from the reader's table"
MECHANISM.update({
    ("119m", "diffusion-pipe/tdrussell__diffusion-pipe__268__hidream.toml"): MODEL_CODE,
    ("119m", "ms-swift/modelscope__ms-swift__3399__train.sh"): PASTED,
    ("119m", "sd-scripts/bmaltais__kohya_ss__1908__gui_log.txt"): PASTED,
    # the same class in the thread rounds before it, by their READMEs' "Read after its measurement" ("pasted dress")
    ("103m", "diffusers/segmind__SSD-1B__6__cmd.txt"): PASTED,
    ("103m", "litgpt/Lightning-AI__litgpt__477__cmd.txt"): PASTED,
    ("103m", "sd-scripts/cocktailpeanut__fluxgym__340__log.txt"): PASTED,
    ("103m", "sd-scripts/cocktailpeanut__fluxgym__45__log.txt"): PASTED,
    ("111m", "sd-scripts/bmaltais__kohya_ss__89__error.txt"): PASTED,
})
SETTINGS_ELSEWHERE = "settings in another file of the repository the set holds (flat layout hides it)"


def mechanism(row: dict) -> str:
    """The mechanism class of a first-measurement miss, from its readings: where the evidence is (the launched script,
    the repository's own module or settings file, in the set or not) and what kind of file refused."""
    if (row["round"], row["file"]) in MECHANISM:
        return MECHANISM[(row["round"], row["file"])]
    k, first_repo_ok = row["klass"], "repo" not in row["first_missed"] and row["first_repo"] != "-"
    repo_ok = "repo" not in row["open"]
    if " read as " in k:
        return "a user's own schema / script read as a trainer (unclaimed read)"
    if k.startswith("refused: launch of a script"):
        return ("launch: the launched script is in the set, where the flat layout hides it" if repo_ok or first_repo_ok
                else "launch: the launched script is not in the set, or is refused / misread there")
    if k.startswith("refused: runs only another script"):
        return "launch: a launcher of another launcher"
    if k.startswith("refused: Python script with no trainer calls"):
        return ("entry script whose trainer calls are in its own package (flat layout hides it)" if repo_ok or first_repo_ok
                else "entry script whose trainer calls are in its own package, not followed")
    if k.startswith("refused"):
        return "refused: a job spec / CLI step / schema no reader claims"
    if k == "wrong trainer" and row["label"].startswith("unsloth"):
        return "Unsloth through the repository's own loader, read as transformers"
    if row["open"] == "flat" or first_repo_ok:
        return SETTINGS_ELSEWHERE
    if k == "wrong trainer":
        return "another trainer's reader won on shared evidence"
    if k == "wrong required":
        return "attention through a user module / loader / remote code, not followed"
    if k == "wrong dtype" and row["open"] == "fixed":
        return "dtype rule fixed since (a trainer's default, a settings path)"
    if k == "wrong dtype":
        return "dtype through a user module / loader / GPU probe, not followed"
    return k


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="comma-separated rounds (e.g. 99m,103m)")
    ap.add_argument("--cache", default="/tmp/configs-blind-carry", help="configs_blind_carry's cache of old trees")
    ap.add_argument("--tsv", help="every first-measurement miss, one row each")
    ap.add_argument("--keep", help="today's readings: read from this JSON when it exists, else measured and written there")
    a = ap.parse_args(argv)
    rounds = a.only.split(",") if a.only else list(FIRST)
    assert not [r for r in rounds if f"round{r}" in MEASURE_ONLY or "heldout" in r]
    if a.keep and Path(a.keep).is_file():
        now = json.loads(Path(a.keep).read_text(encoding="utf-8"))
    else:
        now = {lay: measure(ROOT, [f"round{r}" for r in rounds], lay) for lay in ("flat", "repo")}
        if a.keep:
            Path(a.keep).write_text(json.dumps(now), encoding="utf-8")
    rows, per_round = [], {}
    for r in rounds:
        first = committed_first(r, FIRST[r])
        if "flat" not in first:
            code = tree(FIRST[r], Path(a.cache))
            kept = code / f"flat-round{r}.json"
            if not kept.is_file():
                kept.write_text(json.dumps(measure(code, [f"round{r}"])[f"round{r}"]), encoding="utf-8")
            first["flat"] = json.loads(kept.read_text(encoding="utf-8"))
        old = {lay: rejudge(r, recs) for lay, recs in first.items()}
        cur = {lay: rejudge(r, now[lay][f"round{r}"]) for lay in now}  # (--keep's readings, judged against today's labels too)
        n = Counter()
        for name, x in cur["flat"].items():
            n["claimed" if x["kind"] == "claimed" else "to refuse"] += 1
            f_flat, f_repo = old["flat"].get(name), old.get("repo", {}).get(name)
            for lay, fx in (("flat", f_flat), ("repo", f_repo)):
                if fx is not None:
                    n[f"first {lay} files"] += 1
                    n[f"first {lay} missed"] += missed(fx)
                n[f"now {lay} missed"] += missed(cur[lay][name])
            if not (missed(f_flat) or missed(f_repo)):
                continue
            base = f_flat if missed(f_flat) else f_repo
            rows.append(dict(
                round=r, file=name, source=x["source"] or "", label=label(x),
                first_missed=",".join(lay for lay, fx in (("flat", f_flat), ("repo", f_repo)) if missed(fx)),
                klass=klass(base), first_flat=said(f_flat), first_repo=said(f_repo),
                now_flat=said(cur["flat"][name]), now_repo=said(cur["repo"][name]),
                open=",".join(lay for lay in ("flat", "repo") if missed(cur[lay][name])) or "fixed",
                mechanism=""))
            rows[-1]["mechanism"] = mechanism(rows[-1])
        per_round[r] = n
    print(f"{'round':6s} {'claimed':>7s} {'refuse':>6s} {'1st flat':>8s} {'1st repo':>8s} {'now flat':>8s} {'now repo':>8s}"
          "   (misses: claimed not all four right + files to refuse read)")
    for r, n in per_round.items():
        fr = f"{n['first repo missed']}" if n["first repo files"] else "-"
        print(f"{r:6s} {n['claimed']:7d} {n['to refuse']:6d} {n['first flat missed']:8d} {fr:>8s} "
              f"{n['now flat missed']:8d} {n['now repo missed']:8d}")
    print(f"{len(rows)} files missed at a first measurement (either layout); open now: "
          f"{sum(x['open'] != 'fixed' for x in rows)}")
    by: dict[str, Counter] = defaultdict(Counter)
    for x in rows:
        for key in (x["klass"].split(":")[0], x["mechanism"] or "(not classed)"):
            by[key]["files"] += 1
            by[key]["open"] += x["open"] != "fixed"
            by[key]["rounds"] = len({y["round"] for y in rows if key in (y["klass"].split(":")[0], y["mechanism"] or "(not classed)")})
    for k in sorted(by, key=lambda k: -by[k]["files"]):
        print(f"  {k[:70]:70s} {by[k]['files']:4d} files {by[k]['rounds']:3d} rounds {by[k]['open']:4d} open")
    print("mechanism classes per round (missed at the first measurement / still open now, either layout):")
    for k in sorted({x["mechanism"] for x in rows}, key=lambda k: -sum(x["mechanism"] == k for x in rows)):
        per = Counter(x["round"] for x in rows if x["mechanism"] == k)
        still = Counter(x["round"] for x in rows if x["mechanism"] == k and x["open"] != "fixed")
        print(f"  {k}: " + ", ".join(f"{r} {per[r]}/{still[r]}" for r in FIRST if per[r]))
    if a.tsv:
        cols = list(rows[0]) if rows else []
        lines = ["\t".join(cols)] + ["\t".join(str(x[c]).replace("\t", " ") for c in cols) for x in rows]
        Path(a.tsv).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
