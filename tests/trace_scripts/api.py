"""Run by tests/test_trace.py: attn_doctor.trace() in the trainer's own process, around part of its loop."""

import json
import sys

import attn_doctor
import torch
import torch.nn.functional as F


def attend(q):
    return F.scaled_dot_product_attention(q, q, q)


q = torch.randn(1, 2, 16, 8)
attend(q)  # before the block: the same call site, not counted in the block's report
with attn_doctor.trace(require="flex") as t:
    for _ in range(5):
        attend(q)
json.dump({"report": t.report.to_dict(), "ok": t.report.ok, "exit_code": t.report.exit_code,
           "torch_before": "torch" in sys.modules}, sys.stdout)
