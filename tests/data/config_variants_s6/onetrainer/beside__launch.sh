cd ~/OneTrainer && source venv/bin/activate && python scripts/train.py --config-path beside__ot_cfg.json
