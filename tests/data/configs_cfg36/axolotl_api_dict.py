# written for cfg36's tests: axolotl's Python API given a dict literal
from axolotl.cli.config import load_cfg
from axolotl.train import train

config = {"base_model": "Qwen/Qwen2.5-0.5B", "datasets": [{"path": "tatsu-lab/alpaca", "type": "alpaca"}],
          "xformers_attention": True, "fp16": True, "micro_batch_size": 1}
cfg = load_cfg(config)
train(cfg=cfg, dataset_meta=None)
