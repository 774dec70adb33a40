"""Traced by tests/test_trace.py with --seconds: SDPA in a loop that never ends by itself."""

import torch
import torch.nn.functional as F

q = torch.randn(1, 2, 16, 8)
while True:
    F.scaled_dot_product_attention(q, q, q)
