"""Review mends of session 28 (helper rev28b): what review rev28 found and left, each a variant written here (none is a
fixture's), failing on main (08fd26e8) and passing after; near misses beside them keep what the rules were written for."""

from __future__ import annotations

import shutil

import pytest

from tests.test_review_rev28 import ANY, not_read_as, read_as


# explain: ex161's [limit_as_reason]. The chosen backend failing after the limit, in words with no exception quoted ("so we
# use xformers. But xformers also fails on it"), is that backend's report: main read nothing (the limit's sentence dropped
# as context, the catch-all of the failure's words shadowed by it)
@pytest.mark.parametrize("text", [
    "Our T4 cannot run flash-attn 2, so we use xformers. xformers also fails on the T4 with an error.\n",
    "Our T4 cannot run flash-attn 2, so we use xformers.\nBut xformers also crashes on it.\n",
])
def test_the_chosen_backends_failure_after_the_limit_is_read(text):
    read_as(text, "backend.unsupported-gpu", "xformers")


# near miss: an exception quoted below is read by its own entry (another program's failure after the limit, and the
# writer's own under a template's heading: tests/test_review_rev28.py, test_another_failure_after_the_limit_is_the_report)
@pytest.mark.parametrize("text, entry, backend", [
    ("Our T4 cannot run flash-attn 2, so we use xformers. But xformers also fails with an error:\n"
     "NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:\n",
     "xformers.no-operator", "xformers"),
])
def test_a_quoted_exception_after_the_limit_is_read_by_its_entry(text, entry, backend):
    read_as(text, entry, backend)
    not_read_as(text, {"backend.unsupported-gpu"}, "fa2")


# explain: ex161's [limit_as_reason]. An issue template's own words below the limit ("### Error messages and logs",
# "**Describe the bug**", "Please paste any relevant error messages, stack traces ...", "_No response_") report no failure:
# the limit is then the report (main dropped it as context and read nothing)
@pytest.mark.parametrize("text", [
    "Our V100s cannot run flash-attn 2, so we use sdpa.\n### Error messages and logs\n_No response_\n",
    "Our V100s cannot run flash-attn 2, so we use sdpa.\n**Describe the bug**\nA clear and concise description of what the "
    "bug is. Include error messages and stack traces.\n",
    "Our V100s cannot run flash-attn 2, so we use sdpa.\n\n## Logs\n<!-- paste the full error output here -->\n",
    "Our V100s cannot run flash-attn 2, so we use sdpa.\nLogs:\nPlease paste any relevant error messages, stack traces, or "
    "log output here.\n",
])
def test_a_templates_own_words_are_no_failure_after_the_limit(text):
    read_as(text, "backend.unsupported-gpu", ANY)


# configs: cfg116's printed_argv. A Python list of words in a document is a command line only where it runs something: a
# later word an option or a path, or what CalledProcessError prints after it ("Command '[...]' returned non-zero exit
# status"); a README's list of launchers is a list
@pytest.mark.parametrize("line, kept", [
    ("Supported launchers: ['accelerate', 'torchrun', 'deepspeed']", True),
    ("LAUNCHERS = [\"python\", \"accelerate\", \"torchrun\"]  # tried in this order", True),
    # near misses: an option, a script, CalledProcessError's message
    ("Executing command: ['accelerate', 'launch', '--xformers']", False),
    ("['python', 'train_network.py']", False),
    ("subprocess.CalledProcessError: Command '['accelerate', 'launch']' returned non-zero exit status 1.", False),
])
def test_a_list_of_words_is_no_printed_command(line, kept):
    from attn_doctor.configs import printed_argv

    assert (printed_argv(line) == line) == kept, printed_argv(line)


# configs: cfg118's `while read` over a file beside the script, as /bin/bash runs it (checked here: bash prints the runs)
# - a last line without its newline: `read` sets the names to it and returns false, so the body does not run for it and
#   the names keep it after `done`
# - a blank line: the body runs with the names empty
_RUNS = "while read -r mp; do\n  echo \"run[$mp]\"\n{body}done < runs.txt\n{after}"


@pytest.mark.parametrize("runs, body, after, bash, dtype, differ", [
    ("fp16\nbf16", True, False, ["run[fp16]"], "float16", None),
    ("fp16\nbf16", False, True, ["run[fp16]", "after[bf16]"], "bfloat16", None),
    ("bf16\n\n", True, False, ["run[bf16]", "run[]"], None, {"dtype": ["bfloat16", None]}),
    # near misses: every line ends in its newline; after `done` the names are empty
    ("fp16\nbf16\n", True, False, ["run[fp16]", "run[bf16]"], None, {"dtype": ["float16", "bfloat16"]}),
    ("bf16\n", True, False, ["run[bf16]"], "bfloat16", None),
    ("fp16\nbf16\n", False, True, ["run[fp16]", "run[bf16]", "after[]"], None, None),
])
def test_a_while_read_loop_runs_as_bash_runs_it(tmp_path, runs, body, after, bash, dtype, differ):
    import subprocess

    from configs_corpus import write
    from test_configs_cfg118 import _flux

    from attn_doctor import configs

    write(tmp_path, "runs.txt", runs)
    text = _RUNS.format(body=_flux("$mp") if body else "", after=("echo \"after[$mp]\"\n" + _flux("$mp")) if after else "")
    if shutil.which("bash"):
        out = subprocess.run(["bash", "-c", text.replace("accelerate launch", ": accelerate launch")], cwd=tmp_path,
                             capture_output=True, text=True, timeout=60).stdout.split()
        assert out == bash, out
    cfg = configs.load(write(tmp_path, "sweep.sh", "#!/bin/bash\n" + text))
    assert (cfg["trainer"], cfg["dtype"], (cfg.get("launches") or {}).get("differ")) == ("diffusers", dtype, differ)
