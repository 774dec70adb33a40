import subprocess

MODEL = "/models/sd_xl_base_1.0.safetensors"


def train(out_dir: str) -> None:
    cmd = [
        "accelerate", "launch", "--num_cpu_threads_per_process", "1", "sdxl_train_network.py",
        f"--pretrained_model_name_or_path={MODEL}",
        "--dataset_config=dataset.toml",
        f"--output_dir={out_dir}", "--output_name=lora",
        "--network_module=networks.lora", "--network_dim=32",
        "--sdpa", "--mixed_precision=bf16",
    ]
    subprocess.run(cmd, check=True)


if __name__ == "__main__":
    train("out")
