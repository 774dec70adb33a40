from llamafactory.train.tuner import run_exp

run_exp(
    dict(
        stage="sft",
        do_train=True,
        model_name_or_path="Qwen/Qwen2.5-1.5B-Instruct",
        dataset="alpaca_en_demo",
        template="qwen",
        finetuning_type="lora",
        lora_target="all",
        output_dir="saves/qwen",
        per_device_train_batch_size=2,
        gradient_accumulation_steps=4,
        learning_rate=1e-4,
        num_train_epochs=3.0,
        bf16=True,
        flash_attn="fa2",
    )
)
