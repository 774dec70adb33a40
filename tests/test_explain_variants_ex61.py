"""Variants for session 9's helper ex61 (issue 23: mechanisms the generic layer's helpers ex55-ex59 saw and left). Every text
was written by hand from the mechanism, NOT copied from a thread: other backends, wordings, languages, paths. Near misses beside
each say what must NOT happen.

  names     backend names as users type them in titles (prose.toml B, attribution.toml): fa2/fa3/FA-3 (a lower-case sdpa stays unnamed),
            lower-case bare sage with an attention user's context, xformers0.0.28 with its version glued on, flex attn.
  head      a first pasted line whose ISO time prefix LINE_PREFIX strips is read by the head as the program's line it is
            (match.py _head_times), as `[09:14:03] WARNING ...` is.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from attn_doctor.explain import match

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from explain_generic import generic_ids  # noqa: E402


def first(text: str, generic: bool = False) -> tuple[str | None, str | None]:
    """(entry id, backend) of the first problem explain reports (with the generic layer alone if asked)."""
    found = match(text, ids=generic_ids()) if generic else match(text)
    return (found[0].entry.id, found[0].backend) if found else (None, None)


# ---- names ----------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ("sage crashes on my 5090", "sage"),
    ("comfyui sage not working after the update", "sage"),
    ("sage gives black images with wan 2.2", "sage"),
    ("fa2 not installed error", "fa2"),
    ("fa3 fails to build on H100", "fa3"),
    ("FA-3 does not support RTX 4090", "fa3"),
    ("fa-3 on the 5090 does not work", "fa3"),
    ("xformers0.0.28 fails to install on windows", "xformers"),
    ("flash-attn2 build fails on windows", "fa2"),
    ("sageattn fails to import", "sage"),
    ("flex attn compile error with torch.compile", "flex"),
    ("flex_attn is slow on my A100", "flex"),
])
def test_names_as_typed(text, backend):
    assert first(text, generic=True)[1] == backend
    assert first(text)[1] == backend


@pytest.mark.parametrize("text", [
    "SageMath fails to install on windows",  # another library: the name is glued into a word
    "sage: command not found after the upgrade",  # SageMath's prompt/command
    "sage -pip install torch fails on my machine",  # SageMath's own pip
    "from sage.all import * fails with an error",  # SageMath's module
    "thanks @sage for the help, it works now",  # a person
    "sage advice: pin your versions, this fails otherwise",  # the word
    "my fan fails on my 5090",  # "fa" inside another word
    "the fa2F operator is picked by xformers and fails",  # xformers' own operator name, glued
])
def test_names_near_misses(text):
    found = first(text, generic=True)
    assert found[1] not in ("sage", "fa2", "fa3"), found


def test_lower_case_sdpa_stays_unnamed():
    # a lower-case sdpa is a setting's value far more often than the backend in words ("even though sdpa is selected in the loader",
    # "sdpa in the config file": tests/test_explain_variants_6b.py, _18.py, _33.py); helper ex61 left it unnamed
    from attn_doctor.knowledge.attribution import first_named
    assert first_named("sdpa is slow on my V100") is None
    assert first_named("SDPA is slow on my V100") == "sdpa"


def test_version_list_is_no_backend():
    # a version list names no FA generation: "2.5.8, 2.6.3" are flash-attn's versions, and the text names no backend at all
    assert first("Tested versions: 2.5.8, 2.6.3, 2.7.4 and all fail on my 5090", generic=True) == (None, None)


# ---- head: a time prefix stripped from the first pasted line --------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ("Training fails on startup\n\n2025-11-02 09:14:03 WARNING Flash attention is only supported on A100 or H100 GPU", "fa2"),
    ("Training fails on startup\n\n2025-11-02T09:14:03.123Z WARNING SageAttention is not supported on this GPU", "sage"),
    ("推理报错\n\n[2025-11-02 09:14:03,512] WARNING: xformers is not available, memory efficient attention will fail", "xformers"),
    ("Training fails on startup\n\n[09:14:03] WARNING Flash attention is only supported on A100 or H100 GPU", "fa2"),  # worked before
])
def test_head_reads_time_prefixed_program_line(text, backend):
    assert first(text, generic=True) == ("prose.fails", backend)


def test_head_time_prefix_near_miss():
    # a logger's INFO line under the title says nothing fails: still no claim
    assert first("Training fails on startup\n\n2025-11-02 09:14:03 INFO Loading the model with flash attention 2",
                 generic=True) == (None, None)


# ---- flash_attn_interface: FA3's top-level module (hopper/setup.py py_modules), FA2's only inside flash_attn/ ----------

FA3_TOP = [
    "AttributeError: module 'flash_attn_interface' has no attribute 'flash_attn_func'",
    "TypeError: flash_attn_interface.flash_attn_func() got an unexpected keyword argument 'softmax_scale'",
    "Traceback (most recent call last):\n  File \"C:\\w\\build\\lib.win-amd64-cpython-312\\flash_attn_interface.py\", line 70, in "
    "_flash_attn_forward\n    out = _C.fwd(q, k, v)\nRuntimeError: CUDA error: an illegal memory access was encountered",
    "Traceback (most recent call last):\n  File \"/w/test.py\", line 3, in <module>\n    from hopper.flash_attn_interface import "
    "flash_attn_func\nImportError: libcudart.so.13: cannot open shared object file: No such file or directory",
    "Traceback (most recent call last):\n  File \"/w/model.py\", line 3, in <module>\n    import flash_attn_interface\n"
    "ModuleNotFoundError: No module named 'flash_attn_interface'",
]


@pytest.mark.parametrize("text", FA3_TOP)
def test_top_level_flash_attn_interface_is_fa3(text):
    assert first(text)[1] == "fa3"


@pytest.mark.parametrize("text", [
    # FA2's own module, dotted or as its path, and vLLM's vendored copy: not FA3 by the module's name
    "Traceback (most recent call last):\n  File \"/w/.venv/lib/python3.12/site-packages/flash_attn/flash_attn_interface.py\", "
    "line 91, in _flash_attn_forward\n    out = flash_attn_gpu.fwd(q, k, v)\nRuntimeError: CUDA error: an illegal memory access was "
    "encountered",
    "ImportError: cannot import name 'flash_attn_func' from 'flash_attn.flash_attn_interface' "
    "(/w/site-packages/flash_attn/flash_attn_interface.py)",
    "Traceback (most recent call last):\n  File \"/w/site-packages/vllm/vllm_flash_attn/flash_attn_interface.py\", line 91, in "
    "flash_attn_varlen_func\n    out = torch.ops._vllm_fa2_C.varlen_fwd(q, k, v)\nRuntimeError: CUDA error: an illegal memory "
    "access was encountered",
])
def test_flash_attn_interface_inside_a_package_is_not_fa3(text):
    assert first(text)[1] == "fa2"


# ---- pip: a backend collected, then its build's first step fails (builds.toml build.pip-step-failed, build.no-arch-list) ----

BOX = ("  error: subprocess-exited-with-error\n\n  × {step} did not run successfully.\n  │ exit code: 1\n  ╰─> [6 lines of output]\n"
       "      Traceback (most recent call last):\n        File \"<string>\", line 2, in <module>\n{error}\n      [end of output]\n\n"
       "  note: This error originates from a subprocess, and is likely not a problem with pip.\nerror: metadata-generation-failed\n")
TITLE = "Install problem\n\nUbuntu 22.04, python 3.11.\ntorch 2.5.1 from the cu124 index.\nCUDA 12.4 toolkit.\ngcc 11.4.\nHere:\n\n"


@pytest.mark.parametrize("text,backend", [
    (TITLE + "Collecting flash-attn\n  Downloading flash_attn-2.8.3.tar.gz (8.4 MB)\n  Preparing metadata (setup.py) ... error\n"
     + BOX.format(step="python setup.py egg_info", error="      TypeError: expected string or bytes-like object, got 'NoneType'"), "fa2"),
    (TITLE + "Collecting sageattention==2.2.0 (from -r requirements.txt (line 7))\n  Using cached sageattention-2.2.0.tar.gz (40 kB)\n"
     "  Installing build dependencies ... done\n  Getting requirements to build wheel ... error\n"
     + BOX.format(step="Getting requirements to build wheel", error="      AttributeError: module 'pkgutil' has no attribute 'ImpImporter'"), "sage"),
    (TITLE + "Processing ./flash-attention/hopper\n  Preparing metadata (pyproject.toml) ... error\n"
     + BOX.format(step="Preparing metadata (pyproject.toml)", error="      KeyError: 'flash_attn_3'"), "fa3"),
    ("Collecting xformers==0.0.29\n  Downloading xformers-0.0.29.tar.gz (7.8 MB)\n  Getting requirements to build wheel ... error\n"
     + BOX.format(step="Getting requirements to build wheel", error="      error in xformers setup command: bad requirement"), "xformers"),
])
def test_pip_step_of_a_backend_fails(text, backend):
    found = match(text)
    assert found and found[0].backend == backend, [(f.entry.id, f.backend) for f in found]
    assert any(f.entry.id == "build.pip-step-failed" for f in match(text, ids=generic_ids()))


def test_pip_no_gpu_in_a_backends_setup_is_no_arch_list():
    text = ("Collecting sageattention\n  Using cached sageattention-2.2.0.tar.gz\n  Preparing metadata (setup.py) ... error\n"
            + BOX.format(step="python setup.py egg_info", error="        File \"/tmp/pip-install-q1/setup.py\", line 75, in <module>\n"
                         "          major, minor = torch.cuda.get_device_capability(0)\n      RuntimeError: No CUDA GPUs are available"))
    assert first(text) == ("build.no-arch-list", "sage")
    # the same error line in a run (no pip step around it) stays torch's CUDA initialisation failure
    assert first("Traceback (most recent call last):\n  File \"/w/run.py\", line 3, in <module>\n    torch.zeros(1).cuda()\n"
                 "RuntimeError: No CUDA GPUs are available")[0] != "build.no-arch-list"


@pytest.mark.parametrize("other,error", [
    ("mamba-ssm", "      OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root."),
    ("causal-conv1d", "      RuntimeError: No CUDA GPUs are available"),
    ("pycairo", "      ../cairo/meson.build:31:12: ERROR: Dependency \"cairo\" not found, tried pkgconfig"),
])
def test_pip_backend_collected_fine_then_another_package_fails(other, error):
    text = (f"Collecting flash-attn==2.7.4.post1 (from -r requirements.txt (line 12))\n  Using cached flash_attn-2.7.4.post1.tar.gz (6.0 MB)\n"
            f"  Preparing metadata (setup.py) ... done\nCollecting {other} (from -r requirements.txt (line 13))\n"
            f"  Using cached {other}-1.0.tar.gz (91 kB)\n  Preparing metadata (setup.py) ... error\n"
            + BOX.format(step="python setup.py egg_info", error=error))
    found = match(text)
    assert not any(f.entry.id in ("build.pip-step-failed", "build.no-arch-list") for f in found)
    assert not any(f.backend for f in found), [(f.entry.id, f.backend) for f in found]


# ---- attribution: a backend the entry's own match names first, beside another library on the same line -----------------

@pytest.mark.parametrize("text,backend", [
    ("xformers and bitsandbytes may not have a prebuilt wheel for your torch, so pip compiles them", "xformers"),
    ("sageattention and mmcv do not ship pre-compiled wheels for Windows; you have to build both.", "sage"),
    ("flash-attention 2 and detectron2 may not have pre-compiled wheels for torch 2.6, so you need the CUDA toolkit.", "fa2"),
])
def test_backend_subject_beside_another_library(text, backend):
    assert first(text) == ("build.prebuilt-wheel-missing", backend)


@pytest.mark.parametrize("text", [
    # the other library IS the failure: its own binary's path comes first, the backend only beside it
    "ImportError: /opt/venv/lib/python3.10/site-packages/mmcv/_ext.cpython-310-x86_64-linux-gnu.so: undefined symbol: "
    "_ZN3c104cuda9SetDeviceEi (right after pip install flash-attn)",
    "I installed flash-attn 2.7.4 and mmcv 2.1.0.\nImportError: /opt/venv/lib/python3.10/site-packages/mmcv/_ext.cpython-310-"
    "x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi",
    # the library is the subject; the backend is said to be fine
    "mmcv may not have pre-compiled wheel for torch 2.5, flash attn installed fine",
])
def test_other_library_failure_stays_its_own(text):
    assert first(text) == (None, None)
