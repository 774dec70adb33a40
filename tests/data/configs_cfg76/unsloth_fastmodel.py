# written by cfg76: fakes a user's Unsloth vision script (FastModel / FastVisionModel, explicit bf16, sdpa asked)
import torch
from unsloth import FastModel

model, processor = FastModel.from_pretrained(
    "unsloth/gemma-3-4b-it",
    max_seq_length = 4096,
    load_in_4bit = False,
    dtype = torch.bfloat16,
    attn_implementation = "sdpa",
    full_finetuning = False,
)
model = FastModel.get_peft_model(model, finetune_vision_layers = True, r = 8)
