# written for cfg36's tests: axolotl's Python API with a YAML beside the script and a keyword override
from axolotl.cli.config import load_cfg
from axolotl.common.datasets import load_datasets
from axolotl.train import train

cfg = load_cfg("qlora.yml", torch_compile=True)
model, tokenizer, trainer = train(cfg=cfg, dataset_meta=load_datasets(cfg=cfg))
