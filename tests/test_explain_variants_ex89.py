"""Variants for helper ex89 (session 14): the mechanisms behind round 85m's misses (fixtures/errors/round85m, gathered blind by
ex85m in session 13, training material since ex89).

Every case was written by hand (2026-11-29): other paths, versions, GPUs, libraries and wordings than the fixtures. The positives
name what explain must report first (entry, backend); the near misses what it must not claim.

Mechanisms (knowledge file: rule):
  target     triton.toml triton.unknown-arch: the MLIR diagnostic "error: unsupported target: 'gfx906'" (triton-gcn5#4)
  gdb        attention.toml attn.native-crash: a debugger's backtrace whose frame runs in an attention library's extension, under
             a segfault, a signal or gdb's thread header (ROCm/flash-attention#120)
  nan        attention.toml attn.nan-output: "seems to produce NaN values", "produce infinite values" (xformers#1392, tt-metal#42910);
             attribution.toml: xformers' CUTLASS op said in words
  ttnn       attribution.toml "other": Tenstorrent's ttnn attention ops and SDPA with its hardware; other_counts attn.nan-output
  kernel     attention.toml attn.wrong-output: an attention kernel named by its kind said to be incorrect, give wrong output or
             return zeros; attribution.toml "other": FlashInfer's Batch...Wrapper classes, trtllm-gen attention, paged decode
             (flashinfer#3716, #4347, #4450)
  vmap       flex.toml flex.captured-buffer-grad: vmap's "can not return a BatchedTensor when out_dim is None" under a score_mod, and
             "does not support a learnable scalar" (attention-gym#171)
  wheelname  builds.toml build.prebuilt-wheel-missing: the +cu..torch..cxx11abi wheel file said not found (flash-attention#1871);
             the library said to download from GitHub, in Chinese or English (DeepSeek-OCR#158)
  feature    flash_attn.toml fa2.too-old-for-feature: "requires version 2.3.0+ to support sliding_window" (gpt-neox#1162)
  drift      triton.toml triton.kernel-version-drift: "Triton 2.0 makes attention kernel crash" (kernl#314)
  aiter      accelerators.toml aiter.arch-unsupported: the assembler refusing CK's inline asm in AITER's JIT build (aiter#254)
  lag        versions.toml xformers.built-for-other-torch: xformers said to lag the newest torch; a DLL load failure that
             disabling xformers cures (ComfyUI#4592)
  toonew     attribution.toml [[specialize]] backend.unsupported-gpu -> xformers.kernel-arch-mismatch for xformers' "(too new)"
             reason (ComfyUI-Windows-Portable#134)
  range      attention.toml attn.fp16-overflow: values exceeding fp16's range in an unfused attention path (IPEX#749)
  mask       sdpa.toml sdpa.mask-not-flash: a "runtime error" is no cost in time (torch-xpu-ops#4369)
  recompile  flex.toml flex.recompiles-per-length (unsloth#1960)
  mask4d     attention.toml attn.mask-4d-as-padding-mask (DiffuLLaMA#10)
  blocked    imports.toml import.blocked-in-sys-modules (forge#8)
  partition  accelerators.toml sdpa.xpu-partition-compile (torch-xpu-ops#4369)
  gemm       prose.toml SLOW: a backend far below the same GPU's matmul rate (torch-xpu-ops#4886)
  wrapper    frameworks.toml app.backend-wrapper-skipped: an app's wrapper for a backend it skipped, imported anyway (cache-dit#592)
  qkv4d      attention.toml attn.qkv-not-4d: 3-D q/k/v refused with IndexError where an attention call is named (transformers#36891)
"""

from __future__ import annotations

import pytest

from explain_top import first_cause, ids


@pytest.mark.parametrize("text, want", [
    # target
    ("loc(\"/srv/sglang/python/sglang/srt/layers/attention/triton_ops/decode_attention.py\":88:0): error: unsupported target: 'gfx1012'",
     ("triton.unknown-arch", None)),
    # gdb
    ("The job dies with a segfault in the backward pass.\n"
     "#0  0x00007f2a1c3b4d5e in void qk_int_sv_f8_attn_kernel<128>(...) () from "
     "/home/u/.venv/lib/python3.11/site-packages/sageattention/_qattn_sm89.cpython-311-x86_64-linux-gnu.so", ("attn.native-crash", "sage")),
    ("Thread 1 (Thread 0x7ffff7fc2740 (LWP 4411) \"python\"):\n"
     "#4  0x00007fff8a0b1c2d in flash::run_mha_bwd<cutlass::bfloat16_t, 128>(Flash_bwd_params&, CUstream_st*) () from "
     "/opt/conda/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so", ("attn.native-crash", "fa2")),
    # nan
    ("scaled_dot_product_attention can produce NaN for bf16 inputs when the whole row is masked", ("attn.nan-output", "sdpa")),
    ("NaNs from the CUTLASS fmha op on an A100 with head dim 512", ("attn.nan-output", "xformers")),
    # ttnn
    ("ttnn.transformer.scaled_dot_product_attention seems to produce NaN values on Wormhole for seq_len 8192", ("attn.nan-output", None)),
    # kernel
    ("BatchPrefillWithRaggedKVCacheWrapper gives wrong results when qo_indptr has an empty request", ("attn.wrong-output", None)),
    ("The tensor-core paged decode kernel returns zeros for batch size 1 on H100", ("attn.wrong-output", None)),
    # vmap
    ("bias = torch.nn.Parameter(torch.zeros(8))\ndef score_mod(s, b, h, q, kv):\n    return s + bias[h]\n"
     "y = flex_attention(q, k, v, score_mod=score_mod)\ny.mean().backward()\n"
     "RuntimeError: vmap(fn, in_dims=(0, None, None, None, 0), ...): `fn()` can not return a BatchedTensor when out_dim is None",
     ("flex.captured-buffer-grad", "flex")),
    ("FlexAttention does not support a learnable temperature? the backward raises", ("flex.captured-buffer-grad", "flex")),
    # wheelname
    ("Could not find flash_attn-2.7.4.post1+cu126torch2.9cxx11abiTRUE-cp313-cp313-linux_x86_64.whl in the release assets",
     ("build.prebuilt-wheel-missing", "fa2")),
    ("flash-attn 安装一直卡住, 它要从github下载预编译的 wheel", ("build.prebuilt-wheel-missing", "fa2")),
    # feature
    ("FlashAttention needs version 2.6.0 or newer to support softcapping (Gemma 2)", ("fa2.too-old-for-feature", "fa2")),
    # drift
    ("Triton 3.2 broke our fused attention kernel: it no longer compiles", ("triton.kernel-version-drift", None)),
    # aiter
    ("/root/aiter/aiter/jit/build/module_mha_fwd/build/include/ck_tile/core/arch/amd_buffer_addressing.hpp:891:7: "
     "error: invalid operand for instruction", ("aiter.arch-unsupported", None)),
    # lag
    ("xformers doesn't support the newest pytorch yet, you have to build it yourself", ("xformers.built-for-other-torch", "xformers")),
    ("ImportError: DLL load failed while importing _multiarray_umath: The specified module could not be found.\n"
     "When I start with --disable-xformers it loads fine", ("xformers.built-for-other-torch", "xformers")),
    # toonew
    ("NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:\n"
     "     query       : shape=(2, 4096, 16, 64) (torch.bfloat16)\n"
     "`cutlassF-pt` is not supported because:\n"
     "    requires device with capability <= (9, 0) but your GPU has capability (12, 0) (too new)\n"
     "`fa2F@2.8.3` is not supported because:\n"
     "    operator wasn't built - see `python -m xformers.info` for more info", ("xformers.no-operator", "xformers")),
    # range
    ("The eager attention path in fp16 gives NaN: the logits go out of the range of float16 for long prompts",
     ("attn.fp16-overflow", None)),
    # recompile
    ("Using flex_attention with packed sequences, torch.compile recompiles for every new sequence length",
     ("flex.recompiles-per-length", "flex")),
    # mask4d
    ("mask passed to the model has shape [2, 1, 256, 256]\n"
     "RuntimeError: The size of tensor a (256) must match the size of tensor b (65536) at non-singleton dimension 3",
     ("attn.mask-4d-as-padding-mask", None)),
    # blocked
    # (the first that can be a cause: explain lists import.blocked-in-sys-modules, a symptom, above it since helper ex176)
    ("ModuleNotFoundError: import of sageattention halted; None in sys.modules", ("import.failed", "sage")),
    # partition
    ("torch.nn.functional.scaled_dot_product_attention on xpu: partition compile failed for fp16 with a 2D mask",
     ("sdpa.xpu-partition-compile", "sdpa")),
    # gemm
    ("On MI300X, SDPA is 3x below the GPU's peak while the GEMMs run at 80%", ("prose.slow", "sdpa")),
    # wrapper
    ("WARNING dispatch.py:301: xformers not installed, skipping xformers wrapper registration.\n"
     "ImportError: cannot import name 'xformers_attention_wrapper' from 'myapp.attn.dispatch' (/srv/myapp/attn/dispatch.py)",
     ("app.backend-wrapper-skipped", "xformers")),
    # qkv4d
    ("  File \"/opt/venv/lib/python3.11/site-packages/torch/nn/functional.py\", line 5401, in scaled_dot_product_attention\n"
     "    return torch._C._nn.scaled_dot_product_attention(query, key, value, attn_mask, dropout_p, is_causal)\n"
     "IndexError: Dimension out of range (expected to be in range of [-3, 2], but got 3)", ("attn.qkv-not-4d", "sdpa")),
])
def test_round85m_mechanism_variants(text, want):
    assert first_cause(text) == want, ids(text)


@pytest.mark.parametrize("text, never", [
    # gdb: a backtrace in torch's own library is no attention library's crash
    ("Segmentation fault (core dumped)\n#0  0x00007f1b2c3d4e5f in at::native::vectorized_elementwise_kernel () from "
     "/opt/conda/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so", "attn.native-crash"),
    # nan: an fp16 VAE's NaN, no attention library named
    ("The fp16 VAE may produce NaN values in the decoder; run with --no-half-vae", "attn.nan-output"),
    # CUTLASS's GEMM op is not xformers'
    ("CUTLASS scaled_mm op can return NaN values for fp8 inputs with a zero scale", "attn.nan-output"),
    # kernel: "wrong" as a choice
    ("The decode kernel is the wrong choice for prefill-heavy batches; use the prefill path", "attn.wrong-output"),
    # recompile: recompiles without FlexAttention
    ("torch.compile recompiles every time the input size changes in my ResNet; mark_dynamic helps", "flex.recompiles-per-length"),
    # mask4d: a plain broadcast mismatch, no squared length
    ("RuntimeError: The size of tensor a (1024) must match the size of tensor b (2048) at non-singleton dimension 3",
     "attn.mask-4d-as-padding-mask"),
    # mask: a runtime error is no slowness
    ("sdpa fails with a runtime error when the attention mask is bool on xpu", "sdpa.mask-not-flash"),
    # lag: a DLL load failure that stays after disabling xformers
    ("ImportError: DLL load failed while importing _C: The specified module could not be found.\n"
     "With --disable-xformers I still get the same error", "xformers.built-for-other-torch"),
    # blocked: another library's blocked import is not attention's
    ("ModuleNotFoundError: import of numpy halted; None in sys.modules", "import.blocked-in-sys-modules"),
    # qkv4d: a 3-D tensor transposed in a model's own code, no attention named
    ("  File \"/app/model/resnet.py\", line 88, in forward\n    x = x.transpose(2, 3)\n"
     "IndexError: Dimension out of range (expected to be in range of [-3, 2], but got 3)", "attn.qkv-not-4d"),
    # wrapper: an app's own ImportError with no skipped backend logged
    ("ImportError: cannot import name 'load_lora' from 'myapp.utils' (/srv/myapp/utils.py)", "app.backend-wrapper-skipped"),
    # lag: a command line that already passes --disable-xformers under a DLL load failure is no cure
    ("ImportError: DLL load failed while importing cv2: The specified module could not be found.\n"
     ".\\python_embeded\\python.exe -s ComfyUI\\main.py --windows-standalone-build --disable-xformers",
     "xformers.built-for-other-torch"),
    # drift: FlexAttention's Triton is torch's pin, not a kernel written for another release
    ("Triton 3.3 breaks flex attention kernels on sm_120", "triton.kernel-version-drift"),
    # target: another compiler's unsupported option
    ("clang: error: unsupported option '--offload-arch=gfx906' for target 'x86_64-unknown-linux-gnu'", "triton.unknown-arch"),
])
def test_round85m_near_misses(text, never):
    assert never not in ids(text), ids(text)


def test_a_blocked_import_is_explained_beside_the_import_failure():
    # blocked: both readings of the error line stay; since helper ex176 (session 30) the specific one first (why: the program set
    # sys.modules[name] = None), the catch-all import.failed after it (round 109m labels d8ahazard/sd_dreambooth_extension#1094 so;
    # round 17's forge#152 relabelled to accept it beside import.failed)
    found = ids("Traceback (most recent call last):\n  File \"/opt/webui/modules/sd_hijack_optimizations.py\", line 13, in <module>\n"
                "    import xformers.ops\nModuleNotFoundError: import of xformers halted; None in sys.modules")
    assert found[:2] == ["import.blocked-in-sys-modules", "import.failed"], found
