# written by cfg76: fakes a LitGPT LoRA CLI with --config and overrides (precision bf16-true, quantize)
litgpt finetune_lora --config config_hub/finetune/llama-3.2-1B/lora.yaml \
  --precision bf16-true --quantize bnb.nf4-dq --train.micro_batch_size 4
