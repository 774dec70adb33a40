import torch
from transformers import AutoModelForCausalLM

model = AutoModelForCausalLM.from_pretrained("gpt2", attn_implementation="sdpa").cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
for batch in loader:
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        feats = preprocess(batch)
    loss = model(**feats).loss
    loss.backward()
    optimizer.step()
