# variant written for cfg32: argparse defaults (with choices) given to from_pretrained and TrainingArguments
import argparse
import torch
from transformers import AutoModelForCausalLM, TrainingArguments

parser = argparse.ArgumentParser()
parser.add_argument("--attn_implementation", type=str, default="flash_attention_2",
                    choices=["eager", "sdpa", "flash_attention_2"])
parser.add_argument("--precision", default="bf16", choices=["fp16", "bf16", "fp32"])
args = parser.parse_args()

model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-7B", attn_implementation=args.attn_implementation,
                                             torch_dtype=torch.bfloat16 if args.precision == "bf16" else torch.float16)
targs = TrainingArguments(output_dir="out", bf16=args.precision == "bf16", fp16=args.precision == "fp16")
