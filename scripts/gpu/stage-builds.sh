#!/usr/bin/env bash
# Run HERE (a machine with pip's index and the `fetch`ed mirrors), before scripts/gpu/builds.sh runs on
# the GPU host, which reaches nothing. Fills .gpu/src/ (git-ignored; about 20 MiB, carried in one call
# with the working tree: carry [".gpu/src"]):
#   flash_attn-<v>.tar.gz      the FA2 sdist installs/fa2.toml names (`sdist`), from pip's configured
#                              index without running its setup.py (scripts/gpu/pipindex.py)
#   fa3-src.tar.xz             flash-attention's hopper/ + README.md (setup.py reads ../README.md) and
#                              csrc/cutlass/include + LICENSE at the commit flash-attention pins, trimmed
#                              (no tests, benchmarks, other csrc); FA3_COMMIT names the flash-attention
#                              commit, default the mirror's HEAD
#   xformers-<v>-*.whl         PyPI's xformers wheel (built for torch 2.10 + CUDA 12.8, stable ABI)
#   xformers-<v>.tar.gz        its sdist (with third_party/cutlass) for the bounded source build
#   deps/*.whl                 build requirements builds.sh installs only where the host lacks them
#   MANIFEST.txt               what each file is, where it came from, sha256
# Mirrors: FA_MIRROR and CUTLASS_MIRROR are git directories (the `fetch` tool's github:Dao-AILab/
# flash-attention and github:NVIDIA/cutlass), default /work/.mirror/<owner>+<name>/repo.
set -euo pipefail
cd "$(dirname "$0")/../.."
D=.gpu/src
FA_MIRROR=${FA_MIRROR:-/work/.mirror/Dao-AILab+flash-attention/repo}
CUTLASS_MIRROR=${CUTLASS_MIRROR:-/work/.mirror/NVIDIA+cutlass/repo}
XFORMERS=${XFORMERS:-0.0.35}
FA2=$(python3 -c 'import tomllib; print(tomllib.load(open("attn_doctor/knowledge/installs/fa2.toml", "rb"))["sdist"])')
mkdir -p "$D/deps"
grep -qx '/.gpu/' .gitignore || { echo "stage-builds: .gitignore lacks /.gpu/" >&2; exit 1; }

# 1. FA2 sdist
python3 scripts/gpu/pipindex.py flash-attn "$FA2" "$D" > /dev/null

# 2. FA3 sources at one flash-attention commit, with the CUTLASS its csrc/cutlass submodule pins
for m in "$FA_MIRROR" "$CUTLASS_MIRROR"; do
  git -C "$m" rev-parse --git-dir > /dev/null 2>&1 || { echo "stage-builds: no git mirror at $m (fetch it first)" >&2; exit 1; }
done
FA3_COMMIT=$(git -C "$FA_MIRROR" rev-parse "${FA3_COMMIT:-HEAD}")
CUTLASS_COMMIT=$(git -C "$FA_MIRROR" ls-tree "$FA3_COMMIT" csrc/cutlass | awk '{print $3}')
[ -n "$CUTLASS_COMMIT" ] || { echo "stage-builds: $FA3_COMMIT has no csrc/cutlass submodule" >&2; exit 1; }
git -C "$CUTLASS_MIRROR" cat-file -e "$CUTLASS_COMMIT^{commit}" 2>/dev/null \
  || { echo "stage-builds: the cutlass mirror lacks $CUTLASS_COMMIT (flash-attention's pin)" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/flash-attention/csrc/cutlass"
git -C "$FA_MIRROR" archive "$FA3_COMMIT" hopper README.md LICENSE 2> >(grep -v "^error: invalid object" >&2) | tar -x -C "$tmp/flash-attention"
git -C "$CUTLASS_MIRROR" archive "$CUTLASS_COMMIT" include LICENSE.txt 2> >(grep -v "^error: invalid object" >&2) | tar -x -C "$tmp/flash-attention/csrc/cutlass"
# (partial mirrors print "invalid object" for blobs outside these paths: the counts below are the check)
want=$(git -C "$CUTLASS_MIRROR" ls-tree -r --name-only "$CUTLASS_COMMIT" include | wc -l)
got=$(find "$tmp/flash-attention/csrc/cutlass/include" -type f | wc -l)
[ "$want" = "$got" ] || { echo "stage-builds: cutlass include has $got files, the commit $want" >&2; exit 1; }
want=$(git -C "$FA_MIRROR" ls-tree -r --name-only "$FA3_COMMIT" hopper | wc -l)
got=$(find "$tmp/flash-attention/hopper" -type f | wc -l)
[ "$want" = "$got" ] || { echo "stage-builds: hopper/ has $got files, the commit $want" >&2; exit 1; }
rm -f "$tmp"/flash-attention/hopper/test_*.py "$tmp"/flash-attention/hopper/benchmark_*.py
printf 'flash-attention %s\ncutlass %s\n' "$FA3_COMMIT" "$CUTLASS_COMMIT" > "$tmp/flash-attention/STAGED_COMMITS"
# a fixed mtime and owner: the same commits give the same tarball
tar -C "$tmp" --sort=name --mtime='2026-01-01 00:00Z' --owner=0 --group=0 --numeric-owner -cJf "$D/fa3-src.tar.xz.part" flash-attention
mv "$D/fa3-src.tar.xz.part" "$D/fa3-src.tar.xz"

# 3. xformers: PyPI's wheel (the host's python is 3.12) and the sdist for a source build
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_28_x86_64 -d "$D" "xformers==$XFORMERS" 2>&1 | grep -v "^WARNING: Location" || true
ls "$D"/xformers-"$XFORMERS"-*.whl > /dev/null
python3 scripts/gpu/pipindex.py xformers "$XFORMERS" "$D" > /dev/null

# 4. Build requirements (pure-python or manylinux wheels for cp312): installed on the host only if missing
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
  -d "$D/deps" wheel setuptools packaging einops psutil ninja 2>&1 | grep -v "^WARNING: Location" || true

{ echo "# staged $(date -u +%FT%TZ) by scripts/gpu/stage-builds.sh"
  echo "# fa2 sdist: flash-attn $FA2 (installs/fa2.toml sdist), from pip's configured index"
  echo "# fa3: github:Dao-AILab/flash-attention@$FA3_COMMIT hopper/ + github:NVIDIA/cutlass@$CUTLASS_COMMIT include/"
  echo "# xformers $XFORMERS: PyPI wheel + sdist"
  (cd "$D" && find . -type f ! -name MANIFEST.txt ! -name '*.part' | sort | xargs sha256sum)
} > "$D/MANIFEST.txt"
du -sh "$D"; ls -la "$D" "$D/deps"
