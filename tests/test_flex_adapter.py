"""The FlexAttention smoke adapter (attn_doctor/backends/flex.py) builds one BlockMask per case shape and
reuses it on every call of that case (issue 22: the old adapter built one per call, inside the timed
call). Real torch tensors on the CPU; the compiled flex_attention and create_block_mask are stand-ins
that record their calls (FAKED: nothing is compiled; benchmarks/flex_smoke.py runs the real thing)."""

from __future__ import annotations

import pytest

from attn_doctor.backends import flex
from torch_here import needs_torch

needs_torch()


@pytest.fixture(scope="module")
def torch():
    """torch, imported in the worker that runs these tests (at the module's top it was imported at collection, in every
    xdist worker; ci40c)."""
    import torch

    return torch


class FakeFA:
    def __init__(self):
        self.built = []

    def create_block_mask(self, mask_mod, B, H, Q, KV, device=None):
        self.built.append((mask_mod, Q, KV))
        return ("mask", len(self.built))


def handle():
    h = flex._Flex.__new__(flex._Flex)
    h.fa, h.masks, h.mask_builds = FakeFA(), {}, 0
    h.calls = []
    h.compiled = lambda q, k, v, block_mask=None, scale=None, **kw: (h.calls.append(block_mask), q)[1]
    return h


def test_one_causal_mask_per_shape_and_the_same_function(torch):
    h = handle()
    q = torch.zeros(2, 256, 8, 64)
    k = torch.zeros(2, 256, 2, 64)
    for _ in range(4):  # a smoke case: two forwards, two forward+backward
        flex.forward(h, torch, q, k, k, causal=True, scale=0.1)
    flex.forward(h, torch, q, k, k, causal=False, scale=0.1)
    assert h.mask_builds == 1 and len(h.fa.built) == 1
    assert h.fa.built[0][0] is flex.causal_mask
    assert h.calls[:4] == [("mask", 1)] * 4 and h.calls[4] is None


def test_varlen_reuses_its_document_mask_and_masks_padding(torch):
    h = handle()
    lens, pad = [200, 77, 13], 24
    rows = sum(lens) + pad
    q = torch.zeros(rows, 8, 64)
    cu = torch.tensor([0, 200, 277, 290], dtype=torch.int32)
    for _ in range(4):  # the call, padding changed, other sequences changed, the timed call
        flex.varlen(h, torch, q, q, q, cu_q=cu, cu_k=cu, max_q=200, max_k=200, causal=True, scale=0.1)
    assert h.mask_builds == 1
    mask_mod = h.fa.built[0][0]
    qi, ki = torch.tensor(5), torch.tensor(3)
    assert bool(mask_mod(0, 0, qi, ki)) and not bool(mask_mod(0, 0, ki, qi))  # causal inside a document
    assert not bool(mask_mod(0, 0, torch.tensor(201), torch.tensor(199)))  # across documents
    assert not bool(mask_mod(0, 0, torch.tensor(rows - 1), torch.tensor(100)))  # padding is its own document
