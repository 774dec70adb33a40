#!/usr/bin/env bash
# Issue 14 on a GPU machine, from the repo root: a torch-less attn-doctor (its own venv, as pipx or
# uv tool would install it) checks the image's python3 through --python, and must give the same
# verdicts as the doctor run inside that python3. Also: one full `check -b sdpa --python` (kernels on
# the GPU, run in the checked interpreter), and the in-process API leaving torch out of sys.modules.
# Everything lands under $OUT/api/; one PASS/FAIL line per case. Under 4 minutes (--no-smoke twice,
# sdpa's kernels once, one API probe).
set -u
OUT=${OUT:-/tmp/out}
D="$OUT/api"; mkdir -p "$D"
export PYTHONUNBUFFERED=1 NO_COLOR=1
PY=$(command -v python3)
log="$D/log.txt"
: >"$log"
say() { echo "$*" | tee -a "$log"; }
fails=0
verdict() { if [ "$1" = 0 ]; then say "PASS $2"; else say "FAIL $2"; fails=$((fails + 1)); fi; }

# The torch-less venv: no pip, no system site-packages; typer/rich/packaging (and what they need)
# symlinked from the image's python3, the project on a .pth (tests/torchless.py).
TL=$(mktemp -d /tmp/attn-doctor-torchless.XXXXXX)/venv
"$PY" tests/torchless.py "$TL" >>"$log" 2>&1
DOC="$TL/bin/python"
{ echo "image python: $PY ($("$PY" -V 2>&1)); PYTHONPATH=${PYTHONPATH:-}"; "$PY" -c 'import torch; print("torch", torch.__version__, torch.version.cuda)'; } >>"$log" 2>&1
if "$DOC" -c 'import torch' >/dev/null 2>&1; then tl=1; else tl=0; fi
"$DOC" -c 'import attn_doctor, typer, rich, packaging' >>"$log" 2>&1 || tl=1
verdict "$tl" "torch-less venv: attn-doctor runs there, torch does not import ($DOC)"

# 1. --no-smoke, outside (through --python) and inside: same backend statuses and finding ids.
timeout 150 "$DOC" -m attn_doctor check --no-smoke --python "$PY" --json "$D/outside.json" >"$D/outside.txt" 2>>"$log"
echo "outside rc=$?" >>"$log"
PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} timeout 150 "$PY" -m attn_doctor check --no-smoke --json "$D/inside.json" >"$D/inside.txt" 2>>"$log"
echo "inside rc=$?" >>"$log"
"$PY" - "$D/outside.json" "$D/inside.json" "$PY" >>"$log" 2>&1 <<'EOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
v = lambda d: ({n: r["status"] for n, r in d["backends"].items()}, sorted(f["id"] for f in d["findings"]))
print("outside:", v(a), "exit", a["exit_code"]); print("inside: ", v(b), "exit", b["exit_code"])
s = a["facts"]["system"]
print("outside checked:", s.get("python_executable"), "requested:", s.get("python_requested"), "doctor:", s.get("doctor_python"))
assert v(a) == v(b) and a["exit_code"] == b["exit_code"], "verdicts differ"
assert s.get("doctor_python") and s.get("python_requested") == sys.argv[3], "the report does not name the checked python"
assert a["facts"]["packages"]["stack"].get("torch"), "torch not found on the checked python's sys.path"
EOF
verdict $? "check --no-smoke --python \$(which python3) == check --no-smoke inside (statuses, finding ids, exit)"

# 2. A full check of sdpa through --python: its kernels run on the GPU, in the image's python.
timeout 200 "$DOC" -m attn_doctor check -b sdpa --python "$PY" --json "$D/sdpa-outside.json" >"$D/sdpa-outside.txt" 2>>"$log"
echo "sdpa rc=$?" >>"$log"
"$PY" - "$D/sdpa-outside.json" >>"$log" 2>&1 <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
devs = d["facts"]["smoke"]["devices"]
cases = [c for k, per in devs.items() if k != "cpu" for c in (per.get("sdpa") or {}).get("cases", [])]
print("sdpa:", d["backends"]["sdpa"]["status"], d["backends"]["sdpa"].get("reason"), "| GPU cases:", len(cases),
      "passed:", sum(1 for c in cases if c.get("ok")))
assert d["backends"]["sdpa"]["status"] == "ok" and cases and all(c.get("ok") or c.get("skipped") for c in cases)
EOF
verdict $? "check -b sdpa --python: sdpa ok, its kernels ran on the GPU"

# 3. The in-process API, in the image's python: require() passes for sdpa, torch never imported here.
PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} timeout 120 "$PY" - "$D/api.json" >>"$log" 2>&1 <<'EOF'
import json, sys
import attn_doctor
r = attn_doctor.require("sdpa", backends="sdpa", smoke=False)
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("torch", "triton", "flash_attn", "sageattention", "xformers", "cutlass"))
json.dump(r.to_dict(), open(sys.argv[1], "w"), default=str)
print("api: exit", r.exit_code, "sdpa", r.backends["sdpa"]["status"], "heavy modules:", heavy)
assert not heavy
EOF
verdict $? "attn_doctor.require('sdpa') in-process: ok, no torch in sys.modules"

rm -rf "$(dirname "$TL")"
say "api.sh: $fails failure(s)"
tail -c 6000 "$log"
