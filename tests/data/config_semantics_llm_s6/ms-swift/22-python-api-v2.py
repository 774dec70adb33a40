import os
os.environ['CUDA_VISIBLE_DEVICES'] = '0'

from swift.llm import DatasetName, ModelType, SftArguments, sft_main

sft_args = SftArguments(
    model_type=ModelType.qwen1half_7b_chat,
    dataset=[f'{DatasetName.alpaca_zh}#500'],
    sft_type='lora',
    use_flash_attn=True,
    dtype='bf16',
    output_dir='output')
result = sft_main(sft_args)
