# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# Mutation of u01: the user's loop under accelerate (mixed precision fp16), the text encoder in the weight dtype.
import torch
from accelerate import Accelerator
from diffusers import AutoencoderKL, DDPMScheduler, UNet2DConditionModel
from transformers import CLIPTextModel, CLIPTokenizer

acc = Accelerator(mixed_precision="fp16")
weight_dtype = torch.float16
BASE = "stabilityai/stable-diffusion-2-1"
tokenizer = CLIPTokenizer.from_pretrained(BASE, subfolder="tokenizer")
text_encoder = CLIPTextModel.from_pretrained(BASE, subfolder="text_encoder", torch_dtype=weight_dtype)
vae = AutoencoderKL.from_pretrained(BASE, subfolder="vae")
unet = UNet2DConditionModel.from_pretrained(BASE, subfolder="unet")
opt = torch.optim.AdamW(unet.parameters(), lr=5e-6)
unet, opt = acc.prepare(unet, opt)
