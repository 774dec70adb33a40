"""Variants for round 47 (issue 23, helper ex47): a training round from the image/video side (ComfyUI nodes and wrappers,
video/3D research code, WebUI extensions, Colab notebooks) drawn from repositories no earlier set used
(fixtures/errors/round47/), whose texts main's rules missed or read only as prose.

Every case was written by hand for this round (2026-11-28) from the mechanism, NOT copied from a real thread: another
path, version, symbol, wrapper, language or wording. Each positive case asserts the entry (and the backend where explain
names one) of the first problem that can be a failure's cause; the near misses beside each mechanism assert what must
NOT be claimed.

Mechanisms (knowledge file: entry):
  pin-keeps-torch  xformers.toml xformers.replaced-torch: xformers pinned "to prevent it from upgrading the environment to
                   a torch" / "installing xformers upgraded my torch": the wheel's torch pin said as an upgrade
  module-missing   xformers.toml xformers.not-installed: the app's start-up message retold ("couldn't find the xformers
                   module and its proceeding without it")
  nvidia-only      xformers.toml xformers.no-cuda: a node that hard-requires xformers "only works with nvidia cards"
  no-speed-diff    prose.toml prose.slow (SLOW): "no speed difference", "speed appears exactly the same"
  linux-wheel-win  wheels.toml install.wheel-other-platform: a Windows install step naming a backend's manylinux /
                   linux_x86_64 wheel (or Linux naming a win_amd64 one)
  fa3-by-name      flash_attn.toml fa3.hopper-by-name (new): FA3 enabled only when the GPU name says h100/hopper, so
                   H200/H800/H20 silently run FA2
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids


# pin-keeps-torch
@pytest.mark.parametrize("text", [
    "I pinned xformers==0.0.28.post3 on the second line to keep it from upgrading our torch 2.5.1 install",
    "we set the xformers version explicitly to stop pip from bumping torch to 2.7, which breaks the GGUF loader",
    "installing xformers upgraded torch to 2.6.0 and now torchvision complains",
])
def test_xformers_pin_keeps_torch(text):
    assert _top(text) == ("xformers.replaced-torch", "xformers")


@pytest.mark.parametrize("text", [
    "I upgraded torch to 2.6 myself and after that xformers would not load",  # torch first: another mechanism
    "xformers 0.0.29 keeps working after we stopped upgrading the drivers",
])
def test_xformers_pin_near_misses(text):
    assert "xformers.replaced-torch" not in _ids(text)


# module-missing
@pytest.mark.parametrize("text", [
    "on start the UI says it could not find the xformers module, proceeding without it",
    "the launcher failed to import the xformers package and keeps running without it",
    "Fooocus can't load the xformers library so it carries on without it",
])
def test_xformers_module_missing_retold(text):
    assert _top(text) == ("xformers.not-installed", "xformers")


@pytest.mark.parametrize("text", [
    "ERROR: Could not find a version that satisfies the requirement xformers==0.0.17.dev461",  # no such release
    "it could not find the xformers wheel for torch 2.8",
])
def test_xformers_module_missing_near_misses(text):
    assert "xformers.not-installed" not in _ids(text)


# nvidia-only
@pytest.mark.parametrize("text", [
    "This node needs xformers, so it just runs on NVIDIA GPUs; my RX 7900 XTX gets nothing",
    "Please make xformers optional.\nRight now the wrapper only works on CUDA, not on Apple silicon.",
])
def test_xformers_required_means_nvidia_only(text):
    assert _top(text) == ("xformers.no-cuda", "xformers")


@pytest.mark.parametrize("text", [
    "xformers 0.0.30 only works with nvidia driver 550 or newer here",  # a driver floor, not the vendor
    "the node only works with nvidia cards",  # no xformers named
])
def test_xformers_nvidia_only_near_misses(text):
    assert "xformers.no-cuda" not in _ids(text)


# no-speed-diff
@pytest.mark.parametrize("text, backend", [
    ("No real speed difference with xformers on SDXL", "xformers"),
    ("with flash attention 2 the sampling speed seems exactly the same", "fa2"),
    ("SageAttention: no measurable speed gain on Wan 2.2 at 480p", "sage"),
])
def test_no_speed_difference_is_slow_report(text, backend):
    assert _top(text) == ("prose.slow", backend)


@pytest.mark.parametrize("text", [
    "No speed difference between the two runs, both use the same seed",  # no backend named
    "sage attention gives a clear speed increase, 30% over sdpa",
])
def test_no_speed_difference_near_misses(text):
    assert "prose.slow" not in _ids(text)


# linux-wheel-win
@pytest.mark.parametrize("text, backend", [
    ("Windows 10 setup step 4: pip install sageattention-2.1.1+cu126torch2.6.0-cp310-cp310-linux_x86_64.whl does not work", "sage"),
    ("README for Windows says:\npip install https://example.org/xformers-0.0.29.post1-cp311-cp311-manylinux_2_28_x86_64.whl", "xformers"),
    ("WSL2 Ubuntu: pip install flash_attn-2.7.4.post1+cu124torch2.6.0cxx11abiFALSE-cp310-cp310-win_amd64.whl", "fa2"),
])
def test_wheel_of_the_other_os(text, backend):
    assert _top(text)[0] == "install.wheel-other-platform"


@pytest.mark.parametrize("text", [
    "On Windows: pip install xformers-0.0.22.post4+cu118-cp38-cp38-win_amd64.whl works",  # the right tag
    "Linux: pip install flash_attn-2.7.4.post1+cu12torch2.5cxx11abiFALSE-cp311-cp311-linux_x86_64.whl installs fine",
])
def test_wheel_of_the_other_os_near_misses(text):
    assert "install.wheel-other-platform" not in _ids(text)


# fa3-by-name
@pytest.mark.parametrize("text", [
    "gpu = torch.cuda.get_device_name(torch.cuda.current_device()).lower()\nFA3_OK = 'h100' in gpu",
    "our GH200 silently falls back to flash attention 2 although flash_attn_interface imports fine",
    "H800 cluster: the model went back to FlashAttention-2 because the check looks for 'hopper' in the name",
])
def test_fa3_gated_on_gpu_name(text):
    assert _top(text) == ("fa3.hopper-by-name", "fa3")


@pytest.mark.parametrize("text", [
    "name = torch.cuda.get_device_name(0)\nprint(name)",  # the name read, no H100/hopper test
    "On the H100 FlashAttention 3 is 1.5x faster than FA2",
    "H200: falls back to SDPA because flash_attn is not installed",
])
def test_fa3_gated_on_gpu_name_near_misses(text):
    assert "fa3.hopper-by-name" not in _ids(text)
