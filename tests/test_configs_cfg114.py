"""cfg114 (session 27): a launch script's variables as bash holds them step by step (configs/shell.py,
configs/shell_exports.py): what a subshell, a piped or backgrounded loop or `{ }` group sets dies with it, a loop body's
or a group's own assignments persist; a reader takes a variable only from the environment its command gets, never from
the file's text after the launch line; a launch line inside a `for` loop is one launch per value, read as one job when
the runs agree and said to differ when they do not (configs._loop_launches, config.launches-differ).

The expectations of the shell snippets are bash's own: each snippet also runs under /bin/bash, with `python` a function
that prints the shell's value of A and the value in its environment, and the reading must say the same."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from configs_corpus import read, write

# (the shell's A | the environment's A) at `python t.py`, the script's last command
SNIPPETS = [
    # bash(1) COMMAND EXECUTION ENVIRONMENT: "( list )" runs in a subshell, whose changes die with it
    ("(A=1; python x.py)\npython t.py", "|"),
    ("(A=1)\npython t.py", "|"),
    ("A=0\n( A=1; export A )\npython t.py", "0|"),
    ("(\n  A=1\n  export A\n)\npython t.py", "|"),
    ("A=0\n(\n  A=1\n)\npython t.py", "0|"),
    # a `{ list; }` group runs in the shell itself
    ("{ A=1; }\npython t.py", "1|"),
    ("{\n  export A=1\n} > /dev/null\npython t.py", "1|1"),
    # ... unless it is a pipeline's part or sent to the background (Pipelines; Lists)
    ("{\n  export A=1\n} | cat\npython t.py", "|"),
    ("A=0\n{\n  A=1\n} 2>&1 | tee /dev/null\npython t.py", "0|"),
    # a loop's body runs in the shell: its assignments persist after the loop
    ("for lr in 1 2; do A=1; done\npython t.py", "1|"),
    ("for lr in 1 2; do\n  export A=1\ndone > /dev/null 2>&1\npython t.py", "1|1"),
    ("while true; do\n  A=1\n  break\ndone\npython t.py", "1|"),
    # a loop piped into tee (or fed by a pipe) runs in a subshell: they die there
    ("for lr in 1 2; do A=1; done | tee /dev/null\npython t.py", "|"),
    ("for lr in 1 2; do export A=1; done 2>&1 | tee /dev/null\npython t.py", "|"),
    ("for lr in 1 2; do\n  export A=1\ndone | tee /dev/null\npython t.py", "|"),
    ("A=0\nprintf 'x\\n' | while read l; do\n  A=1\ndone\npython t.py", "0|"),
    ("A=0\nfor lr in 1 2; do A=1; done &\nwait\npython t.py", "0|"),
    # a piped loop nested in a plain one: only the inner loop's assignments die
    ("for x in 1; do\n  for y in 2; do\n    export A=1\n  done | cat\n  B=1\ndone\npython t.py", "|"),
    ("for x in 1; do\n  for y in 2; do\n    B=1\n  done | cat\n  export A=1\ndone\npython t.py", "1|1"),
]

_PYTHON = 'python() { printf "%s|%s\\n" "${A-}" "$(printenv A)"; }\n'


def _reading(text: str) -> str:
    from attn_doctor.configs import shell

    cmd = [c for c in shell.parse("#!/bin/bash\n" + text, "run.sh").commands if c.script == "t.py"][-1]
    return f"{cmd.env.get('A', '')}|{cmd.environment().get('A', '')}"


@pytest.mark.parametrize("text, seen", SNIPPETS)
def test_a_variable_is_what_bash_holds_at_the_launch(text, seen):
    assert _reading(text) == seen


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash here to ask")
def test_the_snippets_expectations_are_bash_s_own(tmp_path):
    """Every snippet above, run by bash (one process for all of them): what `python t.py` is handed is what the
    expectation says, so the readings are checked against bash, not against what a test writer believed."""
    assert bash_says([text for text, _ in SNIPPETS], tmp_path) == [seen for _, seen in SNIPPETS]


def bash_says(texts: list, cwd) -> list:
    """What /bin/bash hands `python t.py` at the end of each snippet (one bash process for all of them)."""
    script = "".join(f"(\n{_PYTHON}{text}\n) | tail -n 1\n" for text in texts)
    out = subprocess.run(["bash", "-c", script], cwd=cwd, capture_output=True, text=True, timeout=60,
                         env={"PATH": "/usr/bin:/bin"})
    assert not out.stderr, out.stderr
    return out.stdout.splitlines()


FLUX = ("accelerate launch --mixed_precision bf16 train_dreambooth_flux.py --pretrained_model_name_or_path=m "
        "--instance_data_dir=dog --output_dir=out --instance_prompt=p\n")


@pytest.mark.parametrize("text, required", [
    # exported after the launch line: only the commands after it get it (was read as flex from the text)
    (FLUX + "export DIFFUSERS_ATTN_BACKEND=flex\n", []),
    (FLUX + "DIFFUSERS_ATTN_BACKEND=flex\n", []),
    ("(export DIFFUSERS_ATTN_BACKEND=flex)\n" + FLUX, []),
    ("for x in 1 2; do export DIFFUSERS_ATTN_BACKEND=flex; done | tee log\n" + FLUX, []),
    # exported before it, in the shell itself: the launch gets it
    ("{ export DIFFUSERS_ATTN_BACKEND=flex; }\n" + FLUX, ["flex"]),
    ("for x in 1 2; do export DIFFUSERS_ATTN_BACKEND=flex; done > log\n" + FLUX, ["flex"]),
])
def test_diffusers_reads_the_backend_its_launch_gets_not_the_file_s_text(tmp_path, text, required):
    assert read(tmp_path, "run.sh", "#!/bin/bash\n" + text) == ("diffusers", required, "bfloat16", "none")


LOOP = ("#!/bin/bash\nfor {var} in {values}; do\n  accelerate launch --mixed_precision {mp} {attn}train_dreambooth_flux.py "
        "--pretrained_model_name_or_path=m --instance_data_dir=dog --output_dir=out --instance_prompt=p "
        "--learning_rate {lr}\ndone | tee train.log\n")


@pytest.mark.parametrize("var, values, mp, lr, dtype, differ", [
    # the loop variable sets no attention / dtype / compile setting: one job
    ("lr", "1e-4 2e-4", "bf16", "$lr", "bfloat16", None),
    # it sets the dtype to one value: one job with that dtype (unknown before)
    ("mp", "bf16", "$mp", "1e-4", "bfloat16", None),
    ("mp", "bf16 bf16", "$mp", "1e-4", "bfloat16", None),
    # two dtypes: two launches that differ, the dtype left unknown
    ("mp", "fp16 bf16", "$mp", "1e-4", None, {"dtype": ["float16", "bfloat16"]}),
])
def test_a_launch_in_a_loop_is_one_job_when_its_runs_agree(tmp_path, var, values, mp, lr, dtype, differ):
    from attn_doctor import configs

    cfg = configs.load(write(tmp_path, "sweep.sh", LOOP.format(var=var, values=values, mp=mp, lr=lr, attn="")))
    assert (cfg["trainer"], cfg["required"], cfg["dtype"]) == ("diffusers", [], dtype)
    assert (cfg.get("launches") or {}).get("differ") == differ
