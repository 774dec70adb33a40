"""Issue 24, helper cfg36 (session 9): claimed LLM trainers' files that the readers refused or read short of what they
say, by mechanism (from round 30 and the refusal map, benchmarks/configs_refusals.py). Each mechanism has variants
written for these tests (tests/data/configs_cfg36/, each file says what it fakes) and near misses that must stay
refused or unknown:

- a notebook cell that cannot compile (an unclosed bracket or string) is left out, as IPython runs none of it while the
  other cells run (launchers.notebook_code, pyscript.compiles);
- a class named through its module (`transformers.AutoModelForCausalLM.from_pretrained`, `tf.LlamaForCausalLM`) is
  that class (hf_transformers._callee);
- a launch line with no options running the user's own script, here and claimed by a reader, is followed to it
  (configs._bare_run);
- a function given the parsed options (`main(parser.parse_args())`, `opts = get_args(); train(opts)`,
  `main(*parser.parse_args_into_dataclasses())`) reads their defaults through its parameter (pyscript._parsed_parameters);
- `cfg.attn_implementation` of a config object built in the script (`ModelConfig(attn_implementation=...)`, a dataclass
  of the script's own) is the keyword it was built with, or the field's default (pyscript.value, DATACLASSES);
- a name imported from transformers / TRL / PEFT / Unsloth under another name is the thing imported (pyscript._unalias);
- a TRL trainer imported from TRL and built with the model's name, and a task-head class (`BertForSequenceClassification`)
  loaded under HfArgumentParser, are transformers runs (hf_transformers._transformers_calls);
- a dict the script writes out, spread or indexed (`**CONFIG["training"]`, `CFG["model"]["attn"]`), and a variable
  holding a model class (`model_cls = Qwen2VLForConditionalGeneration`) are read as Python reads them
  (pyscript._dict_items / value, hf_transformers._class_held);
- a file a notebook writes with `%%writefile PATH` (`-a` appends) and a config dumped to `open(PATH, "w")` are what a
  launch line naming PATH reads (launchers.notebook_written_files, python_dumped_configs target_of); a `%%writefile`
  cell of a data file is no Python of the notebook's;
- axolotl's Python API (`cfg = load_cfg(CONFIG, **overrides)` then `train(cfg=cfg, ...)`, CONFIG a YAML path or a
  DictDefault / dict the script writes out) is axolotl's run of that config (axolotl._api_call, _api_settings);
- a class of the script's own on TrainingArguments / a TRL config or trainer (`class MyArgs(TrainingArguments)` with
  `bf16: bool = True`, `class MySFT(SFTTrainer)`) is that class, its field defaults under the call's keywords
  (hf_transformers._script_subclasses);
- from_pretrained's old `use_flash_attention_2=True` (transformers 4.34+) is FlashAttention 2, as in a YAML
  (hf_transformers.PY_KEYS);
- a notebook's `!trl sft ...` / `!python run_clm.py ...` line is read as the command line it is when its Python says
  nothing of transformers (hf_transformers._command_view)."""

from __future__ import annotations

from pathlib import Path

import pytest

from attn_doctor import configs
from attn_doctor.model import UsageError

DATA = Path(__file__).resolve().parent / "data" / "configs_cfg36"
CFG32 = Path(__file__).resolve().parent / "data" / "config_values_cfg32"


def reading(path: Path) -> tuple:
    c = configs.load(str(path))
    return c["detected"]["trainer"], c["required"], c["dtype"] or "", c["compile_mode"] or "none"


def refusal(path: Path) -> str:
    with pytest.raises(UsageError) as e:
        configs.load(str(path))
    return str(e.value)


# --- a notebook cell that cannot compile --------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["nb_broken_after.ipynb",  # NEW: refused on main (the whole notebook did not parse)
                                  "nb_broken_before.ipynb"])
def test_a_cell_that_cannot_compile_leaves_the_others_read(name):
    assert reading(DATA / name) == ("transformers", ["sdpa"], "bfloat16", "none")


def test_near_miss_the_broken_cell_named_flash_attention_and_never_ran():
    # the cell with attn_implementation="flash_attention_2" has an unclosed call: the model that trains is the default's
    assert reading(DATA / "nb_broken_flash_cell.ipynb") == ("transformers", [], "float16", "none")


def test_near_miss_a_notebook_whose_only_trainer_cell_cannot_compile_is_refused():
    # NEW: main read it as transformers (sdpa) from the cell IPython would refuse
    assert "no trainer calls" in refusal(DATA / "nb_only_trainer_cell_broken.ipynb")


def test_newer_python_syntax_is_not_taken_for_a_broken_cell():
    from attn_doctor.configs.pyscript import compiles

    assert compiles('x = f"{d["a"]}"\n!pip install trl')  # 3.12's f-string: tree() repairs the line
    assert compiles("type Vec = list[float]")
    assert not compiles('tok = load(\n    cache_dir=cfg.get("cache_dir)\n)')
    assert not compiles("args = TrainingArguments(output_dir='o', bf16=True\n")


# --- a class named through its module ---------------------------------------------------------------------------

def test_classes_named_through_the_module_are_read():
    # NEW: main read required [] (the load's attn_implementation was not seen)
    assert reading(DATA / "dotted_module.py") == ("transformers", ["fa2"], "bfloat16", "none")


def test_an_aliased_module_and_hfargumentparser_script_reads_as_transformers():
    # NEW: refused on main ("no trainer calls"); bf16 is the command line's: unknown
    assert reading(DATA / "dotted_alias_hfparser.py") == ("transformers", [], "", "none")


def test_near_miss_a_tokenizer_through_the_module_is_no_transformers_run():
    assert "no trainer calls" in refusal(DATA / "dotted_tokenizer_only.py")


# --- a launch line with no options ------------------------------------------------------------------------------

def test_launch_with_no_options_follows_the_script_beside_it():
    # NEW (cfg32's env_launch.sh, its phase-2 list): the exported ATTN_IMPL reaches the script's os.environ.get
    assert reading(CFG32 / "env_launch.sh") == ("transformers", ["sdpa"], "bfloat16", "none")


def test_slurm_job_running_the_script_with_no_options():
    # NEW: refused on main ("it runs my_job.py, which is none of the trainers' training scripts")
    c = configs.load(str(DATA / "bare_slurm" / "job.slurm"))
    assert (c["detected"]["trainer"], c["required"], c["dtype"]) == ("transformers", ["sdpa"], "float16")
    assert "job.slurm runs my_job.py with no options of its own" in c["detected"]["evidence"][0]


def test_accelerate_launch_with_no_options_still_read():
    assert reading(DATA / "bare_accelerate" / "run.sh") == ("transformers", ["fa2"], "bfloat16", "none")


def test_near_miss_two_scripts_with_no_options_are_not_chosen_between():
    assert "none of the trainers' training scripts" in refusal(DATA / "bare_two" / "run.sh")


def test_near_miss_a_demo_app_beside_the_launch_is_no_training():
    assert "it runs app.py" in refusal(DATA / "bare_app" / "run.sh")


def test_near_miss_a_script_not_here_is_not_guessed():
    assert "finetune_model.py" in refusal(DATA / "bare_absent" / "run.sh")


# --- a function given the parsed options ------------------------------------------------------------------------

@pytest.mark.parametrize("name,want", [
    ("main_parse.py", ("transformers", ["fa2"], "bfloat16", "none")),  # NEW: main read []
    ("main_getargs.py", ("transformers", ["sdpa"], "float16", "none")),  # NEW: main read [], dtype unknown
    ("main_dataclasses_star.py", ("transformers", ["fa2"], "bfloat16", "none")),  # NEW: main read [], unknown
])
def test_the_parsed_options_reach_the_function_they_are_given_to(name, want):
    assert reading(DATA / name) == want


def test_near_miss_options_from_a_file_not_here_stay_unknown():
    # main(argparse.Namespace(**yaml.safe_load(...))): the argparse defaults are not what main() is given
    assert reading(DATA / "main_from_file.py") == ("transformers", [], "", "none")


# --- a config object's attribute --------------------------------------------------------------------------------

@pytest.mark.parametrize("name,want", [
    ("cfg_attr.py", ("transformers", ["fa2"], "bfloat16", "none")),  # NEW: ModelConfig's keyword lost to "?" on main
    ("dc_attr.py", ("transformers", ["sdpa"], "bfloat16", "none")),  # NEW: the dataclass's defaults
    ("dc_attr_override.py", ("transformers", ["fa2"], "float16", "none")),  # NEW: the keyword over the default
])
def test_a_config_objects_attribute_is_what_it_was_built_with(name, want):
    assert reading(DATA / name) == want


@pytest.mark.parametrize("name,want", [
    ("dc_attr_from_yaml.py", ("transformers", [], "", "none")),  # Cfg(**yaml...): not the defaults
    ("plain_class_attr.py", ("transformers", [], "bfloat16", "none")),  # a plain class's __init__ is its own code
])
def test_near_miss_an_object_built_elsewhere_or_by_its_own_code_stays_unknown(name, want):
    assert reading(DATA / name) == want


# --- the round-30 files these mechanisms were written from ------------------------------------------------------

ROUND30 = Path(__file__).resolve().parents[1] / "fixtures" / "configs" / "round30"


@pytest.mark.parametrize("name,want", [
    # NEW: refused on main: an inference cell with an unterminated string made the whole notebook unparseable
    ("transformers/hadiaskari1981__mistral-finetune-hadi__mistral_viggo_fine_tune.ipynb",
     ("transformers", [], "bfloat16", "none")),
    # NEW: refused on main: `transformers.AutoModelForCausalLM.from_pretrained` under HfArgumentParser
    ("transformers/Miraitowaer__ExeCoder__src__train.py", ("transformers", [], "", "none")),
])
def test_round30_files_behind_these_mechanisms(name, want):
    assert reading(ROUND30 / name) == want


# --- names imported under another name ----------------------------------------------------------------------------

@pytest.mark.parametrize("name,want", [
    ("alias_imports.py", ("transformers", ["fa2"], "bfloat16", "none")),  # NEW: refused on main
    ("alias_trl.py", ("transformers", ["sdpa"], "float16", "none")),  # NEW: main lost the dtype (SFTConfig as Cfg)
])
def test_an_alias_is_the_thing_imported(name, want):
    assert reading(DATA / name) == want


def test_near_miss_an_alias_does_not_make_another_class_a_trainer():
    # NEW: main read `from peft import LoraConfig as TrainingArguments` ... TrainingArguments(bf16=True) as transformers
    assert "no trainer calls" in refusal(DATA / "alias_near_miss.py")


# --- TRL trainers and task heads --------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["trl_trainer_only.py",  # NEW: refused on main
                                  "trl_module_dpo.py",  # NEW: refused on main (`trl.DPOTrainer`)
                                  "task_head_hfparser.py",  # NEW: refused on main (BertForSequenceClassification)
                                  "task_head_tokens.py"])  # NEW: refused on main (eager: nothing required)
def test_trl_trainers_and_task_heads_are_transformers_runs(name):
    # no precision in the file (TRL's bf16 default depends on its version; HfArgumentParser's on the command line)
    assert reading(DATA / name) == ("transformers", [], "", "none")


@pytest.mark.parametrize("name", ["own_sfttrainer_class.py",  # the script's own class named SFTTrainer
                                  "encoder_only_embed.py"])  # a bare encoder (CLIPVisionModel) loaded to embed
def test_near_miss_a_class_named_like_trls_or_an_encoder_is_no_run(name):
    assert "no trainer calls" in refusal(DATA / name)


def test_round30_notebook_of_the_users_own_sfttrainer_stays_refused():
    assert "--config" in refusal(ROUND30 / "unclaimed-user-script" / "Isenborg__reasoning-llm__notebooks__sft.ipynb")


# --- a notebook's command line ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name,want", [
    ("nb_trl_cli.ipynb", ("transformers", ["fa2"], "bfloat16", "none")),  # NEW: refused on main
    ("nb_run_clm.ipynb", ("transformers", [], "float16", "default")),  # NEW: refused on main
])
def test_a_notebooks_command_line_is_read_as_one(name, want):
    assert reading(DATA / name) == want


@pytest.mark.parametrize("name,script", [("nb_own_script.ipynb", "train.py"), ("nb_fastchat.ipynb", "train_mem.py")])
def test_near_miss_a_notebook_running_another_script_with_hf_options_stays_refused(name, script):
    # refused, naming the script it runs ("runs train.py", or, since cfg37 recognises a framework from a notebook's
    # commands, "looks like FastChat (fastchat/train/train_mem.py)")
    said = refusal(DATA / name)
    assert f"runs {script}" in said or f"/{script})" in said


# --- dicts written in the script, a variable holding a model class ----------------------------------------------

@pytest.mark.parametrize("name,want", [
    ("dict_kwargs.py", ("transformers", ["sdpa"], "bfloat16", "none")),  # NEW: main read [], unknown
    ("dict_subscript.py", ("transformers", ["fa2"], "bfloat16", "none")),  # NEW: main read [], unknown
    ("var_class.py", ("transformers", ["fa2"], "bfloat16", "none")),  # NEW: main read []
    ("var_class_branch.py", ("transformers", ["sdpa"], "float16", "none")),  # NEW: main read []
])
def test_dicts_and_class_variables_read_as_python_reads_them(name, want):
    assert reading(DATA / name) == want


@pytest.mark.parametrize("name", ["dict_from_yaml.py",  # the dict comes from a YAML not here
                                  "var_class_mixed.py"])  # a class in one branch, the script's own loader in the other
def test_near_miss_run_time_dicts_and_mixed_loaders_stay_unknown(name):
    assert reading(DATA / name) == ("transformers", [], "", "none")


# --- files a notebook writes ------------------------------------------------------------------------------------

@pytest.mark.parametrize("name,want", [
    ("nb_writefile_axolotl.ipynb", ("axolotl", ["fa2"], "bfloat16", "none")),  # NEW: config.yml unread on main
    ("nb_writefile_append.ipynb", ("llama-factory", ["fa2"], "bfloat16", "none")),  # NEW: `%%writefile -a` appends
    ("nb_dump_open.ipynb", ("llama-factory", ["fa2"], "bfloat16", "none")),  # NEW: yaml.safe_dump(cfg, open(P, "w"))
    ("dump_open_wrapper.py", ("axolotl", ["sdpa"], "float16", "none")),  # NEW: yaml.dump(cfg, open(path, "w"))
    ("nb_writefile_data_cell.ipynb", ("transformers", ["fa2"], "bfloat16", "none")),  # a data cell beside the code
])
def test_a_file_the_notebook_writes_is_what_its_launch_reads(name, want):
    assert reading(DATA / name) == want


@pytest.mark.parametrize("name,unread", [("nb_writefile_other_name.ipynb", "configs/other.yml"),
                                         ("nb_dump_other_name.ipynb", "train.yaml")])
def test_near_miss_a_file_written_under_another_name_is_not_the_one_launched(name, unread):
    c = configs.load(str(DATA / name))
    assert (c["required"], c["dtype"], c["unread"]) == ([], None, [unread])


# --- axolotl's Python API ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("name,want", [
    ("axolotl_api_dictdefault.ipynb", ("axolotl", ["fa2"], "bfloat16", "none")),  # NEW: refused on main
    ("axolotl_api_yaml/train.py", ("axolotl", ["sdpa"], "float16", "default")),  # NEW: the YAML beside, an override
    ("axolotl_api_dict.py", ("axolotl", ["xformers"], "float16", "none")),  # NEW: a dict literal
])
def test_axolotls_python_api_is_axolotls_run(name, want):
    assert reading(DATA / name) == want


@pytest.mark.parametrize("name", ["axolotl_util_only.py", "own_load_cfg.py"])
def test_near_miss_an_axolotl_utility_or_a_load_cfg_of_ones_own_is_no_axolotl_run(name):
    assert "no trainer calls" in refusal(DATA / name)


# --- from_pretrained(use_flash_attention_2=True) ------------------------------------------------------------------

@pytest.mark.parametrize("name", ["old_use_flash_attention_2.py",  # NEW: main read []
                                  "old_use_flash_attention_2_kwargs.py"])  # NEW: main read [] (in a kwargs dict)
def test_the_old_flash_attention_keyword_is_fa2(name):
    assert reading(DATA / name) == ("transformers", ["fa2"], "bfloat16", "none")


def test_near_miss_the_old_keyword_off_by_default_requires_nothing():
    assert reading(DATA / "old_use_flash_attention_2_off.py") == ("transformers", [], "float16", "none")


# --- classes of the script's own on transformers' / TRL's -------------------------------------------------------

@pytest.mark.parametrize("name,want", [
    ("subclass_args.py", ("transformers", ["sdpa"], "bfloat16", "none")),  # NEW: the subclass's bf16 default; main: unknown
    ("subclass_trainer_only.py", ("transformers", [], "", "none")),  # NEW: refused on main (MySFT(SFTTrainer))
    ("same_name_alias.py", ("transformers", [], "float16", "none")),  # NEW: `class TrainingArguments(HFArgs)`, fp16 True
])
def test_a_subclass_is_its_base_with_its_defaults(name, want):
    assert reading(DATA / name) == want


def test_near_miss_a_subclass_of_the_scripts_own_sftrainer_is_no_trl_run():
    assert "no trainer calls" in refusal(DATA / "subclass_own_base.py")
