# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# Split of a user's own diffusion trainer (1/2): the module that loads its text encoders (bare encoders beside a
# diffusion model: TRAINERS.md round 6a says these are no transformers evidence). No diffusers import in this file.
import torch
from transformers import CLIPTextModel, CLIPTokenizer, T5EncoderModel, T5TokenizerFast


def load_text_encoders(base: str, dtype=torch.bfloat16):
    clip = CLIPTextModel.from_pretrained(base, subfolder="text_encoder", torch_dtype=dtype)
    t5 = T5EncoderModel.from_pretrained(base, subfolder="text_encoder_2", torch_dtype=dtype)
    return (CLIPTokenizer.from_pretrained(base, subfolder="tokenizer"), clip,
            T5TokenizerFast.from_pretrained(base, subfolder="tokenizer_2"), t5)
