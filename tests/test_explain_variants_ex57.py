"""Variants for the attribution mechanisms of session 9's helper ex57 (issue 23: texts the generic layer matched but
attribution dropped or gave another backend; benchmarks/results/explain-generic-attribution-classes.md). Every text was written
by hand from the mechanism, NOT copied from a thread: other paths, versions, wrappers, apps and wordings. Near misses beside
each say what must NOT happen. The tests run explain with the generic layer alone (the ids benchmarks/explain_generic.py
uses), where attribution decides, and a few with every entry.

  messages  attribution.toml [[library]] names: a backend's own message that a specific entry explains still names its
            backend (SDPA's "No available kernel", its attn_mask dtype check, nn.MultiheadAttention's 2D mask shape;
            SageAttention's head-dim asserts, its arch dispatch, its scale CHECK_SHAPE; flash-attn's is_sm80 check and FA 1.x's
            flash_attn_unpadded_*; xformers' "Requires Flash-Attention version"; FA4's FLASH_ATTENTION_CUTE_* variables and
            `_flash_attn_fwd.compile_cache`); "PyTorch Flash Attention" is SDPA's flash kernel; a CamelCase class glued to
            "FlashAttention" wraps flash-attn's module.
  beside    attribution._beside_bare_error (nearest, for entries read only on their traceback): an error with no frame of its
            own takes the caption right above it, the code its own words point to ("see root cause above"), the calls of the
            reproducer block right above or below it, and a message that ends in ':' goes on on the next line; pytest's
            "path.py:NN: ErrorType" line under the E-lines is the frame that raised (attribution.nearest). "block mask(s)"
            in words is a weak name of FlexAttention's.
  family    attribution.first_named: a precise name of the FlashAttention family on the line beats a shared one before it.
  lists     attribution._scrub: a list of choices ('one of: "a", "b"') and a run of three or more code spans name no failing
            backend unless every item names the same one.
  import    attribution._scrub: "cannot import name 'N' from 'M'": a CamelCase class N is M's library's when M names no backend.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from attn_doctor.explain import match
from attn_doctor.knowledge import attribution

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from explain_generic import generic_ids  # noqa: E402


def generic_first(text: str) -> tuple[str | None, str | None]:
    """(entry id, backend) of the first problem explain reports with the generic layer alone; (None, None) for none."""
    found = match(text, ids=generic_ids())
    return (found[0].entry.id, found[0].backend) if found else (None, None)


def backend_of_first(text: str) -> str | None:
    return generic_first(text)[1]


# ---- messages -------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ("RuntimeError: No available kernel.  Aborting execution.\n\nIt happens on my V100 when I call the model in fp32.", "sdpa"),
    ("Inference stops with\n\n    RuntimeError: No available kernel. Aborting execution.\n\nany idea?", "sdpa"),
    ("RuntimeError: Expected attn_mask dtype to be bool or float or to match query dtype, but got attn_mask.dtype: long int "
     "and  query.dtype: c10::BFloat16 instead.", "sdpa"),
    ("RuntimeError: The shape of the 3D attn_mask is torch.Size([8, 64, 64]), but should be (16, 64, 64).", "sdpa"),
    ("AssertionError: headdim should be in [64, 96, 128].\nwhile sampling with my SD1.5 checkpoint", "sage"),
    ("AssertionError: varlen only support head_dim [64, 128].", "sage"),
    ("ValueError: Unsupported head_dim: 256", "sage"),
    ("ValueError: Unsupported CUDA architecture: sm70", "sage"),
    ("RuntimeError: Tensor key_scale must have shape (batch_size, num_kv_heads, div_ceil(kv_len, CTA_K))", "sage"),
    ("RuntimeError: Expected is_sm80 || is_sm90 to be true, but got false.", "fa2"),
    ("NameError: name 'flash_attn_unpadded_kvpacked_func' is not defined", "fa2"),
    ("ImportError: Requires Flash-Attention version >=2.6.0,<=2.7.2 but got 2.8.1.", "xformers"),
    ("RuntimeError: CUDA Error: cudaErrorInvalidDeviceFunction\n  in _flash_attn_bwd.compile_cache[key](...)", "cute"),
])
def test_a_backends_own_message_names_it(text, backend):
    assert backend_of_first(text) == backend


@pytest.mark.parametrize("line,backend", [
    ("FLASH_ATTENTION_CUTE_DSL_CACHE_DIR=/tmp/fa4 makes every process recompile", "cute"),
    ("[Issue]: PyTorch flash attention fails on gfx1100", "sdpa"),
    ("torch's flash-attention kernel is slower than math here", "sdpa"),
    ("MHAFlashAttention raises an unexpected keyword argument error", "fa2"),
])
def test_names_of_a_backend(line, backend):
    assert attribution.first_named(line) == backend


@pytest.mark.parametrize("line", [
    # near misses: another library's arch dispatch prints an integer arch; transformers' per-model classes and vLLM's backend
    # classes are not a class glued in front of FlashAttention; the lower-case op name is many compilers' own
    "NotImplementedError: Unsupported CUDA architecture: 100",
    "FlashAttentionBackend does not support head size 72",
    "`head_size` only be [8, 16, 32, 64, 128] in flash_attention",
    "my_flash_attention: CUDA error: an illegal memory access was encountered",
])
def test_not_names_of_a_backend(line):
    assert attribution.first_named(line) is None


def test_class_name_with_version_suffix_stays_fa2():
    # transformers' own FlashAttention2 classes keep the rule they had (a name of FA2), not the new one
    assert attribution.first_named("LlamaFlashAttention2.forward() got an unexpected keyword argument") == "fa2"


# ---- beside ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    # a reproducer block right above a bare error
    ("attention fails for long sequences\n\n```python\nimport torch\nfrom flash_attn import flash_attn_varlen_func\n"
     "out = flash_attn_varlen_func(q, k, v, cu_q, cu_k, 4096, 4096)\n```\n\nThis raises\n\n"
     "RuntimeError: CUDA error: an illegal memory access was encountered", "fa2"),
    ("mask creation breaks\n```py\nbm = create_block_mask(causal, B=None, H=None, Q_LEN=77, KV_LEN=77)\n```\n"
     "which gives:\n```\nValueError: too many values to unpack (expected 2)\n```", "flex"),
    # a reproducer block right below the error, a heading between
    ("SDPA crashes with an empty batch\n\n> RuntimeError: invalid configuration argument\n\n## Repro\n\n```python\n"
     "import torch.nn.functional as F\nout = F.scaled_dot_product_attention(q, k, v, is_causal=True)\n```", "sdpa"),
    # the call quoted right over its error in one block
    ("```\n    out = sageattn(q, k, v, tensor_layout='NHD')\nTypeError: unsupported operand type(s) for *: 'NoneType' "
     "and 'float'\n```", "sage"),
])
def test_reproducer_block_names_the_bare_error(text, backend):
    assert backend_of_first(text) == backend


@pytest.mark.parametrize("text,backend", [
    ("Errors on the 5090:\n\nKernel build failure (SageAttention 2.2):\nRuntimeError: nvcc fatal : Unsupported gpu "
     "architecture 'compute_120'", "sage"),
    ("Two problems:\nxformers kernel error:\n```\nRuntimeError: CUDA error: invalid configuration argument\n```", "xformers"),
])
def test_caption_over_a_bare_error(text, backend):
    assert backend_of_first(text) == backend


def test_pointer_to_the_root_cause_above():
    text = ("Serving fails on the new GPU\n\n```\nCUDA error (/opt/build/flash-attention/hopper/flash_fwd_launch_template.h:"
            "190): invalid argument\nTraceback (most recent call last):\n  ...\nRuntimeError: Worker failed to start. See root "
            "cause above.\n```")
    assert backend_of_first(text) == "fa3"


def test_message_continued_after_a_colon():
    text = ("RuntimeError: Failed to import pipelines because of the following error (look up to see its traceback):\n"
            "Requires Flash-Attention version >=2.7.1,<=2.7.4 but got 2.8.3.")
    assert backend_of_first(text) == "xformers"


@pytest.mark.parametrize("text", [
    # near misses: a version print, an install line or a package list beside a bare error is no call of the backend;
    # another error between the block and this one is that block's
    "Loading fails\n```python\nimport flash_attn\nprint(flash_attn.__version__)\n```\n"
    "RuntimeError: CUDA error: invalid configuration argument",
    "Loading fails\n```\npip install flash-attn==2.8.3 --no-build-isolation\n```\n"
    "RuntimeError: CUDA error: invalid configuration argument",
    "Loading fails on the new box\n```\nflash-attn 2.8.3\nxformers 0.0.32\ntorch 2.8.0\n```\n"
    "RuntimeError: CUDA error: invalid configuration argument",
])
def test_no_call_beside_the_error_names_nothing(text):
    assert backend_of_first(text) is None


def test_out_of_memory_is_not_given_a_caption():
    # near miss: smoke.oom and attn.gpu-lost keep their backend to their own line or traceback ([needs_backend] own_line_only)
    text = "Benchmarks on the A10\n\nsetup\nRunning the xformers benchmark:\ntorch.OutOfMemoryError: CUDA out of memory."
    assert match(text, ids={"smoke.oom"}) == []
    assert attribution.nearest(text.splitlines(), 5, down=False, beside=False) is None


@pytest.mark.parametrize("text", [
    # near misses, read at the last line (the first lines of an input are its title, read for any error near them):
    # another error between the reproducer and this error is that block's; a line above with no colon is no caption
    "Two runs on the cluster\n\nfirst run\n```python\nout = flash_attn_func(q, k, v)\n```\n"
    "ValueError: bad shape\nRuntimeError: CUDA error: invalid configuration argument",
    "Two runs on the cluster\n\nsetup notes\nxformers is installed\nRuntimeError: CUDA error: invalid configuration argument",
])
def test_last_error_is_not_given_the_block_or_line_above(text):
    lines = text.splitlines()
    assert attribution.nearest(lines, len(lines), down=False) is None


@pytest.mark.parametrize("text,backend", [
    # pytest's report: the place that raised is the "path.py:NN: ErrorType" line under the E-lines
    ("    def test_forward():\n>       out = model(x)\nE       RuntimeError: The size of tensor a (4) must match the size of "
     "tensor b (8) at non-singleton dimension 1\n\n/opt/venv/lib/python3.11/site-packages/transformers/integrations/"
     "sdpa_attention.py:101: RuntimeError", "sdpa"),
    ("E   ValueError: shapes do not line up\nvendor/sageattention/core.py:412: ValueError", "sage"),
])
def test_pytest_location_line_is_the_frame(text, backend):
    assert backend_of_first(text) == backend


def test_pytest_location_after_other_output_is_not_read():
    # near miss: a location line after the captured output of another step is not this error's
    text = ("Model run notes\n\nsetup\nE   RuntimeError: bad shape\n----- Captured stdout -----\nloaded weights\n"
            "pkg/sageattention/core.py:12: UserWarning")
    lines = text.splitlines()
    assert attribution.nearest(lines, 4, down=False) is None


@pytest.mark.parametrize("text,backend", [
    ("NotImplementedError: block masks are not supported with packed sequences on this model", "flex"),
    ("RuntimeError: the block-mask must be created on the same device as the query", "flex"),
    # near miss: a weak name: xformers named on the same message decides
    ("RuntimeError: xformers BlockDiagonalMask and a block mask cannot be combined", "xformers"),
])
def test_block_mask_in_words_names_flex_weakly(text, backend):
    assert backend_of_first(text) == backend


# ---- family ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("line,backend", [
    ("[Flash Attention] wheel for FA3 fails to import", "fa3"),
    ("RuntimeError: mha_fwd, /src/flash-attention/hopper/flash_api.cpp:612, FlashAttention only supports fp16 and bf16", "fa3"),
    ("flash attention crashes: flash_attn.cute.interface raised an arch assert", "cute"),
])
def test_precise_family_name_beats_a_shared_one(line, backend):
    assert attribution.first_named(line) == backend


@pytest.mark.parametrize("line,backend", [
    # near misses: a shared name alone stays FA2's; another backend later on the line does not take over (only the family's)
    ("flash attention crashes on B200 with flash-attn 2.8.3", "fa2"),
    ("flash attention fails, then xformers too", "fa2"),
    ("FlashAttention fails on H100; FA3 works fine", "fa2"),
])
def test_shared_name_first_without_a_precise_one(line, backend):
    assert attribution.first_named(line) == backend


# ---- lists ----------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    'ValueError: This feature needs a fused attention kernel. Choose from: "flash_attention_2", "flash_attention_3", "sdpa".',
    "ValueError: attn_implementation must be one of ['sdpa', 'flash_attention_2', 'flex_attention'], got 'paged'",
    "- backends that failed: `sage`, `xformers`, `_flash_3`, `flex` all call the kernel outside autocast",
])
def test_list_of_choices_names_no_backend(text):
    assert backend_of_first(text) is None


@pytest.mark.parametrize("text,backend", [
    # near misses: a list of one backend's own functions is about it; a plain "one of" in prose is no list
    ("RuntimeError: every variant fails: `sageattn_qk_int8_pv_fp16_cuda`, `sageattn_qk_int8_pv_fp8_cuda`, `sageattn_varlen`",
     "sage"),
    ("RuntimeError: xformers is one of the backends that crashes here", "xformers"),
    ("ValueError: attn_implementation must be one of ['eager', 'sdpa'], got flash_attention_3", "fa3"),
])
def test_list_of_one_backend_or_no_list(text, backend):
    assert backend_of_first(text) == backend


# ---- import ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "ImportError: cannot import name 'Qwen2FlashAttention2' from 'transformers.models.qwen2.modeling_qwen2'",
    "ImportError: cannot import name 'MistralFlashAttention2' from 'transformers.models.mistral.modeling_mistral' "
    "(/opt/venv/lib/python3.11/site-packages/transformers/models/mistral/modeling_mistral.py)",
])
def test_class_imported_from_another_library_names_no_backend(text):
    assert backend_of_first(text) is None


@pytest.mark.parametrize("text,backend", [
    # near misses: the module is the backend's own; a function name keeps its backend whatever module it came from
    ("ImportError: cannot import name 'FlashAttention' from 'flash_attn.flash_attention'", "fa2"),
    ("ImportError: cannot import name 'flash_attn_func' from 'flash_attn' (unknown location)", "fa2"),
    ("ImportError: cannot import name 'sageattn_varlen' from 'sageattention'", "sage"),
    ("ImportError: cannot import name 'SDPBackend' from 'torch.nn.attention' (/srv/env/lib/python3.9/site-packages/torch/nn/"
     "attention/__init__.py)", "sdpa"),
])
def test_import_from_the_backends_own_module_keeps_it(text, backend):
    assert backend_of_first(text) == backend


# ---- the constant ---------------------------------------------------------------------------------------------------

def test_not_seven_is_the_library_rules_non_backends():
    backends = {lib["backend"] for lib in _library_tables()}
    assert set(attribution.NOT_SEVEN) == backends - set(attribution.BACKENDS)


def _library_tables() -> list[dict]:
    import tomllib
    with open(attribution.HERE / "attribution.toml", "rb") as fh:
        return tomllib.load(fh)["library"]
