#!/usr/bin/env bash
# Issue 12 on an H100/H200 (run from the repo root; about 2-3 minutes):
#  1. issue12-musubi-sage: check --no-smoke --config fixtures/configs/musubi-sage-issue12.toml
#     PASS: read as musubi, required == [sage], config.musubi-sage-training reported.
#  2. issue12-blissful-cute: PYTORCH_ALLOC_CONF=backend:cudaMallocAsync check --no-smoke --config
#     fixtures/configs/blissful-cute-issue12.toml
#     PASS: read as blissful, required == [cute], alloc.async-cudagraphs is an error, exit code 1.
#  3-5. three real configs of different trainers through a full check (smoke at their dtype and head dims),
#     each with -b <its required backends>: sd-scripts SD1.5 (--sdpa, fp16, head dims 40/80/160), musubi-tuner
#     Wan (--sdpa, bf16, head dim 128), axolotl Llama-4 Scout (flex_attention, bf16).
#     PASS: the expected trainer and required, each required backend ok, and smoke cases ran in the config's
#     dtype and at every head dim it names, all ok.
# Every JSON report lands in $OUT/cfg/ (keep them under fixtures/gpu/); one PASS/FAIL line per case; exit 1 if
# any case failed. Without a GPU cases 3-5 FAIL by design: the CPU runs a fixed plan, not the config's dtype/head dims.
set -u
OUT=${OUT:-/tmp/out}
R="$OUT/cfg"; mkdir -p "$R"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
D="python3 -m attn_doctor"
fails=0
{ date -u; nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader;
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'; } >"$R/env.txt" 2>&1

verdict() {  # verdict NAME RC REPORT.json TRAINER 'REQUIRED,...' EXPECT_RC IDS(comma) SMOKE(0|1)
  python3 - "$@" <<'PY'
import json, sys
name, rc, path, trainer, required, want_rc, ids, smoke = sys.argv[1:9]
why = []
try:
    doc = json.load(open(path))
except Exception as e:
    print(f"FAIL {name}: no report ({e}); rc={rc}"); sys.exit(1)
cfg = doc.get("config") or {}
req = [r for r in required.split(",") if r]
if (cfg.get("detected") or {}).get("trainer") != trainer:
    why.append(f"read as {(cfg.get('detected') or {}).get('trainer')}, not {trainer}")
if cfg.get("required") != req:
    why.append(f"required {cfg.get('required')}, not {req}")
if want_rc != "any" and int(rc) != int(want_rc):
    why.append(f"exit {rc}, not {want_rc}")
found = {f["id"]: f for f in doc.get("findings", [])}
for i in [i for i in ids.split(",") if i]:
    if i not in found:
        why.append(f"{i} not reported")
if "alloc.async-cudagraphs" in ids and found.get("alloc.async-cudagraphs", {}).get("severity") != "error":
    why.append("alloc.async-cudagraphs is not an error")
if smoke == "1":
    for b in req:
        st = (doc.get("backends") or {}).get(b, {}).get("status")
        if st != "ok":
            why.append(f"{b} is {st}")
    cases = []
    def walk(x):
        if isinstance(x, dict):
            if "name" in x and "ok" in x:
                cases.append((x["name"], x["ok"]))
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk((doc.get("facts") or {}).get("smoke"))
    short = (cfg.get("dtype") or "bfloat16").replace("float", "fp").replace("bfp", "bf")
    if cases and not any(short in n.split() for n, _ in cases):
        why.append(f"no smoke case in {short}")
    for hd in cfg.get("head_dims") or []:  # the plan runs each head dim once, in one of the two GPU dtypes
        if not any(f"d{hd}" in n.split() for n, _ in cases):
            why.append(f"no smoke case at head dim {hd}")
    bad = [n for n, ok in cases if not ok]
    if not cases:
        why.append("no smoke cases ran")
    if bad:
        why.append(f"smoke failed: {bad[:3]}")
print(("PASS " if not why else "FAIL ") + name + (": " + "; ".join(why) if why else
      f": {trainer}, required {req}, exit {rc}" + (f", {len(cases)} smoke cases ok" if smoke == "1" else "")))
sys.exit(1 if why else 0)
PY
}

run() {  # run NAME TRAINER REQUIRED EXPECT_RC IDS SMOKE -- check args...
  local name=$1 trainer=$2 req=$3 want=$4 ids=$5 smoke=$6; shift 7
  timeout 150 "$@" --timeout 90 --json "$R/$name.json" >"$R/$name.txt" 2>&1
  local rc=$?
  verdict "$name" "$rc" "$R/$name.json" "$trainer" "$req" "$want" "$ids" "$smoke" || fails=$((fails + 1))
}

run issue12-musubi-sage musubi sage any config.musubi-sage-training 0 -- \
  $D check --no-smoke --config fixtures/configs/musubi-sage-issue12.toml
run issue12-blissful-cute blissful cute 1 alloc.async-cudagraphs 0 -- \
  env PYTORCH_ALLOC_CONF=backend:cudaMallocAsync $D check --no-smoke --config fixtures/configs/blissful-cute-issue12.toml
run real-sd-scripts-sd15 sd-scripts sdpa any "" 1 -- \
  $D check -b sdpa --config fixtures/configs/real/sd-scripts/docs_train_network.md__sd15_lora.sh
run real-musubi-wan musubi sdpa any "" 1 -- \
  $D check -b sdpa --config fixtures/configs/real/musubi-tuner/docs_wan.md__train_lora.sh
run real-axolotl-flex axolotl flex any "" 1 -- \
  $D check -b flex --config fixtures/configs/real/axolotl/llama-4__scout-qlora-single-h100-flex.yaml
echo "cfg: $fails case(s) failed; reports in $R"
[ "$fails" -eq 0 ]
