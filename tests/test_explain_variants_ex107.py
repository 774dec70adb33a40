"""Variants for session 17's helper ex107 (issue 23: explain's generic layer, measured by benchmarks/explain_generic.py). Every
text was written by hand from the mechanism, NOT copied from a thread: other backends, wordings, paths, wrappers' prefixes and
languages. Near misses beside each say what must NOT happen. Each is read with the generic layer alone (the ids
benchmarks/explain_generic.py keeps), where the mechanism must answer by itself, and where it says so with every entry too.

  torch-flash  attribution/decide.py TORCH_FLASH (_torch_flash_subject): a shared "flash attention" is SDPA's flash kernel where
               the text shows torch's kernel by more of its names: "1Torch was not compiled with flash attention" (the digit
               Windows wheels glue on), the ATen ops (aten::_flash_attention_forward, torch.ops.aten._efficient_attention_backward),
               torch said to be compiled or built without it, SDPA's "No available kernel", and a line that makes SDPA the
               kernel's owner ("torch SDPA automatically uses a flash attention algorithm", "flash attention in the
               implementation of torch.nn.functional.scaled_dot_product_attention") -- also when that line is the one that names it
  failx        prose.toml FAILX: more verbs of failure in a title ("breaking ...", "wasn't build with", a regression, a memory
               leak, "refuses to", "dies at", "hit the ... limit"); not a breaking change, a regression test or check, "No
               regression.", a speed regression (prose.slow's)
  numbersx     prose.toml NUMBERSX (prose.numbers): wrong numbers in other words (a numerical discrepancy, not deterministic,
               quality reduced or dropping, 细微差异); not a version discrepancy, not "is deterministic"
  refusal      prose.toml FAILX, IMPORTX, B (second batch): a dispatcher that finds no kernel or operator, a requirement not met
               ("requires ... but got"), an option unimplemented, importlib.metadata's "No package metadata was found", and the
               lower-case `sdpa` as a refusal names it (attribution.toml); a config's, a flag's or a list's `sdpa` value alone
               names nothing, nor a sentence that merely uses it (tests/test_explain_variants_18.py, _33.py, _ex61.py, _ex99.py)
  more words   prose.toml FAILX, NUMBERSX, IGNOREDX (fifth batch, from titles written for each backend): memory said to explode
               or spike, an exception thrown, a process killed, a time-out, unusable, a conflict; blurry output; a selection that
               "isn't used", the math kernel picked; not "no conflict"
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from attn_doctor.explain import match

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from explain_generic import generic_ids  # noqa: E402


def first(text: str, generic: bool = True) -> tuple[str | None, str | None]:
    """(entry id, backend) of the first problem explain reports (with the generic layer alone unless told)."""
    found = match(text, ids=generic_ids()) if generic else match(text)
    return (found[0].entry.id, found[0].backend) if found else (None, None)


# ---- torch-flash ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    # the warning as Windows wheels print it, under a title that names flash attention only
    "Flash attention does not work on my 3060\n\nC:\\sd\\venv\\lib\\site-packages\\torch\\nn\\functional.py:5476: UserWarning: "
    "1Torch was not compiled with flash attention. (Triggered internally at ..\\aten\\src\\ATen\\native\\transformers\\cuda\\"
    "sdp_utils.cpp:455.)",
    # torch said to be built without it, in the title itself
    "PyTorch wheel was built without flash attention on Windows, generation fails",
    "torch 2.6 doesn't compile with Flash Attention (Win10)",
    # the ATen op in a test-skip title and in a NotImplementedError
    "[xpu] torch.ops.aten._flash_attention_forward lack of support for XPU",
    "[Skip]: NotImplementedError: Could not run 'aten::_flash_attention_backward' with arguments from the 'XPU' backend\n"
    "op_ut,test_meta_xpu.TestMetaXPU,test_dispatch_meta_outplace_torch_ops_aten__flash_attention_backward_xpu_bfloat16",
    "NotImplementedError: Could not run 'aten::_efficient_attention_forward' with arguments from the 'Meta' backend. "
    "Flash attention is not supported there.",
    # SDPA's own refusal in the title, a flash-attention question under it
    "No available kernel for flash attention dispatch on Arc\n\nCould the Arc FlashAttention path support head_dim=512, or "
    "should this fall back to another backend?",
    # a line that makes SDPA the owner of the flash kernel
    "Masks slow down training\n\ntorch SDPA silently uses a flash attention kernel if it can:\n"
    "- if a mask is passed, because flash attention doesn't support masks",
    "Wrong causal masking with a KV cache\n\nThere is a logic error about the flash attention used in the implementation of "
    "torch.nn.functional.scaled_dot_product_attention when q is shorter than k.",
])
def test_shared_flash_name_beside_torch_flash_kernel_is_sdpa(text):
    assert first(text)[1] == "sdpa", first(text)


@pytest.mark.parametrize("text", [
    # a FlashAttention package beside it: the package's failure
    "Flash attention does not work on my 3060\n\npip install flash-attn --no-build-isolation\n"
    "UserWarning: 1Torch was not compiled with flash attention.",
    # SDPA set against flash attention, not its owner
    "Flash attention crashes on my A6000\n\nI use flash attention instead of SDPA, and it crashes in the backward pass.",
    "flash attention fails to install, SDPA is fine",
    # no torch kernel shown at all
    "Flash attention gives NaN after 200 steps\n\nloss: nan",
])
def test_flash_name_without_torch_kernel_stays_flash_attention(text):
    assert first(text)[1] in ("fa2", None), first(text)


def test_torch_flash_names():
    from attn_doctor.knowledge.attribution import TORCH_FLASH

    for s in ("UserWarning: 1Torch was not compiled with flash attention.", "aten::_scaled_dot_product_efficient_attention",
              "at::_flash_attention_backward", "RuntimeError: No available kernel. Aborting execution.",
              "No available kernel for flash attn sdpa backend", "SDPA's flash kernel is skipped for this mask",
              "the flash attention backend of torch's SDPA"):
        assert TORCH_FLASH.search(s), s
    for s in ("pip install flash-attn", "flash attention instead of SDPA, and it crashes", "flash_attn_func(q, k, v)",
              "No kernel available", "Torch was compiled with CUDA 12.8"):
        assert not TORCH_FLASH.search(s), s


# ---- failx ----------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,entry,backend", [
    ("#2211 regression: xformers 0.0.31 picks the cutlass op on gfx1100, breaking the VAE decode.", "prose.fails", "xformers"),
    ("Regression in FlexAttention with torch 2.9 nightly", "prose.fails", "flex"),
    ("sageattention 2.2 regressed after the triton 3.4 update", "prose.fails", "sage"),
    ("MPS memory leak with SDPA when the sequence length varies", "prose.gpu", "sdpa"),
    ("Speicher: memory leak in xformers bei wechselnder Auflösung", "prose.fails", "xformers"),
    ("显存泄漏：使用 sageattention 后每张图都涨显存", "prose.fails", "sage"),
    ("nvcc refuses to compile flash-attn 2.8.3 against CUDA 13", "prose.build", "fa2"),
    ("the job dies at the first step with FA3 enabled", "prose.fails", "fa3"),
    ("FlexAttention hits the recompile limit when the batch shape changes", "prose.fails", "flex"),
    ("Linux: xFormers wasn't build with CUDA support", "prose.build", "xformers"),
    ("Index overflow in flash_attn_varlen_func with more than 2**31 tokens", "prose.fails", "fa2"),
    ("[WIP] sageattn varlen: fix int32 overflow for long videos", "prose.fails", "sage"),
    ("Keeping FlexAttention happy, else it hits the following exceptions", "prose.fails", "flex"),
])
def test_failure_verbs_in_a_title(text, entry, backend):
    assert first(text) == (entry, backend)


@pytest.mark.parametrize("text", [
    "Breaking changes in xformers 0.0.30: the ops moved",
    "Add regression tests for flash attention varlen",
    "FA4 head_dim=256 B200 Regression Check\n\nRan an FA4 benchmark on B200 between two commits. **No regression.**",
    "Logistic regression head on top of a FlexAttention encoder",
    "no memory leak with xformers anymore after the update",
    "We hit the limit of what xformers can do, so we moved to FA3, which works great",
    "See stack overflow for installing xformers",
    "Exception handling for the flash-attn import",
])
def test_failure_verbs_near_misses(text):
    assert first(text) == (None, None)


def test_speed_regression_stays_slowness():
    assert first("[FA4, Hopper, BWD] BWD Speed Regression on H200 when headdim=256")[0] == "prose.slow"


@pytest.mark.parametrize("text,backend", [
    ("Significant increase in computation time when a mask is passed to SDPA", "sdpa"),
    ("Increased inference time with FlexAttention after the update", "flex"),
])
def test_time_said_to_grow(text, backend):
    assert first(text) == ("prose.slow", backend)


# ---- numbersx -------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ("Small numerical discrepancy between xformers and SDPA at fp16", "xformers"),
    ("Numerical differences between flash_attn_func and flash_attn_varlen_func on the same batch", "fa2"),
    ("FlexAttention backward is not deterministic across runs", "flex"),
    ("Non-deterministic outputs with sageattn on Wan 2.2", "sage"),
    ("sageattn 2 noticeably reduces the image quality on Flux", "sage"),
    ("SageAttention3: video quality drops a lot compared to SDPA", "sage"),
    ("开启 flash attention 后 logits 有细微差异", "fa2"),
    ("With FlexAttention the outputs are completely wrong after 2k tokens", "flex"),
    ("the result is wrong for SDPA with a sliding window mask", "sdpa"),
    ("The causal mask is not applied correctly in xformers' BlockDiagonalMask with padding", "xformers"),
    ("Wan 2.2 with sageattn3 outputs only grey noise on the 5090", "sage"),
    ("# What does flash_attn_varlen_func compute?\nWhen I compare it with a naive loop it doesn't give the same outputs:", "fa2"),
])
def test_wrong_numbers_in_other_words(text, backend):
    assert first(text) == ("prose.numbers", backend)


@pytest.mark.parametrize("text", [
    "Fixed a version discrepancy between flash-attn and torch in the lockfile",
    "SDPA is deterministic now",
    "sageattn 2 keeps the image quality on Flux and is faster",
    "the result is wrong\n\nattn_implementation: sdpa\nbatch_size: 8",
    "I fixed the noise schedule for sageattention",
])
def test_wrong_numbers_near_misses(text):
    assert first(text)[0] != "prose.numbers"


# ---- refusal ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,entry,backend", [
    ("No available kernel for flash attn sdpa backend on Arc B580", "prose.fails", "sdpa"),
    ("xformers: no operator found for memory_efficient_attention_backward with these inputs", "prose.fails", "xformers"),
    ("Wan2GP says it requires flash-attn >=2.7.1 but got 2.8.3 after the update", "prose.fails", "fa2"),
    ("Sliding window attention is enabled but not yet implemented for `sdpa` in this model", "prose.fails", "sdpa"),
    ("Qwen3-VL: output_attentions is not supported when attn_implementation is set to sdpa", "prose.fails", "sdpa"),
    ("生成失败：Unsupported attention mode: sdpa", "prose.fails", "sdpa"),
    ("MyNode: No package metadata was found for sageattention", "prose.import", "sage"),
    ("SDPA returns all zero gradients for head_dim=1", "prose.numbers", "sdpa"),
])
def test_refusals_in_a_title(text, entry, backend):
    assert first(text) == (entry, backend)


@pytest.mark.parametrize("text", [
    # a config's lower-case value beside an unrelated failure, or beside no failure
    "Training fails with a CUDA error\n\nattn_mode: sdpa\nbatch_size: 4",
    "The training fails with a CUDA error\n\n--attn_choices [eager, sdpa]",
    "The training fails with a CUDA error\n\n{\"attn_implementation\": \"sdpa\", \"bf16\": true}",
    # torch's own GPU refusal is no kernel a dispatcher lacks
    "CUDA error: no kernel image is available for execution on the device",
])
def test_refusal_near_misses(text):
    assert first(text) == (None, None)


@pytest.mark.parametrize("line", [
    "attn_choices: [eager, sdpa, flash_attention_2]",
    '"attn_implementation": "sdpa",',
    "model.sdpa()",
    "eager, sdpa or flash",
])
def test_lower_case_sdpa_as_a_value_names_nothing_new(line):
    from attn_doctor.knowledge.attribution import _named

    assert (_named(line) or (None,))[0] != "sdpa", _named(line)


# ---- more words -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,entry,backend", [
    ("FlexAttention memory usage explodes with a dense block mask", "prose.fails", "flex"),
    ("xformers causes a VRAM spike at the VAE decode", "prose.fails", "xformers"),
    ("flash-attn 2.8 uses much more memory than expected at 32k", "prose.fails", "fa2"),
    ("FA4 throws on head_dim=192", "prose.fails", "cute"),
    ("sageattn raised an AssertionError in the quant kernel", "prose.fails", "sage"),
    ("importing flash_attn kills the whole process on Windows", "prose.fails", "fa2"),
    ("Building xformers timed out in CI", "prose.build", "xformers"),
    ("SageAttention 3 is unusable on the DGX Spark", "prose.gpu", "sage"),
    ("xformers 0.0.32 conflicts with torch 2.9", "prose.fails", "xformers"),
    ("Blurry frames with sageattn on Wan 2.2", "prose.numbers", "sage"),
    ("FlashAttention 3 isn't used even though I set attn_implementation to flash_attention_3", "prose.ignored", "fa3"),
    ("SDPA falls back to the math kernel on the A10", "prose.ignored", "sdpa"),
])
def test_more_words_of_failure(text, entry, backend):
    assert first(text) == (entry, backend)


@pytest.mark.parametrize("text", [
    "no conflict between xformers and torch 2.8",
    "I raised the block size for flex attention and it runs well",
    "the flash attention kernel's throughput is fine",
    "Building xformers took 20 minutes, no timeouts",
])
def test_more_words_near_misses(text):
    assert first(text) == (None, None)


# ---- the same mechanisms with every entry: the generic answer stands where no specific entry knows the text -----------

@pytest.mark.parametrize("text,backend", [
    ("No available kernel for flash attention dispatch on Arc\n\nCould the Arc FlashAttention path support head_dim=512?", "sdpa"),
    ("FlexAttention backward is not deterministic across runs", "flex"),
])
def test_normal_mode_names_the_same_backend(text, backend):
    assert first(text, generic=False)[1] == backend
