"""knowledge/triage.toml: the last resort for a traceback no entry explains. Texts written here (FAKED:
made-up errors in real frame layouts); the real-text rates are tests/test_error_corpus.py's."""

from __future__ import annotations

from attn_doctor.knowledge.match import cause, match

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
    assert [m.entry.id for m in match(text)] == []


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
