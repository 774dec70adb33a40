# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# Near miss (claimed side) of the framework guard: transformers' Trainer with a DeepSpeed config; deepspeed imported
# for its zero.Init context only. The Trainer is the loop.
import deepspeed
import torch
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

args = TrainingArguments(output_dir="out", bf16=True, deepspeed="ds_z3.json")
with deepspeed.zero.Init():
    model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-7B", attn_implementation="flash_attention_2",
                                                 torch_dtype=torch.bfloat16)
Trainer(model=model, args=args, train_dataset=None).train()
