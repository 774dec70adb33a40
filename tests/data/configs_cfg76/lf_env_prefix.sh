# written by cfg76: fakes an old LLaMA-Factory run with `VAR=... cmd` prefixes and ${VAR:-default} for the model
MODEL=${MODEL:-THUDM/chatglm3-6b}
CUDA_VISIBLE_DEVICES=0,1 WANDB_DISABLED=true accelerate launch --config_file accelerate_config.yaml src/train_bash.py \
    --stage dpo --do_train --model_name_or_path $MODEL --dataset comparison_gpt4_en --template chatglm3 \
    --finetuning_type lora --output_dir saves/dpo --per_device_train_batch_size ${BS:-1} --fp16 --shift_attn
