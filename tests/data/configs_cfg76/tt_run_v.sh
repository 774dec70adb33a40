# written by cfg76: fakes a tune run of a user's own recipe YAML beside it, with the packed override on the command line
tune run full_finetune_single_device --config ./my_llama.yaml dataset.packed=True dtype=bf16
