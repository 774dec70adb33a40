"""`explain` on the mechanisms of knowledge/field5.toml and the patterns and attribution rules widened
with them (issue 23: the sixth set of real texts, fixtures/errors/ captured 2026-11-25 by the
explain3 helper). Every case is a variant written here: other paths, versions, GPUs, symbol, library
and language names than the real texts and the entries' examples, so a rule fitted to one sample
fails. The near misses must stay silent or keep their own entry.
"""

from __future__ import annotations

import pytest

from attn_doctor.explain import match


def top(text):
    found = match(text)
    return (found[0].entry.id, found[0].backend) if found else (None, None)


def ids(text):
    return [m.entry.id for m in match(text)]


# ---- a model's import guard hides the import error --------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ("  File \"D:\\\\AI\\\\Wan2GP\\\\wan\\\\modules\\\\attention.py\", line 131, in pay_attention\n"
     "    assert FLASH_ATTN_2_AVAILABLE, 'install flash-attn for --attention flash'\nAssertionError", "fa2"),
    ("[rank1]:     assert FLASH_ATTN_3_AVAILABLE\n[rank1]: AssertionError", "fa3"),
    ("    assert SAGE_ATTN_AVAILABLE\nAssertionError", "sage"),
    ("    assert XFORMERS_IS_AVAILABLE, \"xformers is required for memory efficient attention\"\nAssertionError", "xformers"),
    ("AssertionError: Encoder: SparseUNet: Make sure flash-attn is installed.", "fa2"),
    ("  File \"/workspace/models/dit.py\", line 210, in forward\n    x = flash_attn_varlen_qkvpacked_func(qkv, cu, max_s)\n"
     "NameError: name 'flash_attn_varlen_qkvpacked_func' is not defined", "fa2"),
    ("NameError: name 'sageattn_varlen' is not defined", "sage"),
])
def test_an_import_guard_names_the_backend_whose_import_failed(text, backend):
    assert top(text) == ("attn.import-guard", backend)


@pytest.mark.parametrize("text", [
    "assert USE_TF32_AVAILABLE",                         # not an attention backend's flag
    "NameError: name 'flash_message' is not defined",    # a name that merely starts like one
    "Make sure ffmpeg is installed.",
])
def test_other_guards_stay_silent(text):
    assert "attn.import-guard" not in ids(text)


def test_the_fallback_warning_keeps_its_own_entry():
    # an app that says it fell back is fa2.not-available-fallback, not a guard that failed
    assert top("WARNING: flash_attn not installed, falling back to SDPA")[0] == "fa2.not-available-fallback"


# ---- flash_attn as an empty namespace package --------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ("  File \"/env/lib/python3.12/site-packages/transformers/utils/import_utils.py\", line 880, in is_flash_attn_greater_or_equal\n"
     "    return version.parse(flash_attn.__version__) >= version.parse(library_version)\n"
     "AttributeError: module 'flash_attn' has no attribute '__version__'", "fa2"),
    # within one line the package's own name outranks the library that reports it
    ("xformers: flash-attn has no __version__, skipping its operators", "fa2"),
    ("Xformers 报错：flash_attention 没有 __version__", "xformers"),
])
def test_a_namespace_flash_attn_is_named(text, backend):
    assert top(text) == ("import.namespace-package", backend)


# ---- widened patterns -----------------------------------------------------------------------------------

@pytest.mark.parametrize("text,entry,backend", [
    # a title or summary that drops the symbol after "undefined symbol"
    ("flash_attn_3_cuda.cpython-310-x86_64-linux-gnu.so undefined symbol after pip install", "import.undefined-symbol", "fa3"),
    # FA2/FA3's varlen device and contiguity checks, named FA2 unless something says FA3
    ("  File \"/usr/lib/python3/dist-packages/flash_attn/flash_attn_interface.py\", line 170\nRuntimeError: cu_seqlens_q must be on CUDA",
     "varlen.cu-seqlens", "fa2"),
    ("RuntimeError: cu_seqlens_k must have dtype int32", "varlen.cu-seqlens", "fa2"),
    # a CUDA error raised at the attention extension's own call
    ("    out = _C_flashattention.fwd(\nRuntimeError: CUDA error: device-side assert triggered", "attn.kernel-launch-error", "xformers"),
    ("    lse = flash_attn_3_cuda.fwd(q, k, v)\ntorch.AcceleratorError: CUDA error: an illegal instruction was encountered",
     "attn.kernel-launch-error", "fa3"),
    # Triton cannot look libcuda up where there is no ldconfig
    ("  File \"/gnu/store/x-triton/lib/python3.11/site-packages/triton/backends/nvidia/driver.py\", line 25, in libcuda_dirs\n"
     "FileNotFoundError: [Errno 2] No such file or directory: '/usr/sbin/ldconfig'", "import.libcuda-missing", None),
    # triton-windows with an embedded Python that ships no include/ or libs/
    ("E:\\\\SwarmUI\\\\python_embeded\\\\Lib\\\\site-packages\\\\triton\\\\windows_utils.py:340: UserWarning: Failed to find Python include.",
     "triton.launcher-build", None),
    # a backend newer than torch imports a torch name this torch lacks
    ("  File \"/opt/py/lib/python3.9/site-packages/xformers/ops/fmha/torch_attention_compat.py\", line 12, in <module>\n"
     "    from torch.utils._pytree import register_constant\nImportError: cannot import name 'register_constant' from 'torch.utils._pytree'",
     "torch.api-missing", "xformers"),
    # the CUDA runtime's enum name as torch prints it
    ("Search for `cudaErrorNoKernelImageForDevice' in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html for more information.",
     "gpu.arch-not-in-torch", None),
])
def test_widened_patterns(text, entry, backend):
    assert top(text) == (entry, backend)


def test_a_torch_name_missing_with_no_attention_library_near_stays_silent():
    # torch.api-missing is a catch-all: another library's import of a newer torch name is not attention's
    assert ids("  File \"/venv/lib/python3.10/site-packages/torchvision/ops/misc.py\", line 4\n"
               "ImportError: cannot import name 'register_fake' from 'torch.library'") == []


# ---- loader errors of torch's own libraries are claimed -----------------------------------------------

@pytest.mark.parametrize("text", [
    "ImportError: /lib64/libstdc++.so.6: version `GLIBCXX_3.4.29' not found (required by /home/u/.venv/lib/python3.12/site-packages/torch/lib/libtorch_cpu.so)",
    "ImportError: /usr/lib/libstdc++.so.6: version `CXXABI_1.3.13' not found (required by /env/lib/python3.11/site-packages/triton/_C/libtriton.so)",
])
def test_torch_and_triton_loader_errors_are_claimed(text):
    assert top(text) == ("import.glibc", None)


def test_another_projects_loader_error_stays_unclaimed():
    assert ids("ImportError: /opt/conda/lib/libstdc++.so.6: version `GLIBCXX_3.4.30' not found "
               "(required by /opt/conda/lib/python3.10/site-packages/open3d/cpu/pybind.cpython-310-x86_64-linux-gnu.so)") == []


# ---- from half B of the sixth set ------------------------------------------------------------------

@pytest.mark.parametrize("text,entry,backend", [
    # a CJK sentence right before the exception name leaves no word boundary
    ("执行时报错NameError: name 'flash_attn_func' is not defined", "attn.import-guard", "fa2"),
    # flash-attn's separately built extensions
    ("Warning: import flash_attn fused_dense fail, please install FlashAttention fused_dense to get higher efficiency",
     "fa2.extension-missing", "fa2"),
    ("  File \"/srv/neox/megatron/model/norms.py\", line 4\n    import xentropy_cuda_lib\nModuleNotFoundError: No module named 'xentropy_cuda_lib'",
     "fa2.extension-missing", "fa2"),
    # a trainer's patch of a transformers attention class whose method moved (no backend: transformers' API)
    ("AttributeError: 'Gemma2FlashAttention2' object has no attribute '_flash_attention_forward'", "transformers.helper-moved", "fa2"),
    # the compiler's own error scrolled away: ninja's last words under an attention build
    ("  building 'flash_attn_2_cuda' extension\n  [3/73] c++ -MMD -MF /tmp/b/flash_api.o.d -c csrc/flash_attn/flash_api.cpp\n"
     "  ninja: build stopped: subcommand failed.", "build.compile-failed", "fa2"),
    # vLLM V1's FlashAttention backend refuses the FA version on this GPU
    ("ERROR 05-01 09:00:00 [core.py:396]     assert is_fa_version_supported(self.fa_version)", "vllm.fa-version", None),
    # the CuTe DSL's lowering pipeline in a failed FA4 compile
    ("  File \"/venv/lib/python3.12/site-packages/flash_attn/cute/flash_fwd_sm100.py\", line 301, in __call__\n"
     "pipeline = 'builtin.module(cute-to-nvvm{cubin-format=bin opt-level=3 cubin-chip=sm_103a },external-kernel-for-gpu-launch)'",
     "cute.dsl-error", "cute"),
])
def test_half_b_mechanisms(text, entry, backend):
    assert top(text) == (entry, backend)


def test_a_build_stopped_with_no_attention_library_stays_silent():
    # any ninja build ends this way (LLVM, llama.cpp): attention's only when an attention library is named
    assert ids("[build] [47/230] Building CUDA object ggml/src/ggml-cuda/CMakeFiles/ggml-cuda.dir/fattn-tile.cu.o\n"
               "[build] ninja: build stopped: subcommand failed.") == []


# ---- the classes issue 23 names, in wordings no fixture has ----------------------------------------

@pytest.mark.parametrize("text,entry,backend", [
    ("cc1plus: internal compiler error: Killed (program cc1plus)\n  building 'xformers._C' extension", "build.oom", "xformers"),
    ("    assert SM89_ENABLED\nAssertionError\n  (sageattention 2.2.0 built on a machine without an Ada GPU)", "sage.arch-kernel", "sage"),
    ("  File \"/opt/venv/lib/python3.12/site-packages/flash_attn/cute/hopper_helpers.py\", line 40\n"
     "AttributeError: 'ThrCopy' object has no attribute 'partition_S'", "cute.dsl-drift", "cute"),
])
def test_named_classes_in_other_words(text, entry, backend):
    assert top(text) == (entry, backend)
