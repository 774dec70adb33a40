# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# The round-30 notebook's shape as a .py: the repository's own SFTConfig / SFTTrainer classes (its own loop), transformers
# only for the tokenizer.
import transformers

from training.configs import SFTConfig
from training.sft import SFTTrainer

tok = transformers.AutoTokenizer.from_pretrained("gpt2")
cfg = SFTConfig(lr=3e-4, bf16=True, packing=True, max_length=1024)
SFTTrainer(cfg, tok).train()
