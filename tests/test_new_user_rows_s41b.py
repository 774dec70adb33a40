"""The open rows of ../shared/reports/new-user-2026-12-03.md (helper nu41's trial, session 41), fixed by helper nu41b with
a test each. Faked facts throughout: nothing here imports torch; one test starts a small child (the CLI on binary
input, the process boundary being what row 8 is about)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.each_case import each

ROOT = Path(__file__).resolve().parents[1]


# Row 1's rest: for the OS's own Python (PEP 668), the closing line's fix goes through a new venv ($VENV), but its
# "then: attn-doctor fix --python /usr/bin/python3" named the OS Python again, so the next check judged an env where
# nothing was installed. The line after an install names the venv the install made.
def test_row_1_the_line_after_a_venv_install_checks_that_venv():
    from attn_doctor.render.text import fix_command, next_steps
    from attn_doctor.model import Report
    from attn_doctor.model import Finding
    from attn_doctor.target import Target

    managed = Target(python="/usr/bin/python3", how="--python", has_pip=True, managed=True)
    t = managed.installed_into()
    assert t.shown == '"$VENV"' and not t.managed
    assert Target(python="/usr/bin/python3", how="--python").installed_into().python == "/usr/bin/python3"

    def closing(target, fix):
        f = Finding(id="torch.missing", severity="error", section="platform", title="torch is not installed", fix=fix)
        rep = Report(tool_version="0", findings=[f], facts={"target": target.to_dict()}, backends={}, options={})
        return next_steps(rep)[-1].plain, fix_command(rep)

    venv_fix = ('/usr/bin/python3 -m venv "${VENV:?a new venv}" && "$VENV"/bin/python -m pip install torch')
    line, plain = closing(managed, venv_fix)
    assert line.endswith('then: attn-doctor fix --python "$VENV" lists every fix'), line
    assert plain == "attn-doctor fix --python /usr/bin/python3"  # before the install: the env as checked
    # near misses: a target whose pip installs into itself keeps its own --python after the install
    own = Target(python="/opt/venv/bin/python", how="--python")
    line, _ = closing(own, "/opt/venv/bin/python -m pip install torch")
    assert line.endswith("then: attn-doctor fix --python /opt/venv/bin/python lists every fix"), line
    # and README says the exception in a sentence
    assert 'the line after them checks that venv (`--python "$VENV"`)' in " ".join(
        (ROOT / "README.md").read_text(encoding="utf-8").split())
