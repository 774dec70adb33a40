"""A Python training script (or a notebook's code cells) read statically: its syntax tree, the constants it
assigns, and the keyword arguments of the calls that load a model or configure a trainer. Nothing is imported
or run (ast only).

The package by concern (a reader imports from here; each module's docstring says what it holds):
  parsing.py           tree(), compiles(): parsing a script, repairing the lines this Python cannot parse, aliases
                       of the trainers' libraries spelt as the names they import (_unalias)
  nodes.py             the keys constants() adds beside the script's names (ARGPARSE, ENVIRON, MODULE_CONSTANTS,
                       OPAQUE_DICTS, PASSED, RETURNED_DICTS), RUNTIME, and resolve / _call_name / _dotted
  dataclass_args.py    HfArgumentParser's dataclasses, TrainingArguments' fields, the script's @dataclass defaults
                       (DATACLASSES)
  argv.py              argparse defaults, a launcher's options as the script's parser takes them (argv_options),
                       scripts that read no options (reads_no_command_line ...), the names holding parse_args()
  call_keywords.py     keywords(): a call's keywords with `**kw` spreads opened (_dict_items, _known_items) and
                       dicts filtered against a config class's signature
  values.py            value(): a node's value as the script runs on this host; HOST_ANSWERS, pinned_bf16, gpu_decides,
                       gpu_open
  hydra_compose.py     Hydra's composition of an app's config (defaults list, config groups, overrides; UNSEEN
                       where a file it needs is not here), plain Python over the files' mappings
  settings_files.py    YAML / JSON / TOML files the script loads into a name (_loaded_files), found where it runs;
                       a Hydra entry point's composed config (_hydra_configs, hydra_composed)
  user_modules.py      modules of the user's repository the script imports: their classes (imported_classes), their
                       functions (imported_functions), their dataclasses' defaults, the constants of settings modules
                       imported whole (MODULE_CONSTANTS)
  script_constants.py  constants(): every part assembled into one dict of name -> node; calls(), assigned_before()
A new reading of a value goes into values.py, one of the command line into argv.py, of a loaded file into
settings_files.py; a new key of constants' dict is named in nodes.py and filled in script_constants.constants. A name
a reader, test or benchmark imports from pyscript is re-exported below.
Layers: a module imports at its top only from those before it in this order: parsing, nodes, dataclass_args, argv,
call_keywords, values, hydra_compose, settings_files, user_modules, script_constants (a later one, or another configs module, is
imported inside the function that needs it, as argv_options imports shell_words; one exception: dataclass_args takes
TRL's configs, a module-level set, from hf_transformers.TRL_CONFIGS, which imports nothing of pyscript)."""

from __future__ import annotations

from .parsing import MAX_REPAIRS, _parse, _unalias, compiles, tree
from .nodes import ARGPARSE, ENVIRON, MODULE_CONSTANTS, OPAQUE_DICTS, RETURNED_DICTS, RUNTIME, _call_name, resolve
from .dataclass_args import (
    DATACLASSES, TRAINING_ARGUMENTS_BOOLS, TRAINING_ARGUMENTS_FIELDS, _dataclass_defaults, _field_default,
    _inherits_training_arguments, _script_dataclasses
)
from .argv import _parsed_args, _parsed_parameters, argv_options, reads_argv_by_position_only, reads_no_command_line
from .call_keywords import _dict_items, keywords
from .values import BF16_PROBES, HOST_ANSWERS, PINNED_BF16, gpu_decides, gpu_open, pinned_bf16, value
from .settings_files import _loaded_files, _path_value
from .user_modules import _LIBRARIES, imported_classes, imported_functions, own_imports
from .script_constants import _fallback_candidates, assigned_before, calls, constants, held_at
