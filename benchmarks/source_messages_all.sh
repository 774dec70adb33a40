#!/bin/bash
# Every source benchmarks/source_messages.py reads for explain-source-messages-others.md (xFormers, SageAttention,
# torch's FlexAttention and SDPA Python side). Mirrors from the `fetch` tool under /work/.mirror; torch from the
# installed 2.13.0 wheel (git_version cf30153c). Usage: benchmarks/source_messages_all.sh TAG [BEFORE_TAG]
# writes /tmp/TAG-<source>.{json,md}; with BEFORE_TAG, a column with that run's reading.
set -e
TAG=$1; BEFORE=$2
PY=${PY:-/work/main/.venv/bin/python}; M=${MIRRORS:-/work/.mirror}
SP=$($PY -c 'import torch, os; print(os.path.dirname(os.path.dirname(torch.__file__)))')
X=$M/facebookresearch+xformers/repo; S=$M/thu-ml+SageAttention/repo; W=$M/woct0rdho+SageAttention/repo
XF="xformers/ops/fmha/__init__.py xformers/ops/fmha/common.py xformers/ops/fmha/dispatch.py xformers/ops/fmha/cutlass.py
 xformers/ops/fmha/cutlass_blackwell.py xformers/ops/fmha/flash.py xformers/ops/fmha/flash3.py xformers/ops/fmha/ck.py
 xformers/ops/fmha/ck_splitk.py xformers/ops/fmha/triton_splitk.py xformers/ops/fmha/attn_bias.py
 xformers/ops/fmha/torch_attention_compat.py xformers/ops/fmha/merge_training.py xformers/ops/fmha/small_k.py
 xformers/ops/fmha/ck_decoder.py xformers/ops/common.py xformers/_cpp_lib.py xformers/__init__.py"
SG="sageattention/core.py sageattention/quant.py sageattention/fa3_wrapper.py sageattention/__init__.py setup.py
 sageattention3_blackwell/sageattn3/api.py sageattention3_blackwell/setup.py"
TF="torch/nn/attention/flex_attention.py torch/_higher_order_ops/flex_attention.py torch/_inductor/kernel/flex/flex_attention.py
 torch/_inductor/kernel/flex/flex_decoding.py torch/_inductor/kernel/flex/flex_flash_attention.py
 torch/_inductor/kernel/flex/flex_cpu.py torch/_inductor/kernel/flex/flex_mps.py torch/_inductor/kernel/flex/common.py
 torch/nn/attention/__init__.py torch/nn/attention/_utils.py torch/nn/attention/bias.py torch/nn/attention/varlen.py
 torch/nn/attention/_registry.py torch/nn/attention/_fa3.py torch/nn/attention/_fa4.py torch/backends/cuda/__init__.py"
present() { for f in $3; do git --git-dir "$1" cat-file -e "$2:$f" 2>/dev/null && echo "$f"; done; }
one() {  # name gitdir commit files
  local b=(); [ -n "$BEFORE" ] && b=(--before "/tmp/$BEFORE-$1.json")
  $PY benchmarks/source_messages.py "$2" "$3" $4 --json "/tmp/$TAG-$1.json" "${b[@]}" > "/tmp/$TAG-$1.md"
}
one xf "$X" 03b91d7d9ff295ae68a320e2e733dd6c2ef8f342 "$(present $X 03b91d7d "$XF")" &          # v0.0.35, 2026-02-20
one xf29 "$X" 56be3b5e7f390072a5a0e95e5e64916916dc9cd0 "$(present $X 56be3b5e "$XF")" &        # v0.0.29, 2024-12-26
one sage "$S" d1a57a546c3d395b1ffcbeecc66d81db76f3b4b5 "$SG" &                                   # main, 2026-01-17
one sage201 "$S" fa1d103d16c5dfd7a3d9f77e46a18c17c5a0ee9b "$(present $S fa1d103d "$SG")" &       # v2.0.1, 2025-01-27
one sagew "$W" e14793959abaabe45b8bd95417ed836419c55ee1 "$SG" &                                  # main, 2026-07-17
one torch "$SP" - "$TF" &                                                                        # 2.13.0 wheel
wait
