#!/bin/bash
accelerate launch train_sft.py
