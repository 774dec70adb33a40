#!/bin/bash
# variant written for cfg32: the launcher gives py_argparse_default.py options over its argparse defaults
python py_argparse_default.py --attn_implementation sdpa --precision fp16
