# written for cfg36's tests (near miss): the script's own class named SFTTrainer (its own loop); transformers only for
# the tokenizer
import torch
from transformers import AutoTokenizer


class SFTTrainer:
    def __init__(self, model, lr=1e-4):
        self.model, self.opt = model, torch.optim.AdamW(model.parameters(), lr=lr)

    def train(self):
        pass


tok = AutoTokenizer.from_pretrained("gpt2")
SFTTrainer(torch.nn.Linear(4, 4)).train()
