"""What review rev23 found in session 23's explain and configs changes and mended. Every text was written by hand for these tests
(2026-11-30); each near miss below was misread on main at d3b4a006 (or the later main named beside it), checked by running this
file against that tree.

  persists   attribution/refusals.py PERSISTS (ex135) cleared a backend for "still happens even after reinstalling flash-attn" or
             "even with the latest flash-attn": the same backend reinstalled or upgraded, still the one that runs, so a NaN
             report over flash_attention_2 lost its claim (attn.nan-output, fa2). Now a subject that says an install, upgrade,
             build, version or release of the backend clears nothing (as a version number already did not).
  comment    transformers.sdpa-output-attentions' bare-argument pattern (ex135) skipped the refusal's words in a comment at a
             line's start, not after code ("output_attentions = False  # XFlashAttention2 attention does not support
             output_attentions", as remote-code copies write it): a pasted modeling file was read as the refusal. Now no "# "
             before the class name on the line.
  pageddrop  fa2.paged-kv took flash-attn's ROCm (CK) "Paged KV does not support dropout" (ex137) with a title and fix about
             the table's dtype, page size, leftpad_k, cache_batch_idx and num_splits only: nothing the user could act on for
             the dropout it refuses. Now both say dropout_p=0 with a page table on ROCm.
  numsplits  fa2.num-splits (ex137) read the CK build's "num_splits should greater than 0" as a negative count the caller asked
             for and printed num_splits=0 as the fix; the CK build replaces any count below 1 by its heuristic once the HIP
             runtime names the device (flash_common.cpp override_num_splits_if_necessary), so the check fails only where that
             device query failed, with 0 passed. Now its own entry (fa2.rocm-num-splits-device) with a device check as fix.
  notours    prose.toml LINE (ex139) leaves a line whose failure is said of a tokenizer, a dataset, a download or a driver, in
             English and Chinese, and only with a failure verb after the subject: "Dataset loading does not work when I train
             with --sdpa", "flash3 training works, but the tokenizer does not work", "Failed to load dataset with xformers
             enabled", and the Russian, Spanish, Japanese and Korean reports of a dataset error that name a backend as their
             setup were read as that backend's failure. Now "does not work" / "not working" after the subject, "failed to
             load / can't load / error loading" before it, and those languages' words for a dataset, a tokenizer and a driver.
"""

from __future__ import annotations

import pytest

from attn_doctor.knowledge.attribution.refusals import _exonerated
from attn_doctor.explain import match
from explain_top import first

NAN_FA2 = ("Qwen2.5 SFT: loss becomes NaN after a few hundred steps with flash_attention_2\n\n"
           "The NaN loss {persists}, and it is gone with attn_implementation=\"eager\".\n")


@pytest.mark.parametrize("line, backend", [
    ("the NaN still happens even after reinstalling flash-attn", "fa2"),
    ("it still occurs even with the latest flash-attn", "fa2"),
    ("black frames still appear even with a fresh build of sageattention", "sage"),
    ("the crash still happens even with xformers rebuilt from source", "xformers"),
    ("still happens even with an upgraded xformers", "xformers"),
])
def test_persists_same_backend_reinstalled_clears_nothing(line, backend):
    assert _exonerated(backend, [line]) is False


@pytest.mark.parametrize("line, backend", [
    ("it still occurs for me with other builds or even xformers", "xformers"),  # round 129m's case: a swap to another backend
    ("the NaN still happens even after switching to SDPA", "sdpa"),
])
def test_persists_swap_still_clears(line, backend):
    assert _exonerated(backend, [line]) is True


@pytest.mark.parametrize("persists", ["still happens even after reinstalling flash-attn",
                                      "still happens even with the latest flash-attn"])
def test_persists_keeps_the_claim_of_a_reinstalled_backend(persists):
    assert first(NAN_FA2.format(persists=persists)) == ("attn.nan-output", "fa2")


@pytest.mark.parametrize("text", [
    "        output_attentions = False  # InternLM2FlashAttention2 attention does not support output_attentions",
    "    return attn_output, None  # FlashAttention2 does not support output_attentions",
    "attn_weights = None  # MistralSdpaAttention does not support output_attentions",
])
def test_output_attentions_comment_after_code_is_no_refusal(text):
    assert first(text)[0] != "transformers.sdpa-output-attentions"


@pytest.mark.parametrize("text", [
    "ValueError: MusicgenSdpaAttention does not support output_attentions",
    "[rank#0] ValueError: OPTFlashAttention2 attention does not support output_attentions",
])
def test_output_attentions_refusal_still_read(text):
    assert first(text)[0] == "transformers.sdpa-output-attentions"


def test_ck_paged_kv_dropout_fix_says_dropout():
    found = match("RuntimeError: Paged KV does not support dropout")
    assert found and found[0].entry.id == "fa2.paged-kv"
    assert "dropout_p=0" in (found[0].fix or "") and "dropout" in found[0].entry.title, found[0].fix


def test_ck_num_splits_zero_is_a_device_query_not_a_count_to_set():
    found = match("RuntimeError: num_splits should greater than 0")
    assert found and found[0].entry.id == "fa2.rocm-num-splits-device", [m.entry.id for m in found]
    assert "num_splits=0" not in (found[0].fix or "") and "HIP_VISIBLE_DEVICES" in (found[0].fix or "")


@pytest.mark.parametrize("text", [
    "Dataset loading does not work when I train with --sdpa",
    "flash3 training works, but the tokenizer does not work",
    "Failed to load dataset with xformers enabled",
    "Error loading dataset when flash attention is on",
    "Ошибка загрузки датасета (flash attention включен), не работает",
    "При обучении с flash_attention_2 не работает загрузка датасета",
    "El dataset no funciona con xformers activado",
    "データセットの読み込みでエラー、sageattention を使っています",
    "데이터셋 로딩 오류 (xformers 사용 중)",
])
def test_a_dataset_or_tokenizer_failure_beside_a_backend_is_not_the_backends(text):
    assert first(text)[0] is None or not first(text)[0].startswith("prose."), first(text)


@pytest.mark.parametrize("text, backend", [
    ("xformers error when loading the dataset with long sequences", "xformers"),  # the error is xformers'
    ("flash attention 2 does not work on my 3090", "fa2"),
])
def test_a_backend_failure_near_data_words_stays_read(text, backend):
    got = first(text)
    assert got[0] is not None and got[0].startswith("prose.") and got[1] == backend, got


# lead, session 23 (rev23's "found, not mended"): build.prebuilt-wheel-missing's fix told a ROCm user to install "the matching
# wheel file" although flash-attn's releases build CUDA wheels only; on ROCm the fix is the source build, on CUDA it is unchanged.
WHEEL_MISSING = ("torch {torch}, python 3.11\n"
                 "RuntimeError: flash-attn 2.7.4: no prebuilt wheel found for torch 2.5 / python 3.11; there are no "
                 "pre-built wheels for this torch version\n")


@pytest.mark.parametrize("torch, rocm", [("2.5.1+rocm6.2", True), ("2.6.0+rocm6.4.1", True), ("2.5.1+cu124", False)])
def test_the_missing_wheel_fix_is_the_platform_s(torch, rocm):
    found = [m for m in match(WHEEL_MISSING.format(torch=torch)) if m.entry.id == "build.prebuilt-wheel-missing"]
    assert found
    fix = found[0].fix
    assert ("GPU_ARCHS" in fix and "+cu wheel" in fix) == rocm
    assert ("install the matching wheel file" in fix) == (not rocm)
