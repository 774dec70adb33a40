# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# Near miss (claimed side) of the diffusers guard: a script that imports diffusers for an image pipeline yet trains a
# captioning language model with transformers' Trainer: the Trainer is transformers' run.
import torch
from diffusers import StableDiffusionPipeline
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

pipe = StableDiffusionPipeline.from_pretrained("runwayml/stable-diffusion-v1-5", torch_dtype=torch.float16)
captioner = AutoModelForCausalLM.from_pretrained("microsoft/phi-2", attn_implementation="sdpa")
args = TrainingArguments(output_dir="captioner", bf16=True)
Trainer(model=captioner, args=args, train_dataset=None).train()
