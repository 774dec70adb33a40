"""What explain said nothing about (helper ex157, session 27; issue 23, benchmarks/results/explain-unmatched-s27.md): three
readings written from the first half of each class's rounds, with variants of our own (other paths, backends, compilers,
wordings); each positive failed at s27start (9a0c1835): explain found nothing.

- U-error-line-cut, a build: a report that says its build or install fails, over a log pasted up to one compile step of a
  backend's own sources and no further (nvcc / hipcc on a file of its package, or the compiler's include chain into it), is
  build.compile-failed (knowledge/builds.toml; written from
  round 11 Dao-AILab/flash-attention#1418 and round 142m ROCm/flash-attention#36).
- U-error-line-cut, a traceback: one that stops inside torch's printing of a tensor (torch/_tensor_str.py, Tensor.__repr__ /
  __format__) after a backend's call is that call's kernel fault surfacing at the first synchronising call: cuda.kernel-fault's
  weak frames (knowledge/cuda.toml; written from round 10b thu-ml/SageAttention#217).
- U-prose-skipped/head-no-word: a sentence past the head that says a backend only works on one kind of GPU ("only works with
  Blackwell"), and SageAttention's short names with a version ("Sage3") in the body: prose.said's GPU-refusal reading
  (knowledge/prose.toml; written from round 31 thu-ml/SageAttention#210).
The near misses stay silent: a compile step followed by more of the log, another project's sources, a print without a backend,
a GPU range said as what works, the bare word "Sage", a short name with a version in a sentence that is no GPU refusal."""

from __future__ import annotations

import pytest

from attn_doctor.explain import match

HEAD = "A report\n\nline one\n\nline two\n\nline three\n\nline four\n\nline five\n\n"  # the sentence past the head (HEAD_LINES)

READ = [
    # a build pasted up to a compile step (nvcc.exe on Windows, hipcc, an include chain into xformers, a closing fence)
    ("Build problem\n\n  [17/73] C:\\cuda\\v12.4\\bin\\nvcc.exe -IC:\\Users\\me\\AppData\\Local\\Temp\\pip-install-ab\\sageattention_1f2e"
     "\\csrc -c C:\\Users\\me\\AppData\\Local\\Temp\\pip-install-ab\\sageattention_1f2e\\csrc\\qattn\\qk_int_sv_f8_cuda_sm89.cu -o x",
     "build.compile-failed", "sage"),
    ("pip install -e . fails on my box:\n\n    In file included from /home/u/src/xformers/third_party/cutlass/include/cute/tensor.hpp:12,\n"
     "    In file included from /home/u/src/xformers/xformers/csrc/attention/cuda/fmha/kernel_forward.h:40:\n```\n",
     "build.compile-failed", "xformers"),
    ("pip install fails after an hour\n\n```\n  [40/73] /opt/rocm/bin/hipcc -I/tmp/pip-install-9x/flash-attn_5d1c0a9b8e7f6a5b4c3d2e1f0a9b8c7d/csrc/flash_attn_rocm/src "
     "-c /tmp/pip-install-9x/flash-attn_5d1c0a9b8e7f6a5b4c3d2e1f0a9b8c7d/csrc/flash_attn_rocm/src/flash_fwd_hdim64.hip -o build/x.o\n```\n",
     "build.compile-failed", "fa2"),
    # a print of a backend's output, the traceback cut in torch's tensor printing
    ("out = flash_attn_func(q, k, v, causal=True)\nprint(f\"{out}\")\nTraceback (most recent call last):\n"
     "  File \"/srv/run.py\", line 9, in <module>\n    print(f\"{out}\")\n"
     "  File \"/opt/venv/lib/python3.12/site-packages/torch/_tensor.py\", line 1104, in __format__\n"
     "    return object.__format__(self, format_spec)\n"
     "  File \"/opt/venv/lib/python3.12/site-packages/torch/_tensor.py\", line 590, in __repr__\n"
     "    return torch._tensor_str._str(self, tensor_contents=tensor_contents)\n",
     "cuda.kernel-fault", "fa2"),
    ("x = sageattn(q, k, v, tensor_layout=\"NHD\")\nprint(x)\nTraceback (most recent call last):\n"
     "  File \"D:\\work\\t.py\", line 17, in <module>\n    print(x)\n"
     "  File \"D:\\venv\\lib\\site-packages\\torch\\_tensor_str.py\", line 621, in _str_intern\n"
     "    tensor_str = _tensor_str(self, indent)\n```\n",
     "cuda.kernel-fault", "sage"),
    # a backend said past the head to work on one kind of GPU only, or a short name with a version
    (HEAD + "SageAttention3 only works with Blackwell GPUs.", "prose.said", "sage"),
    (HEAD + "Does Sage3 only work with Blackwell gpus?", "prose.said", "sage"),
    (HEAD + "It seems flash-attention only runs on Hopper, so the RTX 4090 box is out.", "prose.said", "fa2"),
    (HEAD + "Unfortunately xformers only works with Ampere GPUs.", "prose.said", "xformers"),
]


@pytest.mark.parametrize("text,entry,backend", READ)
def test_read(text, entry, backend):
    found = match(text)
    assert found, "explain found nothing"
    assert (found[0].entry.id, found[0].backend) == (entry, backend), [(m.entry.id, m.backend) for m in found]


SILENT = [
    # the compile step is not the last thing pasted: the log goes on (its own error, if any, is read by other entries)
    "  [2/85] /usr/local/cuda/bin/nvcc -c /tmp/pip-install-1/flash-attn_9/csrc/flash_attn/src/flash_fwd_hdim128_fp16_sm80.cu -o x.o\n"
    "  [3/85] /usr/local/cuda/bin/nvcc -c /tmp/pip-install-1/flash-attn_9/csrc/flash_attn/src/flash_fwd_hdim64_fp16_sm80.cu -o y.o\n"
    "  copying build/lib/flash_attn/__init__.py -> wheel\n",
    # a title that says no failure over a step the paste ends on (a verbose build that worked shows the same lines)
    "Build log of the wheel\n\n  [85/85] /usr/local/cuda/bin/nvcc -c /tmp/pip-install-1/flash-attn_5d1c0a9b8e7f6a5b4c3d2e1f0a9b8c7d/csrc/"
    "flash_attn/src/flash_fwd_hdim128_fp16_sm80.cu -o x.o\n",
    # another project's sources (no attention backend in the path)
    "  [7/30] /usr/local/cuda/bin/nvcc -c /tmp/pip-install-2/apex_3/csrc/layer_norm_cuda_kernel.cu -o z.o\n",
    # a tensor printed with no backend named: nobody's fault to name
    "x = torch.randn(3, device='cuda')\nprint(x)\nTraceback (most recent call last):\n"
    "  File \"/opt/venv/lib/python3.12/site-packages/torch/_tensor.py\", line 590, in __repr__\n"
    "    return torch._tensor_str._str(self, tensor_contents=tensor_contents)\n",
    # what works, said as a range, and the bare word Sage (a product) past the head
    HEAD + "Thanks, SageAttention works fine with Blackwell and Ada here.",
    HEAD + "Sage only works with the Blackwell template in our accounting tool.",
    # a short name with a version in any other body sentence (round 71m unrelated thu-ml/SageAttention#229's shape)
    HEAD + "i tried sage2 bwd in a ranking model instead of an LLM, then found the auc decreased, i guess this can not be used in that training.",
]


@pytest.mark.parametrize("text", SILENT)
def test_silent(text):
    assert not match(text), [(m.entry.id, m.backend) for m in match(text)]
