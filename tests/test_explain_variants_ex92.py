"""Variants for helper ex92 (session 14): failures posted on trainers' and UIs' trackers (fixtures/errors/round92), where the
app's own wrapper stands around the backend's error.

Every case was written by hand (2026-11-29): other apps, nodes, models, GPUs, versions and wordings than the fixtures. The
positives name what explain must report first (entry, backend); the near misses what it must not claim.

Mechanisms (knowledge file: rule):
  metadata  flash_attn.toml fa2.missing: an app's (a ComfyUI node's) version check through importlib.metadata raising
            "No package metadata was found for flash_attn" where flash-attn is not installed in the app's Python
            (ComfyUI-QwenVL#83, #78, ComfyUI-Qwen3VL-DP#8, TTS-Audio-Suite#236); not FA3's or FA4's distributions, not another
            package's metadata (Fooocus' opencv check)
  wrapped   frameworks.toml transformers.attn-impl-unsupported: transformers' "does not support an attention implementation
            through ..." as a console wrapped it, the line broken before "through" (unsloth#5793)
  padding   flash_attn.toml fa2.generation-right-padding: transformers' right-padding check quoted from its source, the message
            split over two string literals (OpenRLHF#303)
  launcher  triton.toml triton.launcher-build: Triton's launcher compile command by its arguments (main.c / cuda_utils.c then
            -O3 -shared), the paths mangled in the paste (ComfyUI#11169)
  image     platform.toml gpu.arch-not-in-torch: "CUDA error: no kernel image is available" cut at a line's end (Fooocus#4164)
  constexpr triton.toml triton.kernel-version-drift: Triton's front end raising AttributeError on a tl.constexpr
            ('constexpr' object has no attribute 'bit_length') in a kernel written for another Triton (verl#2405)
  toonew    attribution.toml [[specialize]]: xformers' "requires device with capability ... (too new)" read without the
            "No operator found" list is xformers.kernel-arch-mismatch (unsloth#4200)
  ignored   frameworks.toml app.backend-selection-ignored: an app that runs eager attention on its eval/inference path instead
            of the backend it selects, or a failure said to come from that (unsloth#3363); a backend shown enabled
            ("FA2 = True") with the memory the same as without it (unsloth#1014)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from explain_top import first, ids

ROUND = Path(__file__).resolve().parents[1] / "fixtures" / "errors" / "round92"


@pytest.mark.parametrize("text, want", [
    # metadata
    ("[ComfyUI-Florence2] !!! Exception during processing !!! No package metadata was found for flash_attn",
     ("fa2.missing", "fa2")),
    ("  File \"C:\\ComfyUI_windows_portable\\python_embeded\\Lib\\importlib\\metadata\\__init__.py\", line 888, in version\n"
     "    return distribution(distribution_name).version\n"
     "importlib.metadata.PackageNotFoundError: No package metadata was found for flash-attn", ("fa2.missing", "fa2")),
    ("加载 Qwen2.5-VL 节点时报错：No package metadata was found for flash_attn，节点无法运行", ("fa2.missing", "fa2")),
    ("[Bug] F5-TTS node: No package metadata was found for flash_attn although attention is set to sdpa", ("fa2.missing", "fa2")),
    # wrapped
    ("ValueError: PaliGemmaVisionModel does not support an attention implementation \n"
     "through torch.nn.functional.scaled_dot_product_attention yet.", ("transformers.attn-impl-unsupported", "sdpa")),
    ("ValueError: Idefics2VisionTransformer does not support an attention implementation\n"
     "    through torch's flex_attention. Please request the support for this architecture.",
     ("transformers.attn-impl-unsupported", "flex")),
    # padding
    ("                raise ValueError(\n"
     "                    \"You are attempting to perform batched generation with padding_side='right'\"\n"
     "                    \" this may lead to unexpected behaviour for Flash Attention version of Qwen3. Make sure to \"\n"
     "                )", ("fa2.generation-right-padding", "fa2")),
    # launcher
    ("subprocess.CalledProcessError: Command '['/usr/bin/gcc', '/tmp/tmpq9x/cuda_utils.c', '-O3', '-shared', '-fPIC', '-o',\n"
     "'/tmp/tmpq9x/cuda_utils.cpython-311-x86_64-linux-gnu.so', '-lcuda', '-L/usr/lib/wsl/lib'\n"
     "]' returned non-zero exit status 1.", ("triton.launcher-build", None)),
    ("KSampler\nCalledProcessError: Command '['E:lSwarmUIldlbackendslcomfyltritonlltcclltcc.exe', 'C:lUserslbobltmp3xllcuda_utils.c', "
     "'-O3', '-shared', '-Wno-psabi', '-o',", ("triton.launcher-build", None)),
    # image
    ("[Bug] SD.Next on RTX 5070: RuntimeError: CUDA error: no kernel image is available", ("gpu.arch-not-in-torch", None)),
    ("torch.AcceleratorError: CUDA error: no kernel image is available.", ("gpu.arch-not-in-torch", None)),
    # constexpr
    ("  File \"/opt/venv/lib/python3.12/site-packages/flash_attn/ops/triton/layer_norm.py\", line 901, in forward\n"
     "triton.compiler.errors.CompilationError: at 40:12:\n"
     "    BLOCK_N: tl.constexpr = triton.next_power_of_2(N)\n"
     "            ^\n"
     "AttributeError(\"'constexpr' object has no attribute 'bit_length'\")", ("triton.kernel-version-drift", "fa2")),
    # toonew
    ("[Bug] requires device with capability <= (9, 0) but your GPU has capability (12, 1) (too new) on DGX Spark with xformers",
     ("xformers.kernel-arch-mismatch", "xformers")),
    # ignored
    ("The trainer defaults to eager attention for evaluation, so the eval loop of Gemma 3 runs out of memory on a 24 GB card",
     ("app.backend-selection-ignored", None)),
    ("[Bug] SFT with flex_attention OOMs at the eval step because it falls back to eager for generation",
     ("app.backend-selection-ignored", "flex")),
    ("Banner shows FA2 = True, but the GPU memory is exactly the same as in the env without flash-attn (Qwen2.5 7B LoRA)",
     ("app.backend-selection-ignored", "fa2")),
])
def test_round92_mechanism_variants(text, want):
    assert first(text) == want, ids(text)


@pytest.mark.parametrize("text, must_not", [
    # metadata: FA3's and FA4's distributions, another package's metadata, the import name found
    ("importlib.metadata.PackageNotFoundError: No package metadata was found for flash_attn_3", "fa2.missing"),
    ("No package metadata was found for flash-attn-4", "fa2.missing"),
    ("Error checking version for opencv-contrib-python-headless: No package metadata was found for opencv-contrib-python-headless",
     "fa2.missing"),
    ("Found package metadata for flash_attn 2.8.3 in the venv", "fa2.missing"),
    # wrapped: the sentence ended, the next line something else
    ("ValueError: the model does not support an attention implementation\nTraceback (most recent call last):", "transformers.attn-impl-unsupported"),
    # padding: the check's first literal over another library's text
    ("\"You are attempting to perform batched generation with padding_side='right'\"\n\" is fine for the xformers path\"",
     "fa2.generation-right-padding"),
    # launcher: a compile command that is no Triton launcher
    ("Command '['gcc', 'src/mylib.c', '-O3', '-shared', '-o', 'mylib.so']' returned non-zero exit status 1.", "triton.launcher-build"),
    ("gcc cuda_utils.c -O3 -shared -o cuda_utils.so", "triton.launcher-build"),
    # launcher: Inductor's BackendCompilerFailed over a bare main.c stays flex.compile-failed's (its example)
    ("torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\nCalledProcessError: Command '['/usr/bin/gcc', "
     "'/tmp/tmpz/main.c', '-O3', '-shared', '-fPIC']' returned non-zero exit status 1.", "triton.launcher-build"),
    # image: the phrase inside a sentence
    ("is a 'no kernel image is available' error expected on sm_61 with torch 2.6?", "gpu.arch-not-in-torch"),
    # constexpr: another object's missing attribute
    ("AttributeError: 'Tensor' object has no attribute 'bit_length'", "triton.kernel-version-drift"),
    # toonew: the GPU too old stays xformers.gpu-too-old's
    ("`fa2F@0.0.0` is not supported because:\n    requires device with capability > (8, 0) but your GPU has capability (7, 5) (too old)",
     "xformers.kernel-arch-mismatch"),
    # ignored: a user's own switch to eager, an OOM with another cause, eager said of a model that supports nothing else
    ("I switched to eager attention for evaluation and now it works", "app.backend-selection-ignored"),
    ("Training OOMs because the batch size is 64 on a 16 GB card", "app.backend-selection-ignored"),
    ("Unsloth: Gpt_Oss does not support SDPA - switching to eager!", "app.backend-selection-ignored"),
    ("FA2 = True and the VRAM usage dropped from 30 GB to 22 GB", "app.backend-selection-ignored"),
])
def test_round92_near_misses(text, must_not):
    assert must_not not in ids(text), ids(text)


def test_round92_toonew_under_the_operator_list_stays_no_operator():
    """With xformers' "No operator found" list above the reason, the list's entry comes first (as the earlier rounds label it)."""
    text = ("NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:\n"
            "     query       : shape=(1, 4096, 8, 64) (torch.float16)\n"
            "`fa3F@0.0.0` is not supported because:\n"
            "    requires device with capability <= (9, 0) but your GPU has capability (12, 0) (too new)")
    assert first(text) == ("xformers.no-operator", "xformers"), ids(text)


RULED = {"fa2.missing", "transformers.attn-impl-unsupported", "fa2.generation-right-padding", "triton.launcher-build",
         "gpu.arch-not-in-torch", "triton.kernel-version-drift", "xformers.kernel-arch-mismatch", "app.backend-selection-ignored"}


def test_round92_unrelated_logs_are_claimed_by_no_rule_of_ex92():
    """The unrelated logs of the same trackers (failures no attention backend causes) match none of the entries ex92 widened."""
    texts = sorted((ROUND / "unrelated").glob("*.txt"))
    assert len(texts) >= 9
    for p in texts:
        body = p.read_text(encoding="utf-8").split("\n---\n", 1)[1]
        assert not RULED & set(ids(body)), (p.name, ids(body))
