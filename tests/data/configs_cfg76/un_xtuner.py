# written by cfg76: fakes a user's xtuner config (xtuner train un_xtuner.py), a Python config of dicts
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer
from xtuner.model import SupervisedFinetune
from mmengine.optim import AmpOptimWrapper

pretrained_model_name_or_path = 'internlm/internlm2-chat-7b'
use_varlen_attn = True
max_length = 2048
pack_to_max_length = True
batch_size = 1

model = dict(
    type=SupervisedFinetune,
    use_varlen_attn=use_varlen_attn,
    llm=dict(
        type=AutoModelForCausalLM.from_pretrained,
        pretrained_model_name_or_path=pretrained_model_name_or_path,
        trust_remote_code=True,
        torch_dtype=torch.float16,
        attn_implementation='flash_attention_2'))
optim_wrapper = dict(type=AmpOptimWrapper, optimizer=dict(type=torch.optim.AdamW, lr=2e-4), dtype='float16')
