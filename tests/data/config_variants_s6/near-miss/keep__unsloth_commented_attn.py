"""Fine-tune with Unsloth. Tried attn_implementation="flash_attention_2" and torch_compile=True: no gain."""
import torch
from unsloth import FastLanguageModel

model, tokenizer = FastLanguageModel.from_pretrained(
    model_name="unsloth/llama-3-8b-bnb-4bit",
    max_seq_length=2048,
    dtype=torch.float16,
    load_in_4bit=True,
    # attn_implementation="flash_attention_2",
)
model = FastLanguageModel.get_peft_model(model, r=16)
