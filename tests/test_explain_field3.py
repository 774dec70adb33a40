"""`explain` on the mechanisms of knowledge/field3.toml and the patterns and attribution names widened
with them (issue 23: the fourth set of real texts, fixtures/errors/ captured 2026-11-25, and the
new-user report of 2026-11-24), and on fix lines fitted to the environment (knowledge/tailor.py).
Each case is a variant written here, with other paths, versions, GPUs, symbol and library names than
the real texts and the entries' examples, so a rule fitted to one sample fails. The near misses must
stay silent or keep their own entry."""

from __future__ import annotations

import json
import re
import subprocess

import pytest

from attn_doctor.explain import examine, match
from attn_doctor.knowledge import tailor
from attn_doctor.knowledge.tailor import Versions


def top(text):
    found = match(text)
    return (found[0].entry.id, found[0].backend) if found else (None, None)


@pytest.mark.parametrize("text,entry,backend", [
    # row 11: PTX from a newer toolkit than the driver (any program; torch's wording; a JIT library's)
    ("torch.AcceleratorError: CUDA error: the provided PTX was compiled with an unsupported toolchain.\n"
     "Search for `cudaErrorUnsupportedPtxVersion' in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html",
     "cuda.ptx-toolchain", None),
    ("BatchDecodeWithPagedKVCache failed with error the provided PTX was compiled with an unsupported toolchain",
     "cuda.ptx-toolchain", None),
    # row 5: FA2 names imported from the namespace FA4 leaves behind
    ("ImportError: cannot import name '__version__' from 'flash_attn' (unknown location)", "cute.namespace-only", "cute"),
    ("  File \"/srv/.venv/lib/python3.12/site-packages/transformers/modeling_flash_attention_utils.py\", line 88, in _lazy_imports\n"
     "    from flash_attn import flash_attn_func, flash_attn_varlen_func\n"
     "ImportError: cannot import name \"flash_attn_varlen_func\" from \"flash_attn\" (unknown location)",
     "cute.namespace-only", "cute"),
    # C++ runtime under an extension's import: symbol and library variants, the backend from "required by"
    ("ImportError: /home/u/miniforge3/envs/wan/lib/libstdc++.so.6: version `GLIBCXX_3.4.32' not found "
     "(required by /home/u/miniforge3/envs/wan/lib/python3.11/site-packages/sageattention/_fused.cpython-311-x86_64-linux-gnu.so)",
     "import.glibc", "sage"),
    ("OSError: /usr/lib64/libstdc++.so.6: version `CXXABI_1.3.13' not found (required by "
     "/opt/venv/lib/python3.10/site-packages/xformers/_C.so)", "import.glibc", "xformers"),
    # the first compiler error of a build, in nvcc's, MSVC's and gcc's formats
    ("D:\\src\\flash-attention\\csrc\\flash_attn\\src\\flash_fwd_launch_template.h(188): error C2039: 'min': is not a member of 'std'",
     "build.compiler-error", "fa2"),
    ("/work/SageAttention/csrc/qattn/attn_cuda_sm90.h:57:3: error: 'cudaLaunchKernelEx' was not declared in this scope",
     "build.compiler-error", "sage"),
    ("/build/flash-attention/hopper/mainloop_fwd_sm90_tma_gmma_ws.hpp(512): catastrophic error: out of memory",
     "build.compiler-error", "fa3"),
    # Windows torch without SDPA's flash kernel: a note, in C++'s and Python's warning formats
    ("C:\\ai\\app\\models\\dit.py:233: UserWarning: 1Torch was not compiled with flash attention. (Triggered internally "
     "at C:\\cb\\pytorch_1000000000000\\work\\aten\\src\\ATen\\native\\transformers\\cuda\\sdp_utils.cpp:555.)",
     "sdpa.built-without-flash", "sdpa"),
    # FA1/FA2 names that moved, both directions
    ("ImportError: cannot import name 'flash_attn_unpadded_kvpacked_func' from 'flash_attn.flash_attn_interface' "
     "(/usr/local/lib/python3.11/dist-packages/flash_attn/flash_attn_interface.py)", "fa2.api-renamed", "fa2"),
    ("ImportError: cannot import name 'flash_attn_qkvpacked_func' from 'flash_attn' "
     "(/opt/conda/lib/python3.10/site-packages/flash_attn/__init__.py)", "fa2.api-renamed", "fa2"),
    # transformers' flash helpers that moved
    ("ImportError: cannot import name 'is_flash_attn_greater_or_equal_2_10' from 'transformers.modeling_flash_attention_utils'",
     "transformers.helper-moved", "fa2"),
    ("  File \"/root/.cache/huggingface/modules/transformers_modules/model/modeling_custom.py\", line 40, in <module>\n"
     "    from transformers.modeling_flash_attention_utils import FlashAttentionKwargs\n"
     "ImportError: cannot import name 'FlashAttentionKwargs' from 'transformers.modeling_flash_attention_utils'",
     "transformers.helper-moved", "fa2"),
    # a wrapper and its kernel from different releases
    ("  File \"/venv/lib/python3.12/site-packages/flash_attn/bert_padding.py\", line 120, in unpad_input\n"
     "  File \"/app/patches/llama_attn_patch.py\", line 64, in forward\n"
     "    x_unpad, indices, cu_seqlens, max_s = unpad_input(x, key_padding_mask)\n"
     "ValueError: too many values to unpack (expected 4)", "attn.unpack-mismatch", "fa2"),
    # kernels fetched from the hub without a build for this system
    ("RuntimeError: Cannot find a build variant for this system in kernels-community/flash-attn2\n"
     "    torch211-cxx11-cu128-aarch64-linux: Torch version (2.11) does not match environment Torch version (2.13)",
     "kernels.hub-no-build", "fa2"),
    ("Cannot find a build variant for this system in kernels-community/flash-attn3", "kernels.hub-no-build", "fa3"),
    # a wrapper that reaches into SageAttention's compiled modules
    ("AttributeError: 'NoneType' object has no attribute 'qk_int8_sv_f8_accum_f16_attn_inst_buf'", "sage.kernels-as-ops", "sage"),
    # a library that calls FA2 and hides its import error
    ("[trainer] FlashAttention 2 installation is broken, falling back to sdpa", "fa2.wrapper-says-broken", "fa2"),
    # xformers' kernels from the separate mslk package
    ("ModuleNotFoundError: No module named 'mslk.attention.fmha'", "xformers.kernels-package-missing", "xformers"),
    # widened: the CuTe DSL's attributes in any quoting, cutlass___call___ lookups
    ("AttributeError: module cutlass.utils has no attribute SmemAllocator", "cute.dsl-drift", "cute"),
    ("RuntimeError: Unknown function cutlass___call___quack_rmsnorm_RMSNorm_object_at_0x7fd3", "cute.dsl-drift", "cute"),
    # widened: a transformers SDPA class handed FA2's packing arguments (the backend from the class name)
    ("TypeError: LlamaSdpaAttention.forward() got an unexpected keyword argument 'max_seqlen'", "attn.api-mismatch", "sdpa"),
    # widened: FA2's private interface functions called by a patch
    ("TypeError: _flash_attn_forward() missing 2 required positional arguments: 'window_size_left' and 'window_size_right'",
     "attn.api-mismatch", "fa2"),
    # widened: torch's capability warning for a GPU newer than the build (GB10 sm_121, Thor sm_110)
    ("    Found GPU0 NVIDIA Thor which is of cuda capability 11.0.\n"
     "    Minimum and Maximum cuda capability supported by this version of PyTorch is\n    (7.5) - (10.0)",
     "gpu.arch-not-in-torch", None),
    # widened: a build's link step missing objects whose compile failed, a Rust wrapper's build script
    ("c++: error: /tmp/pip-req-build-9/build/temp.linux-x86_64-cpython-312/csrc/flash_attn/src/flash_fwd_split_hdim64_fp16_sm80.o: "
     "No such file or directory", "build.compile-failed", "fa2"),
    ("error: failed to run custom build command for `candle-flash-attn v0.9.1 (registry+https://github.com/rust-lang/crates.io-index)`",
     "build.compile-failed", "fa2"),
    # SDPA's FA4 route and its coupling to flash-attn-4's private interface
    ("RuntimeError: Module \"flash_attn.cute.interface\" does not expose FA4 kernels", "sdpa.fa4-route", "sdpa"),
    ("  File \"C:\\venv\\Lib\\site-packages\\torch\\nn\\attention\\_fa4.py\", line 301, in _fa4_run_backward\n"
     "    dq, dk, dv = module._flash_attn_bwd(\nValueError: not enough values to unpack (expected 3, got 2)", "sdpa.fa4-route", "sdpa"),
    # FA2 before 2.7.3 on Blackwell (the GPU named before or after the error)
    ("Using device: NVIDIA GeForce RTX 5080 (capability 12.0)\nRuntimeError: FlashAttention only supports Ampere GPUs or newer.",
     "fa2.arch-check-before-2-7-3", "fa2"),
    ("RuntimeError: FlashAttention only supports Ampere GPUs or newer.\n| NVIDIA GB200 | 0 | sm_100a |",
     "fa2.arch-check-before-2-7-3", "fa2"),
    # widened: an app's fallback line that only says FA failed
    ("[LTXV] Flash attention failed, switching to SDPA", "fa2.not-available-fallback", "fa2"),
])
def test_field3_variant(text, entry, backend):
    assert top(text) == (entry, backend)


@pytest.mark.parametrize("text,not_entry", [
    # the flash_attn namespace case needs 'unknown location': a real FA2/FA1 package is the renamed-API case
    ("ImportError: cannot import name 'flash_attn_func' from 'flash_attn' (/venv/lib/python3.11/site-packages/flash_attn/__init__.py)",
     "cute.namespace-only"),
    # FA4's own names missing from flash_attn.cute stay cute.import-name's
    ("ImportError: cannot import name 'flash_attn_func' from 'flash_attn.cute' (unknown location)", "cute.namespace-only"),
    # an unpack error with no attention library near it is somebody else's
    ("  File \"/app/data/loader.py\", line 12, in __iter__\n    a, b = row\nValueError: too many values to unpack (expected 2)",
     "attn.unpack-mismatch"),
    # a compiler error in a library that is no attention backend is not claimed
    ("/src/detectron2/layers/csrc/ROIAlign/ROIAlign_cuda.cu(12): error: identifier \"THCudaCheck\" is undefined",
     "build.compiler-error"),
    # a GLIBCXX error of a non-attention extension is that extension's
    ("ImportError: /opt/conda/lib/libstdc++.so.6: version `GLIBCXX_3.4.30' not found (required by "
     "/opt/conda/lib/python3.10/site-packages/torchaudio/lib/libtorchaudio.so)", "import.glibc"),
    # "NoneType has no attribute" in general is no SageAttention problem
    ("AttributeError: 'NoneType' object has no attribute 'shape'", "sage.kernels-as-ops"),
    # transformers' other import errors keep their entries
    ("ImportError: cannot import name 'LlamaFlashAttention2' from 'transformers.models.llama.modeling_llama'",
     "transformers.helper-moved"),
    # the arch message on an older GPU (no Blackwell named) stays the general entry's
    ("GPU: Tesla V100-SXM2-32GB\nRuntimeError: FlashAttention only supports Ampere GPUs or newer.", "fa2.arch-check-before-2-7-3"),
    # an unpack error in torch's own code that is not the FA4 route
    ("  File \"/venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py\", line 10\n"
     "ValueError: too many values to unpack (expected 2)", "sdpa.fa4-route"),
    # the kernels hub's messages only; a plain FileNotFoundError is not
    ("FileNotFoundError: [Errno 2] No such file or directory: 'build/metadata.json'", "kernels.hub-no-build"),
])
def test_field3_near_miss(text, not_entry):
    assert not_entry not in {m.entry.id for m in match(text)}


def test_the_windows_flash_warning_never_outranks_a_real_error():
    log = ("C:\\app\\attention.py:407: UserWarning: 1Torch was not compiled with flash attention.\n"
           "Error running sage attention: SM89 kernel is not available. Make sure you GPUs with compute capability 8.9., "
           "using pytorch attention instead.\n")
    ids = [m.entry.id for m in match(log)]
    assert ids[0] != "sdpa.built-without-flash" and ids[-1] == "sdpa.built-without-flash"


# ---- fix lines fitted to the environment (knowledge/tailor.py) -------------------------------------

E4 = ("WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
      "    PyTorch 2.1.0+cu121 with CUDA 1201 (you have 2.2.0+cu121)\n"
      "    Python  3.10.13 (you have 3.10.13)\n"
      "  Please reinstall xformers (see https://github.com/facebookresearch/xformers#installing-xformers)\n")


def test_row_12_the_index_comes_from_the_log_not_a_default():
    """New-user report row 12: this log says cu121, so no cu130 (or cu128) build is named; xformers'
    release for torch 2.2.0 is not in installs/xformers.toml, so its version stays a word the shell
    refuses (an unset ${XFORMERS:?...}); no registry host is named (issue 20)."""
    r = examine(E4)
    fix = r.found[0].fix
    assert r.versions.torch == "2.2.0+cu121" and r.versions.index == "cu121"
    assert "its cu121 build" in fix and "cu130" not in fix and "cu128" not in fix
    assert '"xformers==${XFORMERS:?the xformers release built for torch 2.2.0}"' in fix
    assert "http" not in fix


def test_a_known_torch_gets_its_xformers_release():
    log = E4.replace("(you have 2.2.0+cu121)", "(you have 2.8.0+cu126)")
    fix = examine(log).found[0].fix
    assert "'xformers==0.0.32.post2'" in fix and "its cu126 build: PyTorch's wheel index for cu126" in fix


def test_without_versions_the_fix_keeps_placeholders_a_shell_refuses(tmp_path):
    fix = examine("WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n").found[0].fix
    assert '"xformers==${XFORMERS:?the xformers release built for your torch}"' in fix
    cmd = "touch ran-before; " + fix.split("   #")[0].replace("python -m pip install", "touch pip-ran")
    r = subprocess.run(["bash", "-c", cmd], cwd=tmp_path, capture_output=True, text=True, timeout=30)
    assert r.returncode != 0 and "XFORMERS" in r.stderr  # bash refuses the command, saying what to set ...
    assert not (tmp_path / "pip-ran").exists()  # ... and does not run it
    assert bash_n(fix)


def bash_n(line: str) -> bool:
    return subprocess.run(["bash", "-n"], input=line + "\n", capture_output=True, text=True, timeout=30).returncode == 0


def test_the_checked_environment_wins_over_the_log():
    env = Versions("2.7.1+cu128", "cu128", "/srv/venv")
    fix = examine(E4, env).found[0].fix
    assert "'xformers==0.0.31.post1'" in fix and "its cu128 build" in fix


@pytest.mark.parametrize("line,torch,index", [
    ("xformers 0.0.35 requires torch==2.10.0, but you have torch 2.11.0+cu130 which is incompatible.", "2.11.0+cu130", "cu130"),
    ("PyTorch version: 2.7.1+cu126\nCUDA used to build PyTorch: 12.6", "2.7.1+cu126", "cu126"),
    ("PyTorch version: 2.9.0\nCUDA used to build PyTorch: 12.8", "2.9.0", "cu128"),
    ("Successfully installed torch-2.8.0+cu128 torchvision-0.23.0+cu128", "2.8.0+cu128", "cu128"),
    ("torch: 2.5.1+cu124", "2.5.1+cu124", "cu124"),
])
def test_versions_read_from_the_input(line, torch, index):
    r = examine(line + "\n")
    assert (r.versions.torch, r.versions.index) == (torch, index)


def test_a_removed_torch_in_a_uv_log_is_not_the_installed_one():
    r = examine(" - torch==2.7.1+cu128\n + torch==2.8.0+cu126\n + xformers==0.0.32.post2\n")
    assert r.versions.torch == "2.8.0+cu126"


def test_only_placeholders_are_filled_and_a_torch_for_another_gpu_stays_one():
    v = Versions("2.8.0+cu126", "cu126", "x")
    other = 'pip install "torch==${TORCH:?a torch release built for your GPU}"   # cu128+ builds for Blackwell'
    assert tailor.tailor(other, v) == other.replace("pip install", "python -m pip install")
    same = 'pip install --force-reinstall --no-deps "torch==${TORCH:?your torch version, as pip show torch prints it}"'
    assert tailor.tailor(same, v) == "python -m pip install --force-reinstall --no-deps 'torch==2.8.0+cu126'"
    xf = 'pip install --no-deps "xformers==${XFORMERS:?the xformers release built for your torch}"'
    assert tailor.tailor(xf, v) == "python -m pip install --no-deps 'xformers==0.0.32.post2'"


def test_explain_from_a_saved_report_and_an_interpreter(tmp_path, monkeypatch, capsys):
    from pathlib import Path

    from attn_doctor.cli import main

    monkeypatch.setenv("NO_COLOR", "1")
    log = tmp_path / "e4.txt"
    log.write_text(E4)
    report = Path(__file__).resolve().parents[1] / "fixtures" / "gpu" / "h100-final" / "reports" / "after-again.json"
    code = main(["explain", "--json", "--from", str(report), str(log)])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["versions"]["torch"] == "2.11.0+cu130" and doc["versions"]["index"] == "cu130"
    fix = doc["matches"][0]["fix"]
    # the saved report's env: its cu130 build, aimed at the interpreter that report checked (issue 20)
    assert "its cu130 build" in fix and fix.startswith("/opt/torch/.venv/bin/python3 -m pip install")
    code = main(["explain", "--python", "/nonexistent/python", str(log)])
    err = capsys.readouterr().err
    assert code == 2 and "--python" in err and err.count("\n") == 1
    code = main(["explain", "--python", "x", "--from", str(report), str(log)])
    assert code == 2 and "not both" in capsys.readouterr().err


def test_text_output_says_what_the_fix_was_fitted_to(tmp_path, monkeypatch, capsys):
    from attn_doctor.cli import main

    monkeypatch.setenv("NO_COLOR", "1")
    (tmp_path / "e4.txt").write_text(E4)
    assert main(["explain", str(tmp_path / "e4.txt")]) == 0
    out = capsys.readouterr().out
    assert re.search(r"for: torch 2\.2\.0\+cu121 \(cu121\), read from the input \(line 2\)", out)


def test_explain_with_python_reads_that_environments_torch(tmp_path, monkeypatch, capsys):
    """--python asks the interpreter for its sys.path and reads torch's metadata there (nothing is
    imported); here the interpreter running these tests, whatever torch build it has."""
    import importlib.metadata as md
    import sys

    from attn_doctor.cli import main

    monkeypatch.setenv("NO_COLOR", "1")
    log = tmp_path / "e4.txt"
    log.write_text(E4)
    assert main(["explain", "--json", "--python", sys.executable, str(log)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["versions"]["torch"] == md.version("torch") and doc["versions"]["from"] == sys.executable
    assert "(you have" not in doc["versions"]["from"]  # the environment, not the log, was used
