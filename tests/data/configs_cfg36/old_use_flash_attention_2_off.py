# written for cfg36's tests (near miss): the old keyword from an argparse option whose default is False
import argparse

import torch
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

p = argparse.ArgumentParser()
p.add_argument("--flash", action="store_true")
args = p.parse_args()
model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf", use_flash_attention_2=args.flash,
                                             torch_dtype=torch.float16)
Trainer(model=model, args=TrainingArguments(output_dir="o", fp16=True)).train()
