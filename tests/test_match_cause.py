"""knowledge.match.cause() (what the checks call, not explain) applies explain's attribution rules (issue 23, helper ex34):

- `needs_backend` (attribution.toml): a catch-all (a CUDA fault, a failed build, an import error no entry names) stands
  where no other library is named near it when the check names the backend that ran (the log is that run's own), and
  never where the library named nearest is no attention backend's (bitsandbytes, mamba_ssm: "foreign"); with no backend
  given it stands only where an attention library is named near it, as explain claims it;
- an entry of the noise (a run's stderr beside its exception) is this backend's or none's by the backend the log names
  near it, not by the entry's own field alone: a catch-all under another backend's traceback is that backend's;
- the `[never]` entries keep their own backend whatever the log names near them (TransformerEngine's cuDNN fused
  attention names flash-attn as the way round, not as what failed).

The texts are written here from the mechanism (paths, versions, wrappers of my own), not copied from a thread.
"""

from __future__ import annotations

from attn_doctor.knowledge.match import cause

FAULT = "RuntimeError: CUDA error: an illegal memory access was encountered"


def _frame(path: str, code: str, line: int = 120, func: str = "forward") -> str:
    return f'  File "{path}", line {line}, in {func}\n    {code}'


def tb(*frames: str, error: str) -> str:
    return "\n".join(["Traceback (most recent call last):", *frames, error])


XFORMERS_TB = tb(_frame("/opt/venv/lib/python3.11/site-packages/xformers/ops/fmha/cutlass.py",
                        "out, lse, rng_seed, rng_offset = cls.OPERATOR(q, k, v)"), error=FAULT)
FA2_TB = tb(_frame("/home/u/.venv/lib/python3.12/site-packages/flash_attn/flash_attn_interface.py",
                   "return FlashAttnFunc.apply(q, k, v, dropout_p, softmax_scale, causal)", 1201, "flash_attn_func"),
            error=FAULT)
MAMBA_TB = tb(_frame("/srv/env/lib/python3.10/site-packages/mamba_ssm/ops/selective_scan_interface.py",
                     "out, x, *rest = selective_scan_cuda.fwd(u, delta, A, B, C)", 88, "forward"), error=FAULT)
BNB_TB = tb(_frame("/usr/local/lib/python3.10/dist-packages/bitsandbytes/functional.py",
                   "lib.cquantize_blockwise_fp16(code, A, absmax, out)", 1010, "quantize_blockwise"), error=FAULT)


# ---- needs_backend ---------------------------------------------------------------------------------

def test_a_bare_fault_is_the_checked_backends_own():
    """The smoke run of sage printed only CUDA's words: nothing else is named, so it is sage's run's fault."""
    assert cause(FAULT, "", "sage").entry.id == "cuda.kernel-fault"
    assert cause("", FAULT, "fa2").entry.id == "cuda.kernel-fault"  # its stderr alone


def test_a_fault_under_the_backends_own_frames_stands():
    assert cause(FA2_TB, "", "fa2").entry.id == "cuda.kernel-fault"
    assert cause("", XFORMERS_TB, "xformers").entry.id == "cuda.kernel-fault"


def test_without_a_backend_a_catch_all_needs_an_attention_library_named():
    """The platform check (no backend): a bare CUDA fault names nothing, so it is nobody's known cause here."""
    assert cause(FAULT, "") is None
    assert cause(FA2_TB, "").entry.id == "cuda.kernel-fault"


def test_another_librarys_fault_is_not_a_backends_cause():
    """Near misses: the fault's nearest library is one that is no attention backend's (mamba_ssm, bitsandbytes)."""
    assert cause(MAMBA_TB, "", "fa2") is None
    assert cause("", BNB_TB, "sage") is None
    assert cause(MAMBA_TB, "") is None


def test_a_specific_entry_is_not_a_catch_all_and_always_stands():
    """needs_backend is for catch-alls only: a specific message stands wherever it is."""
    lib = "OSError: libcudart.so.12: cannot open shared object file: No such file or directory"
    assert cause(lib, "", "sage").entry.id == "import.cuda-lib-missing"
    assert cause(lib, "").entry.id == "import.cuda-lib-missing"


# ---- attribution of the noise ----------------------------------------------------------------------

def test_a_catch_all_in_the_noise_under_another_backends_frames_is_that_backends():
    """fa2's check: its stderr holds xformers' fault (the app tried xformers first): not fa2's cause."""
    assert cause("", XFORMERS_TB, "fa2") is None
    assert cause("", FA2_TB, "xformers") is None
    # and the same fault as the exception of the run itself stays that run's cause (a backend that calls another)
    assert cause(XFORMERS_TB, "", "fa2").entry.id == "cuda.kernel-fault"


def test_the_noise_of_the_checked_backend_still_stands():
    assert cause("RuntimeError: something no entry names", XFORMERS_TB, "xformers").entry.id == "cuda.kernel-fault"


# ---- [never] ---------------------------------------------------------------------------------------

TE_FUSED = ('  File "/usr/local/lib/python3.12/dist-packages/transformer_engine/pytorch/attention/dot_product_attention/'
            'backends.py", line 1210, in forward\n'
            "    output = FusedAttnFunc.apply(q, k, v)\n"
            "RuntimeError: /opt/transformerengine/transformer_engine/common/fused_attn/fused_attn_f16_arbitrary_seqlen.cu:"
            "412 in function operator(): cuDNN Error: CUDNN_STATUS_EXECUTION_FAILED\n"
            "(works with --attention-backend flash, i.e. flash-attn 2.7.4)")


def test_a_never_entry_keeps_its_own_backend_in_the_noise():
    """te.fused-attn-cudnn is in [never]: the flash-attn named beside it is the way round, so the entry stays
    TransformerEngine's (no backend of the seven) and may stand for any checked backend's run."""
    m = cause("RuntimeError: something no entry names", TE_FUSED, "sdpa")
    assert m is not None and m.entry.id == "te.fused-attn-cudnn"


def test_a_non_never_entry_named_with_another_backend_is_dropped_from_the_noise():
    """Near miss for [never]: a backend-less catch-all next to FA2's name in the noise is FA2's, not sage's."""
    noise = FAULT + "\nflash_attn 2.7.4 kernels were selected for this layer"
    assert cause("", noise, "sage") is None
    assert cause("", noise, "fa2").entry.id == "cuda.kernel-fault"
