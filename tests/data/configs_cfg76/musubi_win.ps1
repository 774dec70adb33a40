# written by cfg76: fakes a Windows PowerShell launch of musubi-tuner wan_train_network.py (backtick continuations, $env:VAR)
$env:CUDA_VISIBLE_DEVICES = "0"
$env:DIT = "D:\models\wan2.1_t2v_14B_bf16.safetensors"
.\venv\Scripts\Activate.ps1
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 src/musubi_tuner/wan_train_network.py `
  --task t2v-14B `
  --dit $env:DIT `
  --dataset_config dataset.toml `
  --sdpa `
  --mixed_precision bf16 `
  --fp8_base `
  --network_module networks.lora_wan `
  --network_dim 32 `
  --output_dir D:\out
