# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# Split into two files (2/2): the training file, its model loaded by a function of the other file.
from t13_split_model_module import load_model
from transformers import Trainer, TrainingArguments

model = load_model("Qwen/Qwen2.5-0.5B")
args = TrainingArguments(output_dir="out", bf16=True, per_device_train_batch_size=2)
Trainer(model=model, args=args, train_dataset=None).train()
