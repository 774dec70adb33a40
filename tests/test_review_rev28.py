"""Review of session 28's change (helper rev28): readings the merged helpers' rules gave that a maintainer would call wrong,
each a variant written here (none is a fixture's), failing on main as merged and passing after rev28's mends; near misses
beside them keep what the rules were written for."""

from __future__ import annotations

import pytest


def _read(text: str) -> list[tuple[str, str | None]]:
    from attn_doctor.explain import match

    return [(m.entry.id, m.backend) for m in match(text)]


# 5. cfg116's conda prompt with the environment's whole path: a subshell running a script by its absolute path, its output
# redirected, is no prompt (`>` there redirects); the line stays a command
@pytest.mark.parametrize("line, kept", [
    ("(/opt/kohya/train.sh) > log.txt", "(/opt/kohya/train.sh) > log.txt"),
    ("(~/kohya/train_lora.sh) > train.log 2>&1", "(~/kohya/train_lora.sh) > train.log 2>&1"),
    ("(C:\\kohya\\train.bat) > log.txt", "(C:\\kohya\\train.bat) > log.txt"),
    # near misses: conda's prompts with the environment's path, taken off as before
    ("(H:\\conda_envs\\sd) PS H:\\repo> accelerate launch x.py", "accelerate launch x.py"),
    ("(/opt/envs-x/sd) $ accelerate launch x.py", "accelerate launch x.py"),
    ("(H:\\conda_envs\\sd) H:\\repo>accelerate launch x.py", "accelerate launch x.py"),
])
def test_a_subshell_by_path_before_a_redirection_is_no_prompt(line, kept):
    from attn_doctor.configs import without_prompts

    assert without_prompts(line) == kept

