"""Issue 24 (review): a PowerShell script's reading keeps the `if` a lone `}` closed on the script's own frame list
(shell_conditions.Frames), so an `else {` on the next line continues that `if`, and nothing of it reaches another
script's reading (it used to be kept in a module-level table keyed by id(), which a parse that failed partway left
behind for whatever list next got that id)."""

from __future__ import annotations

from attn_doctor.configs.shell_conditions import Frames, _ps_guarded


def _read(lines, frames):
    env, unsure = {"USE_SDPA": "1"}, set()
    for line in lines:
        _ps_guarded(line, env, frames, unsure)


def test_an_else_after_a_lone_brace_continues_that_if():
    frames = Frames()
    _read(['if ($env:USE_SDPA -eq "1") {', "}"], frames)
    assert frames.closed is not None and frames.closed.get("if")
    _read(["else {"], frames)
    assert len(frames) == 1 and frames.closed is None  # the closed `if` is back, its else branch open


def test_another_scripts_frames_see_nothing_of_it():
    first, other = Frames(), Frames()
    _read(['if ($env:USE_SDPA -eq "1") {', "}"], first)
    _read(["else {"], other)
    assert other.closed is None and not any(f.get("if") for f in other)
