"""The backend explain names, by the many ways a text names it (issue 23, session 6 of 2026-11-28, helper ex37).

tests/data/explain_attribution_s6.toml holds 144 hand-written variants (122 written before the mechanism, 22 after it as a
check that it generalises: 19 of those 22 were right before any change for them) (import lines, frames' files, pip/uv lines, wheel
names, trainer and app flags, apps' log lines, environment variables, titles in several languages, and backends named only
in passing, which must not decide); every one must give its backend. The near misses below name the same words where they
must NOT decide. benchmarks/explain_attribution.py prints the figures per way of naming.

Mechanisms (attn_doctor/knowledge/attribution.toml and attribution/):
  names      SDPA's switches (--opt-sdp-attention, --use-pytorch-cross-attention, --attention-pytorch, --sdpa, --flash_attn
             sdpa, attention_mode: sdpa, "Using pytorch attention", "Applying attention optimization: sdp",
             TORCH_CUDNN_SDPA_ENABLED, can_use_flash_attention), FA3's (--flash3, FLASH_ATTENTION_DISABLE_*, a top-level
             site-packages/flash_attn_interface.py), xformers' XFORMERS_* switches, Forge's --sage, diffusers'
             DIFFUSERS_ATTN_BACKEND / set_attention_backend values, axolotl's sdp_attention / xformers_attention keys;
             flash-attn's shared build switches; the hopper/ folder
             rule lower-case only
  scrub      a switch that turns a backend off (--disable-xformers), an app's "X is not installed!" banner line, a
             parenthesised list of examples in prose, what a sentence names as replaced or as its reason ("instead of",
             "rather than", "from X to", "because ..."), what a user also tried ("I also tried reinstalling xformers"), a
             backend's config switch set off ("flash_attn: disabled"), the rest of a healthy clause's list ("fine with FA2
             and FA3")
  weak       a line that names backends only in clauses saying they work names them weakly
  setup      [setup] lines above the error's traceback (a command line, a variable, an install, an import, an app's
             selection line) are read after its frames, back to an earlier error
  inventory  [inventory] lines (collect_env, pip freeze, "xformers version: ...", a list of packages with versions) are no
             evidence for another line's error
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from each_case import each

from attn_doctor.explain import match

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from explain_attribution import load  # noqa: E402

VARIANTS = load()


def top(text: str):
    found = match(text)
    return (found[0].entry.id, found[0].backend) if found else (None, None)


def test_the_data_is_what_the_brief_asks():
    assert len(VARIANTS) >= 144
    assert len({v["name"] for v in VARIANTS}) == len(VARIANTS)
    assert {v["way"] for v in VARIANTS} == {"import", "frame", "pip", "wheel", "flag", "ui-log", "env", "title", "passing"}
    assert {v["backend"] for v in VARIANTS} <= {"fa2", "fa3", "cute", "sage", "xformers", "sdpa", "flex", "none"}
    assert all(v["note"].startswith("written by ex37 on 2026-11-28, modelled on ") for v in VARIANTS)
    assert not any("heldout" in v["note"] for v in VARIANTS)


def test_variant():
    each(((v["name"], (v,)) for v in VARIANTS), _variant)  # (one test over them: tests/each_case.py)


def _variant(v):
    entry, backend = top(v["text"])
    if v["backend"] == "none":
        assert backend in (None, "none"), (entry, backend)
    else:
        assert entry is not None and backend == v["backend"], (entry, backend)


ARCH = "RuntimeError: CUDA error: no kernel image is available for execution on the device"
IMA = "RuntimeError: CUDA error: an illegal memory access was encountered"
OOM_BUILD = "  c++: fatal error: Killed signal terminated program cc1plus\n  compilation terminated."


def tb(*frames: tuple[str, str], error: str = ARCH) -> str:
    out = ["Traceback (most recent call last):"]
    for path, code in frames:
        out += [f'  File "{path}", line 10, in f', f"    {code}"]
    return "\n".join(out + [error])


APP = tb(("/srv/app/run.py", "out = model(x)"), ("/srv/app/net.py", "h = self.block(h)"))


@pytest.mark.parametrize("text,backend", [
    # the hopper/ folder is FA3's, a Hopper GPU in prose is not (a build of flash-attn on a "Hopper/Blackwell" fleet)
    ("Building flash-attn on our mixed Hopper/Blackwell fleet:\n" + OOM_BUILD, "fa2"),
    # FA2's own interface module under flash_attn/ stays FA2's
    ('  File "/venv/lib/python3.11/site-packages/flash_attn/flash_attn_interface.py", line 91, in _flash_attn_forward\n'
     "    out = flash_attn_gpu.fwd(q, k, v)\n" + ARCH, "fa2"),
    # the build switches FA2's and FA3's setup.py share are a weak name; the wheel being built decides
    ("export FLASH_ATTENTION_FORCE_BUILD=TRUE\n  Building wheel for flash-attn (setup.py) ... error\n" + OOM_BUILD, "fa2"),
    # A1111's other attention switches are not SDPA's
    ("Launching Web UI with arguments: --opt-split-attention --medvram\n" + APP, None),
    ("python main.py --use-split-cross-attention\n" + APP, None),
    # an app's line that selects no listed backend
    ("Using split attention in VAE\n" + APP, None),
    # a word ending in "sage" is no flag
    ("python tool.py --usage\n" + APP, None),
    # a parenthesis with one item still names it; a call's arguments are no examples
    ("The error (xformers 0.0.30 on Windows):\n" + ARCH, "xformers"),
    ("out = memory_efficient_attention(q, k, v, bias)\n" + ARCH, "xformers"),
    # "because" where nothing else on the line names a backend: the reason is all there is
    ("It fails because of flash-attn 2.8.3:\n" + ARCH, "fa2"),
    # "FA2 worked in 2.6 but fails in 2.7": the healthy clause is the only one that names a backend, so it is the subject
    ("FA2 worked in torch 2.6 but fails in 2.7:\n" + ARCH, "fa2"),
    # prose above a traceback is no setup line (below the title lines, which are read as a report's title)
    ("App crashes on start\nGPU: RTX 5090, driver 576\nI also have xformers installed in this venv.\n\nThe error:\n\n"
     + APP, None),
    # a command line of an earlier error's run does not set up the next one
    ("python a.py --xformers\n" + tb(("/srv/a.py", "x = f()"), error="ValueError: bad value") + "\n\n" + APP, None),
    # an inventory line is no evidence; the same package installed by pip is
    ("xformers==0.0.32\n\n" + ARCH, None),
    ("Successfully installed xformers-0.0.32\n" + APP, "xformers"),
    # DINOv2's switch turns xformers off
    ("XFORMERS_DISABLED=1 python depth.py\n" + APP, None),
    # a backend's switch set off in a report's config ("flash_attn: disabled") is not what ran; a message that starts
    # "SageAttention: No module ..." or code that sets a guard's name to None still names it
    ("App crashes\nGPU: RTX 4090\nmodel: qwen2.5, **flash_attn: disabled**, bf16: true\n\n" + APP, None),
    ("Can't import SageAttention: No module named 'triton'\n" + APP, "sage"),
    ("After I set `sageattn_func = None` in attention.py the app crashes:\n" + APP, "sage"),
    # a config's attention key set false is not what ran; a user's attempts ("also tried reinstalling X") name no subject,
    # but what they say they ran and saw fail still does
    ("sdp_attention: false\nxformers_attention: false\n" + APP, None),
    ("Flash attention crashes on my 4090\n" + IMA + "\nI also tried reinstalling xformers, nothing changed.", "fa2"),
    ("I tried sageattention on my 5090 and it crashes:\n" + IMA, "sage"),
    # hopper/setup.py's feature switches are shared with FA4's tests: a weak name, which a precise one overrides
    ("export FLASH_ATTENTION_DISABLE_SPLIT=TRUE\n" + tb(("/w/.venv/lib/python3.12/site-packages/flash_attn/cute/interface.py",
                                                        "_flash_attn_fwd.compile_cache[key](q, k, v)"), error=IMA), "cute"),
])
def test_near_miss(text, backend):
    entry, got = top(text)
    assert entry is not None, text
    assert got == backend, (entry, got)


@pytest.mark.parametrize("line,backend", [
    ("accelerate launch train_network.py --sdpa --xformers_off", "sdpa"),
    ("Launching Web UI with arguments: --opt-sdp-no-mem-attention", "sdpa"),
    ("llamafactory-cli train x.yaml --flash_attn=sdpa", "sdpa"),
    ("--attn_mode sdpa", "sdpa"),
    ("TORCH_CUDNN_SDPA_ENABLED=1", "sdpa"),
    ("torch.backends.cuda.can_use_efficient_attention(params) returned False", "sdpa"),
    ("pipe.transformer.set_attention_backend('_native_cudnn')", "sdpa"),
    ("DIFFUSERS_ATTN_BACKEND=_flash_varlen_3", "fa3"),
    ("set_attention_backend(\"flash_hub\")", "fa2"),
    ("DIFFUSERS_ATTN_BACKEND=_sage_qk_int8_pv_fp8_cuda", "sage"),
    ("export FLASH_ATTENTION_DISABLE_SM90=TRUE", "fa3"),
    ("python wan_generate_video.py --attn_mode flash3", "fa3"),
    ("/usr/lib/python3/dist-packages/flash_attn_interface.py", "fa3"),
    ("export XFORMERS_MORE_DETAILS=1", "xformers"),
    ("webui.sh --sage --cuda-malloc", "sage"),
    ("FLASH_ATTENTION_TRITON_AMD_ENABLE=TRUE", "fa2"),
    ("sdp_attention: true", "sdpa"),
    ("xformers_attention: true", "xformers"),
])
def test_names(line, backend):
    from attn_doctor.knowledge.attribution import backend_named

    assert backend_named(line) == backend
