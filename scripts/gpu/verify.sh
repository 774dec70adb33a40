#!/usr/bin/env bash
# The GPU verification runs behind the README and the issues' closing notes. Run from the repo root
# on a lent H100/H200 after `bash .gpu/b/install.sh`, one part per call (each fits in 10 minutes):
#   bash scripts/gpu/verify.sh reports   # check: good stack, the two fault scenarios, trainer configs, env.sh before/after
#   bash scripts/gpu/verify.sh bench     # bench + plot, the do_bench comparison, the hardening script
#   bash scripts/gpu/verify.sh timing    # benchmarks/check_timing.py (cold and warm check)
# Everything lands in $OUT/<part>.tar.gz (the device tool returns at most 8 files).
set -u
part=${1:?reports|bench|timing}
OUT=${OUT:-/tmp/out}
W=$(mktemp -d); R="$W/$part"; mkdir -p "$R"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
log="$R/log.txt"
step() {  # step NAME CMD...: run bounded, keep stdout+stderr, exit code and wall time
  local name=$1; shift
  local t0=$(date +%s%N)
  timeout 420 "$@" >"$R/$name.txt" 2>&1
  local rc=$?
  local ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  echo "$name rc=$rc wall=${ms}ms :: $*" | tee -a "$log"
}
D="python3 -m attn_doctor"
{ date -u; nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total --format=csv,noheader;
  python3 -c 'import torch, triton; print("torch", torch.__version__, "cuda", torch.version.cuda, "triton", triton.__version__)'; } >>"$log" 2>&1

case "$part" in
reports)
  step nosmoke $D check --no-smoke --json "$R/nosmoke.json"
  step good $D check -v --json "$R/good.json"
  python3 -m pip install -q --no-index --no-deps --force-reinstall .gpu/b/extra/quack_kernels-0.2.4-*.whl >>"$log" 2>&1
  step fault-quack $D check -v --backend cute --json "$R/fault-quack.json"
  step fault-quack-nosmoke $D check --no-smoke --json "$R/fault-quack-nosmoke.json"
  python3 -m pip install -q --no-index --no-deps --force-reinstall .gpu/b/quack_kernels-0.6.5-*.whl >>"$log" 2>&1
  python3 -m pip install -q --no-index --no-deps .gpu/b/extra/xformers-0.0.35-*.whl >>"$log" 2>&1
  step fault-xformers $D check -v --json "$R/fault-xformers.json"
  python3 -m pip uninstall -q -y xformers >>"$log" 2>&1
  step config-simpletuner-flex $D check --config fixtures/configs/simpletuner-flex/config.json --json "$R/config-simpletuner-flex.json"
  step config-blissful-cute $D check --config fixtures/configs/blissful-cute/qwen_image.toml --json "$R/config-blissful-cute.json"
  # env.sh: before = good.json; write it, source it, check again (FA4's first call should now hit its cache)
  ( cd "$R" && step fix $D fix --write-env "$R/env.sh" )
  step after bash -c ". '$R/env.sh' && python3 -m attn_doctor check -v --json '$R/after.json'"
  step after-again bash -c ". '$R/env.sh' && python3 -m attn_doctor check --json '$R/after-again.json'"
  ;;
bench)
  step bench $D bench --json "$R/bench.json" --plot "$R/bench.png"
  step bench-causal $D bench --causal --heads 32 --kv-heads 8 --seqlen 2048,8192 --json "$R/bench-causal-gqa.json"
  step dobench python3 benchmarks/bench_vs_do_bench.py "$R/bench.json" --out "$R/dobench.json"
  if [ -f scripts/gpu/hardening.sh ]; then step hardening env OUT="$R/hardening" bash scripts/gpu/hardening.sh; fi
  ;;
timing)
  step timing python3 benchmarks/check_timing.py --runs 3 --out "$R/timing.json"
  step nosmoke-vs-collect-env python3 benchmarks/check_vs_collect_env.py -n 5 --out "$R/nosmoke-vs-collect-env.json"
  ;;
esac
mkdir -p "$OUT"; tar -C "$W" -czf "$OUT/$part.tar.gz" "$part"
cat "$log"
