#!/bin/bash
# variant written for cfg32: the launcher exports the variable py_environ_default.py reads with os.environ.get
export ATTN_IMPL=sdpa
python py_environ_default.py
