"""Variants for round 10b (issue 23, helper ex10b): the mechanisms fixtures/errors/round10b/ (FA4 / CuTe DSL and
SageAttention 2/3 on Hopper and Blackwell) missed on main's rules.

Every case was written by hand for this round (2026-11-28) from the mechanism, NOT copied from a real thread:
another GPU, version, path, symbol or wording. Each positive case asserts the entry (one of a few acceptable
ids where two say the same) and the backend of the first problem that can be a failure's cause (None: no
backend of the seven); the near misses beside each mechanism assert what must NOT be claimed.

Mechanisms (knowledge file: entry or rule):
  wrong-out  attention.toml attn.wrong-output: a backend that produces/causes noise or garbage; black output that
             goes away once the backend is removed or disabled; low accuracy of SageAttention's quantized kernels
  old-gpu    backends.toml backend.unsupported-gpu: SageAttention's setup.py refusing a GPU below sm80; FA3 failing
             on a Blackwell told in a sentence; SageAttention 2 on a Turing/Pascal/Volta card; a regression
             ("not working anymore") is no unsupported GPU
  fa4-arch   cute.toml cute.arch: the CuTe DSL's arch check of an sm100 op on sm_120/sm_121; FA4 told to fail
             on (or asked about support for) a consumer or workstation Blackwell
  quack      cute.toml cute.dsl-drift: a quack helper the installed quack-kernels no longer has; a
             missing quack that another library says it requires is not FA4's drift
  fa4-ns     cute.toml cute.namespace-only: FA2 submodules (flash_attn.ops, .layers, ...) or transformers'
             flash_attention_2 asked of an FA4-only install
  sage3-api  sage.toml sage.api-mismatch: SageAttention 3's sageattn3_blackwell called by its old name, or a
             name sageattn3 does not export
  op-schema  attention.toml attn.api-mismatch: a torch custom op around an attention call, registered by another
             release of the node ("is missing value for argument", "Expected a value of type")
  arch-list  builds.toml build.setup-arch-unknown: SpargeAttn's setup.py refusing every TORCH_CUDA_ARCH_LIST arch
  vllm-fp8   frameworks.toml vllm.backend-fallback: vLLM's selector rejecting FLASH_ATTN for an fp8 KV cache
  no-wheel   builds.toml build.prebuilt-wheel-missing: an installer that finds no prebuilt wheel for this stack
  startup    frameworks.toml app.attention-libraries-absent: a node's start-up notice that sageattention is absent
  announce   attribution.toml [announcement]: transformers' "SDPA does not support output_attentions, falling back
             to eager" advisory is no evidence of whose a later error is
  fa4-cache  compile.toml cache.fa4-stale-kernel (new): FA4's persistent cache loading a kernel that does not fit
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids


@pytest.mark.parametrize("text,ids,backend", [
    # wrong-out
    ("SageAttention 2.1.1 gives pure noise on an H20 with Wan 2.1 at 1280x720", {"attn.wrong-output"}, "sage"),
    ("xformers 0.0.33 produces garbage frames in CogVideoX-5B on an RTX 5080", {"attn.wrong-output"}, "xformers"),
    ("Flux dev: the preview goes black at step 4 every time.\n\nI tried other samplers.\n"
     "Removing --use-sage-attention from the launch line fixes it.", {"attn.wrong-output", "attn.nan-output"}, "sage"),
    ("HunyuanVideo renders a black video on my 4090\nwithout sageattn (sdpa mode) it renders fine",
     {"attn.wrong-output", "attn.nan-output"}, "sage"),
    ("Low accuracy of sageattn_qk_int8_pv_fp16_cuda on an L40S compared with SDPA (max abs diff 0.4)",
     {"attn.wrong-output"}, "sage"),
    ("Poor precision from the qk int8 pv fp8 kernel on H800", {"attn.wrong-output"}, "sage"),
    # old-gpu
    ('Traceback (most recent call last):\n  File "C:\\AI\\SageAttention\\setup.py", line 102, in <module>\n'
     "    raise RuntimeError(\nRuntimeError: GPUs with compute capability below 8.0 are not supported.",
     {"backend.unsupported-gpu"}, "sage"),
    ("FA3 crashes on B200 in the backward, fa2 is fine", {"backend.unsupported-gpu"}, "fa3"),
    ("flash_attention_3 errors out with an unspecified launch failure on GB200", {"backend.unsupported-gpu"}, "fa3"),
    ("Sage Attention 2 doesn't work on my RTX 2070 Super anymore?", {"backend.unsupported-gpu"}, "sage"),
    ("SageAttention2.2 fails on Tesla T4 (Colab)", {"backend.unsupported-gpu"}, "sage"),
    # fa4-arch
    ("cutlass.cute.nvgpu.common.OpError: OpError: expects arch to be one of [Arch.sm_100a, Arch.sm_100f, "
     "Arch.sm_110a], but got Arch.sm_121a\nError Code: MmaF16BF16Op error", {"cute.arch"}, "cute"),
    ("flash-attn-4 4.0.0b15 fails on RTX 5090 (sm_120) in the first forward", {"cute.arch"}, "cute"),
    ("RTX PRO 6000 Blackwell + FA4: every test in tests/cute crashes", {"cute.arch"}, "cute"),
    ("[FA4] support for DGX Spark?", {"cute.arch"}, "cute"),
    # quack
    ("AttributeError: module 'quack.cute_dsl_utils' has no attribute 'ParamsBase'", {"cute.dsl-drift"}, "cute"),
    ('  File "/venv/lib/python3.12/site-packages/flash_attn/cute/flash_fwd_sm100.py", line 31, in <module>\n'
     "    import quack.activation\nModuleNotFoundError: No module named 'quack'", {"cute.dsl-drift"}, "cute"),
    # fa4-ns
    ("FA4 breaks sglang: No module named 'flash_attn.layers.rotary'", {"cute.namespace-only"}, "cute"),
    ("ModuleNotFoundError: No module named 'flash_attn.ops' although flash-attn-4 4.0.0b8 is installed",
     {"cute.namespace-only"}, "cute"),
    ("flash-attn-4 not recognized by attn_implementation='flash_attention_2' (transformers 5.5)",
     {"cute.namespace-only"}, "cute"),
    # sage3-api
    ("NameError: name 'sageattn_blackwell' is not defined", {"sage.api-mismatch"}, "sage"),
    ("AttributeError: module 'sageattn3.api' has no attribute 'sageattn3_varlen'", {"sage.api-mismatch"}, "sage"),
    # op-schema
    ("RuntimeError: comfy_ext::sageattn_qk() Expected a value of type 'int' for argument 'seq_len' but instead found "
     "type 'Tensor'.", {"attn.api-mismatch"}, "sage"),
    ("RuntimeError: videonode::sageattn_varlen() is missing value for argument 'k_lens'. Declaration: "
     "videonode::sageattn_varlen(Tensor q, Tensor k, Tensor v, Tensor q_lens, Tensor k_lens) -> Tensor",
     {"attn.api-mismatch"}, "sage"),
    # arch-list
    ('  File "/home/u/src/SpargeAttn/setup.py", line 112, in get_torch_arch_list\n    raise RuntimeError(\n'
     "RuntimeError: None of the CUDA architectures in `TORCH_CUDA_ARCH_LIST` env variable (12.1) is supported. "
     "Supported CUDA architectures are: {'8.0', '8.6', '8.9', '9.0'}.", {"build.setup-arch-unknown"}, "sage"),
    # vllm-fp8
    ("(EngineCore_DP0 pid=88) DEBUG 08-30 10:00:00 [selector.py:150] FLASH_ATTN rejected: "
     "FP8 KV cache requires FA3 on SM90 or FA4 on SM100", {"vllm.backend-fallback"}, None),
    ("rejected p2 TRITON_ATTN ['sink not supported']", {"vllm.backend-fallback"}, None),
    # no-wheel
    ("ERROR: No matching wheel for SageAttention 2.2 (torch 2.9.1, cu130, cp313). Install a CUDA toolkit to build it.",
     {"build.prebuilt-wheel-missing"}, "sage"),
    # fa4-cache
    ("FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED=1 FLASH_ATTENTION_CUTE_DSL_CACHE_DIR=/shared/fa4 torchrun train.py\n"
     "...\n[rank5]: RuntimeError: CUDA Error: cudaErrorInvalidDeviceFunction", {"cache.fa4-stale-kernel"}, "cute"),
    ("  File \"/usr/lib/python3/site-packages/flash_attn/cute/interface.py\", line 640, in _flash_attn_fwd\n"
     "    _flash_attn_fwd.compile_cache[compile_key](\nRuntimeError: CUDA Error: cudaErrorInvalidDeviceFunction",
     {"cache.fa4-stale-kernel"}, "cute"),
    # fp4-missing: SageAttention 3's extension not built
    ("  File \"/opt/venv/lib/python3.12/site-packages/sageattn3/api.py\", line 17, in <module>\n"
     "    import fp4attn_cuda\nModuleNotFoundError: No module named 'fp4attn_cuda'", {"sage.not-installed"}, "sage"),
    # sage3-import: a name the installed sageattn3 does not export
    ("ImportError: cannot import name 'sageattn3_blackwell' from 'sageattn3' "
     "(/home/u/comfy/.venv/lib/python3.11/site-packages/sageattn3/__init__.py)", {"sage.api-mismatch"}, "sage"),
    # fake-storage: FA4's kernel traced under torch.compile
    ("  File \"/usr/local/lib/python3.12/dist-packages/flash_attn/cute/interface.py\", line 511, in _flash_attn_fwd\n"
     "    q_tensor = from_dlpack(q.detach(), assumed_align=16)\n"
     "RuntimeError: Cannot access data pointer of Tensor that doesn't have storage", {"compile.backend-untraceable"},
     "cute"),
    # fa4-unpack: FA4's private forward returns another tuple than the caller expects
    ("    out, lse, _ = _flash_attn_fwd(q, k, v, softmax_scale=scale, causal=True)\n"
     "ValueError: not enough values to unpack (expected 3, got 2)", {"attn.return-value"}, "cute"),
    # fa4-absent: the prose of a wrapper that wants FA4
    ("AssertionError: flash-attn-4 is not installed; pip install flash-attn-4 or pick another backend",
     {"cute.import-name"}, "cute"),
    # noise: Sage 3 picked and the video is noise
    ("Using sage attention mode: sageattn3\n100%|##########| 8/8\nthe output video is pure noise", {"attn.wrong-output"},
     "sage"),
    # b-only: Sage 3's own check on a pre-Blackwell card
    ("  File \"/app/sageattn3/api.py\", line 60, in sageattn3_blackwell\n"
     "RuntimeError: SageAttention3 only supports Blackwell GPUs or newer.", {"backend.unsupported-gpu"}, "sage"),
])
def test_mechanism(text, ids, backend):
    got = _top(text)
    assert got[0] in ids and got[1] == backend, got


@pytest.mark.parametrize("text,absent", [
    # wrong-out: black-and-white by design, a model id, a low accuracy nobody ties to Sage's kernels
    ("The photo style is black and white; without xformers it takes twice as long", "attn.wrong-output"),
    ("loading black-forest-labs/FLUX.1-dev without xformers (not installed)", "attn.wrong-output"),
    ("Low accuracy on my eval set after switching to flash attention", "attn.wrong-output"),
    # old-gpu: a regression is not an unsupported GPU; SageAttention 2 working on an old card is no failure
    ("RTX 5090 + xformers not working anymore after the update", "backend.unsupported-gpu"),
    ("Sage Attention 2 runs fine on my RTX 2080 Ti with the Triton kernels", "backend.unsupported-gpu"),
    # fa4-arch: FA4 working on a consumer card, FA4 failing on a datacenter Blackwell it supports
    ("FA4 runs fine on an RTX 5090 since 4.0.0b30", "cute.arch"),
    ("FA4 on B200 fails with head_dim 256 in the backward", "cute.arch"),
    # quack: FlashInfer saying it is the one that requires quack
    ("E   ModuleNotFoundError: No module named 'quack'\n\nThe above exception was the direct cause of the following "
     "exception:\nE   ImportError: The sparse attention (blk128) backend requires the `quack` package from "
     "https://github.com/Dao-AILab/quack.", "cute.dsl-drift"),
    # fa4-ns: an FA2 install missing its ops with no FA4 in sight
    ("ModuleNotFoundError: No module named 'flash_attn.ops'", "cute.namespace-only"),
    # sage3-api: another sage name left undefined stays the import guard's
    ("NameError: name 'sageattn' is not defined", "sage.api-mismatch"),
    # op-schema: a torch op that is no attention call
    ("RuntimeError: mylib::fused_rmsnorm() is missing value for argument 'eps'", "attn.api-mismatch"),
    # fa4-cache: a bare invalid device function is no cache's
    ("RuntimeError: CUDA Error: cudaErrorInvalidDeviceFunction", "cache.fa4-stale-kernel"),
    # vllm-fp8: a user's sentence about rejection
    ("my PR was rejected by the maintainers", "vllm.backend-fallback"),
    # one word off the real selector line: rejected by a user's own code, not vLLM's selector
    ("DEBUG [my_selector.py:150] cache rejected: FP8 KV cache requires more memory", "vllm.backend-fallback"),
    # noise: a GAN's noise is no attention backend's
    ("after 10 epochs the GAN output is pure noise", "attn.wrong-output"),
    # fa4-unpack: FA2's own varlen forward keeps its unpack rule
    ("  File \"/x/flash_attn/flash_attn_interface.py\", line 90, in _flash_attn_varlen_forward\n"
     "    out, q, k, v, out_padded, softmax_lse, S_dmask, rng_state = flash_attn_cuda.varlen_fwd(\n"
     "ValueError: too many values to unpack (expected 8)", "attn.return-value"),
    # fake-storage: a sparse tensor's missing storage, no trace and no backend
    ("RuntimeError: Cannot access storage of SparseTensorImpl", "compile.backend-untraceable"),
    # b-only: another library's FP4 quantiser with the same words is no SageAttention 3 check
    ("RuntimeError: FP4Quant only supports Blackwell GPUs or newer.", None),
    # fa4-name: a Triton tutorial's own _flash_attn_fwd is no FA4
    ("  File \"/home/u/kernels/attn.py\", line 88, in forward\n    o = _flash_attn_fwd(q, k, v, bias, causal, sm_scale)\n"
     "  File \"/home/u/kernels/attn.py\", line 40, in _flash_attn_fwd\n    _fwd_kernel[grid](\n"
     "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 262144, Hardware limit: 232448", None),
    # fa4-absent: an FA4 that is installed
    ("flash-attn-4 is installed and FA4 runs on the H100", "cute.import-name"),
    # one word off the wrapper's message: installed, not "not installed"
    ("INFO: flash-attn-4 is installed; using the fa4 attention backend", "cute.import-name"),
])
def test_near_miss(text, absent):
    if absent is None:  # a backend that must not be claimed
        assert _top(text)[1] not in ("sage", "cute"), _top(text)
        return
    assert absent not in _ids(text)


def test_startup_notice_is_no_missing_sage():
    # startup: a node's notice at start-up reads as an optional library the app did not find ...
    notice = ("2026-02-02T09:00:00.000000 - Warning: Could not load sageattention: No module named 'sageattention'\n"
              "2026-02-02T09:00:00.000000 - sageattention package is not installed, sageattention will not be available")
    assert _ids(notice) == ["app.attention-libraries-absent"]
    # ... while a node that needs it and fails to import it still is
    assert _top("Can't import SageAttention: No module named 'sageattention'") == ("sage.not-installed", "sage")


def test_transformers_sdpa_advisory_is_no_evidence():
    # announce: the advisory sits between a title's error and the SageAttention that ran
    text = ("LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.shfl.sync.bfly.i32\n\nRTX 5070 Ti\n\n"
            "`torch.nn.functional.scaled_dot_product_attention` does not support `output_attentions=True`. "
            "Falling back to eager attention. This warning can be removed using the argument "
            "`attn_implementation=\"eager\"` when loading the model.\n"
            "  0%|          | 0/20 [00:00<?, ?it/s]using SageAttention\n"
            "'sm_120' is not a recognized processor for this target (ignoring processor)")
    assert _top(text)[1] == "sage"
