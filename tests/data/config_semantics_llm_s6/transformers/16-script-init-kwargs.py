from datasets import load_dataset
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer
from trl import SFTConfig, SFTTrainer

dataset = load_dataset("trl-lib/Capybara", split="train")

training_args = SFTConfig(
    output_dir="Qwen2.5-0.5B-SFT",
    bf16=True,
    per_device_train_batch_size=2,
    model_init_kwargs={"attn_implementation": "flash_attention_2", "dtype": torch.bfloat16},
)
trainer = SFTTrainer(model="Qwen/Qwen2.5-0.5B", args=training_args, train_dataset=dataset)
trainer.train()
