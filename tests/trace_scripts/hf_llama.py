"""Traced by tests/test_trace.py: a tiny Llama built from a config (no download) with each
attn_implementation the CPU runs: eager (plain matmul + softmax: no attention backend), sdpa (trained
3 steps) and flex_attention (compiled by transformers; forward only, Flex has no backward on the CPU)."""

import sys

import torch
from transformers import LlamaConfig, LlamaForCausalLM

cfg = LlamaConfig(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
                  num_key_value_heads=2, max_position_embeddings=64)
ids = torch.randint(0, 64, (1, 16))
for impl in sys.argv[1:]:
    model = LlamaForCausalLM._from_config(cfg, attn_implementation=impl)
    if impl == "flex_attention":
        with torch.no_grad():
            model(ids)
        continue
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for _ in range(3):
        model(ids, labels=ids).loss.backward()
        opt.step()
        opt.zero_grad()
print("hf done:", " ".join(sys.argv[1:]))
