#!/usr/bin/env bash
# The hardening cases only a GPU can show (tests/test_hardening.py covers the rest on a CPU):
#  (a) a kernel that really exhausts GPU memory: through the smoke runner (tests/fake_adapters.py:
#      oom_real) and through the CLI (tests/fault_site/sitecustomize.py: torch's SDPA allocates 1 GiB
#      at a time until torch.OutOfMemoryError) -> finding smoke.oom, exit 1, no traceback;
#  (b) two doctors at once on one GPU (SDPA and Flex, compiling into the same Inductor cache) -> both
#      finish with sane reports.
# Run from the repository root on a GPU machine (python3 with torch); writes at most 6 files under $OUT.
# Keep the output under fixtures/gpu/hardening/ (say which machine and when in its README).
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 NO_COLOR=1
log="$OUT/log.txt"; : >"$log"
say() { echo "=== $*" | tee -a "$log"; }
mem() { nvidia-smi --query-gpu=index,memory.used,memory.total --format=csv,noheader >>"$log" 2>&1; }

say "host"
{ nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total --format=csv; python3 -V
  python3 -c 'import torch; print("torch", torch.__version__, torch.version.cuda)'; } >>"$log" 2>&1
mem

say "(a1) oom_real through the smoke runner on cuda:0"
timeout 300 python3 - "$OUT/oom-runner.json" >>"$log" 2>&1 <<'EOF'
import json, sys
from attn_doctor import smoke
from attn_doctor.checks import Context
from attn_doctor.report import evaluate
from attn_doctor.smoke import plan as planner

cases = [c for c in planner.plan("sdpa", (9, 0))[0] if c["kind"] == "dense"][:1]
rec = smoke.smoke_record(smoke.run_child("sdpa", "cuda:0", 240, cases=cases, adapter="tests.fake_adapters:oom_real"))
rep = evaluate({"smoke": {"devices": {"0": {"sdpa": rec}}}}, Context())
ids = [f.id for f in rep.findings if f.section == "smoke"]
out = {"summary": rec["summary"], "run": {k: rec["run"][k] for k in ("returncode", "signal", "timed_out", "seconds")},
       "error": (rec["cases"][0].get("error") or {}).get("message", "")[:500] if rec["cases"] else None,
       "findings": [f.to_dict() for f in rep.findings if f.section == "smoke"]}
json.dump(out, open(sys.argv[1], "w"), indent=2)
print("runner:", rec["summary"], ids, "| error:", out["error"][:200] if out["error"] else None)
sys.exit(0 if ids == ["smoke.oom"] else 1)
EOF
a1=$?; say "rc=$a1"; mem

say "(a2) the CLI, with torch's SDPA exhausting GPU memory in the smoke child"
ATTN_DOCTOR_TEST_SDPA_FAULT=oom PYTHONPATH=$PWD:$PWD/tests/fault_site \
  timeout 400 python3 -m attn_doctor check --backend sdpa --timeout 300 --json "$OUT/oom-cli.json" >>"$log" 2>"$OUT/oom-cli.stderr"
a2=$?; say "rc=$a2 (expected 1)"; cat "$OUT/oom-cli.stderr" >>"$log"; mem

say "(b) two doctors at once on cuda:0 (sdpa + flex)"
t0=$(date +%s)
timeout 500 python3 -m attn_doctor check --backend sdpa --backend flex --device 0 --json "$OUT/two1.json" >>"$log" 2>&1 &
p1=$!
timeout 500 python3 -m attn_doctor check --backend sdpa --backend flex --device 0 --json "$OUT/two2.json" >>"$log" 2>&1 &
p2=$!
wait $p1; b1=$?; wait $p2; b2=$?
say "rc=$b1 $b2 wall=$(( $(date +%s) - t0 )) s"; mem

say "summary"
python3 - "$OUT" "$a1" "$a2" "$b1" "$b2" "$OUT/oom-cli.stderr" <<'EOF' 2>&1 | tee "$OUT/summary.txt" | tee -a "$log"
import json, os, sys
out, a1, a2, b1, b2, err = sys.argv[1], *map(int, sys.argv[2:6]), sys.argv[6]
def load(name):
    try:
        return json.load(open(os.path.join(out, name)))
    except (OSError, ValueError) as e:
        return {"_error": str(e)}
ok = True
def verdict(name, good, detail):
    global ok
    ok &= good
    print(f"{'PASS' if good else 'FAIL'} {name}: {detail}")
r = load("oom-runner.json")
verdict("oom through the smoke runner", a1 == 0, f"{r.get('summary')} {[f['id'] for f in r.get('findings', [])]}")
d = load("oom-cli.json")
ids = sorted({f["id"] for f in d.get("findings", [])})
tb = "Traceback" in open(err).read() if os.path.exists(err) else None
verdict("oom through the CLI", a2 == 1 and d.get("exit_code") == 1 and "smoke.oom" in ids and not tb,
        f"rc={a2} ids={ids} sdpa={d.get('backends', {}).get('sdpa', {}).get('status')} traceback={tb}")
for name, rc in (("two1.json", b1), ("two2.json", b2)):
    d = load(name)
    st = {k: (v.get("status"), (v.get("smoke") or {}).get("summary")) for k, v in d.get("backends", {}).items() if k in ("sdpa", "flex")}
    sane = d.get("schema") == "attn-doctor.report/1" and d.get("exit_code") == rc and rc in (0, 1)
    verdict(f"two doctors: {name}", sane and all(s == "ok" for s, _ in st.values()),
            f"rc={rc} {st} errors={[f['id'] for f in d.get('findings', []) if f['severity'] == 'error']}")
print("ALL PASS" if ok else "SOME FAILED")
EOF
rm -f "$OUT/oom-cli.stderr"
tail -c 6000 "$log"
