# written for cfg36's tests: see tests/test_configs_cfg36.py
import sys
from transformers import Qwen2VLForConditionalGeneration, Qwen2_5_VLForConditionalGeneration, TrainingArguments, Trainer
if "2.5" in sys.argv[1]:
    model_cls = Qwen2_5_VLForConditionalGeneration
else:
    model_cls = Qwen2VLForConditionalGeneration
model = model_cls.from_pretrained(sys.argv[1], attn_implementation="sdpa")
Trainer(model=model, args=TrainingArguments(output_dir="o", fp16=True)).train()
