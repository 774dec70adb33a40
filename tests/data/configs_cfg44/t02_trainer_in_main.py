# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# Mutation of t01: the same calls moved into main().
import torch
from datasets import load_dataset
from transformers import AutoModelForCausalLM, AutoTokenizer, DataCollatorForLanguageModeling, Trainer, TrainingArguments


def main():
    model_name = "Qwen/Qwen2.5-0.5B"
    tokenizer = AutoTokenizer.from_pretrained(model_name)
    model = AutoModelForCausalLM.from_pretrained(model_name, attn_implementation="sdpa", torch_dtype=torch.bfloat16)
    ds = load_dataset("json", data_files="train.jsonl")["train"]
    ds = ds.map(lambda b: tokenizer(b["text"], truncation=True, max_length=512), batched=True)
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=4, bf16=True, num_train_epochs=1)
    trainer = Trainer(model=model, args=args, train_dataset=ds,
                      data_collator=DataCollatorForLanguageModeling(tokenizer, mlm=False))
    trainer.train()


if __name__ == "__main__":
    main()
