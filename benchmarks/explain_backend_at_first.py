#!/usr/bin/env python3
"""The texts every training round's FIRST measurement matched with the wrong backend (explain_recurring.FIRST), and what
explain reports for them now (helper ex42b, session 42; table: benchmarks/results/ex42b-backend-at-first.md).

    PYTHONPATH=$PWD python benchmarks/explain_backend_at_first.py [--json OUT]

For each text: the label's backend and entry as they are now (a relabelled text shows its new label), the top entry and
backend at first measurement, and now. Training rounds only (FIRST names them; MEASURE_ONLY and held-out are refused).
Each row's kind (a-other / a-none / a-label-none: attribution; b: another backend's own entry; c: the label's convention;
d: other) follows from the entry and the backends, except the texts read by hand (OVERRIDE). The table's last section,
"Read by hand", is not written by this script: keep it when regenerating.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import explain_heldout as h  # noqa: E402
import explain_recurring as er  # noqa: E402
import results_io  # noqa: E402
from compare_matches import MEASURE_ONLY  # noqa: E402


def first_wrong_backend() -> list[dict]:
    out = []
    for rd, name in er.FIRST.items():
        assert rd not in MEASURE_ONLY and "heldout" not in rd, rd
        plain = HERE / "results" / name
        first = results_io.load_json(plain if plain.is_file() else name)
        for x in first["results"]:
            if er.kind(x) == "wrong-backend":
                out.append({"round": rd, "file": x["file"], "first_label_backend": x["backend"],
                            "first_top": x.get("top"), "first_top_backend": x.get("top_backend")})
    return out


# kinds (the task's): a = a catch-all or backend-less entry whose backend attribution gave (a-other: another library the text
# names; a-none: no library found; a-label-none: one named where the label says none), b = another backend's own entry fired on a message
# shared with the label's backend, c = the label's convention (several labels disagree over whose a failure is), d = other
# (the text is ambiguous: two backends named as failing, a report in prose with no error line, several failures of one setup).
# Only c and d are read by hand (OVERRIDE); a and b follow from the entry and the backends.
OVERRIDE = {
    "round129m/Dao-AILab__flash-attention__285.txt": ("c", "relabelled fa2 -> xformers since (xformers' FA2 build); right once relabelled"),
    "round90m/huggingface__transformers__38665.txt": ("d", "several failures of one setup: the FA2 refusal ('FlashAttention only supports "
        "Ampere GPUs or newer') is FA2's own (the user asked for flash_attention_2), the label names the fp16 SDPA overflow"),
    "round95m/verl-project__verl__6283.txt": ("c", "flash-attn's Triton cross_entropy asserts, the label names the attn_implementation "
        "(sdpa) set with remove-padding; the title names FlashAttention varlen"),
    "round63m/Saganaki22__ComfyUI-Breeze-TTS-2__6.txt": ("d", "the title names 'Flash attention / CUDA graphs' as the failing cache and "
        "'with SageAttention' as the setup; no attention frame in the traceback"),
    "round136m/Acly__krita-ai-diffusion__1561.txt": ("d", "'xformers & sageattention break Comfy': both named as failing, xformers first"),
    "round160m/Comfy-Org__ComfyUI__13658.txt": ("d", "a timing comparison in prose: sage's output is the one said to be wrong, "
        "the label names FA2's missing speed-up"),
    "round160m/snowflakedb__ArcticTraining__371.txt": ("d", "'even if FA3 is installed, but not FA2, it'll fail to load': the trainer's "
        "check requires FA2, the label names the FA3 the user asked for"),
    "round172m/facebookresearch__xformers__98.txt": ("d", "only the tracker (the header) says xformers; the text names Favor and fp16"),
    "round201m/mosaicml__llm-foundry__78.txt": ("c", "label fa2 from MPT's code (flash_attn_triton), the text names only MPT's 'triton' "
        "attn_impl (its note says so)"),
    "round201m/vllm-project__vllm__8660.txt": ("c", "vllm.backend-fallback: 42 of 55 training labels say none (vLLM's own backends), "
        "this one sdpa (vLLM's Torch SDPA backend)"),
    "round203m/vllm-project__vllm__28660.txt": ("c", "vllm.backend-fallback: vLLM's FA backend labelled fa3 here, none in most texts; "
        "a PR in prose, the failure not quoted"),
    "round203m/vllm-project__vllm__485.txt": ("c", "xformers' fmha.flash op (FA2 run by xformers): xformers in 49 of 50 training "
        "labels of texts showing it; the title's FA words read fa2 (fixed here: FA_MODULE_CODE['xformers'])"),
    "round202m/facebookresearch__xformers__1072.txt": ("c", "a question porting xformers' BlockDiagonalMask to flash_attn_func: "
        "labelled fa2 (the API asked about); explain names xformers (named first)"),
    "round202m/intel__ipex-llm__10427.txt": ("c", "'flash attention' on an Intel GPU (PVC): labelled sdpa (IPEX's fused SDPA), "
        "round26's intel/ipex-llm#13282 labels IPEX's flash attention fa2"),
    "round202m/deepbeepmeep__YuEGP__4.txt": ("d", "the app's own option parsing fails ('Namespace' has no attribute 'sdpa') beside "
        "'I have installed flash-attn': labelled sdpa for the option's name"),
    "round196m/huggingface__diffusers__4166.txt": ("a-none", "train.oom (no backend): 'switch from SDP to xFormers and it works' names the "
        "failing one only as what was switched away from (train.oom's claims are ex42u's this session)"),
    "round201m/axolotl-ai-cloud__axolotl__3885.txt": ("b", "fa2.dtype on torch's vendored FA2 check, raised through "
        "torch.nn.attention.varlen.varlen_attn (fixed here: [torch_flash_shared])"),
}


def kind_of(r: dict) -> tuple[str, str]:
    key = f"{r['round']}/{r['file']}"
    if key in OVERRIDE:
        return OVERRIDE[key]
    from attn_doctor import knowledge
    from attn_doctor.knowledge import attribution

    top, tb = r["first_top"], r["first_top_backend"]
    try:
        own = attribution.backend_of(knowledge.get(top)) if top else None
    except KeyError:
        own = None
    if own is not None and own == tb:
        return "b", f"{top} is {own}'s own entry, fired on a message the label's backend shares"
    if tb in (None, "none", ""):
        return "a-none", f"{top} has no backend of its own and attribution found no library near it"
    if r["first_label_backend"] == "none":
        return "a-label-none", f"the label says no backend; attribution named {tb} from a library the text names"
    return "a-other", f"{top}: attribution named {tb}, another library the text names (own backend: {own or 'none'})"


def markdown(rows: list[dict]) -> str:
    from collections import Counter

    kinds = Counter(r["kind"] for r in rows)
    still = Counter(r["kind"] for r in rows if r["now_matched"] and not r["now_right_backend"])
    gone = Counter(r["kind"] for r in rows if not r["now_matched"])
    out = ["# Wrong backend at first measurement, every training round (helper ex42b, session 42)", "",
           "Rows: `PYTHONPATH=$PWD python benchmarks/explain_backend_at_first.py --md benchmarks/results/ex42b-backend-at-first.md`",
           "(explain_recurring.FIRST: each blind round's first record; `now` is this checkout). Kinds: a-other = attribution gave a "
           "catch-all or backend-less entry another library the text names; a-none = attribution found none; a-label-none = "
           "attribution named one where the label says none; b = another backend's own entry on a shared message; c = the label's convention; d = other "
           "(ambiguous text).", "",
           f"{len(rows)} texts; right backend now: {sum(r['now_right_backend'] for r in rows)}; unmatched now: "
           f"{sum(not r['now_matched'] for r in rows)}.", "",
           "| kind | texts | wrong backend now | unmatched now |", "|---|---:|---:|---:|"]
    out += [f"| {k} | {n} | {still.get(k, 0)} | {gone.get(k, 0)} |" for k, n in sorted(kinds.items())]
    out += ["", "| round | file | label | first: top/backend | now: top/backend | kind | why |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        now = (f"{r['now_top']}/{r['now_top_backend']}" + ("" if r["now_right_backend"] else " **wrong**")) if r["now_matched"] \
            else "unmatched"
        out.append(f"| {r['round']} | {r['file']} | {r['label_backend']} | {r['first_top']}/{r['first_top_backend']} | {now} | "
                   f"{r['kind']} | {r['why']} |")
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", help="write the rows here")
    ap.add_argument("--md", help="write the table here")
    a = ap.parse_args()
    if not h.import_from(HERE.parent, "explain_backend_at_first"):
        return 2
    fn, feed, _ = h._resolve(None)
    rows = first_wrong_backend()
    right = 0
    for r in rows:
        path = HERE.parent / "fixtures" / "errors" / r["round"] / r["file"]
        meta, body = h.load(path)
        v = h.verdict(meta, h.run_matcher(fn, feed, body))
        r.update(label_backend=meta.get("backend"), label=meta.get("entry"), now_top=v["top"],
                 now_top_backend=v["top_backend"], now_right_backend=v["right_backend"], now_matched=v["matched"])
        r["kind"], r["why"] = kind_of(r)
        right += v["right_backend"]
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1, ensure_ascii=False), encoding="utf-8")
    if a.md:
        Path(a.md).write_text(markdown(rows), encoding="utf-8")
    for r in rows:
        print(f"{r['round']}\t{r['file']}\t{r['label_backend']}\t{r['first_top']}/{r['first_top_backend']}\t"
              f"{r['now_top']}/{r['now_top_backend']}\t{'right' if r['now_right_backend'] else 'WRONG'}\t{r['kind']}")
    print(f"# {len(rows)} texts wrong backend at first measurement; right backend now: {right}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
