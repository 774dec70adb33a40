"""Other people's Python that attn-doctor only reads (a training script, a notebook cell, an installed package's file)
is parsed without the warnings compiling it prints: a string like "\\s" that is not raw gives SyntaxWarning on
Python 3.12+ (DeprecationWarning on 3.11) under the name "<unknown>", which a user would see on stderr as attn-doctor's
own fault. Found in the clean-clone CI run of session 14: three users' files of rounds 28 and 31 printed it under pytest."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from attn_doctor.configs import pyscript
from attn_doctor.textutil import parse_python

ROOT = Path(__file__).resolve().parent.parent
# a user's script as written: non-raw regex strings with backslash escapes Python does not know
SCRIPT = ('import re\nfrom transformers import TrainingArguments, Trainer\n'
          'PAT = re.compile("\\s+\\d")\n'
          'args = TrainingArguments(output_dir="o", bf16=True)\n'
          'Trainer(model=None, args=args).train()\n')


def test_the_script_does_warn_when_parsed_plainly():
    """The premise: this Python warns on the script (else the tests below could not fail)."""
    import ast

    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        ast.parse(SCRIPT)
    assert any(issubclass(w.category, (SyntaxWarning, DeprecationWarning)) for w in seen), seen


def test_parse_python_is_quiet_and_still_raises():
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert len(parse_python(SCRIPT).body) == 5
    assert not seen, seen
    with pytest.raises(SyntaxError):
        parse_python("def (:\n")


def test_the_script_reader_is_quiet():
    # recorded, not raised: under "error" a warning becomes a SyntaxError that the reader's repair loop would swallow
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        t = pyscript._parse(SCRIPT)
    assert t is not None and len(t.body) == 5
    assert not [w for w in seen if issubclass(w.category, (SyntaxWarning, DeprecationWarning))], seen


def test_check_config_prints_no_warning(tmp_path):
    """As a user runs it: a fresh interpreter with Python's default warning filters, nothing on stderr about the script."""
    f = tmp_path / "train.py"
    f.write_text(SCRIPT)
    # -W default shows what Python 3.12 shows by default (SyntaxWarning) on 3.11 too (DeprecationWarning), and
    # ResourceWarning: a child's pipe left to the garbage collector (proc.run closed none until session 14)
    r = subprocess.run([sys.executable, "-W", "default", "-m", "attn_doctor", "check", "--config", str(f), "--no-smoke",
                        "--format", "json"],
                       cwd=ROOT, capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode in (0, 1), r.stderr[-2000:]
    assert "invalid escape sequence" not in r.stderr, r.stderr[-2000:]
    assert "Warning" not in r.stderr, r.stderr[-2000:]
