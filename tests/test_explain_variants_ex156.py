"""Helper ex156 (session 27, issue 23; benchmarks/results/explain-leftovers-s27.md): review rev26's unmended readings in explain,
another engine's own flash attention worded, and advice that does no harm. Every text is written here (none is a fixture's); the
positives were read as the backend's failure at s27start (checked against /work/wt/s27start)."""

from __future__ import annotations

import pytest


def _read(text: str) -> list[tuple[str, str | None]]:
    from attn_doctor.explain import match

    return [(m.entry.id, m.backend) for m in match(text)]


# 1a. ex153's llama.cpp-family words that are said of other things too (a Vulkan device, a ggml quant type, a GGUF file) name the
# engine only in the failing line's own block (attribution.toml [[not_a_report.shadow]] `near`, refusals._near_block), not in a
# paragraph of their own below or above a real flash-attn report.
@pytest.mark.parametrize("text, first", [
    ("flash-attn fails on my RTX 3090 with NaN loss after the first step.\n\nUnrelated, but my games run on Vulkan fine.",
     ("attn.nan-output", "fa2")),
    ("flash attention doesn't work on my 4090, the loss is NaN\n\nsystem: Ubuntu 22.04\nvulkaninfo lists Vulkan0: NVIDIA GeForce "
     "RTX 4090", ("attn.nan-output", "fa2")),
    ("flash-attn 2 fails to import on my H100.\n\nBTW the same model as a GGUF Q8_0 works.", ("prose.gpu", "fa2")),
    ("I quantized an older model to Q4_K_M last year.\n\nflash-attn 2 fails to import on my H100.", ("prose.gpu", "fa2")),
])
def test_engine_words_in_a_paragraph_of_their_own_keep_the_report(text, first):
    got = _read(text)
    assert got[:1] == [first], got


# (near misses both ways: the engine's words in the failing line's own block still name it; a flash_attn traceback beside a
# GPU list naming a Vulkan device keeps fa2)
@pytest.mark.parametrize("text", [
    "Gibberish output on Vulkan with Gemma 3 12B\nThe root cause was having flash attention enabled.",
    "llama-server -fa on gives broken output\nflash attention is broken on Vulkan0 with this model.",
    "IQ4_XS model crashes when flash attention is on",
    "My Q5_K_M model:\nflash attention makes the output gibberish",
])
def test_engine_words_in_the_failing_block_still_name_the_engine(text):
    assert [b for _, b in _read(text) if b is not None] == [], _read(text)


def test_flash_attn_traceback_beside_a_vulkan_device_list_keeps_fa2():
    text = ("Devices:\n  Vulkan0: NVIDIA GeForce RTX 2080 Ti\n  CUDA0: NVIDIA GeForce RTX 2080 Ti\n"
            "Traceback (most recent call last):\n"
            '  File "/venv/lib/python3.10/site-packages/flash_attn/flash_attn_interface.py", line 90, in _flash_attn_forward\n'
            "    out, q, k, v, out_padded, softmax_lse, S_dmask, rng_state = flash_attn_cuda.fwd(\n"
            "RuntimeError: FlashAttention only supports Ampere GPUs or newer.")
    got = _read(text)
    assert got and got[0][1] == "fa2", got


# 1b. transformers' import check for flash_attn on a machine with no CUDA device ([[platform]] cpu, accelerators.toml): no
# flash-attn build runs there, so the answer is SDPA / eager (fa2.platform-unsupported), never `attn-doctor fix --require fa2`.
_CHECK = ("ImportError: This modeling file requires the following packages that were not found in your environment: flash_attn. "
          "Run `pip install flash_attn`")


@pytest.mark.parametrize("lead", [
    "I run the model on CPU only (no GPU on this laptop).",
    'model = AutoModelForCausalLM.from_pretrained(path, device_map="cpu", trust_remote_code=True)',
    ">>> torch.cuda.is_available()\nFalse",
    "torch.cuda.is_available() returns False on this server",
    "RuntimeError: No CUDA GPUs are available",
    "We don't have a GPU, this is a CPU-only machine.",
])
def test_flash_attn_missing_on_a_cpu_machine_is_no_install(lead):
    from attn_doctor.explain import match

    found = [m for m in match(lead + "\n" + _CHECK) if m.backend == "fa2"]
    assert [m.entry.id for m in found] == ["fa2.platform-unsupported"], [(m.entry.id, m.fix) for m in found]
    assert "--require fa2" not in (found[0].fix or "") and "sdpa" in (found[0].fix or "")


@pytest.mark.parametrize("lead", [
    "",
    "Running on an RTX 4090.",
    # (a CUDA GPU named beside the absence words: the CPU build of torch on a GPU machine, or a container without --gpus: stays)
    "torch.cuda.is_available() returns False on my RTX 3090 box",
])
def test_flash_attn_missing_on_a_gpu_machine_keeps_its_plan(lead):
    from attn_doctor.explain import match

    found = match((lead + "\n" if lead else "") + _CHECK)
    assert found and found[0].entry.id == "fa2.missing", [(m.entry.id, m.fix) for m in found]


def test_cpu_build_of_torch_keeps_its_own_fix():
    from attn_doctor.explain import match

    found = match(">>> torch.cuda.is_available()\nFalse\nAssertionError: Torch not compiled with CUDA enabled")
    assert found and found[0].entry.id == "torch.cpu-build", [(m.entry.id, m.fix) for m in found]
    assert found[0].fix == found[0].entry.fix or "cu1" in (found[0].fix or "") or "CUDA" in (found[0].fix or ""), found[0].fix


# 1c. a GPU limit stated as the reason for a choice (the backend ruled out, another one chosen) beside a different error is
# context, not the failure (refusals.EXONERATED's "is not an option", SWITCHED; attribution.toml GPUSENTENCE's CHOSEN).
@pytest.mark.parametrize("text", [
    "The T4 can't run bf16 so FA2 is not an option; my error is a dtype mismatch",
    "The T4 can't run bf16 so FA2 is not an option; my error is a dtype mismatch:\nRuntimeError: expected scalar type Half but "
    "found Float",
    "FlashAttention 2 isn't an option on the Colab T4, so I went with eager attention, but the loss is NaN after 50 steps.",
    "flash-attn doesn't support my 2080 Ti so we switched to xformers; now the training crashes with CUDA out of memory.",
    "Our V100s cannot run flash-attn 2, so we use sdpa; the error below comes from the tokenizer.\nValueError: Asking to pad but "
    "the tokenizer does not have a padding token.",
])
def test_a_limit_given_as_the_reason_for_a_choice_is_no_failure_of_the_backend(text):
    assert [(i, b) for i, b in _read(text) if b == "fa2"] == [], _read(text)


@pytest.mark.parametrize("text", [
    "FA2 fails on my T4",
    "flash-attn 2 does not work on my T4: FlashAttention only supports Ampere GPUs or newer.",
    "Is FA2 not an option on a T4?",
    "flash-attn fails on my V100, so is sdpa the only option?",
    # (a failure, not a limit, before the switch: the report may be about it)
    "flash-attn crashed with an illegal memory access on my T4, so I switched to sdpa",
])
def test_the_backend_refused_on_the_old_gpu_stays(text):
    got = _read(text)
    assert got and got[0][1] == "fa2", got


# 2. another engine's own flash attention, worded (knowledge/engines.toml; attribution.toml [[engine_flash]]): the engine's entry,
# whose fix is the engine's own switch, never the flash-attn package; no backend of the seven named.
@pytest.mark.parametrize("text, entry, switch", [
    ("llama-cli -m gemma-3-12b-it-Q4_K_M.gguf -fa on\nflash attention produces garbage tokens after 2k context", "engine.llamacpp-flash-attention",
     "--flash-attn off"),
    ("ggml_vulkan: Found 1 Vulkan devices:\nWith flash attention enabled the model answers in gibberish.", "engine.llamacpp-flash-attention",
     "--flash-attn off"),
    ("ollama run qwen3:14b crashes since I set OLLAMA_FLASH_ATTENTION=1\nflash attention error: the runner stopped",
     "engine.ollama-flash-attention", "OLLAMA_FLASH_ATTENTION=0"),
    ("Ollama 0.6 on my 3060: flash attention fails to load the model", "engine.ollama-flash-attention", "OLLAMA_FLASH_ATTENTION=0"),
    ("LM Studio crashes when I enable flash attention on the CUDA runtime", "engine.lmstudio-flash-attention", "flashAttention: false"),
    ("koboldcpp 1.80 with --flashattention crashes on my RX 6800 with Vulkan", "engine.koboldcpp-flash-attention",
     "without --flashattention"),
    ("npu_fusion_attention on the 910B: flash attention fails with a shape error", "engine.npu-flash-attention", "torch_npu"),
])
def test_another_engines_flash_attention_gets_its_own_switch(text, entry, switch):
    from attn_doctor.explain import match

    found = match(text)
    assert found and found[0].entry.id == entry and found[0].backend is None, [(m.entry.id, m.backend) for m in found]
    assert switch in (found[0].fix or "") and "pip install flash" not in (found[0].fix or ""), found[0].fix


@pytest.mark.parametrize("text", [
    # the flash_attn package's own traceback beside llama.cpp's words: the package (the shadow's `own`)
    "I also run llama.cpp with -fa on, but this is my PyTorch script:\n" + (
        'Traceback (most recent call last):\n'
        '  File "/venv/lib/python3.10/site-packages/flash_attn/flash_attn_interface.py", line 90, in _flash_attn_forward\n'
        '    out, q, k, v, out_padded, softmax_lse, S_dmask, rng_state = flash_attn_cuda.fwd(\n'
        'RuntimeError: FlashAttention only supports Ampere GPUs or newer.'),
    "flash_attention_2 fails on my RTX 3090 (I also run Ollama on this box)\nflash attention fails with illegal memory access",
    # a report of speed: the engine's flash attention trade, not a failure ([engine_flash_not])
    "Ollama got much slower since 0.6; setting OLLAMA_FLASH_ATTENTION=0 gives the old tokens/s back. flash attention fails to help.",
    # no engine word at all: the sentence readers' own reading
    "flash attention fails on my RTX 3090 with NaN loss",
])
def test_no_engine_entry_without_the_engines_flash_attention(text):
    assert not [i for i, _ in _read(text) if i.startswith("engine.")], _read(text)


# 3. explain's time on long lines (benchmarks/explain_longlines.py): lines of 2 KB nvcc commands, each naming flash_attn and holding
# "build/temp...", ran build.no-ninja's slow-build patterns in every window (re's parser had taken the common "h" out of
# "hours|hrs", leaving no hours literal for the matcher's factors): 5 MB stalled explain for minutes. The patterns now hold the
# hours phrase's words as a literal group, and 300 such lines are read in well under a second of CPU.
def test_slow_build_patterns_hold_the_hours_words_as_a_literal_group():
    from attn_doctor.knowledge import entries
    from attn_doctor.knowledge.match import factors

    slow = [p for p in entries()["build.no-ninja"].patterns if "hours" in p and "build(?:ing|s)?" in p]
    assert len(slow) == 2
    for p in slow:
        assert any("hours" in g for g in factors(p)), factors(p)


def test_nvcc_command_lines_are_read_in_linear_time():
    import sys
    import time
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from explain_longlines import BUILD_ERROR, nvcc_line
    from attn_doctor.explain import match

    text = "\n".join(nvcc_line(i, 2048) for i in range(300)) + "\n" + BUILD_ERROR
    match("warm-up")
    t0 = time.process_time()
    found = match(text)
    assert time.process_time() - t0 < 2.5  # (s27start: about 4 s of CPU; this tree: about 0.4 s)
    assert found
