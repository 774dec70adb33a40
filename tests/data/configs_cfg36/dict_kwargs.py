# written for cfg36's tests: see tests/test_configs_cfg36.py
from transformers import AutoModelForCausalLM, TrainingArguments, Trainer
CONFIG = {"training": {"output_dir": "o", "bf16": True, "per_device_train_batch_size": 2},
          "model": {"attn_implementation": "sdpa"}}
model = AutoModelForCausalLM.from_pretrained("m", **CONFIG["model"])
Trainer(model=model, args=TrainingArguments(**CONFIG["training"])).train()
