# written for cfg36's tests: the user's transformers script the Slurm job runs
import torch
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


def main():
    model = AutoModelForCausalLM.from_pretrained("mistralai/Mistral-7B-v0.1", attn_implementation="sdpa",
                                                 torch_dtype=torch.float16)
    Trainer(model=model, args=TrainingArguments(output_dir="o", fp16=True)).train()


if __name__ == "__main__":
    main()
