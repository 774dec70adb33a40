# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# Mutation of t01: the calls in methods of a class of the script's own.
import torch
from datasets import load_dataset
from transformers import AutoModelForCausalLM, AutoTokenizer, DataCollatorForLanguageModeling, Trainer, TrainingArguments


class FineTuner:
    def __init__(self, model_name="Qwen/Qwen2.5-0.5B"):
        self.tokenizer = AutoTokenizer.from_pretrained(model_name)
        self.model = AutoModelForCausalLM.from_pretrained(model_name, attn_implementation="sdpa",
                                                          torch_dtype=torch.bfloat16)

    def run(self, data="train.jsonl"):
        ds = load_dataset("json", data_files=data)["train"]
        ds = ds.map(lambda b: self.tokenizer(b["text"], truncation=True, max_length=512), batched=True)
        args = TrainingArguments(output_dir="out", per_device_train_batch_size=4, bf16=True, num_train_epochs=1)
        Trainer(model=self.model, args=args, train_dataset=ds,
                data_collator=DataCollatorForLanguageModeling(self.tokenizer, mlm=False)).train()


if __name__ == "__main__":
    FineTuner().run()
