# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# Mutation of u01 for FLUX: diffusers imported as a module, the T5 and CLIP encoders loaded in bfloat16 in a function.
import diffusers
import torch
import transformers


def build(base="black-forest-labs/FLUX.1-dev"):
    t5 = transformers.T5EncoderModel.from_pretrained(base, subfolder="text_encoder_2", torch_dtype=torch.bfloat16)
    clip = transformers.CLIPTextModel.from_pretrained(base, subfolder="text_encoder", torch_dtype=torch.bfloat16)
    dit = diffusers.FluxTransformer2DModel.from_pretrained(base, subfolder="transformer", torch_dtype=torch.bfloat16)
    return t5, clip, dit


t5, clip, dit = build()
opt = torch.optim.AdamW(dit.parameters(), lr=1e-5)
for batch in []:
    dit(**batch).sample.mean().backward()
    opt.step()
