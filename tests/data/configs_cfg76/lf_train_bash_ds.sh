# written by cfg76: fakes an old LLaMA-Factory multi-GPU deepspeed run of train_bash.py (bf16, no flash_attn flag)
deepspeed --num_gpus 4 src/train_bash.py \
    --deepspeed ds_config.json \
    --stage pt \
    --do_train \
    --model_name_or_path baichuan-inc/Baichuan2-7B-Base \
    --dataset wiki_demo \
    --finetuning_type full \
    --output_dir output/pt \
    --per_device_train_batch_size 2 \
    --bf16
