# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# A seq2seq fine-tune: AutoModelForSeq2SeqLM with Seq2SeqTrainer.
from transformers import AutoModelForSeq2SeqLM, Seq2SeqTrainer, Seq2SeqTrainingArguments

model = AutoModelForSeq2SeqLM.from_pretrained("google/flan-t5-base")
args = Seq2SeqTrainingArguments(output_dir="t5", bf16=True, predict_with_generate=True)
Seq2SeqTrainer(model=model, args=args, train_dataset=None).train()
