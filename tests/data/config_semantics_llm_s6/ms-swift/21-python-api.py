from swift.llm import sft_main, TrainArguments

result = sft_main(
    TrainArguments(
        model='Qwen/Qwen2.5-7B-Instruct',
        train_type='lora',
        dataset=['AI-ModelScope/alpaca-gpt4-data-zh#500'],
        torch_dtype='bfloat16',
        attn_impl='flash_attn',
        num_train_epochs=1,
        per_device_train_batch_size=1,
        learning_rate=1e-4,
        output_dir='output',
    )
)
