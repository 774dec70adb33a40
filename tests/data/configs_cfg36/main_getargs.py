# written for cfg36's tests: `opts = get_args()` then `train(opts)`, the parameter named otherwise
import argparse

from transformers import AutoModelForCausalLM
from trl import SFTConfig, SFTTrainer


def get_args():
    ap = argparse.ArgumentParser()
    ap.add_argument("--attn-impl", default="sdpa")
    ap.add_argument("--fp16", type=bool, default=True)
    return ap.parse_args()


def train(cfg):
    model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-0.5B", attn_implementation=cfg.attn_impl)
    SFTTrainer(model=model, args=SFTConfig(output_dir="o", fp16=cfg.fp16, bf16=False)).train()


if __name__ == "__main__":
    opts = get_args()
    train(opts)
