# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# Mutation of u01: argparse options of its own, the text encoder dtype from an option.
import argparse

import torch
from diffusers import AutoencoderKL, DDPMScheduler, UNet2DConditionModel
from peft import LoraConfig, get_peft_model
from transformers import CLIPTextModel, CLIPTokenizer

ap = argparse.ArgumentParser()
ap.add_argument("--base", default="runwayml/stable-diffusion-v1-5")
ap.add_argument("--lora_rank", type=int, default=8)
ap.add_argument("--half_text_encoder", action="store_true")
args = ap.parse_args()
BASE = args.base
dtype = torch.float16 if args.half_text_encoder else torch.float32
tokenizer = CLIPTokenizer.from_pretrained(BASE, subfolder="tokenizer")
text_encoder = CLIPTextModel.from_pretrained(BASE, subfolder="text_encoder", torch_dtype=dtype)
unet = UNet2DConditionModel.from_pretrained(BASE, subfolder="unet")
unet = get_peft_model(unet, LoraConfig(r=args.lora_rank, target_modules=["to_q", "to_v"]))
opt = torch.optim.AdamW(unet.parameters(), lr=1e-4)
