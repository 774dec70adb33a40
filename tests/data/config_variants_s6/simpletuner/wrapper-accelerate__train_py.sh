accelerate launch --mixed_precision=bf16 --num_processes=1 --num_machines=1 --dynamo_backend=no train.py \
  --model_family=flux --model_type=lora --pretrained_model_name_or_path=black-forest-labs/FLUX.1-dev \
  --attention_mechanism=flash-attn --dynamo_backend=inductor \
  --mixed_precision=bf16 --lora_rank=16 --learning_rate=1e-4 --max_train_steps=1000 \
  --data_backend_config=config/multidatabackend.json --output_dir=output/flux
