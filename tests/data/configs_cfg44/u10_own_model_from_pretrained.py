# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# Mutation of u09: the user's own model class is named TinyLlamaModel and has its own from_pretrained classmethod
# (safetensors of its own); transformers gives only the tokenizer.
import torch
import torch.nn as nn
from safetensors.torch import load_file
from transformers import AutoTokenizer


class TinyLlamaModel(nn.Module):
    def __init__(self, vocab=32000, dim=512):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.out = nn.Linear(dim, vocab)

    @classmethod
    def from_pretrained(cls, path, dtype=torch.float32):
        m = cls()
        m.load_state_dict(load_file(f"{path}/model.safetensors"))
        return m.to(dtype)


tok = AutoTokenizer.from_pretrained("TinyLlama/TinyLlama-1.1B-Chat-v1.0")
model = TinyLlamaModel.from_pretrained("./ckpt", dtype=torch.bfloat16)
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
