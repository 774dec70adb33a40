# written for cfg36's tests: see tests/test_configs_cfg36.py
from transformers import AutoModelForCausalLM, Qwen2VLForConditionalGeneration, TrainingArguments, Trainer
model_cls = Qwen2VLForConditionalGeneration
model = model_cls.from_pretrained("Qwen/Qwen2-VL-2B-Instruct", attn_implementation="flash_attention_2", torch_dtype="bfloat16")
Trainer(model=model, args=TrainingArguments(output_dir="o", bf16=True)).train()
