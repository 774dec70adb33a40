# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# A user's own training loop over a transformers model: torch.optim, no Trainer (round 6a: transformers' run).
import torch
from torch.utils.data import DataLoader
from transformers import AutoModelForCausalLM, AutoTokenizer

path = "./checkpoints/base"
tokenizer = AutoTokenizer.from_pretrained(path)
model = AutoModelForCausalLM.from_pretrained(path)
model.cuda().train()
opt = torch.optim.AdamW(model.parameters(), lr=1e-5)
loader = DataLoader([], batch_size=8)
for epoch in range(3):
    for batch in loader:
        loss = model(**batch, labels=batch["input_ids"]).loss
        loss.backward()
        opt.step()
        opt.zero_grad()
model.save_pretrained("./checkpoints/tuned")
