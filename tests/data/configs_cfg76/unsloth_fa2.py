# written by cfg76: fakes an Unsloth script that asks for flash_attention_2 through from_pretrained's kwargs, fp16
from unsloth import FastLanguageModel
import torch

model, tokenizer = FastLanguageModel.from_pretrained(
    model_name="unsloth/Qwen2.5-7B-Instruct",
    max_seq_length=8192,
    dtype=torch.float16,
    load_in_4bit=True,
    attn_implementation="flash_attention_2",
)
