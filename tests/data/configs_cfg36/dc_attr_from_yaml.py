# written for cfg36's tests (near miss): the dataclass is filled from a YAML not here: the defaults are not the run's
from dataclasses import dataclass

import yaml
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


@dataclass
class Cfg:
    attn_implementation: str = "flash_attention_2"
    bf16: bool = True


cfg = Cfg(**yaml.safe_load(open("run.yaml")))
model = AutoModelForCausalLM.from_pretrained("m", attn_implementation=cfg.attn_implementation)
Trainer(model=model, args=TrainingArguments(output_dir="o", bf16=cfg.bf16)).train()
