# written for cfg36's tests: a dataclass of the script's own, built with its defaults
from dataclasses import dataclass
import torch
from transformers import AutoModelForCausalLM, TrainingArguments, Trainer


@dataclass
class Cfg:
    model: str = "Qwen/Qwen2.5-0.5B"
    attn_implementation: str = "sdpa"
    bf16: bool = True


def run():
    cfg = Cfg()
    model = AutoModelForCausalLM.from_pretrained(cfg.model, attn_implementation=cfg.attn_implementation)
    Trainer(model=model, args=TrainingArguments(output_dir="o", bf16=cfg.bf16)).train()


run()
