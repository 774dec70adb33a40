# written for cfg36's tests: a wrapper that writes an axolotl config with yaml.dump(cfg, open(path, "w")) and runs it
import subprocess

import yaml

path = "axo.yml"
cfg = {"base_model": "Qwen/Qwen2.5-0.5B", "datasets": [{"path": "mhenrichsen/alpaca_2k_test", "type": "alpaca"}],
       "sdp_attention": True, "fp16": True, "micro_batch_size": 1, "num_epochs": 1, "output_dir": "out"}
yaml.dump(cfg, open(path, "w"))
subprocess.run(["axolotl", "train", path], check=True)
