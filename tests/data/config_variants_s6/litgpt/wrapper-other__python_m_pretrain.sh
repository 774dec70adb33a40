CUDA_VISIBLE_DEVICES=0,1 python -m litgpt pretrain pythia-160m \
  --tokenizer_dir checkpoints/EleutherAI/pythia-160m \
  --data TextFiles --data.train_data_path data/custom_texts \
  --train.max_tokens 10_000_000 --out_dir out/pythia-160m \
  --precision 16-mixed
