#!/bin/bash
# variant written for cfg32: axolotl train YAML plus --key=value overrides (the command line wins)
axolotl train axolotl_base.yaml --flash-attention=True --sdp-attention=False --torch-compile=True
