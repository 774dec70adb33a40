import torch
from accelerate import Accelerator
from transformers import AutoModelForCausalLM

accelerator = Accelerator(mixed_precision="bf16", gradient_accumulation_steps=4)
model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.2-1B", attn_implementation="flash_attention_2")
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
model.train()
for batch in train_dataloader:
    with accelerator.accumulate(model):
        loss = model(**batch).loss
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
