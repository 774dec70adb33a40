"""Issue 24, helper cfg77 (session 18): which file of a user's repository parses a YAML of TrainingArguments / TRL
field names.

Such a YAML was claimed or refused on its keys alone (hf_transformers.fields_evidence: 0.9 of them TRL's decides), while
the repository says which program parses it. Read with its repository beside it (`check --config` in a checkout, the
rounds' repository layout), a script that names the file (its path, its folder, an argparse default, a glob) or a
launch script that runs one of the repository's scripts with it decides (attn_doctor/configs/parsed_by.py):
TrlParser / H4ArgumentParser / HfArgumentParser.parse_yaml_file / parse_json_file / parse_args_and_config fill the
trainer's dataclasses (transformers, whatever share of its keys are the user's own dataclass's); yaml.safe_load /
OmegaConf.load / json.load in a script that builds no transformers / TRL trainer and configures none of their arguments
make it the user's own settings (refused, cfg74's convention, naming the script). Nothing found (a file read alone, a
script naming another file, a script of another repository): the keys decide as before.

Round 72m's ALIRE-HES-SO sft.yaml (main.py's TrlParser) and round 68m's AounAbdullah qlora_7b.yaml (scripts/train_sft.py's
yaml.safe_load) are the real cases; neither set keeps the parsing script, so their xfails stay. Every variant here is
synthetic, written by cfg77 (tests/data/configs_cfg77/ and the tmp_path repositories below)."""

from __future__ import annotations

from pathlib import Path

import pytest

from attn_doctor import configs
from attn_doctor.model import UsageError
from ci_support import cli

DATA = Path(__file__).resolve().parent / "data" / "configs_cfg77"


def _trainer(path) -> str | None:
    try:
        return configs.load(str(path))["detected"]["trainer"]
    except UsageError:
        return None


def _refusal(path) -> str:
    with pytest.raises(UsageError) as err:
        configs.load(str(path))
    msg = str(err.value)
    assert "\n" not in msg
    return msg


def test_a_trlparser_recipe_run_by_the_repositorys_launcher_is_transformers():
    """main.py parses it with TrlParser((SFTConfig, ModelConfig, ExtraConfig)); scripts/launch.sh runs main.py with it.
    Read alone, the same keys (0.83 TRL's, LLaMA-Factory's model_class among them) are refused."""
    cfg = configs.load(str(DATA / "trl_main/configs/sql/sft.yaml"))
    assert cfg["detected"]["trainer"] == "transformers"
    assert cfg["dtype"] == "bfloat16"
    assert sorted(cfg["required"]) == ["fa2"]
    assert _trainer(DATA / "alone/configs/sft.yaml") is None


def test_a_yaml_parsed_by_hfargumentparser_from_an_argparse_default_is_transformers():
    cfg = configs.load(str(DATA / "hfp_default/recipes/base_run.yml"))
    assert cfg["detected"]["trainer"] == "transformers"
    assert any("finetune.py" in str(e) and "parse_yaml_file" in str(e)
               for e in cfg["detected"].get("evidence") or [])


@pytest.mark.parametrize("path,script,how", [
    ("own_script/configs/qlora_small.yaml", "scripts/train_sft.py", "yaml.safe_load"),
    ("own_glob/conf/sweep_a.yaml", "src/run.py", "OmegaConf.load"),
])
def test_a_yaml_the_users_own_script_reads_is_refused_naming_it(path, script, how):
    msg = _refusal(DATA / path)
    assert f"the repository's {script} reads it with {how}()" in msg
    assert "takes its values by name into its own settings" in msg


def test_the_same_keys_read_alone_or_handed_to_a_trainer_stay_transformers():
    """Today's rule where the repository says nothing else: the file alone, a script that hands the values to SFTConfig
    and SFTTrainer, and a file of one repository beside another whose script names a same-named path."""
    for p in ("alone/configs/qlora_small.yaml", "into_trainer/configs/sft.yaml", "two/alpha/configs/run.yaml"):
        assert _trainer(DATA / p) == "transformers", p


def test_the_refusal_is_one_line_exit_2():
    r = cli("check", "--config", str(DATA / "own_script/configs/qlora_small.yaml"))
    assert r.returncode == 2
    assert "Traceback" not in r.stderr + r.stdout
    assert "scripts/train_sft.py reads it with yaml.safe_load()" in r.stderr + r.stdout


# ---- variants: a small repository written per test ------------------------------------------------------------------

KEYS = """model_name_or_path: Qwen/Qwen3-1.7B
attn_implementation: sdpa
learning_rate: 1.0e-5
num_train_epochs: 1
per_device_train_batch_size: 2
gradient_accumulation_steps: 4
bf16: true
logging_steps: 10
output_dir: out
"""
OWN = "run_tag: a\nshard_dir: /data/x\nprompt_file: p.txt\n"  # three keys of the user's own: 9 of 12 TRL's (0.75)
TRL_SCRIPT = """from trl import {imp}, ModelConfig, SFTConfig
{call}
"""
TRAINER_CALLS = {
    "trlparser": ("TrlParser", "a, b = TrlParser((SFTConfig, ModelConfig)).parse_args_and_config()"),
    "h4": ("SFTTrainer", "from alignment import H4ArgumentParser\nm, t = H4ArgumentParser((ModelConfig, SFTConfig)).parse()"),
    "yaml_file": ("SFTTrainer", "from transformers import HfArgumentParser\n"
                  "m, t = HfArgumentParser((ModelConfig, SFTConfig)).parse_yaml_file(CONFIG)"),
}
OWN_CALLS = {
    "safe_load": "import yaml\ncfg = yaml.safe_load(open(CONFIG))",
    "load_loader": "import yaml\nwith open(CONFIG) as fh:\n    cfg = yaml.load(fh, Loader=yaml.FullLoader)",
    "omegaconf": "from omegaconf import OmegaConf\ncfg = OmegaConf.load(CONFIG)",
}


def _repo(tmp_path: Path, config_at: str, keys: str, files: dict) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "README.md").write_text("written by cfg77: a repository marker\n")
    cfg = tmp_path / config_at
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text("# written by cfg77: fakes a settings file of the repository\n" + keys)
    for name, text in files.items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return cfg


@pytest.mark.parametrize("call", sorted(TRAINER_CALLS))
@pytest.mark.parametrize("naming", ["default", "launcher", "glob", "folder"])
def test_variants_parsed_by_a_trainers_parser_are_transformers(tmp_path, call, naming):
    imp, body = TRAINER_CALLS[call]
    const = {"default": 'CONFIG = "recipes/sft_run.yaml"\n', "launcher": 'CONFIG = None\n',
             "glob": 'import glob\nCONFIG = glob.glob("recipes/*.yaml")[0]\n',
             "folder": 'import os\nCONFIG = os.path.join("recipes", "sft_run.yaml")\n'}[naming]
    files = {"src/train.py": "# written by cfg77: fakes a training script\n" + const + TRL_SCRIPT.format(imp=imp, call=body)}
    if naming == "launcher":
        files["jobs/run.slurm"] = ("#!/bin/bash\n# written by cfg77: fakes a Slurm job\n#SBATCH --gres=gpu:1\n"
                                   "srun python src/train.py --config recipes/sft_run.yaml\n")
    cfg = _repo(tmp_path, "recipes/sft_run.yaml", OWN + KEYS, files)
    assert _trainer(cfg) == "transformers"


@pytest.mark.parametrize("call", sorted(OWN_CALLS))
@pytest.mark.parametrize("naming", ["default", "launcher", "pathlib"])
def test_variants_read_by_the_users_own_script_are_refused(tmp_path, call, naming):
    const = {"default": 'import argparse\nap = argparse.ArgumentParser()\nap.add_argument("--config", '
                        'default="cfg/run.yaml")\nCONFIG = ap.parse_args().config\n',
             "launcher": 'import sys\nCONFIG = sys.argv[2]\n',
             "pathlib": 'from pathlib import Path\nCONFIG = Path(__file__).resolve().parent.parent / "cfg" / "run.yaml"\n'
             }[naming]
    files = {"tools/finetune.py": "# written by cfg77: fakes a user's own script\n" + const + OWN_CALLS[call] +
             "\nprint(cfg)\n"}
    if naming == "launcher":
        files["train.sh"] = "# written by cfg77: fakes a launcher\npython tools/finetune.py --config cfg/run.yaml\n"
    cfg = _repo(tmp_path, "cfg/run.yaml", KEYS, files)
    assert _trainer(cfg) is None
    assert "tools/finetune.py reads it with" in _refusal(cfg)


def test_nothing_changes_where_the_repository_does_not_say(tmp_path):
    """A script naming another file of the folder, one that loads the YAML into TrainingArguments(**cfg), one that
    names the file without parsing it beside one that reads it with yaml.safe_load, a bare `*.yaml` glob, the folder
    named without the file's name: the keys decide (transformers)."""
    cases = [
        {"a.py": "# written by cfg77: names another file\nimport yaml\ncfg = yaml.safe_load(open('cfg/other.yaml'))\n"},
        {"a.py": "# written by cfg77: hands it to TrainingArguments\nimport yaml\nfrom transformers import "
                 "TrainingArguments\ncfg = yaml.safe_load(open('cfg/run.yaml'))\nargs = TrainingArguments(**cfg)\n"},
        {"a.py": "# written by cfg77: reads it\nimport yaml\ncfg = yaml.safe_load(open('cfg/run.yaml'))\n",
         "b.py": "# written by cfg77: copies it\nimport shutil\nshutil.copy('cfg/run.yaml', 'out/run.yaml')\n"},
        # a bare glob beside the file, and the file's folder named without the file's name
        {"cfg/a.py": "# written by cfg77: a bare glob\nimport glob, yaml\nfor p in glob.glob('*.yaml'):\n"
                     "    print(yaml.safe_load(open(p)))\n"},
        {"a.py": "# written by cfg77: globs of everything\nimport glob, json\nfiles = glob.glob('**/*', recursive=True)"
                 "\nmore = glob.glob('*/*.yaml')\nprint(json.load(open(files[0])))\n"},
        {"a.py": "# written by cfg77: another file of the folder\nimport os, yaml\nD = 'cfg'\n"
                 "cfg = yaml.safe_load(open(os.path.join(D, 'settings.yaml')))\n"},
    ]
    for i, files in enumerate(cases):
        root = tmp_path / str(i)
        root.mkdir()
        cfg = _repo(root, "cfg/run.yaml", KEYS, files)
        assert _trainer(cfg) == "transformers", files


def test_a_trainers_parser_wins_over_a_users_reader(tmp_path):
    files = {"a.py": "# written by cfg77: inspects it\nimport yaml\ncfg = yaml.safe_load(open('cfg/run.yaml'))\n",
             "b.py": "# written by cfg77: trains on it\nfrom trl import TrlParser, SFTConfig\nCONFIG = 'cfg/run.yaml'\n"
                     "t, = TrlParser((SFTConfig,)).parse_yaml_file(CONFIG)\n"}
    cfg = _repo(tmp_path, "cfg/run.yaml", OWN + KEYS, files)
    assert _trainer(cfg) == "transformers"


PICKED = '''"""written by cfg77: fakes a user's SFT script that picks its YAML's values by name into SFTConfig / SFTTrainer.

Usage:
    python scripts/sft_run.py --config settings/small.yaml
"""
import argparse

import yaml
from trl import SFTConfig, SFTTrainer

ap = argparse.ArgumentParser()
ap.add_argument("--config", required=True)
cfg = yaml.safe_load(open(ap.parse_args().config))
args = SFTConfig(output_dir=cfg["output_dir"], bf16=cfg.get("bf16", True),
                 learning_rate=float(cfg.get("learning_rate", 2e-4)))
SFTTrainer(model=cfg["model_name_or_path"], args=args).train()
'''


@pytest.mark.parametrize("where", ["docstring", "readme", "comment"])
def test_values_picked_by_name_into_a_trainer_make_the_yaml_the_scripts_own(tmp_path, where):
    """Round 68m's AounAbdullah qlora_7b.yaml (label unclaimed:user-script): its scripts/train_sft.py reads it with
    yaml.safe_load and hands SFTConfig the values it picks by name; the script says how it is run only in its usage
    line (a docstring's, a README's, a comment's). Handed whole (`SFTConfig(**cfg)`) the keys are SFTConfig's."""
    script = PICKED
    files = {}
    if where == "readme":
        script = script.replace("    python scripts/sft_run.py --config settings/small.yaml\n", "")
        files["README.md"] = "# written by cfg77: a README\n\n```bash\npython scripts/sft_run.py --config settings/small.yaml\n```\n"
    elif where == "comment":
        script = script.replace("    python scripts/sft_run.py --config settings/small.yaml\n", "") + \
            "# run: python scripts/sft_run.py --config=settings/small.yaml\n"
    files["scripts/sft_run.py"] = script
    cfg = _repo(tmp_path / "own", "settings/small.yaml", KEYS, files)
    assert "scripts/sft_run.py reads it with yaml.safe_load()" in _refusal(cfg)
    files["scripts/sft_run.py"] = script.replace('args = SFTConfig(output_dir=cfg["output_dir"], bf16=cfg.get("bf16", True),\n'
                                                 '                 learning_rate=float(cfg.get("learning_rate", 2e-4)))',
                                                 "args = SFTConfig(**cfg)")
    assert "SFTConfig(**cfg)" in files["scripts/sft_run.py"]
    whole = _repo(tmp_path / "whole", "settings/small.yaml", KEYS, files)
    assert _trainer(whole) == "transformers"


def test_a_commented_out_shell_command_is_no_reading(tmp_path):
    files = {"scripts/sft_run.py": PICKED.replace("    python scripts/sft_run.py --config settings/small.yaml\n", ""),
             "run.sh": "# written by cfg77: a launcher whose only line naming the file is commented out\n"
                       "# python scripts/sft_run.py --config settings/small.yaml\npython scripts/sft_run.py --config "
                       "settings/big.yaml\n"}
    cfg = _repo(tmp_path, "settings/small.yaml", KEYS, files)
    assert _trainer(cfg) == "transformers"


@pytest.mark.parametrize("imp,want", [("from configs import SFTConfig", None), ("from trl import SFTConfig", "transformers"),
                                      ("import trl\nSFTConfig = trl.SFTConfig", None)])
def test_a_parser_of_the_repositorys_own_classes_leaves_the_keys_to_decide(tmp_path, imp, want):
    """Round 9's Hexixi926 sft.py (label of its sft_config.yaml: unclaimed:user-script): HfArgumentParser(SFTConfig) of
    the repository's own configs.py reads the repository's schema; TRL's SFTConfig given to it reads TRL's fields. (A
    class reached through an assignment is not followed: the keys decide, as before.)"""
    files = {"configs.py": "# written by cfg77: the user's own dataclass\nfrom dataclasses import dataclass\n"
                           "from transformers import TrainingArguments\n\n\n@dataclass\nclass SFTConfig(TrainingArguments):\n"
                           "    run_tag: str = 'a'\n",
             "sft.py": f"# written by cfg77: parses the YAML beside it\nfrom transformers import HfArgumentParser\n{imp}\n"
                       "cfg = HfArgumentParser(SFTConfig).parse_yaml_file('sft_config.yaml')[0]\n"}
    cfg = _repo(tmp_path, "sft_config.yaml", OWN + KEYS, files)
    assert _trainer(cfg) == want
