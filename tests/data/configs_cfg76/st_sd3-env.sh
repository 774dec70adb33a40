# written by cfg76: fakes an older SimpleTuner config.env for SD3 with USE_XFORMERS left at its default (unset)
export STABLE_DIFFUSION_3=true
export MODEL_NAME="stabilityai/stable-diffusion-3-medium-diffusers"
export MODEL_TYPE="lora"
export TRAIN_BATCH_SIZE=2
export MIXED_PRECISION="bf16"
export DATALOADER_CONFIG="multidatabackend.json"
export TRAINER_EXTRA_ARGS="--lora_rank=32"
