"""Variants for session 9's helper ex61 (issue 23: mechanisms the generic layer's helpers ex55-ex59 saw and left). Every text
was written by hand from the mechanism, NOT copied from a thread: other backends, wordings, languages, paths. Near misses beside
each say what must NOT happen.

  names     backend names as users type them in titles (prose.toml B, attribution.toml): fa2/fa3/FA-3, lower-case sdpa in words,
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
    ("sdpa is broken on my V100 after the update", "sdpa"),
    ("sdpa 在 4090 上报错", "sdpa"),
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


def test_sdpa_config_value_names_nothing():
    # a quoted config value or a list's item is no backend named in words (attribution.toml keeps the lower-case config word out)
    from attn_doctor.knowledge.attribution import first_named
    assert first_named("impl='sdpa'") is None
    assert first_named("backends: eager, sdpa, flash") is None
    assert first_named("path/to/sdpa_bench.py") is None
    assert first_named("sdpa is slow on my V100") == "sdpa"


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
