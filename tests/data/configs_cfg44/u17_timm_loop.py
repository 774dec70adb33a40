# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# A user's own image classifier loop (timm model); transformers only for its scheduler helper.
import timm
import torch
from transformers import get_cosine_schedule_with_warmup

model = timm.create_model("vit_base_patch16_224", pretrained=True, num_classes=10).cuda()
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
sched = get_cosine_schedule_with_warmup(opt, 500, 10000)
for x, y in []:
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = torch.nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    sched.step()
