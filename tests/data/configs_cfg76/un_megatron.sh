#!/bin/bash
# written by cfg76: fakes a user's Megatron-LM GPT pretraining launch (pretrain_gpt.py, --use-flash-attn, --bf16)
GPUS_PER_NODE=8
DISTRIBUTED_ARGS="--nproc_per_node $GPUS_PER_NODE --nnodes 1 --node_rank 0 --master_addr localhost --master_port 6000"
torchrun $DISTRIBUTED_ARGS pretrain_gpt.py \
    --tensor-model-parallel-size 2 \
    --pipeline-model-parallel-size 1 \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 4096 --max-position-embeddings 4096 \
    --micro-batch-size 2 --global-batch-size 256 \
    --lr 3.0e-4 --train-iters 100000 \
    --bf16 --use-flash-attn \
    --attention-backend flash \
    --data-path /data/my-gpt_text_document \
    --vocab-file gpt2-vocab.json --merge-file gpt2-merges.txt
