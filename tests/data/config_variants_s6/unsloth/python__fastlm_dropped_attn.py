import torch
from unsloth import FastLanguageModel
from trl import SFTConfig, SFTTrainer
from datasets import load_dataset

model, tokenizer = FastLanguageModel.from_pretrained(
    model_name="unsloth/Llama-3.2-3B-Instruct",
    max_seq_length=2048,
    dtype=torch.bfloat16,
    load_in_4bit=True,
    attn_implementation="flash_attention_2",
)
model = FastLanguageModel.get_peft_model(model, r=16, lora_alpha=16,
                                         target_modules=["q_proj", "k_proj", "v_proj", "o_proj"])
dataset = load_dataset("yahma/alpaca-cleaned", split="train")
trainer = SFTTrainer(model=model, tokenizer=tokenizer, train_dataset=dataset,
                     args=SFTConfig(per_device_train_batch_size=2, max_steps=60, bf16=True, output_dir="outputs"))
trainer.train()
