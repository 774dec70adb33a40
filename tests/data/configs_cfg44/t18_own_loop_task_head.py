# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# A user's own loop over a task-head class, weights in bfloat16 (round 6a: transformers' run).
import torch
from transformers import LlamaForCausalLM

model = LlamaForCausalLM.from_pretrained("./llama-7b", torch_dtype=torch.bfloat16).cuda()
opt = torch.optim.SGD(model.parameters(), lr=1e-4)
for batch in []:
    model(**batch).loss.backward()
    opt.step()
