"""Variants for the mechanisms round 16 (fixtures/errors/round16/, training material since 2026-11-28, helper ex20)
taught explain. No real text is a case here: each is written by hand from the mechanism, with other paths, versions,
GPUs, wrappers and wordings; the near misses say what must NOT be claimed.

  grid-limit       "CUDA error: invalid configuration argument" under FA2's / SageAttention's call or xformers named above
                   it: a grid past CUDA's launch limit (attention.toml attn.kernel-launch-error)
  causal-mask      torch's "Explicit attn_mask should not be set when is_causal=True", and the refusal in words
                   (guides.toml diffusers.causal-and-mask)
  compiled-with    "Pytorch doesn't compile with Flash Attention" retells torch's build note, no failed build
                   (builds.toml build.compile-failed)
  ggml             ggml's own flash-attention op (llama.cpp, whisper.cpp, ollama) is no listed backend (attribution.toml "other")
  block-mask-oom   an OOM said with FlexAttention's BlockMask (triton.toml flex.block-mask-oom)
  sage-dtype       SageAttention's "All tensors must have the same dtype." (attention.toml attn.qkv-dtype)
  window-v1        a window_size passed to flash-attention v1 / 2.0-2.2 (flash_attn.toml fa2.too-old-for-feature)
  check-imports    transformers' "requires the following packages that were not found" is the symptom of an import
                   failure named beside it (frameworks.toml transformers.backend-unavailable)
  not-found        "can't find flash_attn although it is installed" (flash_attn.toml fa2.missing)
  enable-probe     a bare NotImplementedError over diffusers' xformers probe (xformers.toml xformers.no-operator)
  graph-break      "torch.compile graph break in <backend>" (compile.toml compile.backend-untraceable)
  gqa              SDPA's heads dimension that does not broadcast (sdpa.toml sdpa.gqa-heads-not-expanded)
  mask-size        an attn_mask SDPA cannot expand to (B, H, L, S) (sdpa.toml sdpa.mask-size-mismatch)
  mask-mod-oob     a mask_mod indexing past a per-token tensor (flex.toml flex.mask-mod-index-out-of-range)
  gpu-lost         the GPU lost at driver level with a backend named (attention.toml attn.gpu-lost; attribution.toml:
                   SageAttention's "int8-QK / FP8-PV" kernels and _sageattn* wrappers)
  old-gpu          a title saying a pre-Ampere GPU does not support flash-attn (backends.toml backend.unsupported-gpu)
  cut-import       a traceback cut at a backend's import (imports.toml import.cut-at-backend-import)
  triton-ops       triton.ops, removed in Triton 3.2 (triton.toml triton.ops-removed)
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids, tb


# --- grid-limit -------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ("out = flash_attn_varlen_func(q, k, v, cu_q, cu_k, max_q, max_k)\n```\nfails with\n"
     "RuntimeError: CUDA error: invalid configuration argument", "fa2"),
    (tb(("/srv/venv/lib/python3.10/site-packages/sageattention/core.py", 140, "sageattn", "return sageattn_qk_int8_pv_fp16_cuda(q, k, v)"),
        error="RuntimeError: CUDA error: invalid configuration argument"), "sage"),
    ("xformers crashes once batch*heads passes 65535 (AnimateDiff, 128 frames)\n"
     "RuntimeError: CUDA error: invalid configuration argument", "xformers"),
])
def test_a_grid_past_cudas_limit_in_an_attention_call(text, backend):
    assert _top(text) == ("attn.kernel-launch-error", backend)


def test_invalid_configuration_in_another_kernel_is_not_attentions():
    text = tb(("/opt/venv/lib/python3.11/site-packages/torch/nn/functional.py", 4050, "interpolate",
               "return torch._C._nn.upsample_nearest2d(input, output_size, scale_factors)"),
              error="RuntimeError: CUDA error: invalid configuration argument")
    assert "attn.kernel-launch-error" not in _ids(text)


# --- causal-mask ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "RuntimeError: _scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True",
    tb(("/home/u/proj/model.py", 88, "forward", "y = F.scaled_dot_product_attention(q, k, v, attn_mask=m, is_causal=True)"),
       error="RuntimeError: _scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True"),
    "scaled_dot_product_attention raises an error when both `attn_mask` and `is_causal` are set (MPS, torch 2.2)",
    "SDPA fails when both is_causal=True and attn_mask are passed on the CPU",
])
def test_sdpa_refuses_a_mask_together_with_is_causal(text):
    assert _top(text) == ("diffusers.causal-and-mask", "sdpa")


def test_a_sentence_about_setting_both_without_a_failure_is_not_claimed():
    assert "diffusers.causal-and-mask" not in _ids("the model sets both attn_mask and is_causal for speed")


# --- compiled-with ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Pytorch doesn't compile with Flash Attention (W11)",
    "torch wasn't compiled with flash attention? can't compile with memory efficient attention either",
])
def test_torch_built_without_a_kernel_is_no_failed_build(text):
    assert "build.compile-failed" not in _ids(text)


@pytest.mark.parametrize("text", [
    "flash-attn fails to compile with CUDA 12.8 on Windows",
    "xformers won't build on my machine (gcc 13)",
])
def test_a_build_that_failed_is_still_one(text):
    assert _top(text)[0] == "build.compile-failed"


# --- ggml -------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Misc. bug: flash attention not supported by Vulkan0, memory usage will increase",
    "llama_new_context_with_model: flash_attn is not supported by CUDA1, memory usage will increase",
    "ollama: flash attention not supported by Metal, memory usage will increase",
])
def test_ggmls_own_flash_attention_is_no_listed_backend(text):
    assert _ids(text) == []


def test_flash_attn_not_supported_on_a_gpu_is_still_flash_attns():
    assert _top("flash-attn is not supported by the RTX 2080 (Turing), FlashAttention only supports Ampere GPUs or newer")[1] == "fa2"


# --- block-mask-oom ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "The BlockMask is built with H=num_heads, so at 128k context every rank runs out of memory",
    "create_block_mask with B=batch and H=heads at 64k tokens -> torch.OutOfMemoryError",
    "I use a sliding-window block mask.\n\nWith flex attention a 48k sequence goes OOM while SDPA handled it",
])
def test_a_flexattention_block_mask_out_of_memory(text):
    assert _top(text) == ("flex.block-mask-oom", "flex")


def test_another_libraries_block_mask_oom_is_not_flexs():
    text = "Block-Sparse-Attention: building the block mask at 128k runs OOM on one A100"
    assert "flex.block-mask-oom" not in _ids(text)


# --- sage-dtype -------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    tb(("C:\\ComfyUI\\python_embeded\\Lib\\site-packages\\sageattention\\core.py", 130, "sageattn",
        "assert q.dtype == k.dtype == v.dtype, \"All tensors must have the same dtype.\""),
       error="AssertionError: All tensors must have the same dtype."),
    "Wan 2.1 with sageattention, fp8 weights\n\n!!! Exception during processing !!! All tensors must have the same dtype.",
    "sageattn_varlen(q, k, v, cu_q, cu_k, mq, mk)\nValueError: All tensors must have the same dtype.",
])
def test_sageattentions_mixed_dtype_refusal(text):
    assert _top(text) == ("attn.qkv-dtype", "sage")


def test_the_same_words_from_another_library_are_not_attentions():
    text = tb(("/opt/app/kernels/fused_norm.py", 40, "forward",
               "assert x.dtype == w.dtype == b.dtype, \"All tensors must have the same dtype.\""),
              error="AssertionError: All tensors must have the same dtype.")
    assert "attn.qkv-dtype" not in _ids(text)


# --- window-v1 --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Passing window_size_left=-1 breaks flash attention v1, which only takes 0 there",
    "window_size is not supported by flash-attn 2.1 (our V100-era image), Mistral fails",
    "flash_attn 1.0.9 doesn't support window_size, so the sliding-window layers crash",
])
def test_a_window_size_given_to_a_flash_attn_without_one(text):
    assert _top(text) == ("fa2.too-old-for-feature", "fa2")


def test_a_window_size_on_a_recent_flash_attn_is_not_too_old():
    assert "fa2.too-old-for-feature" not in _ids("window_size breaks flash-attn 2.8.3 when left > right")


# --- check-imports ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,cause", [
    ("ImportError: This modeling file requires the following packages that were not found in your environment: flash_attn. "
     "Run `pip install flash_attn`\n\nflash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi",
     "import.undefined-symbol"),
    ("ImportError: This modeling file requires the following packages that were not found in your environment: einops, flash_attn\n"
     "ImportError: DLL load failed while importing flash_attn_2_cuda: The specified module could not be found.",
     "import.dll-load-failed"),
])
def test_transformers_not_found_is_the_symptom_of_the_import_failure_beside_it(text, cause):
    assert _top(text) == (cause, "fa2")


def test_transformers_not_found_alone_is_still_the_answer():
    text = ("ImportError: This modeling file requires the following packages that were not found in your environment: "
            "flash_attn. Run `pip install flash_attn`")
    # policy: lead, session 26 (one failure, one entry): transformers' check naming flash_attn alone is fa2.missing's failure (was
    # transformers.backend-unavailable)
    assert _top(text) == ("fa2.missing", "fa2")


# --- not-found --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "I get an error about not finding FlashAttention even though it is installed and the kernel was restarted",
    "the Jupyter kernel cannot find flash_attn although pip list shows it installed",
    "ComfyUI's embedded python doesn't find flash-attn, but it is installed in my conda env",
])
def test_flash_attn_installed_into_another_python(text):
    assert _top(text) == ("fa2.missing", "fa2")


@pytest.mark.parametrize("text", [
    "can't find flash attention 3 although flash_attn_3 is installed",  # FA3's import, not FA2's
    "cannot find flash attention kernel for head dim 256",  # no "installed": another failure
])
def test_not_finding_something_else_is_not_fa2_missing(text):
    assert "fa2.missing" not in _ids(text)


# --- enable-probe -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "NotImplementedError\n\nTraceback (most recent call last):\n  File \"/content/diffusers/src/diffusers/pipelines/pipeline_utils.py\", "
    "line 1710, in enable_xformers_memory_efficient_attention\n    self.set_use_memory_efficient_attention_xformers(True, attention_op)",
    "[Bug] generation fails: not implemented error\n\n... line 295, in _adjust_memory_efficient_attention self.enable_xformers_memory_efficient_attention()",
    "Not_Implemented_Error:\n  File \"/usr/local/lib/python3.10/dist-packages/diffusers/models/modeling_utils.py\", line 251, in enable_xformers_memory_efficient_attention",
])
def test_a_bare_notimplementederror_over_diffusers_xformers_probe(text):
    assert _top(text) == ("xformers.no-operator", "xformers")


def test_diffusers_own_notimplementederror_with_its_message_is_not_the_dispatchers():
    text = ("NotImplementedError: Memory efficient attention with `xformers` is currently not supported when "
            "`self.added_kv_proj_dim` is defined.\n\nstage_1.enable_xformers_memory_efficient_attention()")
    assert "xformers.no-operator" not in _ids(text)


# --- graph-break ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ("torch.compile graph break in the flash_attention_2 path (fullgraph=True fails)", "fa2"),
    ("dynamo graph breaks at sageattn in the Wan attention block", "sage"),
    ("fullgraph compile: graph break inside xformers.ops.memory_efficient_attention", "xformers"),
])
def test_a_graph_break_said_at_the_backends_call(text, backend):
    assert _top(text) == ("compile.backend-untraceable", backend)


def test_a_graph_break_in_other_code_is_not_an_attention_backends():
    assert "compile.backend-untraceable" not in _ids("torch.compile graph break in the data collator (a print call)")


# --- gqa --------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    tb(("/opt/venv/lib/python3.12/site-packages/transformers/integrations/sdpa_attention.py", 96, "sdpa_attention_forward",
        "attn_output = torch.nn.functional.scaled_dot_product_attention("),
       error="RuntimeError: The size of tensor a (32) must match the size of tensor b (8) at non-singleton dimension 1"),
    "    out = F.scaled_dot_product_attention(q, k, v, is_causal=True)\n"
    "RuntimeError: The size of tensor a (14) must match the size of tensor b (2) at non-singleton dimension 1",
    "E   RuntimeError: The size of tensor a (16) must match the size of tensor b (4) at non-singleton dimension 1\n\n"
    "lib/site-packages/transformers/integrations/sdpa_attention.py:88: RuntimeError",
])
def test_fewer_key_value_heads_than_query_heads_in_sdpa(text):
    assert _top(text) == ("sdpa.gqa-heads-not-expanded", "sdpa")


@pytest.mark.parametrize("text", [
    # a rotary table of the wrong length: dimension 2, the sequence (round 16 unrelated: OminiControl, TransPixeler)
    "    out = F.scaled_dot_product_attention(q, k, v)\n"
    "RuntimeError: The size of tensor a (1024) must match the size of tensor b (4096) at non-singleton dimension 2",
    # heads mismatch with no SDPA anywhere near
    "RuntimeError: The size of tensor a (32) must match the size of tensor b (8) at non-singleton dimension 1",
])
def test_other_size_mismatches_are_not_gqa(text):
    assert "sdpa.gqa-heads-not-expanded" not in _ids(text)


# --- mask-size --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    tb(("/srv/app/regional.py", 232, "__call__", "h = F.scaled_dot_product_attention(q, k, v, attn_mask=self.mask)"),
       error="RuntimeError: The expanded size of the tensor (4096) must match the existing size (4352) at non-singleton "
             "dimension 3.  Target sizes: [2, 24, 4096, 4096].  Tensor sizes: [4352, 4352]"),
    "The expanded size of the tensor (1536) must match the existing size (1600) at non-singleton dimension 2.\n"
    "Target sizes: [1, 16, 1536, 1536]\n\nat\n    x = torch.nn.functional.scaled_dot_product_attention(\n        q, k, v, attn_mask=m)",
    "    hidden = scaled_dot_product_attention(query, key, value, attn_mask=mask, dropout_p=0.0)\n"
    "RuntimeError: The expanded size of the tensor (77) must match the existing size (154) at non-singleton dimension 3",
])
def test_an_attn_mask_built_for_another_length(text):
    assert _top(text) == ("sdpa.mask-size-mismatch", "sdpa")


def test_an_expand_elsewhere_is_not_sdpas_mask():
    text = tb(("/srv/app/data.py", 40, "collate", "ids = ids.expand(batch, 77)"),
              error="RuntimeError: The expanded size of the tensor (77) must match the existing size (80) at non-singleton dimension 1")
    assert "sdpa.mask-size-mismatch" not in _ids(text)


# --- mask-mod-oob -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "block_mask = create_block_mask(doc_mask_mod, None, None, 300, 300)\n...\nIndexError: index 300 is out of bounds for dimension 0 with size 300",
    tb(("/venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py", 870, "create_mask", "mask = mask_mod(b, h, m, n)"),
       ("/work/train.py", 52, "mask_mod", "return seg[q_idx] == seg[kv_idx]"),
       error="IndexError: index 1030 is out of bounds for dimension 0 with size 1030"),
    "def prefix_mask(b, h, q_idx, kv_idx):\n    return kv_idx < prefix_len[b]\nm = and_masks(causal, prefix_mask)\n"
    "IndexError: index 8 is out of bounds for dimension 0 with size 8",
])
def test_a_mask_mod_indexing_past_a_per_token_tensor(text):
    assert _top(text) == ("flex.mask-mod-index-out-of-range", "flex")


def test_an_index_error_without_a_mask_mod_is_not_flexs():
    text = tb(("/srv/app/dataset.py", 33, "__getitem__", "return self.items[i]"),
              error="IndexError: index 100 is out of bounds for dimension 0 with size 100")
    assert "flex.mask-mod-index-out-of-range" not in _ids(text)


# --- gpu-lost ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ("GPU lost after ~500 sageattn calls on an RTX 5080, single calls pass", "sage"),
    ("[Bug] Driver-level GPU lost with the int8-QK / FP8-PV kernel on RTX 5070 Ti", "sage"),
    ("NVRM: Xid 79, GPU has fallen off the bus, during flash_attn_varlen_func backward on 8x H100", "fa2"),
    ("xformers memory_efficient_attention on Windows: the display driver nvlddmkm stopped responding", "xformers"),
])
def test_the_gpu_lost_while_an_attention_kernel_ran(text, backend):
    assert _top(text) == ("attn.gpu-lost", backend)


@pytest.mark.parametrize("text", [
    "GPU lost during a long training run, nvidia-smi says No devices were found",  # no backend named
    "Unable to determine the device handle for GPU0000:01:00.0: GPU is lost. Reboot the system to recover this GPU",
])
def test_a_gpu_lost_with_no_attention_backend_is_not_claimed(text):
    assert "attn.gpu-lost" not in _ids(text)


# --- old-gpu ----------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Tesla V100不支持 flash_attn，推理报错",
    "T4 does not support flash-attn: the Qwen2-VL notebook fails on Colab",
    "flash attention doesn't support the RTX 2080 Ti, how do I turn it off?",
])
def test_a_title_saying_a_pre_ampere_gpu_lacks_flash_attn(text):
    assert _top(text) == ("backend.unsupported-gpu", "fa2")


def test_the_same_sentence_below_another_error_is_not_the_cause():
    text = ("flash_attn_2_cuda import fails\n\nundefined symbol: _ZN3c105ErrorC2E\n"
            "Meanwhile my V100 doesn't support flash attn 2 anyway.")
    assert "backend.unsupported-gpu" not in _ids(text)


# --- cut-import -------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ("  File \"D:\\ComfyUI\\venv\\lib\\site-packages\\diffusers\\models\\attention_processor.py\", line 35, in <module>\n"
     "    import xformers.ops\n```", "xformers"),
    ("  File \"/opt/app/nodes/wan/attention.py\", line 7, in <module>\n    from sageattention import sageattn\n", "sage"),
    ("  File \"/root/.cache/huggingface/modules/transformers_modules/m/modeling.py\", line 40, in <module>\n"
     "    from flash_attn import flash_attn_func, flash_attn_varlen_func", "fa2"),
])
def test_a_traceback_cut_at_a_backends_import(text, backend):
    assert _top(text) == ("import.cut-at-backend-import", backend)


def test_a_backends_import_with_its_error_after_it_is_that_errors():
    text = ("  File \"/opt/app/nodes/wan/attention.py\", line 7, in <module>\n    from sageattention import sageattn\n"
            "ImportError: DLL load failed while importing _qattn_sm80: The specified module could not be found.")
    assert "import.cut-at-backend-import" not in _ids(text)


def test_a_traceback_cut_at_another_import_is_not_claimed():
    text = "  File \"/opt/app/train.py\", line 3, in <module>\n    import bitsandbytes as bnb\n"
    assert "import.cut-at-backend-import" not in _ids(text)


# --- triton-ops -------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    tb(("/venv/lib/python3.12/site-packages/xformers/ops/_triton/rmsnorm_kernels.py", 10, "<module>", "import triton.ops"),
       error="ModuleNotFoundError: No module named 'triton.ops'"),
    "xformers no longer works with triton 3.2: triton.ops was removed",
    "Since triton's ops got deprecated (removed), xformers' benchmarks fail to import",
])
def test_triton_ops_removed_under_xformers(text):
    assert _top(text) == ("triton.ops-removed", "xformers")


def test_triton_ops_removed_under_another_library_is_not_claimed():
    text = tb(("/venv/lib/python3.11/site-packages/bitsandbytes/triton/int8_matmul_mixed_dequantize.py", 12, "<module>",
               "from triton.ops.matmul_perf_model import early_config_prune, estimate_matmul_time"),
              error="ModuleNotFoundError: No module named 'triton.ops'")
    assert "triton.ops-removed" not in _ids(text)


@pytest.mark.parametrize("text", [
    "our BlockMask at 64k doesn't run out of memory, it is just slow to build",
    "I use a block mask.\nflex attention at 32k: no OOM, but 3x slower than SDPA",
])
def test_a_block_mask_said_not_to_run_out_of_memory(text):
    assert "flex.block-mask-oom" not in _ids(text)
