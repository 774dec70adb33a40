"""Traced by tests/test_trace.py: attention computed with matmul and softmax (transformers' 'eager'),
so no attention backend runs."""

import torch

q = torch.randn(1, 2, 16, 8)
out = ((q @ q.transpose(-2, -1)) * 8 ** -0.5).softmax(-1) @ q
print("eager attention", tuple(out.shape))
