"""Variants for helper ex164 (session 29): the misses of round 166m (fixtures/errors/round166m, gathered blind by ex159m in
session 28, measured three times by the lead, training material since this helper read it).

Every case was written by hand (2026-12-01): other models, versions, paths, GPUs, apps and wordings than the fixtures. The
positives name what explain must report first (entry, backend; None: any backend); the near misses what it must not claim; no
pattern written or widened here matches an unrelated log of any training round (the measure-only sets are never read).

Mechanisms (knowledge file: rule; the round 166m text it came from):
  notfound   flash_attn.toml fa2.missing: a title "flash_attn not found" (the import's failure in words); fa2.not-available-fallback:
             "when using X" / "while using X" is where, not a fallback (michaelfeil/infinity#308)
  phi3       flash_attn.toml fa2.not-available-fallback: the Phi-3 family's remote code's eager-attention notice "You are not running
             the flash-attention implementation, expect numerical differences." (microsoft/PhiCookBook#115)
  wheel      wheels.toml install.wheel-other-platform: pip's refusal retold in a sentence about the backend (devilismyfriend/StableTuner#36)
  mismatch   versions.toml fa2.wheel-mismatch: a torch/flash-attn mismatch said with a slash, with words between, or of the flash-attn
             installed on the line above (manascb1344/zonos-api#6, andimarafioti/florence2-finetuning#9)
  xftorch    versions.toml xformers.built-for-other-torch: xformers said not to work with a named torch release (oobabooga/textgen#4341)
  cnattr     frameworks.toml transformers.helper-moved: the AttributeError retold in Chinese (a GitCode write-up of XTuner)
  sage22     sage.toml sage.kernels-as-ops: SageAttention 2.2's smNN_compile named against the old _qattn_smNN (kijai/ComfyUI-KJNodes#717)
  xfmac      xformers.toml xformers.no-cuda: xformers built from source into a macosx build folder (facebookresearch/chameleon#40)
  replaced   xformers.toml xformers.replaced-torch: the xformers install said in words above pip's resolver lines for torch's
             companions (Comfy-Org/ComfyUI#1741)
  tfop       attribution.toml (the other programs' shadow) and triage.toml: TensorFlow's own flash attention op (gen_*_ops, tf.Tensor,
             a <pkg>/flash_attn/python/ops/ folder) is none of the seven (unrelated intelligent-machine-learning/dlrover#1180)
"""

from __future__ import annotations

import pytest

from explain_top import assert_claim_no_unrelated_log, assert_patterns_match_no_unrelated_log, first, ids


@pytest.mark.parametrize("text, want", [
    # notfound
    ("Flash attention not found\n\nThe server stops after loading the tokenizer.", ("fa2.missing", "fa2")),
    ("flash_attn not found while using the v0.9 image with Qwen2-VL", ("fa2.missing", "fa2")),
    # phi3
    ("[2024-06-02 10:11:12] modeling_phi3_v.py:412 WARNING You are not running the flash-attention implementation, expect "
     "numerical differences.", ("fa2.not-available-fallback", "fa2")),
    # wheel
    ("Installing the requirements on Windows: flash_attn could not be installed, it's not a supported wheel on this platform",
     ("install.wheel-other-platform", "fa2")),
    # mismatch
    ("Crash on startup in the Docker image: torch/flash-attn version mismatch (torch 2.4.0+cu121, flash-attn 2.7.2)",
     ("fa2.wheel-mismatch", "fa2")),
    ("The logs point to a mismatch between the torch release in the base image and flash_attn.", ("fa2.wheel-mismatch", "fa2")),
    ("I did `pip install flash_attn==2.6.3` as the README says.\n\nTurns out it is incompatible with the torch version on the V100 box.",
     ("fa2.wheel-mismatch", "fa2")),
    # xftorch
    ("After the webui update xformers can't load with torch 2.3.0 any more, only SDPA works", ("xformers.built-for-other-torch", "xformers")),
    # cnattr
    ("微调 Qwen2 报错，Qwen2FlashAttention2 缺少 _upad_input 方法，transformers 版本是 4.48", ("transformers.helper-moved", "fa2")),
    # sage22
    ("Since SageAttention 2.2 the node must import sm90_compile, not _qattn_sm90, or the fp8 path is never used",
     ("sage.kernels-as-ops", "sage")),
    # xfmac
    ("  creating build/lib.macosx-13.0-x86_64-cpython-310/xformers/components\n  copying xformers/components/residual.py -> "
     "build/lib.macosx-13.0-x86_64-cpython-310/xformers/components", ("xformers.no-cuda", "xformers")),
    # replaced
    ("I can't install xformers on the Colab notebook any more:\n\n```\nERROR: pip's dependency resolver does not currently take into "
     "account all the packages that are installed.\ntorchaudio 2.1.0+cu121 requires torch==2.1.0, but you have torch 2.2.1 which is "
     "incompatible.\n```", ("xformers.replaced-torch", "xformers")),
])
def test_round166m_variants(text, want):
    got = first(text)
    assert got[0] == want[0] and (want[1] is None or got[1] == want[1]), (text, ids(text), got)


@pytest.mark.parametrize("text, must_not", [
    # notfound: a fallback announced stays the fallback's
    ("flash_attn not found, using eager attention instead", "fa2.missing"),
    # phi3: the notice quoted as the thing to silence, no report of it
    ("warnings.filterwarnings('ignore', message='expect numerical differences')", "fa2.not-available-fallback"),
    # wheel: a question whether it is, no refusal
    ("Which xformers file is a supported wheel on this platform? I have Python 3.12 on Windows", "install.wheel-other-platform"),
    # mismatch: ruled out, or another package's mismatch
    ("It is not a torch/flash-attn mismatch: the same wheel works on the other node", "fa2.wheel-mismatch"),
    ("There is a mismatch between torch and torchvision after the upgrade", "fa2.wheel-mismatch"),
    # xftorch: torch.compile is no torch release; a question
    ("xformers doesn't work with torch.compile in our pipeline", "xformers.built-for-other-torch"),
    ("does xformers not work with torch 2.1?", "xformers.built-for-other-torch"),
    # cnattr: the helper named as present
    ("transformers 4.40 里 Qwen2FlashAttention2 仍然有 _flash_attention_forward 方法", "transformers.helper-moved"),
    # sage22: the new module named alone, no old one against it
    ("sm89_compile loads fine on my RTX 4090 with SageAttention 2.2", "sage.kernels-as-ops"),
    # xfmac: a Linux build folder
    ("  copying xformers/ops/fmha/flash.py -> build/lib.linux-x86_64-cpython-311/xformers/ops/fmha", "xformers.no-cuda"),
    # replaced: torch's companions on another torch after installing something else
    ("Installing the latest diffusers in the notebook:\ntorchvision 0.16.0+cu118 requires torch==2.1.0, but you have torch 2.1.2 "
     "which is incompatible.", "xformers.replaced-torch"),
])
def test_round166m_near_misses(text, must_not):
    assert must_not not in ids(text), ids(text)


def test_round166m_tensorflow_flash_attention_is_no_backend():
    """tfop: TensorFlow's own flash attention op failing (a generated gen_*_ops module, Keras layers, a <pkg>/flash_attn/python/ops/
    folder) claims nothing for the seven; flash-attn's own traceback, with the same error, still names FA2."""
    tf = ("Traceback (most recent call last):\n  File \"bench.py\", line 12, in <module>\n    out = attn(q, k, v)\n"
          "  File \"/opt/tfx/build/lib.linux-x86_64-cpython-310/tfx/flash_attn/python/ops/attention_ops.py\", line 88, in call\n"
          "    o = gen_flash_attention_ops.flash_attention_fwd(\nAttributeError: module 'a1b2c3' has no attribute 'flash_attention_fwd'\n"
          "  • query=tf.Tensor(shape=(1, 8, 16, 64), dtype=float16)")
    assert ids(tf) == [], ids(tf)
    fa = ("Traceback (most recent call last):\n  File \"/venv/lib/python3.11/site-packages/flash_attn/flash_attn_interface.py\", "
          "line 90, in _flash_attn_forward\n    out = flash_attn_gpu.fwd(q, k, v)\nAttributeError: module 'flash_attn_2_cuda' has no "
          "attribute 'fwd'")
    assert first(fa)[1] == "fa2", ids(fa)


# Each pattern written or widened here, found by a piece of its text, matches no unrelated log of any training round on its own
# (before ranking and attribution decide anything).
PIECES = {
    "fa2.missing": "(?:installed|found)",
    "fa2.not-available-fallback": ("You are not running the flash", "(?<!\\bwhen )(?<!\\bwhile )using"),
    "install.wheel-other-platform": "(?:is|it'?s|was|are|were)[ \\t]+not[ \\t]+a[ \\t]+supported",
    "fa2.wheel-mismatch": ("torch[ \\t]*/[ \\t]*flash", "(?:mismatch|incompatibility)[ \\t]+between[ \\t]+(?:the[ \\t]+)?(?:installed[ \\t]+)?(?:py)?torch",
                           "pip3?[ \\t]+install[ \\t]+[`'\"]?flash[-_]attn"),
    "xformers.built-for-other-torch": "won'?t|won’t|will[ \\t]+not",
    "transformers.helper-moved": "(?:属性|方法|函数)",
    "sage.kernels-as-ops": "_compile",
    "xformers.no-cuda": "macosx",
    "xformers.replaced-torch": "x-?formers",
}


def test_round166m_patterns_match_no_unrelated_log():
    assert_patterns_match_no_unrelated_log(PIECES)


def test_round166m_entries_claim_no_unrelated_log():
    assert_claim_no_unrelated_log({"fa2.missing", "fa2.wheel-mismatch", "xformers.built-for-other-torch", "sage.kernels-as-ops",
                                   "xformers.no-cuda", "xformers.replaced-torch", "install.wheel-other-platform"})
