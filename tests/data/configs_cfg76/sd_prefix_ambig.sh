# written by cfg76: fakes an ambiguous argparse prefix: --mem in sd-scripts flux_train.py (--mem_eff_attn, --mem_eff_save)
accelerate launch flux_train.py --pretrained_model_name_or_path /m/flux1-dev.safetensors \
  --clip_l /m/clip_l.safetensors --t5xxl /m/t5xxl.safetensors --ae /m/ae.safetensors \
  --dataset_config ds.toml --output_dir out --sdpa --mem --mixed_precision bf16
