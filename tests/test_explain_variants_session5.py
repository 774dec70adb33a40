"""Variants for the mechanisms round 21m taught explain when it became training material (fifth session of 2026-11-28,
issue 23). No real text is a case here: each is written by hand from the mechanism, with other paths, versions,
backends and wordings; the near misses say what must NOT be read so.

  quoted     an error quoted in prose behind a quote mark (`> "RuntimeError: vmap: ...`), read as the error line
  triton     "no triton module found" said in words: the missing Triton, under the backend the text names
  xformers   a dependency conflict between xformers and torch said in words; xformers detecting (built for) another GPU
  windows    Python's list-form command of a Windows C compiler (cl.exe, tcc.exe), as Triton's build runs it
  titles     a report's title whose only failure word is an `[Errno N]` or an exception's class name
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids


@pytest.mark.parametrize("text", [
    '> "RuntimeError: vmap: It looks like you\'re calling .item() on a Tensor. We don\'t support vmap over .item()."',
    '"RuntimeError: vmap: It looks like you\'re calling .item() on a Tensor."',
    "`RuntimeError: vmap: It looks like you're attempting to use a Tensor in some data-dependent control flow.`",
])
def test_an_error_quoted_in_prose_is_read_as_the_error(text):
    assert _top(text) == ("flex.mask-mod-vmap", "flex")


@pytest.mark.parametrize("line,rest", [
    (b'"RuntimeError: x', b"RuntimeError: x"),
    (b"> 'ImportError: y", b"ImportError: y"),
    (b"`UserWarning: z", b"UserWarning: z"),
    # kept: a quote before anything but an exception's name and its colon
    (b'"the error" was gone', b'"the error" was gone'),
    (b"'RuntimeError' is raised", b"'RuntimeError' is raised"),
    (b'"runtimeerror: lower case"', b'"runtimeerror: lower case"'),
])
def test_what_a_quote_mark_strips(line, rest):
    from attn_doctor.knowledge.match import LINE_PREFIX
    m = LINE_PREFIX.match(line)
    assert line[m.end() if m else 0:] == rest


@pytest.mark.parametrize("text,backend", [
    ("No Triton module found\n\nAfter installing sageattention 2 the UI no longer starts.", "sage"),
    ("Since I installed SageAttention the log says: Triton module not found", "sage"),
    ("flex_attention run: no triton module was found, so nothing compiles", "flex"),
])
def test_a_missing_triton_said_in_words(text, backend):
    # helper ex80 (session 12): Triton missing where SageAttention imports it is SageAttention's missing dependency
    # (attribution.toml [[specialize]] flex.no-triton -> import.dep-missing, worded as before; round 21m's labels)
    want = "import.dep-missing" if backend == "sage" else "flex.no-triton"
    assert _top(text) == (want, backend)


def test_a_triton_sentence_that_finds_it_claims_nothing():
    assert "flex.no-triton" not in _ids("The triton module was found at C:\\ComfyUI\\python_embeded\\Lib\\site-packages")


@pytest.mark.parametrize("text", [
    "I keep hitting a dependency conflict when installing xformers next to the PyTorch build my RTX 5080 needs",
    "xformers 0.0.31: dependency conflicts with torch 2.8.0+cu128 whatever I pin",
])
def test_an_xformers_torch_conflict_said_in_words(text):
    assert _top(text) == ("xformers.replaced-torch", "xformers")


def test_a_conflict_of_other_packages_is_not_xformers():
    assert "xformers.replaced-torch" not in _ids("dependency conflict between numpy and torch; xformers is fine")


@pytest.mark.parametrize("text", [
    "Runtime errors on an L4\n\nit seems xformers detects a different GPU than the one this runtime has",
    "the xformers build in the image was compiled for another architecture (sm_86) and this box has an H100",
])
def test_xformers_made_for_another_gpu_said_in_words(text):
    assert _top(text) == ("xformers.kernel-arch-mismatch", "xformers")


def test_xformers_run_on_another_gpu_is_not_a_mismatch():
    assert "xformers.kernel-arch-mismatch" not in _ids("xformers works on a different GPU in my other machine")


@pytest.mark.parametrize("text,backend", [
    ("Command '['C:\\\\Program Files\\\\Microsoft Visual Studio\\\\2022\\\\Community\\\\VC\\\\Tools\\\\MSVC\\\\14.40.33807"
     "\\\\bin\\\\Hostx64\\\\x64\\\\cl.exe'\n\nsageattention fails on the first step in ComfyUI", "sage"),
    ("subprocess.CalledProcessError: Command '['D:\\\\venv\\\\Lib\\\\site-packages\\\\triton\\\\runtime\\\\tcc\\\\tcc.exe', "
     "'C:\\\\Temp\\\\tmpx\\\\cuda_utils.c', '-O3']' returned non-zero exit status 1.\nflex_attention under torch.compile",
     "flex"),
])
def test_a_windows_compiler_run_as_a_list_is_tritons_build(text, backend):
    assert _top(text) == ("triton.launcher-build", backend)


def test_setuptools_msvc_failure_is_not_tritons():
    text = "error: command 'C:\\\\Program Files\\\\MSVC\\\\bin\\\\Hostx64\\\\x64\\\\cl.exe' failed with exit code 2"
    assert "triton.launcher-build" not in _ids(text)


@pytest.mark.parametrize("text,entry,backend", [
    ("[Errno 2] No such file or directory: 'LICENSE' when flash_attn setup", "prose.build", "fa2"),
    ("[Errno 13] Permission denied during xformers setup on Windows", "prose.build", "xformers"),
    ("torch.compiled flex_attention with a jagged batch raises AssertionError", "prose.compile", "flex"),
])
def test_a_title_failing_by_an_errno_or_an_exception_name(text, entry, backend):
    assert _top(text) == (entry, backend)


def test_a_setup_described_is_not_a_build():
    assert _top("flash attention fails on my setup: RTX 4090, torch 2.9")[0] != "prose.build"


@pytest.mark.parametrize("text", [
    "Since 2.2 PyTorch no longer supports flash attention on Windows, SDPA got slower",
    "scaled_dot_product_attention does not have flash attention for Windows in the official wheels",
    "Windows builds of torch come without the flash attention kernel for SDPA",
])
def test_windows_torch_without_sdpa_flash_said_in_words(text):
    assert _ids(text)[:1] == ["sdpa.built-without-flash"]


@pytest.mark.parametrize("text", [
    "PyTorch does not support flash attention 3 on Windows, only FA2",  # another backend's release
    "torch supports flash attention on Linux but my Windows box is slow",
    "xformers does not support flash attention on Windows",  # not torch's SDPA
])
def test_other_windows_flash_sentences_are_not_torchs_build(text):
    assert "sdpa.built-without-flash" not in _ids(text)


def test_a_captured_parameters_none_gradient_under_flex():
    text = ("    return flex_attention(q, k, v, score_mod=lambda s, b, h, q, kv: s + self.alibi[h])\n"
            "  File \"/usr/lib/python3.12/site-packages/torch/autograd/__init__.py\", line 354, in backward\n"
            "TypeError: copy_(): argument 'other' (position 1) must be Tensor, not NoneType")
    assert _top(text) == ("flex.captured-buffer-grad", "flex")


def test_a_none_copy_without_flex_is_not_flexs():
    assert "flex.captured-buffer-grad" not in _ids(
        "buf.copy_(grad)\nTypeError: copy_(): argument 'other' (position 1) must be Tensor, not NoneType")


# The lead's own variants of the issue's missed classes (written 2026-11-28, fifth session; no real text is their source)
@pytest.mark.parametrize("text,expected", [
    # a build killed for memory, pip's spinner on lines of their own before the shell's "Killed"
    ("  Building wheel for flash-attn (setup.py) ... -\n  \\\n  |\n  /\nKilled\n", ("build.oom", "fa2")),
    ("  Building wheel for xformers (pyproject.toml) ... -\n  Building wheel for xformers (pyproject.toml): still running...\n"
     "Killed", ("build.oom", "xformers")),
    # SDPA's FA4 route: an error raised in torch's own _fa4.py, whatever it says
    ("  File \"/usr/lib/python3.13/site-packages/torch/nn/attention/_fa4.py\", line 120, in _fa4_run_backward\n"
     "    dq, dk, dv = module._flash_attn_bwd(*args)\nTypeError: _flash_attn_bwd() missing 1 required positional argument: 'lse'",
     ("sdpa.fa4-route", "sdpa")),
    # wrong numbers and a replaced torch said in Japanese, Korean and Chinese
    ("xformers を有効にすると真っ黒な画像になります", ("prose.numbers", "xformers")),
    ("sageattention 켜면 검은 화면만 나와요", ("prose.numbers", "sage")),
    ("xformers 업데이트 후 torch가 다운그레이드 되었습니다", ("xformers.replaced-torch", "xformers")),
])
def test_the_issues_classes_in_other_words(text, expected):
    assert _top(text) == expected


def test_a_spinner_then_success_is_no_oom():
    assert "build.oom" not in _ids("  Building wheel for flash-attn (setup.py) ... -\n  |\n  done\n"
                                   "  Created wheel for flash-attn: filename=flash_attn-2.8.3-cp312-linux_x86_64.whl")


@pytest.mark.parametrize("text", [
    "Training with --sage_attn on my 5090 stops after step 1.\nProcess finished with exit code -1073741819 (0xC0000005)",
    "xformers enabled in Forge -> the console closes, python exited with code 3221225477",
])
def test_windows_access_violation_status_after_a_backend(text):
    assert _top(text)[0] == "attn.native-crash"


def test_an_access_violation_with_no_backend_named_is_not_attentions():
    assert "attn.native-crash" not in _ids("The trainer exits with code -1073741819 (0xC0000005) while caching latents")


@pytest.mark.parametrize("text,expected", [
    ("SageAttention: no noticeable difference in speed for Wan 2.1 t2v", ("prose.slow", "sage")),
    ("xformers enabled, but the generation time stays the same", ("prose.slow", "xformers")),
    ("Why does the log say xformers was compiled for another PyTorch?", ("xformers.built-for-other-torch", "xformers")),
])
def test_speed_and_xformers_builds_retold(text, expected):
    assert _top(text) == expected


def test_same_speed_words_without_a_backend_claim_nothing():
    assert _ids("the generation time stays the same whatever sampler I choose") == []


@pytest.mark.parametrize("text,backend", [
    ("  File \"/srv/venv/lib/python3.11/site-packages/flash_attn/flash_attn_interface.py\", line 15, in <module>\n"
     "    import flash_attn_2_cuda as flash_attn_gpu\nImportError: libc10.so: cannot open shared object file: No such file or directory",
     "fa2"),
    ("OSError: libtorch_cuda.so: cannot open shared object file: No such file or directory\n"
     "  (loading /opt/venv/lib/python3.12/site-packages/xformers/_C.so)", "xformers"),
])
def test_torchs_libraries_not_loaded(text, backend):
    assert _top(text) == ("import.torch-libs-not-loaded", backend)


def test_a_later_undefined_symbol_is_the_cause():
    text = ("ImportError: libc10.so: cannot open shared object file: No such file or directory\n"
            ">>> import torch; import flash_attn\n"
            "ImportError: /venv/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined "
            "symbol: _ZN3c105ErrorC2ENS_14SourceLocationESs")
    assert _ids(text)[0] == "import.undefined-symbol"


def test_pre_2_0_libraries_stay_their_own_entry():
    assert _ids("ImportError: libtorch_cuda_cu.so: cannot open shared object file: No such file or directory")[0] == \
        "import.torch-lib-missing"


@pytest.mark.parametrize("text,expected", [
    ("/tmp/pip-req-build-x/csrc/qattn/attn_cuda_sm89.cu(102): error: identifier \"__nv_fp8_e5m2\" is undefined",
     ("build.cuda-too-old", "sage")),
    ("In file included from hopper/flash_fwd_launch_template.h:9,\nhopper/utils.h:12:10: fatal error: cuda_fp8.h: No such file or "
     "directory\n  Building wheel for flash_attn_3 (setup.py) ... error", ("build.cuda-too-old", "fa3")),
    ("FAILED: /tmp/pip-install-q/xformers_1/build/temp.linux-x86_64-cpython-312/xformers/csrc/attention/cuda/fmha/x.o\n"
     "cicc fatal   : Memory allocation failure", ("build.oom", "xformers")),
    ("Building SageAttention for my 5090:\nnvcc fatal   : Value 'compute_120a' is not defined for option 'gpu-architecture'",
     ("build.nvcc-arch", "sage")),
    ("building flash-attn on ComfyUI portable\nLINK : fatal error LNK1181: cannot open input file "
     "'D:\\\\ComfyUI\\\\python_embeded\\\\libs\\\\python311.lib'", ("build.no-python-headers", "fa2")),
])
def test_build_failures_in_the_tools_other_words(text, expected):
    assert _top(text) == expected


def test_another_missing_library_is_not_pythons():
    assert "build.no-python-headers" not in _ids("LINK : fatal error LNK1181: cannot open input file 'cudart.lib'")


@pytest.mark.parametrize("text,backend", [
    ("Because flash-attn (2.7.4.post1) depends on torch (>=2.2,<2.8) and train-kit depends on torch (2.8.0), flash-attn is "
     "forbidden.", "fa2"),
    ("Could not solve for environment specs\nThe following packages are incompatible\n"
     "\u251c\u2500 xformers 0.0.28 is installable and it requires\n\u2502  \u2514\u2500 pytorch 2.5.1 *, which can be installed;\n"
     "\u2514\u2500 pytorch 2.7.0 is not installable", "xformers"),
])
def test_poetry_and_conda_solvers_over_torch(text, backend):
    assert _top(text) == ("versions.needs-other-torch", backend)


def test_a_solver_conflict_of_other_packages_is_not_a_torch_pin():
    assert "versions.needs-other-torch" not in _ids(
        "Because numpy (2.1.0) depends on python (>=3.10) and my-app depends on python (3.9), numpy is forbidden.")


def test_sdpas_own_dtype_check():
    assert _top("    out = F.scaled_dot_product_attention(q, k.half(), v)\nRuntimeError: Query, key and value must have the "
                "same dtype, but got query.dtype: c10::BFloat16, key.dtype: c10::Half") == ("attn.qkv-dtype", "sdpa")


def test_a_block_masks_oom_above_its_frames():
    text = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 32.00 GiB.\n"
            "  File \"/home/u/miniforge3/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py\", line 970, "
            "in create_mask\n    mask = mask_mod(b, h, m, n)")
    assert _top(text) == ("flex.block-mask-oom", "flex")


def test_a_removed_attention_class_looked_up_as_an_attribute():
    assert _top("AttributeError: module 'transformers.models.mistral.modeling_mistral' has no attribute "
                "'MistralSdpaAttention'")[0] == "transformers.attention-class-removed"


def test_broadcastings_other_words_at_the_sdpa_call():
    text = ("    hidden = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)\n"
            "RuntimeError: The size of tensor a (77) must match the size of tensor b (154) at non-singleton dimension 3")
    assert _top(text) == ("sdpa.mask-size-mismatch", "sdpa")


def test_torchs_own_import_missing_its_library_is_not_an_extensions():
    text = ("Traceback (most recent call last):\n  File \"/srv/venv/lib/python3.12/site-packages/torch/__init__.py\", line 290, "
            "in <module>\n    from torch._C import *  # noqa: F403\n"
            "ImportError: libtorch_cuda.so: cannot open shared object file: No such file or directory")
    assert "import.torch-libs-not-loaded" not in _ids(text)
