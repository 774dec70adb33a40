# written by cfg77: fakes a user's script that reads its YAML with yaml.safe_load into its own dataclass and trains in its own loop
import argparse
from dataclasses import dataclass

import torch
import yaml
from transformers import AutoModelForCausalLM


@dataclass
class RunSettings:
    model_name_or_path: str
    learning_rate: float = 2e-4
    num_train_epochs: int = 1
    per_device_train_batch_size: int = 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="configs/qlora_small.yaml")
    args = ap.parse_args()
    with open(args.config) as fh:
        raw = yaml.safe_load(fh)
    cfg = RunSettings(**{k: raw[k] for k in RunSettings.__dataclass_fields__ if k in raw})
    model = AutoModelForCausalLM.from_pretrained(cfg.model_name_or_path)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.learning_rate)
    for _ in range(cfg.num_train_epochs):
        loss = model(input_ids=torch.ones(1, 8, dtype=torch.long), labels=torch.ones(1, 8, dtype=torch.long)).loss
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
