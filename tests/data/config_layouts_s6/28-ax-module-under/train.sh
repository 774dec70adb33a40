#!/bin/bash
accelerate launch -m axolotl.cli.train configs/qwen3-8b-lora.yaml
