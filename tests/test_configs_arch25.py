"""arch25 (session 25): the launch's exports are the shell layer's (configs/shell_exports.py): shell.parse reads, in the
order the script runs, which variables each command's program gets in its environment (Command.exported,
Command.environment), and configs' _launch_environ / _pythonpath_dirs ask the command instead of matching the file's
text. bash(1), ENVIRONMENT: a program gets the variables exported before it and those assigned in front of it."""

from __future__ import annotations

import pytest

from attn_doctor.configs import shell


@pytest.mark.parametrize("text, name, exported", [
    ("export A=1\npython t.py", "run.sh", True),
    ("A=1\nexport A\npython t.py", "run.sh", True),
    ("A=1\npython t.py", "run.sh", False),  # the shell's own variable
    ("A=1; python t.py", "run.sh", False),
    ("A=1 python t.py", "run.sh", True),  # assigned in front of the command
    ("env A=1 python t.py", "run.sh", True),
    ("declare -x A=1\npython t.py", "run.sh", True),
    ("declare -rx A=1\npython t.py", "run.sh", True),
    ("typeset -x A=1\npython t.py", "run.sh", True),
    ("declare A=1\npython t.py", "run.sh", False),
    ("A=1\npython t.py\nexport A", "run.sh", False),  # exported only after the command ran
    ("export A=1\nunset A\npython t.py", "run.sh", False),
    ("export A=1\nexport -n A\npython t.py", "run.sh", False),
    ("set -a\nA=1\nset +a\npython t.py", "run.sh", True),
    ("A=1\nset -a\npython t.py", "run.sh", False),  # assigned before allexport
    ("set -a; source .env; set +a\nA=1\npython t.py", "run.sh", False),
    ("set -eao pipefail\nA=1\npython t.py", "run.sh", True),
    ("set -o allexport\nA=1\npython t.py", "run.sh", True),
    ("run() {\n  A=1 python t.py\n}\nrun", "run.sh", True),  # a prefix inside a called function
    ("setup() {\n  export A=1\n}\nsetup\npython t.py", "run.sh", True),  # the function runs in this shell
    ("A=1\nset -a\nrun() {\n  python t.py\n}\nrun", "run.sh", False),  # (the caller's A, written out for the body)
    ("export A=1\nbash -c 'python t.py'", "run.sh", True),  # a child shell inherits what is exported
    ("set -a\nbash -c 'A=1; python t.py'", "run.sh", False),  # but not set -a
    ("set A=1\r\npython t.py\r\n", "run.bat", True),  # cmd.exe's variables are the environment
    ('$env:A = "1"\npython t.py', "run.ps1", True),
    ('$A = "1"\npython t.py', "run.ps1", False),  # a PowerShell variable, not the environment
])
def test_each_command_knows_what_its_program_gets_in_its_environment(text, name, exported):
    script = shell.parse(text, name)
    cmd = next(c for c in script.commands if c.script == "t.py")
    assert ("A" in cmd.exported) is exported
    assert cmd.environment() == ({"A": "1"} if exported else {})


PY = ("import os\nimport torch\nfrom transformers import AutoModelForCausalLM\n"
      'model = AutoModelForCausalLM.from_pretrained("m", torch_dtype=torch.bfloat16, '
      'attn_implementation=os.environ.get("ATTN_IMPL", "flash_attention_2"))\n')


@pytest.mark.parametrize("name, files, required", [
    # each of these read the other way before (configs._exported matched the launch file's text, not the run)
    ("run.bat", {"run.bat": "@echo off\r\nset ATTN_IMPL=sdpa\r\npython train.py\r\n"}, ["sdpa"]),
    ("run.ps1", {"run.ps1": '$env:ATTN_IMPL = "sdpa"\npython train.py\n'}, ["sdpa"]),
    ("Dockerfile", {"Dockerfile": 'FROM x\nENV ATTN_IMPL=sdpa\nCMD ["python", "train.py"]\n'}, ["sdpa"]),
    ("run.sh", {"run.sh": "#!/bin/bash\nsource ./env.sh\npython train.py\n", "env.sh": "export ATTN_IMPL=sdpa\n"}, ["sdpa"]),
    ("run.sh", {"run.sh": "#!/bin/bash\nset -a\nsource ./env.sh\nset +a\npython train.py\n", "env.sh": "ATTN_IMPL=sdpa\n"}, ["sdpa"]),
    ("run.sh", {"run.sh": "#!/bin/bash\nrun() {\n  ATTN_IMPL=sdpa python train.py\n}\nrun\n"}, ["sdpa"]),
    ("run.sh", {"run.sh": "#!/bin/bash\ndeclare -rx ATTN_IMPL=sdpa\npython train.py\n"}, ["sdpa"]),
    ("run.sh", {"run.sh": "#!/bin/bash\nATTN_IMPL=sdpa; python train.py\n"}, ["fa2"]),  # never exported: the script's default
    ("run.sh", {"run.sh": "#!/bin/bash\nATTN_IMPL=sdpa\nset -a\nrun() {\n  python train.py\n}\nrun\n"}, ["fa2"]),
    ("run.sh", {"run.sh": "#!/bin/bash\nATTN_IMPL=sdpa\npython train.py\nexport ATTN_IMPL\n"}, ["fa2"]),
    ("run.sh", {"run.sh": "#!/bin/bash\nexport ATTN_IMPL=sdpa\nunset ATTN_IMPL\npython train.py\n"}, ["fa2"]),
])
def test_the_script_reads_the_environment_its_launch_gives_it(tmp_path, name, files, required):
    from configs_corpus import put, trainer_reading

    put(tmp_path, "train.py", PY)
    for rel, text in files.items():
        put(tmp_path, rel, text)
    assert trainer_reading(tmp_path / name) == ("transformers", required, "bfloat16")


def test_checks_import_only_configs_public_api():
    """checks/ asks configs through its public names (configs.load, environment_config, diffusers_name), never a reader
    module: a reader's tables move without a check noticing."""
    import ast
    from pathlib import Path

    import attn_doctor.checks as checks

    bad = []
    for path in sorted(Path(checks.__file__).parent.glob("*.py")):
        for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(n, ast.ImportFrom) and n.module and \
                    (n.level == 2 and n.module.startswith("configs") or n.module.startswith("attn_doctor.configs")):
                if n.module not in ("configs", "attn_doctor.configs") or any(a.name.startswith("_") for a in n.names):
                    bad.append(f"{path.name}:{n.lineno} from {'.' * n.level}{n.module} import "
                               f"{', '.join(a.name for a in n.names)}")
    assert not bad, bad


def test_the_environments_diffusers_backend_and_simpletuners_names_through_configs():
    from attn_doctor.configs import diffusers_name, environment_config

    cfg = environment_config("flex")
    assert (cfg["trainer"], [a["backend"] for a in cfg["attention"]]) == ("diffusers", ["flex"])
    assert "in the environment" in cfg["attention"][0]["setting"]
    assert diffusers_name({"trainer": "simpletuner"}, {"name": "flash-attn-3"}) == "_flash_3"
    assert diffusers_name({"trainer": "diffusers"}, {"name": "_flash_3"}) == "_flash_3"


def test_constants_of_one_tree_are_assembled_once_per_launch_values():
    """pyscript.constants(tree) asked again of the same tree with the same argv / environ (launchers.python_commands,
    then python_dumped_configs, in one reading) is the answer kept on the tree (textutil.kept); other launch values, or a
    reading that loads the user's files (read / modules / hydra), are assembled for themselves."""
    from attn_doctor.configs.pyscript import constants, tree
    from attn_doctor.configs.pyscript.nodes import ENVIRON

    t = tree('import os\nATTN = os.environ.get("ATTN", "sdpa")\n')
    first = constants(t)
    assert constants(t) is first and constants(t, None, None) is first
    other = constants(t, environ={"ATTN": "flex"})
    assert other is not first and other[ENVIRON]["ATTN"].value == "flex"
    assert constants(t, environ={"ATTN": "flex"}) is other
    assert constants(t, read=lambda p: None) is not first
