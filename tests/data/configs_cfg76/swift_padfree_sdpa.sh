# written by cfg76: fakes `swift sft` with --padding_free true and --attn_impl sdpa (ms-swift refuses it)
swift sft --model Qwen/Qwen2.5-7B-Instruct --train_type lora --dataset data.jsonl \
  --torch_dtype bfloat16 --attn_impl sdpa --padding_free true --output_dir out
