# written by cfg77: fakes a script whose --config default names the recipe, parsed with HfArgumentParser.parse_yaml_file
import argparse
from dataclasses import dataclass, field

from transformers import HfArgumentParser, Trainer, TrainingArguments


@dataclass
class DataArgs:
    corpus_dir: str = field(default="data")
    shard_glob: str = field(default="*.jsonl")
    eval_every_n: int = 100


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="recipes/base_run.yml")
    a = ap.parse_args()
    training_args, data_args = HfArgumentParser((TrainingArguments, DataArgs)).parse_yaml_file(a.config)
    Trainer(args=training_args).train()
