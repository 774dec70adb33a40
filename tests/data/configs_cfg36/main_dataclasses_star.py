# written for cfg36's tests: `main(*parser.parse_args_into_dataclasses())`, each parameter the dataclass of its place
from dataclasses import dataclass, field

from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments


@dataclass
class ScriptArguments:
    model_name: str = field(default="Qwen/Qwen2.5-0.5B")
    attn: str = field(default="flash_attention_2")
    use_bf16: bool = field(default=True)


def main(script_args, extra):
    model = AutoModelForCausalLM.from_pretrained(script_args.model_name, attn_implementation=script_args.attn)
    Trainer(model=model, args=TrainingArguments(output_dir="o", bf16=script_args.use_bf16)).train()


if __name__ == "__main__":
    parser = HfArgumentParser((ScriptArguments, TrainingArguments))
    main(*parser.parse_args_into_dataclasses())
