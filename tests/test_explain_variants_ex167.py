"""Helper ex167 (session 29, issue 23: "<= 2 s for 50 MB"): the patterns benchmarks/explain_backtracking.py named at s29start
(tests/test_explain_long_lines.py test_no_pattern_backtracks_more_than_linearly_on_a_long_line), mended so that one text splits
between their repeats one way. Each mend reads the same texts as before, its entry's own and the variants here, except the
`changed` ones: texts nobody prints, that the old pattern read only by splitting a word or a line the new one reads whole (each
read the other way at s29start, checked against /work/wt/s29start). Every text is written here."""

from __future__ import annotations

import pytest

from attn_doctor.knowledge import compile_pattern, entries

NO_KERNEL = "\nok\nRuntimeError: CUDA error: no kernel image is available for execution on the device"
QWEN = "ValueError: Qwen-Image LoRA training supports "


def _reads(entry_id: str, text: str) -> bool:
    return any(compile_pattern(p).search(text) for p in entries()[entry_id].patterns)


@pytest.mark.parametrize("entry_id, text", [
    ("trainer.attention-mode-refused", QWEN + "--sdpa, flash_attn and xformers only."),
    ("trainer.attention-mode-refused", QWEN + "--sdpa, sage_attention or --flash_attn only."),
    ("trainer.attention-mode-refused", QWEN + "flash_attnand xformers only."),  # (the first name is read as before)
    ("xformers.replaced-torch", "Resolved 40 packages\n - torch==2.5.1\n + torch==2.6.0\n + xformers==0.0.29"),
    ("xformers.replaced-torch", "Prepared 3 packages\n - torch==2.5.1+cu121\n + torch==2.6.0\n + triton==3.2.0\n + xformers==0.0.29.post2"),
    ("build.arch-list-leaves-out-gpu", "$ TORCH_CUDA_ARCH_LIST='8.0 8.6' pip install sageattention" + NO_KERNEL),
    ("build.arch-list-leaves-out-gpu", "$ TORCH_CUDA_ARCH_LIST='" + "8.0 " * 40 + "' pip install sageattention" + NO_KERNEL),
    ("build.arch-list-leaves-out-gpu", "$ FLASH_ATTN_CUDA_ARCHS=80 MAX_JOBS=8 pip install flash-attn" + NO_KERNEL),
    ("transformers.helper-moved", "Failed to import transformers.models.llama.modeling_llama because of the following error "
                                  "(look up to see its traceback):\ncannot import name 'is_flash_attn_greater_or_equal_2_10'"),
    ("transformers.helper-moved", "Failed to import transformers.models.llama.modeling_llama because of the following error "
                                  "(look up to see its traceback): cannot import name 'is_flash_attn_greater_or_equal_2_10'"),
    ("attn.native-crash", "Segmentation fault\n#3  0x00007f in launch from /venv/lib/python3.11/site-packages/sageattention/"
                          "_qattn_sm80.cpython-311-x86_64-linux-gnu.so"),
    ("attn.native-crash", "Segmentation fault\n#3  0x00007f in launch from /venv/site-packages/sageattention/core/x.so"),
    ("attn.native-crash", "Segmentation fault\n#3  0x00007f in launch from C:\\venv\\site-packages\\sageattention\\x.pyd"),
    ("app.package-as-node", "Cannot import /ComfyUI/custom_nodes/sageattention-2.1.1 module for custom nodes: No module named 'x'"),
    ("app.package-as-node", "Cannot import /ComfyUI/custom_nodes/sageattention-2.1. module for custom nodes: No module named 'x'"),
    ("fa2.wheel-mismatch", "The flash_attn wheel does not match my torch:\nundefined symbol\nC++11 ABI of torch"),
    ("fa2.wheel-mismatch", "The flash_attn wheel does not match my torch: the C++11 ABI of torch differs"),
    ("fa2.wheel-mismatch", "The flash_attn wheel does not match my torch:\n\nC++11 ABI of torch"),
])
def test_a_mended_pattern_reads_what_it_read(entry_id, text):
    assert _reads(entry_id, text)


@pytest.mark.parametrize("entry_id, text", [
    ("fa2.wheel-mismatch", "The flash_attn wheel does not match my torch:\nabc\ndef\nC++11 ABI of torch"),  # three lines down
    ("attn.native-crash", "Segmentation fault\n#3  0x00007f in launch from /venv/site-packages/sageattention/x.txt"),
])
def test_a_mended_pattern_reads_no_more(entry_id, text):
    assert not _reads(entry_id, text)


@pytest.mark.parametrize("entry_id, text", [
    # a second name glued to `and`: the repeated list's names are read whole (`\w*\b`), as the first one's are not split either
    ("trainer.attention-mode-refused", QWEN + "--sdpa, flash_attnand xformers only."),
    # the new torch and xformers on one line: uv and pip print each package on its own line
    ("xformers.replaced-torch", "Resolved 40 packages\n - torch==2.5.1\n + torch==2.6.0 + xformers==0.0.29"),
    # an arch list of more than 128 characters without a blank (there are fewer than 20 CUDA architectures)
    ("build.arch-list-leaves-out-gpu", "$ TORCH_CUDA_ARCH_LIST=" + ";".join(["8.0"] * 40) + " pip install sageattention"
     + NO_KERNEL),
])
def test_changed(entry_id, text):
    assert not _reads(entry_id, text)


@pytest.mark.parametrize("head, said", [
    ("FlashAttention 2 on my 4090 has no performance penalty at all\n", False),
    ("FlashAttention 2 on my 4090 has no penalty at all\n", False),
    ("FlashAttention 2 on my 4090 has no real speed penalty at all\n", False),
    ("FlashAttention 2 on my 4090 has no\nperformance penalty at all\n", False),
])
def test_a_line_that_says_it_costs_nothing_is_still_no_gpu_limit(head, said):
    """prose.toml NOCOST (a line that says the backend costs nothing is no report of a GPU limit): its words read whole."""
    from attn_doctor.explain import match

    assert any(m.entry.id == "prose.gpu" for m in match(head + "Thanks for the great work.\n")) is said
