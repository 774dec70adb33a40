"""What review rev21 found and rev21b mended (session 21). Every text was written by hand for these tests (2026-11-30).

  vae-grid   attn.kernel-launch-error: CUDA's grid-limit error ("invalid configuration argument") raised in a VAE's
             convolution, under ComfyUI's "Using xformers attention in VAE" header, was claimed as xformers' launch
             failure. Now a traceback whose innermost frame is a non-attention op ([grid_limit_elsewhere] in
             attribution.toml) and that names no attention library leaves it unclaimed. Claimed on main at b1fa5b2d
             (checked: the entry was in explain's findings), not now; the same error in xformers' frames, or bare, stays.
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
