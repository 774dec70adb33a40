# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# A user's own loop in a class, the transformers model held as an attribute.
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer


class SFTLoop:
    def __init__(self, cfg):
        self.cfg = cfg
        self.model = AutoModelForCausalLM.from_pretrained(cfg["model"], attn_implementation="sdpa")
        self.tok = AutoTokenizer.from_pretrained(cfg["model"])
        self.opt = torch.optim.AdamW(self.model.parameters(), lr=cfg["lr"])

    def step(self, batch):
        loss = self.model(**batch).loss
        loss.backward()
        self.opt.step()
        self.opt.zero_grad()
        return loss.item()


SFTLoop({"model": "gpt2", "lr": 3e-5})
