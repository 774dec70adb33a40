# written for cfg36's tests: the Stanford-Alpaca train.py shape under an alias: HfArgumentParser, then
# `tf.LlamaForCausalLM.from_pretrained(...)` with no attn_implementation and no dtype (the command line decides bf16)
from dataclasses import dataclass, field

import transformers as tf


@dataclass
class ModelArguments:
    model_name_or_path: str = field(default="huggyllama/llama-7b")


def train():
    parser = tf.HfArgumentParser((ModelArguments, tf.TrainingArguments))
    model_args, training_args = parser.parse_args_into_dataclasses()
    model = tf.LlamaForCausalLM.from_pretrained(model_args.model_name_or_path, cache_dir=training_args.cache_dir)
    tf.Trainer(model=model, args=training_args).train()


if __name__ == "__main__":
    train()
