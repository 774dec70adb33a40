#!/usr/bin/env bash
# Issue 15 and issue 11's three H100 truths, run for real (helper `fifteen`). Four cases, each a real
# `attn-doctor check --no-smoke` with one thing broken, each writing its JSON report (and text) under
# $OUT/fifteen/ and printing one PASS/FAIL line:
#  A  sage's import fails with an error no knowledge entry names (a shadow `sageattention` package on
#     PYTHONPATH, written below, that touches the GPU and raises), with PYTORCH_CUDA_ALLOC_CONF set so
#     torch prints its deprecation note into the same probe -> exit 1, an error finding for sage.
#  B  TORCHINDUCTOR_CACHE_DIR=/proc/attn-cache -> cute's import fails; one finding, import.cache-dir,
#     ties the cache dir to it; cache.uncreatable; no cache.low-space.
#  C  CUDA_VISIBLE_DEVICES= (empty) -> gpu.hidden-by-env; cute and sage 'unsupported', not 'ok'.
#  D  PYTORCH_ALLOC_CONF=garbage -> if `import torch` aborts (CUDA torch 2.13 does), the crash finding
#     is torch.import-crashed-alloc; if it does not (torch 2.11 may not), alloc.syntax is reported and
#     no crash is invented. What torch did is recorded either way (d-torch.txt).
# Run from the repo root on the H100 (python3 with torch 2.11+cu130 and the FA4/Sage stack); about
# 2 minutes. Keep $OUT/fifteen/ under fixtures/gpu/fifteen/ (say which machine and when).
set -u
OUT=${OUT:-/tmp/out}; R="$OUT/fifteen"; mkdir -p "$R"
export PYTHONUNBUFFERED=1 NO_COLOR=1 COLUMNS=100
log="$R/log.txt"; : >"$log"
say() { echo "=== $*" | tee -a "$log"; }
W=$(mktemp -d)
doctor() {  # doctor NAME [env assignments...] -- check args...
  local name=$1; shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  env PYTHONPATH="$PWD${EXTRA_PATH:+:$EXTRA_PATH}" "${envs[@]}" timeout 200 \
    python3 -m attn_doctor check --no-smoke --json "$R/$name.json" "$@" >"$R/$name.txt" 2>>"$log"
  local rc=$?
  echo "$rc" >"$R/$name.rc"; say "$name: rc=$rc"
}

say "host"
{ nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader; python3 -V
  python3 -c 'import torch; print("torch", torch.__version__, torch.version.cuda)'; } >>"$log" 2>&1

# A: the shadow package. It does what a backend that touches the GPU at import does (an allocation,
# so torch's allocator reads its settings and prints its deprecation note), then fails in a way no
# knowledge entry knows.
mkdir -p "$W/shadow/sageattention"
cat >"$W/shadow/sageattention/__init__.py" <<'EOF'
# Planted by scripts/gpu/fifteen.sh: a stale copy of sageattention that shadows the installed one.
import torch

torch.empty(1, device="cuda")
raise RuntimeError("sageattention: no kernels registered for this build (shadow copy planted by fifteen.sh)")
EOF
EXTRA_PATH="$W/shadow" doctor a-broken-import PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True -- -b sage
doctor b-proc-cache TORCHINDUCTOR_CACHE_DIR=/proc/attn-cache -- -b cute
doctor c-hidden-gpus CUDA_VISIBLE_DEVICES= -- -b cute -b sage
doctor d-garbage-alloc PYTORCH_ALLOC_CONF=garbage -- -b sdpa
say "D: what torch itself does with PYTORCH_ALLOC_CONF=garbage"
PYTORCH_ALLOC_CONF=garbage timeout 120 python3 -c 'import torch; print("imported", torch.__version__); torch.empty(1, device="cuda"); print("allocated")' \
  >"$R/d-torch.txt" 2>&1
echo "rc=$?" >>"$R/d-torch.txt"; tail -4 "$R/d-torch.txt" | tee -a "$log"
rm -rf "$W"

say "summary"
python3 - "$R" <<'EOF' 2>&1 | tee "$R/summary.txt" | tee -a "$log"
import json, os, sys
R = sys.argv[1]
ok = True
def load(name):
    try:
        return json.load(open(os.path.join(R, name + ".json"))), int(open(os.path.join(R, name + ".rc")).read())
    except (OSError, ValueError) as e:
        return {"_error": str(e)}, -1
def verdict(name, good, detail):
    global ok
    ok &= bool(good)
    print(f"{'PASS' if good else 'FAIL'} {name}: {detail}")
def ids(d, backend=None):
    return [f["id"] for f in d.get("findings", []) if backend is None or f.get("backend") == backend]
def errors(d, backend):
    return [f["id"] for f in d.get("findings", []) if f.get("backend") == backend and f["severity"] == "error"]

d, rc = load("a-broken-import")
noted = "deprecated" in json.dumps((d.get("facts") or {}).get("imports", {}).get("sage", {}))
verdict("A broken sage import beside torch's deprecation note", rc == 1 and d.get("exit_code") == 1 and errors(d, "sage"),
        f"rc={rc} sage={d.get('backends', {}).get('sage', {}).get('status')} errors={errors(d, 'sage')} "
        f"all={ids(d)} deprecation-in-probe={noted}")
d, rc = load("b-proc-cache")
cute = [f for f in d.get("findings", []) if f.get("backend") == "cute"]
verdict("B /proc cache dir is why cute does not import", "import.cache-dir" in [f["id"] for f in cute]
        and "cache.uncreatable" in ids(d) and "cache.low-space" not in ids(d),
        f"rc={rc} cute={d.get('backends', {}).get('cute', {}).get('status')} ids={ids(d)} "
        f"title={[f['title'] for f in cute][:1]}")
d, rc = load("c-hidden-gpus")
st = {k: (v.get("status"), v.get("reason")) for k, v in d.get("backends", {}).items() if k in ("cute", "sage")}
verdict("C hidden GPUs: cute and sage not ok", "gpu.hidden-by-env" in ids(d)
        and all(s == "unsupported" for s, _ in st.values()) and len(st) == 2, f"rc={rc} {st} ids={ids(d)}")
d, rc = load("d-garbage-alloc")
crashed = bool(((d.get("facts") or {}).get("torch") or {}).get("run", {}).get("signal"))
torch_said = open(os.path.join(R, "d-torch.txt")).read().strip().splitlines()[-3:]
if crashed:
    good = "torch.import-crashed-alloc" in ids(d) and "torch.import-crashed" not in ids(d)
else:
    good = "alloc.syntax" in ids(d) and not [i for i in ids(d) if i.startswith("torch.import-crashed")]
verdict("D garbage PYTORCH_ALLOC_CONF", good and rc == 1,
        f"rc={rc} import-torch-crashed={crashed} ids={ids(d)} | torch alone: {' / '.join(torch_said)}")
print("ALL PASS" if ok else "SOME FAILED")
EOF
