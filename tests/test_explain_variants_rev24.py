"""rev24 (session 24): near misses of session 24's explain rules, read as a maintainer would, each a variant of our own.
Each failed on the merged code before its mend (the commit says how it was checked).

1. fa2.missing's "installed" wording (helper ex144's [[line_variant]] near, attribution.toml): a pin in a requirements
   file, an instruction ("make sure flash_attn is installed") or a question ("should we have flash-attn installed?") shows
   nothing installed; the finding keeps its plain title.
2. fa2.wheel-mismatch said in words (helper ex141, versions.toml): a writer who rules the flash-attn / torch mismatch out
   is not told to force-reinstall flash-attn.
3. vLLM's flash-attention fork (helper ex141, triage.toml): its dispatcher picks FA2 or FA3 (fa_version); an error that
   names FA3 raised there is FA3's, never "FlashAttention 2 raised this error".
"""

from __future__ import annotations

import pytest

from attn_doctor.explain import match

NO_MODULE = ("Traceback (most recent call last):\n  File \"app.py\", line 3, in <module>\n    from flash_attn import "
             "flash_attn_func\nModuleNotFoundError: No module named 'flash_attn'")


@pytest.mark.parametrize("text", [
    "My requirements.txt:\ntorch==2.3.0\ntransformers==4.41.0\nflash_attn==2.5.8\n\n" + NO_MODULE,  # a pin: wanted, not shown installed
    "WARNING: make sure flash_attn is installed for the fast path\n" + NO_MODULE,  # an instruction
    "Please ensure flash-attn is installed before running.\n" + NO_MODULE,
    "Should we have flash-attn installed to run this model? I get:\n" + NO_MODULE,  # a question
    "Do I have flash_attn installed? I think not:\n" + NO_MODULE,
    "If we have flash-attn installed, the model uses it. Here:\n" + NO_MODULE,  # a condition
])
def test_fa2_missing_installed_only_where_the_text_shows_it(text):
    found = match(text)
    top = next(m for m in found if m.entry.id == "fa2.missing")
    assert "the text shows it" not in top.title, top.title


@pytest.mark.parametrize("text", [
    "$ pip list | grep flash\nflash_attn 2.5.8\n" + NO_MODULE,  # pip list's row (the space form) still shows it
    "I have flash-attn installed but\n" + NO_MODULE,
    "We have flash-attn installed in the base env.\n" + NO_MODULE,
])
def test_fa2_missing_installed_still_read(text):
    top = next(m for m in match(text) if m.entry.id == "fa2.missing")
    assert "the text shows it" in top.title, top.title


@pytest.mark.parametrize("text", [
    "It is not a version mismatch between torch and flash_attn (I built flash-attn against this torch). The generated images are all black.",
    "I ruled out a compatibility issue between flash-attn and torch; the job dies in the NCCL all-reduce.",
    "There is no ABI mismatch between the installed flash-attn and torch 2.6.0, both from the same build.",
    "This is not caused by your flash-attn and torch versions: the checkpoint itself is corrupted.",
    "The crash isn't due to the flash_attn and torch versions, it is the dataloader.",
])
def test_wheel_mismatch_ruled_out_is_no_reinstall(text):
    assert not any(m.entry.id == "fa2.wheel-mismatch" for m in match(text)), [m.entry.id for m in match(text)]


@pytest.mark.parametrize("text", [
    "It's a version mismatch between torch and flash_attn, nothing in this repo.",
    "The failure is most likely due to your flash-attn and torch versions: pick the wheel built for yours.",
    "The error comes from an ABI mismatch between the installed flash-attn and torch 2.6.0 (cu124).",
])
def test_wheel_mismatch_said_still_read(text):
    assert any(m.entry.id == "fa2.wheel-mismatch" for m in match(text))


VLLM_FA = "/usr/local/lib/python3.12/dist-packages/vllm/vllm_flash_attn/flash_attn_interface.py"


@pytest.mark.parametrize("text", [
    f"  File \"{VLLM_FA}\", line 245, in flash_attn_varlen_func\n    raise AssertionError(\"FA3 is only supported on devices "
    "with compute capability >= 8 excluding 8.6 and 8.9\")\nAssertionError: FA3 is only supported on devices with compute "
    "capability >= 8 excluding 8.6 and 8.9",
    f"  File \"{VLLM_FA}\", line 240, in flash_attn_varlen_func\n    out = _flash_attn_forward(q, k, v)\n"
    "RuntimeError: FA3 only supports head dimension at most 256",
])
def test_vllm_fork_fa3_message_is_not_fa2s(text):
    found = match(text)
    assert not any(m.entry.id == "triage.raised-in-fa2" for m in found), [(m.entry.id, m.backend) for m in found]


def test_vllm_fork_fa2_default_kept():
    text = (f"  File \"{VLLM_FA}\", line 233, in flash_attn_varlen_func\n    out, softmax_lse = torch.ops._vllm_fa2_C.varlen_fwd(\n"
            "RuntimeError: an error no rule knows")
    assert any(m.entry.id == "triage.raised-in-fa2" for m in match(text))


# 4. The prose layer's one-line rule (prose.toml LINE with a failure word and a backend's name) claimed a line whose sentence
# about the backend praises it while another sentence, with its own subject, says what fails; ex143's form head read such a
# sentence under "Describe the bug" past the checklist too. Mended by helper ex147 (session 25): attribution's sentences
# (sentences._praised_removed) blank a praising sentence there, so the line names no failing backend. Variants of our own in
# other words and languages; the near misses below stay the backend's (its own failure in the next sentence, "it", a bare verb,
# its install, another backend named).
PRAISED = [
    "flash-attn works fine. The problem is that the dataloader hangs forever with num_workers=8.",
    "Thanks for flash-attention, it is great. The docs link in the README is broken.",
    "### Checklist\n\n- [x] I have searched related issues but cannot get the expected help.\n\n### Describe the bug\n\n"
    "After upgrading, sage attention is much faster, thanks! However the output video is saved with the wrong frame rate "
    "error in the header.\n\n### Reproduction\n\nrun the workflow",
    "xformers works great on my 3090. The real issue is that the LoRA loader crashes with a KeyError.",
    "SageAttention helps a lot, thanks! Unfortunately the VAE decode step produces a corrupted frame at the end.",
    "FlashAttention 2 没问题。但是数据集的路径在Windows上报错。",
    "flash-attn 运行正常。问题是 tokenizer 加载失败。",
    "FlexAttention funktioniert einwandfrei. Aber der Scheduler stürzt bei Schritt 30 ab.",
    "Flash attention is awesome. My problem: the checkpoint conversion script fails with a shape mismatch.",
]


@pytest.mark.parametrize("text", PRAISED)
def test_praised_backend_is_not_the_failure(text):
    assert not any(m.entry.id.startswith("prose.") for m in match(text)), [(m.entry.id, m.backend) for m in match(text)]


@pytest.mark.parametrize("text, backend", [
    ("flash-attn works fine on A100. It crashes on V100 though.", "fa2"),  # "it": the praised backend's failure
    ("flash-attn works fine in fp16. Crashes in bf16 with illegal memory access.", "fa2"),  # a bare verb: the same subject
    ("Thanks for flash-attention. The installation fails with nvcc error.", "fa2"),  # its own install
    ("SDPA works fine. Flash attention fails with illegal memory access.", "fa2"),  # another backend named: that one's
    ("FA2 works, FA3 crashes on H100.", "fa3"),
    # the backend left out of the run that works: it is the failing one (round 11's TRSA-Comfyui_installer#20, in Russian)
    ("Без sageattention всё работает. При установке ComfyUI падает при запуске.", "sage"),
    ("Without xformers everything works fine. The UI crashes on the first generation.", "xformers"),
    # a negated praise word in another language is no praise ("не работает", "funktioniert nicht")
    ("sageattention не работает. Генерация падает с ошибкой CUDA.", "sage"),
    ("FlexAttention funktioniert nicht. Der Scheduler stürzt bei Schritt 30 ab.", "flex"),
    # a writer's own later sentence ("I rebuilt ...", round 7b's woct0rdho/SageAttention#89): still about the praised backend
    ("Thanks for this great repo for running SageAttention on Windows. I rebuilt the wheel for torch 2.11 and the import fails.", "sage"),
])
def test_praise_beside_the_backends_own_failure_still_read(text, backend):
    found = match(text)
    assert found and found[0].backend == backend, [(m.entry.id, m.backend) for m in found]


# 5. A platform named as absent (accelerators.toml [absent], accelerator.detect): an app's accelerator probe on a CUDA machine
# ("torch_musa not installed, skipping Moore Threads support": ex144's MUSA words, and the older platforms' alike) made the text
# a MUSA / NPU / XPU one, and fa2.missing became fa2.platform-unsupported ("no flash-attn here") for a CUDA user.
def _probe_line(words: str) -> str:
    return f"[app] checking accelerators: {words}\n" + NO_MODULE


@pytest.mark.parametrize("words", [
    "torch_musa not installed, skipping Moore Threads support",
    "torch_npu not installed, skipping Ascend support",
    "intel_extension_for_pytorch not installed, skipping XPU support",
    "MUSA driver not detected, using CUDA",
])
def test_a_platform_said_absent_is_no_evidence(words):
    found = match(_probe_line(words))
    assert found and found[0].entry.id == "fa2.missing", [(m.entry.id, m.backend) for m in found]


@pytest.mark.parametrize("words", [
    "running on Ascend 910B with torch_npu 2.1.0, device npu:0",
    "torch_musa 1.3.0, device musa:0 (MTT S4000)",
])
def test_a_platform_said_present_still_routes(words):
    found = match(_probe_line(words))
    assert found and found[0].entry.id == "fa2.platform-unsupported", [(m.entry.id, m.backend) for m in found]
