"""Messages xFormers, SageAttention and torch's FlexAttention / SDPA Python side raise in their own sources that
explain read with no entry or with another backend before helper ex134 (benchmarks/results/explain-source-messages-
others.md; benchmarks/source_messages.py lists every raise site). Each is written here with other values, prefixes and
wrappers than the source's own example, as a user's log prints it; each must name its backend, and the cause where a
specific entry knows it. Hand-written from the sources, not from users' reports."""

from __future__ import annotations

import pytest

from attn_doctor.explain import match

CASES = [
    # (backend, entry that must come first or None for any, text)
    # xFormers v0.0.35 (03b91d7d) and v0.0.29 (56be3b5e)
    ("xformers", None, "ValueError: Incompatible input shapes for attention chunk 3: attn_split[i].shape=torch.Size([1, 77, 1, 16, 128]), (B, M, G, H, Kq)=(1, 77, 1, 16, 64)"),
    ("xformers", None, "ValueError: Incompatible input shapes for LSE chunk 0: lse_split[i].shape=torch.Size([2, 1, 8, 300]), (B, G, H, M)=(2, 1, 8, 256)"),
    ("xformers", None, "AssertionError: Keys have head dim 80 but queries have head dim 128"),
    ("xformers", None, "    raise ValueError(\nValueError: Expected `window_size > 0`, but window_size=0"),
    ("xformers", None, "[rank1]: ValueError: gradients not supported for 5D tensors"),
    # SageAttention v2.0.x setup.py (fa1d103d)
    (None, "build.no-arch-list", "      RuntimeError: No GPUs found. Please specify the target GPU architectures or build on a machine with GPUs.\n      [end of output]"),
    # FlexAttention (torch 2.13.0)
    ("flex", "flex.block-mask-shape", "AssertionError: query.size(-2) (8192) != block_mask_q_len (4096)"),
    ("flex", "flex.block-mask-shape", "[rank3]: AssertionError: key.size(-2) (333) != block_mask_kv_len (256)"),
    ("flex", "flex.input-shape", "torch._inductor.exc.InductorError: LoweringException: AssertionError: Bq and Bkv must broadcastable. Got Bq=s0 and Bkv=3"),
    ("flex", "flex.input-shape", "torch._inductor.exc.InductorError: LoweringException: AssertionError: Query length must be greater than 0"),
    ("flex", "flex.input-shape", "torch._inductor.exc.InductorError: LoweringException: AssertionError: Key length must be greater than 0"),
    ("flex", None, "AssertionError: mask.dtype must be torch.bool, got torch.bfloat16"),
    ("flex", None, "AssertionError: OUTPUT_MAX must not be in kernel_options"),
    # torch's varlen_attn (SDPA's Python side, torch 2.13.0)
    ("sdpa", None, "RuntimeError: GQA is not supported with the cuDNN backend."),
    ("sdpa", None, "RuntimeError: num_splits is not supported with the cuDNN backend."),
    ("sdpa", None, "RuntimeError: cuDNN backend does not support window attention. Please use Flash Attention backend."),
    ("sdpa", None, "RuntimeError: seqused_k/block_table is not yet supported with the cuDNN backend."),
    ("sdpa", None, "RuntimeError: cuDNN backend does not support out variant."),
    ("sdpa", None, "  File \"/usr/lib/python3/site-packages/torch/nn/attention/varlen.py\", line 494\nRuntimeError: seqused_k is an inference-only parameter."),
    ("sdpa", None, "RuntimeError: block_table is an inference-only parameter."),
]


@pytest.mark.parametrize("backend,entry,text", CASES, ids=[c[2][:60] for c in CASES])
def test_a_source_message_is_read_as_its_backends(backend, entry, text):
    found = match(text)
    assert found, text
    if entry:
        assert found[0].entry.id == entry, (found[0].entry.id, found[0].backend)
    if backend:
        assert found[0].backend == backend, (found[0].entry.id, found[0].backend)


# rev22b (review of ex134): Inductor's "Query/Key length must be greater than 0" (kernel/flex/flex_attention.py:335,338 at
# 2.13.0) are words many programs print (Python's hashlib.pbkdf2_hmac with dklen=0: "key length must be greater than 0.";
# key generators in other languages): alone, or under a frame of no attention backend, they are no backend's message.
GENERIC = [
    "Traceback (most recent call last):\n  File \"/app/auth/passwords.py\", line 41, in derive\n"
    "    return hashlib.pbkdf2_hmac(\"sha256\", password, salt, 100_000, dklen=n)\nValueError: key length must be greater than 0.",
    "ValueError: Key length must be greater than 0",
    "error: Query length must be greater than 0.",
]


@pytest.mark.parametrize("text", GENERIC, ids=[t.splitlines()[-1][:50] for t in GENERIC])
def test_generic_length_words_are_no_backends(text):
    assert not match(text), [(m.entry.id, m.backend) for m in match(text)]
