#!/usr/bin/env bash
# Issue 20 on the GPU host, with the FA4 + Sage stack staged (.gpu/b/install.sh): every fix line that
# `check` and `fix` print, pasted as shown into one bash session (so exports stay in effect), then
# `check` again: nothing that was ok may be broken, and no error may be new. The host reaches no
# index, so pip lines that would download fail there and change nothing; what they are is recorded.
#   bash scripts/gpu/paste.sh            # writes $OUT/paste/* (before/after reports, the pasted lines, a summary)
#   PASTE_DIR=/x bash scripts/gpu/paste.sh   # writes there instead (scripts/gpu/heal.sh runs it once per scenario)
set -u
ROOT=$PWD
OUT=${OUT:-/tmp/out}
P=${PASTE_DIR:-$OUT/paste}
mkdir -p "$P"
export PYTHONPATH=$ROOT NO_COLOR=1
D="python3 -m attn_doctor"
cd "$(mktemp -d /tmp/paste.XXXXXX)"
mkdir -p bin  # the printed lines say `attn-doctor`: here that is this checkout's
printf '#!/bin/sh\nexec python3 -m attn_doctor "$@"\n' > bin/attn-doctor && chmod +x bin/attn-doctor
export PATH=$PWD/bin:$PATH
t0=$(date +%s)
timeout 600 $D check --json "$P/before.json" > "$P/before.txt" 2>&1; echo "check before: exit $?" | tee "$P/summary.txt"
timeout 300 $D fix --from "$P/before.json" > "$P/fix.txt" 2>&1
for b in fa2 fa3 xformers; do  # the install plans of what is not installed here
  timeout 300 $D fix --from "$P/before.json" --require "$b" > "$P/fix-$b.txt" 2>&1
done
# Every line to paste: findings' fix lines and plans, as `fix` prints them (its `paste:` lines and the
# blocks under them), and the closing line of check.
python3 - "$P" <<'EOF' > "$P/lines.sh"
import json, re, sys
p = sys.argv[1]
rep = json.load(open(f"{p}/before.json"))
lines = []
for f in rep["findings"]:
    for text in (f.get("fix"), (f.get("params") or {}).get("plan")):
        if text:
            lines += re.sub(r" \\\n\s*", " ", str(text)).split("\n")
for name in ("fix.txt", "fix-fa2.txt", "fix-fa3.txt", "fix-xformers.txt"):
    block = open(f"{p}/{name}").read()
    block = re.sub(r" \\\n\s*", " ", block)
    for ln in block.splitlines():
        m = re.match(r"\s*(paste|run): (.*)", ln)
        if m:
            lines.append(m.group(2))
        elif re.match(r"(MAX_JOBS=|[~/][^ ]*python3? -m |cd |git |export |unset |attn-doctor (?!fix:))", ln):
            lines.append(ln)
closing = [ln for ln in open(f"{p}/before.txt").read().splitlines() if ln.startswith("fix: ")]
lines += [c[5:] for c in closing]
seen = set()
for ln in lines:
    ln = ln.strip()
    if ln and not ln.startswith("#") and ln not in seen:
        seen.add(ln)
        print(ln)
EOF
echo "lines to paste: $(wc -l < "$P/lines.sh")" | tee -a "$P/summary.txt"
# Pasted one after another into ONE shell, each with a time bound; what each printed is kept.
{
  echo 'set +e'
  while IFS= read -r line; do
    printf 'echo "\\n\\$ %s"\n' "$(printf '%s' "$line" | sed 's/["\\$`]/\\&/g')"
    printf 'timeout 300 bash -c %q; echo "[exit $?]"\n' "$line"
    case "$line" in export*|unset*|*". ./env.sh"*) echo "$line" ;; esac  # in effect for the check after
  done < "$P/lines.sh"
  echo "timeout 600 $D check --json '$P/after.json' > '$P/after.txt' 2>&1; echo \"check after: exit \$?\""
} > "$P/session.sh"
bash "$P/session.sh" > "$P/pasted.txt" 2>&1
tail -1 "$P/pasted.txt" | tee -a "$P/summary.txt"
python3 - "$P" <<'EOF' | tee -a "$P/summary.txt"
import json, sys
p = sys.argv[1]
a, b = json.load(open(f"{p}/before.json")), json.load(open(f"{p}/after.json"))
ok_before = {n for n, r in a["backends"].items() if r["status"] == "ok"}
ok_after = {n for n, r in b["backends"].items() if r["status"] == "ok"}
err = lambda r: {(f["id"], f.get("backend")) for f in r["findings"] if f["severity"] == "error"}
print("backends ok before:", sorted(ok_before))
print("backends ok after: ", sorted(ok_after))
print("broken by the pasting:", sorted(ok_before - ok_after) or "none")
print("healed by the pasting:", sorted(ok_after - ok_before) or "none")
print("new errors:", sorted(err(b) - err(a)) or "none")
print("findings before:", sorted({f["id"] for f in a["findings"]}))
print("findings after: ", sorted({f["id"] for f in b["findings"]}))
print("RESULT:", "PASS" if not (ok_before - ok_after) and not (err(b) - err(a)) else "FAIL")
EOF
echo "paste.sh: $(( $(date +%s) - t0 )) s" | tee -a "$P/summary.txt"
