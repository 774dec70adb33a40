# written for cfg36's tests: see tests/test_configs_cfg36.py
from dataclasses import dataclass, field
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


@dataclass
class MyTrainingArguments(TrainingArguments):
    model_max_length: int = field(default=2048)
    bf16: bool = field(default=True)


model = AutoModelForCausalLM.from_pretrained("m", attn_implementation="sdpa")
args = MyTrainingArguments(output_dir="o", per_device_train_batch_size=2)
Trainer(model=model, args=args).train()
