# written by cfg76: fakes `tune run` with lowercase true overrides (OmegaConf reads them as booleans)
tune run lora_finetune_single_device --config llama3_2/1B_lora_single_device dataset.packed=true compile=true
