"""Helper ex153 (session 26, issue 23; benchmarks/results/explain-other-engines-s26.md): "flash attention" that is another
engine's own kernel or flag -- the llama.cpp family (LM Studio, Ollama, koboldcpp; GGUF files, ggml quant types, its Vulkan /
Metal devices, llama_context's log, -fa / --flash-attn on|off|auto), an Ascend NPU's fused attention (torch_npu's npu_*attention,
MindIE SD), Triton 2's triton.ops.attention -- names no backend of the seven (attribution.toml [[not_a_report.shadow]]): a fix
that installs the flash-attn package is wrong advice there. Near misses: the flash_attn package's own build or traceback, vLLM's
vllm_flash_attn fork, transformers' flash_attention_2 beside an engine named in passing, and the bare words Ascend / NPU keep
their reading. Every text is written here (none is a fixture's); each positive but two (marked) was read as fa2 at s26start."""

from __future__ import annotations

import pytest

_OTHER_ENGINE = [
    "Gibberish output on Vulkan with Gemma 3 12B\nThe root cause was having flash attention enabled. Without flash attention "
    "the output is fine.",
    "koboldcpp --flashattention produces garbage with a Q4_K_M model\nflash attention breaks the output on my 3060.",
    "Flash attention makes my gguf model output gibberish\nTurning it off fixes it.",
    "llama_context: flash_attn = 1\nllama_context: n_ctx = 8192\nflash attention crashes the server on the second request",
    "开启flash attention后 gguf 模型输出乱码\n关掉就正常了",
    "ggml_metal_init: loaded kernel_flash_attn_ext_f16_h64\nflash attention produces NaN on my M2 with this model",
    "IQ4_XS model crashes when flash attention is on",
    "MindIE SD flash attention operator error on Ascend\nflash_attn raises a shape mismatch in the transformer blocks.",
    "Error with FlashAttention\nI use triton.ops.attention in place of flash_attn_func and it fails when compiling.",
    # (already none at s26start: Ollama's and llama.cpp's own variables and program names)
    "Ollama with OLLAMA_FLASH_ATTENTION=1 crashes on my RX 7900 XTX\nflash attention fails after the first prompt.",
    "llama-server -fa on gives broken output\nflash attention is broken on Vulkan0 with this model.",
]


@pytest.mark.parametrize("text", _OTHER_ENGINE)
def test_another_engines_flash_attention_names_no_backend(text):
    from attn_doctor.explain import match

    named = [(m.entry.id, m.backend) for m in match(text) if m.backend is not None]
    assert named == [], named


def test_an_npu_entry_names_no_flash_attn_package():
    from attn_doctor.explain import match

    found = match("npu_fusion_attention shape mismatch on 910B\nFlash attention fails with a shape mismatch error when running the model.")
    assert [(m.entry.id, m.backend) for m in found][:1] == [("npu.fused-attention-wrong-output", None)]


_FA2_FRAMES = ('Traceback (most recent call last):\n'
               '  File "/venv/lib/python3.10/site-packages/flash_attn/flash_attn_interface.py", line 90, in _flash_attn_forward\n'
               '    out, q, k, v, out_padded, softmax_lse, S_dmask, rng_state = flash_attn_cuda.fwd(\n'
               'RuntimeError: FlashAttention only supports Ampere GPUs or newer.')


@pytest.mark.parametrize("text, first", [
    ("I run gguf models with llama.cpp fine, but my python training script needs flash-attn:\n"
     "$ pip install flash-attn --no-build-isolation\n"
     "      RuntimeError: FlashAttention is only supported on CUDA 11.6 and above.  Note: make sure nvcc has a supported version "
     "by running nvcc -V.\n  ERROR: Failed building wheel for flash-attn", ("build.cuda-too-old", "fa2")),
    ("Vulkan works for my llama.cpp models; this is my PyTorch script on the 2080:\n" + _FA2_FRAMES,
     ("backend.unsupported-gpu", "fa2")),
    ("vllm serve ./model-Q4_K_M.gguf fails\n"
     '  File "/venv/lib/python3.12/site-packages/vllm/vllm_flash_attn/flash_attn_interface.py", line 233, in flash_attn_varlen_func\n'
     "    out, softmax_lse = torch.ops._vllm_fa2_C.varlen_fwd(\nRuntimeError: FlashAttention only supports Ampere GPUs or newer.",
     ("backend.unsupported-gpu", "fa2")),
    ("attn_implementation='flash_attention_2' crashes on my RTX 3090 (I also run Ollama on this box)\n"
     "flash attention fails with illegal memory access", ("prose.crash", "fa2")),
    ("flash attention fails on Ascend 910B\nI cannot get flash-attn to work on this NPU.", ("prose.fails", "fa2")),
])
def test_the_flash_attn_package_beside_an_engine_keeps_its_reading(text, first):
    from attn_doctor.explain import match

    found = match(text)
    assert found and (found[0].entry.id, found[0].backend) == first, [(m.entry.id, m.backend) for m in found]
