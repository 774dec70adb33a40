"""Variants for round 26 (issue 23, helper ex26): the long tail, model and research repositories' trackers, whose texts
(fixtures/errors/round26/) main's rules missed.

Every case was written by hand for this round (2026-11-28) from the mechanism, NOT copied from a real thread:
another model, path, version, symbol, wrapper or wording. Each positive case asserts the entry and the backend of
the first problem that can be a failure's cause; the near misses beside each mechanism assert what must NOT be
claimed.

Mechanisms (knowledge file or module: entry):
  evoformer    frameworks.toml deepspeed.evoformer-attn (new): DeepSpeed's Evoformer attention op (OpenFold, OpenFold3,
               Protenix) JIT-built at first use, not compatible without CUTLASS, or its .so missing from the cache
  launcher-tail triton.toml triton.launcher-build: Triton's launcher build command with its head cut off, whose tail still
               names the module it links (MSVC's /OUT:, gcc's -o: cuda_utils / __triton_launcher) before the exit status
  gqa-words    sdpa.toml sdpa.gqa-heads-not-expanded: an SDP(A) fallback said to get fewer key/value heads (GQA) a few
               lines above "The size of tensor a (32) must match the size of tensor b (8) at non-singleton dimension 1"
  black-frames attention.toml attn.wrong-output: a backend said to be on, then frames / images / the rest said to be black
  nsa          attribution.toml [[library]] other: Native Sparse Attention's Triton kernels (native-sparse-attention,
               parallel_nsa*, "with NSA") are an attention library outside the seven: a kernel fault there is claimed
               with no backend
  pip-build    attribution.toml fa2 files: pip's "Building wheel for flash_attn" names FA2's distribution (a bare
               flash_attn is shared with FA4), so a build error under it is FA2's, not that of a backend named further up
  gpu-series   prose.toml GPU: a GPU series written with placeholders ("RTX 50xx", "RTX 5xxx", "RTX 40XX")
  attn-impl-old frameworks.toml transformers.attn-implementation-too-old (new): a model class refusing
               attn_implementation= or use_flash_attention_2= (a transformers older than 4.36 / 4.34 forwards them to __init__)
  random-output attention.toml attn.wrong-output and attribution.toml [[library]] other: the output said to look
               random, near OpenFold's own attention kernel (openfold/utils/kernel, attn_core_inplace_cuda)
  dinov2-notice xformers.toml xformers.not-installed and prose.toml LINE: DINOv2's import notices ("x.py:33: UserWarning:
               xFormers is not available (Attention)"), printed by VGGT, Depth Anything and other DINOv2-based models before
               they run PyTorch's attention, are a program's warning, not a failure nor a user's sentence
  phi3-window  flash_attn.toml fa2.too-old-for-feature: model code's "Current `flash-attenton` does not support `window_size`"
               (misspelled, the argument quoted)
  slow-title   prose.toml prose.slow (and attribution.toml [title_sentence]): a title naming the backend over a first
               sentence saying the time in numbers ("the inference time goes to 1hr"; SLOW: time goes / went up to N hours)
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids, tb


# evoformer
@pytest.mark.parametrize("text", [
    "RuntimeError: Unable to JIT load the evoformer_attn op due to it not being compatible due to hardware/software issue. "
    "Please specify the CUTLASS repo directory",
    "ERROR:protenix.runner: /home/u/.cache/torch_extensions/py312_cu126/evoformer_attn/evoformer_attn.so: cannot open shared "
    "object file: No such file or directory",
    tb(("/opt/venv/lib/python3.11/site-packages/openfold/model/primitives.py", 260, "_deepspeed_evo_attn",
        "o = DS4Sci_EvoformerAttention(q, k, v, biases)"),
       error="ImportError: evoformer_attn failed to build: nvcc not found"),
    "Unable to load the evoformer_attn op on Windows",
    "[rank0]: RuntimeError: Error building extension 'evoformer_attn': fatal error: cutlass/cutlass.h: No such file or directory",
])
def test_deepspeed_evoformer_attention_op_not_built(text):
    assert _top(text) == ("deepspeed.evoformer-attn", None)


@pytest.mark.parametrize("text", [
    "Using DeepSpeed evoformer attention kernel (use_deepspeed_evo_attention=True)",  # it ran: no failure
    "RuntimeError: Unable to JIT load the fused_adam op due to it not being compatible due to hardware/software issue.",
])
def test_other_ops_and_working_evoformer_are_not_it(text):
    assert "deepspeed.evoformer-attn" not in _ids(text)


# launcher-tail
@pytest.mark.parametrize("text", [
    "'/LIBPATH:D:\\\\venv\\\\libs', 'cuda.lib', '/OUT:C:\\\\Users\\\\a\\\\AppData\\\\Local\\\\Temp\\\\tmpz1\\\\cuda_utils.cp312-win_amd64.pyd',"
    " '/IMPLIB:C:\\\\Users\\\\a\\\\AppData\\\\Local\\\\Temp\\\\tmpz1\\\\cuda_utils.cp312-win_amd64.lib']' returned non-zero exit status 2.",
    "'-I/usr/include/python3.11', '-o', '/tmp/tmpk2/__triton_launcher.cpython-311-x86_64-linux-gnu.so', '-lcuda']' returned "
    "non-zero exit status 1.",
])
def test_head_cut_triton_launcher_command(text):
    assert _top(text) == ("triton.launcher-build", None)


def test_another_extension_link_is_not_tritons_launcher():
    text = ("'/OUT:C:\\\\build\\\\lib.win-amd64-cpython-311\\\\custom_rasterizer_kernel.cp311-win_amd64.pyd']' "
            "returned non-zero exit status 1120.")
    assert "triton.launcher-build" not in _ids(text)


# gqa-words
@pytest.mark.parametrize("text", [
    "The scaled dot product fallback ignores GQA: 40 query heads, 8 key/value heads.\n\n"
    "RuntimeError: The size of tensor a (40) must match the size of tensor b (8) at non-singleton dimension 1",
    "without flash-attn the SDPA path breaks for this grouped-query checkpoint\n"
    "Traceback (most recent call last):\n  File \"model.py\", line 88, in forward\n    out = attn(q, k, v)\n"
    "RuntimeError: The size of tensor a (16) must match the size of tensor b (2) at non-singleton dimension 1",
])
def test_sdpa_fallback_without_gqa_expansion_in_words(text):
    assert _top(text) == ("sdpa.gqa-heads-not-expanded", "sdpa")


def test_size_mismatch_at_dim_1_without_sdpa_words_is_not_it():
    text = ("the GQA model's rotary cache has the wrong shape\n"
            "RuntimeError: The size of tensor a (32) must match the size of tensor b (8) at non-singleton dimension 1")
    assert "sdpa.gqa-heads-not-expanded" not in _ids(text)


# black-frames
@pytest.mark.parametrize("text,backend", [
    ("With SageAttn enabled, every frame after the first is black; SDPA renders the clip fine", "sage"),
    ("when I use sage attention in MultiTalk it only renders 1 frame and the rest are black", "sage"),
    ("when using xformers, the images turn completely black after step 10", "xformers"),
    ("Using flash_attn 2.8 the video is all black on my 5090", "fa2"),
])
def test_backend_on_then_frames_black(text, backend):
    assert _top(text) == ("attn.wrong-output", backend)


@pytest.mark.parametrize("text", [
    "without sageattention the images are black",  # the backend off
    "when using sageattention the frames are black and white photos of the prompt",  # a style, not a failure
])
def test_black_frames_near_misses(text):
    assert "attn.wrong-output" not in _ids(text)


# nsa
@pytest.mark.parametrize("text", [
    "CUDA error: an illegal memory access was encountered in parallel_nsa_fwd_kernel at 32K tokens",
    "[Bug] illegal memory access when training with NSA at seq len 64K",
    "native-sparse-attention: illegal memory access during backward on H100",
])
def test_kernel_fault_in_native_sparse_attention(text):
    assert _top(text) == ("cuda.kernel-fault", None)


def test_kernel_fault_without_an_attention_library_stays_silent():
    assert "cuda.kernel-fault" not in _ids("[Bug] illegal memory access when training the NSA-net detector at seq len 64K")


# pip-build
def test_pip_build_line_names_fa2_over_a_backend_named_above():
    text = ("I switched the pipeline to the xformers backend and it runs.\n\n"
            "Earlier, Building wheel for flash_attn (setup.py) failed with:\n"
            "      RuntimeError:\n"
            "      The detected CUDA version (12.8) mismatches the version that was used to compile\n"
            "      PyTorch (11.8). Please make sure to use the same CUDA versions.")
    assert _top(text) == ("nvcc.major-mismatch", "fa2")


def test_pip_build_of_fa4_is_not_fa2():
    text = ("Building wheel for flash-attn-4 (pyproject.toml) ... error\n"
            "      The detected CUDA version (13.0) mismatches the version that was used to compile PyTorch (12.8).")
    top = _top(text)
    assert top is None or top[1] != "fa2"


# gpu-series
@pytest.mark.parametrize("text", [
    "SageAttention 2 keeps failing on my RTX 50xx card",
    "flash attention not compatible with RTX 5xxx",
    "xformers fails on the RTX 40XX laptops",
])
def test_gpu_series_with_placeholders(text):
    assert _top(text)[0] == "prose.gpu"


def test_gpu_series_words_alone_are_not_a_report():
    assert _ids("Our roadmap: RTX 50xx benchmarks next week") == []


# slow-title
@pytest.mark.parametrize("text,backend", [
    ("Generation with sageattention 2 on the A100\n\nSince the update the inference time went up to 45 minutes per clip.",
     "sage"),
    ("FlexAttention training on 8xH100\n\nAfter the first epoch the step time jumps to 3 hours for the same batch.", "flex"),
])
def test_title_names_backend_first_sentence_says_the_time(text, backend):
    assert _top(text) == ("prose.slow", backend)


@pytest.mark.parametrize("text", [
    "Generation on the A100\n\nSince the update the inference time went up to 45 minutes per clip.",  # no backend named
    "xformers installed fine\n\nThen the download went up to 80% and stopped.",  # a percentage, not a time
])
def test_slow_time_without_a_backend_title_is_not_prose_slow(text):
    assert "prose.slow" not in _ids(text)


def test_title_error_over_a_workaround_that_is_slower_stays_a_failure():
    text = "A new error occurs in xformers on SD3 models\n\nFound a workaround, but generating takes much longer now..."
    assert "prose.slow" not in _ids(text)


# attn-impl-old
@pytest.mark.parametrize("text", [
    "TypeError: MiniGPTLlamaForCausalLM.__init__() got an unexpected keyword argument 'attn_implementation'",
    tb(("/work/train.py", 77, "load", "model = AutoModelForCausalLM.from_pretrained(path, use_flash_attention_2=True)"),
       ("/opt/venv/lib/python3.9/site-packages/transformers/modeling_utils.py", 2700, "from_pretrained",
        "model = cls(config, *model_args, **model_kwargs)"),
       error="TypeError: __init__() got an unexpected keyword argument 'use_flash_attention_2'"),
    "TypeError: _BaseAutoModelClass.from_pretrained() got an unexpected keyword argument 'attn_implementation'",
])
def test_transformers_too_old_for_attn_implementation(text):
    assert _top(text)[0] == "transformers.attn-implementation-too-old"


@pytest.mark.parametrize("text", [
    "TypeError: flash_attn_func() got an unexpected keyword argument 'softcap'",  # flash-attn too old for a feature
    "TypeError: LlamaForCausalLM.__init__() got an unexpected keyword argument 'rope_scaling_type'",  # another argument
])
def test_other_unexpected_keywords_are_not_it(text):
    assert "transformers.attn-implementation-too-old" not in _ids(text)


# random-output
@pytest.mark.parametrize("text", [
    "With the custom attention kernel (openfold/utils/kernel) on the H200 the predicted structure looks completely random",
    tb(("/opt/openfold/openfold/model/primitives.py", 310, "_attention", "attn_core_inplace_cuda.forward_(a, ...)"),
       error="RuntimeWarning: pLDDT 12.3: the outputs seem totally random since the upgrade (attn_core_inplace_cuda)"),
])
def test_openfold_attention_kernel_random_output(text):
    assert _top(text) == ("attn.wrong-output", None)


@pytest.mark.parametrize("text", [
    "The generated structure looks completely random on H100",  # no attention library named
    "with sageattention the output looks random seed dependent",  # a seed, not garbage
])
def test_random_output_near_misses(text):
    assert "attn.wrong-output" not in _ids(text)


# dinov2-notice
@pytest.mark.parametrize("text", [
    "/opt/vggt/vggt/layers/attention.py:33: UserWarning: xFormers is not available (Attention)",
    "C:\\depth_anything_v2\\dinov2_layers\\swiglu_ffn.py:43: UserWarning: xFormers is not available (SwiGLU)\n"
    "C:\\depth_anything_v2\\dinov2_layers\\block.py:40: UserWarning: xFormers is not available (Block)",
])
def test_dinov2_xformers_notices_are_not_a_failure(text):
    assert _ids(text) == []


def test_a_real_error_below_dinov2_notices_decides():
    text = ("/opt/vggt/vggt/layers/attention.py:33: UserWarning: xFormers is not available (Attention)\n"
            "  warnings.warn(\"xFormers is not available (Attention)\")\n"
            "RuntimeError: FlashAttention only supports Ampere GPUs or newer.")
    assert _top(text)[1] == "fa2"


@pytest.mark.parametrize("text,want", [
    ("RuntimeError: xFormers is not available. Please install it via pip install xformers", "xformers.not-installed"),
    ("xformers not installed even though I ran pip install xformers in the venv", "prose.import"),
])
def test_xformers_absence_in_a_programs_error_or_a_users_words_still_counts(text, want):
    assert _top(text)[0] == want


# phi3-window
@pytest.mark.parametrize("text", [
    "[WARNING] - Current `flash-attenton` does not support `window_size`. Either upgrade or use `attn_implementation='eager'`.",
    "Current `flash-attention` does not support `sliding window`; upgrade flash-attn or use eager",
])
def test_model_code_says_flash_attn_lacks_window_size(text):
    assert _top(text) == ("fa2.too-old-for-feature", "fa2")


def test_window_size_supported_is_not_it():
    assert "fa2.too-old-for-feature" not in _ids("flash-attention 2.6 supports `window_size` for Phi-3's sliding window")
