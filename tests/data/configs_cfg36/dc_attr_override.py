# written for cfg36's tests: the script's own config dataclass built with a keyword over its default
from dataclasses import dataclass

from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


@dataclass(frozen=True)
class RunConfig:
    attn_implementation: str = "sdpa"
    fp16: bool = False


cfg = RunConfig(attn_implementation="flash_attention_2", fp16=True)
model = AutoModelForCausalLM.from_pretrained("m", attn_implementation=cfg.attn_implementation)
Trainer(model=model, args=TrainingArguments(output_dir="o", fp16=cfg.fp16)).train()
