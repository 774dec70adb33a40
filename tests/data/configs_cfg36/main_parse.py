# written for cfg36's tests: main(p.parse_args()): the parameter holds the parsed options
import argparse
import torch
from transformers import AutoModelForCausalLM, TrainingArguments, Trainer


def main(opts):
    model = AutoModelForCausalLM.from_pretrained(opts.model, attn_implementation=opts.attn,
                                                 torch_dtype=torch.bfloat16)
    targs = TrainingArguments(output_dir="out", bf16=opts.bf16)
    Trainer(model=model, args=targs).train()


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--model", default="Qwen/Qwen2.5-0.5B")
    p.add_argument("--attn", default="flash_attention_2")
    p.add_argument("--bf16", action="store_true", default=True)
    main(p.parse_args())
