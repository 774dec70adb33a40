# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# A user's own trainer whose config class is called TrainingArguments (the repository's own dataclass, not
# transformers'): only the tokenizer comes from transformers (round 30: a class of the same name is not theirs).
import torch
from transformers import AutoTokenizer

from mytrainer.args import TrainingArguments
from mytrainer.loop import fit
from mytrainer.model import TinyLM

args = TrainingArguments(output_dir="runs/a", bf16=True, torch_compile=True, per_device_train_batch_size=16)
tok = AutoTokenizer.from_pretrained("gpt2")
model = TinyLM(vocab=tok.vocab_size, dim=512).to(torch.bfloat16)
fit(model, tok, args)
