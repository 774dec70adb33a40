from datasets import load_dataset
from trl import SFTConfig, SFTTrainer

dataset = load_dataset("trl-lib/Capybara", split="train")
args = SFTConfig(output_dir="out", bf16=True, torch_compile=True)
trainer = SFTTrainer(model="Qwen/Qwen2.5-0.5B", args=args, train_dataset=dataset)
trainer.train()
