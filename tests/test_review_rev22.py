"""What review rev22 found in session 22's explain rules (helper ex128's round 122m widening) and mended. Every text was written
by hand for these tests (2026-11-30); each near miss below was claimed (or given the wrong backend, or ranked under a wrong cause)
on main at 194e8077, checked by running this file against that tree.

  fake       compile.custom-op-fake-returns-none claimed any NoneType AttributeError within 2,000 characters of an attention op's
             @...register_fake, also where the pasted fake returns its tensor (the cause it states is then contradicted by the
             text). Now the fake shown must be one with no `return` among its body's lines.
  nan        attn.backend-rounding's new "output does not match" words ranked "expected rounding" first over attn.nan-output for a
             line saying the output is NaN. Now not where the same line says NaN, inf or garbage.
  mha-print  attn.mha-mask-shape's worded pattern claimed a debug print of a working run ("MultiheadAttention attn_mask shape
             torch.Size([...])") in an unrelated log. Now the words, not a value printed after them.
  swiglu     attn.onnx-export-unsupported claimed TorchScript scripting any xformers module (its SwiGLU op) as an attention
             export. Now xformers' attention modules only (ops.fmha, components.attention).
  works      attn.onnx-export-unsupported's "export / convert <backend> to <converter>" words read a report that the export
             works ("... to TensorRT with the plugin and it works", "Successfully converted ..."). Now not with those words.
  capsule    attn.onnx-export-unsupported claimed TorchScript refusing any extension's pybind `fwd` (Mamba's selective_scan_cuda.fwd)
             as flash-attn's. Now a bare fwd / bwd only with flash-attn's extension or interface named in the source excerpt.
  wrapper    attribution.toml read any `<word>_flash_wrapper` as FA2, also an app's wrapper named for torch's own flash kernel
             (sdpa_flash_wrapper), whose frame calls scaled_dot_product_attention. Now not after sdpa_, torch_, xformers_, sage_ ...
  worded     sage.arch-kernel's worded patterns (ex132) read "no sm_120 kernel errors anymore" (a report that it works now);
             build.compile-failed's "no longer builds" (ex128) read "no longer builds a separate wheel" (a release policy). Now not
             before errors / issues / ..., nor before an object of the verb.
  installed  fa2.missing (ex128 widened it to a writer's "even if I have installed flash_attn" over transformers' check_imports
             message) said only that flash_attn is absent; check_imports hides an installed flash_attn whose import fails. The cause
             now says so and names the command that shows the real error.
  fixtitle   prose.fails' fix-title rule (ex130, main 6f976f6e) skipped "Fix typo in ..." but read "Fix the xformers link in the
             install docs" as xformers' failure: the words around a backend now anywhere in the title.
  wheel      install.wheel-fetch-failed (helper ex132, main 9fd7f515) printed a pip line with template words for a file name
             (VERSION, cuXX, abiFALSE fixed): now an unset ${WHEEL:?...} the shell refuses until the user names the guessed file.
"""

from __future__ import annotations

import re

import pytest

from attn_doctor.explain import match
from explain_top import first, ids

FAKE_RETURNS = """Traceback (most recent call last):
  File "/app/nodes.py", line 88, in forward
    mask = attn_mask.to(q.dtype)
AttributeError: 'NoneType' object has no attribute 'to'

My op is registered like this:
```
@sage_attn_op.register_fake
def _(q, k, v, attn_mask=None):
    out = torch.empty_like(q)

    return out
```
"""

# the same report whose pasted fake builds its tensor and returns nothing: the entry's case
FAKE_NO_RETURN = FAKE_RETURNS.replace("    out = torch.empty_like(q)\n\n    return out\n", "    torch.empty_like(q)\n")

# the fake first, then the error; a decorator stacked over the def, a signature on two lines
FAKE_FIRST_NO_RETURN = """@flash_varlen_op.register_fake
@torch.no_grad()
def _(q, k, v, cu_seqlens_q, cu_seqlens_k,
      max_seqlen=(0, 0)):
    q.new_empty(q.shape)

torch.compile(model) then: AttributeError: 'NoneType' object has no attribute 'reshape'
"""
FAKE_FIRST_RETURNS = FAKE_FIRST_NO_RETURN.replace("    q.new_empty(q.shape)\n", "    o = q.new_empty(q.shape)\n    return o\n")


def test_fake_that_returns_is_not_the_cause():
    assert "compile.custom-op-fake-returns-none" not in ids(FAKE_RETURNS)
    assert "compile.custom-op-fake-returns-none" not in ids(FAKE_FIRST_RETURNS)


def test_fake_without_return_stays():
    assert first(FAKE_NO_RETURN)[0] == "compile.custom-op-fake-returns-none"
    assert first(FAKE_FIRST_NO_RETURN)[0] == "compile.custom-op-fake-returns-none"


@pytest.mark.parametrize("text", [
    "flash_attn output does not match the eager reference: the flash output is all NaN for batch 3 (head_dim 256, causal)",
    "There is a mismatch between the outputs of sageattn and sdpa: sage gives inf in half the heads",
])
def test_nan_output_is_not_rounding(text):
    assert "attn.backend-rounding" not in ids(text), ids(text)


def test_does_not_match_without_nan_stays_rounding():
    assert first("flash_attn output does not match the eager reference in bf16 (max abs diff 4e-3)")[0] == "attn.backend-rounding"


MHA_PRINT = """[debug] MultiheadAttention attn_mask shape torch.Size([8, 77, 77]) dtype torch.bool
Epoch 1: loss 2.31
Traceback (most recent call last):
  File "train.py", line 12, in <module>
    data = load("missing.csv")
FileNotFoundError: [Errno 2] No such file or directory: 'missing.csv'
"""


def test_mha_mask_shape_printed_value_is_not_claimed():
    assert "attn.mha-mask-shape" not in ids(MHA_PRINT)
    assert "attn.mha-mask-shape" not in ids("nn.MultiheadAttention: attn_mask shape = (2, 16, 16)")


def test_mha_mask_shape_words_stay():
    assert first("MultiheadAttention forward shape of attn_mask")[0] == "attn.mha-mask-shape"


XF_SWIGLU = """RuntimeError:
Module 'SwiGLU' has no attribute 'op' :
'SwiGLU.forward' is being compiled since it was called from '__torch__.xformers.ops.swiglu_op.SwiGLU'
"""


def test_scripting_xformers_swiglu_is_no_attention_export():
    assert "attn.onnx-export-unsupported" not in ids(XF_SWIGLU)


def test_scripting_xformers_attention_module_stays():
    text = "'AttentionMask.__add__' is being compiled since it was called from '__torch__.xformers.components.attention.attention_mask.AttentionMask'"
    assert first(text)[0] == "attn.onnx-export-unsupported"


MAMBA_CAPSULE = """torch.jit.script(mamba_block) fails:
RuntimeError: Python builtin <built-in method fwd of PyCapsule object at 0x7f11d2a3b0f0> is currently not supported in Torchscript:
"""
FLASH_CAPSULE = MAMBA_CAPSULE.replace("mamba_block", "attn_block") + (
    '  File "/opt/conda/lib/python3.10/site-packages/flash_attn/flash_attn_interface.py", line 91\n'
    "    out, q, k, v, out_padded, softmax_lse, S_dmask, rng_state = flash_attn_cuda.fwd(\n")


def test_scripting_another_extensions_fwd_is_not_attention():
    assert "attn.onnx-export-unsupported" not in ids(MAMBA_CAPSULE)


def test_scripting_flash_attn_fwd_stays():
    assert first(FLASH_CAPSULE) == ("attn.onnx-export-unsupported", "fa2")


SDPA_WRAPPER = """Traceback (most recent call last):
  File "/app/patches.py", line 40, in sdpa_flash_wrapper
    return torch.nn.functional.scaled_dot_product_attention(q, k, v, **kw)
TypeError: patch.<locals>.sdpa_flash_wrapper() got an unexpected keyword argument 'enable_gqa'
"""


def test_wrapper_named_for_sdpas_flash_kernel_is_not_fa2():
    assert first(SDPA_WRAPPER)[0] == "attn.api-mismatch" and first(SDPA_WRAPPER)[1] != "fa2", first(SDPA_WRAPPER)


def test_wrapper_named_for_flash_attn_stays_fa2():
    assert first("TypeError: do_hijack.<locals>.rocm_flash_wrapper() got an unexpected keyword argument 'scale'") == ("attn.api-mismatch", "fa2")


# A value attn-doctor cannot know stays an unset ${VAR:?...} word the shell refuses (README, "Install"), not a word that looks like
# part of a file name: install.wheel-fetch-failed printed `pip install ./flash_attn-VERSION+cuXXtorchX.Ycxx11abiFALSE-...whl`,
# with the C++ ABI tag fixed to FALSE (a wheel of the other ABI installs and fails at import).
TEMPLATE_WORD = re.compile(r"\bVERSION\b|[a-z0-9]XX\b|\bX\.Y\b")


def test_no_fix_command_keeps_a_template_word():
    from attn_doctor.knowledge import entries

    bad = []
    for e in entries().values():
        for line in (e.fix or "").splitlines():
            command = re.sub(r"\$\{\{[^}]*\}\}|\$\{[^}]*\}", "", line.split("   #")[0])
            if TEMPLATE_WORD.search(command):
                bad.append((e.id, command))
    assert not bad, bad


# sage.arch-kernel's worded patterns (helper ex132) read "no sm_120 kernel" in a report that it now works; build.compile-failed's
# "no longer builds" (helper ex128) read a release policy ("no longer builds a separate wheel").
@pytest.mark.parametrize("text, must_not", [
    ("Updated to sageattention 2.2.0 and now there are no sm_120 kernel errors anymore, thanks! Closing.", "sage.arch-kernel"),
    ("Note: FA2 no longer builds a separate wheel for torch 2.3; use the cu12torch2.4 wheel.", "build.compile-failed"),
])
def test_worded_patterns_do_not_read_a_resolution_or_a_policy(text, must_not):
    assert must_not not in ids(text), ids(text)


@pytest.mark.parametrize("text, want", [
    ("my sageattention 2.2.0 build has no sm89 kernel, only sm80", "sage.arch-kernel"),
    ("FlashAttention 3 no longer builds with CUTLASS 4.1", "build.compile-failed"),
])
def test_worded_patterns_keep_their_case(text, want):
    assert first(text)[0] == want, ids(text)


def test_fa2_missing_says_what_an_installed_flash_attn_behind_check_imports_means():
    """ex128 let fa2.missing ('neither ... is installed here') read a writer who says flash_attn IS installed, over transformers'
    check_imports message; that message hides an import that fails (older transformers: any ImportError; newer: 'No module named'
    raised inside flash_attn). The cause says so and how to see the real error, in the environment the code runs in."""
    from attn_doctor.knowledge import entries

    cause = entries()["fa2.missing"].cause
    assert "check_imports" in cause and 'python -c "import flash_attn"' in cause, cause


# ex131 decodes an error inside a JSON or repr string onto lines of its own; the lines it added were counted as the input's,
# so every finding after such a line was shown some lines further down (in a 4-line file: "line 11"), and one inside it on a
# line the input does not have. Now each is shown on the input's own line: the decoded string's on the line that holds it.
JSON_THEN_ERROR = """starting job
{"status": "failed", "error": "Traceback (most recent call last):\\n  File \\"a.py\\", line 1, in <module>\\n    import foo\\n  File \\"foo.py\\", line 2, in <module>\\n    x = 1\\nValueError: bad value"}
retrying on GPU 1
RuntimeError: FlashAttention only supports Ampere GPUs or newer.
"""
JSON_ERROR_INSIDE = """job 7 on node-3
retrying
{"status": "failed", "error": "Traceback (most recent call last):\\n  File \\"train.py\\", line 9, in <module>\\n    import flash_attn\\n  File \\"/venv/lib/python3.11/site-packages/flash_attn/__init__.py\\", line 3, in <module>\\n    from flash_attn.flash_attn_interface import flash_attn_func\\nImportError: /venv/lib/python3.11/site-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi"}
done
"""


def test_a_finding_after_a_decoded_json_string_keeps_its_input_line():
    from attn_doctor.explain import examine

    r = examine(JSON_THEN_ERROR)
    assert r.lines == 4
    got = r.found  # (backend.unsupported-gpu, FA2's words)
    assert got and got[0].line == 4 and all(n <= 4 for n in got[0].lines), [(m.entry.id, m.line, m.lines) for m in r.found]
    assert got[0].named_by is None or got[0].named_by.line == 4


def test_a_finding_inside_a_decoded_json_string_is_on_the_line_that_holds_it():
    from attn_doctor.explain import examine

    r = examine(JSON_ERROR_INSIDE)
    assert r.found and r.lines == 4
    assert all(m.line == 3 and set(m.lines) <= {3} for m in r.found), [(m.entry.id, m.line, m.lines) for m in r.found]


# attn.onnx-export-unsupported's "export / convert <backend> to <converter>" words (ex128) read a report that the export works.
@pytest.mark.parametrize("text", [
    "I exported the FlashAttention layers to TensorRT with the plugin and it works; now the question is about batch size.",
    "Converting xformers attention into ONNX works fine since 0.0.28 (opset 17).",
    "Successfully converted the flash_attn_func call into ONNX after the patch.",
])
def test_an_export_that_works_is_no_export_failure(text):
    assert "attn.onnx-export-unsupported" not in ids(text), ids(text)


# prose.fails' fix-title rule (ex130) skipped a fix of the words around a backend only when they came first ("Fix typo in ...");
# the same words later in the title ("Fix the xformers link in the install docs") were read as the backend's failure.
@pytest.mark.parametrize("text", [
    "Fix the xformers link in the install docs",
    "Fix FlexAttention benchmark numbers in the README",
])
def test_a_fix_of_the_words_around_a_backend_is_no_failure(text):
    assert [m.entry.id for m in match(text + "\n\nThe change is below.\n") if m.entry.id.startswith("prose.")] == []
