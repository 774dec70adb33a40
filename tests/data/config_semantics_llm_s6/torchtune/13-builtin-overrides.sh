#!/bin/bash
tune run lora_finetune_single_device \
  --config llama3_2/1B_lora_single_device \
  dtype=fp32 \
  compile=True \
  dataset.packed=True \
  tokenizer.max_seq_len=2048
