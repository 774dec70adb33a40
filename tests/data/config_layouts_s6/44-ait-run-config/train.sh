#!/bin/bash
python run.py config/my_sd_lora.yaml
