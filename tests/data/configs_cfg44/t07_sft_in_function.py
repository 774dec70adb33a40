# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# Mutation, TRL: SFTConfig and SFTTrainer built inside a function, the model given by name.
from datasets import load_dataset
from trl import SFTConfig, SFTTrainer


def train(dataset_path: str, out: str):
    cfg = SFTConfig(output_dir=out, bf16=True, packing=False,
                    model_init_kwargs={"attn_implementation": "flash_attention_2", "torch_dtype": "bfloat16"})
    trainer = SFTTrainer(model="Qwen/Qwen2.5-1.5B-Instruct", args=cfg, train_dataset=load_dataset(dataset_path)["train"])
    trainer.train()


if __name__ == "__main__":
    train("trl-lib/Capybara", "sft-out")
