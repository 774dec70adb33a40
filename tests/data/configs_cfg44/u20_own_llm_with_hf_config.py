# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# A user's own LLM (its own attention) that only borrows transformers' LlamaConfig for its sizes and the tokenizer.
import torch
import torch.nn as nn
from transformers import AutoTokenizer, LlamaConfig

cfg = LlamaConfig(hidden_size=512, num_attention_heads=8, num_hidden_layers=6, torch_dtype="bfloat16")
tok = AutoTokenizer.from_pretrained("meta-llama/Llama-3.2-1B")


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.attn = nn.MultiheadAttention(c.hidden_size, c.num_attention_heads, batch_first=True)


model = nn.Sequential(*[Block(cfg) for _ in range(cfg.num_hidden_layers)]).to(torch.bfloat16)
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
