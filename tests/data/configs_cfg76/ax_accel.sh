# written by cfg76: fakes accelerate launch --config_file ... -m axolotl.cli.train with the YAML beside it
accelerate launch --config_file accel.yaml -m axolotl.cli.train qlora.yml --deepspeed deepspeed_configs/zero2.json
