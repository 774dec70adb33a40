# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# An evaluation script (perplexity) over a transformers model loaded with sdpa, inside functions.
import math

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer


def load(name):
    return (AutoModelForCausalLM.from_pretrained(name, attn_implementation="sdpa", torch_dtype=torch.float16).eval(),
            AutoTokenizer.from_pretrained(name))


@torch.no_grad()
def perplexity(model, tok, texts):
    total = 0.0
    for t in texts:
        enc = tok(t, return_tensors="pt")
        total += model(**enc, labels=enc["input_ids"]).loss.item()
    return math.exp(total / max(len(texts), 1))


if __name__ == "__main__":
    m, t = load("gpt2")
    print(perplexity(m, t, ["a test sentence"]))
