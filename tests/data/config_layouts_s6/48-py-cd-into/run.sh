#!/bin/bash
cd training
torchrun --nproc_per_node 2 train_gemma.py
