# written for cfg36's tests: see tests/test_configs_cfg36.py
from dataclasses import dataclass, field
from transformers import AutoModelForCausalLM, Trainer
from transformers import TrainingArguments as HFArgs


@dataclass
class TrainingArguments(HFArgs):
    fp16: bool = field(default=True)


model = AutoModelForCausalLM.from_pretrained("m")
Trainer(model=model, args=TrainingArguments(output_dir="o")).train()
