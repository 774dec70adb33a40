# written by cfg76: fakes a user's OpenRLHF SFT launch (deepspeed --module openrlhf.cli.train_sft)
deepspeed --module openrlhf.cli.train_sft \
   --max_len 4096 \
   --dataset Open-Orca/OpenOrca \
   --input_key question --output_key response \
   --train_batch_size 256 --micro_train_batch_size 2 \
   --pretrain meta-llama/Meta-Llama-3-8B \
   --save_path ./checkpoint/llama3-8b-sft \
   --zero_stage 2 --max_epochs 1 --bf16 \
   --flash_attn --learning_rate 5e-6 --gradient_checkpointing --packing_samples
