import torch
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments
from transformers.utils import is_flash_attn_2_available

model = AutoModelForCausalLM.from_pretrained(
    "meta-llama/Llama-3.2-1B",
    attn_implementation="flash_attention_2" if is_flash_attn_2_available() else "sdpa",
    torch_dtype=torch.bfloat16,
)
args = TrainingArguments(output_dir="out", bf16=True, per_device_train_batch_size=8)
trainer = Trainer(model=model, args=args, train_dataset=train_dataset)
trainer.train()
