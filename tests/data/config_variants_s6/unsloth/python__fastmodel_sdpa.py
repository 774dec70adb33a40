import torch
from unsloth import FastModel
from trl import SFTTrainer, SFTConfig

model, tokenizer = FastModel.from_pretrained(
    model_name = "unsloth/gemma-3-4b-it",
    max_seq_length = 2048,
    load_in_4bit = True,
    dtype = torch.bfloat16,
    attn_implementation = "sdpa",
)
model = FastModel.get_peft_model(model, r = 8, lora_alpha = 8)
trainer = SFTTrainer(model = model, tokenizer = tokenizer, train_dataset = None,
                     args = SFTConfig(per_device_train_batch_size = 1, max_steps = 30, bf16 = True, output_dir = "out"))
trainer.train()
