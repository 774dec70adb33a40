# written by cfg77: fakes a user's script that loads every YAML of conf/ with OmegaConf.load and hands the values to its own functions
import glob

from omegaconf import OmegaConf

from .loop import train_one


def main():
    for path in sorted(glob.glob("conf/*.yaml")):
        cfg = OmegaConf.load(path)
        train_one(cfg.model_name_or_path, cfg.learning_rate, cfg.num_train_epochs)


if __name__ == "__main__":
    main()
