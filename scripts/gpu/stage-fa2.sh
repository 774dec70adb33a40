#!/usr/bin/env bash
# Run HERE (a machine that reaches pip's configured index), before scripts/gpu/plan.sh runs on the GPU machine, which
# reaches nothing: puts into .gpu/fa2/ (git-ignored, about 9 MiB) the flash-attn sdist that
# `attn-doctor fix --require fa2` names, and the build requirements its plan installs when missing
# (ninja, packaging, wheel, setuptools; psutil is only needed when MAX_JOBS is unset; einops is flash-attn's one
# runtime requirement, needed because plan.sh installs with --no-deps on a machine without an index).
set -euo pipefail
cd "$(dirname "$0")/../.."
D=.gpu/fa2
VER=$(python3 -c 'import tomllib; print(tomllib.load(open("attn_doctor/knowledge/installs/fa2.toml", "rb"))["sdist"])')
mkdir -p "$D"
# pip download would run the sdist's setup.py (it imports torch): pipindex.py takes the file pip's
# configured index lists instead, and checks its sha256
python3 scripts/gpu/pipindex.py flash-attn "$VER" "$D" > /dev/null
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 \
  -d "$D" ninja packaging wheel setuptools psutil einops
ls -la "$D"
du -sh "$D"
