import torch
from unsloth import FastLanguageModel
from transformers import TrainingArguments
from trl import SFTTrainer

model, tok = FastLanguageModel.from_pretrained("unsloth/llama-3-8b-bnb-4bit", max_seq_length=2048, dtype=torch.float16, load_in_4bit=True)
model = FastLanguageModel.get_peft_model(model, r=16)
args = TrainingArguments(output_dir="out", per_device_train_batch_size=2, max_steps=60, fp16=True,
                         torch_compile_mode="reduce-overhead")
SFTTrainer(model=model, tokenizer=tok, train_dataset=None, args=args).train()
