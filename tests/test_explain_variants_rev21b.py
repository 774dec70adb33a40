"""What review rev21 found and rev21b mended (session 21). Every text was written by hand for these tests (2026-11-30).

  vae-grid   attn.kernel-launch-error: CUDA's grid-limit error ("invalid configuration argument") raised in a VAE's
             convolution, under ComfyUI's "Using xformers attention in VAE" header, was claimed as xformers' launch
             failure. Now a traceback whose innermost frame is a non-attention op ([grid_limit_elsewhere] in
             attribution.toml) and that names no attention library leaves it unclaimed. Claimed on main at b1fa5b2d
             (checked: the entry was in explain's findings), not now; the same error in xformers' frames, or bare, stays.
  head-size  vllm.head-size on vLLM 0.4-0.6's INFO selector line ("Cannot use FlashAttention-2 backend for head size 80." then
             "Using XFormers backend."), where vLLM falls back and runs, was an error saying the backend does not support the
             head size. Now a warning that says a slower backend runs ([[line_variant]] in attribution.toml); the hard error of
             newer vLLM, alone or with the INFO line, keeps its level and words.
"""

from __future__ import annotations

import pytest

from explain_top import ids

VAE_CONV = """Using xformers attention in VAE
Requested to load AutoencoderKL
Loading 1 new model
!!! Exception during processing !!! CUDA error: invalid configuration argument
Traceback (most recent call last):
  File "/home/u/ComfyUI/nodes.py", line 268, in decode
    return (vae.decode(samples["samples"]), )
  File "/home/u/ComfyUI/comfy/ldm/modules/diffusionmodules/model.py", line 131, in forward
    h = self.conv1(h)
  File "/home/u/venv/lib/python3.11/site-packages/torch/nn/modules/conv.py", line 456, in _conv_forward
    return F.conv2d(input, weight, bias, self.stride,
RuntimeError: CUDA error: invalid configuration argument
"""

# the same log with the innermost frame an upsampling call in the app's own file (the code line says it)
VAE_UPSAMPLE = VAE_CONV.replace(
    '  File "/home/u/venv/lib/python3.11/site-packages/torch/nn/modules/conv.py", line 456, in _conv_forward\n'
    '    return F.conv2d(input, weight, bias, self.stride,\n',
    '  File "/home/u/ComfyUI/comfy/ldm/modules/diffusionmodules/model.py", line 62, in forward\n'
    '    x = torch.nn.functional.interpolate(x, scale_factor=2.0, mode="nearest")\n')

# near misses the other way: the error in xformers' own call stays xformers'
XF_FRAME = VAE_CONV.replace(
    '  File "/home/u/venv/lib/python3.11/site-packages/torch/nn/modules/conv.py", line 456, in _conv_forward\n'
    '    return F.conv2d(input, weight, bias, self.stride,\n',
    '  File "/home/u/ComfyUI/comfy/ldm/modules/diffusionmodules/model.py", line 210, in xformers_attention\n'
    '    out = xformers.ops.memory_efficient_attention(q, k, v, attn_bias=None)\n')


@pytest.mark.parametrize("text", [VAE_CONV, VAE_UPSAMPLE], ids=["conv", "upsample"])
def test_grid_limit_in_a_non_attention_op_is_not_claimed(text):
    assert "attn.kernel-launch-error" not in ids(text)


@pytest.mark.parametrize("text", [
    XF_FRAME,
    # bare, with the header ten lines above (helper ex42's case): no frame says whose launch it was
    VAE_CONV.split("Traceback")[0],
], ids=["xformers-frame", "bare"])
def test_grid_limit_in_attention_or_bare_stays(text):
    assert "attn.kernel-launch-error" in ids(text)


# vllm.head-size (helper ex124 widened it to vLLM 0.4-0.6's INFO selector line): there vLLM falls back and runs, so the finding
# is a warning that says so ([[line_variant]] in attribution.toml); newer vLLM's hard error, alone or after the INFO line, keeps
# the entry's own level and words. The fallback cases were errors on main at b1fa5b2d (checked), warnings now.
SELECTOR = ("INFO 06-02 10:01:17 selector.py:52] Cannot use FlashAttention-2 backend for head size 80.\n"
            "INFO 06-02 10:01:17 selector.py:33] Using XFormers backend.\n")
HARD = ("ValueError: Head size 80 is not supported by FlashAttentionImpl. Supported head sizes are: [32, 64, 96, 128, 160, "
        "192, 224, 256].\n")


def _head_size(text):
    from attn_doctor.explain import match
    return next(m for m in match(text) if m.entry.id == "vllm.head-size")


@pytest.mark.parametrize("text", [
    SELECTOR,
    "Cannot use FlashAttention backend because the model's head size 80 is not supported.\nUsing XFormers backend.\n",
], ids=["for-head-size", "because"])
def test_selector_fallback_line_is_a_warning_that_says_it_runs(text):
    m = _head_size(text)
    assert m.entry.severity == "warning"
    assert "falls back" in m.title and "runs" in m.title


@pytest.mark.parametrize("text", [HARD, SELECTOR + "Loading model weights took 14.2 GB\n" + HARD], ids=["hard", "both"])
def test_hard_head_size_error_keeps_its_level(text):
    m = _head_size(text)
    assert m.entry.severity == "error"
    assert m.title == m.entry.headline and "does not support" in m.title
