# written for cfg36's tests (near miss): an object of a plain class of the script's own (not a dataclass, not a config
# class): what its constructor does with `attn` is its own code's, not known here
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


class Loader:
    def __init__(self, attn):
        self.attn = "eager" if attn == "auto" else attn


ld = Loader(attn="flash_attention_2")
model = AutoModelForCausalLM.from_pretrained("m", attn_implementation=ld.attn)
Trainer(model=model, args=TrainingArguments(output_dir="o", bf16=True)).train()
