"""Variants for helper ex138 (session 23, issue 23): the frameworks' and trainers' own attention messages, listed from
their source by `benchmarks/source_messages.py files --logs` (benchmarks/results/explain-source-messages-frameworks.md).

Every case was written by hand (2026-11-30) from the source's condition and words, with other values, versions,
prefixes (logging formats, ranks, tracebacks) and wrappers than the source line; each positive case asserts the entry
(and backend) of the first problem that can be a failure's cause; the near misses assert what must NOT be claimed.

Mechanisms (knowledge file: entry):
  substituted   frameworks_source.toml transformers.flash-substituted (new): a hub kernel for a missing flash_attn, or the
                FA version the model supports (transformers 5.24.0 modeling_utils.py:1769, 1819)
  comfy-wrap    frameworks_source.toml comfyui.flash-wrapper-torch (new): torch.library.custom_op missing (attention.py:565-580)
  legacy        frameworks_source.toml axolotl.attn-legacy-flags (new)
  loss-warn     frameworks_source.toml trainer.attention-loss-warning (new): axolotl's SageAttention / packed-SDPA warnings
  st-xformers   frameworks_source.toml simpletuner.xformers-incompatible (new)
  kernels       frameworks_source.toml transformers.kernels-missing (new): the `kernels` package missing or out of range
  widened       sage.toml sage.runtime-fallback (SimpleTuner's 'Could not run SageAttention with'), sage.not-installed
                (musubi-tuner's Kandinsky 5 'sage engine selected, but it can't be imported'; fa2.missing, fa3.import-name,
                xformers.not-installed the same for its other engines), imports.toml torch.attention-api-too-old
                (LLaMA-Factory's 'torch>=2.1.1 is required for SDPA attention', diffusers' '<Name>AttnProcessor2_0 requires
                PyTorch 2.0'), flash_attn.toml fa2.dtype-advisory ('without specifying a dtype'), frameworks.toml vllm.fa-version
                (fa_utils' fallbacks)
  attribution   attribution.toml: 'flash-attn v3' (ms-swift) is FA3's, vLLM's 'FA version 4' / 'FA4 on Blackwell' FA4's (cute),
                not the FA2 it falls back to; '<Name>AttnProcessor2_0' and 'torch sdpa' SDPA's; transformers' 'Flash Attention
                does not support output_attentions' flash-attn's, '`sdpa` attention does not support' SDPA's
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids, tb

SP = "/home/user/miniconda3/envs/train/lib/python3.11/site-packages"


# substituted
@pytest.mark.parametrize("text", [
    "You do not have `flash_attn` installed, using `kernels-community/flash-attn2` from the `kernels` library instead!",
    "[rank1]: You do not have 'flash_attn' installed, using 'kernels-community/vllm-flash-attn3' from the 'kernels' library instead!",
    "2026-11-30 10:11:12 - WARNING - transformers.modeling_utils - This model is compatible with the following flash attention "
    "implementations: `flash_attention_2`, `flash_attention_3`. Automatically falling back to `flash_attention_3` instead of "
    "`flash_attention_4`.",
])
def test_transformers_flash_substituted(text):
    assert _top(text)[0] == "transformers.flash-substituted"


def test_transformers_flash_installed_is_not_substitution():
    text = "Using `kernels-community/flash-attn2` from the `kernels` library because use_kernels=True was set."
    assert "transformers.flash-substituted" not in _ids(text)


# comfy-wrap
@pytest.mark.parametrize("text", [
    "AssertionError: Could not define flash_attn_wrapper: module 'torch.library' has no attribute 'custom_op'",
    "Flash Attention failed, using default SDPA: Could not define flash_attn_wrapper: module 'torch.library' has no attribute "
    "'register_fake'",
    tb((f"{SP}/../../../ComfyUI/comfy/ldm/modules/attention.py", 579, "flash_attn_wrapper",
        'assert False, f"Could not define flash_attn_wrapper: {FLASH_ATTN_ERROR}"'),
       error="AssertionError: Could not define flash_attn_wrapper: module 'torch.library' has no attribute 'custom_op'"),
])
def test_comfyui_flash_wrapper(text):
    assert _top(text) == ("comfyui.flash-wrapper-torch", "fa2")


# legacy
@pytest.mark.parametrize("text", [
    "ValueError: attn_implementation='sdpa' cannot be combined with legacy attention flags (flash_attention, sdp_attention). "
    "The legacy flags are deprecated — set only `attn_implementation`.",
    "pydantic_core._pydantic_core.ValidationError: 1 validation error for AxolotlInputConfig\n  Value error, "
    "attn_implementation='flex_attention' cannot be combined with legacy attention flags (xformers_attention).",
])
def test_axolotl_legacy_flags(text):
    assert _top(text)[0] == "axolotl.attn-legacy-flags"


def test_axolotl_legacy_flag_deprecation_alone_is_not_the_refusal():
    text = "[WARNING] `flash_attention: true` is deprecated and will be removed in a future release. Use " \
           "`attn_implementation: flash_attention_2` instead."
    assert "axolotl.attn-legacy-flags" not in _ids(text)


# loss-warn
@pytest.mark.parametrize("text, backend", [
    ("[2026-11-30 09:00:01,001] [WARNING] [axolotl.utils.schemas.config.check_sageattn_fft:1714] [PID:4242] SageAttention "
     "full finetuning has been observed to drop loss to 0. Monitor the loss, or switch to LoRA/QLoRA or another attention "
     "method.", "sage"),
    ("WARNING: We recommend turning on `pad_to_sequence_len` for SageAttention without packing. The loss has been observed to "
     "explode otherwise.", "sage"),
    ("[axolotl] sample_packing & torch sdpa with bf16 is unsupported may results in 0.0 loss. This may work on H100s.", "sdpa"),
])
def test_trainer_attention_loss_warning(text, backend):
    assert _top(text) == ("trainer.attention-loss-warning", backend)


def test_sage_loss_said_in_prose_is_not_the_warning():
    text = "after switching to sage attention my loss dropped to 0 at step 200"
    assert "trainer.attention-loss-warning" not in _ids(text)


# st-xformers
def test_simpletuner_xformers_incompatible():
    text = ("2026-11-30 08:00:00,123 - SimpleTuner - WARNING - xformers is not enabled, as it is incompatible with this model "
            "type. Falling back to diffusers attention mechanism (Pytorch SDPA).")
    assert _top(text) == ("simpletuner.xformers-incompatible", "xformers")


def test_xformers_enabled_is_not_incompatible():
    assert "simpletuner.xformers-incompatible" not in _ids("INFO Enabling xformers memory-efficient attention.")


# widened
@pytest.mark.parametrize("text, entry", [
    ("WARNING:simpletuner.helpers.training.attention_backend:Could not run SageAttention with sageattn_qk_int8_pv_fp8_cuda "
     "(CUDA error: no kernel image is available for execution on the device). Falling back to PyTorch SDPA.", "sage.arch-kernel"),
    ("Could not run SageAttention with sageattn (list indices must be integers or slices, not NoneType). Falling back to SDPA.",
     "sage.runtime-fallback"),
])
def test_simpletuner_sage_fallback(text, entry):
    assert _top(text) == (entry, "sage")


@pytest.mark.parametrize("text", [
    "RuntimeError: sage engine selected, but it can't be imported.",
    "  File \"/opt/musubi-tuner/src/musubi_tuner/kandinsky5/models/attention.py\", line 87, in attention\n"
    "    raise RuntimeError(\"sage engine selected, but it can't be imported.\")\n"
    "RuntimeError: sageattn engine selected, but it cannot be imported.",
])
def test_musubi_sage_engine(text):
    assert _top(text) == ("sage.not-installed", "sage")


@pytest.mark.parametrize("text, entry, backend", [
    ("RuntimeError: flash_attention_2 engine selected, but it can't be imported.", "fa2.missing", "fa2"),
    ("RuntimeError: flash_attention_3 engine selected, but it cannot be imported.", "fa3.import-name", "fa3"),
    ("[rank0]: RuntimeError: xformers engine selected, but it can't be imported.", "xformers.not-installed", "xformers"),
])
def test_musubi_other_engines(text, entry, backend):
    assert _top(text) == (entry, backend)


def test_engine_selected_and_imported_is_not_missing():
    assert _ids("INFO: flash_attention_2 engine selected, imported flash_attn 2.8.3") == []


@pytest.mark.parametrize("text", [
    "[WARNING|attention.py:73] 2026-11-30 10:00:00 >> torch>=2.1.1 is required for SDPA attention.",
    "torch >= 2.5 required for flex_attention",
    "ImportError: HunyuanAttnProcessor2_0 requires PyTorch 2.0, to use it, please upgrade PyTorch to 2.0.",
    "ImportError: FusedAttnProcessor2_0 requires at least PyTorch 2.0, to use it. Please upgrade PyTorch to > 2.0.",
])
def test_torch_too_old_for_the_attention_api(text):
    assert _top(text)[0] == "torch.attention-api-too-old"


def test_processor_with_new_torch_is_not_too_old():
    text = "AttnProcessor2_0 is used by default when PyTorch 2.0 is installed"
    assert "torch.attention-api-too-old" not in _ids(text)


def test_fa2_without_dtype_advisory():
    text = ("(WorkerDict pid=1234) You are attempting to use Flash Attention 2 without specifying a dtype. This might lead to "
            "unexpected behaviour")
    assert _top(text) == ("fa2.dtype-advisory", "fa2")


@pytest.mark.parametrize("text, backend", [
    ("(EngineCore_DP0 pid=77) WARNING 11-30 10:00:00 [fa_utils.py:96] Cannot use FA version 3 on Blackwell platform, "
     "defaulting to FA version 4 if supported, otherwise FA2.", "fa3"),
    ("WARNING 11-30 10:00:00 [fa_utils.py:103] Cannot use FA version 3 with ALiBi, defaulting to FA version 2.", "fa3"),
    ("WARNING 11-30 10:00:00 [fa_utils.py:109] Cannot use FA version 4 with ALiBi, defaulting to FA version 2.", "cute"),
    ("WARNING 11-30 10:00:00 [fa_utils.py:121] FA4 on Blackwell does not support head_size=192 due to TMEM capacity limits, "
     "defaulting to FA version 2.", "cute"),
])
def test_vllm_fa_version_fallbacks(text, backend):
    assert _top(text) == ("vllm.fa-version", backend)


# attribution
def test_msswift_flash_attn_v3_is_fa3():
    text = ("ValueError: flash-attn v3 is not installed. Detected installations: FA2=True, FA3=False, FA4=False.")
    assert _top(text)[1] == "fa3"


def test_msswift_flash_attn_v2_stays_fa2():
    assert _top("ValueError: flash-attn v2 is not installed. Detected installations: FA2=False, FA3=True, FA4=False.")[1] == "fa2"


@pytest.mark.parametrize("text, backend", [
    ("Flash Attention does not support `output_attentions=True`. Please set your attention to `eager` if you want any of "
     "these features.", "fa2"),
    ("`sdpa` attention does not support `output_attentions=True`. Please set your attention to `eager` if you want any of "
     "these features.", "sdpa"),
])
def test_transformers_integrations_name_their_backend(text, backend):
    assert _top(text) == ("transformers.sdpa-output-attentions", backend)


def test_sdpa_flash_kernel_output_attentions_is_not_flash_attn():
    assert _top("SDPA Flash Attention does not support output_attentions=True")[1] != "fa2"


@pytest.mark.parametrize("text", [
    "ImportError: JointAttnProcessor2_0 requires PyTorch 2.0, to use it, please upgrade PyTorch to 2.0.",
    "ImportError: CogVideoXAttnProcessor2_0 requires PyTorch 2.0, to use it, please upgrade PyTorch to 2.0.",
    "ImportError: AttnAddedKVProcessor2_0 requires PyTorch 2.0, to use it, please upgrade PyTorch to 2.0.",
    "ImportError: FluxAttnProcessor3_0 requires PyTorch 2.0, to use it, please upgrade PyTorch to 2.0.",
])
def test_diffusers_processor_is_sdpa(text):
    assert _top(text)[1] == "sdpa"


def test_xla_flash_processor_is_not_sdpa():
    assert _top("ImportError: XLAFlashAttnProcessor2_0 requires PyTorch 2.0, to use it, please upgrade PyTorch to 2.0.")[1] != "sdpa"


# kernels (frameworks_source.toml transformers.kernels-missing, new: hub_kernels.py:769-796, modeling_utils.py:3874)
@pytest.mark.parametrize("text", [
    "RuntimeError: LayerRepository requires `kernels` to be installed. Run `pip install kernels`.",
    "NotImplementedError: LocalLayerRepository requires `kernels` to be installed. Run `pip install kernels.",
    "RuntimeError: replace_kernel_forward_from_hub requires kernels to be installed. Run pip install kernels.",
    "ValueError: Kernels are not available. Please install a compatible version (0.18.2 <= version < 0.19.0), e.g. "
    "`pip install kernels==0.18.2`",
])
def test_transformers_kernels_missing(text):
    assert _top(text)[0] == "transformers.kernels-missing"


def test_other_tool_requiring_kernels_is_not_transformers():
    assert "transformers.kernels-missing" not in _ids("the benchmark script requires kernels to be installed for the hub tests")
