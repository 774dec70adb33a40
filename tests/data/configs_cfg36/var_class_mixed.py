# written for cfg36's tests (near miss): the variable holds a model class in one branch and a loader function of the
# script's own in the other: which one loads the model is decided at run time, so its keywords say nothing sure
import sys

from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


def my_loader(name, **kw):
    return AutoModelForCausalLM.from_pretrained(name)


loader = AutoModelForCausalLM if sys.argv[1] == "hf" else None
if loader is None:
    loader = my_loader
model = loader.from_pretrained("m", attn_implementation="flash_attention_2")
Trainer(model=model, args=TrainingArguments(output_dir="o")).train()
