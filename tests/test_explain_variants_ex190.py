"""Variants for helper ex190 (session 33): the misses of round 190m (fixtures/errors/round190m, gathered blind by ex183m in
session 32, measured twice by the lead, training material since this helper read it).

Every case was written by hand (2026-12-02): other models, versions, paths, GPUs, kernels and wordings than the fixtures, Chinese
where prose carries the rule. The positives name what explain must report first (entry, backend; None: any backend); the near
misses what it must not claim; no pattern written or widened here matches an unrelated log of any training round (the
measure-only sets are never read).

Mechanisms (knowledge file: rule; the round 190m text it came from):
  qkvsdpa     attribution.toml [[evidence_backend]] attn.qkv-dtype -> sdpa: torch's own "Expected query, key, and value to have the
              same dtype" cut before its dtypes or retold, SDPA's where no FlexAttention name is near (Acly/krita-ai-diffusion#345)
  tldot       triton.toml triton.kernel-version-drift: tl.dot's trans_a / trans_b, gone since Triton 2.0
              (Dao-AILab/flash-attention#232)
  cudnnprio   sdpa.toml sdpa.cudnn-slower: SDPA's cuDNN kernel said to be prioritised by a torch release (datalab-to/surya#226)
  btmodel     frameworks.toml transformers.bettertransformer-redundant: BetterTransformer's model-type refusal
              (huggingface/optimum#1610)
  btforward   attention.toml attn.api-mismatch (+ attribution.toml -> sdpa): BetterTransformer's swapped forward given an argument a
              newer transformers passes (huggingface/optimum#1446)
  tgiv2       frameworks.toml tgi.flash-models-unavailable: TGI 1.x's "Mistral model requires flash attention v2"
              (huggingface/text-generation-inference#1253)
  maskscalar  flex.toml flex.mask-mod-not-scalar (new): a mask_mod result that is not 0-dim, a 5-D mask create_block_mask cannot
              unpack (huggingface/transformers#46802)
  fa1rename   flash_attn.toml fa2.api-renamed: FA1's flash_attn_unpadded_* said gone in words, with a failure said beside it (the
              rename stated alone stays silent, tests/test_explain_variants_b.py) (lm-sys/FastChat#2059)
  gqapatch    attention.toml attn.patch-no-gqa (new): a FlashAttention monkey patch written before GQA (lm-sys/FastChat#2307)
  crossattn   frameworks.toml app.node-forward-signature: an extension calling diffusers' Attention API on the app's ldm
              CrossAttention (ashen-sensored/sd_webui_gligen#6)
"""

from __future__ import annotations

from explain_top import assert_claim_no_unrelated_log, assert_patterns_match_no_unrelated_log, first, ids, tb

POSITIVES = [
    # qkvsdpa: the check's words alone (an app's error box), in a ComfyUI run; FlexAttention's frames keep it flex's
    ("Prompt failed: Expected query, key, and value to have the same dtype", ("attn.qkv-dtype", "sdpa")),
    ("got prompt\n!!! Exception during processing !!! expected query, key and value to have the same dtype\nPrompt executed in 3.1 seconds",
     ("attn.qkv-dtype", "sdpa")),
    (tb(("/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py", 1287, "flex_attention",
         "_validate_sdpa_input(query, key, value)"),
        error="ValueError: Expected query, key, and value to have the same dtype"), ("attn.qkv-dtype", "flex")),
    # tldot
    ("triton.compiler.errors.CompilationError: at 33:15:\n    acc += tl.dot(a, b, trans_a=True)\n               ^\n"
     "TypeError(\"dot() got an unexpected keyword argument 'trans_a'\")", ("triton.kernel-version-drift", None)),
    ("Loading the model's triton attention on triton 2.1 ends in TypeError: dot() got an unexpected keyword argument `trans_b`",
     ("triton.kernel-version-drift", None)),
    # cudnnprio
    ("Since torch 2.5 cudnn attention gets prioritized on our H100s and the vision encoder lost 15% throughput",
     ("sdpa.cudnn-slower", "sdpa")),
    ("torch 2.9 prioritizes cuDNN attention on B200, so set TORCH_CUDNN_SDPA_DEPRIORITIZED=1 until this is fixed",
     ("sdpa.cudnn-slower", "sdpa")),
    # btmodel
    ("  File \"/opt/app/serve.py\", line 40, in load\n    model = model.to_bettertransformer()\n"
     "NotImplementedError: The model type gemma2 is not yet supported to be used with BetterTransformer. Feel free to open an issue",
     ("transformers.bettertransformer-redundant", None)),
    # btforward
    ("We call BetterTransformer.transform(model) for Falcon\n\nTypeError: falcon_forward() got an unexpected keyword argument 'position_ids'",
     ("attn.api-mismatch", "sdpa")),
    ("model = model.to_bettertransformer()\n...\nTypeError: gpt2_wrapped_scaled_dot_product() takes from 4 to 6 positional arguments but 7 were given",
     ("attn.api-mismatch", "sdpa")),
    # tgiv2
    ("2024-02-01T09:00:00.000Z ERROR text_generation_launcher: NotImplementedError: Mixtral models requires flash attention v2, stk and megablocks",
     ("tgi.flash-models-unavailable", "fa2")),
    ("lorax-launcher on a T4: NotImplementedError: Qwen model requires flash attention v2", ("tgi.flash-models-unavailable", "fa2")),
    # maskscalar
    (tb(("/work/train.py", 88, "build_mask", "bm = create_block_mask(doc_mask, B, None, L, L, device=\"cuda\")"),
        ("/opt/conda/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py", 905, "create_block_mask",
         "partial_block_mask, full_block_mask = _convert_mask_to_block_mask("),
        ("/opt/conda/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py", 811, "_convert_mask_to_block_mask",
         "B, H, Q, KV = mask.shape"),
        error="ValueError: too many values to unpack (expected 4)"), ("flex.mask-mod-not-scalar", "flex")),
    ("My score_mod returns a non-scalar value because the bias table is indexed with a (1,) tensor", ("flex.mask-mod-not-scalar", "flex")),
    ("the BlockMask ends up 5-D once prefix_len is a tensor", ("flex.mask-mod-not-scalar", "flex")),
    # fa1rename
    ("In flash-attn 2.x `flash_attn_unpadded_func` is not available anymore, so LongChat's patch errors at import", ("fa2.api-renamed", "fa2")),
    ("Training crashes right away: flash_attn_unpadded_kvpacked_func was removed from the interface", ("fa2.api-renamed", "fa2")),
    ("flash_attn_unpadded_qkvpacked_func 在新版本里已被移除，所以 train_mem.py 报错", ("fa2.api-renamed", "fa2")),
    # gqapatch
    (tb(("/srv/vicuna/train/train_mem.py", 9, "<module>", "train()"),
        ("/srv/vicuna/llava/train/llama_attn_hijack.py", 52, "forward", "key_states = self.k_proj(hidden_states).view(bsz, q_len, self.num_heads, self.head_dim)"),
        error="RuntimeError: shape '[1, 4096, 32, 128]' is invalid for input of size 4194304"), ("attn.patch-no-gqa", None)),
    ("Fine-tuning Mistral-7B: grouped-query attention breaks the flash attn patch from this repo", ("attn.patch-no-gqa", None)),
    ("The monkey patch does not support models with GQA (num_key_value_heads=8 for Llama-2-70B)", ("attn.patch-no-gqa", None)),
    # crossattn
    ("*** Error running process: /sd/extensions/regional/scripts/rp.py\nAttributeError: 'CrossAttention' object has no attribute 'head_to_batch_dim'",
     ("app.node-forward-signature", None)),
]

NEAR_MISSES = [
    # tldot: another keyword of tl.dot, and a matmul without trans_*
    ("TypeError: dot() got an unexpected keyword argument 'out_dtype'", "triton.kernel-version-drift"),
    ("TypeError: matmul() got an unexpected keyword argument 'transpose_b'", "triton.kernel-version-drift"),
    # cudnnprio: the kernel deprioritized or turned off
    ("torch 2.5.1 deprioritized cudnn attention again, the speed is back", "sdpa.cudnn-slower"),
    ("cudnn attention is disabled in our launcher with enable_cudnn_sdp(False)", "sdpa.cudnn-slower"),
    # btmodel: a model type refused by something else
    ("ValueError: The model type mistral is not supported by this exporter", "transformers.bettertransformer-redundant"),
    # btforward: BetterTransformer named, a TypeError of generate() (no swapped forward)
    ("model.to_bettertransformer()\nTypeError: generate() got an unexpected keyword argument 'stream'", "attn.api-mismatch"),
    # tgiv2: a trainer's advice, and "flash attention 2" without TGI's "v2"
    ("Gemma-2 should use flash attention 2, change `flash_attn` to fa2.", "tgi.flash-models-unavailable"),
    ("this model requires flash attention 2 for packing", "tgi.flash-models-unavailable"),
    # maskscalar: the same ValueError in another function, and a mask_mod said to be right
    (tb(("/venv/lib/python3.10/site-packages/transformers/modeling_flash_attention_utils.py", 120, "_upad_input",
         "indices_k, cu_seqlens_k, max_seqlen_in_batch_k = _get_unpad_data(attention_mask)"),
        error="ValueError: too many values to unpack (expected 4)"), "flex.mask-mod-not-scalar"),
    ("the mask_mod returns a 0-dim bool tensor as create_block_mask requires", "flex.mask-mod-not-scalar"),
    # fa1rename: FA1's name used with FA1 installed
    ("we still call flash_attn_unpadded_func from flash-attn 1.0.9, which is what the image installs", "fa2.api-renamed"),
    # fa1rename: the rename stated alone, as a changelog states it (no failure said)
    ("flash_attn_unpadded_kvpacked_func => flash_attn_varlen_kvpacked_func (flash-attn 2.0 rename)", "fa2.api-renamed"),
    ("flash_attn_unpadded_func no longer exists in 2.x; use flash_attn_varlen_func", "fa2.api-renamed"),
    ("flash_attn_unpadded_func 在 flash-attn 2 中改名为 flash_attn_varlen_func", "fa2.api-renamed"),
    # gqapatch: the view error with no patch frame, and a patch said to handle GQA
    (tb(("/data/prep.py", 17, "collate", "x = x.view(bsz, -1, 3)"), error="RuntimeError: shape '[8, -1, 3]' is invalid for input of size 100"),
     "attn.patch-no-gqa"),
    ("The llama2 monkey patch handles GQA via num_key_value_heads and works fine", "attn.patch-no-gqa"),
    # crossattn: another attention class's missing attribute (a model's own), and a CrossAttention attribute no other API has
    ("AttributeError: 'VisionAttention' object has no attribute 'head_dim'", "app.node-forward-signature"),
    ("AttributeError: 'CrossAttention' object has no attribute 'lora_up'", "app.node-forward-signature"),
]


def test_round190m_variants():
    wrong = []
    for text, (entry, backend) in POSITIVES:
        got = first(text)
        if got[0] != entry or (backend is not None and got[1] != backend):
            wrong.append((text[:70], (entry, backend), got))
    assert not wrong, wrong


def test_round190m_near_misses():
    wrong = [(text[:70], must_not, ids(text)) for text, must_not in NEAR_MISSES if must_not in ids(text)]
    assert not wrong, wrong


# Each pattern written or widened here, found by a piece of its text, matches no unrelated log of any training round on its own
# (before ranking and attribution decide anything).
PIECES = {
    "triton.kernel-version-drift": "trans_[ab]",
    "sdpa.cudnn-slower": "prioriti[sz]",
    "transformers.bettertransformer-redundant": "not yet supported to be used with BetterTransformer",
    "attn.api-mismatch": "_wrapped_scaled_dot_product",
    "tgi.flash-models-unavailable": "flash[ \\t]?attention[ \\t]+v2",
    "flex.mask-mod-not-scalar": ("_convert_mask_to_block_mask", "5-?D", "non-?scalar"),
    "fa2.api-renamed": ("no[ \\t]+longer[ \\t]+(?:exists", "无法导入"),
    "attn.patch-no-gqa": ("is invalid for input of size", "GQA"),
    "app.node-forward-signature": "prepare_attention_mask",
}


def test_round190m_patterns_match_no_unrelated_log():
    assert_patterns_match_no_unrelated_log(PIECES)


def test_round190m_entries_claim_no_unrelated_log():
    assert_claim_no_unrelated_log({"flex.mask-mod-not-scalar", "attn.patch-no-gqa", "tgi.flash-models-unavailable"})
