# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# Mutation of u13: the data script reads the model's config for its context length (AutoConfig, no model loaded).
from datasets import load_dataset
from transformers import AutoConfig, AutoTokenizer

name = "Qwen/Qwen2.5-7B"
cfg = AutoConfig.from_pretrained(name, attn_implementation="flash_attention_2")
tok = AutoTokenizer.from_pretrained(name)
ds = load_dataset("json", data_files="raw.jsonl")["train"]
ds = ds.map(lambda b: tok(b["text"], truncation=True, max_length=cfg.max_position_embeddings), batched=True)
ds.save_to_disk("data/tokenized")
