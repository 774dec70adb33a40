# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# Mutation of u01 for SD3: two CLIP encoders with projection and a T5 encoder in bfloat16, its own loop.
import torch
from diffusers import SD3Transformer2DModel, FlowMatchEulerDiscreteScheduler
from transformers import CLIPTextModelWithProjection, T5EncoderModel

BASE = "stabilityai/stable-diffusion-3.5-medium"
te1 = CLIPTextModelWithProjection.from_pretrained(BASE, subfolder="text_encoder", torch_dtype=torch.bfloat16)
te2 = CLIPTextModelWithProjection.from_pretrained(BASE, subfolder="text_encoder_2", torch_dtype=torch.bfloat16)
te3 = T5EncoderModel.from_pretrained(BASE, subfolder="text_encoder_3", torch_dtype=torch.bfloat16)
transformer = SD3Transformer2DModel.from_pretrained(BASE, subfolder="transformer")
opt = torch.optim.AdamW(transformer.parameters(), lr=1e-5)
