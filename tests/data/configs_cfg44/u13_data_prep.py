# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# A script that only prepares data: tokenizes a corpus and saves it. Trains nothing (none).
from datasets import load_dataset
from transformers import AutoTokenizer


def main():
    tok = AutoTokenizer.from_pretrained("meta-llama/Llama-3.2-1B")
    ds = load_dataset("json", data_files="raw.jsonl")["train"]
    ds = ds.map(lambda b: tok(b["text"], truncation=True, max_length=2048), batched=True, num_proc=8)
    ds.save_to_disk("data/tokenized")


main()
