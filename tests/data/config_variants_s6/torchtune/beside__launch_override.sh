tune run lora_finetune_single_device --config ./beside__tt_lora.yaml compile=True dataset.packed=False
