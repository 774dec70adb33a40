# written by cfg76: fakes an older SimpleTuner sdxl-env.sh (2024, sourced by train_sdxl.sh)
export MODEL_NAME="stabilityai/stable-diffusion-xl-base-1.0"
export BASE_DIR="/notebooks/datasets"
export OUTPUT_DIR="${BASE_DIR}/models"
export DATALOADER_CONFIG="multidatabackend.json"
export LEARNING_RATE=8e-7
export TRAIN_BATCH_SIZE=4
export RESOLUTION=1024
export MIXED_PRECISION="bf16"
export USE_XFORMERS=true
export TRAINER_EXTRA_ARGS="--allow_tf32"
