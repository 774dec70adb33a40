# written by cfg76: fakes an old LLaMA-Factory run under python -m torch.distributed.run with --flash_attn and --sft_packing
python -m torch.distributed.run --nproc_per_node=2 --master_port=29501 src/train_bash.py \
    --stage sft --do_train --model_name_or_path Qwen/Qwen1.5-7B --dataset alpaca_en \
    --template qwen --finetuning_type lora --lora_target all --output_dir saves/q15 \
    --per_device_train_batch_size 2 --bf16 --flash_attn --sft_packing
