# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# Mutation of t01: a TrainingArguments subclass of the script's own with its own defaults (round 33m).
from dataclasses import dataclass

from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


@dataclass
class MyArgs(TrainingArguments):
    bf16: bool = True
    lora_rank: int = 8


model = AutoModelForCausalLM.from_pretrained("gpt2")
Trainer(model=model, args=MyArgs(output_dir="out"), train_dataset=None).train()
