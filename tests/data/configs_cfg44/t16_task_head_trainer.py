# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# A classifier fine-tune: a task-head class and the Trainer, in main().
from transformers import BertForSequenceClassification, Trainer, TrainingArguments


def main():
    model = BertForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=2)
    args = TrainingArguments(output_dir="cls", fp16=True, num_train_epochs=2)
    Trainer(model=model, args=args, train_dataset=None).train()


main()
