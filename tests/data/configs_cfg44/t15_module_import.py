# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# Mutation of t01: transformers imported as a module, classes named through it.
import torch
import transformers

model = transformers.AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-0.5B", attn_implementation="eager",
                                                          torch_dtype=torch.float32)
args = transformers.TrainingArguments(output_dir="out", per_device_train_batch_size=4)
transformers.Trainer(model=model, args=args, train_dataset=None).train()
