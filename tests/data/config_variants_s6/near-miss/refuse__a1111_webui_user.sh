#!/bin/bash
# Commandline arguments for webui.py
export COMMANDLINE_ARGS="--xformers --opt-sdp-attention --no-half-vae --medvram"
export PYTORCH_CUDA_ALLOC_CONF="garbage_collection_threshold:0.6,max_split_size_mb:128"
