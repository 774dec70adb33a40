# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# A user's own accelerate loop over a transformers model loaded with FlashAttention 2.
import torch
from accelerate import Accelerator
from transformers import AutoModelForCausalLM, get_cosine_schedule_with_warmup

acc = Accelerator(mixed_precision="bf16", gradient_accumulation_steps=4)
model = AutoModelForCausalLM.from_pretrained("mistralai/Mistral-7B-v0.1", attn_implementation="flash_attention_2",
                                             torch_dtype=torch.bfloat16)
opt = torch.optim.AdamW(model.parameters(), lr=2e-5)
sched = get_cosine_schedule_with_warmup(opt, 100, 1000)
model, opt, sched = acc.prepare(model, opt, sched)
for batch in []:
    with acc.accumulate(model):
        acc.backward(model(**batch).loss)
        opt.step()
        sched.step()
        opt.zero_grad()
