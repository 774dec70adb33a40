# written by cfg76: fakes `swift sft` with --attn_impl flash_attention_3 and padding_free
swift sft --model Qwen/Qwen2.5-7B-Instruct --train_type lora --dataset data.jsonl \
  --torch_dtype bfloat16 --attn_impl flash_attention_3 --padding_free true --output_dir out
