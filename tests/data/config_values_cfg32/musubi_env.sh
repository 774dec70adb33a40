# variant written for cfg32: the file musubi_sourced.sh sources
export ATTN_FLAG=--xformers
export PRECISION=fp16
