# written for cfg36's tests: a TRL trainer given the model's name and no config (TRL loads the model itself)
from datasets import load_dataset
from trl import SFTTrainer

ds = load_dataset("trl-lib/Capybara", split="train")
trainer = SFTTrainer(model="Qwen/Qwen2.5-0.5B", train_dataset=ds)
trainer.train()
