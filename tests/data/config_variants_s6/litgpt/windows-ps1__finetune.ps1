$env:PRECISION = "bf16-true"
litgpt finetune_lora checkpoints\meta-llama\Llama-2-7b-chat-hf `
  --data Alpaca `
  --out_dir out\lora\Llama-2-7b-chat-hf `
  --precision $env:PRECISION
