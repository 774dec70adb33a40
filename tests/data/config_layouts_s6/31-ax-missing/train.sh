#!/bin/bash
axolotl preprocess configs/qwen3-8b.yaml
axolotl train configs/qwen3-8b.yaml
