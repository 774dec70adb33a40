#!/bin/bash
cd ai-toolkit
python run.py ../config/my_sd_lora.yaml
