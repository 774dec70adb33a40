trl sft --config beside__trl_sft.yaml --attn_implementation sdpa
