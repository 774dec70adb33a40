"""Variants for helper ex154 (session 27): the misses of round 154m (fixtures/errors/round154m, gathered blind by ex151m in
session 26, measured three times by the lead, training material since this helper read it).

Every case was written by hand (2026-11-30): other models, versions, paths, GPUs, apps and wordings than the fixtures. The
positives name what explain must report first (entry, backend; None: any backend); the near misses what it must not claim; no
pattern written or widened here matches an unrelated log of any training round (the measure-only sets are never read).

Mechanisms (knowledge file: rule; the round 154m text it came from):
  interface  flash_attn.toml fa2.api-renamed: a public FlashAttention function missing from flash_attn.flash_attn_interface with no
             location printed (Dao-AILab/flash-attention#438); the import error said in words between the code's 2.x and an
             installed or pinned 1.x (OpenGVLab/Ask-Anything#91)
  skipbuild  flash_attn.toml fa2.no-extension: FLASH_ATTENTION_SKIP_CUDA_BUILD=TRUE beside flash_attn's import said to fail
             (PrimeIntellect-ai/prime-rl#2587)
  tags       wheels.toml install.wheel-other-platform: pip's refusal retold with the backend and the wheel's tags, no file name
             (Engineer-of-Stuff/stable-diffusion-paperspace#97)
  uvmeta     builds.toml build.isolation: uv's "Failed to download and build" / "Failed to build" and the metadata hook
             (`prepare_metadata_for_build_wheel`) failing in its isolated build (astral-sh/uv#1715)
  registry   frameworks.toml app.unknown-backend-name: vLLM's "Backend NAME must be registered before use"; attribution.toml:
             TORCH_SDPA is SDPA's name (eugr/spark-vllm-docker#298)
  keeptorch  xformers.toml xformers.replaced-torch: installing xformers "without changing torch" said as what cannot be done
             (facebookresearch/xformers#875)
  outattn    frameworks.toml transformers.sdpa-output-attentions: output_attentions=True said incompatible with SDPA / flash, or
             the fallback said as reverting to eager (sillsdev/machine.py#201)
  pyapi      triton.toml triton.launcher-build: the launcher source's implicit declaration of a Python C-API function, tcc's
             undefined Py* symbol (woct0rdho/triton-windows#111)
  vmap       sdpa.toml sdpa.vmap-fallback (new): vmap's batching-rule fallback for an SDPA kernel (pytorch/functorch#1135)
  issues     attribution.toml ATTNSAID: "issues" / "problems" met on an old GPU count as a failure word (haotian-liu/LLaVA#275)
  guess      match.py GUESS: a line giving the writer's guess at the cause ranks after a line that shows the failure
             (IgorAherne/trellis-stable-projectorz#55)
"""

from __future__ import annotations

import pytest

from explain_top import assert_claim_no_unrelated_log, assert_patterns_match_no_unrelated_log, first, ids


@pytest.mark.parametrize("text, want", [
    # interface
    ("  File \"/home/user/app/modeling_mpt.py\", line 9, in <module>\n    from flash_attn.flash_attn_interface import "
     "flash_attn_func\nImportError: cannot import name 'flash_attn_func' from 'flash_attn.flash_attn_interface'",
     ("fa2.api-renamed", "fa2")),
    ("Space build log: ImportError: cannot import name 'flash_attn_varlen_kvpacked_func' from 'flash_attn.flash_attn_interface'",
     ("fa2.api-renamed", "fa2")),
    ("Running the demo gives an ImportError because the repo calls flash-attn 2 functions, but my env has flash-attn 1.0.7.",
     ("fa2.api-renamed", "fa2")),
    ("cannot import from flash_attn: requirements.txt pins flash-attn 1.0.4 while the model code needs v2", ("fa2.api-renamed", "fa2")),
    # skipbuild
    ("We set FLASH_ATTENTION_SKIP_CUDA_BUILD=TRUE in the image and now `import flash_attn` fails on the ARM nodes.",
     ("fa2.no-extension", "fa2")),
    ("import flash_attn breaks on the Grace Hopper box since our env has FLASH_ATTENTION_SKIP_CUDA_BUILD=\"TRUE\"",
     ("fa2.no-extension", "fa2")),
    # tags
    ("ERROR: xformers 0.0.28 cp311-cp311 win_amd64 is not a supported wheel on this platform.",
     ("install.wheel-other-platform", "xformers")),
    ("flash_attn cp38 is not a supported wheel on this platform", ("install.wheel-other-platform", "fa2")),
    # uvmeta
    ("  × Failed to download and build `sageattention==2.2.0`\n  Caused by: Failed to build: `sageattention==2.2.0`\n  Caused by: "
     "Build backend failed to determine metadata through `prepare_metadata_for_build_wheel` with exit status: 1\n--- stdout:",
     ("build.isolation", "sage")),
    ("error: Failed to build: flash-attn==2.5.8\n  Caused by: Build backend failed to determine requirements with "
     "`build_wheel()` with exit status: 1", ("build.isolation", "fa2")),
    # registry
    ("(EngineCore_DP0 pid=311) ERROR 02-11 09:12:40 [core.py:708] ValueError: Backend TORCH_SDPA must be registered before use. "
     "Use register_backend(Backend.TORCH_SDPA, 'your.module.YourClass')", ("app.unknown-backend-name", "sdpa")),
    ("VLLM_ATTENTION_BACKEND=CUSTOM vllm serve Qwen/Qwen3-8B\n...\nValueError: Backend CUSTOM must be registered before use.",
     ("app.unknown-backend-name", None)),
    # keeptorch
    ("Is there a way to install xformers without replacing my torch 2.3.1+cu121? pip keeps pulling torch 2.5", ("xformers.replaced-torch",
                                                                                                                 "xformers")),
    ("can't build the xformer wheel without it downgrading torch", ("xformers.replaced-torch", "xformers")),
    # outattn
    ("The pipeline sets `output_attentions=True` for the alignment step; this is not compatible with flash_attention_2, so the "
     "model runs eager.", ("transformers.sdpa-output-attentions", None)),
    ("Because our scorer passes output_attentions=True, Hugging Face reverts to the eager attention implementation.",
     ("transformers.sdpa-output-attentions", None)),
    # pyapi
    ("/tmp/tmp81x_/cuda_utils.c:95:12: error: implicit declaration of function 'PyLong_AsVoidPtr' "
     "[-Wimplicit-function-declaration]", ("triton.launcher-build", None)),
    ("tcc: error: undefined symbol 'PyTuple_GET_ITEM'\nwhen running FlexAttention through triton-windows", ("triton.launcher-build", None)),
    # vmap
    ("UserWarning: There is a performance drop because we have not yet implemented the batching rule for "
     "aten::_scaled_dot_product_flash_attention. Please file us an issue on GitHub so that we can prioritize its implementation.",
     ("sdpa.vmap-fallback", "sdpa")),
    ("per-sample gradients with torch.func are slow: batching rule for aten::_scaled_dot_product_efficient_attention is missing",
     ("sdpa.vmap-fallback", "sdpa")),
    # issues
    ("Is it possible to train without flash-attn? We hit several problems with our P100 cards during the first epoch.",
     ("backend.unsupported-gpu", "fa2")),
    # guess
    ("i asked chatgpt, it seems to be that Blackwell (sm_120, RTX 5080) is not supported by FlashAttention, any workaround?\n"
     "Sampling:  0%|  | 0/25 [00:00<?, ?it/s]CUDA error (C:/build/xformers/third_party/flash-attention/hopper/"
     "flash_fwd_launch_template.h:174): invalid argument", ("attn.kernel-launch-error", "xformers")),
])
def test_round154m_variants(text, want):
    got = first(text)
    assert got[0] == want[0] and (want[1] is None or got[1] == want[1]), (text, ids(text), got)


@pytest.mark.parametrize("text, must_not", [
    # interface: an empty namespace package (unknown location) is another failure
    ("ImportError: cannot import name 'flash_attn_func' from 'flash_attn.flash_attn_interface' (unknown location)", "fa2.api-renamed"),
    # interface: two versions named, no import error
    ("We benchmarked flash-attn 2.5 rather than 1.0.9 because the old one is slower.", "fa2.api-renamed"),
    # skipbuild: the switch set FALSE
    ("FLASH_ATTENTION_SKIP_CUDA_BUILD=FALSE, import flash_attn fails with an undefined symbol", "fa2.no-extension"),
    # skipbuild: the switch set, the import works
    ("FLASH_ATTENTION_SKIP_CUDA_BUILD=TRUE for the sdist job; import flash_attn works in the test image", "fa2.no-extension"),
    # tags: another package's wheel
    ("ERROR: onnxruntime_gpu cp312-cp312 is not a supported wheel on this platform.", "install.wheel-other-platform"),
    # uvmeta: another package's build
    ("error: Failed to build: pycairo==1.26.0\n  Caused by: Build backend failed to determine metadata through "
     "`prepare_metadata_for_build_wheel` with exit status: 1", "build.isolation"),
    # uvmeta: the build's own exception shown (a compile error, not the isolation)
    ("error: Failed to build: flash-attn==2.6.3\n  Caused by: Build backend failed to determine metadata through "
     "`prepare_metadata_for_build_wheel` with exit status: 1\n--- stderr:\nOSError: CUDA_HOME environment variable is not set.",
     "build.isolation"),
    # registry: a lower-case word
    ("the plugin backend must be registered before use, see the docs", "app.unknown-backend-name"),
    # keeptorch: torch alone
    ("how do I upgrade diffusers without changing torch?", "xformers.replaced-torch"),
    # outattn: asked with the eager implementation, nothing incompatible
    ("We call generate(output_attentions=True) with attn_implementation='eager' and it works.", "transformers.sdpa-output-attentions"),
    # pyapi: an implicit declaration in the user's own extension, not the launcher
    ("src/my_ext.c:12: warning: implicit declaration of function 'PyList_GET_SIZE'", "triton.launcher-build"),
    # vmap: another op's fallback
    ("UserWarning: There is a performance drop because we have not yet implemented the batching rule for aten::linalg_lu_factor_ex.",
     "sdpa.vmap-fallback"),
    # issues: the old GPU without issues
    ("flash-attn builds on our V100s and runs without issues for inference (fp16)", "backend.unsupported-gpu"),
])
def test_round154m_near_misses(text, must_not):
    assert must_not not in ids(text), ids(text)


def test_round154m_hedged_statement_is_no_guess():
    """guess: a statement the writer hedges ("..., I think?") says what they saw: its reading keeps its place above the error
    under it (round 13a huggingface/diffusers#2234's structure, other words)."""
    text = ("Turning on --xformers gives black images, numeric instability of some kind, I think?\n"
            "ValueError: Operator `memory_efficient_attention` does not support inputs:")
    assert ids(text)[:2] == ["attn.wrong-output", "xformers.unsupported-inputs"], ids(text)


def test_round154m_model_name_is_no_guess():
    """guess: a chatbot's name as a model a log serves ("deepseek-ai/DeepSeek-V2-Lite") is no chatbot's answer: the line keeps its
    place above the error under it."""
    text = ("Serving deepseek-ai/DeepSeek-V2-Lite on a T4: FlashAttention only supports Ampere GPUs or newer.\n"
            "RuntimeError: CUDA error: no kernel image is available for execution on the device")
    assert ids(text)[0] == "backend.unsupported-gpu", ids(text)


# Each pattern written or widened here, found by a piece of its text, matches no unrelated log of any training round on its own
# (before ranking and attribution decide anything).
PIECES = {
    "fa2.api-renamed": ("(?![ \\t]*\\([^)\\n]*\\))", "rather[ \\t]+than|instead[ \\t]+of|but|while|whereas|not)\\b[^\\n]{0,50}"),
    "fa2.no-extension": "SKIP_CUDA_BUILD",
    "install.wheel-other-platform": "(?:cp3\\d{1,2}|py3\\d?)(?:-(?:cp3",
    "build.isolation": "download and build",
    "app.unknown-backend-name": "registered",
    "xformers.replaced-torch": "without[ \\t]+(?:it",
    "transformers.sdpa-output-attentions": ("{0,160}?\\b(?:(?:is|are)", "revert"),
    "triton.launcher-build": ("implicit declaration", "undefined symbol"),
    "sdpa.vmap-fallback": "batching",
}


def test_round154m_patterns_match_no_unrelated_log():
    assert_patterns_match_no_unrelated_log(PIECES)


def test_round154m_entries_claim_no_unrelated_log():
    assert_claim_no_unrelated_log({"sdpa.vmap-fallback", "app.unknown-backend-name", "fa2.no-extension"})
