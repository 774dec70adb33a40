# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# Mutation of u01: the text encoder cast after loading (.to(weight_dtype)) rather than loaded in the dtype.
import torch
from diffusers import DDPMScheduler, UNet2DConditionModel
from transformers import CLIPTextModel

BASE = "runwayml/stable-diffusion-v1-5"
weight_dtype = torch.float16
text_encoder = CLIPTextModel.from_pretrained(BASE, subfolder="text_encoder").to("cuda", dtype=weight_dtype)
unet = UNet2DConditionModel.from_pretrained(BASE, subfolder="unet")
text_encoder.requires_grad_(False)
opt = torch.optim.AdamW(unet.parameters(), lr=1e-4)
