CUDA_VISIBLE_DEVICES=0 llamafactory-cli train beside__lf_sft.yaml flash_attn=sdpa
