# written for cfg36's tests (near miss): a class of the script's own on a base of its own named like TRL's trainer (no
# TRL import): its own loop
import torch
from transformers import AutoTokenizer


class SFTTrainer:
    def train(self):
        pass


class MyTrainer(SFTTrainer):
    pass


tok = AutoTokenizer.from_pretrained("gpt2")
MyTrainer().train()
