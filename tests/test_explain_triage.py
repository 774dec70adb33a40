"""knowledge/triage.toml: the last resort for a traceback no entry explains. Texts written here (FAKED:
made-up errors in real frame layouts); the real-text rates are tests/test_error_corpus.py's."""

from __future__ import annotations

from attn_doctor import explain
from attn_doctor.knowledge.match import cause, match


def explained(text: str) -> list[tuple[str, str | None]]:
    """(id, backend) of what `attn-doctor explain` says about `text`."""
    return [(m.entry.id, m.backend) for m in explain.match(text)]

UNKNOWN_IN_XFORMERS = (
    "Traceback (most recent call last):\n"
    '  File "/home/u/train.py", line 88, in <module>\n'
    "    out = model(x)\n"
    '  File "/home/u/venv/lib/python3.10/site-packages/xformers/ops/fmha/dispatch.py", line 55, in _run\n'
    '    raise SomeWeirdError("blorp")\n'
    "SomeWeirdError: blorp\n")


def test_the_backend_whose_code_raised_is_named_with_the_exception_line():
    (m,) = match(UNKNOWN_IN_XFORMERS)
    assert m.entry.id == "triage.raised-in-xformers" and m.entry.backend == "xformers"
    assert m.evidence == "SomeWeirdError: blorp" and m.line == 6


def test_only_the_innermost_frame_counts():
    """xformers called, then the user's own code raised: not xformers' error."""
    text = UNKNOWN_IN_XFORMERS.replace("SomeWeirdError: blorp\n", "") + (
        '  File "/home/u/mylib/post.py", line 3, in fix\n    raise SomeWeirdError("mine")\nSomeWeirdError: mine\n')
    assert [m.entry.id for m in match(text) if m.entry.id != "triage.error-names-backend"] == []
    # ...and what explain says (the error-line last resort looks only at the innermost frame, the user's)
    assert explained(text) == []


def test_import_errors_are_left_to_the_import_entries():
    text = ('  File "/venv/lib/python3.11/site-packages/sageattention/core.py", line 20, in <module>\n'
            "    from ._qattn import x\nModuleNotFoundError: No module named 'sageattention._qattn'\n")
    assert not [m for m in match(text) if m.entry.id.startswith("triage.")]


def test_a_specific_cause_wins_and_a_check_never_gets_the_last_resort():
    text = ('  File "/venv/lib/python3.12/site-packages/flash_attn/flash_attn_interface.py", line 90, in _fwd\n'
            "    out = flash_attn_gpu.fwd(q)\nRuntimeError: FlashAttention only supports Ampere GPUs or newer.\n")
    ids = [m.entry.id for m in match(text)]
    assert ids and not ids[0].startswith("triage.")
    assert cause(UNKNOWN_IN_XFORMERS, "", "xformers") is None


# ---- triage.error-names-backend: an error line that names a backend, no traceback needed ------------

def test_an_error_line_naming_a_backend_is_that_backends_last_resort():
    # FAKED: messages no entry knows, in the shapes users post (a bare line, a rank prefix, ComfyUI's)
    assert explained("RuntimeError: FlashAttention-3 wants a contiguous last dim, got stride 2") == \
        [("triage.error-names-backend", "fa3")]
    assert explained("[rank3]: ValueError: sageattn got an unexpected keyword 'smooth_vv'") == \
        [("triage.error-names-backend", "sage")]
    assert explained("!!! Exception during processing !!! xformers.ops.fmha refused the bias layout") == []  # no type
    assert explained("!!! Exception during processing !!! RuntimeError: xformers.ops.fmha refused the bias") == \
        [("triage.error-names-backend", "xformers")]


def test_its_words_name_the_backend_and_its_check():
    (m,) = explain.match("RuntimeError: flash_attn_varlen_func saw cu_seqlens of dtype int64")
    assert m.backend == "fa2" and "FlashAttention 2" in m.title
    assert m.fix.startswith("attn-doctor check --backend fa2 -v")


def test_no_backend_named_on_the_line_or_its_frame_is_no_claim():
    # a config above an unrelated error (the round4b unrelated log LlamaFactory#6214's shape)
    assert explained("### eval\nval_size: 0.1\nflash_attn: fa2\ndeepspeed: ds.json\n\nValueError: Template mllama does not exist.") == []
    # pip's own wrapper lines and a bare "Error:" are no exception line
    assert explained("Building wheel for x\n  Compiling flash_attn kernels\nerror: subprocess-exited-with-error") == []
    # a backend named further down the log is another step's
    assert explained("ValueError: Template mllama does not exist.\nInstalling flash-attn 2.8.3") == []
    # an outer frame through a backend, the innermost one the user's
    text = ("Traceback (most recent call last):\n  File \"/venv/site-packages/sageattention/core.py\", line 9, in sageattn\n"
            "    return hook(q)\n  File \"/home/u/hooks.py\", line 2, in hook\n    raise KeyError(q)\nKeyError: 'q'\n")
    assert explained(text) == []
    # the innermost frame in the backend's code is named (triage.raised-in-sage wins there)
    inner = text.replace('"/home/u/hooks.py"', '"/venv/site-packages/sageattention/hooks.py"')
    assert [i for i, _ in explained(inner)] == ["triage.raised-in-sage"]


def test_a_known_cause_elsewhere_in_the_log_comes_first():
    log = ("RuntimeError: flash_attn_func saw an odd stride\n" + "noise\n" * 200 +
           "ImportError: flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi\n")
    ids = [i for i, _ in explained(log)]
    assert ids[-1] == "triage.error-names-backend" and len(ids) == 2


def test_a_known_cause_on_the_same_line_wins():
    assert [i for i, _ in explained("RuntimeError: FlashAttention only supports Ampere GPUs or newer.")] != \
        ["triage.error-names-backend"]
    assert "triage.error-names-backend" not in [i for i, _ in explained(
        "ModuleNotFoundError: No module named 'flash_attn'")]  # import errors are the import entries'
