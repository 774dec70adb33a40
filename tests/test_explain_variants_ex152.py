"""The lead's two policies for explain (helper ex152, session 26; issue 23; benchmarks/results/explain-policies-s26.md).

A. A sentence that names FlashAttention 2 / 3, FA4 or SageAttention, says it fails or asks whether it runs, and names a GPU
   below EVERY kernel that backend ships (attribution.toml [macros] OLDGPU: Volta, Turing, Pascal and older) is that GPU
   refused: backend.unsupported-gpu (FA4: cute.arch), in any language the prose layer reads. Near misses: a GPU the backend's
   kernels run on, a backend whose kernels cover the old GPU (xformers, SDPA, FlexAttention), the GPU in another sentence or
   another line, a range ("Turing or newer"), a crash (the backends refuse before a kernel runs), a failure said expected.
B. One failure, one entry: FlashAttention's unworded check (fa2.arch-check) and SageAttention's per-family kernels
   (sage.arch-kernel) beside such a GPU are that GPU refused, beside a newer one they stay (a newer release or a rebuild fixes
   them); transformers' import check naming flash_attn is fa2.missing's failure.

Every case is our own, written from the mechanism (the backends' arch floors: attn_doctor/backends/*.py fwd_caps); each positive
read prose.gpu / prose.fails / prose.said / fa2.arch-check / sage.arch-kernel / transformers.backend-unavailable at s26start
(c6e34c6a), checked by running this file there.
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids

REFUSED = [
    # A: the sentence, by model, family or capability, in several languages; the question form too
    ("flash-attn fails on my V100", "backend.unsupported-gpu", "fa2"),
    ("Can I use flash_attn on a Tesla P100?", "backend.unsupported-gpu", "fa2"),
    ("Does FlashAttention 2 support the T4 on Colab?", "backend.unsupported-gpu", "fa2"),
    ("FA3 doesn't run on our Quadro RTX 6000 nodes", "backend.unsupported-gpu", "fa3"),
    ("sageattention does not work on my GTX 1660 Ti", "backend.unsupported-gpu", "sage"),
    ("SageAttention 在 Quadro P4000 上无法使用", "backend.unsupported-gpu", "sage"),
    ("sageattention fails on sm_70", "backend.unsupported-gpu", "sage"),
    ("FA4 fails to start on a V100S", "cute.arch", "cute"),
    ("Setup went fine. flash_attn errors out on my Titan V, what now?", "backend.unsupported-gpu", "fa2"),
    # B: the unworded check beside a Volta / Pascal card; SageAttention's dispatch refusing a Turing arch
    ("RuntimeError: Expected is_sm8x || is_sm75 to be true, but got false.\nThe box has two Tesla P40 cards.",
     "backend.unsupported-gpu", "fa2"),
    ("RuntimeError: Expected is_sm8x || is_sm90 to be true, but got false.\nGPU: Tesla V100-SXM2-32GB",
     "backend.unsupported-gpu", "fa2"),
    ("  File \"/venv/lib/python3.11/site-packages/sageattention/core.py\", line 140, in sageattn\n"
     "    raise ValueError(f\"Unsupported CUDA architecture: {arch}\")\nValueError: Unsupported CUDA architecture: sm75",
     "backend.unsupported-gpu", "sage"),
    # B: transformers' import check naming flash_attn, alone
    ("ImportError: This modeling file requires the following packages that were not found in your environment: einops, "
     "flash_attn. Run `pip install einops flash_attn`", "fa2.missing", "fa2"),
    ("ImportError: FlashAttention2 has been toggled on, but it cannot be used due to the following error: the package "
     "flash_attn seems to be not installed.", "fa2.missing", "fa2"),
]


@pytest.mark.parametrize("text,entry,backend", REFUSED)
def test_one_failure_reads_its_one_entry(text, entry, backend):
    assert _top(text) == (entry, backend), _ids(text)


KEPT = [
    # A: a GPU the kernels run on; a backend that runs on the old GPU; the GPU in another sentence or line; a range; a crash
    ("flash-attn fails on my A10G", "prose.gpu"),
    ("flash-attn fails on the A100 but the V100 runs sdpa fine", "prose.gpu"),
    ("xformers fails on my V100", "prose.gpu"),
    ("FlexAttention does not work on my T4", "prose.gpu"),
    ("flash-attn keeps failing on the first step. I also have a T4 at home.", "prose.fails"),
    ("flash-attn crashes after the update\n\nSystem Info: GPU: Tesla T4, driver 550", "prose.crash"),
    ("flash attention fails although the README says Turing or newer", "prose.gpu"),
    ("sageattention segfaults on my RTX 2080", "attn.native-crash"),
    ("As expected, sageattention fails on the P100; sdpa runs.", "prose.gpu"),
    ("every other arch (sm75/80/86/89) takes the old path; sageattention fails for sm121", "prose.gpu"),
    # B: the unworded check beside a newer GPU (an old flash-attn), or naming is_sm75 beside a Turing card (1.x ran there)
    ("RuntimeError: Expected is_sm8x || is_sm75 to be true, but got false.\nflash-attn 1.0.4 on our H100", "fa2.arch-check"),
    ("RuntimeError: Expected is_sm80 || is_sm75 to be true, but got false.\nOn a T4 with flash-attn 1.0.9", "fa2.arch-check"),
    # B: SageAttention's dispatch on a GPU newer than the release; a build without this GPU's family
    ("ValueError: Unsupported CUDA architecture: sm121", "sage.arch-kernel"),
    ("AssertionError: SM89 kernel is not available. Make sure you GPUs with compute capability 8.9.\nRTX 4090",
     "sage.arch-kernel"),
    # B: transformers' check beside the import failure it hides; SDPA's requirement
    ("ImportError: /venv/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: "
     "_ZN3c104cuda9SetDeviceEi\nImportError: This modeling file requires the following packages that were not found in your "
     "environment: flash_attn. Run `pip install flash_attn`", "import.undefined-symbol"),
    ("ImportError: PyTorch SDPA requirements in Transformers are not met. Please install torch>=2.1.1.",
     "transformers.backend-unavailable"),
]


@pytest.mark.parametrize("text,entry", KEPT)
def test_another_failure_keeps_its_entry(text, entry):
    assert _top(text)[0] == entry, _ids(text)
    if entry not in ("fa2.arch-check", "sage.arch-kernel", "import.undefined-symbol", "transformers.backend-unavailable"):
        assert "backend.unsupported-gpu" not in _ids(text)
