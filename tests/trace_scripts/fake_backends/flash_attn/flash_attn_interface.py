"""FAKE flash_attn.flash_attn_interface (see flash_attn/__init__.py): flash-attn 2.8.3's flash_attn_func
signature and (batch, seqlen, heads, head dim) layout, computed by torch's SDPA."""

import torch.nn.functional as F


def flash_attn_func(q, k, v, dropout_p=0.0, softmax_scale=None, causal=False, window_size=(-1, -1), softcap=0.0,
                    alibi_slopes=None, deterministic=False, return_attn_probs=False):
    out = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), dropout_p=dropout_p,
                                         is_causal=causal, scale=softmax_scale)
    return out.transpose(1, 2)
