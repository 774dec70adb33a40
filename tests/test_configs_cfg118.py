"""cfg118 (session 28, issue 24): settings a reader still lost.

1. bash leftovers (configs/shell.py): the three forms rev27 left as strict xfails (a one-line `{ } &` group, a piped
   `if` block, a one-line function), `shopt -s lastpipe`, a `for` loop's variable read after its `done`, and `while
   read` loops fed by a here-document or a file beside the script. Every snippet's expectation is bash's own: they all
   run under /bin/bash here too, with `python` a function printing the shell's A and the environment's A."""

from __future__ import annotations

import shutil

import pytest

from configs_corpus import put, trainer_reading, write
from test_configs_cfg114 import _reading, bash_says

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
    ("A=0\nif true; then\n  if true; then B=1; fi\n  A=1\nfi | cat\npython t.py", "0|"),
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
    assert bash_says([text for text, _ in SNIPPETS], tmp_path) == [seen for _, seen in SNIPPETS]


LAUNCH = ("accelerate launch --mixed_precision {mp} train_dreambooth_flux.py --pretrained_model_name_or_path=m "
          "--instance_data_dir=dog --output_dir=out --instance_prompt=p {attn}")
XF = "--enable_xformers_memory_efficient_attention"


def _flux(mp: str) -> str:
    return LAUNCH.format(mp=mp, attn="") + "\n"


@pytest.mark.parametrize("text, files, dtype, differ", [
    # the loop's variable after the loop: one launch with the last value (was unknown)
    ("for mp in fp16 bf16; do\n  echo $mp\ndone\n" + _flux("$mp"), {}, "bfloat16", None),
    # a `while read` over a here-document: a run per line, as a `for` loop's
    ("while read -r mp; do\n  " + _flux("$mp") + "done <<EOF\nbf16\nEOF\n", {}, "bfloat16", None),
    ("while read -r mp; do\n  " + _flux("$mp") + "done <<'EOF'\nfp16\nbf16\nEOF\n", {}, None,
     {"dtype": ["float16", "bfloat16"]}),
    # ... or by a file beside the script
    ("while read -r mp lr; do\n  " + _flux("$mp") + "done < runs.txt\n", {"runs.txt": "bf16 1e-4\n"},
     "bfloat16", None),
    # near misses: a file that is not here, a pipe: unknown, as before
    ("while read -r mp; do\n  " + _flux("$mp") + "done < runs.txt\n", {}, None, None),
    ("cat runs.txt | while read -r mp; do\n  " + _flux("$mp") + "done\n", {"runs.txt": "bf16\n"}, None, None),
])
def test_a_launch_reads_the_loop_values_bash_gives_it(tmp_path, text, files, dtype, differ):
    from attn_doctor import configs

    for fname, body in files.items():
        write(tmp_path, fname, body)
    cfg = configs.load(write(tmp_path, "sweep.sh", "#!/bin/bash\n" + text))
    assert (cfg["trainer"], cfg["dtype"]) == ("diffusers", dtype)
    assert (cfg.get("launches") or {}).get("differ") == differ


# 2. A GitHub Actions workflow's `run:` step: its environment is the workflow's `env:`, the job's over it, the step's over
# both, and what an earlier step wrote to $GITHUB_ENV; each step is a shell of its own; `${{ env.NAME }}` is filled in
# before the shell runs
def _workflow(top: str, job: str, steps: list) -> str:
    out = "name: train\non: workflow_dispatch\n" + (f"env:\n{top}" if top else "") + \
        "jobs:\n  train:\n    runs-on: [self-hosted, gpu]\n" + job + "    steps:\n" + \
        "      - uses: actions/checkout@v4\n"
    for env, run in steps:
        out += "      - " + (f"env:\n{env}        " if env else "") + "run: |\n" + \
            "".join(f"          {ln}\n" for ln in run.splitlines())
    return out


@pytest.mark.parametrize("top, job, steps, required, dtype", [
    # step over job over workflow
    ("  MP: fp16\n", "    env:\n      MP: bf16\n", [("          ATTN: " + XF + "\n", LAUNCH.format(mp="$MP", attn="$ATTN"))],
     ["xformers"], "bfloat16"),
    ("  MP: fp16\n", "", [("", LAUNCH.format(mp="$MP", attn=""))], [], "float16"),
    ("  MP: fp16\n", "    env:\n      MP: fp16\n", [("          MP: bf16\n", LAUNCH.format(mp="$MP", attn=""))], [], "bfloat16"),
    # the runner fills `${{ env.MP }}` in
    ("", "    env:\n      MP: bf16\n", [("", LAUNCH.format(mp="${{ env.MP }}", attn=""))], [], "bfloat16"),
    # $GITHUB_ENV written by an earlier step: the later steps' environment
    ("", "", [("", 'echo "MP=bf16" >> $GITHUB_ENV'), ("", LAUNCH.format(mp="$MP", attn=""))], [], "bfloat16"),
    # near misses: another step's env, a variable an earlier step's shell set, $GITHUB_ENV written by the step itself
    ("", "", [("          MP: bf16\n", "echo hi"), ("", LAUNCH.format(mp="$MP", attn=""))], [], None),
    ("", "", [("", "MP=bf16"), ("", LAUNCH.format(mp="$MP", attn=""))], [], None),
    ("", "", [("", 'echo "MP=bf16" >> $GITHUB_ENV\n' + LAUNCH.format(mp="$MP", attn=""))], [], None),
    # a matrix axis of one value is that value; of two, or a context the file does not hold: unknown
    ("", "    strategy:\n      matrix:\n        mp: [bf16]\n", [("", LAUNCH.format(mp="${{ matrix.mp }}", attn=""))], [],
     "bfloat16"),
    ("", "    strategy:\n      matrix:\n        mp: [fp16, bf16]\n", [("", LAUNCH.format(mp="${{ matrix.mp }}", attn=""))],
     [], None),
    ("", "", [("", LAUNCH.format(mp="${{ inputs.mp }}", attn=""))], [], None),
])
def test_a_workflow_step_reads_the_environment_the_runner_gives_it(tmp_path, top, job, steps, required, dtype):
    from attn_doctor import configs

    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    cfg = configs.load(write(tmp_path, ".github/workflows/train.yml", _workflow(top, job, steps)))
    assert (cfg["trainer"], cfg["required"], cfg["dtype"]) == ("diffusers", required, dtype)


@pytest.mark.parametrize("text, dtype", [
    # a GitLab pipeline's `variables:`, the job's over the pipeline's (a value mapping too)
    ("variables:\n  MP: bf16\ntrain:\n  stage: train\n  script:\n    - " + LAUNCH.format(mp="$MP", attn="") + "\n",
     "bfloat16"),
    ("variables:\n  MP: fp16\ntrain:\n  stage: train\n  variables:\n    MP:\n      value: bf16\n      description: p\n"
     "  script:\n    - " + LAUNCH.format(mp="$MP", attn="") + "\n", "bfloat16"),
    # near misses: another job's variable; a variable another job's shell set
    ("prep:\n  stage: prep\n  variables:\n    MP: bf16\n  script:\n    - echo hi\ntrain:\n  stage: train\n  script:\n"
     "    - " + LAUNCH.format(mp="$MP", attn="") + "\n", None),
    ("prep:\n  stage: prep\n  script:\n    - export MP=bf16\ntrain:\n  stage: train\n  script:\n"
     "    - " + LAUNCH.format(mp="$MP", attn="") + "\n", None),
])
def test_a_gitlab_job_reads_the_variables_it_is_given(tmp_path, text, dtype):
    from attn_doctor import configs

    cfg = configs.load(write(tmp_path, ".gitlab-ci.yml", text))
    assert (cfg["trainer"], cfg["dtype"]) == ("diffusers", dtype)


# 3. A training script's settings loader: the file it loads named by its command line only (no default) is said, never
# guessed (config.settings-at-launch); a path constant of another module of the repository, built from that module's
# own place (`PROJECT_ROOT = Path(__file__).resolve().parent.parent`), is found where that module is
_YAML = "model: m\nbf16: true\nattn_implementation: flash_attention_2\n"
_SCRIPT = '''
import argparse
import sys
import yaml
from transformers import AutoModelForCausalLM, TrainingArguments, Trainer
{head}

def main():
{body}
    model = AutoModelForCausalLM.from_pretrained(cfg["model"], attn_implementation=cfg["attn_implementation"])
    targs = TrainingArguments(output_dir="out", bf16=cfg["bf16"])
    Trainer(model=model, args=targs).train()


if __name__ == "__main__":
    main()
'''
_OPTION = "    p = argparse.ArgumentParser()\n    p.add_argument('--config'{extra})\n    opts = p.parse_args()\n"


@pytest.mark.parametrize("head, body, reading, at_launch", [
    # named at launch, no default: unknown, and said
    ("", _OPTION.format(extra=", required=True") + "    with open(opts.config) as f:\n        cfg = yaml.safe_load(f)",
     ("transformers", [], None), ["--config"]),
    ("", _OPTION.format(extra="") + "    cfg = yaml.safe_load(open(opts.config))", ("transformers", [], None),
     ["--config"]),
    ("", "    with open(sys.argv[1]) as f:\n        cfg = yaml.safe_load(f)", ("transformers", [], None), ["sys.argv[1]"]),
    # a loader function of the script's own that parses the file its parameter names
    ("def load_config(path):\n    with open(path) as f:\n        return yaml.safe_load(f)\n",
     _OPTION.format(extra=", required=True") + "    cfg = load_config(opts.config)", ("transformers", [], None),
     ["--config"]),
    # near misses: a data file named at launch (records, iterated, not read by key); a function that is no loader; a
    # default the script gives (read); a path of its own
    ("import json", _OPTION.format(extra=", required=True") + "    rows = json.load(open(opts.config))\n"
     "    cfg = {'model': 'm', 'attn_implementation': 'sdpa', 'bf16': True}\n    print(len([r for r in rows]))",
     ("transformers", ["sdpa"], "bfloat16"), None),
    ("def count(path):\n    return len(open(path).read())\n", _OPTION.format(extra=", required=True") +
     "    n = count(opts.config)\n    cfg = {'model': 'm', 'attn_implementation': 'sdpa', 'bf16': n > 0}",
     ("transformers", ["sdpa"], None), None),
    ("", _OPTION.format(extra=", default='configs/train.yaml'") + "    with open(opts.config) as f:\n"
     "        cfg = yaml.safe_load(f)", ("transformers", ["fa2"], "bfloat16"), None),
    ("", "    with open('configs/train.yaml') as f:\n        cfg = yaml.safe_load(f)", ("transformers", ["fa2"], "bfloat16"),
     None),
    # another module's path constant, built from that module's own place (src/paths.py: two folders up)
    ("from src.paths import CONFIG_PATH", "    with open(CONFIG_PATH) as f:\n        cfg = yaml.safe_load(f)",
     ("transformers", ["fa2"], "bfloat16"), None),
    ("from src.paths import OTHER_PATH", "    with open(OTHER_PATH) as f:\n        cfg = yaml.safe_load(f)",
     ("transformers", [], None), None),
])
def test_a_loader_reads_its_file_or_says_the_launch_names_it(tmp_path, head, body, reading, at_launch):
    from attn_doctor import configs

    put(tmp_path, "configs/train.yaml", _YAML)
    put(tmp_path, "src/__init__.py", "")
    put(tmp_path, "src/paths.py", "import os\nfrom pathlib import Path\n\nROOT = Path(__file__).resolve().parent.parent\n"
                                  "CONFIG_DIR = ROOT / 'configs'\nCONFIG_PATH = CONFIG_DIR / 'train.yaml'\n"
                                  "OTHER_PATH = Path(os.getcwd()) / 'configs' / 'train.yaml'\n")
    path = put(tmp_path, "train.py", _SCRIPT.format(head=head, body=body))
    assert trainer_reading(path) == reading
    assert configs.load(str(path)).get("at_launch") == at_launch


def test_a_launch_line_that_names_the_file_settles_it(tmp_path):
    from attn_doctor import configs

    put(tmp_path, "configs/train.yaml", _YAML)
    put(tmp_path, "train.py", _SCRIPT.format(head="", body=_OPTION.format(extra=", required=True") +
                                             "    with open(opts.config) as f:\n        cfg = yaml.safe_load(f)"))
    cfg = configs.load(str(put(tmp_path, "run.sh", "#!/bin/bash\npython train.py --config configs/train.yaml\n")))
    assert (cfg["trainer"], cfg["required"], cfg["dtype"], cfg.get("at_launch")) == ("transformers", ["fa2"], "bfloat16",
                                                                                     None)


# a loader merging a YAML's sections by a CLI mode: the section the run picks (the launch's word, else argparse's default)
_SECTIONS = "common:\n  model: m\n  attn_implementation: sdpa\nfull:\n  bf16: true\nfast:\n  fp16: true\n"
_MODE = '''
import argparse
import yaml
from transformers import AutoModelForCausalLM, TrainingArguments, Trainer


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--mode", choices=["fast", "full"]{default})
    opts = p.parse_args()
    with open("configs/train.yaml") as f:
        raw = yaml.safe_load(f)
    cfg = {merge}
    model = AutoModelForCausalLM.from_pretrained(cfg["model"], attn_implementation=cfg["attn_implementation"])
    targs = TrainingArguments(output_dir="out", bf16=cfg.get("bf16", False), fp16=cfg.get("fp16", False))
    Trainer(model=model, args=targs).train()


main()
'''


@pytest.mark.parametrize("default, merge, launch, reading", [
    (', default="full"', 'raw["common"] | raw[opts.mode]', None, ("transformers", ["sdpa"], "bfloat16")),
    (', default="full"', '{**raw["common"], **raw[opts.mode]}', None, ("transformers", ["sdpa"], "bfloat16")),
    (', default="full"', 'raw["common"] | raw[opts.mode]', "--mode fast", ("transformers", ["sdpa"], "float16")),
    # near miss: no default and no launch word: the mode's section is the caller's, unknown (common's attention stays)
    ("", 'raw["common"] | raw[opts.mode]', None, ("transformers", ["sdpa"], None)),
])
def test_a_loader_merging_sections_by_mode_reads_the_run_s_section(tmp_path, default, merge, launch, reading):
    put(tmp_path, "configs/train.yaml", _SECTIONS)
    path = put(tmp_path, "train.py", _MODE.format(default=default, merge=merge))
    if launch:
        path = put(tmp_path, "run.sh", f"#!/bin/bash\npython train.py {launch}\n")
    assert trainer_reading(path) == reading
