"""Variants for the mechanisms round 13a showed missing (issue 23): fixtures/errors/round13a, real texts of the LLM
trainers' and RL frameworks' trackers (2026-11-28), measured once on main's rules before any rule was written from
them (benchmarks/results/explain-round13a-before.json). Every case below was written by hand from the mechanism
(other packages, paths, versions, wrappers, phrasings), NOT copied from those threads; the near misses beside each
say what must NOT be claimed.

Mechanisms (knowledge file: entry or rule):
  dtype      flash_attn.toml fa2.dtype: the fp16/bf16-only message retold ("supports only", "only works with"), and
             a sentence saying flash-attention's inputs have to / must be fp16 or bf16
  empty      flash_attn.toml varlen.cu-seqlens: FA2/FA3's "batch size must be positive" (cu_seqlens of one element,
             a micro-batch padding removal left empty); attribution.toml: that check and flash_attn_varlen_forward
             written without its underscore are shared FlashAttention names
  helper     frameworks.toml transformers.helper-moved: the NameError an old helper name leaves (is_flash_attn_available)
  guard      attention.toml attn.import-guard: the NameError retold with its quotes astray
  fa1        flash_attn.toml fa2.api-renamed: FA2's names asked of the flash-attn 1.x the same text installs (either order);
             not an empty namespace package ("(unknown location)")
  loss       attention.toml attn.wrong-output: a training loss higher/different WITH a backend, a backend that produces a high
             loss or causes it to differ, a precision gap named with the backend
  ima        realworld.toml cuda.kernel-fault: CUDA error 700 (cudaErrorIllegalAddress) and "IMA" beside a kernel word
  hijack     attention.toml attn.api-mismatch: a TypeError a few frames below a trainer's attention monkeypatch frame;
             attribution.toml: such a patch file (*attn_hijack_flash*.py, *flash_attn_monkey_patch*.py) names FA2
  ext        backends.toml import.failed: a backend's compiled extension file named with a failure word
  running    prose.toml IGNORED: "X is not running, although ..." (a concession after it)
  shadow     imports.toml import.shadowed-package: "No module named 'flash_attn.X'; 'flash_attn' is not a package";
             backends.toml xformers.fa4-namespace no longer claims it
  te         frameworks.toml te.fused-attn-cudnn: TransformerEngine's cuDNN fused attention failing ("cuDNN Error" from
             fused_attn_*.cu, FusedAttention); sdpa.toml sdpa.cudnn-execution leaves TE's lines to it
"""

from __future__ import annotations

import pytest

from explain_top import first, ids, tb


SITE = "/home/kim/miniforge3/envs/rl/lib/python3.11/site-packages"
WIN = r"C:\Users\Ode\trainers\venv\Lib\site-packages"

HIJACK = tb(
    ("/srv/ft/src/tuner/monkeypatch/qwen2_attn_hijack_flash.py", 210, "flashattn_forward",
     "cos, sin = self.rotary_emb(value_states, seq_len=kv_seq_len)"),
    (f"{SITE}/torch/nn/modules/module.py", 1751, "_wrapped_call_impl", "return self._call_impl(*args, **kwargs)"),
    (f"{SITE}/torch/nn/modules/module.py", 1762, "_call_impl", "return forward_call(*args, **kwargs)"),
    error="TypeError: Qwen2RotaryEmbedding.forward() got an unexpected keyword argument 'seq_len'",
)
HIJACK_WIN = tb(
    (r"D:\llava\train\llama_flash_attn_monkey_patch.py", 58, "forward",
     "query_states, key_states = apply_rotary_pos_emb(query_states, key_states, cos, sin, position_ids)"),
    (rf"{WIN}\transformers\models\llama\modeling_llama.py", 205, "apply_rotary_pos_emb", "cos = cos.unsqueeze(unsqueeze_dim)"),
    error="TypeError: apply_rotary_pos_emb() takes from 4 to 5 positional arguments but 6 were given",
)
USER_TYPEERROR = tb(
    ("/home/u/proj/train.py", 88, "collate", "batch = pad(batch)"),
    ("/home/u/proj/data.py", 12, "pad", "return pad_sequence(batch, side='left')"),
    error="TypeError: pad_sequence() got an unexpected keyword argument 'side'",
)
EMPTY_BATCH = tb(
    (f"{SITE}/verl/workers/actor/dp_actor.py", 131, "_forward_micro_batch", "output = self.actor_module(input_ids=input_ids_rmpad,"),
    (f"{SITE}/flash_attn/flash_attn_interface.py", 170, "_flash_attn_varlen_forward",
     "out, softmax_lse, S_dmask, rng_state = flash_attn_gpu.varlen_fwd("),
    error="RuntimeError: batch size must be positive",
)


@pytest.mark.parametrize("text,want,backend", [
    # dtype: the fp16/bf16-only message retold, and the sentence that says the inputs must be fp16/bf16
    ("Flash Attention supports only fp16 and bf16 data type when fine-tuning Qwen2-VL with LoRA", "fa2.dtype", "fa2"),
    ("flash-attn 2 only accepts float16 / bfloat16 inputs", "fa2.dtype", "fa2"),
    ("FlashAttention only works with half, bf16 on my A10", "fa2.dtype", "fa2"),
    ("the query/key/value given to flash_attn in modeling_chatglm have to be in fp16 or bf16, the PPO critic passes fp32",
     "fa2.dtype", "fa2"),
    ("Inputs to flash attention must be set to float16 or bfloat16; use --bf16 in the trainer", "fa2.dtype", "fa2"),
    # empty: FA2/FA3's empty-batch check, in a traceback and as a title
    (EMPTY_BATCH, "varlen.cu-seqlens", "fa2"),
    ("RuntimeError: batch size must be positive in flash_attn_varlen_forward (GRPO, use_remove_padding)", "varlen.cu-seqlens", "fa2"),
    ("[rank5]: RuntimeError: batch size must be positive", "varlen.cu-seqlens", "fa2"),
    # helper: the renamed helper's NameError
    ("NameError: name 'is_flash_attn_available' is not defined. Did you mean: 'is_flash_attn_2_available'?",
     "transformers.helper-moved", None),
    ("  File \"/opt/spec/medusa_llama.py\", line 30, in <module>\n    if is_flash_attn_greater_or_equal_2_10():\n"
     "NameError: name 'is_flash_attn_greater_or_equal_2_10' is not defined", "transformers.helper-moved", None),
    # guard: the NameError with its quotes astray
    ("running the MoE layer raises `NameError: name' flash_attn_varlen_func 'is not defined`", "attn.import-guard", "fa2"),
    ("NameError: name ‘ sageattn ’ is not defined", "attn.import-guard", "sage"),
    # fa1: FA2's names asked of a flash-attn 1.x the text installs, either order
    ("ImportError: cannot import name 'flash_attn_func' from 'flash_attn'\nI pinned flash-attn==1.0.9 as the old README said",
     "fa2.api-renamed", "fa2"),
    ("pip3 install --no-build-isolation \"flash-attn<2\"\n...\nImportError: cannot import name 'flash_attn_varlen_qkvpacked_func' "
     "from 'flash_attn'", "fa2.api-renamed", "fa2"),
    # loss: the wrong output of a training run
    ("The eval loss is noticeably higher with flash_attention_2 than with eager on the same data", "attn.wrong-output", "fa2"),
    ("Mistral SFT: enabling flash-attn 2.6 gives a much higher training loss than sdpa", "attn.wrong-output", "fa2"),
    ("DPO with xformers causing the loss to diverge after 200 steps", "attn.wrong-output", "xformers"),
    ("training loss gets worse using Flash Attention with packing", "attn.wrong-output", "fa2"),
    ("Precision degradation in the sageattention kernels for long videos, outputs drift from SDPA", "attn.wrong-output", "sage"),
    # ima: illegal address as CUDA's error code and as the abbreviation
    ("flash_attn_varlen_func backward fails with CUDA error code 700 on H100 when one sequence is a single token",
     "cuda.kernel-fault", "fa2"),
    ("flash_attn_with_kvcache IMA in the split-kv kernel with paged KV (block 256)", "cuda.kernel-fault", "fa2"),
    # hijack: the TypeError below a trainer's attention monkeypatch frame
    (HIJACK, "attn.api-mismatch", "fa2"),
    (HIJACK_WIN, "attn.api-mismatch", "fa2"),
    # ext: a compiled extension named with a failure word
    ("Getting flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so error when the SFT script starts", "import.failed", "fa2"),
    ("flash_attn_3_cuda.abi3.so cannot load after torch was upgraded", "import.failed", None),
    # running: the selected backend is said not to run, with a concession after it
    ("xformers is not running, although xformers.info lists every op as available", "prose.ignored", "xformers"),
    ("flash attention not actually running even though attn_implementation is flash_attention_2", "prose.ignored", "fa2"),
    # shadow: a plain module of the package's name
    ("[rank1]: ModuleNotFoundError: No module named 'flash_attn.ops'; 'flash_attn' is not a package", "import.shadowed-package", "fa2"),
    ("  File \"/work/infer.py\", line 3, in <module>\n    from flash_attn.flash_attn_interface import flash_attn_func\n"
     "ModuleNotFoundError: No module named 'flash_attn.flash_attn_interface'; 'flash_attn' is not a package",
     "import.shadowed-package", "fa2"),
    ("ModuleNotFoundError: No module named 'sageattention.core'; 'sageattention' is not a package", "import.shadowed-package", "sage"),
    # te: TransformerEngine's cuDNN fused attention
    ("RuntimeError: /opt/te/transformer_engine/common/fused_attn/fused_attn_f16_arbitrary_seqlen.cu:611 in function "
     "operator(): cuDNN Error: CUDNN_STATUS_EXECUTION_FAILED", "te.fused-attn-cudnn", None),
    ("FusedAttention forward on H200 with thd + sliding window: cuDNN Error: CUDNN_STATUS_NOT_SUPPORTED", "te.fused-attn-cudnn", None),
])
def test_variant(text, want, backend):
    got, got_backend = first(text)
    assert got == want, ids(text)
    if backend is not None:
        assert got_backend == backend


@pytest.mark.parametrize("text,not_want", [
    # dtype: a feature statement and an install hint are no dtype error
    ("Flash Attention supports fp16, bf16 and fp8 on Hopper GPUs", "fa2.dtype"),
    ("flash-attn must be installed; use fp16 or bf16 for speed", "fa2.dtype"),
    # empty: another library's positive-batch check is not FlashAttention's
    ("ValueError: batch_size should be a positive integer value, but got batch_size=0", "varlen.cu-seqlens"),
    # helper: the current helper missing from a script is no renamed helper
    ("NameError: name 'is_flash_attn_2_available' is not defined", "transformers.helper-moved"),
    # guard: any other name retold that way
    ("NameError: name ' torch ' is not defined", "attn.import-guard"),
    # fa1: an empty namespace package with FA1 named nearby is not FA1's missing name
    ("ImportError: cannot import name 'flash_attn_func' from 'flash_attn' (unknown location)\npip install flash-attn==1.0.9",
     "fa2.api-renamed"),
    ("pip install \"flash-attn<2\"\nImportError: cannot import name 'flash_attn_func' from 'flash_attn' (unknown location)",
     "fa2.api-renamed"),
    # fa1: without a 1.x version it stays a generic import failure
    ("ImportError: cannot import name 'flash_attn_func' from 'flash_attn'", "fa2.api-renamed"),
    # loss: the other direction, another cause, a lower loss
    ("the loss is higher when I don't use flash attention", "attn.wrong-output"),
    ("loss is higher with a larger learning rate", "attn.wrong-output"),
    ("flash attention 2 gives lower loss than eager, nice", "attn.wrong-output"),
    # ima: other numbers and words
    ("IMAGE generation kernel crashed with CUDA error 7000", "cuda.kernel-fault"),
    # hijack: a TypeError in the user's own code, no attention patch on the way
    (USER_TYPEERROR, "attn.api-mismatch"),
    # ext: an extension built fine
    ("flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so built successfully", "import.failed"),
    # running: without a concession it says nothing about a selection
    ("xformers not running on my GPU", "prose.ignored"),
    # shadow: a missing submodule alone is no shadowing module
    ("ModuleNotFoundError: No module named 'flash_attn.ops'", "import.shadowed-package"),
    ("ModuleNotFoundError: No module named 'flash_attn.flash_attn_interface'", "import.shadowed-package"),
    # te: SDPA's own cuDNN backend stays SDPA's
    (f"  File \"{SITE}/torch/nn/functional.py\", line 5500, in scaled_dot_product_attention\n"
     "RuntimeError: cuDNN Frontend error: CUDNN_STATUS_EXECUTION_FAILED", "te.fused-attn-cudnn"),
])
def test_near_miss(text, not_want):
    assert not_want not in ids(text), ids(text)


def test_sdpa_cudnn_execution_still_sdpa():
    """The TE exclusion leaves torch's own cuDNN attention failure to sdpa.cudnn-execution."""
    text = (f"  File \"{SITE}/torch/nn/functional.py\", line 5500, in scaled_dot_product_attention\n"
            "RuntimeError: cuDNN Frontend error: CUDNN_STATUS_EXECUTION_FAILED")
    assert first(text) == ("sdpa.cudnn-execution", "sdpa")


def test_fa4_namespace_not_claimed_for_a_shadowing_module():
    """xformers' import of flash_attn.flash_attn_interface that finds an FA4-only namespace is still
    xformers.fa4-namespace; a plain module of that name shadowing the package is not. (Since the fourth session of
    2026-11-28 the bare message, with no xformers frame above it, is import.namespace-package: xformers.fa4-namespace's
    fix removes xformers, which does nothing for vLLM or a model importing FlashAttention.)"""
    plain = "ModuleNotFoundError: No module named 'flash_attn.flash_attn_interface'"
    under_xformers = ('  File "/venv/lib/python3.11/site-packages/xformers/ops/fmha/flash.py", line 59, in <module>\n'
                      "    import flash_attn.flash_attn_interface\n" + plain)
    assert first(under_xformers)[0] == "xformers.fa4-namespace"
    assert first(plain)[0] == "import.namespace-package"
    shadowed = plain + "; 'flash_attn' is not a package"
    assert "xformers.fa4-namespace" not in ids(shadowed) and "import.namespace-package" not in ids(shadowed)
