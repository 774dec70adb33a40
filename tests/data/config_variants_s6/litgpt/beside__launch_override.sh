litgpt finetune_lora --config beside__lg_lora.yaml --precision 16-true
