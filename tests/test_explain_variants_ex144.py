"""Platforms whose fix is not CUDA's (helper ex144, session 24; issue 23; the forks' Left list in
benchmarks/results/explain-source-messages-forks.md): a vendor library's own API that raises FlashAttention's words
(AITER's MHA on ROCm, Moore Threads' mate on MUSA: attribution.toml [[vendor_library]]), the Moore Threads platform
(accelerators.toml [[platform]] musa) and torch_npu's fused attention's own argument checks (npu.fusion-attention-args,
npu.fusion-attention-cann). Variants of our own, written from the sources' file:line cited in the data; each failed at
s24start (69139402): read as fa2 (or fa3, sage), with CUDA's fix, or read as nothing."""

from __future__ import annotations

import pytest

from attn_doctor.explain import match
from test_explain_variants_ex82 import CUDA_ONLY  # a fix step only a CUDA machine can take (one definition)

SITE = "/opt/venv/lib/python3.12/site-packages/"


def _frame(path: str, line: int, func: str, code: str) -> str:
    return f'  File "{SITE}{path}", line {line}, in {func}\n    {code}\n'


AITER_MHA = _frame("aiter/ops/mha.py", 1790, "_flash_attn_forward", "out, softmax_lse, S_dmask, rng_state = mha_fwd(")
MATE_MHA = _frame("mate/mha_interface.py", 210, "_flash_attn_forward", "raise ValueError(")

# (text, entry, the library the finding names, the platform whose fix it gets)
VENDOR = [
    ("Traceback (most recent call last):\n" + _frame("app/run.py", 40, "<module>", "out = aiter.flash_attn_func(q, k, v)")
     + AITER_MHA + "RuntimeError: FlashAttention only support fp16 and bf16 data type", "fa2.dtype", "aiter"),
    # the call on a user's code line only (a traceback cut above aiter's own frames)
    ("Traceback (most recent call last):\n" + _frame("srv/attn.py", 12, "forward", "o = aiter.flash_attn_varlen_func(q, k, v, cu, cu, 512, 512)")
     + "RuntimeError: FlashAttention only supports Ampere GPUs or newer.", None, "aiter"),
    # torch's C++ error: "Exception raised from <function> at <file>" under the message names aiter's C++ front end
    ("RuntimeError: FlashAttention only support fp16 and bf16 data type\nException raised from mha_fwd at "
     "/aiter/csrc/py_itfs_ck/mha_fwd_kernels.cu:97 (most recent call first):", "fa2.dtype", "aiter"),
    ("Traceback (most recent call last):\n" + MATE_MHA + "ValueError: FlashAttention only support fp16 and bf16 data type",
     "fa2.dtype", "mate"),
]


@pytest.mark.parametrize("text,entry,library", VENDOR)
def test_vendor_library_raises_backend_words(text, entry, library):
    found = match(text)
    assert found, "explain found nothing"
    top = found[0]
    assert entry is None or top.entry.id == entry, top.entry.id
    assert top.backend is None, top.backend  # none of the seven
    assert top.named_by is not None and top.named_by.backend == library
    assert {"aiter": "AITER", "mate": "mate"}[library] in top.title


# flash_attn's own frames calling AITER's Triton kernels (flash-attn's AMD Triton backend), or no vendor frame: fa2's still
VENDOR_NEAR = [
    "Traceback (most recent call last):\n" + _frame("flash_attn/flash_attn_interface.py", 91, "_flash_attn_forward",
                                                    "out, softmax_lse, S_dmask, rng_state = flash_attn_gpu.fwd(")
    + _frame("aiter/ops/triton/_triton_kernels/flash_attn_triton_amd/interface_v2.py", 120, "fwd", "raise ...")
    + AITER_MHA + "RuntimeError: FlashAttention only support fp16 and bf16 data type",
    "Traceback (most recent call last):\n" + _frame("flash_attn/flash_attn_interface.py", 91, "_flash_attn_forward",
                                                    "out, softmax_lse, S_dmask, rng_state = flash_attn_gpu.fwd(")
    + "RuntimeError: FlashAttention only support fp16 and bf16 data type\nROCm 6.4, gfx942",
    # aiter named in prose far from the message (not its traceback): the user's flash_attn
    "I tried aiter's benchmark earlier, that works.\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n"
    "RuntimeError: FlashAttention only support fp16 and bf16 data type",
]


@pytest.mark.parametrize("text", VENDOR_NEAR)
def test_flash_attns_own_call_stays_fa2(text):
    found = match(text)
    assert found and found[0].backend == "fa2", [(m.entry.id, m.backend) for m in found]


@pytest.mark.parametrize("text,entry", [
    # flash-attn's CUDA build on a Moore Threads machine: no build there, not a missing nvcc
    ("torch 2.5.0, torch_musa 2.1.0 on MTT S4000\nfatal error: nvcc not found\nerror: Failed building wheel for flash-attn",
     "fa2.platform-unsupported"),
    ("torch_musa 2.0 (MTT S80)\nModuleNotFoundError: No module named 'flash_attn'", "fa2.platform-unsupported"),
])
def test_no_cuda_fix_on_musa(text, entry):
    found = match(text)
    assert found and found[0].entry.id == entry, [(m.entry.id, m.backend) for m in found]
    for m in found:
        assert not CUDA_ONLY.search(m.fix or ""), (m.entry.id, m.fix)


@pytest.mark.parametrize("text,entry", [
    # Ascend/op-plugin@517f2e7d FlashAttentionKernelNpuOpApi.cpp (variants: other values, a trailing error code, a frame)
    ("RuntimeError: The input_layout should be BSH/SBH/BNSD/BSND/TND(case-insensitive), but got BHSD\n"
     "[ERROR] 2026-11-02-10:11:12 (PID:4412, Device:0, RankID:-1) ERR01002 OPS invalid parameter", "npu.fusion-attention-args"),
    ("RuntimeError: The sparse_mode value must be in range of [0,5) or (5,8], but got 9", "npu.fusion-attention-args"),
    ("E   RuntimeError: The keep_prob value must be in range of (0, 1], but got 0.0", "npu.fusion-attention-args"),
    ("RuntimeError: The shapes of the input query should be 3 or 4 dimensional, but got 5-dimensional", "npu.fusion-attention-args"),
    ("RuntimeError: head_num must > 0, but got 0", "npu.fusion-attention-args"),
    ("RuntimeError: the size of actual_seq_qlen and actual_seq_kvlen must be the same and cannot be empty.",
     "npu.fusion-attention-args"),
    ("RuntimeError: npu_fusion_attention_v3_out with workspace currently only supports TND layout. Got layout: BSND.",
     "npu.fusion-attention-args"),
    ('  File "/usr/lib/python3/site-packages/transformers/integrations/npu_flash_attention.py", line 31, in <module>\n'
     "ValueError: Environment variable `NPU_FA2_SPARSE_MODE` can only be set as 2 (top-left aligned causal mask) or 3 "
     "(down-right aligned causal mask).", "npu.fusion-attention-args"),
    ("RuntimeError: The param sink is not supported in this CANN version, aclnnFlashAttentionVarLenScoreV5 is not available",
     "npu.fusion-attention-cann"),
    ("RuntimeError: Interface npu_incre_flash_attention is no longer supported on Ascend950.", "npu.fusion-attention-cann"),
])
def test_npu_fused_attention_own_checks(text, entry):
    found = match(text)
    assert found and found[0].entry.id == entry, [(m.entry.id, m.backend) for m in found]
    assert found[0].backend is None  # the NPU's attention, never FA2


@pytest.mark.parametrize("text", [
    "the input_layout of the tokenizer config is empty string by default",  # no op's check
    "RuntimeError: sparse_mode must be one of dense, block",
    "head_num must be set in the config",
])
def test_npu_near_misses(text):
    assert not any(m.entry.id.startswith("npu.fusion-attention") for m in match(text))


# fa2.missing where the text shows flash_attn installed: the title must not say it is not installed ([[line_variant]] near)
INSTALLED = [
    "I have flash-attn installed but\nModuleNotFoundError: No module named 'flash_attn'",
    "flash_attn 2.7.4 is already installed.\nTraceback (most recent call last):\n  File \"run.py\", line 3, in <module>\n"
    "    import flash_attn\nModuleNotFoundError: No module named 'flash_attn'",
    "$ pip show flash_attn\nName: flash_attn\nVersion: 2.7.4.post1\n$ python app.py\nModuleNotFoundError: No module named 'flash_attn'",
    "Requirement already satisfied: flash-attn in /opt/conda/lib/python3.10/site-packages (2.6.3)\n"
    "ModuleNotFoundError: No module named 'flash_attn'",
    "我已经安装了 flash_attn 2.7.4\nModuleNotFoundError: No module named 'flash_attn'",
    # transformers' check_imports under the writer's pip show (fa2.missing, not transformers.backend-unavailable's "not installed")
    "pip show flash_attn shows 2.7.4, yet:\nImportError: This modeling file requires the following packages that were not found "
    "in your environment: flash_attn. Run `pip install flash_attn`",
]


@pytest.mark.parametrize("text", INSTALLED)
def test_fa2_missing_where_installed_says_so(text):
    found = match(text)
    assert found and found[0].entry.id == "fa2.missing", [(m.entry.id, m.backend) for m in found]
    assert "not installed" not in found[0].title and "is installed" in found[0].title, found[0].title
    assert "import flash_attn" in (found[0].fix or "")


@pytest.mark.parametrize("text", [
    "ModuleNotFoundError: No module named 'flash_attn'",
    "If flash_attn is installed, the model uses it.\nModuleNotFoundError: No module named 'flash_attn'",
    "flash-attn is not installed here.\nModuleNotFoundError: No module named 'flash_attn'",
    "I have torch installed but\nModuleNotFoundError: No module named 'flash_attn'",
])
def test_fa2_missing_keeps_its_title(text):
    found = match(text)
    assert found and found[0].entry.id == "fa2.missing"
    assert "neither" in found[0].title, found[0].title


# rev23's broad matches, narrowed (each read by the entry at s24start)
BROAD_NEAR = [
    ("Training with sdpa and a 4d attention mask runs out of memory at seq 32k while throughput at 8k is fine", "sdpa.mask-not-flash"),
    ("sdpa 4D mask causes OOM at long context, runtime memory explodes", "sdpa.mask-not-flash"),
    ("KeyError: ('causal', None)", "flex.block-mask-not-initialized"),
    ("Traceback (most recent call last):\n  File \"/app/cache.py\", line 12, in get\n    return self.store[key]\n"
     "KeyError: ('causal', None)", "flex.block-mask-not-initialized"),
    ("Traceback (most recent call last):\n" + _frame("transformers/modeling_utils.py", 1402, "_check_and_enable_sdpa",
                                                    "if not is_torch_sdpa_available():")
     + _frame("transformers/utils/import_utils.py", 310, "is_torch_sdpa_available",
              "return version.parse(_torch_version) >= version.parse(\"2.1.1\")")
     + "TypeError: '>=' not supported between instances of 'NoneType' and 'Version'", "transformers.attn-impl-unsupported"),
    (_frame("transformers/modeling_utils.py", 1563, "_check_and_enable_flash_attn_2", "torch.empty(1, device=\"cuda\")")
     + "RuntimeError: CUDA error: no kernel image is available for execution on the device", "transformers.attn-impl-unsupported"),
]


@pytest.mark.parametrize("text,absent", BROAD_NEAR)
def test_broad_matches_narrowed(text, absent):
    assert absent not in [m.entry.id for m in match(text)]


@pytest.mark.parametrize("text,entry", [
    ("Passing a boolean attn_mask to scaled_dot_product_attention makes the step 3x slower than is_causal=True", "sdpa.mask-not-flash"),
    ("[rank3]:   File \"/opt/titan/torchtitan/models/attention.py\", line 88, in forward\n[rank3]:     mask = self.masks[self.mask_key]\n"
     "[rank3]: KeyError: ('causal', None)", "flex.block-mask-not-initialized"),
    ("KeyError: ('block_causal', None)\n(raised when the trainer called FlexAttention without building the block mask)",
     "flex.block-mask-not-initialized"),
    ("Traceback (most recent call last):\n" + _frame("transformers/modeling_utils.py", 1563, "_check_and_enable_flash_attn_2",
                                                    "raise ValueError(") + "ValueError", "transformers.attn-impl-unsupported"),
    (_frame("transformers/modeling_utils.py", 1563, "_check_and_enable_flash_attn_2", "raise ValueError("),
     "transformers.attn-impl-unsupported"),
])
def test_broad_entries_still_read(text, entry):
    found = match(text)
    assert found and found[0].entry.id == entry, [(m.entry.id, m.backend) for m in found]


# SGLang's attention-backend factories (sgl-project/sglang python/sglang/srt/layers/attention/attention_registry.py@00a66ebe):
# the engine's backend refusing the model, read as the engine's backend choice (vllm.backend-fallback, no backend of the seven)
@pytest.mark.parametrize("text", [
    "ValueError: trtllm_mla backend can only be used with MLA models.",
    "ValueError: trtllm_mha backend can only be used with non-MLA models.",
    "AssertionError: hybrid_linear_attn backend can only be used with hybrid GDN models.",
    "AssertionError: Cross attention is not supported in the triton attention backend. Please use `--attention-backend flashinfer`.",
    "AssertionError: FlashAttention v4 Support is at an early stage, only MLA model supported now",
])
def test_sglang_backend_factories(text):
    found = match(text)
    assert found and found[0].entry.id == "vllm.backend-fallback", [(m.entry.id, m.backend) for m in found]


def test_sglang_near_miss():
    assert "vllm.backend-fallback" not in [m.entry.id for m in match("The new backend can only be used with MLA models, said the docs.")]
