"""Variants for round 31 (issue 23, helper ex31): FA4 (flash_attn.cute, flash-attn-4, quack-kernels, nvidia-cutlass-dsl),
SageAttention and its forks, FA3 (flash_attn_interface / the hopper build) and the new architectures (B200/B300, Jetson Thor,
RTX 50xx, DGX Spark), whose texts (fixtures/errors/round31/) main's rules missed or read as another cause.

Every case was written by hand for this round (2026-11-28) from the mechanism, NOT copied from a real thread: another GPU,
version, symbol, wrapper or wording. Each positive case asserts the entry and the backend of the first problem that can be a
failure's cause; the near misses beside each mechanism assert what must NOT be claimed.

Mechanisms (knowledge file: entry or macro):
  bare-sage     prose.toml B and attribution.toml sage names: SageAttention written bare and capitalised ("release of Sage"),
                typed short ("sageatt"), and SageAttention 2/3 by their short names with their context ("SA3 (_blackwell)")
  title-on-gpu  prose.toml prose.gpu: a title that is a backend on a GPU ("FA3 on the RTX 5090") over a first line that fails
                or asks for it to work
  only-on       prose.toml NOTON: a backend said to run only on one generation, or asked whether it works on a GPU
  fa3-install   flash_attn.toml fa3.import-name: a question how to install FA3's module (flash_attn_interface, flash_attn_3)
  setuptools    builds.toml build.setuptools-too-new (new): a build on a setuptools without pkg_resources, or a report that
                setuptools had to be downgraded for the build
  segv-words    builds.toml build.nvcc-crashed: the compiler's crash said in words while the backend compiles
  no-wheel      builds.toml build.prebuilt-wheel-missing: a sentence that no prebuilt wheel supports this torch (English, Chinese)
  dsl-4.6       cute.toml cute.dsl-regression (new): nvidia-cutlass-dsl 4.6.0 / 4.6.1 refusing FA4's split-KV kernel
                (TYPE_UNSTABLE_JOIN) or hanging its backward; 4.6.2 fixes both
  scale-shape   flash_attn.toml fa2.input-shape: not SageAttention's / SpargeAttn's CHECK_SHAPE of their quantisation scales
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids


# bare-sage
@pytest.mark.parametrize("text, want", [
    ("Black output with Wan 2.2\n\nI run ComfyUI portable with the 2.2.0 release of Sage and Triton 3.5.", ("prose.numbers", "sage")),
    ("Is SM121 supported? I tried SA3 (_blackwell) on my DGX Spark but it failed.", ("prose.gpu", "sage")),
    # (a GPU older than SageAttention 2's kernels: backend.unsupported-gpu's title pattern since helper ex116)
    ("sageatt 2.1 on a GTX 1080 Ti\n\ncan you make it run?", ("backend.unsupported-gpu", "sage")),
])
def test_sage_named_bare_or_short(text, want):
    assert _top(text) == want


@pytest.mark.parametrize("text", [
    "Sage 50 accounting export fails on Windows",  # the accounting software, not SageAttention
    "The SA2 interface of the satellite modem fails",  # SA2 with no attention context
])
def test_sage_words_that_are_not_sageattention(text):
    assert _ids(text) == []


# title-on-gpu
@pytest.mark.parametrize("text, want", [
    ("FA3 on the RTX 5090\n\nThe first step fails every time.", ("prose.gpu", "fa3")),
    ("xformers with a B200\n\nDoesn't run at all, any idea?", ("prose.gpu", "xformers")),
])
def test_backend_on_gpu_title_over_a_failure(text, want):
    assert _top(text) == want


def test_backend_on_gpu_title_over_praise_is_not_a_report():
    assert "prose.gpu" not in _ids("flash attention on H100\n\nIt runs great, 2x faster than before.")


# only-on
@pytest.mark.parametrize("text, want", [
    ("Does sageattention 3 only work with Blackwell GPUs?", ("prose.gpu", "sage")),
    ("Will FA3 run on a 4090?", ("prose.gpu", "fa3")),
])
def test_only_on_one_generation_or_asked_whether_it_works(text, want):
    assert _top(text) == want


def test_a_statement_that_it_works_is_no_question():
    assert _ids("SageAttention 2.2 works on my RTX 4090, thanks for the wheel.") == []


# fa3-install
@pytest.mark.parametrize("text", [
    "How to install flash_attn_interface for Wan2.2?",
    "flash_attn_3 怎么安装？",
])
def test_how_to_install_fa3s_module(text):
    assert _top(text) == ("fa3.import-name", "fa3")


def test_fa3s_module_in_a_frame_is_no_install_question():
    text = '  File "/opt/hopper/flash_attn_interface.py", line 52, in _flash_attn_forward\n    out = flash_attn_3_cuda.fwd(q, k, v)'
    assert "fa3.import-name" not in _ids(text)


# setuptools
@pytest.mark.parametrize("text, want", [
    ("Building wheel for sageattention (setup.py) ... error\n      ModuleNotFoundError: No module named 'pkg_resources'",
     ("build.setuptools-too-new", "sage")),
    ("Had to pin setuptools to 75.8.2 before flash-attn would compile", ("build.setuptools-too-new", "fa2")),
])
def test_setuptools_too_new_for_the_build(text, want):
    assert _top(text) == want


def test_pkg_resources_missing_with_no_attention_library_is_not_claimed():
    assert _ids("ModuleNotFoundError: No module named 'pkg_resources'") == []


# segv-words
def test_segfault_said_while_compiling():
    assert _top("Segmentation fault while compiling SageAttention on the Thor") == ("build.nvcc-crashed", "sage")


def test_segfault_while_running_is_no_compiler_crash():
    assert "build.nvcc-crashed" not in _ids("Segmentation fault while running flash-attn's benchmark on an H100")


# no-wheel
@pytest.mark.parametrize("text", [
    "There is no prebuilt wheel for torch 2.11 in the xformers releases, so pip builds it.",
    "xformers 没有找到支持torch 2.10的预编译包",
])
def test_no_prebuilt_wheel_for_this_torch_in_words(text):
    assert _ids(text)[:1] == ["build.prebuilt-wheel-missing"]


def test_no_wheel_needed_is_not_a_missing_wheel():
    assert _ids("No wheel needed for torch 2.10, flash-attn is installed from the release page.") == []


# dsl-4.6
@pytest.mark.parametrize("text", [
    "cutlass.base_dsl.common.DSLRuntimeError: TYPE_UNSTABLE_JOIN: n_block_first in flash_fwd_sm100.py takes None on one branch",
    '  File "/venv/lib/python3.12/site-packages/flash_attn/cute/interface.py", line 540, in _flash_attn_fwd\n'
    "    compiled = cute.compile(fa_fwd, *args)\ncutlass.base_dsl.common.DSLRuntimeError: TYPE_UNSTABLE_JOIN on 'n_block_min'",
    "Running FA4 with nvidia-cutlass-dsl 4.6.0: the backward never returns on GB300",
])
def test_cutlass_dsl_4_6_regression_in_fa4(text):
    assert _top(text) == ("cute.dsl-regression", "cute")


def test_type_unstable_join_in_ones_own_kernel_is_not_fa4s_regression():
    assert "cute.dsl-regression" not in _ids("DSLRuntimeError: TYPE_UNSTABLE_JOIN for 'acc' in my own cute.jit gemm kernel loop")


# scale-shape
def test_sage_scale_shape_check_is_not_fa2s_layout():
    assert "fa2.input-shape" not in _ids("RuntimeError: Tensor key_scale must have shape (batch_size, num_kv_heads, div_ceil(kv_len, CTA_K))")
    assert _top("RuntimeError: q must have shape (batch_size, seqlen_q, num_heads, head_size_og)") == ("fa2.input-shape", "fa2")


# prerelease (wheels.toml install.prerelease-only, new): pip lists only pre-releases of the package (FA4's betas) and
# installs none, or uv says pre-releases are available but not enabled; not a missing wheel for this platform
@pytest.mark.parametrize("text", [
    "ERROR: Could not find a version that satisfies the requirement flash-attn-4>=4.0 (from versions: 4.0.0b20, 4.0.0b26)\n"
    "ERROR: No matching distribution found for flash-attn-4>=4.0",
    "  hint: Pre-releases are available for `flash-attn-4` in the requested range (e.g., 4.0.0b40), but pre-releases "
    "weren't enabled (try: `--prerelease=allow`)",
])
def test_only_prereleases_of_fa4(text):
    assert _top(text) == ("install.prerelease-only", "cute")


@pytest.mark.parametrize("text", [
    "ERROR: Could not find a version that satisfies the requirement xformers==0.0.40 (from versions: 0.0.28, 0.0.29, 0.0.30b1)",
    "ERROR: Could not find a version that satisfies the requirement flash-attn==2.8.3 (from versions: none)",
])
def test_final_releases_listed_or_none_is_no_prerelease_problem(text):
    assert "install.prerelease-only" not in _ids(text)


# fa3-dtype (attribution.toml fa3 names): FA3's dtype check names fp8, which FA2's never does, so the message is FA3's
# wherever it is retold (a CI title, a serving engine's log); FA2's own message stays FA2's
def test_fa3s_dtype_message_is_fa3s():
    assert _top("RuntimeError: mha_fwd: FlashAttention only supports fp16, bf16, and fp8_e4m3 data type") == ("fa2.dtype", "fa3")
    assert _top("RuntimeError: FlashAttention only support fp16 and bf16 data type") == ("fa2.dtype", "fa2")


# wheel-request (builds.toml build.prebuilt-wheel-missing): a question or request for a backend's wheel of one combination
@pytest.mark.parametrize("text, backend", [
    ("Any flash_attn_3 wheel for torch 2.10 cu128 cp311?", "fa3"),
    ("[Wheel request] SageAttention 2.2.0 for PyTorch 2.11, CUDA 13.0, Windows", "sage"),
])
def test_a_wheel_asked_for_one_combination(text, backend):
    found = _ids(text)
    assert found[:1] == ["build.prebuilt-wheel-missing"]
    from explain_top import first
    assert first(text) == ("build.prebuilt-wheel-missing", backend)


def test_a_wheel_named_without_asking_is_no_request():
    assert "build.prebuilt-wheel-missing" not in _ids("Installed the flash_attn_3 wheel for torch 2.9 cu130 cp312, works fine.")


# fa4-arch (cute.toml cute.arch): the DSL's arch check without its enum prefix inside FA4's frames, and a B300 named
def test_fa4_arch_check_on_other_blackwells():
    text = ('  File "/opt/venv/lib/python3.11/site-packages/flash_attn/cute/flash_bwd_sm100.py", line 402, in __call__\n'
            "cutlass.cute.nvgpu.common.OpError: OpError: expects arch to be one of ['sm_100a', 'sm_100f'], but got sm_120a")
    assert _top(text) == ("cute.arch", "cute")
    assert _top("FA4 on GB300 errors out during the first prefill") == ("cute.arch", "cute")
    assert "cute.arch" not in _ids("FA4 on B200 runs 2x faster than FA2 for us")
