# written by cfg76: fakes a user's mlx-lm LoRA command line
python -m mlx_lm lora --model mlx-community/Llama-3.2-3B-Instruct-4bit --train --data ./data \
  --batch-size 2 --num-layers 8 --iters 600 --fine-tune-type lora
