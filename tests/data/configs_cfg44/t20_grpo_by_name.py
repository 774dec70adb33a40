# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# TRL GRPO with the model given by name and a reward function of the script's own.
from trl import GRPOConfig, GRPOTrainer


def reward_len(completions, **kwargs):
    return [-abs(20 - len(c)) for c in completions]


cfg = GRPOConfig(output_dir="grpo", bf16=True, num_generations=4)
GRPOTrainer(model="Qwen/Qwen2-0.5B-Instruct", reward_funcs=reward_len, args=cfg, train_dataset=None).train()
