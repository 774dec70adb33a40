"""FAKE sageattention for tests/test_trace.py: the call signature of sageattention 1.0.6's sageattn
(q, k, v, tensor_layout="HND", is_causal=False, sm_scale=None), computed in plain PyTorch. The trace
knows a backend by the module its function comes from; no kernel of the real package is imitated."""

import torch


def sageattn(q, k, v, tensor_layout="HND", is_causal=False, sm_scale=None, **kwargs):
    scale = sm_scale if sm_scale is not None else q.shape[-1] ** -0.5
    scores = (q @ k.transpose(-2, -1)) * scale
    if is_causal:
        L, S = scores.shape[-2:]
        scores = scores.masked_fill(~torch.ones(L, S, dtype=torch.bool).tril(), float("-inf"))
    return scores.softmax(-1) @ v
