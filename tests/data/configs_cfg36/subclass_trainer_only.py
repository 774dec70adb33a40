# written for cfg36's tests: see tests/test_configs_cfg36.py
from trl import SFTTrainer


class MySFT(SFTTrainer):
    pass


MySFT(model="Qwen/Qwen2.5-0.5B").train()
