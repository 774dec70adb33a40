# written for cfg36's tests: a task-head class (BertForSequenceClassification) under HfArgumentParser, no TrainingArguments call
from transformers import BertForSequenceClassification, HfArgumentParser, Trainer, TrainingArguments
parser = HfArgumentParser((TrainingArguments,))
(args,) = parser.parse_args_into_dataclasses()
model = BertForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=3)
Trainer(model=model, args=args).train()
