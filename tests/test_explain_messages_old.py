"""Variants of the messages old xFormers and SageAttention releases raise (knowledge/messages/xformers-v0.0.*.toml,
sage-v1.0.*.toml; read at v0.0.13-v0.0.28 and 1.0.3/1.0.6): written here with other values, prefixes and wrappers
than the examples the data makes, as a paste from a user still on such a release shows them. Each is named as its
backend's (by the last resort triage.backend-message unless a specific entry knows it). Hand-written, not from
users' reports."""

from __future__ import annotations

import pytest

from attn_doctor.explain import match

VARIANTS = [
    # xFormers v0.0.13's dispatcher, before fmha/dispatch.py's "No operator found for `...` with inputs:"
    ("xformers", "NotImplementedError: No operator found for this attention: AttentionOpDispatch(dtype=torch.float32, "
                 "device=device(type='cuda', index=0), k=80, has_dropout=False, attn_bias_type=<class 'NoneType'>, "
                 "kv_len=4096, q_len=4096, kv=80, batch_size=2, num_heads=8, has_custom_scale=False, requires_grad=True)"),
    # the `reasons` lines old dispatchers listed
    ("xformers", "    Sm75 does not have enough shared-memory to run this kernel - see https://github.com/facebookresearch/xformers/issues/517"),
    ("xformers", "    requires a GPU with compute capability == 8.0 for 'query.shape[-1] > 64'"),
    ("xformers", "    requires a GPU with compute capability 8.0 (A100) or 9.0 (H100) for 'query.shape[-1] > 128'"),
    ("xformers", "    requires device with capability > (8, 0) but your GPU has capability (7, 5) (too old)"),
    ("xformers", "    tensors with custom seqlen are not supported"),
    ("xformers", "    Variable query len is not supported for causal masks."),
    ("xformers", "    Query length should not be larger than 16 for causal attention biases"),
    # raised and asserted ones
    ("xformers", "ValueError: Query/Key/Value should all have BMHK or BMK shape.\n  query.shape: torch.Size([2, 77, 768])"),
    ("xformers", "ValueError: Query/Key/Value should all have BMGHK, BMHK, or BMK shape."),
    ("xformers", "ValueError: Invalid shape for query: torch.Size([2, 8, 77, 40, 1]). Expected shape [batch, seqlen, num_heads, K], or [batch, seqlen, K]."),
    ("xformers", "AssertionError: Incompatible shapes: attn_split.shape=torch.Size([4, 2, 128, 8, 64]), lse_split.shape=torch.Size([2, 2, 8, 128])"),
    ("xformers", "NotImplementedError: Only gradients to Q/K/V is implemented. For instance, it's not possible to backpropagate through the attention mask"),
    # SageAttention 1.0.x's sageattn asserts
    ("sage", "AssertionError: Input tensors must be in dtype of torch.float16, torch.bfloat16, or torch.float32."),
    ("sage", '  File "/home/u/ComfyUI/venv/lib/site-packages/sageattention/core.py", line 24, in sageattn\n'
             '    assert q.size(-2)>=128, "seq_len should be not less than 128."\n'
             "AssertionError: seq_len should be not less than 128."),
]


@pytest.mark.parametrize("backend,text", VARIANTS, ids=[f"{b}-{i}" for i, (b, _) in enumerate(VARIANTS)])
def test_an_old_releases_message_names_its_backend(backend, text):
    found = match(text)
    assert found, text
    assert found[0].backend == backend, (found[0].entry.id, found[0].backend)


# near misses: texts no source read here raises, or ones left out as generic, stay unclaimed by the last resort
NEAR_MISSES = [
    "AssertionError: seq_len should be at least 128",
    "ValueError: Query/Key/Value should all have the same dtype",  # xformers v0.0.20's, left out: generic
    "NotImplementedError: No operator found for this model",
    # ex75 (session 11): xformers' optional speed-up notice is no error its backend raises (left out of the message tables;
    # attribution.toml [optional_notice]); it stays unclaimed by the last resort
    "/usr/lib/python3.10/site-packages/xformers/__init__.py:62: UserWarning: Functorch is not available, some optimizations will not be enabled.",
]


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_a_text_no_old_release_raises_is_not_taken_for_a_backends(text):
    assert all(f.entry.id != "triage.backend-message" for f in match(text))
