CUDA_VISIBLE_DEVICES=0 python src/train_bash.py \
    --stage sft --do_train --model_name_or_path meta-llama/Llama-2-7b-hf \
    --dataset alpaca_gpt4_en --template default --finetuning_type lora --lora_target q_proj,v_proj \
    --output_dir saves/llama2-7b/lora --per_device_train_batch_size 4 \
    --learning_rate 5e-5 --num_train_epochs 3.0 --plot_loss \
    --flash_attn --fp16
