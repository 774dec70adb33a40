"""`explain` on the mechanisms of knowledge/frameworks.toml and the patterns and attribution rules widened
with them (issue 23, round 4b: texts from the trainers' and UIs' trackers in fixtures/errors/round4b,
captured 2026-11-25 by the ex4b helper). Every case is a variant written here: other paths, versions,
GPUs, symbols, libraries and wrappers than the real texts and the entries' examples, so a rule fitted
to one sample fails. The near misses must stay silent or keep their own entry.
"""

from __future__ import annotations

import pytest

from attn_doctor.explain import match


def top(text):
    found = match(text)
    return (found[0].entry.id, found[0].backend) if found else (None, None)


def ids(text):
    return [m.entry.id for m in match(text)]


# ---- a model's own fp16/bf16 assert before it calls flash-attn -----------------------------------------

@pytest.mark.parametrize("text", [
    "  File \"/root/.cache/huggingface/modules/transformers_modules/Qwen-14B-Chat/modeling_qwen.py\", line 187, in forward\n"
    "    assert all((i.dtype in [torch.float16, torch.bfloat16] for i in (q, k, v)))\nAssertionError",
    "[rank2]:     assert all(x.dtype in [torch.half, torch.bfloat16] for x in (query, key, value))\n[rank2]: AssertionError",
])
def test_a_models_half_precision_assert_is_fa2_dtype(text):
    assert top(text) == ("fa2.dtype", "fa2")


@pytest.mark.parametrize("text", [
    "    assert x.dtype in [torch.float16, torch.bfloat16]\nAssertionError",          # no q, k, v: any kernel's guard
    "    assert all(w.dtype in [torch.float16, torch.bfloat16] for w in (w1, w2, w3))\nAssertionError",
])
def test_other_half_precision_asserts_are_not_flash_attention(text):
    assert "fa2.dtype" not in ids(text)


# ---- xformers' compiled extension on Windows: built for another torch, or not built --------------------

@pytest.mark.parametrize("text", [
    "The procedure entry point ?_set_requires_grad@TensorImpl@c10@@QEAAX_N@Z could not be located in the dynamic link "
    "library E:\\SD\\forge\\venv\\Lib\\site-packages\\xformers\\_C.pyd.",
    # the popup's text as a user copies it, on three lines
    "The procedure entry point\n?dtype@TensorImpl@c10@@QEBA?AUTypeMeta@caffe2@@XZ could\nnot be located in the dynamic link library\n"
    "C:\\Kohya\\venv\\Lib\\site-packages\\xformers\\_C.pyd.",
    "Entry Point Not Found in C:/InvokeAI/.venv/Lib/site-packages/xformers/_C.pyd after pip upgraded torch",
    "WARNING[XFORMERS]: [WinError 127] The specified procedure could not be found. Need to compile C++ extensions to "
    "use all xFormers features.",
])
def test_a_missing_procedure_in_xformers_c_is_xformers_built_for_another_torch(text):
    assert top(text) == ("xformers.built-for-other-torch", "xformers")


def test_the_old_warning_alone_is_xformers_without_its_operators():
    text = "WARNING:root:Need to compile C++ extensions to get sparse attention support. Please run python setup.py build develop"
    assert top(text) == ("xformers.not-compiled", "xformers")


@pytest.mark.parametrize("text,backend", [
    ("The procedure entry point ?device_count@cuda@c10@@YAEXZ could not be located in the dynamic link library "
     "D:\\webui\\venv\\Lib\\site-packages\\flash_attn_2_cuda.cp310-win_amd64.pyd.", "fa2"),
    ("The procedure entry point ?warn@c10@@YAXAEBVWarning@1@@Z could not be located in the dynamic link library "
     "F:\\ComfyUI\\python_embeded\\Lib\\site-packages\\sageattention\\_qattn_sm89.cp312-win_amd64.pyd.", "sage"),
])
def test_the_same_popup_for_other_attention_extensions_is_a_dll_load_failure(text, backend):
    assert top(text) == ("import.dll-load-failed", backend)


@pytest.mark.parametrize("text", [
    "The procedure entry point ?Render@Engine@@QEAAXXZ could not be located in the dynamic link library C:\\Games\\engine.dll.",
    "[WinError 127] The specified procedure could not be found: 'C:\\\\tools\\\\opencv\\\\opencv_world490.dll'",
])
def test_other_programs_missing_procedures_stay_silent(text):
    assert ids(text) == []


# ---- a caller indexes [0] into a FlashAttention result that is now the tensor -------------------------

@pytest.mark.parametrize("text", [
    "[rank3]:   File \"/srv/video/models/attention.py\", line 88, in attention\n"
    "[rank3]:     out = flash_attn_interface.flash_attn_varlen_func(q, k, v, cu_q, cu_k, max_q, max_k)[0].unflatten(0, (b, lq))\n"
    "[rank3]: RuntimeError: unflatten: Provided sizes [4, 16384] don't multiply up to the size of dim 0 (32) in the input tensor",
    "Error during sampling: unflatten: Provided sizes [1, 109200] don't multiply up to the size of dim 0 (12) in the input tensor",
    "!!! Exception during processing !!! unflatten: Provided sizes [2, 4096] don't multiply up to the size of dim 0 (40) in the input tensor",
])
def test_an_unflatten_of_one_token_is_the_changed_return_value(text):
    assert top(text)[0] == "attn.return-value"


def test_the_frame_that_calls_the_function_names_its_backend():
    text = ("  File \"/app/nodes/attn.py\", line 40, in forward\n"
            "    x = flash_attn_3_func(q, k, v, causal=False)[0].unflatten(0, (b, s))\n"
            "RuntimeError: unflatten: Provided sizes [1, 777] don't multiply up to the size of dim 0 (24) in the input tensor")
    assert top(text) == ("attn.return-value", "fa3")


@pytest.mark.parametrize("text", [
    "RuntimeError: unflatten: Provided sizes [4, 8] don't multiply up to the size of dim 1 (30) in the input tensor",
    "RuntimeError: unflatten: Provided sizes [3, 12] don't multiply up to the size of dim 0 (40) in the input tensor",
    "RuntimeError: unflatten: Provided sizes [64, 64, 3] don't multiply up to the size of dim 0 (4096) in the input tensor",
])
def test_other_unflatten_errors_stay_silent(text):
    assert "attn.return-value" not in ids(text)


# ---- SageAttention's varlen head dims, and its name spelt with a space ---------------------------------

@pytest.mark.parametrize("text", [
    "ValueError: varlen only supports head_dim [64, 128].",
    "  File \"/workspace/Wan2GP/shared/attention.py\", line 301, in pay_attention\n    x = sageattn_varlen(q, k, v, cu_q, cu_k, mq, mk)\n"
    "AssertionError: varlen only support head_dim [64, 128]",
])
def test_sage_varlen_head_dims(text):
    assert top(text) == ("sage.head-dim", "sage")


@pytest.mark.parametrize("text", [
    "sage attn not installed",
    "[FramePack-F1] Sage_Attn not available, using PyTorch attention",
])
def test_sage_attn_spelt_apart_is_not_installed(text):
    assert top(text) == ("sage.not-installed", "sage")


# ---- an app's start-up banner of optional attention libraries is a note, never the cause ---------------

def test_the_banner_ranks_after_the_real_failure():
    text = ("Xformers is not installed!\nFlash Attn is not installed!\nSage Attn is not installed!\n"
            "/opt/fp/system/python/lib/site-packages/torch/cuda/__init__.py:262: UserWarning:\n"
            "NVIDIA RTX PRO 6000 Blackwell Workstation Edition with CUDA capability sm_120 is not compatible with the current PyTorch installation.\n"
            "The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90.")
    found = match(text)
    assert found[0].entry.id == "gpu.arch-not-in-torch"
    assert found[-1].entry.id == "app.attention-libraries-absent"
    assert "sage.not-installed" not in ids(text)


def test_in_a_log_that_fails_elsewhere_the_banner_is_only_a_note():
    text = ("Xformers is not installed!\nFlash Attention is not installed!\nSage Attn is not installed!\n"
            "Loaded CLIPTextModel to cuda:0 as complete.\nTraceback (most recent call last):\n"
            "  File \"/srv/fp/demo_gradio.py\", line 140, in worker\n    history = history_latents[:, :, -19:]\n"
            "KeyError: 'latents'")
    assert [(m.entry.id, m.entry.severity, m.entry.can_cause) for m in match(text)] == \
        [("app.attention-libraries-absent", "info", False)]


def test_the_banner_after_a_loggers_prefix_names_no_backend():
    found = match("[2025-06-02 09:14:51] [INFO] Xformers is not installed!\n2025-06-02 09:14:51 - Flash Attn is not installed!")
    assert [(m.entry.id, m.backend) for m in found] == [("app.attention-libraries-absent", None)]


def test_a_banner_that_found_the_library_says_nothing():
    assert ids("Xformers is installed!\nFlash Attn is installed!\nSage Attn is installed!") == []


# ---- Triton's launcher build, on a Triton that links no libcuda ------------------------------------------

@pytest.mark.parametrize("text", [
    "subprocess.CalledProcessError: Command '['/opt/rocm-6.3.1/llvm/bin/clang', '/tmp/tmpk2j3h4/main.c', '-O3', '-shared', "
    "'-fPIC', '-o', '/tmp/tmpk2j3h4/__triton_launcher.cpython-311-x86_64-linux-gnu.so', '-lamdhip64', "
    "'-L/opt/rocm-6.3.1/lib']' returned non-zero exit status 1.",
    "Command '['C:\\\\triton\\\\runtime\\\\tcc\\\\tcc.exe', 'C:\\\\Users\\\\a\\\\AppData\\\\Local\\\\Temp\\\\tmpz\\\\cuda_utils.c', '-O3', "
    "'-shared', '-o', 'C:\\\\Users\\\\a\\\\AppData\\\\Local\\\\Temp\\\\tmpz\\\\cuda_utils.cp311-win_amd64.pyd']' returned non-zero exit status 1.",
])
def test_a_failed_launcher_build_without_libcuda(text):
    assert top(text)[0] == "triton.launcher-build"


def test_another_c_programs_failed_build_stays_silent():
    assert "triton.launcher-build" not in ids(
        "subprocess.CalledProcessError: Command '['gcc', '/home/u/src/main.c', '-o', 'app']' returned non-zero exit status 1.")


def test_comfyui_zluda_wraps_flash_attns_triton_backend():
    # ComfyUI-Zluda's wrapper prefix names flash-attn (its Triton AMD backend), whose launcher failed
    text = ("  ::  Flash attention error: Command '['C:\\\\Program Files\\\\AMD\\\\ROCm\\\\6.4\\\\bin\\\\clang.exe', "
            "'C:\\\\Temp\\\\tmp1a2b\\\\main.c', '-O3', '-shared', '-o', 'C:\\\\Temp\\\\tmp1a2b\\\\__triton_launcher.cp312-win_amd64.pyd', "
            "'-LC:\\\\Program Files\\\\AMD\\\\ROCm\\\\6.4\\\\lib']' returned non-zero exit status 1.")
    assert top(text) == ("triton.launcher-build", "fa2")


# ---- diffusers' requirement check names the backend whose package is missing or too old ---------------

@pytest.mark.parametrize("text,want", [
    ("RuntimeError: Flash Attention backend 'flash' is not usable because of missing package or the version is too old. "
     "Please install `flash-attn>=2.6.3`.", ("fa2.missing", "fa2")),
    ("  File \"/venv/lib/python3.12/site-packages/diffusers/models/attention_dispatch.py\", line 402, in _check_attention_backend_requirements\n"
     "    raise RuntimeError(\nRuntimeError: Sage Attention backend 'sage_varlen' is not usable because of missing package or the "
     "version is too old. Please install `sageattention>=2.1.1`.", ("sage.not-installed", "sage")),
    ("RuntimeError: Xformers Attention backend 'xformers' is not usable because of missing package or the version is too old.",
     ("xformers.not-installed", "xformers")),
    ("RuntimeError: Flash Attention 3 backend '_flash_varlen_3' is not usable because of missing package or the version is too old.",
     ("fa3.import-name", "fa3")),
])
def test_diffusers_requirement_check(text, want):
    assert top(text) == want


def test_a_non_attention_diffusers_backend_stays_silent():
    assert ids("RuntimeError: NPU Attention backend '_native_npu' is not usable because of missing package or the version is too old.") == []


# ---- a trainer's list of accepted implementations names no backend that ran --------------------------

def test_ms_swifts_list_of_flash_implementations_names_no_backend():
    text = ('ValueError: The "padding_free" feature requires a flash attention implementation. '
            'Please use one of: "flash_attn", "flash_attention_2", "flash_attention_3".')
    assert top(text) == ("config.msswift-packing-needs-flash", None)


# ---- round4b-check's misses (measured first, then used): more wordings of known mechanisms -----------

@pytest.mark.parametrize("text", [
    "TypeError: apply_rotary_pos_emb_flashatt() takes 2 positional arguments but 4 were given",
    "TypeError: _upad_input_flash_att() got an unexpected keyword argument 'position_ids'",
])
def test_a_flash_helper_called_with_another_releases_signature(text):
    assert top(text)[0] == "attn.api-mismatch"


def test_a_non_attention_signature_error_stays_silent():
    assert "attn.api-mismatch" not in ids("TypeError: flatten() takes 1 positional argument but 2 were given")


@pytest.mark.parametrize("text", [
    "KSampler: 'sageattn_qk_int8_pv_fp16_cuda' from 'sageattention' error after updating the node",
    "ImportError: 'sageattn_varlen' from 'sageattention.core' (unknown location)",
])
def test_a_quoted_sage_name_missing_from_the_package(text):
    assert top(text) == ("sage.api-mismatch", "sage")


def test_a_name_from_another_module_is_not_sages():
    assert "sage.api-mismatch" not in ids("cannot find 'sageattn' from 'comfy.ldm.modules.attention' in this build")


def test_transformers_flash_integration_names_fa2_for_a_kernel_fault():
    text = ("  File \"/opt/venv/lib/python3.11/site-packages/transformers/modeling_flash_attention_utils.py\", line 590, in _flash_attention_forward\n"
            "    attn_output = flash_varlen_fn(\nRuntimeError: CUDA error: misaligned address\n"
            "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.")
    assert top(text) == ("cuda.kernel-fault", "fa2")


def test_a_kernel_fault_elsewhere_stays_unclaimed():
    text = ("  File \"/opt/venv/lib/python3.11/site-packages/torch/nn/functional.py\", line 2551, in embedding\n"
            "    return torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)\n"
            "RuntimeError: CUDA error: an illegal memory access was encountered")
    assert ids(text) == []


# ---- more wordings of known mechanisms (probes written here, no new texts) ------------------------------

@pytest.mark.parametrize("text", [
    "ValueError: attn_mask is not supported for flash-attn 2.",
    "  File \"/venv/lib/python3.12/site-packages/diffusers/models/attention_dispatch.py\", line 1310, in _sage_attention\n"
    "    raise ValueError(\"`attn_mask` is not yet supported for sage attention.\")",
])
def test_diffusers_mask_refusal_with_or_without_backticks(text):
    assert top(text)[0] == "config.mask-refused"


def test_another_librarys_mask_refusal_is_not_diffusers():
    assert "config.mask-refused" not in ids("NotImplementedError: attn_mask is not supported for nested tensors")


@pytest.mark.parametrize("text", [
    "AttributeError: module 'sageattention' has no attribute 'sageattn_varlen'",
    "Exception Message: module 'sageattention.core' has no attribute 'sageattn_qk_int8_pv_fp8_cuda_sm90'",
])
def test_a_sage_function_the_release_lacks(text):
    assert top(text) == ("sage.api-mismatch", "sage")
