#!/bin/bash
SCRIPT=${SCRIPT:-train_sft.py}
accelerate launch --num_processes 1 $SCRIPT
