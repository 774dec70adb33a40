"""Issue 24, helper cfg32 (session 8): a setting's VALUE as the trainer's own loader resolves it, by mechanism, across
readers. The variant files (tests/data/config_values_cfg32/, each written for this test and saying what it fakes) put
the value that matters behind one mechanism each: a Python name bound earlier, a ternary on the device, the private
`_attn_implementation=` keyword, a dict of keywords unpacked into from_pretrained, os.environ.get with a default,
argparse defaults and choices; YAML anchors / aliases / merge keys, OmegaConf `${...}`, a Hydra `defaults:` list; shell
`${VAR:-default}`, a sourced file's exports, bash arrays; a TOML --config_file under command-line overrides; LLaMA-Factory
and axolotl YAML under command-line overrides. The audit table is benchmarks/results/configs-value-resolution-s8.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from attn_doctor import configs
from attn_doctor.model import UsageError

DATA = Path(__file__).resolve().parent / "data" / "config_values_cfg32"


def reading(name: str) -> tuple:
    c = configs.load(str(DATA / name))
    return c["detected"]["trainer"], c["required"], c["dtype"] or "", c["compile_mode"] or "none"


# file -> (trainer, required, dtype, compile_mode) as the trainer's own loader resolves the values; read right on main
# (87c7372) already: these guard that the mechanisms keep working
RIGHT_ON_MAIN = {
    "py_name_bound.py": ("transformers", ["fa2"], "bfloat16", "none"),
    "py_device_ternary.py": ("transformers", ["fa2"], "bfloat16", "none"),
    "py_kwargs_dict.py": ("transformers", ["fa2"], "bfloat16", "none"),
    "py_argparse_default.py": ("transformers", ["fa2"], "bfloat16", "none"),
    "argparse_launch.sh": ("transformers", ["sdpa"], "float16", "none"),
    "trl_anchor.yaml": ("transformers", ["fa2"], "bfloat16", "none"),
    "axolotl_alias.yaml": ("axolotl", ["sdpa"], "bfloat16", "none"),
    "axolotl_anchor_merge.yaml": ("axolotl", ["fa2"], "bfloat16", "default"),
    "axolotl_override.sh": ("axolotl", ["fa2"], "bfloat16", "default"),
    "llamafactory_anchor.yaml": ("llama-factory", ["fa2"], "bfloat16", "none"),
    # LLaMA-Factory's read_args does not resolve ${...} (OmegaConf.to_container without resolve=True): the literal
    # string reaches flash_attn, which is no AttentionFunction: no backend required, the entry says so
    "llamafactory_interp.yaml": ("llama-factory", [], "bfloat16", "none"),
    "llamafactory_override.sh": ("llama-factory", ["fa2"], "float16", "none"),
    "aitoolkit_anchor.yaml": ("ai-toolkit", [], "bfloat16", "none"),
    "musubi_var_default.sh": ("musubi", ["fa2"], "bfloat16", "none"),
    "musubi_array.sh": ("musubi", ["sage"], "bfloat16", "max-autotune"),
    "musubi_override.sh": ("musubi", ["sdpa"], "float16", "none"),
    "sdscripts_override.sh": ("sd-scripts", ["xformers"], "float16", "none"),
    "sdscripts_var_default.sh": ("sd-scripts", ["sdpa"], "float16", "none"),
}


@pytest.mark.parametrize("name", sorted(RIGHT_ON_MAIN))
def test_value_resolved_as_the_trainer_resolves_it(name):
    assert reading(name) == RIGHT_ON_MAIN[name]


def test_llamafactory_unresolved_interpolation_is_named_unknown():
    c = configs.load(str(DATA / "llamafactory_interp.yaml"))
    assert [(a["name"], a["known"]) for a in c["attention"]] == [("${attn}", False)]


def test_hydra_defaults_list_is_refused_not_read_as_trl():
    with pytest.raises(UsageError, match="Hydra"):
        configs.load(str(DATA / "trl_hydra_defaults.yaml"))


# ---------------------------------------------------------------------------------------------------------------------
# Phase 2: the mechanisms main read wrong (the audit's phase-2 list), each with variants and a near miss. On main
# (87c7372) every test marked NEW fails; the near misses pass there too and guard that nothing is read that is not set.
# ---------------------------------------------------------------------------------------------------------------------

def read_text(tmp_path, files: dict, name: str) -> tuple:
    """Write `files` (name -> text) into tmp_path and read `name` with no --trainer."""
    for n, text in files.items():
        p = tmp_path / n
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    c = configs.load(str(tmp_path / name))
    return c["detected"]["trainer"], c["required"], c["dtype"] or "", c["compile_mode"] or "none"


FIXED = {
    # NEW (shell.py parse / _sourced_file): a sourced file's exports
    "musubi_sourced.sh": ("musubi", ["xformers"], "float16", "none"),
    # NEW (pyscript.py value: os.environ.get / os.getenv with a default)
    "py_environ_default.py": ("transformers", ["fa2"], "bfloat16", "none"),
    # NEW (pyscript.py value: torch.device(...).type)
    "py_device_object.py": ("transformers", ["sdpa"], "float16", "none"),
    # NEW (pyscript.py constants / _dict_updates: kw["key"] = v outside a branch)
    "py_kwargs_dict_literal.py": ("transformers", ["sdpa"], "float16", "none"),
    # NEW (hf_transformers.py PY_KEYS: _attn_implementation=)
    "py_private_kwarg.py": ("transformers", ["fa2"], "bfloat16", "none"),
    "py_private_kwarg_cond.py": ("transformers", ["fa2"], "bfloat16", "none"),
    # NEW (torchtune.py _resolved: OmegaConf ${...})
    "torchtune_interp.yaml": ("torchtune", [], "bfloat16", "default"),
}


@pytest.mark.parametrize("name", sorted(FIXED))
def test_phase2_variant_files(name):
    assert reading(name) == FIXED[name]


# --- shell: `source FILE` / `. FILE` -----------------------------------------------------------------------------------

SD_CMD = ("accelerate launch train_network.py --pretrained_model_name_or_path=/m/v1-5.safetensors "
          "--train_data_dir=/data --output_dir=/out --network_module=networks.lora $ATTN --mixed_precision=$PREC\n")


def test_dot_sourced_plain_assignments_new(tmp_path):
    # NEW: `. ./settings.sh` with plain (not exported) assignments: the sourcing shell has them too
    got = read_text(tmp_path, {"settings.sh": "ATTN=--sdpa\nPREC=bf16\n",
                               "train.sh": "#!/bin/bash\n. ./settings.sh\n" + SD_CMD}, "train.sh")
    assert got == ("sd-scripts", ["sdpa"], "bfloat16", "none")


def test_sourced_from_a_subfolder_new(tmp_path):
    # NEW: `source config/env.sh`, relative to the script's folder, one file sourcing another
    got = read_text(tmp_path, {"config/env.sh": "export ATTN=--xformers\nsource ./prec.sh\n",
                               "config/prec.sh": "export PREC=fp16\n",
                               "run.sh": "#!/bin/bash\nsource config/env.sh\n" + SD_CMD}, "run.sh")
    assert got == ("sd-scripts", ["xformers"], "float16", "none")


def test_sourced_value_overridden_after_the_source_line_new(tmp_path):
    # NEW (PREC comes from the sourced file) and a near miss: the variable set again after sourcing: the later value wins
    got = read_text(tmp_path, {"env.sh": "ATTN=--xformers\nPREC=fp16\n",
                               "run.sh": "#!/bin/bash\nsource ./env.sh\nATTN=--sdpa\n" + SD_CMD}, "run.sh")
    assert got == ("sd-scripts", ["sdpa"], "float16", "none")


@pytest.mark.parametrize("line", ["source ./not_here.sh", 'source "$CONFIG_FILE"'])
def test_sourced_file_not_here_leaves_values_unknown(tmp_path, line):
    # near miss: a file that is not on this machine, or a path the caller gives: nothing guessed
    got = read_text(tmp_path, {"run.sh": f"#!/bin/bash\n{line}\n" + SD_CMD}, "run.sh")
    assert got[0] == "sd-scripts" and got[1] == [] and got[2] in ("", "float32")


# --- Python: os.environ.get / os.getenv ----------------------------------------------------------------------------------

PY_HEAD = "import os\nimport torch\nfrom transformers import AutoModelForCausalLM\n"


def test_getenv_default_in_a_dtype_ternary_new(tmp_path):
    # NEW: the default of os.getenv decides a dtype ternary
    src = PY_HEAD + ('DTYPE = torch.float16 if os.getenv("USE_FP16", "1") == "1" else torch.bfloat16\n'
                     'model = AutoModelForCausalLM.from_pretrained("m", torch_dtype=DTYPE, '
                     'attn_implementation=os.getenv("ATTN", default="sdpa"))\n')
    assert read_text(tmp_path, {"t.py": src}, "t.py") == ("transformers", ["sdpa"], "float16", "none")


def test_environ_set_by_the_script_itself_new(tmp_path):
    # NEW: the script sets the variable in its own environment before reading it: that value, not the default
    src = PY_HEAD + ('os.environ["ATTN"] = "sdpa"\n'
                     'model = AutoModelForCausalLM.from_pretrained("m", torch_dtype=torch.bfloat16, '
                     'attn_implementation=os.environ.get("ATTN", "flash_attention_2"))\n')
    assert read_text(tmp_path, {"t.py": src}, "t.py") == ("transformers", ["sdpa"], "bfloat16", "none")


@pytest.mark.parametrize("expr", ['os.environ.get("ATTN_IMPL")', 'os.environ["ATTN_IMPL"]', 'os.getenv("ATTN_IMPL")'])
def test_environ_without_default_is_not_read(tmp_path, expr):
    # near miss: no default: the value is the caller's environment's, unknown here
    src = PY_HEAD + ('model = AutoModelForCausalLM.from_pretrained("m", torch_dtype=torch.bfloat16, '
                     f'attn_implementation={expr})\n')
    assert read_text(tmp_path, {"t.py": src}, "t.py") == ("transformers", [], "bfloat16", "none")


# --- Python: torch.device(...).type --------------------------------------------------------------------------------------

def test_device_type_with_an_index_new(tmp_path):
    # NEW: torch.device("cuda:0" ...).type is "cuda"
    src = PY_HEAD + ('device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")\n'
                     'attn = "flash_attention_2" if device.type == "cuda" else "sdpa"\n'
                     'model = AutoModelForCausalLM.from_pretrained("m", torch_dtype=torch.bfloat16, attn_implementation=attn)\n')
    assert read_text(tmp_path, {"t.py": src}, "t.py") == ("transformers", ["fa2"], "bfloat16", "none")


def test_str_of_device_new(tmp_path):
    # NEW: str(torch.device("cuda")) == "cuda"
    src = PY_HEAD + ('DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")\n'
                     'model = AutoModelForCausalLM.from_pretrained("m", torch_dtype=torch.bfloat16, '
                     'attn_implementation="sdpa" if str(DEVICE) == "cuda" else "eager")\n')
    assert read_text(tmp_path, {"t.py": src}, "t.py") == ("transformers", ["sdpa"], "bfloat16", "none")


@pytest.mark.parametrize("dev", ['torch.device("mps" if torch.backends.mps.is_available() else "cpu")',
                                 'torch.device(args.device)'])
def test_device_not_cuda_or_unknown(tmp_path, dev):
    # near miss: an MPS-or-CPU device (the CUDA host answers cpu) chooses eager; a device the caller gives is unknown
    src = PY_HEAD + (f'device = {dev}\n'
                     'model = AutoModelForCausalLM.from_pretrained("m", torch_dtype=torch.bfloat16, '
                     'attn_implementation="flash_attention_2" if device.type == "cuda" else "eager")\n')
    assert read_text(tmp_path, {"t.py": src}, "t.py")[1] == []


# --- Python: a keyword dict completed after it is written ----------------------------------------------------------------

def test_kwargs_update_new(tmp_path):
    # NEW: kw = dict(...) then kw.update(attn_implementation=...) / kw.update({...}) in a function body
    src = PY_HEAD + ('def load():\n'
                     '    kw = dict(torch_dtype=torch.bfloat16)\n'
                     '    kw.update({"attn_implementation": "flash_attention_2"})\n'
                     '    return AutoModelForCausalLM.from_pretrained("m", **kw)\n')
    assert read_text(tmp_path, {"t.py": src}, "t.py") == ("transformers", ["fa2"], "bfloat16", "none")


def test_kwargs_subscript_overrides_the_literal_new(tmp_path):
    # NEW: the literal says sdpa, an unconditional subscript set after it says flash_attention_2: the later wins
    src = PY_HEAD + ('kw = {"attn_implementation": "sdpa", "torch_dtype": torch.bfloat16}\n'
                     'kw["attn_implementation"] = "flash_attention_2"\n'
                     'model = AutoModelForCausalLM.from_pretrained("m", **kw)\n')
    assert read_text(tmp_path, {"t.py": src}, "t.py") == ("transformers", ["fa2"], "bfloat16", "none")


def test_kwargs_subscript_under_a_callers_condition_keeps_the_literal(tmp_path):
    # near miss (round 17's shape): the key switched only when the caller's model path says so: the literal stands
    src = PY_HEAD + ('import sys\n'
                     'kw = {"attn_implementation": "sdpa", "torch_dtype": torch.bfloat16}\n'
                     'if "gemma" in sys.argv[1]:\n'
                     '    kw["attn_implementation"] = "eager"\n'
                     'model = AutoModelForCausalLM.from_pretrained(sys.argv[1], **kw)\n')
    assert read_text(tmp_path, {"t.py": src}, "t.py") == ("transformers", ["sdpa"], "bfloat16", "none")


# --- Python: the private _attn_implementation= keyword ------------------------------------------------------------------

def test_private_kwarg_on_a_config_the_model_is_built_from_new(tmp_path):
    # NEW: AutoConfig.from_pretrained(..., _attn_implementation=...) then from_config(config)
    src = PY_HEAD + ('from transformers import AutoConfig\n'
                     'config = AutoConfig.from_pretrained("m", _attn_implementation="sdpa")\n'
                     'model = AutoModelForCausalLM.from_config(config, torch_dtype=torch.bfloat16)\n')
    assert read_text(tmp_path, {"t.py": src}, "t.py") == ("transformers", ["sdpa"], "bfloat16", "none")


def test_private_kwarg_on_a_processor_is_not_the_models(tmp_path):
    # near miss: the keyword on a processor's from_pretrained chooses nothing for the model
    src = PY_HEAD + ('from transformers import AutoProcessor\n'
                     'proc = AutoProcessor.from_pretrained("m", _attn_implementation="flash_attention_2")\n'
                     'model = AutoModelForCausalLM.from_pretrained("m", torch_dtype=torch.bfloat16)\n')
    assert read_text(tmp_path, {"t.py": src}, "t.py") == ("transformers", [], "bfloat16", "none")


# --- torchtune: OmegaConf interpolation ---------------------------------------------------------------------------------

TT = """model:
  _component_: torchtune.models.llama3_2.lora_llama3_2_1b
tokenizer:
  _component_: torchtune.models.llama3.llama3_tokenizer
  path: /tmp/tokenizer.model
optimizer:
  _component_: torch.optim.AdamW
  lr: 3e-4
batch_size: 2
"""


def test_torchtune_nested_interpolation_new(tmp_path):
    # NEW: ${a.b} to a nested node, and an interpolation that points at another one
    text = TT + ("training:\n  precision: ${training.base}\n  base: fp16\n  compile: false\n"
                 "dtype: ${training.precision}\ncompile: ${training.compile}\n")
    assert read_text(tmp_path, {"c.yaml": text}, "c.yaml") == ("torchtune", [], "float16", "none")


def test_torchtune_env_resolver_default_new(tmp_path):
    # NEW: ${oc.env:NAME,default}: the default, as the recipe runs with NAME unset
    text = TT + "dtype: ${oc.env:TT_DTYPE,fp32}\ncompile: false\n"
    assert read_text(tmp_path, {"c.yaml": text}, "c.yaml") == ("torchtune", [], "float32", "none")


def test_torchtune_unresolvable_interpolation_is_unknown_new(tmp_path):
    # NEW (main took the literal string as a true compile) and a near miss: a key the config does not have (OmegaConf
    # raises when the recipe reads it): no dtype, compile not said
    text = TT + "dtype: ${precision}\ncompile: ${use_compile}\n"
    got = read_text(tmp_path, {"c.yaml": text}, "c.yaml")
    assert got[2] == "" and got[3] == "none"


# --- a launcher's environment seen by the script it runs (configs._launch_environ) --------------------------------------

ENV_SCRIPT = PY_HEAD + ('model = AutoModelForCausalLM.from_pretrained("m", torch_dtype=torch.bfloat16, '
                        'attn_implementation=os.environ.get("ATTN_IMPL", "flash_attention_2"))\n')


@pytest.mark.parametrize("launch", ["export ATTN_IMPL=sdpa\npython train.py\n",
                                    "ATTN_IMPL=sdpa python train.py\n",
                                    "ATTN_IMPL=sdpa\nexport ATTN_IMPL\npython train.py\n"])
def test_launcher_exported_variable_reaches_the_script_new(tmp_path, launch):
    # NEW: exported, set in front of the command, or exported after it is set: the script reads the launcher's value
    got = read_text(tmp_path, {"train.py": ENV_SCRIPT, "run.sh": "#!/bin/bash\n" + launch}, "run.sh")
    assert got == ("transformers", ["sdpa"], "bfloat16", "none")


def test_launcher_shell_variable_not_exported_is_not_the_scripts(tmp_path):
    # NEW (main read no default) and a near miss: a shell variable only (no export) is not in the script's environment:
    # its os.environ.get falls back to its default
    got = read_text(tmp_path, {"train.py": ENV_SCRIPT, "run.sh": "#!/bin/bash\nATTN_IMPL=sdpa\npython train.py\n"},
                    "run.sh")
    assert got == ("transformers", ["fa2"], "bfloat16", "none")


UNSLOTH_SCRIPT = ('import os\nimport torch\nfrom unsloth import FastLanguageModel\n'
                  'DTYPE = torch.float16 if os.environ.get("USE_FP16", "0") == "1" else torch.bfloat16\n'
                  'model, tokenizer = FastLanguageModel.from_pretrained(model_name="unsloth/Llama-3.2-1B", '
                  'max_seq_length=2048, dtype=DTYPE, load_in_4bit=True)\n')


@pytest.mark.parametrize("launch, dtype", [("export USE_FP16=1\npython train.py\n", "float16"),  # NEW
                                           ("USE_FP16=1\npython train.py\n", "bfloat16")])  # near miss: not exported
def test_unsloth_script_reads_the_launchers_environment(tmp_path, launch, dtype):
    # NEW for Unsloth too (unsloth.py read: constants with the launcher's environ): the script alone reads the default
    assert read_text(tmp_path, {"train.py": UNSLOTH_SCRIPT}, "train.py")[:3] == ("unsloth", [], "bfloat16")
    got = read_text(tmp_path, {"train.py": UNSLOTH_SCRIPT, "run.sh": "#!/bin/bash\n" + launch}, "run.sh")
    assert got[:3] == ("unsloth", [], dtype)
