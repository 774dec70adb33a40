# written by cfg76: fakes `swift sft` with --packing true and no --attn_impl (ms-swift 3.x), launched via torchrun-style env
NPROC_PER_NODE=4 swift sft --model Qwen/Qwen3-8B --train_type full --dataset my.jsonl \
  --torch_dtype bfloat16 --packing true --max_length 8192 --deepspeed zero3 --output_dir out
