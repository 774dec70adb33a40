#!/bin/bash
set -e
python -m venv venv
source venv/bin/activate
pip install torch==2.5.1 torchvision
pip install xformers==0.0.28.post3
pip install flash-attn --no-build-isolation
pip install sageattention==1.0.6
pip install -r requirements.txt
echo "now run: accelerate launch src/musubi_tuner/wan_train_network.py --sdpa ..."
