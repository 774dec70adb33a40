# written for cfg36's tests (near miss): main() is given a config read from a file not here: its values are unknown
import argparse

import yaml
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


def main(cfg):
    model = AutoModelForCausalLM.from_pretrained(cfg.model, attn_implementation=cfg.attn)
    Trainer(model=model, args=TrainingArguments(output_dir="o", bf16=cfg.bf16)).train()


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--attn", default="flash_attention_2")
    p.add_argument("--bf16", default=True)
    main(argparse.Namespace(**yaml.safe_load(open("train.yaml"))))
