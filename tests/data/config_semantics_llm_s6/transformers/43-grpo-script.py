from datasets import load_dataset
from trl import GRPOConfig, GRPOTrainer

dataset = load_dataset("trl-lib/tldr", split="train")

def reward_len(completions, **kwargs):
    return [-abs(20 - len(c)) for c in completions]

args = GRPOConfig(
    output_dir="Qwen2-0.5B-GRPO",
    bf16=True,
    model_init_kwargs={"attn_implementation": "flash_attention_2", "torch_dtype": "bfloat16"},
)
trainer = GRPOTrainer(model="Qwen/Qwen2-0.5B-Instruct", reward_funcs=reward_len, args=args, train_dataset=dataset)
trainer.train()
