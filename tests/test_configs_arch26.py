"""arch26 (session 26): the configs readers ask the shell layer what a program gets in its environment
(shell.Command.environment, configs/shell_exports.py) rather than every variable the script set (Command.env): bash
hands a program only the variables exported before it and those assigned in front of it (bash(1), ENVIRONMENT)."""

from __future__ import annotations

import pytest

from configs_corpus import read

FLUX = ("accelerate launch --mixed_precision bf16 train_dreambooth_flux.py --pretrained_model_name_or_path=m "
        "--instance_data_dir=dog --output_dir=out --instance_prompt=p\n")
T2I = "python train_text_to_image.py --pretrained_model_name_or_path=m --train_data_dir=d --output_dir=out\n"


@pytest.mark.parametrize("text, required, dtype", [
    # DIFFUSERS_ATTN_BACKEND: dispatch_attention_fn's default, read from the training process's environment
    ("export DIFFUSERS_ATTN_BACKEND=flex\n" + FLUX, ["flex"], "bfloat16"),
    ("DIFFUSERS_ATTN_BACKEND=flex " + FLUX, ["flex"], "bfloat16"),
    ("set -a\nDIFFUSERS_ATTN_BACKEND=flex\n" + FLUX, ["flex"], "bfloat16"),
    ("DIFFUSERS_ATTN_BACKEND=flex\n" + FLUX, [], "bfloat16"),  # the shell's own variable (read as flex before)
    ("DIFFUSERS_ATTN_BACKEND=flex; " + FLUX, [], "bfloat16"),  # (read as flex before)
    # ACCELERATE_MIXED_PRECISION: Accelerator(mixed_precision=None)'s fallback when the example runs without accelerate
    ("export ACCELERATE_MIXED_PRECISION=bf16\n" + T2I, [], "bfloat16"),
    ("ACCELERATE_MIXED_PRECISION=bf16 " + T2I, [], "bfloat16"),
    ("ACCELERATE_MIXED_PRECISION=bf16\n" + T2I, [], "float32"),  # never exported: mixed precision "no" (bf16 before)
])
def test_diffusers_reads_the_variables_its_training_process_gets(tmp_path, text, required, dtype):
    assert read(tmp_path, "run.sh", "#!/bin/bash\n" + text) == ("diffusers", required, dtype, "none")


ST_CONFIG = ('{"model_type": "lora", "model_family": "flux", "pretrained_model_name_or_path": "black-forest-labs/FLUX.1-dev",'
             ' "mixed_precision": "bf16", "attention_mechanism": "%s", "output_dir": "out", "train_batch_size": 1}')


@pytest.mark.parametrize("launch, required", [
    ("export ENV=wan\ncd SimpleTuner\nbash train.sh\n", ["fa3"]),
    ("cd SimpleTuner\nENV=wan bash train.sh\n", ["fa3"]),
    ("cd SimpleTuner\nENV=wan\nbash train.sh\n", ["sage"]),  # the shell's own ENV (config/wan/ before)
])
def test_simpletuner_train_sh_gets_only_the_environment_exported_to_it(tmp_path, launch, required):
    """SimpleTuner's train.sh runs in a shell of its own, which takes the environment name (ENV, SIMPLETUNER_ENV) from
    what is exported to it: with none, train.py loads config/config.json (configs/simpletuner.py _train_sh)."""
    from configs_corpus import put

    put(tmp_path, "SimpleTuner/config/wan/config.json", ST_CONFIG % "flash-attn-3")
    put(tmp_path, "SimpleTuner/config/config.json", ST_CONFIG % "sageattention")
    assert read(tmp_path, "go.sh", "#!/bin/bash\n" + launch) == ("simpletuner", required, "bfloat16", "none")


def test_a_transformers_script_is_read_once_per_reading(tmp_path, monkeypatch):
    """hf_transformers._python_settings keeps its reading on the doc: scoring and the chosen reader's read() asked the
    same script of the same launch twice (346 of 717 asks over the configs snapshot). A launch that hands the script
    other options or variables after scoring (configs._read_through) is read again: tests/test_configs_arch25.py."""
    from configs_corpus import put

    from attn_doctor import configs
    from attn_doctor.configs import hf_transformers

    calls = []
    real = hf_transformers._script_settings
    monkeypatch.setattr(hf_transformers, "_script_settings", lambda doc: calls.append(doc["path"]) or real(doc))
    path = put(tmp_path, "train.py", "import torch\nfrom transformers import AutoModelForCausalLM\n"
               'model = AutoModelForCausalLM.from_pretrained("m", torch_dtype=torch.bfloat16, '
               'attn_implementation="sdpa")\n')
    assert configs.load(str(path))["required"] == ["sdpa"]
    assert calls == [str(path)]


@pytest.mark.parametrize("text, exported", [
    # bash(1), Pipelines: "Each command in a multi-command pipeline ... is executed in its own subshell"
    ("export A=1 | cat\npython t.py", False),
    ("export A=1 |& cat\npython t.py", False),
    ("export A=1 | python t.py", False),
    ("export A=1; python t.py | tee log", True),  # (exported before the pipeline: its parts inherit it)
    ("A=1 python t.py | tee log", True),
    # Lists: "If a command is terminated by the control operator &, the shell executes the command asynchronously in a
    # subshell"; the whole and-or list before the & is that command
    ("export A=1 &\npython t.py", False),
    ("export A=1 && python t.py &", True),
    ("python t.py & export A=1", False),
    # Compound Commands: "( list ) ... list is executed in a subshell environment"; `{ list; }` in the shell itself
    ("( export A=1 )\npython t.py", False),
    ("(export A=1)\npython t.py", False),
    ("(export A=1; python t.py)", True),
    ("(\n  export A=1\n)\npython t.py", False),
    ("(\n  export A=1\n  python t.py\n)", True),
    ("{ export A=1; }\npython t.py", True),
    ("export A=1 && python t.py", True),
    # a child shell gets its command's environment, prefixes included, and hands nothing back
    ("bash -c 'export A=1'\npython t.py", False),
    ("A=1 bash -c 'python t.py'", True),
    ("export A=1\nenv -i bash -c 'python t.py'", False),
    # env(1): -i (or a lone -) starts the program with an empty environment, -u NAME takes NAME out
    ("export A=1\nenv -i python t.py", False),
    ("export A=1\nenv - python t.py", False),
    ("env -i A=1 python t.py", True),
    ("A=1 env -i python t.py", False),
    ("export A=1\nenv -u A python t.py", False),
    ("export A=1\nenv --unset=A python t.py", False),
])
def test_what_runs_in_a_subshell_or_a_cleared_environment_hands_on(text, exported):
    from attn_doctor.configs import shell

    cmd = next(c for c in shell.parse("#!/bin/bash\n" + text, "run.sh").commands if c.script == "t.py")
    assert ("A" in cmd.exported) is exported


@pytest.mark.parametrize("line, commands", [
    ("(cd x && python t.py) | tee log", [(["cd", "x"], 2), (["python", "t.py"], 2), (["tee", "log"], 1)]),  # (was `(cd`,
    # `t.py)`)
    ("python t.py |& tee log", [(["python", "t.py"], 1), (["tee", "log"], 1)]),  # (was one command, `|&` a word)
    ("env -u A python t.py", [(["env", "-u", "A", "python", "t.py"], 0)]),
    # a test's parentheses, a function's, an array's and a case pattern's open no subshell
    ('[[ "$a" == 1 && ("$b" == 2) ]] && python t.py', [(["[[", "$a", "==", "1"], 0), (["($b", "==", "2)", "]]"], 0),
                                                       (["python", "t.py"], 0)]),
    ("f() {", [(["f()", "{"], 0)]),
    ("A=(x y)", [(["A=(x", "y)"], 0)]),
    ("sdpa) ATTN=1 ;;", [(["sdpa)", "ATTN=1"], 0)]),
])
def test_a_subshell_s_parentheses_are_no_words(line, commands):
    """shell_words.commands_of: each simple command's words and how many subshells deep bash runs it."""
    from attn_doctor.configs.shell_words import commands_of

    assert [(words, len(path)) for words, path in commands_of(line, "posix")] == commands
