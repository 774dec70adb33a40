"""Variants for the mechanisms round 24m taught explain when it became training material (helper ex28, 2026-11-28,
issue 23). No real text is a case here: each is written by hand from the mechanism, with other paths, versions,
models, wrappers and wordings; the near misses say what must NOT be read so.

  guard      a model's guarded import of flash_attn's layers (MHA, ParallelMHA, dropout_add_layer_norm) or of transformers' FA2 helper
             _flash_supports_window_size failed: the NameError of that name is attn.import-guard, FA2's
  missing    remote model code's own "flash_attn is not installed" (the import name) is fa2.missing
  sparge     SpargeAttn's source build failing, said in words, is sage.sparge-missing
  disabled   a model's start-up check switching a backend off for a GPU older than it needs (backend.unsupported-gpu)
  foreign    a model package's own compiled extension (sam2/_C.so) failing to load is not an attention backend's
  vllm       vLLM's FlashAttentionImpl names FlashAttention (FA2 where nothing says FA3)
  sdpa       a model's helper that picks SDPA's kernels (get_sdpa_settings) names SDPA
  removed    a per-backend transformers class (LlamaFlashAttention2) said in words to be gone from a release
  operator   xformers' "No operator found for memory_efficient_attention_*" retold in Chinese or Japanese
  mismatch   torch and xformers versions said not to match, in Chinese or Japanese (xformers.built-for-other-torch)
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids


@pytest.mark.parametrize("text", [
    "flash_attn 2.5.6 did not import on my 3090.\n"
    '  File "/home/u/.cache/huggingface/modules/transformers_modules/evo-1-131k-base/model.py", line 122, in __init__\n'
    "    self.inner_mha_cls = MHA(\nNameError: name 'MHA' is not defined",
    "--> 15 from flash_attn.modules.mha import MHA\n...\nNameError: name 'MHA' is not defined",
    "NameError: name 'ParallelMHA' is not defined (flash_attn 2.5.8 on an RTX 4090)",
    "With flash_attn 2.6.3 installed, loading the StripedHyena checkpoint stops at NameError: name 'swap_mha_rope' is not defined",
    "NameError: name 'dropout_add_layer_norm' is not defined",
    "    if not _flash_supports_window_size:\nNameError: name '_flash_supports_window_size' is not defined",
    "运行 generate 报错 NameError: name '_flash_supports_window_size' is not defined",
])
def test_a_guarded_flash_attn_name_left_undefined(text):
    assert _top(text) == ("attn.import-guard", "fa2")


@pytest.mark.parametrize("text", [
    "NameError: name 'mha' is not defined",  # a lower-case local: a typo in the user's own code, not flash_attn's class
    "NameError: name 'MHAttention' is not defined",
    "NameError: name 'multi_head_attention' is not defined",
    "NameError: name 'FusedDense' is not defined",  # apex has one too: not flash_attn's guard alone
    "NameError: name 'ColumnParallelLinear' is not defined",  # Megatron's
])
def test_other_undefined_attention_names_are_not_the_guard(text):
    assert "attn.import-guard" not in _ids(text)


@pytest.mark.parametrize("text", [
    "    raise ImportError('flash_attn is not installed.')\nImportError: flash_attn is not installed.",
    "RuntimeError: InternViT asked for flash attention: flash_attn is not installed",
    "ValueError: attn_implementation is flash_attention_2 but flash_attn is not installed",
])
def test_remote_code_saying_flash_attn_is_not_installed(text):
    assert _top(text) == ("fa2.missing", "fa2")


@pytest.mark.parametrize("text", [
    "ImportError: flash_attn_3 is not installed",  # FA3's module, not FA2's
    "ImportError: flash_attn_interface is not installed",
    "WARNING: flash_attn is not installed, falling back to sdpa",  # a fallback: fa2.not-available-fallback's
])
def test_what_is_not_the_fa2_import_name_missing(text):
    found = _ids(text)
    assert not found or found[0] != "fa2.missing"


@pytest.mark.parametrize("text", [
    "I'm stuck at installing SpargeAttention on the RTX 5090, so --attention_type sagesla fails",
    "SpargeAttn fails to build with CUDA 12.8 on sm_120",
    "Failed building: can't compile SpargeAttn on Windows",
    "SpargeAttn 安装失败,sagesla 无法使用",
    "spas_sage_attn installation failed with ninja error",
])
def test_spargeattn_install_failing_said_in_words(text):
    assert _top(text) == ("sage.sparge-missing", "sage")


@pytest.mark.parametrize("text", [
    "SpargeAttn installed fine and sagesla runs at 2x",
    "Installing SpargeAttn took 20 minutes but works",
])
def test_spargeattn_installed_is_not_missing(text):
    assert "sage.sparge-missing" not in _ids(text)


@pytest.mark.parametrize("text", [
    "C:\\ComfyUI\\custom_nodes\\sam2\\modeling\\sam\\transformer.py:20: UserWarning: Flash Attention is disabled as it "
    "requires a GPU with Ampere (8.0) CUDA capability.",
    "WARNING: xformers has been disabled because it needs a GPU with compute capability 7.0 or newer",
    "SageAttention is disabled since it requires a GPU of the Ampere generation or newer",
])
def test_a_backend_switched_off_for_an_old_gpu(text):
    assert _ids(text)[0] == "backend.unsupported-gpu"


@pytest.mark.parametrize("text", [
    "Flash Attention is disabled by the config (use_flash_attn: false)",
    "xformers is disabled as requested on the command line",
])
def test_a_backend_switched_off_by_choice_is_not_the_gpu(text):
    assert "backend.unsupported-gpu" not in _ids(text)


@pytest.mark.parametrize("text", [
    "ImportError: /content/segment-anything-2/sam2/_C.so: undefined symbol: _ZN3c1015SmallVectorBaseIjE8grow_podEPKvmm",
    "ImportError: /opt/app/GroundingDINO/groundingdino/_C.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi",
    "ImportError: DLL load failed while importing _C: C:\\repo\\detectron2\\_C.pyd: undefined symbol: foo",
])
def test_a_model_packages_own_extension_is_not_an_attention_backend(text):
    assert _ids(text) == []


@pytest.mark.parametrize("text,backend", [
    ("ImportError: /venv/lib/python3.10/site-packages/xformers/_C.so: undefined symbol: _ZN3c104cuda9SetDeviceEi", "xformers"),
    ("ImportError: /venv/lib/python3.10/site-packages/xformers/flash_attn_3/_C.so: undefined symbol: _ZN3c105ErrorC2E", "xformers"),
])
def test_an_attention_librarys_own_extension_stays_its(text, backend):
    assert _top(text) == ("import.undefined-symbol", backend)


def test_vllms_flashattentionimpl_is_flashattention():
    text = "TypeError: FlashAttentionImpl.forward() got an unexpected keyword argument 'alibi_sqrt'"
    assert _top(text) == ("attn.api-mismatch", "fa2")


def test_a_models_sdpa_settings_helper_names_sdpa():
    text = ("/srv/app/sam2/modeling/sam/transformer.py:23: UserWarning: Flash Attention is disabled as it requires a GPU "
            "with Ampere (8.0) CUDA capability.\n  OLD_GPU, USE_FLASH_ATTN, MATH_KERNEL_ON = get_sdpa_settings()")
    assert _top(text) == ("backend.unsupported-gpu", "sdpa")
    # round 46 (ex46): SAM 2's exact sentence names SDPA on its own (attribution.toml, sdpa's names): only get_sdpa_settings
    # prints it (SAM 2, SAM 3 and the copies projects vendor; every hit of the public index is such a copy)
    assert _top(text.splitlines()[0]) == ("backend.unsupported-gpu", "sdpa")
    # another wording, without the SDPA helper below it: "Flash Attention" alone stays the weak FlashAttention name
    other = ("/srv/app/vision/attn.py:23: UserWarning: Flash Attention is disabled because it requires a GPU with compute "
             "capability 8.0.")
    assert _top(other) == ("backend.unsupported-gpu", "fa2")


@pytest.mark.parametrize("text", [
    "deepseek-ocr pins transformers==4.46.3; vLLM wants 4.51.3, and transformers 4.51.3 does not include LlamaFlashAttention2.",
    "Qwen2SdpaAttention was removed in transformers 4.48, so the old patch stops importing",
    "transformers 4.49 no longer has `MistralFlashAttention2`",
    "新版 transformers 里没有 LlamaFlashAttention2 了",
])
def test_a_per_backend_class_said_gone_from_transformers(text):
    assert _top(text) == ("transformers.attention-class-removed", None)


@pytest.mark.parametrize("text", [
    "LlamaFlashAttention2 is used by default in transformers 4.40",
    "transformers 4.46 still includes LlamaFlashAttention2",
])
def test_a_per_backend_class_that_is_there_is_not_removed(text):
    assert "transformers.attention-class-removed" not in _ids(text)


@pytest.mark.parametrize("text", [
    "运行 xFormers 代码时系统抛出 NotImplementedError 异常,提示找不到匹配的memory_efficient_attention_forward操作符。",
    "Kaggle 上报错:未找到 memory_efficient_attention_backward 的算子",
    "memory_efficient_attention_forward のオペレーターが見つかりません (xformers 0.0.28)",
])
def test_xformers_no_operator_retold_in_chinese_or_japanese(text):
    assert _top(text) == ("xformers.no-operator", "xformers")


@pytest.mark.parametrize("text", [
    "升级后找到了 memory_efficient_attention_forward 操作符,问题解决",
    "xformers 的 memory_efficient_attention 比 SDPA 快一些",
])
def test_an_operator_that_is_found_is_not_missing(text):
    assert "xformers.no-operator" not in _ids(text)


@pytest.mark.parametrize("text", [
    "启动 Forge 时报错,原因是 PyTorch 和 xFormers 版本不匹配",
    "xformers 与 torch 2.4 版本不一致,重新安装对应版本即可",
    "xFormers 会提示当前安装的 PyTorch 版本与编译时使用的版本不一致",
    "xformers と torch のバージョンが合わないので起動できません",
])
def test_xformers_and_torch_versions_not_matching_in_chinese_or_japanese(text):
    assert _top(text) == ("xformers.built-for-other-torch", "xformers")


@pytest.mark.parametrize("text", [
    "xformers 与 torch 版本一致,运行正常",
    "PyTorch 和 xFormers 都已安装,版本 2.4.1 / 0.0.28",
])
def test_xformers_and_torch_that_match_are_not_a_mismatch(text):
    assert "xformers.built-for-other-torch" not in _ids(text)
