# written by cfg77: fakes another repository's script reading its own configs/run.yaml with yaml.safe_load (not alpha's)
import yaml

cfg = yaml.safe_load(open("configs/run.yaml"))
print(cfg)
