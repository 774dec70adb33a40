# written by cfg77: fakes a user's main.py that parses a recipe with TrlParser into SFTConfig, ModelConfig and its own dataclass
from dataclasses import dataclass

from trl import ModelConfig, SFTConfig, SFTTrainer, TrlParser


@dataclass
class ExtraConfig:
    mode: str = "train"
    model_class: str = "AutoModelForCausalLM"
    prompts_path: str = "./prompts"
    data_format: str = "conversational"


def main():
    parser = TrlParser((SFTConfig, ModelConfig, ExtraConfig))
    training_args, model_args, extra = parser.parse_args_and_config()
    trainer = SFTTrainer(model=model_args.model_name_or_path, args=training_args)
    trainer.train()


if __name__ == "__main__":
    main()
