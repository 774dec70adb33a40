"""Variants for helper ex199 (session 38): the misses of round 199m (fixtures/errors/round199m, gathered blind by ex199m in
session 36, measured three times by the lead, training material since ef772f19; session 37's reading of it was lost).

Every case was written by hand (2026-12-03): other apps, models, versions, paths, GPUs and wordings than the fixtures, Chinese
where prose carries the rule. The positives name what explain must report first (entry, backend; None: any backend); the near
misses what it must not claim (None: nothing at all); no pattern written or widened here matches an unrelated log of any training
round on its own (the measure-only sets are never read).

Mechanisms (knowledge file: rule; the round 199m text it came from):
  flag        frameworks.toml app.xformers-flag-missing: the web UI's launch line (webui.py / launch.py, webui-user, "Launching Web
              UI with arguments:", COMMANDLINE_ARGS) without --xformers, then its "No module 'xformers'. Proceeding without it."
              within a few lines, where the report's title names xformers (AUTOMATIC1111/stable-diffusion-webui#10184, #2270)
  triton      xformers.toml xformers.triton-unavailable (new, a note): xformers' "(A matching) Triton is not available, some
              optimizations will not be enabled" as the report's subject (the title names Triton in the writer's words, or the
              writer says they get this warning); the notice pasted alone, as a title too, claims nothing (rounds 75 and 106
              labelled it unrelated: tests/test_explain_variants_ex106.py); passed over as an optional probe in its newer wording
              too ("This is just a warning")
              (RVC-Project/Retrieval-based-Voice-Conversion-WebUI#999, derrian-distro/LoRA_Easy_Training_Scripts#287,
              lpiccinelli-eth/UniDepth#19)
  headdim     attention.toml attn.head-dim-unsupported: a head-dim limit said in prose ("we support head dimension up to 128",
              "doesn't work for ... as they have a head dimension of 256", a title asking support for a head dim)
              (Dao-AILab/flash-attention#67); sage.toml sage.head-dim: SageAttention's own refusal quoted as code, its check of
              its own head_dim_og with the raise of "Unsupported head_dim" under it (thu-ml/SageAttention#166); attribution.toml
              [[specialize]]: a title asking SageAttention for a head dim is sage.head-dim (round 109m woct0rdho/SageAttention#93)
  turing      backends.toml backend.unsupported-gpu: FlashAttention's support of a pre-Ampere GPU asked for or said to be coming
              (Dao-AILab/flash-attention#720)
  fallback    frameworks.toml app.fallback-attention-broken: the error said to come from the backend's absence ("lack of flash
              attention can lead to this error") (TencentARC/ToonComposer#1)
  cut         imports.toml import.cut-at-backend-import: a traceback cut at a frame inside the backend's own package, at module
              level, a Ray worker's "(Trainer pid=N)" prefix on its lines (agentscope-ai/agentscope#1312)
  trainer     frameworks.toml transformers.attn-impl-unsupported: a trainer's own "Current model does not support
              FlashAttention-2" (hiyouga/LlamaFactory#1295)
  gqa         attention.toml attn.patch-no-gqa: a fix of a FlashAttention forward (patch) for GQA or a grouped-query model
              (philschmid/deep-learning-pytorch-huggingface#30)
  mask        attention.toml attn.mha-mask-shape: nn.MultiheadAttention's "2D/3D attn_mask" shape error named in words
              (sherwinbahmani/tc4d#8)
"""

from __future__ import annotations

from each_case import each
from explain_top import assert_patterns_match_no_unrelated_log, first, ids

POSITIVES = [
    # flag
    ("flag-launch-py", "xformers is installed, the UI ignores it\n\n$ python launch.py --listen --medvram\nPython 3.10.6\nNo module 'xformers'. Proceeding without it.\nLoading weights [e1441589a6]",
     ("app.xformers-flag-missing", "xformers")),
    ("flag-args-line", "[Bug]: xformers not loading on Linux\nVersion: v1.9.4\nLaunching Web UI with arguments: --api --no-half-vae\nno module 'xformers'. Processing without...\nStartup time: 9.1s",
     ("app.xformers-flag-missing", "xformers")),
    ("flag-cmdargs", "xformers 0.0.27 ne se charge pas\nset COMMANDLINE_ARGS=--medvram --opt-sdp-attention\n\nD:\\sd\\webui> webui-user.bat\nNo module 'xformers'. Proceeding without it.",
     ("app.xformers-flag-missing", "xformers")),
    # triton
    ("triton-title-words", "Triton not found warning, ComfyUI on Windows 11\n\nWARNING:xformers:A matching Triton is not available, some optimizations will not be enabled.\nIs this a problem?",
     ("xformers.triton-unavailable", "xformers")),
    ("triton-title-missing", "Missing Triton - some optimizations not enabled (xformers 0.0.28)\n\nOn every start:\nTriton is not available, some optimizations will not be enabled.\nThis is just a warning: No module named 'triton'",
     ("xformers.triton-unavailable", "xformers")),
    ("triton-i-get", "Hello, after updating the trainer I get this warning: \"A matching Triton is not available, some optimizations will not be enabled\" and I don't know if training is slower",
     ("xformers.triton-unavailable", "xformers")),
    ("triton-zh", "启动时一直提示 A matching Triton is not available, some optimizations will not be enabled，这个要紧吗？",
     ("xformers.triton-unavailable", "xformers")),
    # headdim
    ("headdim-upto", "Running Gemma with flash-attn fails on the larger checkpoint.\n\nThe kernels currently support head dimensions up to 128, and that model has 256.",
     ("attn.head-dim-unsupported", "fa2")),
    ("headdim-doesnt-work", "xformers memory_efficient_attention is fine for the small UNet, but it doesn't work for the XL variant since it has a head dimension of 160",
     ("attn.head-dim-unsupported", "xformers")),
    ("headdim-title", "Support for head dim 512 in flash_attn_func\n\nGemma 4 global layers need it.",
     ("attn.head-dim-unsupported", "fa2")),
    ("sage-title", "Support head dim 160 for SageAttention\n\nThe HunyuanVideo VAE has heads of 160.", ("sage.head-dim", "sage")),
    ("sage-fstring", "why is the head dim capped?\n\n    elif head_dim_og > 128:\n        raise ValueError(f\"Unsupported head_dim: {head_dim_og}\")",
     ("sage.head-dim", "sage")),
    # turing
    ("turing-planned", "Volta support?\n\nflash-attn 2 runs great on our A100s.\nSupport for Volta GPUs (V100) is planned according to the roadmap issue; we have 64 of them.",
     ("backend.unsupported-gpu", "fa2")),
    ("turing-eta", "flash_attn 2 on Colab\n\nMistral needs it. Any ETA on support for the T4?",
     ("backend.unsupported-gpu", "fa2")),
    # fallback
    ("fallback-absence", "RuntimeError: shape '[2, 77, 8, 40]' is invalid for input of size 197120\n\nMaintainer: the absence of xformers can lead to this error, the fallback path is not tested",
     ("app.fallback-attention-broken", "xformers")),
    ("fallback-zh", "einops.EinopsError: Shape mismatch, can't divide axis of length 1 in chunks of 16\n\n没有安装 flash-attn 会导致这个错误",
     ("app.fallback-attention-broken", "fa2")),
    # cut
    ("cut-ray", "(RayWorkerWrapper pid=41123)   File \"/opt/venv/lib/python3.11/site-packages/xformers/ops/__init__.py\", line 8, in <module>\n(RayWorkerWrapper pid=41123)     from .fmha import (\n(RayWorkerWrapper pid=41123)   File \"/opt/venv/lib/python3.11/site-packages/xformers/ops/fmha/__init__.py\", line 10, in <module>",
     ("import.cut-at-backend-import", "xformers")),
    ("cut-relative", "Traceback (most recent call last):\n  File \"C:\\ComfyUI\\custom_nodes\\wan\\nodes.py\", line 5, in <module>\n    from sageattention import sageattn\n  File \"C:\\ComfyUI\\python_embeded\\Lib\\site-packages\\sageattention\\__init__.py\", line 1, in <module>\n    from .core import sageattn\n  File \"C:\\ComfyUI\\python_embeded\\Lib\\site-packages\\sageattention\\core.py\", line 20, in <module>\n    from .quant import per_block_int8",
     ("import.cut-at-backend-import", "sage")),
    # trainer
    ("trainer-warning", "[WARNING|loader.py:118] 2024-01-05 >> Current model does not support FlashAttention-2.\n\nQwen-7B, flash-attn 2.4.2",
     ("transformers.attn-impl-unsupported", "fa2")),
    # gqa
    ("gqa-fix-70b", "Fix the flash attention forward for CodeLlama-34B\n\nThe patch reshaped keys with num_heads.",
     ("attn.patch-no-gqa", "fa2")),
    ("gqa-fix-words", "This change fixes flash attention for grouped-query attention models in our llama_patch.py",
     ("attn.patch-no-gqa", "fa2")),
    # mask
    ("mask-title", "3D attn_mask shape error when sampling with batch size 4\n\nopen_clip text encoder, torch 2.1",
     ("attn.mha-mask-shape", "sdpa")),
    ("mask-mismatch", "Getting a 2D attn_mask size mismatch in the CLIP text encoder after upgrading torch",
     ("attn.mha-mask-shape", "sdpa")),
]

NEAR_MISSES = [
    # flag: started with --xformers, and still no module: xformers did not import (not the flag)
    ("flag-with-flag", "Launching Web UI with arguments: --xformers --medvram\nNo module 'xformers'. Proceeding without it.",
     "app.xformers-flag-missing"),
    ("flag-no-title", "[Bug]: 404 when generating\nLaunching Web UI with arguments: --api\nno module 'xformers'. Processing without...\nNo module 'xformers'. Proceeding without it.",
     "app.xformers-flag-missing"),
    ("flag-error-title", "ModuleNotFoundError: import of xformers halted; None in sys.modules\nLaunching Web UI with arguments: --api\nNo module 'xformers'. Proceeding without it.", "app.xformers-flag-missing"),
    ("flag-far", "xformers missing\npython webui.py --port 7860\n" + "\n".join(f"loading part {i}" for i in range(12)) + "\nNo module 'xformers'. Proceeding without it.",
     "app.xformers-flag-missing"),
    # triton: the notice in a log whose report is something else (nothing about Triton in the title, no one asking about it)
    ("triton-in-log", "Training is very slow on my 3060\n\nA matching Triton is not available, some optimizations will not be enabled\nsteps: 10%|#         | 100/1000 [10:00<90:00, 6.00s/it]",
     "xformers.triton-unavailable"),
    ("triton-notice-title", "A matching Triton is not available, some optimizations will not be enabled.\n\nWhy is this printed? How do I fix it?", "xformers.triton-unavailable"),
    ("triton-error-title", "ImportError: DLL load failed while importing libtriton\n\nA matching Triton is not available, some optimizations will not be enabled", "xformers.triton-unavailable"),
    ("triton-compile", "Triton error when using torch.compile\n\nRuntimeError: Cannot find a working triton installation. More information on installing Triton can be found at https://github.com/openai/triton",
     "xformers.triton-unavailable"),
    # headdim: a head dim said to work, or supported sizes stated without a limit hit
    ("headdim-works", "flash-attn works for the 2.7B model, which has a head dimension of 128", "attn.head-dim-unsupported"),
    ("headdim-title-other", "Support for sliding window in flash_attn_func", "attn.head-dim-unsupported"),
    ("sage-fstring-other", "raise ValueError(f\"Unsupported dtype: {dtype}\")", "sage.head-dim"),
    ("sage-fstring-jax", "  File \"/srv/jax_model/attn.py\", line 40, in attend\n    raise ValueError(f\"Unsupported head_dim: {head_dim}\")", "sage.head-dim"),
    # turing: support for a new GPU is asked, or an old GPU said to be supported already
    ("turing-new-gpu", "When will FlashAttention-2 support Blackwell RTX 5090?", "backend.unsupported-gpu"),
    ("turing-supported", "xformers supports Turing GPUs like the T4 already, use it there", "backend.unsupported-gpu"),
    # fallback: the backend's absence said not to matter, or its presence causing the error
    ("fallback-not", "The lack of flash attention does not lead to this error; it is the einops version", "app.fallback-attention-broken"),
    # cut: the traceback goes on to its error, or stops in the app's own module
    ("cut-complete", "  File \"/opt/venv/lib/python3.11/site-packages/flash_attn/flash_attn_interface.py\", line 10, in <module>\n    import flash_attn_2_cuda as flash_attn_gpu\nImportError: libcudart.so.12: cannot open shared object file: No such file or directory",
     "import.cut-at-backend-import"),
    ("cut-triton-probe", "A matching Triton is not available, some optimizations will not be enabled\nTraceback (most recent call last):\n  File \"C:\\env\\Lib\\site-packages\\xformers\\__init__.py\", line 55, in _is_triton_available\n    from xformers.triton.softmax import softmax as triton_softmax  # noqa\n  File \"C:\\env\\Lib\\site-packages\\xformers\\triton\\softmax.py\", line 11, in <module>\n    import triton",
     "import.cut-at-backend-import"),
    ("cut-setup", "Traceback (most recent call last):\n  File \"D:\\src\\flash-attention\\setup.py\", line 520, in <module>\n    setup(", "import.cut-at-backend-import"),
    ("cut-app", "  File \"/srv/app/models/unet.py\", line 12, in <module>\n    from einops import rearrange", "import.cut-at-backend-import"),
    # trainer: another feature than FA2
    ("trainer-shift", "WARNING - llmtuner.model.patcher - Current model does not support shift short attention.", "transformers.attn-impl-unsupported"),
    # gqa: FlashAttention said to support GQA, no fix of a patch
    ("gqa-feature", "flash attention 2 supports GQA natively since 2.0", "attn.patch-no-gqa"),
    # mask: the mask's shape printed by a working run
    ("mask-print", "debug: 2D attn_mask shape torch.Size([77, 77]) for the text encoder", "attn.mha-mask-shape"),
]


def _positive(text, want):
    entry, backend = want
    got = first(text)
    assert got[0] == entry and (backend is None or got[1] == backend), (got, ids(text))


def _near_miss(text, must_not):
    found = ids(text)
    assert (not found) if must_not is None else must_not not in found, found


def test_round199m_variants():
    each(((name, (text, want)) for name, text, want in POSITIVES), _positive)


def test_round199m_near_misses():
    each(((name, (text, must_not)) for name, text, must_not in NEAR_MISSES), _near_miss)


# Each pattern written or widened here, found by a piece of its text, matches no unrelated log of any training round on its own
# (before ranking and attribution decide anything).
PIECES = {
    "app.xformers-flag-missing": "Launching Web UI with arguments",
    "attn.head-dim-unsupported": ("up[ \\t]+to", "(?:because|as|since)", "\\A"),
    "sage.head-dim": "head_dim_og\\b",
    "backend.unsupported-gpu": ("coming[ \\t]+soon", "how[ \\t]+soon"),
    "app.fallback-attention-broken": ("(?:lack|absence", "(?:没有安装"),
    "import.cut-at-backend-import": "pid=",
    "xformers.triton-unavailable": "some optimi",
    "transformers.attn-impl-unsupported": ("Current[ \\t]+model", "(?:当前|该|此)模型"),
    "attn.patch-no-gqa": "fix(?:es|ed|ing)?",
    "attn.mha-mask-shape": "[23]D[ \\t_-]?attn_mask",
}


def test_round199m_patterns_match_no_unrelated_log():
    assert_patterns_match_no_unrelated_log(PIECES)

