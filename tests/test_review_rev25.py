"""Review rev25 (session 25): session 25's changes read as the maintainers of FlashAttention, PyTorch and the trainers would;
each case here is a reading that misled before its mend (the mend's commit says which), with near misses that keep the
author's intent. Every text and file is written for this test."""

from __future__ import annotations

import pytest

from configs_corpus import put, trainer_reading

# 1. cfg104: transformers 4 builds a model loaded with no dtype in torch's default dtype (modeling_utils.py _get_dtype's else
# branch: `default_dtype = torch.get_default_dtype()`), float32 only where the script leaves it; a script that sets another
# (`torch.set_default_dtype(torch.bfloat16)`) does not load float32.
_LOADED = '''import torch
from transformers import AutoModelForSequenceClassification, AutoTokenizer, Trainer, TrainingArguments

{pre}tok = AutoTokenizer.from_pretrained("org/encoder-small")
model = AutoModelForSequenceClassification.from_pretrained("org/encoder-small", num_labels=3)
targs = TrainingArguments(output_dir="runs/cls", per_device_train_batch_size=4, num_train_epochs=1)
Trainer(model=model, args=targs, train_dataset=None, tokenizer=tok).train()
'''


@pytest.mark.parametrize("pre, want", [
    ("", "float32"),  # (cfg104's reading: Trainer(tokenizer=) dates transformers 4, nothing else set)
    ("torch.set_default_dtype(torch.bfloat16)\n", None),
    ("torch.set_default_tensor_type(torch.cuda.HalfTensor)\n", None),
    ("from torch import set_default_dtype\nset_default_dtype(torch.float16)\n", None),
    ("torch.set_default_dtype(torch.float32)\n", "float32"),  # torch's own default said again
])
def test_torch_default_dtype_set_is_no_float32_load(tmp_path, pre, want):
    assert trainer_reading(put(tmp_path, "train.py", _LOADED.format(pre=pre))) == ("transformers", [], want)


# 2. ex147's serving-engine selector (sentences.ENGINE_SELECTOR_STILL): blanked only where the engine is said to still call another
# backend by name; "still uses too much memory" calls none, and the selector stays the line's context (the engine's fault read).
def test_engine_selector_kept_where_no_other_backend_is_still_called():
    from attn_doctor.explain import match

    text = ("I set VLLM_ATTENTION_BACKEND=FLASHINFER and the engine still uses too much memory, then crashes with an illegal "
            "memory access in flashinfer.")
    assert [m.entry.id for m in match(text)][:1] == ["cuda.kernel-fault"], [(m.entry.id, m.backend) for m in match(text)]


# 3. ex147's praise sentences (sentences._praised_removed): a sentence praising a backend beside one that says the run's output is
# black, noise or NaN is still that backend's failure (the output is what its kernel computed: attn.wrong-output / nan-output);
# ex147's own near misses (a VAE step's corrupted frame, a wrong frame rate, a dataloader) keep their own subject.
@pytest.mark.parametrize("text, entry, backend", [
    ("SageAttention is much faster, thanks! However the output video is completely black.", "attn.wrong-output", "sage"),
    ("xformers is great. The output is NaN after the first step though.", "attn.nan-output", "xformers"),
])
def test_praise_beside_a_corrupt_output_is_the_backends(text, entry, backend):
    from attn_doctor.explain import match

    found = match(text)
    assert found and (found[0].entry.id, found[0].backend) == (entry, backend), [(m.entry.id, m.backend) for m in found]


# 4. arch25's exports (configs/shell_exports.py): bash makes a function's `local` / `declare` / `typeset` variables its own (the
# declare builtin: "When used in a function, declare makes each name local, as with the local command, unless the -g option is
# supplied"); they and their export go when it returns. s25start's text regex never read `local -x` as exported; arch25 did.
@pytest.mark.parametrize("text, exported", [
    ("f() {\n  local -x A=1\n}\nf\npython t.py", False),
    ("f() {\n  declare -x A=1\n}\nf\npython t.py", False),
    ("f() {\n  typeset -x A=1\n}\nf\npython t.py", False),
    ("f() {\n  local -x A=1\n  python t.py\n}\nf", True),  # inside the function it is exported
    ("f() {\n  declare -gx A=1\n}\nf\npython t.py", True),  # -g: the global variable
    ("f() {\n  export A=1\n}\nf\npython t.py", True),
    ("export A=1\nf() {\n  local A=2\n}\nf\npython t.py", True),  # the caller's export stays
])
def test_a_functions_own_variables_are_not_exported_after_it(text, exported):
    from attn_doctor.configs import shell

    cmd = next(c for c in shell.parse(text, "run.sh").commands if c.script == "t.py")
    assert ("A" in cmd.exported) is exported


def test_the_script_reads_its_default_where_only_a_function_exported_its_local(tmp_path):
    put(tmp_path, "train.py", "import os\nimport torch\nfrom transformers import AutoModelForCausalLM\n"
        'model = AutoModelForCausalLM.from_pretrained("m", torch_dtype=torch.bfloat16, '
        'attn_implementation=os.environ.get("ATTN_IMPL", "flash_attention_2"))\n')
    # the script's own ATTN_IMPL, never exported; the function exports a local of the same name, gone when it returns
    put(tmp_path, "run.sh", "#!/bin/bash\nATTN_IMPL=sdpa\nsetup() {\n  local -x ATTN_IMPL=eager\n}\nsetup\npython train.py\n")
    assert trainer_reading(tmp_path / "run.sh") == ("transformers", ["fa2"], "bfloat16")


# 5. ex147's trainer.attention-mode-refused (frameworks.toml; musubi-tuner hidream_o1_train.py's `raise ValueError("HiDream-O1 full
# finetuning supports the default attention path and --flash_attn only.")`): the trainer's raised message, not a writer's sentence
# that says where a backend runs, whose own failure (a build) is the reading.
@pytest.mark.parametrize("text, entry, backend", [
    ("Inference supports xformers only on Linux; on Windows pip install xformers fails with a build error", "build.compile-failed",
     "xformers"),
])
def test_a_sentence_on_where_a_backend_runs_is_no_trainer_refusal(text, entry, backend):
    from attn_doctor.explain import match

    found = match(text)
    assert found and (found[0].entry.id, found[0].backend) == (entry, backend), [(m.entry.id, m.backend) for m in found]


# 6. ex148's last resort beside an old GPU (attribution.toml [[specialize]] triage.* -> backend.unsupported-gpu): the GPU refused is
# the one the failure happens on. Where the lines beside it also name a GPU the backend's kernels run on (Ampere or newer), the
# old GPU named there is another machine ("the old T4 box never had this"): the traceback stays the catch-all's, not "your GPU is
# too old" (whose fix is another GPU).
_SITE = "/home/u/venv/lib/python3.10/site-packages/"
_FA2_CUT = ("Traceback (most recent call last):\n"
            f'  File "{_SITE}transformers/modeling_flash_attention_utils.py", line 380, in _flash_attention_forward\n'
            "    attn_output = flash_attn_varlen_func(\n"
            f'  File "{_SITE}flash_attn/flash_attn_interface.py", line 1200, in flash_attn_varlen_func\n'
            "    return FlashAttnVarlenFunc.apply(\n")
_SAGE_CUT = ("Traceback (most recent call last):\n"
             f'  File "{_SITE}sageattention/core.py", line 98, in sageattn\n'
             "    o = attn_false(q_int8, k_int8, v, q_scale, k_scale)\n"
             f'  File "{_SITE}sageattention/attn_qk_int8_per_block.py", line 100, in forward\n'
             "    _attn_fwd[grid](\n")


@pytest.mark.parametrize("text, backend", [
    ("flash-attn crashes on our new RTX 4090 box after the upgrade; the old T4 box never had this.\n" + _FA2_CUT, "fa2"),
    ("Training runs on A100 but crashes inside sageattention (the same job used to run on V100 with sdpa).\n" + _SAGE_CUT, "sage"),
    ("Our H100 node fails here; the V100 node is fine because it never loads flash-attn.\n" + _FA2_CUT, "fa2"),
])
def test_old_gpu_beside_a_supported_one_is_not_the_refused_gpu(text, backend):
    from attn_doctor.explain import match

    found = match(text)
    assert found and found[0].backend == backend and "backend.unsupported-gpu" not in [m.entry.id for m in found], \
        [(m.entry.id, m.backend) for m in found]


def test_old_gpu_alone_is_still_the_refused_gpu():
    from attn_doctor.explain import match

    found = match("flash-attn crashes on our T4 box at the first step.\n" + _FA2_CUT)
    assert found and (found[0].entry.id, found[0].backend) == ("backend.unsupported-gpu", "fa2"), \
        [(m.entry.id, m.backend) for m in found]


# 7. ex149's ADDSUPPORT (prose.toml): a line that asks for support is a request, not a failure the writer met, only where no
# failure is said before the request; "flash-attn fails on RTX 5090, please add support for sm_120" states the failure first.
@pytest.mark.parametrize("text, first", [
    ("flash-attn fails on RTX 5090, please add support for sm_120", ("prose.gpu", "fa2")),
    ("I would like to request support for the new sageattention3 for blackwell gpus", None),  # ex149's request, still refused
])
def test_a_request_after_the_failure_keeps_the_failure(text, first):
    from attn_doctor.explain import match

    found = match(text)
    assert ((found[0].entry.id, found[0].backend) if found else None) == first, [(m.entry.id, m.backend) for m in found]


# 8. Mended by ex153 (session 26): real attention failures in the dress session 25's rules were written against, each read at the
# session's start (b28b8ba1) and lost at s26start. A one-line error string in words under a record's failure key is decoded onto a
# line of its own (match.py _decoded_string, _RECORD_OPENS); a native lead that says an error follows stays where the writer goes on
# in the lead's own script (match.py _NATIVE_WORD): the lead's error word is theirs. Each is read as a GPU finding of the backend
# (prose.gpu at s26start; a GPU below all of a backend's kernels may read backend.unsupported-gpu: ex152's policy).
_LEFT = [
    ('{"status": "failed", "error": "sageattention fails on RTX 2080: no kernel image is available"}', "sage"),
    ("运行报错：flash_attn 在 V100 上", "fa2"),
    ("Ошибка: sageattention на RTX 2080", "sage"),
    ("エラーが出ます：sageattention は RTX 2080 で", "sage"),
    ("[{'job': 7, 'exception': 'flash_attn fails on our V100 nodes'}]", "fa2"),
]
_GPU_FAMILY = ("prose.gpu", "backend.unsupported-gpu", "fa2.arch-check", "sage.arch-kernel")


@pytest.mark.parametrize("text, backend", _LEFT)
def test_left_dressed_failures_still_read(text, backend):
    from attn_doctor.explain import match

    found = match(text)
    assert found and found[0].entry.id in _GPU_FAMILY and found[0].backend == backend, \
        [(m.entry.id, m.backend) for m in found]


# near misses: the dress ex149 cut stays cut (a lead over an English title that names no failure; a record's one-line message or
# status, not a failure's key; a one-word value)
@pytest.mark.parametrize("text", [
    "运行时报错：Add flash attention support for Turing GPUs",
    "Ошибка: Add sageattention support for RTX 2080",
    '{"status": "ok", "message": "sageattention fails on RTX 2080"}',
    '{"status": "failed", "error": "sageattention"}',
    "运行时报错：如何在wan2.2里开启sageattention？",  # a question, a plan's tag: a sentence of its own, not the lead's fragment
    "运行时报错：[Plan] SageAttention 支持",
])
def test_dress_without_the_writers_failure_still_names_none(text):
    from attn_doctor.explain import match

    assert match(text) == [], [(m.entry.id, m.backend) for m in match(text)]


# a sentence of the writer's own after the lead says its failure in its own words: the lead is cut, the sentence's reading stands
def test_a_sentence_after_a_native_lead_keeps_its_own_reading():
    from attn_doctor.explain import match

    found = match("エラーが出ます：xformers を使うと RTX 4090 で黒い画像しか出ません。")
    assert found and (found[0].entry.id, found[0].backend) == ("prose.numbers", "xformers"), [(m.entry.id, m.backend) for m in found]


# ex145's integrated Intel GPU as XPU evidence: a display iGPU beside torch's CUDA device ('torch.cuda.is_available() is True, cuda:0')
# is no XPU machine (accelerators.toml [cuda_device], mended by ex153); without torch's words, or on an XPU torch, it stays XPU
@pytest.mark.parametrize("where, want", [
    ("torch.cuda.is_available() is True, cuda:0 is found.", "nvcc.none"),
    ("`collect_env` says Is CUDA available: True.", "nvcc.none"),
    ("", "fa2.platform-unsupported"),
    ("torch.cuda.is_available() is True on the ROCm 6.2 torch, Radeon RX 7900 beside it.", "nvcc.none"),
])
def test_igpu_beside_a_cuda_device_is_no_xpu_machine(where, want):
    from attn_doctor.explain import match

    text = ("pip install flash-attn fails. Display: Intel UHD Graphics 770 (the monitor is plugged into the motherboard). "
            + where + "\n\n"
            "      raise OSError('CUDA_HOME environment variable is not set. Please set it to your CUDA install root.')\n"
            "  OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.\n")
    found = match(text)
    assert found and found[0].entry.id == want, [(m.entry.id, m.backend) for m in found]


@pytest.mark.parametrize("text", ["export A=1 | cat\npython t.py", "export A=1 &\npython t.py", "export A=1\nenv -i python t.py"])
def test_left_exports_bash_does_not_hand_on(text):
    """A command bash runs in a subshell of its own (a pipeline's part, one sent to the background with &) exports nothing
    to the script's later commands, and `env -i` clears the program's environment (mended by arch26: shell_words.commands_of,
    shell._enter; more variants in tests/test_configs_arch26.py)."""
    from attn_doctor.configs import shell

    cmd = next(c for c in shell.parse(text, "run.sh").commands if c.script == "t.py")
    assert "A" not in cmd.exported
