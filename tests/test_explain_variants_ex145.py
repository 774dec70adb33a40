"""Variants for helper ex145 (session 25): the misses of round 142m (fixtures/errors/round142m, gathered blind by ex142m in
session 24, measured three times by the lead, training material since this helper read it).

Every case was written by hand (2026-11-30): other models, versions, paths, GPUs, apps and wordings than the fixtures. The
positives name what explain must report first (entry, backend; None: any backend); the near misses what it must not claim; no
pattern written or widened here matches an unrelated log of any training round (the measure-only sets are never read).

Mechanisms (knowledge file: rule; the round 142m text it came from):
  wrapped   sdpa.toml sdpa.mask-size-mismatch: the broadcast message pasted wrapped before "at non-singleton dimension"
            (Nerogar/OneTrainer#1555)
  ckarch    accelerators.toml fa2.rocm-ck-gpu-unsupported: flash-attn's setup.py refusing a ROCm arch its CK kernels do not build
            for ("... is invalid or not supported by Flash-Attention"), no longer AITER's (ROCm/flash-attention#93)
  noyet     frameworks.toml transformers.attn-impl-unsupported: the model class's "does not support Flash Attention 2.0" without
            its "yet", as a title retells it (huggingface/transformers#28381)
  trace     frameworks_source.toml transformers.sdpa-trace-needs-mask (new): transformers' SDPA mask helper refusing
            torch.jit.trace without an attention_mask (microsoft/Olive#802)
  setup     builds.toml build.setuptools-too-new: a setuptools newer than a version said to break the build (snicolast/ComfyUI-Ovi#26)
  wheel     builds.toml build.prebuilt-wheel-missing: an installer's own warning that prebuilt wheels may not be available and that
            it will build from source, an attention library named near it (PozzettiAndrea/ComfyUI-TRELLIS2#7)
  stuck     builds.toml build.no-ninja: the build said stuck beside the library, pip's spinner for its build the log's last state
            (studio-dots-ai/dots.ocr#77)
  igpu      accelerators.toml [[platform]] xpu: an integrated Intel GPU named as the machine's graphics, so flash-attn's missing
            nvcc is fa2.platform-unsupported there (studio-dots-ai/dots.ocr#223)
  hang      attention.toml attn.kernel-hang explained_by attn.int32-overflow: a hang the report puts down to a 32-bit index
            overflow follows it (intel/torch-xpu-ops#5224)
  sparse    attention.toml attn.qkv-device, accelerators.toml [[platform_route]]: torch.sparse's Triton BSR attention's device
            check, sdpa.op-not-on-device on an XPU, MPS or NPU (intel/torch-xpu-ops#3176)
  paren     attribution/refusals.py CLEARED, EXONERATED: a clause opened inside parentheses has its own subject ("(other
            parameters are irrelevant)" clears no backend) (AUTOMATIC1111/stable-diffusion-webui#2034)
"""

from __future__ import annotations

import pytest

from explain_top import assert_patterns_match_no_unrelated_log, first, ids, tb


SDPA_CALL = ("/opt/app/models/mmdit.py", 233, "forward", "out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)")


@pytest.mark.parametrize("text, want", [
    # wrapped
    (tb(SDPA_CALL, error="RuntimeError: The expanded size of the tensor (2304) must match the existing size (1152)\n"
                         "at non-singleton dimension 3.  Target sizes: [1, 24, 1152, 2304].  Tensor sizes: [1, 1, 1152, 1152]"),
     ("sdpa.mask-size-mismatch", "sdpa")),
    ("RuntimeError: The expanded size of the tensor (777) must match the existing size (512)\n   at non-singleton dimension 3.  "
     "Target sizes: [4, 16, 512, 777].  Tensor sizes: [4, 1, 512, 512]", ("sdpa.mask-size-mismatch", None)),
    # ckarch
    ("AssertionError: One of GPU archs of ['gfx1201'] is invalid or not supported by Flash-Attention",
     ("fa2.rocm-ck-gpu-unsupported", "fa2")),
    ("[Issue]: gfx1030 is invalid or not supported by FlashAttention (Radeon RX 6800 XT, ROCm 6.1)",
     ("fa2.rocm-ck-gpu-unsupported", "fa2")),
    # noyet
    ("GPTBigCodeForCausalLM does not support Flash Attention 2.0 (transformers 4.35)", ("transformers.attn-impl-unsupported", "fa2")),
    ("Why: Qwen2AudioEncoderModel does not support FlashAttention 2 when loading the audio tower",
     ("transformers.attn-impl-unsupported", "fa2")),
    # trace
    ("torch.onnx.export(model, (input_ids,), 'decoder.onnx')\nValueError: Attention using SDPA can not be traced with "
     "torch.jit.trace when no attention_mask is provided. To solve this issue, please either load your model with the argument "
     "`attn_implementation=\"eager\"` or pass an attention_mask input when tracing the model.", ("transformers.sdpa-trace-needs-mask", "sdpa")),
    ("ValueError: Attention using SDPA cannot be traced with torch.jit.trace\nwhen no attention_mask is provided.",
     ("transformers.sdpa-trace-needs-mask", "sdpa")),
    # setup
    ("Building SageAttention on Windows: a newer setuptools than 75.8.2 breaks the build, pin it first",
     ("build.setuptools-too-new", "sage")),
    ("flash-attn compile fails with setuptools > 80 on my machine", ("build.setuptools-too-new", "fa2")),
    ("xformers: setuptools versions higher than 79 make the wheel build fail", ("build.setuptools-too-new", "xformers")),
    # wheel
    ("[WARNING] Python 3.13 detected - pre-built wheels may not be available for flash-attn\n[WARNING] Will attempt compilation "
     "from source where possible", ("build.prebuilt-wheel-missing", "fa2")),
    ("installing sageattention: prebuilt wheels are not available for torch 2.9, attempting to build from source",
     ("build.prebuilt-wheel-missing", "sage")),
    # stuck
    ("装 xformers 的时候卡死了\n\nCollecting xformers==0.0.28.post3\n  Using cached xformers-0.0.28.post3.tar.gz (7.8 MB)\n"
     "Building wheels for collected packages: xformers\n  Building wheel for xformers (pyproject.toml) ... |",
     ("build.no-ninja", "xformers")),
    ("pip install sageattention is stuck for an hour\nBuilding wheels for collected packages: sageattention\n"
     "  Building wheel for sageattention (setup.py) ... \\", ("build.no-ninja", "sage")),
    # igpu
    ("Installing on a Surface laptop (Intel(R) Iris(R) Xe Graphics):\n  UserWarning: flash_attn was requested, but nvcc was not "
     "found.  Are you sure your environment has nvcc available?\nOSError: CUDA_HOME environment variable is not set. Please set "
     "it to your CUDA install root.", ("fa2.platform-unsupported", "fa2")),
    # sparse
    ("Is XPU available: True\nValueError: _scaled_dot_product_attention(): all inputs are expected to be on the same GPU device.",
     ("sdpa.op-not-on-device", "sdpa")),
    ("q on cuda:0, the BSR mask on cuda:1\nValueError: _scaled_dot_product_attention(): all inputs are expected to be on the same "
     "GPU device.", ("attn.qkv-device", None)),
    # paren
    ("NameError: name 'xformers' is not defined\n\n2. Launch the web UI with --force-enable-xformers (other flags are irrelevant)",
     ("attn.import-guard", "xformers")),
])
def test_round142m_variants(text, want):
    got = first(text)
    assert got[0] == want[0] and (want[1] is None or got[1] == want[1]), (text, ids(text), got)


@pytest.mark.parametrize("text, must_not", [
    # wrapped: another op's broadcast, no SDPA named
    ("RuntimeError: The expanded size of the tensor (64) must match the existing size (32)\nat non-singleton dimension 1.  "
     "Target sizes: [8, 64].  Tensor sizes: [8, 32]", "sdpa.mask-size-mismatch"),
    # ckarch: AITER's own list keeps its entry
    ("AssertionError: One of GPU archs of ['gfx1030', 'gfx1100'] is invalid or not supported", "fa2.rocm-ck-gpu-unsupported"),
    # noyet: a GPU or "this model" (no class) saying it
    ("My GPU does not support Flash Attention 2", "transformers.attn-impl-unsupported"),
    ("This model does not support Flash Attention 2.0", "transformers.attn-impl-unsupported"),
    # setup: newer setuptools said to work
    ("flash-attn builds fine with setuptools newer than 70", "build.setuptools-too-new"),
    # wheel: an installer's warning with no attention library near it
    ("[setup] Python 3.13 detected - pre-built wheels may not be available\n[setup] Will attempt compilation from source where "
     "possible\nnvdiffrast built OK", "build.prebuilt-wheel-missing"),
    # stuck: the build finished (done), or failed (error)
    ("flash-attn install stuck\nBuilding wheels for collected packages: flash-attn\n  Building wheel for flash-attn (setup.py) ... done",
     "build.no-ninja"),
    # igpu: an NVIDIA GPU beside the Intel one keeps the CUDA reading
    ("Laptop: Intel(R) UHD Graphics 620 + NVIDIA GeForce MX250\nOSError: CUDA_HOME environment variable is not set. Please set "
     "it to your CUDA install root.", "fa2.platform-unsupported"),
    # sparse: on CUDA it is the devices that differ
    ("q on cuda:0, the BSR mask on cuda:1\nValueError: _scaled_dot_product_attention(): all inputs are expected to be on the same "
     "GPU device.", "sdpa.op-not-on-device"),
])
def test_round142m_near_misses(text, must_not):
    assert must_not not in ids(text), ids(text)


def test_round142m_hang_follows_the_overflow_it_is_put_down_to():
    text = ("On an Arc B580, F.scaled_dot_product_attention in float32 hangs once the scores pass 2**30 elements.\n\n"
            + "".join(f"| batch {b} | heads 16 | seq 8192 | fp32 | {'hang' if b > 1 else 'ok'} |\n" for b in range(1, 13))
            + "\nbf16 is fine at the same shapes, so this looks like a 32-bit index overflow in the fp32 SDPA path.")
    assert ids(text)[:2] == ["attn.int32-overflow", "attn.kernel-hang"], ids(text)


def test_round142m_parenthesised_clause_clears_no_backend_but_a_closed_one_stays_the_subject():
    from attn_doctor.knowledge.attribution import refusals

    assert not refusals._exonerated("xformers", ["Launch with --force-enable-xformers (other parameters are irrelevant)"])
    assert refusals._exonerated("xformers", ["xformers (0.0.28) is not the problem, the driver is"])


# Each pattern written or widened here, found by a piece of its text, matches no unrelated log of any training round on its own
# (before ranking and attribution decide anything).
PIECES = {
    "sdpa.mask-size-mismatch": "\\)[ \\t]*\\n?[ \\t]*at non-singleton",
    "fa2.rocm-ck-gpu-unsupported": "invalid[ \\t]+or[ \\t]+not[ \\t]+supported[ \\t]+by",
    "transformers.attn-impl-unsupported": "(?-i:",
    "transformers.sdpa-trace-needs-mask": "Attention using SDPA",
    "build.setuptools-too-new": ("(?:higher|newer|later|greater)[ \\t]+(?:version", "(?:compil\\w*|build\\w*)\\b[^\\n]{0,40}?\\bfail"),
    "build.no-ninja": "卡死|卡住|卡在|一直卡",
    "build.prebuilt-wheel-missing": "pre-?built[ \\t]+wheels?[ \\t]+(?:may",
    "attn.qkv-device": "all inputs are expected to be on the same GPU device",
}


def test_round142m_patterns_match_no_unrelated_log():
    assert_patterns_match_no_unrelated_log(PIECES)
