"""Variants for round 27 (issue 23, helper ex27): failures that are no attention backend's but name attention in passing,
and texts whose backend is easy to misname (fixtures/errors/round27/).

Every case was written by hand for this round (2026-11-28) from the mechanism, NOT copied from a real thread: another
library, path, model, version or wording. The near misses beside each mechanism assert what must still be claimed.

Mechanisms (knowledge file or module: entry):
  apex-so      attribution.toml [[library]] "foreign": apex's compiled modules by their own names (fused_layer_norm_cuda,
               amp_C, fused_dense_cuda, ...): their loader errors are apex's, not attention's
  ct2          attribution.toml "foreign": CTranslate2 and faster-whisper, whose cuDNN and cuBLAS loads are their own
  ggml         attribution.toml "foreign": llama.cpp's and ollama's start-up and loader lines (ggml_cuda_init,
               llama_model_loader): that program's CUDA, not PyTorch's; ggml's own flash-attention message stays "other"
  jax          attribution.toml "foreign": JAX and Flax (jax.nn.dot_product_attention, its cuDNN fused attention), none of
               the PyTorch backends attn-doctor checks
  oom-triage   triage.toml triage.error-names-backend: an out-of-memory line is left to the OOM entries, not claimed for the
               backend a title above it names
  shm-space    env.toml cache.low-space: "No space left on device" is a compile cache's only where the line names one
  advice       prose.toml LINE: advice ("try turning off flash attention") and "the same error instead of X" are no report
               that a backend fails
  no-valid     frameworks.toml vllm.backend-fallback: vLLM's "No valid attention backend found" retold without its tail
  eager-dtype  attention.toml attn.qkv-dtype: transformers' eager attention refusing mixed dtypes in its matmul
Then on earlier rounds' unrelated claims:
  llama-msg    attribution.toml "other" (files tier): llama.cpp's own flash-attention messages ("flash_attn is not
               compatible with attn_soft_cap - forcing off", "V cache quantization requires flash_attn") are not FA2's
  oom-prose    prose.toml LINE: a sentence whose failure is memory (OOM, out of memory, 显存不足) is no prose report
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids, tb


# apex-so
@pytest.mark.parametrize("text", [
    "ImportError: /opt/conda/lib/python3.11/site-packages/amp_C.cpython-311-x86_64-linux-gnu.so: undefined symbol: "
    "_ZN3c1021throwNullDataPtrErrorEv",
    tb(("/work/train.py", 3, "<module>", "from apex.normalization import FusedLayerNorm"),
       ("/usr/lib/python3/dist-packages/apex/normalization/fused_layer_norm.py", 17, "<module>",
        'fused_layer_norm_cuda = importlib.import_module("fused_layer_norm_cuda")'),
       error="ImportError: /usr/lib/python3/dist-packages/fused_layer_norm_cuda.cpython-312-x86_64-linux-gnu.so: "
             "undefined symbol: _ZN2at4_ops5zeros4callEN3c108ArrayRefINS2_6SymIntEEE"),
    "fused_dense_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZNK3c1010TensorImpl4sizeEl",
])
def test_apex_modules_loader_errors_stay_silent(text):
    assert _ids(text) == []


def test_an_attention_library_undefined_symbol_is_still_claimed():  # near miss
    text = ("ImportError: /venv/lib/python3.12/site-packages/flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so: "
            "undefined symbol: _ZN3c104cuda9SetDeviceEa")
    assert _top(text) == ("import.undefined-symbol", "fa2")


# ct2
@pytest.mark.parametrize("text", [
    "2026-03-01 10:00:01 INFO whisper_ctranslate2: Transcribing meeting.wav\n"
    "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: "
    "No such file or directory\nAborted (core dumped)",
    "INFO:faster_whisper:Processing audio with duration 03:12.004\n"
    "Could not load library libcudnn_cnn_infer.so.8. Error: libcudnn_cnn_infer.so.8: cannot open shared object file: "
    "No such file or directory",
])
def test_ctranslate2_cudnn_loads_stay_silent(text):
    assert _ids(text) == []


def test_a_bare_cudnn_load_failure_is_still_claimed():  # near miss: no program named
    text = ("Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object "
            "file: No such file or directory")
    assert "import.cuda-lib-missing" in _ids(text)


# ggml
@pytest.mark.parametrize("text", [
    "ggml_cuda_init: failed to initialize CUDA: CUDA driver version is insufficient for CUDA runtime version",
    "llama_model_loader: loaded meta data with 33 key-value pairs and 291 tensors from /models/qwen3-8b-q4_k_m.gguf\n"
    "ggml_cuda_init: failed to initialize CUDA: CUDA driver version is insufficient for CUDA runtime version\n"
    "llama_model_loader: - kv  12:                 qwen3.attention.head_count u32              = 32",
])
def test_llama_cpp_cuda_init_stays_silent(text):
    assert _ids(text) == []


def test_a_torch_driver_too_old_is_still_claimed():  # near miss
    text = tb(("/app/serve.py", 12, "<module>", "torch.cuda.init()"),
              ("/venv/lib/python3.11/site-packages/torch/cuda/__init__.py", 319, "_lazy_init", "torch._C._cuda_init()"),
              error="RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your "
                    "GPU driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx")
    assert _top(text)[0] == "cuda.driver-too-old"


# jax
@pytest.mark.parametrize("text", [
    "My training step fails when I use jax.nn.dot_product_attention with implementation='cudnn' on 4 H100s\n\n"
    + tb(("/work/model.py", 88, "__call__", "out = jax.nn.dot_product_attention(q, k, v, implementation='cudnn')"),
         ("/venv/lib/python3.12/site-packages/jax/_src/cudnn/fused_attention_stablehlo.py", 1130, "_dot_product_attention",
          "output = _dot_product_attention_fwd("),
         error="jaxlib.xla_extension.XlaRuntimeError: INTERNAL: cuDNN error: CUDNN_STATUS_BAD_PARAM"),
    "I am getting an error when using flax.linen.MultiHeadDotProductAttention: the cudnn attention fails on my A100",
])
def test_jax_attention_failures_stay_silent(text):
    assert _ids(text) == []


def test_torch_sdpa_in_words_is_still_claimed():  # near miss
    text = "torch scaled_dot_product_attention fails with an error on my A100 when the mask is boolean"
    assert _top(text)[1] == "sdpa"


# oom-triage
@pytest.mark.parametrize("text", [
    "xformers\n\ntorch.cuda.OutOfMemoryError: Allocation on device 0 would exceed allowed memory. (out of memory)\n"
    "Currently allocated     : 21.90 GiB",
    "sageattention question\n\nRuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 23.99 GiB total capacity)",
])
def test_an_oom_under_a_title_naming_a_backend_is_not_triaged_to_it(text):
    assert "triage.error-names-backend" not in _ids(text)


def test_another_error_under_that_title_is_still_triaged():  # near miss
    text = "xformers\n\nRuntimeError: xformers::efficient_attention_forward_cutlass returned an unexpected layout"
    assert _top(text) == ("triage.error-names-backend", "xformers")


# shm-space
@pytest.mark.parametrize("text", [
    "OSError: [Errno 28] No space left on device\n"
    "RuntimeError: DataLoader worker (pid 4411) is killed by signal: Bus error. It is possible that dataloader's workers "
    "are out of shared memory. Please try to raise your shared memory limit.",
    "OSError: [Errno 28] No space left on device: '/data/datasets/laion/shard-00042.tar'",
])
def test_a_full_disk_that_is_no_compile_cache_stays_silent(text):
    assert "cache.low-space" not in _ids(text)


@pytest.mark.parametrize("text", [
    "OSError: [Errno 28] No space left on device: '/root/.triton/cache/7f3a/_attn_fwd.cubin'",
    "OSError: [Errno 28] No space left on device: '/home/u/.cache/torch/inductor/fxgraph/zz/zzq.tmp'",
])
def test_a_full_compile_cache_is_still_claimed(text):  # near miss
    assert "cache.low-space" in _ids(text)


# advice
@pytest.mark.parametrize("text", [
    "KeyError: 'model.layers.0.mlp'\n\nIf you still see this, try turning off flash attention and see if that helps.",
    "Same crash here.\n\nI tried training with sdpa instead of flash_attention_2, but I am still getting the same error.",
    "AttributeError: 'NoneType' object has no attribute 'shape'\n\nmaybe try disabling xformers and see if that helps?",
])
def test_advice_and_the_same_error_elsewhere_are_no_backend_report(text):
    assert not any(i.startswith("prose.") for i in _ids(text))


@pytest.mark.parametrize("text,backend", [
    ("flash attention fails to build on Windows with CUDA 12.8", "fa2"),
    ("xformers is not working after the update, images come out black", "xformers"),
])
def test_a_report_in_words_is_still_read(text, backend):  # near miss
    assert _top(text)[1] == backend


# no-valid
@pytest.mark.parametrize("text", [
    '[Bug]: "No valid attention backend found" when serving Qwen3-Next NVFP4 on RTX PRO 6000',
    "vLLM 0.15 stops at start-up: No valid attention backend found. Works on 0.13.",
])
def test_vllm_no_valid_backend_retold(text):
    assert _top(text) == ("vllm.backend-fallback", None)


def test_no_valid_attention_mask_is_not_a_backend_selection():  # near miss
    assert "vllm.backend-fallback" not in _ids("ValueError: No valid attention mask found for the padded batch")


# eager-dtype
@pytest.mark.parametrize("text", [
    tb(("/venv/lib/python3.12/site-packages/transformers/models/gemma3/modeling_gemma3.py", 330, "forward",
        "attn_output, attn_weights = attention_interface("),
       ("/venv/lib/python3.12/site-packages/transformers/models/gemma3/modeling_gemma3.py", 260, "eager_attention_forward",
        "attn_weights = torch.matmul(query, key_states.transpose(2, 3)) * scaling"),
       error="RuntimeError: expected mat1 and mat2 to have the same dtype, but got: float != c10::Half"),
    tb(("C:\\ComfyUI\\custom_nodes\\my_node\\hidream\\modeling_llama.py", 225, "eager_attention_forward",
        "attn_output = torch.matmul(attn_weights, value_states)"),
       error="RuntimeError: expected scalar type BFloat16 but found Float"),
])
def test_eager_attention_dtype_mix(text):
    assert _top(text) == ("attn.qkv-dtype", None)


def test_a_dtype_mix_in_another_layer_is_not_attentions():  # near miss
    text = tb(("/venv/lib/python3.12/site-packages/torch/nn/modules/linear.py", 125, "forward",
               "return F.linear(input, self.weight, self.bias)"),
              error="RuntimeError: expected scalar type Half but found Float")
    assert "attn.qkv-dtype" not in _ids(text)


# llama.cpp's messages (attribution.toml "other"): its flash-attention op's own words name no backend of the seven
@pytest.mark.parametrize("text", [
    "Gemma 2 with llama-cpp-python: flash_attn is not compatible with attn_soft_cap - forcing off",
    "llama_init_from_model: flash_attn requires n_embd_head_k == n_embd_head_v - forcing off",
    "main: error: V cache quantization requires flash_attn, it does not work",
])
def test_llama_cpp_flash_attn_messages_are_not_fa2s(text):
    assert _top(text)[1] != "fa2" and not any(i.startswith("prose.") for i in _ids(text))


def test_flash_attn_package_words_are_still_fa2s():  # near miss
    assert _top("flash_attn is not working with Gemma 2, it fails at import")[1] == "fa2"


# oom-prose (prose.toml LINE): a sentence whose failure is memory is left to the OOM entries
@pytest.mark.parametrize("text", [
    "用的 deepspeed zero3, flash attention, vllm, 在 8*80G 的机器上 OOM 了, 下面是报错:",
    "Training with xformers and gradient checkpointing still runs out of memory on my 3090, any idea?",
    "sageattention enabled, 16GB card, 显存不足 when decoding",
])
def test_a_sentence_about_memory_is_no_backend_report(text):
    assert not any(i.startswith("prose.") for i in _ids(text))


def test_a_sentence_about_a_failure_that_is_not_memory_is_still_read():  # near miss
    assert _top("xformers fails to load on my 3090 after the update")[1] == "xformers"
