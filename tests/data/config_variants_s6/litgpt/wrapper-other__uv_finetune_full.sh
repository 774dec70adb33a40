uv run litgpt finetune_full checkpoints/EleutherAI/pythia-160m \
  --data Alpaca2k --out_dir out/full-pythia \
  --precision 32-true
