litgpt finetune_adapter_v2 microsoft/phi-2 --data Alpaca2k --precision bf16-mixed --out_dir out/adapter
