"""Produce real error texts of the seven backends on a GPU machine, one small misuse per case, for explain's corpus.

Each case is a few lines of Python that a user could have written (a dtype, a head dim, a layout, a mask, a device, an
installed version the backend does not take); it runs in its own `python3` subprocess with a timeout, and what the
process printed (stdout and stderr, merged, in order) is written verbatim to OUT/texts/<case>.txt with its exit code and
seconds in OUT/cases.json. Nothing is judged here: which backend and mechanism a case exercises is stated beside it
(its label comes from how the case was built, not from what attn-doctor says), and the texts are measured afterwards on
the CPU with benchmarks/explain_heldout.py --corpus.

On the lent GPU machine, after ../shared/gpu/stage.sh's wheels are installed (.gpu/b/install.sh):
    python3 scripts/gpu/fault_texts.py OUT base        # the staged FA4/CuTE + SageAttention stack, SDPA, Flex
    bash .gpu/b/install.sh --with-extra xformers && python3 scripts/gpu/fault_texts.py OUT xformers
    bash .gpu/b/install.sh --with-extra quack_kernels && python3 scripts/gpu/fault_texts.py OUT quack
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

HEAD = "import torch\nimport torch.nn.functional as F\n"
SDPA = HEAD + "from torch.nn.attention import SDPBackend, sdpa_kernel\n"
FLEX = HEAD + "from torch.nn.attention.flex_attention import create_block_mask, flex_attention\n"
CUTE = HEAD + "from flash_attn.cute import flash_attn_func\n"
SAGE = HEAD + "from sageattention import sageattn\n"
XF = HEAD + "import xformers.ops as xops\n"


def bhsd(b=2, h=8, s=1024, d=128, dtype="torch.bfloat16", device="cuda", grad=False):
    g = ", requires_grad=True" if grad else ""
    return f"torch.randn({b}, {h}, {s}, {d}, device='{device}', dtype={dtype}{g})"


def bshd(b=2, s=1024, h=8, d=128, dtype="torch.bfloat16", device="cuda"):
    return f"torch.randn({b}, {s}, {h}, {d}, device='{device}', dtype={dtype})"


# (name, backend, family, code); the stage each runs in is the dict's key
CASES: dict[str, list[tuple[str, str, str, str]]] = {"base": [
    ("sdpa-efficient-fp64", "sdpa", "SDPA restricted to the memory-efficient kernel with float64 inputs: no kernel",
     SDPA + f"q = {bhsd(dtype='torch.float64')}\nwith sdpa_kernel(SDPBackend.EFFICIENT_ATTENTION):\n"
            "    F.scaled_dot_product_attention(q, q, q)\n"),
    ("sdpa-cudnn-headdim", "sdpa", "SDPA restricted to cuDNN with a head dim cuDNN does not take: no kernel",
     SDPA + f"q = {bhsd(d=320)}\nwith sdpa_kernel(SDPBackend.CUDNN_ATTENTION):\n"
            "    F.scaled_dot_product_attention(q, q, q)\n"),
    ("sdpa-flash-mask", "sdpa", "SDPA restricted to flash with an explicit attn_mask: no kernel",
     SDPA + f"q = {bhsd()}\nmask = torch.ones(1024, 1024, device='cuda', dtype=torch.bool).tril()\n"
            "with sdpa_kernel(SDPBackend.FLASH_ATTENTION):\n"
            "    F.scaled_dot_product_attention(q, q, q, attn_mask=mask)\n"),
    ("sdpa-mask-and-causal", "sdpa", "SDPA given both an attn_mask and is_causal=True",
     SDPA + f"q = {bhsd()}\nmask = torch.zeros(1024, 1024, device='cuda', dtype=torch.bfloat16)\n"
            "F.scaled_dot_product_attention(q, q, q, attn_mask=mask, is_causal=True)\n"),
    ("sdpa-dtype-mismatch", "sdpa", "SDPA given query and key of different dtypes (fp16 and bf16)",
     SDPA + f"q = {bhsd(dtype='torch.float16')}\nk = {bhsd()}\nF.scaled_dot_product_attention(q, k, k)\n"),
    ("sdpa-gqa-heads", "sdpa", "SDPA with enable_gqa where the query heads are no multiple of the key heads",
     SDPA + f"q = {bhsd(h=32)}\nk = {bhsd(h=6)}\nF.scaled_dot_product_attention(q, k, k, enable_gqa=True)\n"),
    ("sdpa-heads-no-gqa", "sdpa", "SDPA with fewer key heads than query heads and no enable_gqa",
     SDPA + f"q = {bhsd(h=32)}\nk = {bhsd(h=8)}\nF.scaled_dot_product_attention(q, k, k)\n"),
    ("sdpa-math-oom", "sdpa", "SDPA on its math kernel materialising a 128k x 128k score matrix: out of memory",
     SDPA + f"q = {bhsd(b=1, h=32, s=131072, d=64, dtype='torch.float16')}\n"
            "with sdpa_kernel(SDPBackend.MATH):\n    F.scaled_dot_product_attention(q, q, q)\n"),
    ("sdpa-device-mismatch", "sdpa", "SDPA given a CUDA query and CPU key and value",
     SDPA + f"q = {bhsd()}\nk = {bhsd(device='cpu')}\nF.scaled_dot_product_attention(q, k, k)\n"),
    ("sdpa-fa4-route", "sdpa", "SDPA with FA4 activated as its flash implementation (torch's FA4 route)",
     SDPA + "import torch.nn.attention as attention\n"
            "print('flash impls:', attention.list_flash_attention_impls())\n"
            "attention.activate_flash_attention_impl('FA4')\n"
            f"q = {bhsd(grad=True)}\nwith sdpa_kernel(SDPBackend.FLASH_ATTENTION):\n"
            "    F.scaled_dot_product_attention(q, q, q, is_causal=True).float().sum().backward()\n"
            "torch.cuda.synchronize()\nprint('sdpa through FA4: ok')\n"),
    ("flex-eager-oom", "flex", "FlexAttention called without torch.compile on a long sequence: scores materialised, OOM",
     FLEX + f"q = {bhsd(b=1, h=16, s=131072, d=64)}\nflex_attention(q, q, q)\n"),
    ("flex-blockmask-length", "flex", "FlexAttention given a BlockMask built for another sequence length",
     FLEX + "def causal(b, h, q_idx, kv_idx):\n    return q_idx >= kv_idx\n"
            "bm = create_block_mask(causal, None, None, 256, 256)\n"
            f"q = {bhsd(s=1024)}\ntorch.compile(flex_attention)(q, q, q, block_mask=bm)\n"),
    ("flex-headdim-1024", "flex", "compiled FlexAttention with head dim 1024: the Triton kernel does not fit",
     FLEX + f"q = {bhsd(b=1, h=2, s=512, d=1024)}\ntorch.compile(flex_attention)(q, q, q)\n"
            "torch.cuda.synchronize()\nprint('flex d1024: ok')\n"),
    ("flex-blockmask-device", "flex", "FlexAttention given a BlockMask built on the CPU for CUDA tensors",
     FLEX + "def causal(b, h, q_idx, kv_idx):\n    return q_idx >= kv_idx\n"
            "bm = create_block_mask(causal, None, None, 1024, 1024, device='cpu')\n"
            f"q = {bhsd(s=1024)}\ntorch.compile(flex_attention)(q, q, q, block_mask=bm)\n"
            "torch.cuda.synchronize()\nprint('flex cpu mask: ok')\n"),
    ("flex-mismatched-kv", "flex", "FlexAttention given key and value of different lengths",
     FLEX + f"q = {bhsd()}\nk = {bhsd(s=512)}\nv = {bhsd(s=256)}\ntorch.compile(flex_attention)(q, k, v)\n"),
    ("cute-fp32", "cute", "FA4 (flash_attn.cute) given float32 inputs",
     CUTE + f"q = {bshd(dtype='torch.float32')}\nflash_attn_func(q, q, q)\n"),
    ("cute-headdim-100", "cute", "FA4 given a head dim that is no multiple of 8",
     CUTE + f"q = {bshd(d=100)}\nflash_attn_func(q, q, q)\n"),
    ("cute-last-dim-strided", "cute", "FA4 given a tensor whose last dimension is not contiguous",
     CUTE + f"q = {bshd(d=256)}[..., ::2]\nflash_attn_func(q, q, q)\n"),
    ("cute-cpu", "cute", "FA4 given CPU tensors",
     CUTE + f"q = {bshd(device='cpu')}\nflash_attn_func(q, q, q)\n"),
    ("cute-kv-lengths", "cute", "FA4 given key and value of different sequence lengths",
     CUTE + f"q = {bshd()}\nk = {bshd(s=512)}\nv = {bshd(s=256)}\nflash_attn_func(q, k, v)\n"),
    ("cute-gqa-heads", "cute", "FA4 given query heads that are no multiple of the key/value heads",
     CUTE + f"q = {bshd(h=12)}\nk = {bshd(h=5)}\nflash_attn_func(q, k, k)\n"),
    ("cute-dtype-mismatch", "cute", "FA4 given fp16 query and bf16 key/value",
     CUTE + f"q = {bshd(dtype='torch.float16')}\nk = {bshd()}\nflash_attn_func(q, k, k)\n"),
    ("sage-fp32", "sage", "SageAttention given float32 inputs",
     SAGE + f"q = {bhsd(dtype='torch.float32')}\nsageattn(q, q, q, tensor_layout='HND')\n"),
    ("sage-headdim-256", "sage", "SageAttention 1 given head dim 256",
     SAGE + f"q = {bhsd(d=256, dtype='torch.float16')}\nsageattn(q, q, q, tensor_layout='HND')\n"),
    ("sage-cpu", "sage", "SageAttention given CPU tensors",
     SAGE + f"q = {bhsd(device='cpu', dtype='torch.float16')}\nsageattn(q, q, q, tensor_layout='HND')\n"),
    ("sage-attn-mask", "sage", "SageAttention called with SDPA's attn_mask keyword (a drop-in replacement it is not)",
     SAGE + f"q = {bhsd(dtype='torch.float16')}\nmask = torch.ones(1024, 1024, device='cuda', dtype=torch.bool)\n"
            "sageattn(q, q, q, attn_mask=mask, tensor_layout='HND')\n"),
    ("sage-as-sdpa", "sage", "SageAttention monkeypatched over F.scaled_dot_product_attention, called with a mask",
     SAGE + "F.scaled_dot_product_attention = sageattn\n"
            f"q = {bhsd(dtype='torch.float16')}\nmask = torch.zeros(2, 1, 1024, 1024, device='cuda', dtype=torch.float16)\n"
            "F.scaled_dot_product_attention(q, q, q, attn_mask=mask, dropout_p=0.0, is_causal=False)\n"),
], "more": [  # session 16's second run: more of each backend's own refusals, and settings that break a compile
    ("sdpa-flash-v-headdim", "sdpa", "SDPA restricted to flash with a value head dim other than the query's",
     SDPA + f"q = {bhsd()}\nv = {bhsd(d=64)}\nwith sdpa_kernel(SDPBackend.FLASH_ATTENTION):\n"
            "    F.scaled_dot_product_attention(q, q, v)\n"),
    ("sdpa-cudnn-fp32", "sdpa", "SDPA restricted to cuDNN attention with float32 inputs: no kernel",
     SDPA + f"q = {bhsd(dtype='torch.float32')}\nwith sdpa_kernel(SDPBackend.CUDNN_ATTENTION):\n"
            "    F.scaled_dot_product_attention(q, q, q)\n"),
    ("flex-recompiles", "flex", "compiled FlexAttention called with a new sequence length each step: recompile limit",
     FLEX + "import torch._dynamo\nf = torch.compile(flex_attention)\n"
            "for s in range(128, 128 * 14, 128):\n"
            f"    q = torch.randn(1, 4, s, 64, device='cuda', dtype=torch.bfloat16)\n    f(q, q, q)\n"
            "torch.cuda.synchronize()\nprint('recompiles case done')\n"),
    ("flex-mask-mod-branch", "flex", "a mask_mod with a Python `if` on a tensor, compiled: Dynamo cannot trace it",
     FLEX + "def mask(b, h, q_idx, kv_idx):\n    if q_idx >= kv_idx:\n        return True\n    return False\n"
            "bm = create_block_mask(mask, None, None, 1024, 1024)\n"
            f"q = {bhsd()}\ntorch.compile(flex_attention)(q, q, q, block_mask=bm)\n"),
    ("flex-blockmask-heads", "flex", "a BlockMask created for 4 heads used with 8",
     FLEX + "def causal(b, h, q_idx, kv_idx):\n    return q_idx >= kv_idx\n"
            "bm = create_block_mask(causal, 2, 4, 1024, 1024)\n"
            f"q = {bhsd()}\ntorch.compile(flex_attention)(q, q, q, block_mask=bm)\ntorch.cuda.synchronize()\n"
            "print('flex heads case done')\n"),
    ("flex-inductor-cache-unwritable", "flex", "compiled FlexAttention with TORCHINDUCTOR_CACHE_DIR on a read-only path",
     "import os\nos.makedirs('/tmp/ro-inductor', exist_ok=True)\nos.chmod('/tmp/ro-inductor', 0o555)\n"
     "os.environ['TORCHINDUCTOR_CACHE_DIR'] = '/tmp/ro-inductor/cache'\n"
     "import pwd\nos.setgid(65534)\nos.setuid(65534)\n"
     + FLEX + f"q = {bhsd()}\ntorch.compile(flex_attention)(q, q, q)\n"),
    ("cute-cu-seqlens-int64", "cute", "FA4's varlen call given int64 cu_seqlens",
     "from flash_attn.cute import flash_attn_varlen_func\n" + HEAD +
     "q = torch.randn(3000, 8, 128, device='cuda', dtype=torch.bfloat16)\n"
     "cu = torch.tensor([0, 1000, 3000], device='cuda', dtype=torch.int64)\n"
     "flash_attn_varlen_func(q, q, q, cu_seqlens_q=cu, cu_seqlens_k=cu, max_seqlen_q=2000, max_seqlen_k=2000)\n"),
    ("cute-softcap-score-mod", "cute", "FA4 given softcap and a score_mod together",
     CUTE + "def sm(score, b, h, q_idx, kv_idx):\n    return score\n"
            f"q = {bshd()}\nflash_attn_func(q, q, q, softcap=30.0, score_mod=sm)\n"),
    ("cute-cache-unwritable", "cute", "FA4 with its disk cache switched on in a directory it cannot write",
     "import os\nos.makedirs('/tmp/ro-fa4', exist_ok=True)\nos.chmod('/tmp/ro-fa4', 0o555)\n"
     "os.environ['FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED'] = '1'\n"
     "os.environ['FLASH_ATTENTION_CUTE_DSL_CACHE_DIR'] = '/tmp/ro-fa4/cache'\n"
     "os.setgid(65534)\nos.setuid(65534)\n"
     + CUTE + f"q = {bshd()}\nprint(flash_attn_func(q, q, q)[0].shape)\n"),
    ("cute-arch-override", "cute", "FA4 compiled for sm_100a (CUTE_DSL_ARCH) on an sm90 GPU",
     "import os\nos.environ['CUTE_DSL_ARCH'] = 'sm_100a'\n" + CUTE + f"q = {bshd()}\n"
     "print(flash_attn_func(q, q, q)[0].shape)\ntorch.cuda.synchronize()\n"),
    ("cute-no-gpu", "cute", "FA4 called with CUDA_VISIBLE_DEVICES empty",
     "import os\nos.environ['CUDA_VISIBLE_DEVICES'] = ''\n" + CUTE + f"q = {bshd()}\nflash_attn_func(q, q, q)\n"),
    ("sage-noncontig", "sage", "SageAttention given q, k, v whose last dimension is not contiguous",
     SAGE + f"q = {bhsd(d=256, dtype='torch.float16')}[..., ::2]\nsageattn(q, q, q, tensor_layout='HND')\n"),
    ("sage-headdim-80", "sage", "SageAttention 1 given head dim 80",
     SAGE + f"q = {bhsd(d=80, dtype='torch.float16')}\nsageattn(q, q, q, tensor_layout='HND')\n"),
    ("sage-triton-cache-unwritable", "sage", "SageAttention 1 (Triton kernels) with TRITON_CACHE_DIR on a read-only path",
     "import os\nos.makedirs('/tmp/ro-triton', exist_ok=True)\nos.chmod('/tmp/ro-triton', 0o555)\n"
     "os.environ['TRITON_CACHE_DIR'] = '/tmp/ro-triton/cache'\nos.setgid(65534)\nos.setuid(65534)\n"
     + SAGE + f"q = {bhsd(dtype='torch.float16')}\nsageattn(q, q, q, tensor_layout='HND')\n"),
    ("sdpa-no-gpu", "sdpa", "SDPA on 'cuda' tensors with CUDA_VISIBLE_DEVICES empty",
     "import os\nos.environ['CUDA_VISIBLE_DEVICES'] = ''\n" + SDPA + f"q = {bhsd()}\n"
     "F.scaled_dot_product_attention(q, q, q)\n"),
], "xformers": [
    ("xformers-info", "xformers", "python -m xformers.info with an xformers built for another torch",
     "import runpy, sys\nsys.argv = ['xformers.info']\nrunpy.run_module('xformers.info', run_name='__main__')\n"),
    ("xformers-mea-headdim", "xformers", "memory_efficient_attention with float32 and head dim 512: no operator",
     XF + f"q = {bshd(d=512, dtype='torch.float32')}\nxops.memory_efficient_attention(q, q, q)\n"),
    ("xformers-mea-bias-align", "xformers", "memory_efficient_attention with a tensor bias whose last stride is unaligned",
     XF + f"q = {bshd(s=1000, dtype='torch.float16')}\n"
          "bias = torch.randn(2, 8, 1000, 1000, device='cuda', dtype=torch.float16)\n"
          "xops.memory_efficient_attention(q, q, q, attn_bias=bias)\n"),
    ("xformers-then-cute", "cute", "import flash_attn.cute with xformers 0.0.35 installed beside flash-attn-4",
     CUTE + f"q = {bshd()}\nprint(flash_attn_func(q, q, q)[0].shape)\n"),
], "quack": [
    ("cute-quack-old", "cute", "import flash_attn.cute with quack-kernels 0.2.4 (the CuTE guide's pin) installed",
     CUTE + f"q = {bshd()}\nprint(flash_attn_func(q, q, q)[0].shape)\n"),
]}


def main(out: Path, stage: str, timeout: float = 240.0) -> int:
    texts = out / "texts"
    texts.mkdir(parents=True, exist_ok=True)
    meta_path = out / "cases.json"
    meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
    for name, backend, family, code in CASES[stage]:
        t0 = time.monotonic()
        try:
            p = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               timeout=timeout)
            rc, text = p.returncode, p.stdout.decode("utf-8", "replace")
        except subprocess.TimeoutExpired as e:
            rc, text = "timeout", (e.stdout or b"").decode("utf-8", "replace")
        secs = round(time.monotonic() - t0, 1)
        (texts / f"{name}.txt").write_text(text, encoding="utf-8")
        meta[name] = {"stage": stage, "backend": backend, "family": family, "rc": rc, "seconds": secs, "code": code}
        print(f"{name:28s} rc={rc!s:8s} {secs:6.1f}s  {text.strip().splitlines()[-1][:110] if text.strip() else ''}",
              flush=True)
    meta_path.write_text(json.dumps(meta, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), sys.argv[2]))
