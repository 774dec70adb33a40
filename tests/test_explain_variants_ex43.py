"""Variants for the attribution and ranking mechanisms of session 7's helper ex43 (issue 23: in-sample texts matched with the
wrong backend; benchmarks/results/residual-backend-s7.md). Every text was written by hand from the mechanism, NOT copied
from a thread: other paths, versions, models, wrappers and wordings. Near misses beside each say what must NOT happen.

  helper     attribution.toml [[evidence_backend]] transformers.helper-moved: the moved helper's integration names the backend
             (rule R1: FlashAttention helpers fa2, integrations.sdpa_attention sdpa, the registry none)
  te-none    [never] te.no-backend: TransformerEngine found no backend; its debug lines name FA2/FA3 as disabled
  json-inv   [inventory]: a JSON / dict dependency list is no evidence of what failed
  dsl        [dsl_kernel]: the CuTe DSL's messages from another CuTe DSL program's kernel (FlashInfer's cute_dsl, a CUTLASS
             example, a GEMM) and nothing of FA4: no backend
  notice     [[evidence_backend]] + [[specialize]] app.attention-libraries-absent: a single library's "No module 'X'.
             Proceeding without it." as a report's title is that library's not-installed (rule R2)
  triton     [own_if_named] flex.triton-broken: a Triton that does not import, named by no backend, is no backend's
  cpu-torch  [[library]] none: torch's "Torch not compiled with CUDA enabled" is torch's own, whatever library below says it
             has no GPU either (a foreign library's line no longer makes explain drop it)
  vendor     [[library]] other: a vendor's own attention operator named with its vendor (oneDNN's / OpenVINO's SDPA), and
             FlashAttention ports packaged on their own (flash-attention-v100, FlashAttnV100Patcher)
  also-own   attribution.attribute: a sentence (not the error's own line) that names the entry's own backend as well as
             another (by name, not a file) does not take the entry to the other
"""

from __future__ import annotations

import pytest

from explain_top import first, ids, tb


# ---- helper ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ("ImportError: cannot import name 'is_flash_attn_greater_or_equal_2_10' from 'transformers.utils' "
     "(/opt/venv/lib/python3.10/site-packages/transformers/utils/__init__.py)", "fa2"),
    ("AttributeError: 'MistralFlashAttention2' object has no attribute '_flash_attention_forward'", "fa2"),
    ("AttributeError: module 'transformers.models.llama.modeling_llama' has no attribute '_get_unpad_data'", "fa2"),
    ("Running the trainer with attn_implementation=sdpa\n  File \"/srv/rl/patch.py\", line 4, in <module>\n"
     "    from transformers.modeling_flash_attention_utils import _upad_input\n"
     "ImportError: cannot import name '_upad_input' from 'transformers.modeling_flash_attention_utils'", "fa2"),
    ("ModuleNotFoundError: No module named 'transformers.integrations.sdpa_attention'", "sdpa"),
    ("ModuleNotFoundError: No module named 'transformers.integrations.flex_attention'", "flex"),
])
def test_helper_backend(text, backend):
    assert first(text) == ("transformers.helper-moved", backend)


@pytest.mark.parametrize("text", [
    # the registry is no backend's integration: no backend, whatever the sentence around it names
    "ImportError: cannot import name 'ALL_ATTENTION_FUNCTIONS' from 'transformers.modeling_utils'",
    "I run with flash-attn 2.8.3 and get\nImportError: cannot import name 'AttentionInterface' from 'transformers'",
])
def test_helper_registry_has_no_backend(text):
    assert first(text) == ("transformers.helper-moved", None)


# ---- te-none --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "DEBUG:DotProductAttention:Running with config={'transformer_engine_version': '2.9.0', 'flash_attn_version': '2.8.1', "
    "'flash_attn_3_version': '3.0.0b1'}\nDEBUG:DotProductAttention:Disabling FlashAttention 3 for softmax_type = learnable\n"
    "ValueError: No dot product attention backend is available for the provided inputs.",
    "[GB200] No dot product attention backend is available for the provided inputs\n\nThe log says FlashAttention 2 "
    "is disabled because of MLA and FusedAttention has no support for head_dim 192.",
])
def test_te_no_backend_names_none(text):
    assert first(text) == ("te.no-backend", None)


# ---- json-inv -------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    '### Python dependencies\n{\n  "accelerate": "1.2.1",\n  "torch": "2.5.1+cu124",\n  "xformers": "0.0.29.post1"\n}\n'
    "Error while invoking session: CUDA error: no kernel image is available for execution on the device",
    "deps = {\n    'sageattention': '2.1.1',\n    'torch': '2.6.0',\n}\n"
    "RuntimeError: CUDA error: no kernel image is available for execution on the device",
])
def test_json_inventory_names_nothing(text):
    assert first(text) == ("gpu.arch-not-in-torch", None)


def test_json_line_that_is_a_message_still_names():
    # near miss: a JSON log record whose message is the error names its backend (not "name": "version")
    text = '{"level": "error", "msg": "xformers: no kernel image is available for execution on the device"}'
    assert first(text)[1] == "xformers"


# ---- dsl ------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "FAILED tests/attention/test_cute_dsl_mla_decode.py::test_decode[128] - AttributeError: module 'cutlass.cute.nvgpu."
    "tcgen05' has no attribute 'SmemLayoutAtomKind'\n  /opt/flashinfer/flashinfer/cute_dsl/attention/mla/decode.py:212",
    "$ python examples/python/CuTeDSL/hopper/dense_gemm.py --mnk 4096,4096,4096\n"
    "cutlass.cute.nvgpu.common.OpError: OpError: expects arch to be one of ['sm_90a'], but got sm_120a",
])
def test_other_dsl_program_has_no_backend(text):
    found = first(text)
    assert found[0] is not None and found[0].startswith("cute.") and found[1] is None


@pytest.mark.parametrize("text", [
    # near misses: FA4 named beside the other program, or a bare DSL message: FA4's, as before
    "  File \"/venv/lib/python3.12/site-packages/flash_attn/cute/flash_fwd_sm100.py\", line 88, in __call__\n"
    "    tiled_mma = sm100_utils.make_trivial_tiled_mma(...)\n"
    "cutlass.cute.nvgpu.common.OpError: OpError: expects arch to be one of ['sm_100a', 'sm_100f'], but got sm_121a\n"
    "(the same tutorial_gemm example fails too)",
    "AttributeError: module 'cutlass.cute.nvgpu.cpasync' has no attribute 'CopyBulkTensorTileG2SMulticastOp'",
])
def test_fa4_or_bare_dsl_stays_cute(text):
    assert first(text)[1] == "cute"


# ---- notice ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,want", [
    ("No module 'xformers'. Proceeding without it.\n\nHow do I get xformers into the portable build?",
     ("xformers.not-installed", "xformers")),
    ("no module 'xformers'. proceeding without it\n\nIs this why generation is slow?", ("xformers.not-installed", "xformers")),
    ("No module 'sageattention'. Proceeding without it.\n\nThe node pack says sage is required.",
     ("sage.not-installed", "sage")),
])
def test_single_notice_as_title(text, want):
    assert first(text) == want


@pytest.mark.parametrize("text", [
    # near misses: the notice inside a start-up log (not the report's title), and a banner of several libraries
    "venv \"C:\\sd\\venv\\Scripts\\Python.exe\"\nPython 3.10.11\nVersion: v1.10.1\nLaunching Web UI with arguments: \n"
    "No module 'xformers'. Proceeding without it.\nLoading weights [6ce0161689] from C:\\sd\\models\\v1-5.safetensors",
    "Xformers is not installed!\nFlash Attn is not installed!\nSage Attn is not installed!\nNamespace(share=False)",
    # and the notice pasted alone: the line as printed, no report around it
    "No module 'flash_attn'. Proceeding without it.",
])
def test_notice_in_a_log_stays_a_notice(text):
    assert first(text) == ("app.attention-libraries-absent", None)


# ---- triton ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "ImportError: cannot import name 'AttrsDescriptor' from 'triton.backends.compiler' "
    "(D:\\ComfyUI\\python_embeded\\Lib\\site-packages\\triton\\backends\\compiler.py)",
    tb(("/usr/lib/python3.11/site-packages/torch/_inductor/codecache.py", 41, "<module>",
        "from torch._inductor.runtime.hints import DeviceProperties"),
       ("/usr/lib/python3.11/site-packages/torch/_inductor/runtime/hints.py", 36, "<module>",
        "attr_desc_fields = {f.name for f in fields(AttrsDescriptor)}"),
       error="TypeError: must be called with a dataclass type or instance"),
])
def test_triton_broken_named_by_nothing_is_none(text):
    assert first(text) == ("flex.triton-broken", None)


@pytest.mark.parametrize("text,backend", [
    # near misses: a backend named near it still takes it (FA2's Triton backend on ROCm; FlexAttention's own frame)
    ("flash-attn's AMD Triton backend fails: ImportError: cannot import name 'intel' from 'triton._C.libtriton'", "fa2"),
    (tb(("/app/model.py", 80, "forward", "out = flex_attention(q, k, v, block_mask=mask)"),
        ("/venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py", 1300, "flex_attention",
         "from triton.compiler.compiler import AttrsDescriptor"),
        error="ImportError: cannot import name 'AttrsDescriptor' from 'triton.compiler.compiler'"), "flex"),
])
def test_triton_broken_named_keeps_backend(text, backend):
    assert first(text) == ("flex.triton-broken", backend)


# ---- also-own -------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Please support head dim 320 in FlashAttention (FA2, FA3 or FA4).\n\nCurrent error:\n"
    "RuntimeError: FlashAttention forward only supports head dimension at most 256",
    "Request: larger head dims for flash-attn 2 and FA4\n```\nRuntimeError: FlashAttention only supports head dimensions "
    "up to 256\n```",
])
def test_line_naming_own_too_keeps_own(text):
    assert first(text) == ("fa2.head-dim", "fa2")


def test_line_naming_only_another_still_takes_over():
    # near miss: the nearest line names FA4 alone: FA4 takes FA2's message over, as before
    text = "Running FA4 (flash_attn.cute) on B200:\nRuntimeError: FlashAttention only supports head dimensions up to 256"
    assert first(text)[1] == "cute"


# ---- cpu-torch ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "AssertionError: Torch not compiled with CUDA enabled\n\nLog:\nThe installed version of bitsandbytes was compiled "
    "without GPU support. 8-bit optimizers and GPU quantization are unavailable.\nLoading model...",
    "[Bug] Torch not compiled with CUDA enabled after the 2.1 update\n\nmmcv/_ext is compiled without CUDA too, "
    "see the log\n",
])
def test_torch_cpu_build_is_torchs(text):
    assert first(text) == ("torch.cpu-build", None)


# ---- vendor ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "oneDNN Graph SDPA gives wrong output on Arc B580 for head size 256",
    "OpenVINO SDPA returns wrong results on the iGPU for Llama 3 after the 2025.2 update",
    "dnnl Graph SDPA returns wrong result on Arc A750 for some head sizes",
])
def test_vendor_sdpa_is_no_backend(text):
    assert first(text) == ("attn.wrong-output", None)


@pytest.mark.parametrize("text", [
    "flash_attn on my V100 through the node:\nTypeError: FlashAttnVoltaPatcher.patch.<locals>.attn() got an unexpected "
    "keyword argument 'transformer_options'",
    "Thanks for your flash-attn port.\nI use ComfyUI-Flash-Attention_v100 and get\nTypeError: v100_attention() got an "
    "unexpected keyword argument 'transformer_options'",
])
def test_fa_port_is_no_backend(text):
    assert first(text) == ("attn.api-mismatch", None)


@pytest.mark.parametrize("text,backend", [
    # near misses: SDPA on Intel's GPU through torch is SDPA's; a sentence about FlashAttention on V100 is FA2's refusal
    ("SDPA on XPU gives wrong result with GQA and a per-head mask (torch 2.9 xpu)", "sdpa"),
    ("TypeError: flash_attn_func() got an unexpected keyword argument 'transformer_options' (flash attention for V100 "
     "would be nice too)", "fa2"),
])
def test_vendor_near_misses_keep_backend(text, backend):
    assert first(text)[1] == backend
