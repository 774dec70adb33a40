#!/usr/bin/env bash
# Run HERE (a machine that reaches PyPI), before scripts/gpu/plan.sh runs on the GPU machine, which
# reaches nothing: puts into .gpu/fa2/ (git-ignored, about 9 MiB) the flash-attn sdist that
# `attn-doctor fix --require fa2` names, and the build requirements its plan installs when missing
# (ninja, packaging, wheel, setuptools; psutil is only needed when MAX_JOBS is unset; einops is flash-attn's one
# runtime requirement, needed because plan.sh installs with --no-deps on a machine without an index).
set -euo pipefail
cd "$(dirname "$0")/../.."
D=.gpu/fa2
VER=$(python3 -c 'import tomllib; print(tomllib.load(open("attn_doctor/knowledge/installs/fa2.toml", "rb"))["sdist"])')
mkdir -p "$D"
SDIST="$D/flash_attn-$VER.tar.gz"
if [ ! -s "$SDIST" ]; then
  # pip download would run the sdist's setup.py (it imports torch): take the file the index lists instead
  href=$(curl -fsS --max-time 60 https://pypi.org/simple/flash-attn/ | grep -o "href=\"[^\"]*flash_attn-$VER.tar.gz[^\"]*\"" | head -1 | cut -d'"' -f2)
  [ -n "$href" ] || { echo "flash-attn $VER: no sdist on PyPI's simple index" >&2; exit 1; }
  curl -fsS --max-time 300 -o "$SDIST.part" "${href%%#*}"
  want=${href##*sha256=}
  echo "$want  $SDIST.part" | sha256sum -c - >/dev/null
  mv "$SDIST.part" "$SDIST"
fi
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 \
  --index-url https://pypi.org/simple -d "$D" ninja packaging wheel setuptools psutil einops
ls -la "$D"
du -sh "$D"
