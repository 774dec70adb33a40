"""Issue 24 (review): a PowerShell script's reading keeps its state in the script's own frame list, so nothing of one
parse reaches the next (the `if` a lone `}` closed used to be kept in a module-level table keyed by id())."""

from __future__ import annotations

from attn_doctor.configs import shell
from attn_doctor.configs.shell_conditions import Frames


def test_the_closed_if_lives_on_the_frames():
    frames = Frames()
    assert frames.closed is None and Frames().closed is None


def test_one_parse_leaves_nothing_for_the_next():
    first = 'if ($env:USE_SDPA -eq "1") {\n    $attn = "--sdpa"\n}\n'
    second = 'else {\n    $x = 1\n}\naccelerate launch train_network.py --xformers\n'
    alone = [(c.program, c.script, c.args) for c in shell.parse(second).commands]
    shell.parse(first)
    after = [(c.program, c.script, c.args) for c in shell.parse(second).commands]
    assert after == alone
