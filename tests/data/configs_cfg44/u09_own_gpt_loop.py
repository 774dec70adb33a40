# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# A user's own GPT (nn.Module with F.scaled_dot_product_attention) trained by its own loop; transformers gives only
# the tokenizer.
import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers import AutoTokenizer


class GPT(nn.Module):
    def __init__(self, vocab, dim=256):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, x):
        h = self.emb(x)
        q, k, v = self.qkv(h).chunk(3, -1)
        return self.head(F.scaled_dot_product_attention(q, k, v, is_causal=True))


tok = AutoTokenizer.from_pretrained("gpt2")
model = GPT(tok.vocab_size).cuda().to(torch.bfloat16)
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
