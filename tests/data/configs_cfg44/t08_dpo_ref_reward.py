# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# Mutation, TRL DPO: a policy, a reference model and an unrelated reward classifier all loaded with from_pretrained.
import torch
from transformers import AutoModelForCausalLM, AutoModelForSequenceClassification, AutoTokenizer
from trl import DPOConfig, DPOTrainer

name = "Qwen/Qwen2.5-0.5B-Instruct"
policy = AutoModelForCausalLM.from_pretrained(name, attn_implementation="sdpa", torch_dtype=torch.bfloat16)
reference = AutoModelForCausalLM.from_pretrained(name, torch_dtype=torch.bfloat16)
scorer = AutoModelForSequenceClassification.from_pretrained("OpenAssistant/reward-model-deberta-v3-large")
tokenizer = AutoTokenizer.from_pretrained(name)
cfg = DPOConfig(output_dir="dpo-out", bf16=True, beta=0.1)
DPOTrainer(model=policy, ref_model=reference, args=cfg, processing_class=tokenizer, train_dataset=None).train()
