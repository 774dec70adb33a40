#!/bin/bash
accelerate launch --num_processes 2 train_sft.py
