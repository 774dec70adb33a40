"""Variants for session 19's helper ex115: patterns that held their sample's words, widened to the mechanism (the constant words
the library prints; versions, wrappers' prefixes, wrapped lines and the locale's language let vary). Every text was written by
hand from the library's message (its source or a public paste quoted in the entry's comment), NOT copied from a thread; each
one is a text main's pattern (abdc72b0, the session's start) missed and the widened one matches (benchmarks/explain_pattern_specificity.py lists how
bound every pattern is). Near misses below say what must NOT be claimed.
"""

from __future__ import annotations

import pytest

from attn_doctor.explain import match

ANY = object()  # the backend is the log's (the entry has none of its own): not checked here


def found(text: str) -> list[tuple[str, str | None]]:
    return [(f.entry.id, f.backend) for f in match(text)]


# (key, text, entry, backend)
VARIANTS = [
    # TRL's padding-free warning in the releases' words that name no value (sft_trainer.py)
    ("packing", "[rank0]: Padding-free training is enabled, but attention is not FlashAttention. This may lead to unexpected "
     "behavior.", "config.packing-contamination", ANY),
    ("packing", "WARNING  Padding-free training is enabled, but the attention implementation is not set\nto a supported flash "
     "attention variant.", "config.packing-contamination", ANY),
    ("packing", "[WARNING|sft_trainer.py:498] 2026-01-08 10:02:11 >> Padding-free training is enabled, but attention is not "
     "FlashAttention.", "config.packing-contamination", ANY),
    # transformers' FlashAttention check, any version, the line wrapped before "the following error"
    ("toggled", "ImportError: FlashAttention3 has been toggled on, but it cannot be used due to\nthe following error: the package "
     "flash_attn_3 seems to be not installed.", "transformers.backend-unavailable", ANY),
    ("toggled", "Flash Attention 2 has been toggled on, but it cannot be used (Qwen3-VL-8B on a Colab T4)",
     "transformers.backend-unavailable", ANY),
    ("not-installed", "the package flash_attn_3 seems to be not installed (attn_implementation=flash_attention_3)",
     "transformers.backend-unavailable", ANY),
    ("not-installed", "RuntimeError: the package flash_attn_3 seems to be not installed. Please refer to the documentation",
     "transformers.backend-unavailable", ANY),
    # GQA heads: either library's wording, mixed up in a retelling
    ("gqa", "RuntimeError: Number of heads in key/value must divide the number of heads in query (q: 28, kv: 6)",
     "attn.gqa-heads", ANY),
    ("gqa", "sdpa with enable_gqa=True fails: Number of heads in key and value must divide number of heads in query",
     "attn.gqa-heads", ANY),
    # torch's _lazy_init message printed without its exception class
    ("no-gpus", "!!! Exception during processing !!! No CUDA GPUs are available", "gpu.cuda-init-failed", ANY),
    ("no-gpus", "2026-02-11 09:12:44 | ERROR | worker | No CUDA GPUs are available", "gpu.cuda-init-failed", ANY),
    # flash-attention's setup.py, the CUDA version as the major alone
    ("cuda-old", "      RuntimeError: FlashAttention-3 is only supported on CUDA 12 and above", "build.cuda-too-old", ANY),
    ("cuda-old", "RuntimeError: Sage3 is only supported on CUDA 13 and above", "build.cuda-too-old", ANY),
    # ms-swift's feature check, another feature's name
    ("swift", 'ValueError: The "sequence_parallel" feature requires a flash attention implementation. Please use one of: '
     '"flash_attn", "flash_attention_2"', "config.msswift-packing-needs-flash", ANY),
    ("swift", '[ERROR:swift] The "packing cache" feature requires a flash attention implementation.',
     "config.msswift-packing-needs-flash", ANY),
    # musubi-tuner's refusal, older and newer flag lists
    ("musubi", "ValueError: either --sdpa, --flash-attn, --sage-attn or --xformers must be specified / --sdpa, --flash-attn, "
     "--sage-attn, --xformersのいずれかを指定してください", "config.musubi-no-backend", ANY),
    ("musubi", "ValueError: either --sdpa, --flash-attn, --flash3, --cudnn-attn, --sage-attn or --xformers must be specified",
     "config.musubi-no-backend", ANY),
    # diffusers' xformers enabling, wrapped; a fork's wording
    ("enable-xf", "WARNING:__main__:Could not enable memory efficient attention. Make sure xformers is installed\n correctly and "
     "a GPU is available: No module named 'xformers'", "xformers.enable-failed", "xformers"),
    ("enable-xf", "Could not enable memory efficient attention for xformers or Torch 2.0: No module named 'xformers'",
     "xformers.enable-failed", "xformers"),
    # transformers' per-model FA check for FA3
    ("impl", "ValueError: Gemma3nForConditionalGeneration does not support Flash Attention 3 yet. Please request to add support "
     "where the model is hosted", "transformers.attn-impl-unsupported", ANY),
    ("impl", "ValueError: The current architecture does not support Flash Attention 3.0. Please open an issue on GitHub",
     "transformers.attn-impl-unsupported", ANY),
    # FA4's dtype assert, another fp8 list
    ("cute-dtype", '  File "/venv/lib/python3.12/site-packages/flash_attn/cute/interface.py", line 412, in _flash_attn_fwd\n'
     "AssertionError: inputs must be float16, bfloat16, or float8_e4m3fn", "cute.dtype", "cute"),
    ("cute-dtype", "AssertionError: inputs must be float16, bfloat16, fp8 e4m3fn, fp8 e5m2, or fp4", "cute.dtype", "cute"),
    # ptxas: a feature, not an instruction, the target lacks
    ("ptx-feature", "ptxas /tmp/tmpxft_00003a1c_00000000-6_flash_fwd_sm90.ptx, line 4410; error   : Feature '.multicast::cluster' "
     "not supported on .target 'sm_89'", "build.arch-instructions", ANY),
    ("ptx-feature", "      ptxas error   : Feature 'setmaxnreg' not supported on .target 'sm_120'", "build.arch-instructions", ANY),
    # Windows path limits in the system's language, pip's line wrapped
    ("winpath", "ERROR: Could not install packages due to an OSError: [WinError 206]\nThe filename or extension is too long: "
     "'C:\\Users\\me\\AppData\\Local\\Temp\\pip-install-3x\\flash-attn_41\\csrc\\cutlass\\include\\cute'",
     "build.windows-path-too-long", ANY),
    ("winpath", "OSError: [WinError 206] 文件名或扩展名太长。: 'D:\\AI\\ComfyUI\\python_embeded\\Lib\\site-packages\\xformers\\"
     "csrc'", "build.windows-path-too-long", ANY),
    ("winpath", "C:\\src\\flash-attention\\csrc\\flash_attn\\src\\flash_bwd_hdim256_fp16_sm80.cu : fatal error C1083: "
     "无法打开编译器生成的文件: “”: Invalid argument", "build.windows-path-too-long", ANY),
    ("winpath", "      xformers\\csrc\\attention\\cuda\\fmha\\kernel_backward.cu: fatal error C1083: 无法打开编译器生成的文件",
     "build.windows-path-too-long", ANY),
    # gcc in a zh-CN locale
    ("pyheaders", "csrc/fused/fused.cu:3:10: 致命错误：Python.h：没有那个文件或目录\n    3 | #include <Python.h>\n编译中断。",
     "build.no-python-headers", ANY),
    ("pyheaders", "/tmp/pip-install-9/flash-attn_2/csrc/flash_attn/flash_api.cpp:5:10: 致命错误: Python.h: 没有那个文件或目录",
     "build.no-python-headers", ANY),
    ("cutlass", "csrc/flash_attn/src/flash.h:9:10: 致命错误：cute/tensor.hpp：没有那个文件或目录", "build.submodule-missing", ANY),
    ("cutlass", "xformers/csrc/attention/cuda/fmha/kernel_forward.h:12:10: 致命错误: cutlass/bfloat16.h: 没有那个文件或目录",
     "build.submodule-missing", ANY),
    # uv before 0.5 (explain found these before through build.compile-failed's wording pattern, "failed to build"; the uv pattern
    # now holds them by uv's own words)
    ("uv", "error: Failed to download and build: flash-attn==2.5.8\n  Caused by: Failed to build: flash-attn==2.5.8",
     "build.compile-failed", ANY),
    ("uv", "  × Failed to build: xformers==0.0.28.post1", "build.compile-failed", ANY),
    # glibc's dlerror in a zh-CN locale
    ("dlopen-zh", "ImportError: libcudart.so.12: 无法打开共享对象文件: 没有那个文件或目录", "import.cuda-lib-missing", ANY),
    ("dlopen-zh", "OSError: libcublasLt.so.12：无法打开共享对象文件：没有那个文件或目录", "import.cuda-lib-missing", ANY),
    ("dlopen-zh", "ImportError: libcuda.so.1: 无法打开共享对象文件: 没有那个文件或目录", "import.libcuda-missing", ANY),
    ("dlopen-zh", "  import triton\nImportError: libcuda.so：无法打开共享对象文件：没有那个文件或目录", "import.libcuda-missing", ANY),
    ("dlopen-zh", "ImportError: libtorch_cuda_cu.so: 无法打开共享对象文件: 没有那个文件或目录", "import.torch-lib-missing", ANY),
    ("dlopen-zh", '  File "/data/env/lib/python3.8/site-packages/flash_attn/flash_attn_interface.py", line 5, in <module>\n'
     "    import flash_attn_cuda\nImportError: libtorch_cuda_cpp.so：无法打开共享对象文件：没有那个文件或目录",
     "import.torch-lib-missing", ANY),
    ("dlopen-zh", '  File "/srv/run.py", line 3, in <module>\n    import flash_attn_2_cuda\nImportError: libc10.so: 无法打开共享对象'
     "文件: 没有那个文件或目录", "import.torch-libs-not-loaded", ANY),
    ("dlopen-zh", "ImportError: libtorch_cpu.so: 无法打开共享对象文件: 没有那个文件或目录 (while loading xformers/_C.so)",
     "import.torch-libs-not-loaded", ANY),
    ("dlopen-zh", "RuntimeError: Could not load library libnvrtc.so.12. Error: libnvrtc.so.12: 无法打开共享对象文件: 没有那个文件或目录",
     "sdpa.cudnn", ANY),
    ("dlopen-zh", "[rank2]: Could not load library libnvrtc.so.13. Error: libnvrtc.so.13：无法打开共享对象文件：没有那个文件或目录",
     "sdpa.cudnn", ANY),
    # diffusers' hub backends, the backticks dropped
    ("hub", "RuntimeError: Backend 'sage_hub' is not usable because the kernels package isn't available.",
     "config.hub-kernels-missing", ANY),
    ("hub", "Flash Attention 3 Hub backend '_flash_3_hub' is not usable because the 'kernels' package is not available",
     "config.hub-kernels-missing", ANY),
    ("hub", "RuntimeError: Backend 'flash_hub' needs to be used with a kernels version of at least 0.10.0.",
     "config.hub-kernels-missing", ANY),
    ("hub", "Backend 'flash_varlen_hub' needs to be used with an `kernels` version of at least 0.12.0",
     "config.hub-kernels-missing", ANY),
]

NEAR_MISSES = [
    # a README's condition, not the failure
    ("if no CUDA GPUs are available the script runs on the CPU instead", ("gpu.cuda-init-failed",)),
    # padding-free with FlashAttention set: no warning
    ("Padding-free training is enabled and attn_implementation is flash_attention_2", ("config.packing-contamination",)),
    # transformers' flag turned on and working
    ("FlashAttention2 has been toggled on and it is used by every layer (flash-attn 2.8.3)", ("transformers.backend-unavailable",)),
    # SDPA enabled for a VAE instead of xformers: no xformers failure
    ("Could not enable memory efficient attention for the VAE tiling path; using SDPA", ("xformers.enable-failed",)),
    # the library found where it should be
    ("libcuda.so.1 => /usr/lib/x86_64-linux-gnu/libcuda.so.1 (0x00007f3c)", ("import.libcuda-missing",)),
    # uv building the wheel fine
    ("Built flash-attn==2.8.3\nInstalled 1 package in 12ms", ("build.compile-failed",)),
    # musubi-tuner's help text listing the flags
    ("--sdpa  use SDPA for CrossAttention (requires PyTorch 2.0)\n--xformers  use xformers for CrossAttention",
     ("config.musubi-no-backend",)),
]


@pytest.mark.parametrize("key,text,entry,backend", VARIANTS, ids=[f"{v[0]}-{i}" for i, v in enumerate(VARIANTS)])
def test_variant_explained_by_its_mechanism(key, text, entry, backend):
    got = found(text)
    if backend is ANY:
        assert entry in [e for e, _ in got], got
    else:
        assert (entry, backend) in got, got


@pytest.mark.parametrize("text,forbidden", NEAR_MISSES)
def test_near_miss_not_claimed(text, forbidden):
    got = [e for e, _ in found(text)]
    assert not set(got) & set(forbidden), got
