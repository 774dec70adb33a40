"""Variants for the attribution mechanisms of session 7's helper ex48 (issue 23: in-sample texts matched with the wrong
backend because a backend is named inside another library's sentence or beside it; benchmarks/results/
residual-backend-s7.md, group "named inside another library's sentence"). Every text was written by hand from the
mechanism, NOT copied from a thread: other paths, versions, wrappers, apps and wordings. Near misses beside each say what
must NOT happen.

  persisted  attribution._persisted_removed (in _scrub): a sentence that switched the attention path ("turned it over to
             SDPA", "switched the attention to xformers") while the error stayed the same names no failing backend:
             the one switched to and the one switched from are both ruled out. A sentence with a version number
             ("switched to flash-attn 2.5.8, same error") is that backend's own versions still failing: it still names it.
  import     attribution._import_chain_only ([own_if_named] flex.triton-broken): a backend whose package only imports the
             library that breaks (module-level `from sageattention import sageattn` -> sageattention/core.py `import
             triton` -> Triton's ImportError) carries the import and ran nothing; a frame that calls something still
             names its backend.
  torch-too  attribution.toml [[library]] none: torch named first beside a backend, both said not to support the GPU
             ("Torch and xFormers do not support RTX 50xx yet", "Torch 与 xFormers 版本均暂不支持"): torch's own build lacks
             the architecture; the sentence names no backend that failed. A backend said alone not to support it, or
             beside a torch said to work, still names the backend.
"""

from __future__ import annotations

import pytest

from explain_top import first, tb


TRITON_BROKEN = "ImportError: cannot import name 'AttrsDescriptor' from 'triton.compiler.compiler'"


# ---- persisted ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Torch compile fails in my Wan workflow.\n"
    "To rule out SageAttention I switched the attention to SDPA, but the error is exactly the same.\n"
    + TRITON_BROKEN,
    "torch.compile breaks at import.\n"
    "I changed it to xformers instead of sage and the same error shows up.\n"
    + TRITON_BROKEN + " (C:\\AI\\venv\\Lib\\site-packages\\triton\\compiler\\compiler.py)",
    "Compiling the model fails. Swapped the backend to flash attention; the problem persists.\n" + TRITON_BROKEN,
])
def test_backend_switched_with_same_error_is_ruled_out(text):
    assert first(text) == ("flex.triton-broken", None)


@pytest.mark.parametrize("text,backend", [
    # near misses: a version switch of one backend that keeps failing still names it; a switch that fixed it names the
    # one that failed (the clause that says it works is blanked elsewhere, not here)
    ("flash-attn's Triton AMD path fails at import.\n"
     "I switched to flash-attn 2.7.4 but the error stayed the same.\n"
     "ImportError: cannot import name 'intel' from 'triton._C.libtriton'", "fa2"),
    ("SageAttention crashes at import: " + TRITON_BROKEN, "sage"),
])
def test_switch_without_same_error_keeps_backend(text, backend):
    assert first(text) == ("flex.triton-broken", backend)


# ---- import ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    TRITON_BROKEN + "\n\n" + tb(
        ("D:\\SD\\ComfyUI\\main.py", 90, "<module>", "import nodes"),
        ("D:\\SD\\ComfyUI\\comfy\\ldm\\modules\\attention.py", 19, "<module>", "from sageattention import sageattn"),
        ("D:\\SD\\python\\Lib\\site-packages\\sageattention\\__init__.py", 1, "<module>", "from .core import sageattn"),
        ("D:\\SD\\python\\Lib\\site-packages\\sageattention\\core.py", 3, "<module>", "import triton")),
    # (the report's title is the error; the pasted traceback is cut under the backend's `import triton`)
    tb(("/opt/app/run.py", 3, "<module>", "import model"),
       ("/opt/venv/lib/python3.12/site-packages/xformers/ops/fmha/triton_splitk.py", 7, "<module>",
        "import triton"),
       ("/opt/venv/lib/python3.12/site-packages/triton/__init__.py", 8, "<module>",
        "from .compiler import compile, CompilationError"),
       error=TRITON_BROKEN),
])
def test_backend_that_only_imports_broken_triton_is_none(text):
    assert first(text) == ("flex.triton-broken", None)


@pytest.mark.parametrize("text,backend", [
    # near misses: the backend's frame calls something (a function's body, not a module-level import)
    (tb(("/srv/app/gen.py", 120, "sample", "x = sageattn(q, k, v, tensor_layout='NHD')"),
        ("/venv/lib/python3.11/site-packages/sageattention/core.py", 410, "sageattn",
         "from triton.compiler.compiler import AttrsDescriptor"),
        error=TRITON_BROKEN), "sage"),
    (tb(("/app/model.py", 80, "forward", "out = flex_attention(q, k, v, block_mask=mask)"),
        ("/venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py", 1300, "flex_attention",
         "from triton.compiler.compiler import AttrsDescriptor"),
        error=TRITON_BROKEN), "flex"),
])
def test_backend_frame_that_runs_keeps_backend(text, backend):
    assert first(text) == ("flex.triton-broken", backend)


# ---- torch-too ------------------------------------------------------------------------------------------------------

NO_KERNEL = "RuntimeError: CUDA error: no kernel image is available for execution on the device"


@pytest.mark.parametrize("text", [
    NO_KERNEL + "\nTorch and xformers do not support the RTX 5090 yet, wait for the next release.",
    NO_KERNEL + "\n当前 PyTorch 和 xformers 还不支持 50 系显卡。",
    "Generation crashes on my RTX 5080.\n" + NO_KERNEL + "\nMaintainer: PyTorch & SageAttention builds don't support sm_120 yet.",
])
def test_torch_beside_backend_not_supporting_gpu_is_torch(text):
    assert first(text) == ("gpu.arch-not-in-torch", None)


@pytest.mark.parametrize("text", [
    # near misses: the backend alone does not support it, or torch is said to support it
    NO_KERNEL + "\nxformers does not support RTX 5090 yet; torch 2.7 works.",
    NO_KERNEL + "\nPyTorch 2.7 supports Blackwell, but xformers does not support it yet.",
])
def test_backend_alone_not_supporting_gpu_keeps_backend(text):
    assert first(text) == ("gpu.arch-not-in-torch", "xformers")
