# written by cfg76: fakes a LitGPT pretrain CLI (compiles by default) with bf16-mixed
litgpt pretrain pythia-14m --tokenizer_dir checkpoints/EleutherAI/pythia-14m --data TinyStories \
  --precision bf16-mixed --train.micro_batch_size 4 --out_dir out/pythia14m
