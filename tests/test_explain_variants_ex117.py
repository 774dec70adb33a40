"""Variants for helper ex117 (session 20): the misses of round 113m (fixtures/errors/round113m, gathered blind by ex113m in
session 19, measured three times by the lead, training material since this helper read it).

Every case was written by hand (2026-11-30): other GPUs, versions, paths, symbols, backends and wordings than the fixtures. The
positives name what explain must report first (entry, backend; None: any backend); the near misses what it must not claim; no
pattern written or widened here matches an unrelated log of any training round (the measure-only sets are never read).

Mechanisms (knowledge file: rule; the round 113m text it came from):
  rocm      accelerators.toml fa2.rocm-ck-gpu-unsupported: the ROCm build's "FlashAttention only supports AMD MI200 GPUs or newer"
            (EmbeddedLLM/vllm#21)
  fa1ext    flash_attn.toml fa2.api-renamed: FA1's extension flash_attn_cuda not found (Dao-AILab/flash-attention#535)
  private   flash_attn.toml fa2.api-renamed: the private helpers' signature said to have changed (xdit-project/xDiT#364)
  feature   flash_attn.toml fa2.too-old-for-feature: a feature that "requires Flash Attention 2.x or later" (theroyallab/tabbyAPI#120)
  ampere    flash_attn.toml fa2.arch-check: flash attention said to fail on GPUs older than Ampere (theroyallab/tabbyAPI#135)
  apple     accelerators.toml fa2.platform-unsupported: flash attention said not available on Apple silicon (flash-attention#977)
  sagehd    sage.toml sage.head-dim: the head dims SageAttention takes, in words (thu-ml/SageAttention#23); attention.toml
            attn.wrong-output follows it (explained_by)
  blockmask frameworks.toml transformers.flex-blockmask-as-tensor: any tensor attribute asked of a BlockMask (transformers#46878)
  guard     platform.toml gpu.arch-not-in-torch + attribution.toml [[evidence_backend]]: the CUTLASS arch guard retold without a
            kernel's name, SDPA's where no xformers is named (RVC-Boss/GPT-SoVITS#2388)
  stuck     builds.toml build.no-ninja: pip's spinner line, a blank line, then stuck in Chinese (RVC-Boss/GPT-SoVITS#2092)
  symbol    backends.toml import.undefined-symbol follows xformers.built-for-other-torch (explained_by) (vllm-project/vllm#13116)
  ipadapter frameworks.toml diffusers.ip-adapter-processor-replaced (new): processors replaced after load_ip_adapter (diffusers#8872)
  flexdyn   flex.toml flex.recompiles-per-length: torch.compile(flex_attention, dynamic=False) with varying lengths (attention-gym#119)
  without   flash_attn.toml fa2.missing: a package said not to install or run without flash-attn (pengzhangzhi/faplm#3)
  sdpgrad   attention.toml attn.wrong-output + attribution.toml [[evidence_backend]]: SDPA's kernels by torch's names said to give
            wrong numbers (pytorch/pytorch#103462)
  procname  prose.toml B: diffusers' SDPA / xformers processor classes name those backends (huggingface/diffusers#3493)
  wheelnet  builds.toml build.prebuilt-wheel-missing (a note): setup.py's prebuilt-wheel download failing on the network under the URL
            it guessed (Dao-AILab/flash-attention#847)
"""

from __future__ import annotations

import pytest

from explain_top import assert_patterns_match_no_unrelated_log, first, ids

XF_BUILT = ("WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
            "    PyTorch 2.7.1+cu126 with CUDA 1206 (you have 2.8.0+cu128)\n"
            "    Python  3.12.9 (you have 3.12.9)\n"
            "  Please reinstall xformers (see https://github.com/facebookresearch/xformers#installing-xformers)")


@pytest.mark.parametrize("text, want", [
    # rocm
    ("RuntimeError: FlashAttention only supports AMD MI300 GPUs or newer.", ("fa2.rocm-ck-gpu-unsupported", "fa2")),
    ("my 7900 XTX gets: Flash-Attention 2 only supports gfx90a GPUs and newer", ("fa2.rocm-ck-gpu-unsupported", "fa2")),
    # fa1ext
    ("  File \"/opt/megatron/model/fused_attention.py\", line 9, in <module>\n    import flash_attn_cuda\n"
     "ModuleNotFoundError: No module named \"flash_attn_cuda\"", ("fa2.api-renamed", "fa2")),
    # private
    ("The signature of _flash_attn_varlen_forward changed in flash-attn 2.6.3, so the ring wrapper breaks",
     ("fa2.api-renamed", "fa2")),
    ("since v2.7 the _flash_attn_backward arguments were reordered (window_size_left/right)", ("fa2.api-renamed", "fa2")),
    # feature
    ("AssertionError: Paged attention requires flash-attn 2.5.7+", ("fa2.too-old-for-feature", "fa2")),
    ("ValueError: sliding window attention needs FlashAttention 2.3.0 or later", ("fa2.too-old-for-feature", "fa2")),
    # ampere
    # policy: lead, session 26 (one failure, one entry): a GPU below every FA2 kernel is backend.unsupported-gpu, where these patterns moved (was
    # fa2.arch-check, now the old unworded check beside a newer GPU)
    ("Flash attention fails on GPUs older than Ampere even with the flag off", ("backend.unsupported-gpu", "fa2")),
    ("On pre-Ampere cards flash_attn refuses to run, my 2080 Ti errors at load", ("backend.unsupported-gpu", "fa2")),
    # apple
    ("Our models use flash-attn for speed.\nSadly it isn't available on Apple M2 chips, so the demo cannot start.",
     ("fa2.platform-unsupported", "fa2")),
    # sagehd
    ("Note: sageattn only supports head_dim 64 or 128, your model uses 80", ("sage.head-dim", "sage")),
    ("black images with sageattention on SD1.5\n\nThe traceback later says\nAssertionError: headdim should be in [64, 96, 128].",
     ("sage.head-dim", "sage")),
    # blockmask
    ("AttributeError: 'BlockMask' object has no attribute 'device'", ("transformers.flex-blockmask-as-tensor", "flex")),
    ('AttributeError: "BlockMask" object has no attribute "masked_fill_"', ("transformers.flex-blockmask-as-tensor", "flex")),
    # guard
    ("my 5070 prints: this kernel is for sm80-sm100, but was built for sm37 and the app exits", ("gpu.arch-not-in-torch", "sdpa")),
    # ... (rev20) the same guard where the app says it runs xformers: the guard is xformers' too
    ("Using xformers attention in the VAE.\nFATAL: this function is for sm80, but was built for sm370", ("gpu.arch-not-in-torch", "xformers")),
    # stuck
    ("Building wheel for sageattention (setup.py) ... |\n\n卡着不动了，两个小时", ("build.no-ninja", "sage")),
    # symbol
    ("ImportError: /venv/lib/python3.12/site-packages/xformers/_C.so: undefined symbol: _ZN3c106detail14torchCheckFailEPKcS2_jRKSs\n"
     + XF_BUILT, ("xformers.built-for-other-torch", "xformers")),
    # ipadapter
    ("pipe.load_ip_adapter('h94/IP-Adapter', subfolder='sdxl_models', weight_name='ip-adapter_sdxl.bin')\n"
     "pipe.unet.set_attn_processor(AttnProcessor2_0())\nimage = pipe(prompt, ip_adapter_image=img).images[0]",
     ("diffusers.ip-adapter-processor-replaced", None)),
    ("The IP-Adapter processors get overwritten by XFormersAttnProcessor once xformers is on", ("diffusers.ip-adapter-processor-replaced", None)),
    # flexdyn
    ("Our ASR batches have varying sequence lengths.\n\nattn = torch.compile(flex_attention, dynamic=False)\nloss.backward()",
     ("flex.recompiles-per-length", "flex")),
    # without
    ("The package can't be imported without flash_attn, even when I only want the SDPA path", ("fa2.missing", "fa2")),
    # sdpgrad
    ("math SDPA returns wrong outputs for fp16 inputs on CPU", ("attn.wrong-output", "sdpa")),
    ("The flash SDP kernel gives wrong gradients for F.scaled_dot_product_attention when dropout_p > 0", ("attn.wrong-output", "sdpa")),
    # ... (rev20) SDPA's kernel as the reference, another backend failing: that backend's
    ("FlashAttention-2 returns wrong outputs; the math SDPA path gives the right ones", ("attn.wrong-output", "fa2")),
    # procname
    ("AttnProcessor2_0 much slower in our LoRA training\n\nThe new processor runs at 2.1 it/s where AttnProcessor gives 3.9 it/s",
     ("prose.slow", "sdpa")),
])
def test_round113m_variants(text, want):
    got = first(text)
    assert got[0] == want[0] and (want[1] is None or got[1] == want[1]), (text, ids(text), got)


def test_round113m_wheel_download_failure_is_listed():
    text = ("  Building wheel for flash-attn (setup.py) ... error\n  error: subprocess-exited-with-error\n\n"
            "  × python setup.py bdist_wheel did not run successfully.\n  │ exit code: 1\n  ╰─> [9 lines of output]\n"
            "      running bdist_wheel\n"
            "      Guessing wheel URL:  https://github.com/Dao-AILab/flash-attention/releases/download/v2.7.4.post1/"
            "flash_attn-2.7.4.post1+cu12torch2.6cxx11abiFALSE-cp312-cp312-linux_x86_64.whl\n"
            "      error: <urlopen error [Errno -3] Temporary failure in name resolution>\n      [end of output]")
    # helper ex132: flash-attn's setup.py let this URLError stop the install (no build ran): install.wheel-fetch-failed, first
    assert ids(text)[:1] == ["install.wheel-fetch-failed"], ids(text)


@pytest.mark.parametrize("text, must_not", [
    # rocm: the CUDA build's own check
    ("RuntimeError: FlashAttention only supports Ampere GPUs or newer.", "fa2.rocm-ck-gpu-unsupported"),
    # fa1ext: FA2's own extension
    ("ModuleNotFoundError: No module named 'flash_attn_2_cuda'", "fa2.api-renamed"),
    # private: a call, nothing changed
    ("_flash_attn_forward is called twice per step in our profile", "fa2.api-renamed"),
    # feature: another requirement
    ("Paged attention requires CUDA 12.1 or later", "fa2.too-old-for-feature"),
    # ampere: works there, and another generation
    ("flash attention works fine on Ampere and newer GPUs", "backend.unsupported-gpu"),  # (the patterns' entry since session 26)
    ("FA3 fails on GPUs older than Hopper", "backend.unsupported-gpu"),
    # apple: a question, nothing said missing
    ("Is flash attention available on Apple silicon yet?", "fa2.platform-unsupported"),
    # apple: (rev20) another backend is the one said missing on the Mac
    ("We use flash-attn on the Linux box.\nOn the laptop SageAttention is not supported on MPS", "fa2.platform-unsupported"),
    # sagehd: another backend's head dims
    ("flash attention supports head dims 64, 128 and 256 on Hopper", "sage.head-dim"),
    # blockmask: BlockMask's own fields from another release
    ("AttributeError: 'BlockMask' object has no attribute 'seq_lengths'", "transformers.flex-blockmask-as-tensor"),
    # stuck: the build finished
    ("Building wheel for flash-attn (setup.py) ... done\n\nSuccessfully installed flash-attn-2.8.3", "build.no-ninja"),
    # ipadapter: xformers enabled before the adapter is loaded
    ("pipe.enable_xformers_memory_efficient_attention()\npipe.load_ip_adapter('h94/IP-Adapter', subfolder='models', "
     "weight_name='ip-adapter_sd15.bin')", "diffusers.ip-adapter-processor-replaced"),
    # flexdyn: dynamic shapes asked for
    ("Variable sequence lengths per batch\n\nflex = torch.compile(flex_attention, dynamic=True)", "flex.recompiles-per-length"),
    # without: it runs without it
    ("It runs fine without flash-attn on the SDPA path", "fa2.missing"),
    ("The trainer cannot start without flash_attn_3 on H100", "fa2.missing"),
    # procname: diffusers' warning of ignored keyword arguments is no backend's failure
    ("cross_attention_kwargs ['mv_scale', 'ref_scale'] are not expected by AttnProcessor2_0 and will be ignored.", "prose.ignored"),
])
def test_round113m_near_misses(text, must_not):
    assert must_not not in ids(text), ids(text)


# Each pattern written or widened here, found by a piece of its text, matches no unrelated log of any training round on its own
# (before ranking and attribution decide anything).
PIECES = {
    "fa2.rocm-ck-gpu-unsupported": "Instinct",
    "fa2.api-renamed": ("flash_attn_cuda['", "reordered"),
    "fa2.too-old-for-feature": "block[ _]table",
    "backend.unsupported-gpu": "older[ \\t]+than",  # policy: lead, session 26 (one failure, one entry): ex117's Ampere patterns moved from fa2.arch-check
    "fa2.platform-unsupported": "M[1-4][ \\t]+(?:Macs?",
    "sage.head-dim": "works[ \\t]+with",
    "transformers.flex-blockmask-as-tensor": "is_floating_point",
    "gpu.arch-not-in-torch": "(?:function|kernel|op)[ \\t]+is[ \\t]+for",
    "build.no-ninja": "一直卡",
    "diffusers.ip-adapter-processor-replaced": ("load_ip_adapter", "IP[-_ ]?Adapter"),
    "flex.recompiles-per-length": "dynamic[ \\t]*=[ \\t]*False",
    "fa2.missing": "nor)",
    "attn.wrong-output": "mem[ \\t_-]?eff",
    "install.wheel-fetch-failed": "Guessing wheel URL",  # helper ex132: the pattern moved from build.prebuilt-wheel-missing
}


def test_round113m_patterns_match_no_unrelated_log():
    assert_patterns_match_no_unrelated_log(PIECES)
