# written for cfg36's tests (near miss): the project's own load_cfg (no axolotl import): its YAML is its own trainer's
import yaml


def load_cfg(path, **over):
    cfg = yaml.safe_load(open(path))
    cfg.update(over)
    return cfg


cfg = load_cfg("configs/run.yml", flash_attention=True, bf16=True)
