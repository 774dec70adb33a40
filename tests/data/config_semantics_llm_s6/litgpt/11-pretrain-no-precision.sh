#!/bin/bash
litgpt pretrain pythia-14m --data TinyStories --out_dir out/pretrain
