#!/bin/bash
# written by cfg77: fakes a launcher that runs the repository's main.py with one of its recipes
accelerate launch --num_processes 2 main.py --config configs/sql/sft.yaml
