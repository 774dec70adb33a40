"""cfg118 (session 28, issue 24): settings a reader still lost.

1. bash leftovers (configs/shell.py): the three forms rev27 left as strict xfails (a one-line `{ } &` group, a piped
   `if` block, a one-line function), `shopt -s lastpipe`, a `for` loop's variable read after its `done`, and `while
   read` loops fed by a here-document or a file beside the script. Every snippet's expectation is bash's own: they all
   run under /bin/bash here too, with `python` a function printing the shell's A and the environment's A."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from configs_corpus import write
from test_configs_cfg114 import _PYTHON, _reading

# (the shell's A | the environment's A) at `python t.py`, the script's last command
SNIPPETS = [
    # rev27's three: a one-line `{ list; }` ended by & or piped runs in a subshell (bash manual 3.2.4 Lists, 3.2.3
    # Pipelines); near miss: one ended by a redirection only runs in the shell
    ("A=0\n{ A=1; } &\nwait\npython t.py", "0|"),
    ("A=0\n{ A=1; } 2>&1 | cat\npython t.py", "0|"),
    ("A=0\n{ A=1; } > /dev/null\npython t.py", "1|"),
    # an if / case block piped into another command runs in a subshell as a loop does; near miss: redirected only
    ("A=0\nif true; then\n  A=1\nfi | cat\npython t.py", "0|"),
    ("A=0\nif true; then\n  A=1\nfi > /dev/null\npython t.py", "1|"),
    ("A=0\ncase x in\n  x) A=1 ;;\nesac | cat\npython t.py", "0|"),
    # a one-line function's body runs where it is called (3.3 Shell Functions); near miss: defined, never called
    ("f() { export A=1; }\nf\npython t.py", "1|1"),
    ("function f { A=1; }\nf\npython t.py", "1|"),
    ("A=0\nf() { A=1; }\npython t.py", "0|"),
    # shopt lastpipe (no job control in a script): a pipeline's last command, the loop, runs in the shell itself
    ("shopt -s lastpipe\nA=0\nprintf 'x\\n' | while read l; do\n  A=1\ndone\npython t.py", "1|"),
    # near misses: the loop is the pipeline's first command; lastpipe set and unset again
    ("shopt -s lastpipe\nA=0\nfor x in 1; do\n  A=1\ndone | cat\npython t.py", "0|"),
    ("shopt -s lastpipe\nshopt -u lastpipe\nA=0\nprintf 'x\\n' | while read l; do\n  A=1\ndone\npython t.py", "0|"),
    # a `for` loop's variable after `done`: the last value (bash(1), for); near miss: a piped loop's dies with it
    ("for A in 1 2; do :; done\npython t.py", "2|"),
    ("for A in fp16 bf16\ndo\n  echo $A\ndone\npython t.py", "bf16|"),
    ("A=0\nfor A in 1 2; do :; done | cat\npython t.py", "0|"),
    # `while read` fed by a here-document: each line a run, its fields the names; after `done` they are empty
    ("while read -r A B; do\n  export A\n  python t.py\ndone <<EOF\nbf16 x\nEOF", "bf16|bf16"),
    ("while IFS=, read -r B A; do\n  python t.py\ndone <<EOF\nx,bf16\nEOF", "bf16|"),
    ("while read A; do\n  :\ndone <<EOF\nbf16\nEOF\npython t.py", "|"),
]

@pytest.mark.parametrize("text, seen", SNIPPETS)
def test_a_variable_is_what_bash_holds_at_the_launch(text, seen):
    assert _reading(text) == seen


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash here to ask")
def test_the_snippets_expectations_are_bash_s_own(tmp_path):
    script = "".join(f"(\n{_PYTHON}{text}\n) | tail -n 1\n" for text, _ in SNIPPETS)
    out = subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                         env={"PATH": "/usr/bin:/bin"})
    assert out.stdout.splitlines() == [seen for _, seen in SNIPPETS], out.stderr


FLUX = ("accelerate launch --mixed_precision {mp} train_dreambooth_flux.py --pretrained_model_name_or_path=m "
        "--instance_data_dir=dog --output_dir=out --instance_prompt=p\n")


@pytest.mark.parametrize("text, files, dtype, differ", [
    # the loop's variable after the loop: one launch with the last value (was unknown)
    ("for mp in fp16 bf16; do\n  echo $mp\ndone\n" + FLUX.format(mp="$mp"), {}, "bfloat16", None),
    # a `while read` over a here-document: a run per line, as a `for` loop's
    ("while read -r mp; do\n  " + FLUX.format(mp="$mp") + "done <<EOF\nbf16\nEOF\n", {}, "bfloat16", None),
    ("while read -r mp; do\n  " + FLUX.format(mp="$mp") + "done <<'EOF'\nfp16\nbf16\nEOF\n", {}, None,
     {"dtype": ["float16", "bfloat16"]}),
    # ... or by a file beside the script
    ("while read -r mp lr; do\n  " + FLUX.format(mp="$mp") + "done < runs.txt\n", {"runs.txt": "bf16 1e-4\n"},
     "bfloat16", None),
    # near misses: a file that is not here, a pipe: unknown, as before
    ("while read -r mp; do\n  " + FLUX.format(mp="$mp") + "done < runs.txt\n", {}, None, None),
    ("cat runs.txt | while read -r mp; do\n  " + FLUX.format(mp="$mp") + "done\n", {"runs.txt": "bf16\n"}, None, None),
])
def test_a_launch_reads_the_loop_values_bash_gives_it(tmp_path, text, files, dtype, differ):
    from attn_doctor import configs

    for fname, body in files.items():
        write(tmp_path, fname, body)
    cfg = configs.load(write(tmp_path, "sweep.sh", "#!/bin/bash\n" + text))
    assert (cfg["trainer"], cfg["dtype"]) == ("diffusers", dtype)
    assert (cfg.get("launches") or {}).get("differ") == differ
