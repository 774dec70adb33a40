# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# An evaluation script served by vLLM (its own engine); transformers only for the chat template. Trains nothing.
from transformers import AutoTokenizer
from vllm import LLM, SamplingParams

name = "Qwen/Qwen2.5-7B-Instruct"
tok = AutoTokenizer.from_pretrained(name)
llm = LLM(model=name, dtype="bfloat16", tensor_parallel_size=2)
prompts = [tok.apply_chat_template([{"role": "user", "content": q}], tokenize=False) for q in ["2+2?"]]
print(llm.generate(prompts, SamplingParams(max_tokens=64)))
