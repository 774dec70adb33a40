# written for cfg36's tests: a token-classification head loaded with eager attention, trained by transformers' Trainer
# with options from the command line
import sys

from transformers import HfArgumentParser, RobertaForTokenClassification, Trainer, TrainingArguments

(args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
model = RobertaForTokenClassification.from_pretrained("roberta-base", num_labels=9, attn_implementation="eager")
Trainer(model=model, args=args).train()
