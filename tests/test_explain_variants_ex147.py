"""Helper ex147 (session 25): explain's leftovers from session 24, each written for its mechanism, with variants of our own.

1. text-generation-inference's flash model classes (frameworks.toml tgi.flash-models-unavailable; TGI's
   server/text_generation_server/models/__init__.py@db931fcf lines 81, 183, 1016-1017): a sharded or vision model refused
   because the flash model classes did not import, in every wording TGI's releases used; the import error logged above it
   ranks first where the log shows it.
"""

from __future__ import annotations

import pytest

from attn_doctor.explain import match

TGI_LOG = "2024-05-02T08:15:00.123Z ERROR text_generation_launcher: "


@pytest.mark.parametrize("text", [
    "NotImplementedError: Qwen2_VL requires Flash Attention enabled models.",
    TGI_LOG + "NotImplementedError: Sharded mistral requires Flash Attention enabled models.",
    "text-generation-launcher --num-shard 2 fails: Sharded gpt_bigcode requires Flash Attention enabled models",
    "NotImplementedError: Sharded RefinedWeb requires CUDA and Flash Attention kernels to be installed.\nUse the official Docker "
    "image or install flash attention with `cd server && make install install-flash-attention`",
    "NotImplementedError: Sharded Llama requires Flash Attention CUDA kernels to be installed.",
    "NotImplementedError: Sharded Llama requires CUDA. No compatible CUDA devices found.",
    TGI_LOG.replace("ERROR", "WARN") + "Could not import Flash Attention enabled models: No module named 'vllm'",
])
def test_tgi_flash_models_unavailable(text):
    found = match(text)
    assert found and found[0].entry.id == "tgi.flash-models-unavailable" and found[0].backend == "fa2", \
        [(m.entry.id, m.backend) for m in found]


@pytest.mark.parametrize("why, first", [
    ("GPU with CUDA capability 7 0 is not supported", "backend.unsupported-gpu"),
    ("No module named 'flash_attn_2_cuda'", "fa2.no-extension"),
])
def test_tgi_import_error_above_ranks_first(why, first):
    text = (TGI_LOG.replace("ERROR", "WARN") + "Could not import Flash Attention enabled models: " + why + "\n"
            + TGI_LOG + "NotImplementedError: Sharded Llama requires Flash Attention enabled models.")
    ids = [m.entry.id for m in match(text)]
    assert ids[:2] == [first, "tgi.flash-models-unavailable"], ids
