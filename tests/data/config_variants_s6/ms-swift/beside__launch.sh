NPROC_PER_NODE=2 CUDA_VISIBLE_DEVICES=0,1 swift sft beside__swift_sft.yaml
