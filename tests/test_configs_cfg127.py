"""Helper cfg127 (session 32, issue 24): round 123m's misses read after its measurement (fixtures/configs/round123m/
README.md, "Read after its measurement"), each mechanism with variants of our own, none of them a file of the set.

1. ai-toolkit model archs whose transformer is ai-toolkit's own port calling torch's F.scaled_dot_product_attention
   itself (ostris/ai-toolkit@27a03a9: krea2/src/mmdit.py:65-76, f_light/src/model.py:129, minimax_h3/src/
   transformer.py:178, zeta_chroma/zeta_chroma_transformer.py:72, flux2/src/model.py:529): train.attention_backend and
   train.xformers never reach those blocks (jobs/process/BaseSDTrainProcess.py:1819-1839), so SDPA runs whatever the
   flags: `sdpa`, as sd-scripts' FLUX.
2. a model.arch ai-toolkit never shipped is a model extension of a fork or user (toolkit/util/get_model.py
   get_model_class); ai-toolkit's template for a new arch defaults to F.scaled_dot_product_attention
   (extensions_built_in/diffusion_models/example_model/README.md "Attention backends"): `sdpa` when nothing is asked.
   A variant of a shipped arch's name or a legacy is_* flag falls back to the legacy model: the default as before."""

from __future__ import annotations

import pytest

from configs_corpus import read

_JOB = """---
job: extension
config:
  name: "{name}"
  process:
    - type: 'sd_trainer'
      training_folder: "output"
      device: cuda:0
      network:
        type: "lora"
        linear: 16
        linear_alpha: 16
      save:
        dtype: float16
        save_every: 500
      datasets:
        - folder_path: "/data/imgs"
          caption_ext: "txt"
          resolution: [ 768, 1024 ]
      train:
        batch_size: 1
        steps: 1500
        gradient_checkpointing: true
        noise_scheduler: "flowmatch"
        optimizer: "adamw8bit"
        lr: 1e-4
{train}      model:
        name_or_path: "{model}"
{arch}        quantize: true
{extra}      sample:
        sampler: "flowmatch"
        sample_every: 250
        prompts:
          - "[trigger] portrait"
meta:
  name: "[name]"
"""


def _job(arch: str | None, *, train: str = "        dtype: bf16\n", extra: str = "", model: str = "/models/base") -> str:
    line = f'        arch: "{arch}"\n' if arch is not None else ""
    return _JOB.format(name="lora_v1", train=train, model=model, arch=line, extra=extra)


SDPA_ARCHS = ["krea2", "f-lite", "minimax_h3", "minimax_h3_ref2va", "zeta_chroma", "flux2", "flux2_klein_4b",
              "flux2_klein_9b"]


@pytest.mark.parametrize("arch", SDPA_ARCHS + ["krea2:raw", "flux2_klein_9b:base"])
@pytest.mark.parametrize("train, dtype", [
    ("        dtype: bf16\n", "bfloat16"),
    ("        dtype: bf16\n        attention_backend: flash\n", "bfloat16"),   # hasattr(set_attention_backend): no
    ("        dtype: fp16\n        xformers: true\n", "float16"),              # never reaches the blocks
    ("        dtype: bf16\n        sdp: true\n        attention_backend: sage\n", "bfloat16"),
])
def test_an_ai_toolkit_arch_whose_blocks_call_sdpa_runs_sdpa_whatever_the_flags(tmp_path, arch, train, dtype):
    assert read(tmp_path, "job.yaml", _job(arch, train=train)) == ("ai-toolkit", ["sdpa"], dtype, "none")


@pytest.mark.parametrize("arch, train, want", [
    # near misses: shipped archs on diffusers' dispatcher or with an environment-chosen kernel keep their reading
    ("qwen_image", "        dtype: bf16\n", []),
    ("qwen_image", "        dtype: bf16\n        attention_backend: flash\n", ["fa2"]),
    ("wan22_14b", "        dtype: bf16\n        attention_backend: _flash_3\n", ["fa3"]),
    ("chroma", "        dtype: bf16\n", []),          # flash_attn when it imports, else SDPA: the environment's pick
    ("hidream", "        dtype: bf16\n", []),
    ("ideogram4", "        dtype: bf16\n", []),      # its own set_attention_backend takes train.attention_backend
    ("zimage", "        dtype: bf16\n", []),
    (None, "        dtype: bf16\n", []),              # no arch: the legacy model
])
def test_shipped_archs_on_diffusers_keep_their_reading(tmp_path, arch, train, want):
    assert read(tmp_path, "job.yaml", _job(arch, train=train))[1] == want


@pytest.mark.parametrize("arch", ["i1", "photon_1b", "bagel", "hunyuan_video", "lens-2b"])
def test_an_arch_ai_toolkit_never_shipped_is_an_extension_on_its_templates_sdpa(tmp_path, arch):
    assert read(tmp_path, "job.yaml", _job(arch)) == ("ai-toolkit", ["sdpa"], "bfloat16", "none")
    # the template's set_attention_backend takes train.attention_backend (BaseSDTrainProcess.py:1828-1832)
    flash = _job(arch, train="        dtype: bf16\n        attention_backend: flash\n")
    assert read(tmp_path, "flash.yaml", flash)[1] == ["fa2"]


@pytest.mark.parametrize("arch, extra", [
    ("flux_dev", "        is_flux: true\n"),      # a legacy flag: StableDiffusion loads FLUX through diffusers
    ("photon_1b", "        is_xl: true\n"),
    ("sdxl_turbo", ""),                            # a variant of a shipped arch's name: no class, the legacy model
    ("qwen-image", ""),
    ("ltxv", ""),
    ("wan22-14b", ""),
])
def test_a_variant_of_a_shipped_arch_or_a_legacy_flag_is_not_an_extension(tmp_path, arch, extra):
    assert read(tmp_path, "job.yaml", _job(arch, extra=extra))[1] == []
