"""Issue 24, helper cfg93 (session 22): launch scripts that reach the trainer indirectly, left from session 21.

1. A call through a module object: `import mypkg; mypkg.train()`, `from mypkg import cli; cli.main()`, `import
   mypkg.trainer as T; T.run()`. Python binds the names as the language reference says ("The import statement":
   `import a.b` binds a, `import a.b as T` binds a.b, `from a import b` takes a's attribute b or else its submodule
   a.b), and the function called is followed to the module of the checkout that defines it (configs.own_definition);
   main followed only `from m import f; f()`.
2. src/ layouts: a package under src/ (or the folder pyproject.toml / setup.py / setup.cfg names as its package dir)
   imported by its bare name from a script at the root or under scripts/: the package is installed from there (`pip
   install -e .`), so that is where the import finds it; main looked only beside the script and two folders up.
3. Hydra: `--config-path` / `-cp` (replaces the decorator's config_path, relative to the script), `--config-dir` /
   `-cd` (a config folder searched after the app's own), and `${oc.env:VAR,default}` (the launch's exported VAR, else
   the default, else unknown); main refused the flags and left `${oc.env:...}` unknown.
Every file here is written by cfg93 for these tests; each reading asserted below differed on main (checked)."""

from __future__ import annotations

import pytest

from attn_doctor import configs
from configs_corpus import put, trainer_reading
from test_configs_cfg87 import FILES, PRIMARY, SCRIPT as HYDRA_SCRIPT
from test_configs_cfg90 import TRAINER  # (a function that loads a model with fa2 and runs TRL's SFTTrainer)

FA2 = ("transformers", ["fa2"], "bfloat16")


def _trainer(root, rel, name="train", attn="flash_attention_2"):
    return put(root, rel, TRAINER.format(name=name, attn=attn))


def _script(root, text, rel="scripts/train.py"):
    return put(root, rel, '"""Entry point."""\n' + text)


# -- 1. calls through a module object ------------------------------------------------------------------------------------

@pytest.mark.parametrize("files, script", [
    # the package re-exports the function; the script calls it on the package
    ({"mypkg/__init__.py": "from .trainer import train\n"}, "import mypkg\n\nif __name__ == '__main__':\n    mypkg.train()\n"),
    # a submodule imported from its package by name, its function called on it
    ({"mypkg/__init__.py": ""}, "from mypkg import trainer\n\ntrainer.train()\n"),
    ({"mypkg/__init__.py": ""}, "from mypkg import trainer as cli\n\n\ndef main():\n    cli.train()\n\n\nmain()\n"),
    # `import a.b as T` binds T to a.b
    ({"mypkg/__init__.py": ""}, "import mypkg.trainer as T\n\nT.train()\n"),
    # `import a.b` binds a; a.b is its attribute once imported
    ({"mypkg/__init__.py": ""}, "import mypkg.trainer\n\nmypkg.trainer.train()\n"),
    # the package's __init__ imports the submodule, which makes it the package's attribute
    ({"mypkg/__init__.py": "from . import trainer\n"}, "import mypkg\n\nmypkg.trainer.train()\n"),
    ({"mypkg/__init__.py": "from .trainer import train as _t\n"}, "import mypkg\n\nmypkg.trainer.train()\n"),
    # a plain module beside the script
    ({}, "import trainer_mod as tm\n\ntm.train()\n"),
])
def test_a_call_through_a_module_object_reaches_the_trainer(tmp_path, files, script):
    for rel, text in files.items():
        put(tmp_path, rel, text)
    _trainer(tmp_path, "mypkg/trainer.py")
    _trainer(tmp_path, "scripts/trainer_mod.py")
    assert trainer_reading(_script(tmp_path, script)) == FA2


@pytest.mark.parametrize("init, script", [
    ("", "import mypkg\n\nmypkg.trainer.train()\n"),  # nothing imports mypkg.trainer: AttributeError at run time
    ("", "import mypkg.trainer as T\n\nprint(T.__name__)\n"),  # nothing of the module is called
    ("from .trainer import train\n", "import mypkg\n\nprint(mypkg.__name__)\n"),  # nothing called
    ("", "import torch\nimport mypkg.trainer\n\ntorch.train()\n"),  # an installed library's function
    ("", "import mypkg.factory as F\n\nrunner = F.make()\nrunner.train()\n"),  # an object's method, not a module's
    ("", "import mypkg.missing as T\n\nT.train()\n"),  # the module is not here
])
def test_a_module_object_that_runs_no_trainer_here_stays_refused(tmp_path, init, script):
    put(tmp_path, "mypkg/__init__.py", init)
    _trainer(tmp_path, "mypkg/trainer.py")
    put(tmp_path, "mypkg/factory.py", "def make():\n    return None\n")
    assert trainer_reading(_script(tmp_path, script)) == "refused"


def test_a_launch_running_the_entry_script_reads_the_package_s_trainer(tmp_path):
    put(tmp_path, "mypkg/__init__.py", "")
    _trainer(tmp_path, "mypkg/cli.py", name="main", attn="sdpa")
    _script(tmp_path, "from mypkg import cli\n\ncli.main()\n", rel="train.py")
    launch = put(tmp_path, "scripts/run.sh", "#!/bin/bash\ncd \"$(dirname \"$0\")/..\"\naccelerate launch train.py\n")
    assert trainer_reading(launch) == ("transformers", ["sdpa"], "bfloat16")


# -- 2. src/ layouts -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("build, where", [
    ({"pyproject.toml": "[project]\nname = \"mypkg\"\nversion = \"0.1\"\n"}, "src"),  # setuptools' src-layout discovery
    ({"pyproject.toml": "[project]\nname = \"mypkg\"\n\n[tool.setuptools.packages.find]\nwhere = [\"lib\"]\n"}, "lib"),
    ({"pyproject.toml": "[tool.setuptools]\npackage-dir = {\"\" = \"code\"}\n"}, "code"),
    ({"pyproject.toml": "[tool.poetry]\nname = \"x\"\npackages = [{ include = \"mypkg\", from = \"lib\" }]\n"}, "lib"),
    ({"pyproject.toml": "[tool.hatch.build.targets.wheel]\npackages = [\"python/mypkg\"]\n"}, "python"),
    ({"setup.py": "from setuptools import setup, find_packages\n\nsetup(name='x', package_dir={'': 'src'},\n"
                  "      packages=find_packages('src'))\n"}, "src"),
    ({"setup.py": "from setuptools import setup, find_packages\n\nsetup(packages=find_packages(where=\"lib\"))\n"},
     "lib"),
    ({"setup.cfg": "[metadata]\nname = x\n\n[options]\npackage_dir =\n    =lib\n"}, "lib"),
])
@pytest.mark.parametrize("at", ["train.py", "scripts/train.py"])
def test_a_package_installed_from_its_package_dir_is_imported_by_its_bare_name(tmp_path, build, where, at):
    for rel, text in build.items():
        put(tmp_path, rel, text)
    put(tmp_path, f"{where}/mypkg/__init__.py", "from .trainer import train\n")
    _trainer(tmp_path, f"{where}/mypkg/trainer.py")
    assert trainer_reading(_script(tmp_path, "from mypkg import train\n\ntrain()\n", rel=at)) == FA2
    assert trainer_reading(_script(tmp_path, "import mypkg.trainer as T\n\nT.train()\n", rel=at)) == FA2


def test_a_src_package_through_a_launch(tmp_path):
    put(tmp_path, "pyproject.toml", "[build-system]\nrequires = [\"hatchling\"]\n\n[project]\nname = \"mypkg\"\n")
    put(tmp_path, "src/mypkg/__init__.py", "")
    _trainer(tmp_path, "src/mypkg/train.py", name="run")
    _script(tmp_path, "from mypkg.train import run\n\nrun()\n")
    launch = put(tmp_path, "run.sh", "#!/bin/bash\ntorchrun --nproc_per_node 2 scripts/train.py\n")
    assert trainer_reading(launch) == FA2


def test_a_module_run_with_m_from_the_package_dir_the_build_names(tmp_path):
    """`python -m mypkg.train` of a package installed from lib/ (main looked under src/ and the root only)"""
    put(tmp_path, "pyproject.toml", "[project]\nname = \"mypkg\"\n\n[tool.setuptools.packages.find]\nwhere = [\"lib\"]\n")
    put(tmp_path, "lib/mypkg/__init__.py", "")
    put(tmp_path, "lib/mypkg/train.py", TRAINER.format(name="main", attn="flash_attention_2") + "\n\nmain()\n")
    launch = put(tmp_path, "scripts/train.sh", "#!/bin/bash\naccelerate launch -m mypkg.train\n")
    assert trainer_reading(launch) == FA2


@pytest.mark.parametrize("build", [
    {},  # no build configuration: nothing installs src/ (the import fails unless PYTHONPATH says otherwise)
    {"pyproject.toml": "[project]\nname = \"mypkg\"\n\n[tool.setuptools.packages.find]\nwhere = [\"lib\"]\n"},
])
def test_a_src_folder_nothing_installs_is_not_where_the_import_looks(tmp_path, build):
    for rel, text in build.items():
        put(tmp_path, rel, text)
    put(tmp_path, "src/mypkg/__init__.py", "from .trainer import train\n")
    _trainer(tmp_path, "src/mypkg/trainer.py")
    assert trainer_reading(_script(tmp_path, "from mypkg import train\n\ntrain()\n")) == "refused"


# -- 3. Hydra's config folder flags and ${oc.env:...} --------------------------------------------------------------------

def _hydra_repo(tmp_path, primary=PRIMARY, folder="conf", files=FILES):
    put(tmp_path, "src/train.py", HYDRA_SCRIPT)
    put(tmp_path, f"{folder}/config.yaml", primary)
    for rel, text in files.items():
        put(tmp_path, folder + rel[len("conf"):], text)


def _launch(tmp_path, body):
    return put(tmp_path, "scripts/run.sh", "#!/bin/bash\nset -e\n" + body + "\n")


@pytest.mark.parametrize("line", [
    "python src/train.py --config-path ../exp_conf model=qwen training=qlora",
    "python src/train.py -cp ../exp_conf model=qwen training=qlora",
    "python src/train.py --config-path=../exp_conf -cn config model=qwen training=qlora",
])
def test_config_path_replaces_the_decorator_s_folder(tmp_path, line):
    """The app's own conf/ chooses llama (no attention, bf16 false); exp_conf/, named by the flag relative to the
    script (Hydra: hydra/_internal/utils.py _run_hydra, `config_path = args.config_path`), is what composes."""
    _hydra_repo(tmp_path)
    _hydra_repo(tmp_path, folder="exp_conf")
    put(tmp_path, "conf/model/qwen.yaml", "name: Qwen/Qwen2.5-7B\nattn_implementation: eager\n")
    assert trainer_reading(_launch(tmp_path, line)) == FA2


@pytest.mark.parametrize("words, want", [
    # exp_conf's own primary (model llama, training base) with model=qwen: exp_conf/model/qwen.yaml's fa2, bf16 false
    ("-cp /workspace/myrepo/exp_conf model=qwen", ("transformers", ["fa2"], None)),
    # the app's conf/ primary (model mistral, training qlora): mistral.yaml only exp_conf/ has, qlora's bf16 from conf/
    ("-cd /workspace/myrepo/exp_conf", FA2),
])
def test_a_config_folder_of_another_machine_is_found_in_the_checkout(tmp_path, words, want):
    """A folder written for the cluster the repository is checked out on (`/workspace/myrepo/exp_conf`): its last
    parts under the checkout (the launcher's folder or the two above it), as a file named so is found."""
    _hydra_repo(tmp_path)
    _hydra_repo(tmp_path, folder="exp_conf")
    put(tmp_path, "conf/config.yaml", "defaults:\n  - model: mistral\n  - training: qlora\n  - _self_\n\noutput_dir: o\n")
    put(tmp_path, "exp_conf/model/mistral.yaml", "name: m/m\nattn_implementation: flash_attention_2\n")
    assert trainer_reading(_launch(tmp_path, "python src/train.py " + words)) == want


def test_config_dir_adds_a_folder_searched_after_the_app_s_own(tmp_path):
    """`-cd extra` (relative to where the command runs): a group option only extra/ has is found there; one both have
    is the app's own (Hydra puts the command line's folder after the app's: search_path.prepend(..., anchor=schema))."""
    _hydra_repo(tmp_path)
    put(tmp_path, "extra/model/mistral.yaml", "name: m/m\nattn_implementation: flash_attention_2\n")
    put(tmp_path, "extra/training/qlora.yaml", "bf16: false\n")
    launch = _launch(tmp_path, "cd \"$(dirname \"$0\")/..\"\npython src/train.py -cd extra model=mistral training=qlora")
    assert trainer_reading(launch) == FA2
    launch = _launch(tmp_path, "cd \"$(dirname \"$0\")/..\"\npython src/train.py --config-dir=extra model=mistral")
    assert trainer_reading(launch) == ("transformers", ["fa2"], None)


def test_a_primary_config_only_the_config_dir_has(tmp_path):
    _hydra_repo(tmp_path)
    put(tmp_path, "extra/fast.yaml", "defaults:\n  - model: qwen\n  - training: qlora\n  - _self_\n\noutput_dir: o\n")
    launch = _launch(tmp_path, "cd \"$(dirname \"$0\")/..\"\npython src/train.py -cd extra -cn fast")
    assert trainer_reading(launch) == FA2


@pytest.mark.parametrize("line", [
    "python src/train.py -cp ../elsewhere model=qwen",  # a folder that is not here: its files are not read
    "python src/train.py -cp $CONF_DIR model=qwen",  # chosen at run time
])
def test_a_config_folder_not_here_stays_refused(tmp_path, line):
    _hydra_repo(tmp_path)
    assert trainer_reading(_launch(tmp_path, line)) == "refused"


ENV_MODEL = "name: Qwen/Qwen2.5-7B\nattn_implementation: ${oc.env:ATTN_IMPL%s}\n"


@pytest.mark.parametrize("default, body, want", [
    (",flash_attention_2", "python src/train.py", ["fa2"]),  # the default
    (",flash_attention_2", "export ATTN_IMPL=eager\npython src/train.py", []),  # the launch's export wins
    ("", "export ATTN_IMPL=flash_attention_2\npython src/train.py model=envy", ["fa2"]),
    ("", "ATTN_IMPL=eager python src/train.py", []),  # set in front of the command
    (", flash_attention_2", "ATTN_IMPL=sdpa\npython src/train.py", ["fa2"]),  # only the shell's: not the script's
])
def test_an_oc_env_interpolation_takes_the_launch_s_variable_or_its_default(tmp_path, default, body, want):
    """(OmegaConf's oc.env resolver: the variable's value, else the default given after the comma; main: unknown)"""
    _hydra_repo(tmp_path, primary=PRIMARY.replace("model: llama", "model: envy"))
    put(tmp_path, "conf/model/envy.yaml", ENV_MODEL % default)
    assert trainer_reading(_launch(tmp_path, body)) == ("transformers", want, None)


def test_an_oc_env_variable_nothing_sets_and_without_default_is_unknown(tmp_path):
    """Not sdpa (the script's getter default): the run's environment decides, unknown here."""
    _hydra_repo(tmp_path, primary=PRIMARY.replace("model: llama", "model: envy"))
    put(tmp_path, "conf/model/envy.yaml", ENV_MODEL % "")
    assert trainer_reading(_launch(tmp_path, "OTHER=1 python src/train.py")) == ("transformers", [], None)
    assert trainer_reading(tmp_path / "src/train.py") == ("transformers", [], None)
