# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# An SDXL inference script (a diffusers pipeline, its text encoders loaded from transformers with the dtype). Trains
# nothing (round 6b: an SDXL inference notebook is none).
import torch
from diffusers import StableDiffusionXLPipeline
from transformers import CLIPTextModel

te = CLIPTextModel.from_pretrained("stabilityai/stable-diffusion-xl-base-1.0", subfolder="text_encoder",
                                   torch_dtype=torch.float16)
pipe = StableDiffusionXLPipeline.from_pretrained("stabilityai/stable-diffusion-xl-base-1.0", text_encoder=te,
                                                 torch_dtype=torch.float16).to("cuda")
pipe("a photo of a cat").images[0].save("cat.png")
