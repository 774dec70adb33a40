# variant written for cfg32: torch.device(...) and device.type compared in the keyword itself
import torch
from transformers import AutoModelForCausalLM

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = AutoModelForCausalLM.from_pretrained(
    "mistralai/Mistral-7B-v0.1",
    torch_dtype=torch.float16 if device.type == "cuda" else torch.float32,
    attn_implementation="sdpa" if device.type == "cuda" else "eager",
).to(device)
