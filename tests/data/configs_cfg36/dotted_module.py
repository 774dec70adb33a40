# written for cfg36's tests: a user's script that names transformers' classes through the module (`import transformers`)
import torch
import transformers

model = transformers.AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.2-1B",
                                                          attn_implementation="flash_attention_2",
                                                          torch_dtype=torch.bfloat16)
trainer = transformers.Trainer(model=model, args=transformers.TrainingArguments(output_dir="out", bf16=True))
trainer.train()
