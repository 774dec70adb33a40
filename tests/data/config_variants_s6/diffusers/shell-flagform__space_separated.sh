accelerate launch train_controlnet.py \
 --pretrained_model_name_or_path 'stable-diffusion-v1-5/stable-diffusion-v1-5' \
 --output_dir 'model_out' \
 --dataset_name 'multimodalart/facesyntheticsspigacaptioned' \
 --conditioning_image_column 'spiga_seg' --image_column 'image' --caption_column 'image_caption' \
 --resolution 512 --learning_rate 1e-5 --train_batch_size 4 \
 --mixed_precision 'bf16' \
 --enable_xformers_memory_efficient_attention \
 --set_grads_to_none
