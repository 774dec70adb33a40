"""Variants for helper ex64 (session 10): mechanisms from the misses and the claimed unrelated logs of round 60m
(fixtures/errors/round60m/, session 9's measure-only set, training material since its final measurement; its README's
"Read after its final measurement" section says which text each comes from), and three blind misses with no entry that
session 9's study left (benchmarks/results/explain-blind-misses-s9.md).

Every case was written by hand (2026-11-28): other paths, versions, wrappers, languages and wordings than the fixtures; each
positive case asserts the entry (and backend) of the first problem that can be a failure's cause; the near misses assert
what must NOT be claimed.

Mechanisms (knowledge file: entry):
  installed-not-found  flash_attn.toml fa2.missing (widened): transformers' check_imports "not found" for flash_attn, and the
                       same report shows it installed (pip's "Requirement already satisfied", pip show/list, a version said)
  sdpa-too-old         imports.toml torch.attention-api-too-old (widened): torch.nn.functional without
                       scaled_dot_product_attention said without "module" (a title) or in words (torch older than 2.0)
  sdp-kernel-deprecated  sdpa.toml sdpa.sdp-kernel-deprecated (new, a note): torch.backends.cuda.sdp_kernel() deprecated in
                       favour of torch.nn.attention.sdpa_kernel() (torch's FutureWarning, or a report about migrating off it)
  keyerror-bare        frameworks.toml transformers.flash-attn-check-keyerror (widened): `KeyError: 'flash_attn'` alone (the
                       traceback cut before transformers' frames, or an app's wrapper around it)
  window-negative      flash_attn.toml fa2.window-negative (new, a warning): window_size with a negated side, which flash-attn
                       reads as no limit (full attention on that side, no error)
  wheel-words          versions.toml fa2.wheel-mismatch (patterns added): flash-attn failing at run time or import despite a
                       successful install or build, said in words
  unrelated            prose.toml SENT (prose.gpu's and prose.compile's two words in one sentence of a line, not anywhere on a
                       paragraph pasted as one line), NOTFALLBACK (a device named as where work falls back is no GPU refused),
                       FALLBACKDENIED (prose.ignored: "would not trigger a fallback", "without falling back"), NOOPTION
                       (prose.said: "there is no option to choose it in the UI" is a missing feature, not a failure)
Session 9's blind misses with no entry (benchmarks/results/explain-blind-misses-s9.md):
  vllm-flex-feature    frameworks.toml vllm.flex-feature (new): vLLM's FlexAttention backend without sliding window, ALiBi or soft
                       cap (NotImplementedError; vllm/v1/attention/backends/flex_attention.py before vllm-project/vllm#24089)
  attention-backend-ignored  frameworks.toml app.backend-selection-ignored (widened): --attention-backend ignored or dropped on a
                       code path, or a fix that honours it
  mask-ignored         attention.toml attn.mask-ignored (new): a model's forward ignores the attention_mask it is given (the same
                       outputs with and without it)
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids

CHECK = ("ImportError: This modeling file requires the following packages that were not found in your environment: "
         "flash_attn. Run `pip install flash_attn`")


# installed-not-found
@pytest.mark.parametrize("text", [
    CHECK + "\n(venv) user@box:~/proj$ pip install flash_attn\nRequirement already satisfied: flash_attn in "
            "/home/user/venv/lib/python3.12/site-packages (2.7.4.post1)",
    "Loading the checkpoint fails\n\n" + CHECK + "\n\n$ pip show flash-attn\nName: flash-attn\nVersion: 2.5.8\nSummary: Flash Attention",
    CHECK + "\n\npip list | grep flash\nflash-attn                2.6.3",
    "加载模型报错：\n" + CHECK + "\n但是我已经安装了 flash_attn 2.6.3",
    "We already installed flash-attn 2.7.0 in the image, yet trust_remote_code loading says: " + CHECK,
    CHECK.replace("flash_attn.", "einops, flash_attn, timm.") + "\nI checked: the version of `flash_attn` is 2.5.6.",
])
def test_check_imports_not_found_though_installed(text):
    assert _top(text) == ("fa2.missing", "fa2")


def test_check_imports_alone_is_fa2_missing():
    # the message alone, and a report where installing it fixed the load (it was missing: both entries said so). policy: lead,
    # session 26 (one failure, one entry): transformers' check naming flash_attn is fa2.missing's failure (was
    # transformers.backend-unavailable); the check's own entry keeps its other forms and an import failure the log shows
    assert _top(CHECK)[0] == "fa2.missing"
    assert _top(CHECK + "\n$ pip install flash_attn\nSuccessfully installed flash_attn-2.6.3\nnow it loads")[0] == "fa2.missing"


def test_check_imports_for_another_package_is_not_flash_attn():
    # near miss: the check names einops only; flash_attn installed beside it is no failure
    text = CHECK.replace("flash_attn. Run `pip install flash_attn`", "einops. Run `pip install einops`") + \
        "\nRequirement already satisfied: flash_attn in /venv/lib/python3.11/site-packages (2.6.3)"
    assert "fa2.missing" not in _ids(text)


# sdpa-too-old
@pytest.mark.parametrize("text", [
    "[Bug] 'torch.nn.functional' has no attribute 'scaled_dot_product_attention' after the installer finished",
    "Training won't start: /opt/kohya/venv/lib/python3.10/site-packages/torch/nn/functional.py does not have an attribute named "
    "scaled_dot_product_attention",
    "ComfyUI node error -- torch.nn.functional doesn't have a attribute scaled_dot_product_attention (torch 1.13.1+cu117)",
])
def test_sdpa_missing_from_old_torch_in_words(text):
    assert _top(text) == ("torch.attention-api-too-old", "sdpa")


def test_sdpa_present_is_not_too_old():
    # near misses: SDPA there, another attribute missing; the private name of torch 1.13 asked for
    assert "torch.attention-api-too-old" not in _ids("torch.nn.functional has scaled_dot_product_attention since 2.0, we call it directly")
    assert "torch.attention-api-too-old" not in _ids(
        "'torch.nn.functional' has no attribute 'rms_norm' (the SDPA path works; rms_norm needs torch 2.4)")


# sdp-kernel-deprecated
@pytest.mark.parametrize("text", [
    "C:\\ComfyUI\\python_embeded\\Lib\\contextlib.py:105: FutureWarning: `torch.backends.cuda.sdp_kernel()` is deprecated. "
    "In the future, this context manager will be removed. Please see `torch.nn.attention.sdpa_kernel()` for the new context "
    "manager, with updated signature.\n  self.gen = func(*args, **kwds)",
    "How do I migrate from torch.backends.cuda.sdp_kernel to the new API? Our eval loop uses enable_math=True only.",
    "chore: replace uses of torch.backends.cuda.sdp_kernel with torch.nn.attention.sdpa_kernel",
    "`backends.cuda.sdp_kernel` has been deprecated since torch 2.3, so the warning floods the log",
])
def test_sdp_kernel_deprecated(text):
    found = _ids(text)
    assert found and found[0] == "sdpa.sdp-kernel-deprecated", found


def test_sdp_kernel_used_or_new_api_is_not_deprecated():
    # near misses: the old context manager used with no word of deprecation; the new sdpa_kernel; a denial
    assert "sdpa.sdp-kernel-deprecated" not in _ids("with torch.backends.cuda.sdp_kernel(enable_flash=True, enable_math=False):")
    assert "sdpa.sdp-kernel-deprecated" not in _ids("torch.nn.attention.sdpa_kernel() is deprecated? no, it replaced the old one")
    assert "sdpa.sdp-kernel-deprecated" not in _ids("torch.backends.cuda.sdp_kernel is not deprecated in torch 2.1, only later")


# keyerror-bare
@pytest.mark.parametrize("text", [
    "❌ Generation failed: Node processing failed: KeyError: 'flash_attn'\nTraceback:\nTraceback (most recent call last):\n"
    "  File \"/Users/me/ComfyUI/custom_nodes/some-tts/nodes/base.py\", line 210, in run\n    return fn(*args)",
    "ComfyUI on my M2 Mac fails to load the VibeVoice node since the update\n\n```\nKeyError: \"flash_attn\"\n```",
    "Model load error (KeyError: 'flash_attn') with transformers 5.5.1 and no flash-attn installed",
])
def test_bare_flash_attn_keyerror_is_transformers_check(text):
    assert _top(text) == ("transformers.flash-attn-check-keyerror", "fa2")


def test_other_keys_are_not_the_check():
    # near misses: a build step's KeyError for flash_attn_3, an attention-function table's key, a config dict's key
    for text in ("      KeyError: 'flash_attn_3'\n      [end of output]",
                 "KeyError: 'flash_attention_2' in ALL_ATTENTION_FUNCTIONS",
                 "cfg['attn']['flash_attn'] -> KeyError: 'flash_attn_kwargs'"):
        assert "transformers.flash-attn-check-keyerror" not in _ids(text), text


# window-negative
@pytest.mark.parametrize("text", [
    "attn = flash_attn_func(q, k, v, dropout_p=0.0, causal=False, window_size=[-self.win, self.win])",
    "    o = flash_attn_varlen_func(q, k, v, cu, cu, L, L, window_size = (-(w // 2), w // 2))",
    "Is this right? window_size=(-256, 256) gives the same output as no window at all on my H100",
    "flash_attn_with_kvcache(q, kc, vc, cache_seqlens=lens, window_size=(left, -left))",
    "Note: in flash_api.cpp a window_size_left < 0 is treated as the full length, so our negative window means no limit",
])
def test_negative_window_side_is_no_limit(text):
    assert _top(text) == ("fa2.window-negative", "fa2")


@pytest.mark.parametrize("text", [
    "flash_attn_func(q, k, v, causal=True, window_size=(-1, -1))",  # the documented "no window"
    "flash_attn_func(q, k, v, window_size=(-1, 0))",  # causal
    "flash_attn_func(q, k, v, window_size=(args.window_size, args.window_size))",
    "flash_attn_func(q, k, v, window_size=(4096, 0))",
    "flash_attn_varlen_func(q, k, v, cu, cu, L, L, window_size=(w, -1))",  # a left window, no limit on the right: a choice
])
def test_window_without_a_negated_side_is_not_window_negative(text):
    assert "fa2.window-negative" not in _ids(text)


# wheel-words
@pytest.mark.parametrize("text", [
    "flash-attn errors at import time even after a successful build from source (MAX_JOBS=4, 40 minutes)",
    "Our FlashAttention kernels crash at runtime although the install of flash_attn 2.6.3 was successful",
    "the flash_attn wheel breaks on import despite successfully installing it with pip",
])
def test_backend_fails_after_a_successful_install(text):
    assert _top(text) == ("fa2.wheel-mismatch", "fa2")


def test_successful_install_that_runs_is_not_wheel_mismatch():
    # near misses: nothing fails after the install; a failure of the install itself
    assert "fa2.wheel-mismatch" not in _ids("flash attention works at runtime after a successful installation of 2.8.3")
    assert "fa2.wheel-mismatch" not in _ids("flash-attn build fails at 95% despite a successful install of ninja")


# prose-sentence: prose.gpu and prose.compile read their two words in one sentence of a line
def test_paragraph_with_refusal_and_gpu_in_other_sentences_is_not_prose_gpu():
    # near misses: a tutorial's paragraph, pasted as one line: "No ..." in one sentence, a GPU in another
    para = ("FlexAttention lets you write the mask in Python. No custom CUDA. No forks of FlashAttention to maintain. "
            "The generated kernel runs close to FlashAttention 2 on Hopper GPUs.")
    assert "prose.gpu" not in _ids(para)
    para = ("With torch.compile the score_mod is fused into one Triton kernel. Not bad for twenty lines. The same kernel "
            "serves flex_attention at decode time.")
    assert "prose.compile" not in _ids(para)


@pytest.mark.parametrize("text", [
    "Is SM121 supported? I tried sageattention 3 on a DGX Spark and it failed.",  # the question and the GPU overlap in one sentence
    "Setup notes. FlashAttention 3 does not run on my RTX 4090, so the demo falls back. Any fix?",
    # policy: lead, session 26: a GPU below every kernel of the backend in that sentence is that GPU refused (was prose.gpu)
    ("Great library. sageattention does not support the GTX 1080 (sm_61) at all, is that expected?", "backend.unsupported-gpu"),
])
def test_refusal_and_gpu_in_one_sentence_is_prose_gpu(text):
    text, entry = text if isinstance(text, tuple) else (text, "prose.gpu")
    assert _top(text)[0] == entry


def test_compile_failure_in_one_sentence_is_prose_compile():
    assert _top("Setup is fine. FlexAttention under torch.compile throws an AssertionError with nested tensors")[0] == "prose.compile"


# prose-fallback-target: a device named as where work falls back is no platform refused; a fallback denied is none
def test_fallback_target_and_denied_fallback_are_not_claimed():
    line = "Enable flash attention automatically when the model supports it and it would not trigger a fallback to CPU."
    assert not {"prose.gpu", "prose.ignored"} & set(_ids(line))
    assert "prose.ignored" not in _ids("The sdpa path now runs without falling back to the math kernel for flash attention users.")


def test_fallback_reported_is_still_prose_ignored():
    assert _top("flash attention is ignored: the model still uses sdpa on my A100")[0] == "prose.ignored"


# prose-no-option: a first-person sentence whose negation is of a way to pick the backend in an app
def test_missing_ui_option_is_not_prose_said():
    text = ("Question about attention options\n\nHello,\n\nThanks for the trainer.\n\nWorks well here.\n\n"
            "I saw that xformers is installed by setup.bat, but there is no option to choose it in the settings tab.\n")
    assert "prose.said" not in _ids(text)


def test_backend_failing_in_body_is_still_prose_said():
    text = ("Generation stops at the first step\n\nUbuntu 22.04, driver 550, a 4090.\nThe default workflow.\nNo custom nodes.\n\n"
            "When I pick xformers in the settings tab I get a CUDA error every time.\n")
    assert _top(text)[0] == "prose.said"


# vllm-flex-feature (session 9's blind miss, round 36m: vllm-project/vllm#24359)
@pytest.mark.parametrize("text", [
    "ERROR 09-03 11:20:41 [core.py:700] NotImplementedError: FlexAttention does not support sliding window yet.",
    "Gemma-2 on a T4: vLLM picks FLEX_ATTENTION and stops with NotImplementedError: FlexAttention does not support logits soft cap yet.",
    "The FlexAttention backend lacks sliding-window support, so vLLM raises NotImplementedError for gpt-oss on Turing",
])
def test_vllm_flex_backend_missing_feature(text):
    assert _top(text) == ("vllm.flex-feature", "flex")


def test_flex_sliding_window_working_is_not_vllm_flex_feature():
    # near misses: torch's FlexAttention doing sliding windows through a mask_mod; a feature said supported
    assert "vllm.flex-feature" not in _ids("FlexAttention supports sliding window through a mask_mod, no NotImplementedError here")
    assert "vllm.flex-feature" not in _ids("def sliding_window(b, h, q, kv): return q - kv <= 128  # FlexAttention mask_mod")


# attention-backend-ignored (session 9's blind miss, round 41m: radixark/miles#1915)
@pytest.mark.parametrize("text", [
    "LoRA runs silently ignore `--attention-backend`: the bridge never copies it onto the provider",
    "Bug: --attention-backend fa3 is ignored by the critic workers, which still pick flashinfer",
    "fix(lora): honor --attention-backend in the bridge LoRA path",
])
def test_attention_backend_flag_ignored(text):
    assert _top(text)[0] == "app.backend-selection-ignored"


def test_attention_backend_flag_used_is_not_ignored():
    # near misses: the flag passed and honoured; the flag's value refused (another entry's)
    assert "app.backend-selection-ignored" not in _ids("We pass --attention-backend triton and the engine uses it as asked")
    assert "app.backend-selection-ignored" not in _ids("python -m sglang.launch_server --attention-backend fa3 --model-path m")


# mask-ignored (session 9's blind miss, round 49m: ML-GSAI/LLaDA#89)
@pytest.mark.parametrize("text", [
    "Dream-7B forward ignores the attention_mask in batched generation",
    "My encoder returns the same outputs whether or not attention_mask is passed, even for the padded rows",
    "不管是否传入 attn_mask，padding 位置的输出都一样",
])
def test_model_ignores_its_attention_mask(text):
    assert _top(text)[0] == "attn.mask-ignored"


def test_mask_used_is_not_mask_ignored():
    # near misses: outputs differ with the mask (as they should); a backend said to ignore a mask (another entry's reading)
    assert "attn.mask-ignored" not in _ids("the logits differ with and without attention_mask, as expected for padded rows")
    assert "attn.mask-ignored" not in _ids("flash attention ignores the attention mask you pass with a custom 4D mask")
