"""Review rev27 (session 27, issue 23): near misses of the session's new explain rules, read as a maintainer would. Every text
is written here (none is a fixture's). Each passed at the session's start (73f8cc35) and failed on a helper's branch as it stood
before the merge (ex156 at f1f184ca); the mends that make them pass again are in the commits that touch this file."""

from __future__ import annotations

import pytest

_CHECK = ("ImportError: This modeling file requires the following packages that were not found in your environment: flash_attn. "
          "Run `pip install flash_attn`")
_MISSING = "ModuleNotFoundError: No module named 'flash_attn'"


def _read(text: str) -> list[tuple[str, str | None]]:
    from attn_doctor.explain import match

    return [(m.entry.id, m.backend) for m in match(text)]


# 1. A machine with a GPU whose text also says "CPU" (device_map="auto" offloading layers, a CPU-only CI job beside the GPU one, a
# test on the CPU before the GPU server, a container started without --gpus first): flash_attn is missing on a GPU machine, and
# installing it is the answer; never "no flash-attn here, use sdpa" (fa2.platform-unsupported), which ex156's [[platform]] cpu
# routes to where the machine has no CUDA device.
@pytest.mark.parametrize("lead, error", [
    ('My GPU only has 8GB, so with device_map="auto" some layers run on CPU.', _CHECK),
    ("The unit tests run on a CPU-only runner and pass; the training job on our cluster fails:", _MISSING),
    ("CI: the lint and tests job on a CPU-only runner is green. The GPU job fails:", _MISSING),
    ("I first tested inference on CPU only, which works. Now on the GPU server:", _MISSING),
    ("Inside docker without --gpus I got: RuntimeError: Found no NVIDIA driver on your system.\nWith --gpus all it starts but:",
     _MISSING),
])
def test_flash_attn_missing_where_a_gpu_is_there_too_is_not_the_cpu_route(lead, error):
    got = [eid for eid, b in _read(lead + "\n" + error) if b == "fa2"]
    assert got and got[0] != "fa2.platform-unsupported", got


# 2. ex156's CHOSEN (a GPU limit given as the reason for a choice) is a choice of another attention, not any "so I ..." clause:
# "so I'm stuck", "so we ran the tests again" choose nothing, and the GPU's refusal stays the report.
@pytest.mark.parametrize("text", [
    "FlashAttention 2 does not support my V100, so I'm stuck.",
    "flash-attn won't run on our T4 cards so we are stuck with the old checkpoint",
    "I installed flash-attn on my V100 machine and it fails, so I ran the tests again with CUDA_LAUNCH_BLOCKING=1.",
])
def test_a_gpu_refusal_followed_by_no_choice_stays_the_gpu_refused(text):
    assert _read(text)[:1] == [("backend.unsupported-gpu", "fa2")], _read(text)


# 3. A backend the writer rules out ("is not an option", "... so we switched to xformers") is cleared only where the failure
# shown is not that backend's own: transformers' refusal of flash_attention_2, FlashAttention's own GPU check, a traceback
# through flash_attn's frames are FlashAttention's failure whatever the sentence above says.
@pytest.mark.parametrize("text", [
    "Apparently flash_attention_2 is not an option for this model:\nValueError: GPT2LMHeadModel does not support Flash Attention "
    "2.0 yet. Please request to add support where the model is hosted",
    "On a T4, flash attention 2 is no option; the error:\nRuntimeError: FlashAttention only supports Ampere GPUs or newer.",
    "flash-attn doesn't support my 2080 Ti so we switched to xformers; but the traceback still goes through flash_attn:\n"
    '  File "/venv/lib/python3.10/site-packages/flash_attn/flash_attn_interface.py", line 90, in _flash_attn_forward\n'
    "RuntimeError: FlashAttention only supports Ampere GPUs or newer.",
])
def test_a_backend_ruled_out_above_its_own_failure_keeps_it(text):
    got = _read(text)
    assert got and got[0][1] == "fa2", got


# 4. Another engine's switch is printed only for that engine's text: a llama.cpp (koboldcpp) report that mentions Ollama in
# passing is not told to set OLLAMA_FLASH_ATTENTION (engines.toml's rows are tried in order over the whole window).
@pytest.mark.parametrize("text", [
    "llama-server -fa on gives garbled output with my Qwen model\nflash attention breaks the output on the second request.\n"
    "With ollama the same model works fine.",
    "koboldcpp --flashattention produces garbage with a Q4_K_M model\nflash attention breaks the output. Ollama is what I use "
    "otherwise.",
])
def test_another_engines_aside_does_not_pick_its_switch(text):
    got = [eid for eid, _ in _read(text)]
    assert "engine.ollama-flash-attention" not in got, got
    assert got[:1] == ["engine.koboldcpp-flash-attention" if "koboldcpp" in text else "engine.llamacpp-flash-attention"], got


# (near misses: a program built on llama.cpp keeps its own switch where its log prints llama.cpp's words nearer the failing line)
@pytest.mark.parametrize("text, entry", [
    ("ollama run gemma3 gives gibberish with OLLAMA_FLASH_ATTENTION=1\n\nWhen I enable flash attention the output is garbage.\n\n"
     "server log:\nllama_model_loader: loaded meta data with 34 key-value pairs\nllama_context: flash_attn = 1",
     "engine.ollama-flash-attention"),
    ("LM Studio 0.3.15: Gemma 3 gives gibberish\n\nruntime: llama.cpp CUDA 1.21\nWhen Flash Attention is enabled the output is "
     "broken.", "engine.lmstudio-flash-attention"),
])
def test_a_program_built_on_llama_cpp_keeps_its_switch(text, entry):
    assert [eid for eid, _ in _read(text)][:1] == [entry], _read(text)


# 5. ex154's GUESS ranks a chatbot's guess after a line that states the failure; a model named like a chatbot (DeepSeek, GPT-2,
# GPT-J) in a report's title is no guess: the title's own failure keeps its rank.
@pytest.mark.parametrize("model", ["DeepSeek-Coder-V2", "gpt2", "Mistral-7B"])
def test_a_model_named_like_a_chatbot_is_no_guess(model):
    text = (f"{model} with flash-attn: CUDA error: no kernel image is available for execution on the device\n\nearlier in the log:\n"
            "UserWarning: xFormers can't load C++/CUDA extensions. xFormers was built for: PyTorch 2.1.0+cu121 with CUDA 1201 (you "
            "have 2.3.0+cu121)")
    assert _read(text)[0] == ("gpu.arch-not-in-torch", "fa2"), _read(text)


# 6. ex156's engine entries answer a failure of the engine's own flash attention with its switch; where the engine says it turned
# flash attention off itself, or that a model has none there, the switch is already off: no entry (ex156 at f1f184ca claimed four
# training unrelated logs of that kind; these are variants of their mechanism, not their texts).
@pytest.mark.parametrize("text", [
    "llama-server with a Gemma 2 GGUF: flash attention is not compatible with attn_soft_cap, forcing it off",
    "llama.cpp warns: flash attention not supported by Vulkan0, memory usage will increase",
    "This GGUF quant does not have flash attention support in ollama yet",
    "koboldcpp: flash attention forced off for this model on CPU",
])
def test_an_engine_turning_its_flash_attention_off_is_no_failure(text):
    assert not [eid for eid, _ in _read(text) if eid.startswith("engine.")], _read(text)


# 7. fa2.no-extension's rebuild sets FLASH_ATTENTION_SKIP_CUDA_BUILD=FALSE: a TRUE left in the environment (a Dockerfile's ENV, a
# lockfile's build env: the case ex154's patterns read) makes flash-attn's setup.py build its Python files alone again, and
# FALSE is its default, so the word changes nothing where it was never set.
def test_the_no_extension_rebuild_undoes_skip_cuda_build():
    from attn_doctor.explain import match

    text = "our Dockerfile sets FLASH_ATTENTION_SKIP_CUDA_BUILD=TRUE\nModuleNotFoundError: No module named 'flash_attn_2_cuda'"
    found = [m for m in match(text) if m.entry.id == "fa2.no-extension"]
    assert found and "FLASH_ATTENTION_SKIP_CUDA_BUILD=FALSE" in found[0].fix, [(m.entry.id, m.fix) for m in match(text)]
