"""Round 68m read as training material (helper cfg71): each miss it showed that one mechanism fixes, read here on
variants written for this file (other names, spellings, getters, layouts, trainers), with the neighbours that must keep
their reading.

- an attention implementation a script looks up with a default in a settings dict that is not here (round 68m's
  nhockid235 src/trainers/grpo.py: `attn_impl = grpo_kwargs.pop("attn_implementation", "flash_attention_2")` of the
  YAML a required --config names, into GRPOConfig's model_init_kwargs): the default is the attention the script is
  written for, as an autocast switch's default is its precision (cfg63); `.get` / `.pop` / `getattr(obj, name, d)` /
  `OmegaConf.select(cfg, key, default=d)`, held in a name or written in the call, into from_pretrained or
  model_init_kwargs. A dict known here answers with its own entry (`.pop` as `.get`), a default that names no
  attention implementation says nothing;
- a launcher kept in a folder of the repository that runs a Python script by its bare name which is not beside it
  (round 68m's frankyaoxiao scripts/sft_qwen4b_toxic.sh: `uv run python train_sft.py`, the repository root's script):
  the nearest folder above that holds the script, when nothing else the launcher names says it runs from its own;
- a script whose top-level `if` on one of its options picks the trainer (`if args.full_finetune:` transformers'
  AutoModelForCausalLM, `else:` Unsloth's FastLanguageModel, the same train_sft.py): read as the launcher runs it, the
  branch its options rule out is no evidence. A test the options do not settle keeps both branches;
- an autocast switch compared from a precision word a lookup defaults (`precision = train_cfg.get("precision",
  "fp16").lower()`, `fp16 = precision == "fp16"`, round 68m's Min-DongYoung train.py), its settings file not here: the
  comparison on the default, as cfg63's `fp16=cfg.get("fp16", True)` (transformers and Unsloth);
- keywords spread through a signature filter of the script's own (`SFTConfig(**filter_sft_kwargs(sft_kwargs))` of `def
  filter_sft_kwargs(kwargs): sig = inspect.signature(SFTConfig.__init__) ... for key, value in kwargs.items(): if key
  in params: filtered[key] = value ... return filtered`, the same train.py): the dict's config-class fields, as round
  61m's comprehension form reads;
- a TRL config with neither bf16 nor fp16 in a repository that pins TRL at 0.19 or later (round 68m's Shine1i
  src/gec/fine_tune.py, its pyproject.toml `trl[vllm]>=0.25.1`): TRL's own bf16 default, as the `dtype` key dates it
  (requirements*.txt, pyproject.toml, setup.py / setup.cfg, environment.yml, in the file's folder or two above). The
  set keeps no pyproject.toml, so Shine1i stays a miss there."""

from __future__ import annotations

from pathlib import Path

import pytest

from attn_doctor import configs
from attn_doctor.model import UsageError
from configs_corpus import reading


def _write(base: Path, rel: str, text: str) -> Path:
    p = base / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


def _load(path: Path) -> tuple:
    return reading(configs.load(str(path)))


# -- an attention lookup's default, its settings file not here ----------------------------------------------------------

LOAD_KW = '''import argparse
import torch
import yaml
from transformers import AutoModelForCausalLM
from trl import SFTConfig, SFTTrainer

parser = argparse.ArgumentParser()
parser.add_argument("--config", required=True)
args = parser.parse_args()
with open(args.config) as fh:
    cfg = yaml.safe_load(fh)
{held}
model = AutoModelForCausalLM.from_pretrained(cfg["model"], torch_dtype=torch.bfloat16, attn_implementation={attn})
trainer = SFTTrainer(model=model, args=SFTConfig(output_dir="out", bf16=True))
trainer.train()
'''

INIT_KW = '''import torch
from omegaconf import OmegaConf
from trl import GRPOConfig, GRPOTrainer


def main(path):
    settings = OmegaConf.load(path)
    grpo_kwargs = dict(settings["grpo"])
    {held}
    conf = GRPOConfig(output_dir="o", bf16=True, model_init_kwargs={{"torch_dtype": torch.bfloat16,
                                                                     "attn_implementation": {attn}}})
    GRPOTrainer(model="Qwen/Qwen2.5-1.5B-Instruct", args=conf, reward_funcs=[len]).train()


if __name__ == "__main__":
    import sys
    main(sys.argv[1])
'''


@pytest.mark.parametrize("held, attn, want", [
    ("", 'cfg.get("attn_implementation", "flash_attention_2")', ["fa2"]),
    ("", 'cfg["model_args"].get("attn", "sdpa")', ["sdpa"]),
    ("", 'dict(cfg).pop("attn_implementation", "flash_attention_3")', ["fa3"]),
    ('attn_impl = cfg.pop("attention", "flex_attention")', "attn_impl", ["flex"]),
    ('impl = getattr(args, "attn_impl", "flash_attention_2")', "impl", ["fa2"]),
    ("", 'cfg.get("attn_implementation", "eager")', []),
])
def test_an_attention_lookups_default_is_the_scripts_attention(tmp_path, held, attn, want):
    p = _write(tmp_path, "train.py", LOAD_KW.format(held=held, attn=attn))
    assert _load(p) == ("transformers", want, "bfloat16", "none")


@pytest.mark.parametrize("held, attn, name, want", [
    ('attn_impl = grpo_kwargs.pop("attn_implementation", "flash_attention_2")', "attn_impl", "flash_attention_2",
     ["fa2"]),
    ('attn_impl = grpo_kwargs.get("attn_implementation", "sdpa")', "attn_impl", "sdpa", ["sdpa"]),
    ("pass", 'OmegaConf.select(settings, "model.attn_implementation", default="flash_attention_2")',
     "flash_attention_2", ["fa2"]),
    ("pass", 'grpo_kwargs.pop("attn_implementation", "kernels-community/flash-attn3")', "kernels-community/flash-attn3",
     []),
])
def test_the_default_reaches_model_init_kwargs(tmp_path, held, attn, name, want):
    """Into a TRL config's model_init_kwargs, the way round 68m's grpo.py hands it (the hub kernel: no local backend to
    require, as `attn_implementation: kernels-community/flash-attn3` written out reads)."""
    p = _write(tmp_path, "grpo.py", INIT_KW.format(held=held, attn=attn))
    got = configs.load(str(p))
    assert reading(got) == ("transformers", want, "bfloat16", "none")
    assert [a["name"] for a in got["attention"]] == [name]


@pytest.mark.parametrize("attn", [
    'cfg.get("attn_implementation", default_attn)',         # a default held in a name set at run time
    'cfg.get("attn_implementation", "auto")',               # not an attention implementation transformers knows
    'cfg.get("attn_implementation")',                       # no default: the file decides
    'pick(cfg, "attn_implementation", "flash_attention_2")',  # a function of the user's own: its body decides
])
def test_a_lookup_without_an_attention_default_says_nothing(tmp_path, attn):
    held = "default_attn = input()\ndef pick(c, k, d):\n    return c.get(k) or d"
    p = _write(tmp_path, "train.py", LOAD_KW.format(held=held, attn=attn))
    assert _load(p) == ("transformers", [], "bfloat16", "none")


def test_a_dict_known_here_answers_its_own_entry(tmp_path):
    """`.pop` of a dict the script writes out is the entry under the key, as `.get` is; the default only without it."""
    text = LOAD_KW.replace('with open(args.config) as fh:\n    cfg = yaml.safe_load(fh)\n',
                           'cfg = {{"model": "Qwen/Qwen3-4B", "attn_implementation": "sdpa"}}\n')
    assert "yaml.safe_load" not in text
    p = _write(tmp_path, "a.py", text.format(held="", attn='cfg.pop("attn_implementation", "flash_attention_2")'))
    assert _load(p) == ("transformers", ["sdpa"], "bfloat16", "none")
    q = _write(tmp_path, "b.py", text.format(held="", attn='cfg.pop("attention_backend", "flash_attention_2")'))
    assert _load(q) == ("transformers", ["fa2"], "bfloat16", "none")


def test_the_settings_file_here_decides(tmp_path):
    """The file the script reads by default is here: its value, not the getter's default (round 54m's tutucheng99 in
    its repository layout)."""
    text = LOAD_KW.replace('parser.add_argument("--config", required=True)',
                           'parser.add_argument("--config", default="configs/sft.yaml")')
    _write(tmp_path, "configs/sft.yaml", "model: Qwen/Qwen3-4B\nattn_implementation: flash_attention_2\n")
    p = _write(tmp_path, "train.py", text.format(held="", attn='cfg.get("attn_implementation", "sdpa")'))
    assert _load(p) == ("transformers", ["fa2"], "bfloat16", "none")


def test_the_round_68m_script_reads_flash_attention():
    """The file itself (flat layout): GRPOConfig(model_init_kwargs={torch_dtype: bfloat16, attn_implementation:
    grpo_kwargs.pop("attn_implementation", "flash_attention_2")}, **grpo_kwargs)."""
    p = Path(__file__).resolve().parents[1] / "fixtures" / "configs" / "round68m" / "transformers" / \
        "nhockid235__xling-grpo-sub3b__src__trainers__grpo.py"
    assert _load(p) == ("transformers", ["fa2"], "bfloat16", "none")


# -- a launcher in a folder of the repository running the root's script by its bare name --------------------------------

SCRIPT = '''import argparse
import torch
from transformers import AutoModelForCausalLM
from trl import SFTConfig, SFTTrainer

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=1)
parser.add_argument("--lr", type=float, default=1e-5)
args = parser.parse_args()
model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen3-4B", torch_dtype=torch.bfloat16,
                                             attn_implementation="flash_attention_2")
SFTTrainer(model=model, args=SFTConfig(output_dir="o", bf16=True, num_train_epochs=args.epochs)).train()
'''


@pytest.mark.parametrize("launcher, line", [
    ("scripts/run.sh", "uv run python train_sft.py --epochs 2 --lr 2e-5"),
    ("scripts/run.sh", "accelerate launch --num_processes 2 train_sft.py --epochs 2"),
    ("jobs/slurm/run.sbatch", "srun python train_sft.py --epochs 3"),
    ("bin/train.sh", "python3 train_sft.py \"$@\""),
])
def test_a_launcher_in_a_folder_runs_the_scripts_above_it(tmp_path, launcher, line):
    _write(tmp_path, "train_sft.py", SCRIPT)
    p = _write(tmp_path, launcher, "#!/bin/bash\nset -e\n" + line + "\n")
    assert _load(p) == ("transformers", ["fa2"], "bfloat16", "none")


def test_the_script_beside_the_launcher_comes_first(tmp_path):
    """A train_sft.py beside the launcher is the one it runs, whatever the root holds (an Unsloth script there)."""
    _write(tmp_path, "train_sft.py", "from unsloth import FastLanguageModel\nFastLanguageModel.from_pretrained('x')\n")
    _write(tmp_path, "scripts/train_sft.py", SCRIPT)
    p = _write(tmp_path, "scripts/run.sh", "python train_sft.py --epochs 2\n")
    assert _load(p) == ("transformers", ["fa2"], "bfloat16", "none")


def test_another_file_beside_the_launcher_says_it_runs_from_there(tmp_path):
    """`python train_sft.py --config sft.yaml` with sft.yaml beside the launcher: the run is in the launcher's folder,
    where no train_sft.py is, so the root's is not taken for it (refused, naming the script)."""
    _write(tmp_path, "train_sft.py", SCRIPT)
    _write(tmp_path, "scripts/sft.yaml", "lr: 1e-5\n")
    p = _write(tmp_path, "scripts/run.sh", "python train_sft.py --config sft.yaml\n")
    with pytest.raises(UsageError) as err:
        configs.load(str(p))
    assert "runs train_sft.py" in str(err.value)


# -- a top-level `if` on the script's option picks its trainer ----------------------------------------------------------

BRANCHED = '''import argparse
import torch
from trl import SFTConfig, SFTTrainer

parser = argparse.ArgumentParser()
parser.add_argument("--model", default="Qwen/Qwen3-4B")
parser.add_argument("{flag}", {kind})
parser.add_argument("--epochs", type=int, default=1)
args = parser.parse_args()

if {test}:
    from transformers import AutoModelForCausalLM
    model = AutoModelForCausalLM.from_pretrained(args.model, torch_dtype=torch.bfloat16)
else:
    from unsloth import FastLanguageModel
    model, tokenizer = FastLanguageModel.from_pretrained(args.model, load_in_4bit=True)
    model = FastLanguageModel.get_peft_model(model, r=16)

trainer = SFTTrainer(model=model, args=SFTConfig(output_dir="o", bf16=True, num_train_epochs=args.epochs))
trainer.train()
'''


@pytest.mark.parametrize("flag, kind, test, given, want", [
    ("--full-finetune", 'action="store_true"', "args.full_finetune", "--full-finetune", "transformers"),
    ("--full-finetune", 'action="store_true"', "args.full_finetune", "--epochs 2", "unsloth"),
    ("--use_unsloth", 'action="store_true"', "not args.use_unsloth", "--use_unsloth --epochs 2", "unsloth"),
    ("--use_unsloth", 'action="store_true"', "not args.use_unsloth", "--epochs 2", "unsloth"),
    ("--backend", 'default="unsloth"', 'args.backend == "hf"', "--backend hf", "transformers"),
    ("--backend", 'default="unsloth"', 'args.backend in ("hf", "transformers")', "--backend unsloth", "unsloth"),
    ("--no-unsloth", 'dest="unsloth", action="store_false"', "not args.unsloth", "--no-unsloth", "transformers"),
])
def test_the_branch_the_launchers_options_take(tmp_path, flag, kind, test, given, want):
    _write(tmp_path, "train_sft.py", BRANCHED.format(flag=flag, kind=kind, test=test))
    p = _write(tmp_path, "run.sh", f"python train_sft.py {given}\n")
    got = _load(p)
    assert got[0] == want
    if want == "transformers":
        assert got == ("transformers", [], "bfloat16", "none")


def test_a_test_the_options_do_not_settle_keeps_both_branches(tmp_path):
    """`if args.full_finetune and torch.cuda.device_count() > 1:` is decided on the machine: both branches stay, and
    Unsloth's import reads as before."""
    text = BRANCHED.format(flag="--full-finetune", kind='action="store_true"',
                           test="args.full_finetune and torch.cuda.device_count() > 1")
    _write(tmp_path, "train_sft.py", text)
    p = _write(tmp_path, "run.sh", "python train_sft.py --full-finetune\n")
    assert _load(p)[0] == "unsloth"


def test_the_script_read_alone_keeps_its_reading(tmp_path):
    """The script itself, read with no launcher: every branch as written (the label of round 68m's train_sft.py,
    Unsloth by its defaults, is read so)."""
    p = _write(tmp_path, "train_sft.py", BRANCHED.format(flag="--full-finetune", kind='action="store_true"',
                                                         test="args.full_finetune"))
    assert _load(p)[0] == "unsloth"


def test_the_round_68m_launcher_in_its_repository_layout(tmp_path):
    """frankyaoxiao/unsloth-qwen4b: scripts/sft_qwen4b_toxic.sh (`uv run python train_sft.py --full-finetune ...
    "$@"`) over the root's train_sft.py, both as the set keeps them, at their source paths."""
    root = Path(__file__).resolve().parents[1] / "fixtures" / "configs" / "round68m"
    _write(tmp_path, "train_sft.py",
           (root / "unsloth" / "frankyaoxiao__unsloth-qwen4b__train_sft.py").read_text(encoding="utf-8"))
    p = _write(tmp_path, "scripts/sft_qwen4b_toxic.sh",
               (root / "transformers" / "frankyaoxiao__unsloth-qwen4b__scripts__sft_qwen4b_toxic.sh")
               .read_text(encoding="utf-8"))
    assert _load(p) == ("transformers", [], "bfloat16", "none")
    assert _load(tmp_path / "train_sft.py") == ("unsloth", [], "bfloat16", "none")


# -- an autocast switch compared from a precision word a lookup defaults --------------------------------------------------

PRECISION = '''import sys
import yaml
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

cfg = yaml.safe_load(open(sys.argv[1]))
train_cfg = cfg["train"]
precision = {lookup}
fp16 = precision {fp16_test}
bf16 = precision {bf16_test}
model = AutoModelForCausalLM.from_pretrained(cfg["model"])
args = TrainingArguments(output_dir="o", fp16=fp16, bf16=bf16)
Trainer(model=model, args=args).train()
'''


@pytest.mark.parametrize("lookup, fp16_test, bf16_test, want", [
    ('train_cfg.get("precision", "fp16").lower()', '== "fp16"', '== "bf16"', "float16"),
    ('train_cfg.get("precision", "BF16").lower()', '== "fp16"', 'in ("bf16", "bfloat16")', "bfloat16"),
    ('str(train_cfg.pop("mixed_precision", "bf16")).strip()', 'in ["fp16", "16-mixed"]', '!= "no" and precision != "fp16"',
     ""),  # (a BoolOp on the second switch: not a comparison read here; the first says fp16 off, so nothing is said)
    ('getattr(cfg, "precision", "bf16-mixed")', '== "16-mixed"', 'in {"bf16", "bf16-mixed"}', "bfloat16"),
    ('train_cfg.get("precision", "no")', '== "fp16"', '== "bf16"', ""),  # both off: the file decides
    ('train_cfg.get("precision")', '== "fp16"', '== "bf16"', ""),      # no default
    # the environment's lookup: its default as the run sees it without the variable (pyscript constants, as before)
    ('os.environ.get("PRECISION", "fp16")', '== "fp16"', '== "bf16"', "float16"),
])
def test_a_switch_compared_from_a_precision_default(tmp_path, lookup, fp16_test, bf16_test, want):
    """Round 68m's Min-DongYoung train.py reads `precision = train_cfg.get("precision", "fp16").lower()`, `fp16 =
    precision == "fp16"`, `bf16 = precision == "bf16"`: with its settings file not here, the default turns fp16 on, the
    precision the script is written for (as `fp16=cfg.get("fp16", True)` reads since cfg63)."""
    text = PRECISION.format(lookup=lookup, fp16_test=fp16_test, bf16_test=bf16_test)
    if "os.environ" in text:
        text = "import os\n" + text
    p = _write(tmp_path, "train.py", text)
    assert _load(p) == ("transformers", [], want, "none")


def test_an_unsloth_script_reads_the_same_default(tmp_path):
    text = '''import sys
import yaml
from unsloth import FastLanguageModel
from trl import SFTConfig, SFTTrainer

cfg = yaml.safe_load(open(sys.argv[1]))
mode = cfg.get("precision", "bf16").lower()
model, tokenizer = FastLanguageModel.from_pretrained(cfg["model"], load_in_4bit=True)
args = SFTConfig(output_dir="o", bf16=mode == "bf16", fp16=mode == "fp16")
SFTTrainer(model=model, tokenizer=tokenizer, args=args).train()
'''
    p = _write(tmp_path, "train_unsloth.py", text)
    assert _load(p) == ("unsloth", [], "bfloat16", "none")


# -- keywords spread through a signature filter of the script's own -----------------------------------------------------

FILTERED = '''import inspect
from transformers import AutoModelForCausalLM
from trl import {cls}, SFTTrainer


def {fname}(kwargs):
    sig = inspect.signature({sig})
    params = set(sig.parameters.keys()) - {{"self"}}
    {kept} = {{}}
    for key, val in kwargs.items():
        if key in params:
            {kept}[key] = val
        elif key == "max_seq_length" and "max_length" in params:
            {kept}["max_length"] = val
    return {kept}


model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen3-0.6B")
cfg_kwargs = {{"output_dir": "o", "bf16": {bf16}, "fp16": {fp16}, "torch_compile": True, "max_seq_length": 1024}}
args = {cls}(**{fname}(cfg_kwargs))
SFTTrainer(model=model, args=args).train()
'''


@pytest.mark.parametrize("cls, fname, sig, kept, bf16, fp16, want", [
    ("SFTConfig", "filter_sft_kwargs", "SFTConfig.__init__", "filtered", "False", "True", ("float16", "default")),
    ("SFTConfig", "_compat", "SFTConfig", "out", "True", "False", ("bfloat16", "default")),
    ("GRPOConfig", "keep_known", "trl.GRPOConfig.__init__", "kw", "False", "True", ("float16", "default")),
])
def test_keywords_through_a_signature_filter_of_the_scripts_own(tmp_path, cls, fname, sig, kept, bf16, fp16, want):
    """Round 68m's Min-DongYoung train.py: `SFTConfig(**filter_sft_kwargs(sft_kwargs))`, its filter the loop form of
    round 61m's `{k: v for k, v in kw.items() if k in inspect.signature(TrainingArguments).parameters}`."""
    text = FILTERED.format(cls=cls, fname=fname, sig=sig, kept=kept, bf16=bf16, fp16=fp16)
    if "trl.GRPOConfig" in text:
        text = "import trl\n" + text
    p = _write(tmp_path, "train.py", text)
    got = configs.load(str(p))
    assert (got["dtype"], got["compile_mode"]) == want


def test_a_function_that_is_no_signature_filter_spreads_nothing(tmp_path):
    """A function that rewrites the values (here: every switch turned off) is not a filter: its keywords are unknown,
    and the run reads as with none given (TrainingArguments' own defaults: no autocast, nothing compiled)."""
    text = FILTERED.format(cls="SFTConfig", fname="tweak", sig="SFTConfig", kept="out", bf16="False", fp16="True")
    text = text.replace("] = val\n", "] = False\n")
    assert "= val\n" not in text
    p = _write(tmp_path, "train.py", text)
    got = configs.load(str(p))
    assert (got["dtype"], got["compile_mode"]) == (None, "none")


def test_an_elif_chain_on_the_option(tmp_path):
    """`if args.backend == "unsloth": ... elif args.backend == "hf": ... else: raise`: under `--backend hf` the first
    branch is not taken (blanked), the chain under it reads as written, its taken branch transformers'."""
    text = '''import argparse
import torch
from trl import SFTConfig, SFTTrainer

parser = argparse.ArgumentParser()
parser.add_argument("--backend", choices=["unsloth", "hf"], default="unsloth")
args = parser.parse_args()

if args.backend == "unsloth":
    from unsloth import FastLanguageModel
    model, tokenizer = FastLanguageModel.from_pretrained("unsloth/Qwen3-4B", load_in_4bit=True)
elif args.backend == "hf":
    from transformers import AutoModelForCausalLM
    model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen3-4B", torch_dtype=torch.bfloat16,
                                                 attn_implementation="sdpa")
else:
    raise SystemExit(f"unknown backend {args.backend}")

SFTTrainer(model=model, args=SFTConfig(output_dir="o", bf16=True)).train()
'''
    _write(tmp_path, "train.py", text)
    hf = _write(tmp_path, "run_hf.sh", "python train.py --backend hf\n")
    fast = _write(tmp_path, "run_fast.sh", "python train.py --backend unsloth\n")
    assert _load(hf) == ("transformers", ["sdpa"], "bfloat16", "none")
    assert _load(fast)[0] == "unsloth"


# -- the repository's TRL pin dates TRL's bf16 default ---------------------------------------------------------------------

TRL_SCRIPT = '''from peft import LoraConfig
from trl import GRPOConfig, GRPOTrainer


def run(cfg):
    args = GRPOConfig(output_dir="o", learning_rate=cfg.lr, num_generations=8, use_vllm=True, vllm_mode="colocate")
    GRPOTrainer(model=cfg.model_name, reward_funcs=[len], args=args, peft_config=LoraConfig(r=16)).train()
'''


@pytest.mark.parametrize("name, text, want", [
    ("pyproject.toml", '[project]\ndependencies = [\n  "trl[vllm]>=0.25.1",\n  "peft>=0.17",\n]\n', "bfloat16"),
    ("requirements.txt", "torch==2.9.0\ntrl==0.21.0\ntransformers>=4.56\n", "bfloat16"),
    ("requirements-train.txt", "TRL ~= 1.2\n", "bfloat16"),
    ("pyproject.toml", '[tool.poetry.dependencies]\npython = "^3.11"\ntrl = "^0.23.0"\n', "bfloat16"),
    ("setup.py", 'from setuptools import setup\nsetup(name="x", install_requires=["trl>=0.19.0", "peft"])\n',
     "bfloat16"),
    ("requirements.txt", "trl==0.15.2\n", ""),            # before TRL's bf16 default (0.19)
    ("requirements.txt", "trl<0.30\n", ""),               # no lower bound
    ("requirements.txt", "# trl>=0.25\ntrl\n", ""),        # a comment, and an unpinned name
    ("requirements.txt", "ctrl>=1.0\ntrl-helpers>=2.0\n", ""),  # other packages
])
def test_the_repositorys_trl_pin_dates_the_bf16_default(tmp_path, name, text, want):
    """Round 68m's Shine1i src/gec/fine_tune.py: GRPOConfig with neither bf16 nor fp16, the repository's pyproject.toml
    pinning trl[vllm]>=0.25.1 (not in the set): TRL >= 0.19 turns bf16 on when neither is set, so the run is bfloat16.
    The pin file at the repository root, two folders above the script."""
    _write(tmp_path, name, text)
    p = _write(tmp_path, "src/gec/fine_tune.py", TRL_SCRIPT)
    assert _load(p) == ("transformers", [], want, "none")


def test_every_pin_the_nearest_folder_holds_must_allow_it(tmp_path):
    """Two files of the root that disagree (one pins an older TRL): the release is not known."""
    _write(tmp_path, "pyproject.toml", '[project]\ndependencies = ["trl>=0.25"]\n')
    _write(tmp_path, "requirements-legacy.txt", "trl==0.12.0\n")
    p = _write(tmp_path, "src/gec/fine_tune.py", TRL_SCRIPT)
    assert _load(p)[2] == ""


def test_a_trl_command_line_with_the_pin(tmp_path):
    _write(tmp_path, "requirements.txt", "trl>=0.24.0\n")
    p = _write(tmp_path, "scripts/sft.sh", "trl sft --model_name_or_path Qwen/Qwen3-0.6B --dataset_name trl-lib/Capybara "
                                           "--output_dir out --use_peft\n")
    assert _load(p) == ("transformers", [], "bfloat16", "none")
