#!/bin/bash
#SBATCH --nodes=2
#SBATCH --gres=gpu:8
export MASTER_ADDR=$(scontrol show hostnames $SLURM_JOB_NODELIST | head -n 1)
srun torchrun --nnodes $SLURM_NNODES --nproc_per_node 8 --rdzv_id $SLURM_JOB_ID --rdzv_backend c10d \
    --rdzv_endpoint $MASTER_ADDR:29500 src/train.py \
    --stage sft --do_train --model_name_or_path meta-llama/Llama-3.1-8B --dataset alpaca_en_demo \
    --template llama3 --finetuning_type full --output_dir saves/llama3-full \
    --deepspeed examples/deepspeed/ds_z3_config.json \
    --flash_attn fa2 --bf16
