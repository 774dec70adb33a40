# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# Mutation of t01: a Trainer subclass of the script's own with its own compute_loss.
import torch
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


class WeightedLossTrainer(Trainer):
    def compute_loss(self, model, inputs, return_outputs=False, **kwargs):
        out = model(**inputs)
        loss = out.loss * 0.5
        return (loss, out) if return_outputs else loss


model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.2-1B", attn_implementation="flash_attention_2",
                                             torch_dtype=torch.bfloat16)
args = TrainingArguments(output_dir="out", bf16=True)
WeightedLossTrainer(model=model, args=args, train_dataset=None).train()
