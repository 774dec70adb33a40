#!/usr/bin/env bash
# Run HERE (a machine with a package index), before scripts/gpu/slow.sh runs on the GPU machine, which
# reaches nothing: puts into .gpu/nvml/ (git-ignored, about 60 KiB) the nvidia-ml-py wheel, NVIDIA's
# own pure-Python NVML bindings (module `pynvml`), from pip's configured index. slow.sh installs it
# with `pip install --no-index` for its NVML half and removes it again for its nvidia-smi half.
# Carry .gpu/nvml with the run (the device tool's `carry`).
set -euo pipefail
cd "$(dirname "$0")/../.."
D=.gpu/nvml
mkdir -p "$D"
python3 -m pip download -q --no-deps --only-binary=:all: -d "$D" nvidia-ml-py
ls -la "$D"
