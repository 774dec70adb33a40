"""Review of session 28's change (helper rev28): readings the merged helpers' rules gave that a maintainer would call wrong,
each a variant written here (none is a fixture's), failing on main as merged (d4dcb982) and passing after rev28's mends;
near misses beside them keep what the rules were written for."""

from __future__ import annotations

import shutil

import pytest

ANY = object()  # (any backend)


def _read(text: str) -> list[tuple[str, str | None]]:
    from attn_doctor.explain import match

    return [(m.entry.id, m.backend) for m in match(text)]


def read_as(text: str, entry: str, backend) -> None:
    """The first reading of `text` is `entry`, with `backend` (or any: ANY)."""
    got = _read(text)
    assert got[:1] and got[0][0] == entry and backend in (ANY, got[0][1]), got


def not_read_as(text: str, entries: set, backend: str | None) -> None:
    """No reading of `text` is one of `entries` or names `backend`."""
    got = _read(text)
    assert not any(e in entries or (backend is not None and b == backend) for e, b in got), got


# configs: cfg116's conda prompt with the environment's whole path: a subshell running a script by its absolute path, its
# output redirected, is no prompt (`>` there redirects); the line stays a command
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


# explain: ex161's [limit_as_reason]. A limit given as the reason for a choice is context only where another failure is
# reported after it: not where the words after it deny one ("without errors", "no crash"), nor where the failure after it is
# the ruled-out backend's own (the limit said again: "with flash_attention_2 it fails"); the limit is then the report. And
# with nothing reported after it, in the words ex161 reads beside English, it is read as before ex161 (ex161 cleared the
# backend there and the catch-all that read the line was dropped as shadowed).
@pytest.mark.parametrize("text", [
    "Our V100s cannot run flash-attn 2, so we use sdpa. It works without errors but is slow; any plan for Volta support?\n",
    "My T4 doesn't support FlashAttention 2, so I use sdpa for now. No crash, no NaN, just slower. Please add Turing support.\n",
    "My RTX 2080 can't run FlashAttention 2, so I switched to sdpa. With flash_attention_2 it fails right away with an error "
    "about the GPU.\n",
    "V100不支持flash-attn 2，所以改用sdpa。用flash_attention_2的话直接报错。\n",
    "Наши V100 не поддерживают flash-attn 2, поэтому мы используем sdpa. С flash_attention_2 сразу ошибка.\n",
    "Наши V100 не поддерживают flash-attn 2, поэтому мы используем sdpa.\n",
    "V100ではFlashAttention 2が使えないので、SDPAを使っています。\n",
    "Nuestras V100 no soportan flash-attn 2, así que usamos sdpa.\n",
])
def test_where_the_limit_is_the_report_it_is_read(text):
    read_as(text, "backend.unsupported-gpu", ANY)


# near misses: another failure after the denied one, or another program's failure, is the report (ex161's rule holds)
@pytest.mark.parametrize("text", [
    "Our V100s cannot run flash-attn 2, so we use sdpa. No errors at load, but training crashes at step 10:\n"
    "KeyError: 'input_ids'\n",
    "Our V100s cannot run flash-attn 2, so we use sdpa; the error below comes from the tokenizer\n"
    "ValueError: tokenizer.json not found\n",
])
def test_another_failure_after_the_limit_is_the_report(text):
    not_read_as(text, {"backend.unsupported-gpu"}, "fa2")
