# written by cfg77: fakes a script that reads its YAML with yaml.safe_load and hands it to SFTConfig / SFTTrainer (a trainer's run: the keys decide)
import yaml
from trl import SFTConfig, SFTTrainer

with open("configs/sft.yaml") as fh:
    cfg = yaml.safe_load(fh)
args = SFTConfig(**cfg["training"])
SFTTrainer(model=cfg["model_name_or_path"], args=args).train()
