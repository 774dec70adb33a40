"""A script's command line: its argparse defaults (ARGPARSE), the options a launcher gives it as its own parser takes them
(argv_options), whether it reads options at all (reads_no_command_line, reads_argv_by_position_only), and which names
hold the parsed arguments (_parse_call, _parsed_args, _parsed_parameters)."""

from __future__ import annotations

import ast
import re

from .nodes import RUNTIME, _call_name, resolve, walked
from ...textutil import parents_of
from .dataclass_args import (
    TRAINING_ARGUMENTS_BOOLS, TRAINING_ARGUMENTS_FIELDS, _DATACLASS_PARSES, _dataclass_defaults, _dataclass_fields,
    _inherits_training_arguments, trl_parser, trl_parser_classes
)


def _declared_options(tree) -> dict:
    """option string (`--output_dir`, `-o`) -> (dest, action, type name) of every option the script's own parser
    declares: `X.add_argument(...)`, and the fields of the dataclasses it hands to HfArgumentParser (`--name` each,
    their annotation the type; a bool field is a flag that also takes a value)."""
    out: dict = {}
    for names, dest, kw in _add_arguments(tree):
        action = kw["action"].value if isinstance(kw.get("action"), ast.Constant) else None
        for x in names:
            if x.startswith("-"):
                out[x] = (dest, action, _type_name(kw.get("type")))
    for st in _dataclass_fields(tree):
        tname = st.annotation.id if isinstance(st.annotation, ast.Name) else None
        out.setdefault("--" + st.target.id, (st.target.id, "hf_bool" if tname == "bool" else None, tname))
    if _inherits_training_arguments(tree):
        for f in sorted(TRAINING_ARGUMENTS_FIELDS):
            out.setdefault("--" + f, (f, "hf_bool", "bool") if f in TRAINING_ARGUMENTS_BOOLS else (f, None, None))
    if trl_parser_classes(tree):
        # TRL's configs, ModelConfig and ScriptArguments handed to the parser: their fields are options too
        # (`python train.py --model_name_or_path ... --attn_implementation flash_attention_2 --dtype bfloat16`, TRL's
        # documented launch of its scripts: trl/scripts/sft.py:17-58), each the field TrlParser fills (cfg83)
        from ..hf_transformers import HF_FIELDS

        for f in sorted(HF_FIELDS):
            out.setdefault("--" + f, (f, "hf_bool", "bool") if f in TRL_BOOLS else (f, None, None))
    if trl_parser(tree):
        # parse_args_and_config's own option: a YAML whose values are the defaults the command line overrides
        out.setdefault("--config", ("config", None, "str"))
    for name in fire_parameters(tree):
        # Python Fire's flags: one per parameter of the function handed to it, under its own name and with dashes
        # (google/python-fire fire/core.py _ParseKeywordArgs: `--kl-weight` is kl_weight)
        for flag in ("--" + name, "--" + name.replace("_", "-")):
            out.setdefault(flag, (name, "fire", None))
    for flag, decl in _typer_click_options(tree).items():
        out.setdefault(flag, decl)
    return out


# the bool fields of TRL's configs, ModelConfig and ScriptArguments (HfArgumentParser flags: a bare `--packing` is True;
# huggingface/trl@f2cd577 trl/trainer/{sft,grpo,dpo,model}_config.py, trl/scripts/utils.py ScriptArguments)
TRL_BOOLS = TRAINING_ARGUMENTS_BOOLS | frozenset("""packing padding_free completion_only_loss assistant_only_loss use_peft
use_rslora use_dora load_in_4bit load_in_8bit use_bnb_nested_quant trust_remote_code dataset_streaming
gradient_checkpointing_use_reentrant ignore_bias_buffers use_vllm log_completions activation_offloading
precompute_ref_log_probs eval_packing disable_dropout mask_truncated_completions use_liger sync_ref_model
shuffle_dataset vllm_enable_sleep_mode cast_lm_head_to_fp32 ds3_gather_for_generation use_flash_attention_2""".split())


def cli_parameters(tree) -> set:
    """The parameters of the script's own functions that a CLI library fills from the command line (Python Fire, Typer,
    Click): each holds the launcher's value, where one is given, in place of its default (script_constants)."""
    return fire_parameters(tree) | {d[0] for d in _typer_click_options(tree).values()}


def cli_defaults(tree) -> dict:
    """parameter -> the default node a Typer / Click command gives it when the launcher does not: `typer.Option(1, ...)`'s
    first argument, `@click.option("--epochs", default=1)`'s default, a Click flag's False where it names none."""
    out: dict = {}
    for f in walked(tree):
        if not isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for a, d in zip((f.args.posonlyargs + f.args.args)[::-1], f.args.defaults[::-1]):
            if isinstance(d, ast.Call) and _call_name(d) == "Option" and d.args and \
                    not (isinstance(d.args[0], ast.Constant) and d.args[0].value is Ellipsis):
                out[a.arg] = d.args[0]
        for d in f.decorator_list:
            option = _click_option(d)
            if option is None:
                continue
            dest, flags, kw = option
            if "default" in kw:
                out[dest] = kw["default"]
            elif any("/" in w for w in flags) or _is_true(kw.get("is_flag")):
                out[dest] = ast.Constant(value=False)
    return out


def _click_option(d):
    """`@click.option("--lr", "learning_rate", ...)` read as (its parameter, its option strings, its keywords): the
    parameter its explicit name or the first long option's (click/core.py Option._parse_decls); None for another
    decorator or one that names no parameter."""
    if not (isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr == "option" and
            isinstance(d.func.value, ast.Name) and d.func.value.id == "click"):
        return None
    words = [x.value for x in d.args if isinstance(x, ast.Constant) and isinstance(x.value, str)]
    named = [w for w in words if w.isidentifier()]
    flags = [w for w in words if w.startswith("-")]
    longs = [x for w in flags for x in w.split("/") if x.startswith("--")]
    dest = named[0] if named else (longs[0][2:].replace("-", "_") if longs else None)
    return None if dest is None else (dest, flags, {k.arg: k.value for k in d.keywords if k.arg})


def _is_true(node) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def _typer_click_options(tree) -> dict:
    """option -> (parameter, action, type name) of the functions the script runs through Typer or Click, as they parse
    a command line (the same mechanism as Fire's, cfg78):
    - Typer (`typer.run(main)`, or `@app.command()` of `app = typer.Typer()`): each parameter with a default is an
      option `--name-with-dashes` (typer/utils.py: underscores become dashes); a bool is a flag pair `--x` / `--no-x`; a
      parameter whose default is `typer.Argument(...)`, or with no default, is positional (not an option);
    - Click (`@click.command()` with `@click.option("--lr", "learning_rate", type=float, is_flag=True ...)`): the
      option strings it declares (_click_option), `--x/--no-x` a flag pair."""
    funcs = {f.name: f for f in walked(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
    typer_apps = {t.id for n in walked(tree) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
                  and _call_name(n.value) == "Typer" for t in n.targets if isinstance(t, ast.Name)}
    run = {n.args[0].id for n in walked(tree) if isinstance(n, ast.Call) and _call_name(n) == "run"
           and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) and n.func.value.id == "typer"
           and n.args and isinstance(n.args[0], ast.Name)}
    out: dict = {}
    for f in funcs.values():
        decos = [d for d in f.decorator_list if isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute)]
        if f.name in run or any(d.func.attr in ("command", "callback") and isinstance(d.func.value, ast.Name)
                                and d.func.value.id in typer_apps for d in decos):
            params = f.args.posonlyargs + f.args.args + f.args.kwonlyargs
            defaults = dict(zip([a.arg for a in (f.args.posonlyargs + f.args.args)[::-1]], f.args.defaults[::-1]))
            defaults.update({a.arg: d for a, d in zip(f.args.kwonlyargs, f.args.kw_defaults) if d is not None})
            for a in params:
                d = defaults.get(a.arg)
                if d is None or isinstance(d, ast.Call) and _call_name(d) == "Argument":
                    continue
                tname = a.annotation.id if isinstance(a.annotation, ast.Name) else None
                dashed = "--" + a.arg.replace("_", "-")
                if tname == "bool" or isinstance(d, ast.Constant) and isinstance(d.value, bool):
                    out[dashed] = (a.arg, "flag_on", "bool")
                    out["--no-" + a.arg.replace("_", "-")] = (a.arg, "flag_off", "bool")
                else:
                    out[dashed] = (a.arg, "cli", tname)
        for d in decos:
            option = _click_option(d)
            if option is None:
                continue
            dest, flags, kw = option
            is_flag = _is_true(kw.get("is_flag"))
            tname = kw["type"].id if isinstance(kw.get("type"), ast.Name) else None
            for w in flags:
                on, _, off = w.partition("/")
                if off:
                    out[on] = (dest, "flag_on", "bool")
                    out[off] = (dest, "flag_off", "bool")
                else:
                    out[on] = (dest, "flag_on" if is_flag else "cli", "bool" if is_flag else tname)
    return out


_PARSER_CLASSES = {"ArgumentParser", "HfArgumentParser", "TrlParser"}


def _parser_handed_to_helper(tree) -> bool:
    """The script's argparse parser (`p = argparse.ArgumentParser(...)`) is handed to a function the script does not
    define (`add_common_args(p)`, `args_lib.add_deepspeed_args(parser=p)` of the user's own package, whose add_argument
    calls are not here): that function may declare options (round 75m's kreuzhofer recipes, lib/args.py; cfg78), as a
    library's may (`deepspeed.add_config_arguments(parser)`). A function of the standard library's, or of the script's
    own (its add_argument calls are read), declares nothing unseen."""
    import sys

    stdlib = getattr(sys, "stdlib_module_names", frozenset())
    parsers = {t.id for n in walked(tree) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
               and _call_name(n.value) in _PARSER_CLASSES for t in n.targets if isinstance(t, ast.Name)}
    if not parsers:
        return False
    # the names the script imports from outside the standard library (a relative import is the user's own package)
    imported = set()
    for n in walked(tree):
        if isinstance(n, ast.ImportFrom) and (n.level or (n.module or "").split(".")[0] not in stdlib):
            imported.update(a.asname or a.name for a in n.names)
        elif isinstance(n, ast.Import):
            imported.update((a.asname or a.name).split(".")[0] for a in n.names if a.name.split(".")[0] not in stdlib)
    for n in walked(tree):
        if not isinstance(n, ast.Call) or \
                not any(isinstance(a, ast.Name) and a.id in parsers for a in list(n.args) + [k.value for k in n.keywords]):
            continue
        root = n.func
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name) and root.id in imported:
            return True
    return False


def fire_parameters(tree) -> set:
    """The parameters of the script's own functions it hands to Python Fire as its command line (`fire.Fire(train)`,
    `Fire(main)` of `from fire import Fire`; round 75m's 1BIMU/UASFT train.py, cfg78): each is an option `--name`
    whose value the function gets in place of its default. A Fire of a class, a dict, or of nothing (every name of the
    module) declares nothing here, and a function taking **kwargs takes flags no parameter names: those stay
    undeclared (argv_options then refuses the launch)."""
    funcs = {f.name: f for f in walked(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
    fire_names = {a.asname or a.name for n in walked(tree) if isinstance(n, ast.ImportFrom) and n.module == "fire"
                  and not n.level for a in n.names if a.name == "Fire"}
    out: set = set()
    for n in walked(tree):
        if not (isinstance(n, ast.Call) and n.args and isinstance(n.args[0], ast.Name) and n.args[0].id in funcs):
            continue
        f = n.func
        if isinstance(f, ast.Attribute) and f.attr == "Fire" and isinstance(f.value, ast.Name) and f.value.id == "fire" \
                or isinstance(f, ast.Name) and f.id in fire_names:
            fn = funcs[n.args[0].id].args
            out.update(a.arg for a in fn.posonlyargs + fn.args + fn.kwonlyargs if a.arg not in ("self", "cls"))
    return out


def _fire_value(word: str):
    """A Fire flag's word as Fire reads it (fire/parser.py DefaultParseValue: a Python literal where the word is one,
    `5e-5` a float, `True` a bool; the word itself otherwise)."""
    try:
        v = ast.literal_eval(word)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return word
    return v if isinstance(v, (bool, int, float, str)) or v is None else word


# argparse takes a word that looks like a negative number as an option's value (`--num_samples -1`) when the parser
# declares no option that looks like one (argparse.py _negative_number_matcher, _has_negative_number_optionals)
_NEGATIVE = re.compile(r"^-\d+$|^-\d*\.\d+$")


def _abbreviated(decl: dict, name: str, tree) -> str:
    """The declared option a launcher's `--name` stands for: itself when declared, else the one long option of the
    script's own add_argument calls it is the start of (argparse's allow_abbrev, on by default: `--n_sample` for
    `--n_samples`); a word that starts several (argparse stops with `ambiguous option`) or none, or a parser made with
    allow_abbrev=False, stays as it is."""
    if name in decl or not name.startswith("--") or len(name) < 3 or _no_abbrev(tree):
        return name
    # (only among the options the script's own add_argument calls declare: a dataclass field's name given short to an
    # HfArgumentParser, `--num_train_epoch`, is left refused as the typo it most likely is, tests/test_configs_cfg40.py)
    own = {x for names, _dest, _kw in _add_arguments(tree) for x in names if x.startswith("--")}
    hits = [o for o in own if o.startswith(name)]
    return hits[0] if len(hits) == 1 and not any(o.startswith(name) for o in decl if o not in own) else name


def _no_abbrev(tree) -> bool:
    """The script makes a parser with allow_abbrev=False (argparse then takes only whole option names)."""
    return any(isinstance(n, ast.keyword) and n.arg == "allow_abbrev" and isinstance(n.value, ast.Constant)
               and n.value.value is False for n in walked(tree))


# the packages a training script imports that read no command line of their own when imported or called (the
# standard library aside, where argparse / getopt / optparse are the only parsers): a script importing only these and
# using neither sys.argv nor a parser takes no options at all
_NO_CLI_PACKAGES = {"torch", "transformers", "trl", "peft", "datasets", "accelerate", "unsloth", "bitsandbytes", "numpy",
                    "pandas", "yaml", "tqdm", "wandb", "evaluate", "sklearn", "scipy", "huggingface_hub", "tokenizers",
                    "safetensors", "diffusers", "PIL", "torchvision", "sentencepiece", "einops", "dotenv", "jsonlines",
                    "tensorboard", "nltk", "rouge_score", "matplotlib", "deepspeed", "flash_attn", "xformers", "liger_kernel"}
_STDLIB_PARSERS = {"argparse", "getopt", "optparse"}
_PARSER_CALLS = {"parse_args", "parse_known_args", "parse_args_into_dataclasses", "parse_dict", "parse_json_file",
                 "parse_yaml_file", "from_cli", "ArgumentParser", "HfArgumentParser", "TrlParser"}


def reads_argv_by_position_only(tree) -> bool:
    """The script's only command line is `sys.argv[N]` read by position (shisa-ai/shisa-v2's train-unsloth.py, round
    65: `log_file = sys.argv[1]`): no parser, no `sys.argv` handed on whole, and nothing imported that could parse it
    (as reads_no_command_line). Positional words a launcher gives it land there, where the script's own reading already
    takes them as unknown; they set nothing else."""
    return _reads_no_options(tree, argv_by_position=True)


def reads_no_command_line(tree) -> bool:
    """The script takes no options at all (isalnikow86/Lami-LoRA's scripts/train_lora.py, round 49m: a top-level
    TrainingArguments(...) and a YAML read from a fixed path): it names no sys.argv, calls no parser, and imports
    nothing but the standard library's non-parsing modules and the training libraries of _NO_CLI_PACKAGES (a module of
    the user's own, `from config import args`, may parse the command line when imported). Options a launcher hands it
    are then read by nobody: the run is the script's own settings."""
    return _reads_no_options(tree, argv_by_position=False)


def _reads_no_options(tree, argv_by_position: bool) -> bool:
    """reads_no_command_line, and with `argv_by_position` sys.argv allowed where it is only subscripted by a literal
    index (reads_argv_by_position_only)."""
    import sys

    stdlib = getattr(sys, "stdlib_module_names", frozenset())
    parents = parents_of(tree) if argv_by_position else {}
    for n in walked(tree):
        if isinstance(n, (ast.Import, ast.ImportFrom)):
            if isinstance(n, ast.ImportFrom) and (n.level or not n.module):
                return False  # a relative import: the user's own package
            for mod in ([a.name for a in n.names] if isinstance(n, ast.Import) else [n.module]):
                top = mod.split(".")[0]
                if top in _STDLIB_PARSERS or top not in _NO_CLI_PACKAGES and top not in stdlib:
                    return False
        elif isinstance(n, ast.Attribute) and n.attr in ("argv", "orig_argv") or \
                isinstance(n, ast.Name) and n.id in ("argv", "orig_argv"):
            up = parents.get(id(n))
            if not (argv_by_position and isinstance(up, ast.Subscript) and up.value is n and
                    isinstance(up.slice, ast.Constant) and isinstance(up.slice.value, int)):
                return False
        elif isinstance(n, ast.Call) and (n.func.attr if isinstance(n.func, ast.Attribute) else
                                          n.func.id if isinstance(n.func, ast.Name) else None) in _PARSER_CALLS:
            return False
    return True


def argv_options(tree, words: list) -> dict | None:
    """dest -> value node of each option a launcher gives the script (`python train_sft.py --output_dir out --bf16`), as
    the script's own argparse takes it (argparse.py: store_true/false flags, `type` applied to the word); None when
    any word is not an option the script declares (a trainer's option, `$@` handed on, a positional) or its value is
    of a type the file cannot apply (a type function of the script's own). A value the file does not settle (`$OUT`)
    is RUNTIME: unknown wherever the script uses it."""
    from ..shell_words import known

    decl = _declared_options(tree)
    helped = _parser_handed_to_helper(tree)
    out: dict = {}
    i = 0
    while i < len(words):
        w = words[i]
        name, eq, val = w.partition("=") if w.startswith("--") else (w, "", "")
        name = _abbreviated(decl, name, tree)
        if name not in decl and helped and re.match(r"^--[A-Za-z][\w-]*$", name):
            # an option the script's parser gets from a function of the user's own package it hands the parser to
            # (`add_deepspeed_args(p)` of `from lib.args import ...`): its name is argparse's dest, its value (a flag's,
            # or the word after it) is not known here (its type and action are in that module)
            if not eq and i + 1 < len(words) and not words[i + 1].startswith("-"):
                i += 1
            out[name[2:].replace("-", "_")] = RUNTIME
            i += 1
            continue
        if name not in decl:
            return None
        dest, action, tname = decl[name]
        if action == "fire":
            # a bare `--flag` (followed by another option, or last) is True (fire/core.py _ParseKeywordArgs)
            if not eq and (i + 1 == len(words) or words[i + 1].startswith("--")):
                out[dest] = ast.Constant(value=True)
                i += 1
                continue
            if not eq:
                val, i = words[i + 1], i + 1
            i += 1
            out[dest] = ast.Constant(value=_fire_value(val)) if known(val) else RUNTIME
            continue
        if action in ("store_true", "store_false", "flag_on", "flag_off"):
            if eq:
                return None
            out[dest] = ast.Constant(value=action in ("store_true", "flag_on"))
            i += 1
            continue
        if not eq:
            if action == "hf_bool" and (i + 1 == len(words) or words[i + 1].startswith("-")):
                out[dest] = ast.Constant(value=True)  # HfArgumentParser: a bare bool field is True
                i += 1
                continue
            if i + 1 == len(words) or words[i + 1].startswith("-") and not _NEGATIVE.match(words[i + 1]):
                return None  # (argparse: `--opt` followed by another option is "expected one argument")
            val, i = words[i + 1], i + 1
        i += 1
        if action not in (None, "store", "hf_bool", "cli"):
            return None
        if not known(val):
            # a value the launcher leaves to run time (`--run-name $RUN`, a Modal app's `str(epochs)`): that option's
            # value is unknown to the script (whatever reads it is decided at run time), the others are as given
            out[dest] = RUNTIME
            continue
        if action == "hf_bool" or (tname and "bool" in tname.lower()):
            out[dest] = ast.Constant(value=val.strip().lower() in _TRUE_WORDS)
        elif tname in ("int", "float"):
            try:
                out[dest] = ast.Constant(value=int(val) if tname == "int" else float(val))
            except ValueError:
                return None
        elif tname in (None, "str"):
            out[dest] = ast.Constant(value=val)
        elif tname in _PATH_TYPES:
            # argparse applies `type=Path` to the word (argparse.py _get_value: type_func(arg_string)): the path itself,
            # as a string default under that type is (_add_argument_defaults)
            out[dest] = _path_node(ast.Constant(value=val))
        elif action == "cli":
            out[dest] = RUNTIME  # (a Typer / Click parameter of another type, `Path`, an enum: given, its object not known)
        else:
            return None
    return out


# the mark script_constants._file_parses puts on the binding of a name to a parse_yaml_file / parse_json_file /
# parse_dict whose values are known here
PARSED_FILE = "_attn_doctor_parsed_file"


# what a script names the result of its argument parsing: `args = parser.parse_args()`, `args = parse_args()` (a function
# of its own that returns it, or a dataclass built from it: round 9m, TrainConfig(**vars(parser.parse_args())))
_PARSED = re.compile(r"^(parse_(known_)?arg(ument)?s|get_?arg(ument)?s|parse_arguments|parse_opts?)$")
# argparse applies `type` to a string default (argparse.py _get_values: "if isinstance(action.default, str)"); a bool
# parser a script writes itself (str2bool, str_to_bool, strtobool) reads these words as true
_TRUE_WORDS = {"true", "1", "yes", "y", "t", "on"}


def _argparse_defaults(tree) -> dict:
    """dest -> default of every `X.add_argument("--name", ...)` the script makes: what `args.name` holds when the
    script is run with no options (the file alone says nothing of the options a launcher may pass). A default argparse
    would run a type function of the script's own over is "?"; a dest two add_argument calls or dataclass fields
    define differently is left out (two parsers, or a parser per mode)."""
    out: dict = {}
    clash: set = set()
    # an HfArgumentParser's dataclass fields are its options too (hf_argparser.py _parse_dataclass_field: one --name per
    # field, its default the field's): `args.bf16` holds the field's default when no option is given
    for dest, d in (*_add_argument_defaults(tree), *_dataclass_defaults(tree)):
        if dest in out and ast.dump(out[dest]) != ast.dump(d):
            clash.add(dest)
        out[dest] = d
    for dest in clash:
        out.pop(dest)
    return out


def _add_arguments(tree):
    """(option strings, dest, keywords) of each `X.add_argument(...)` the script makes: dest is `dest=`, else the first
    long option's name (`--max-len` -> max_len), else the positional's name; a call none of these names is left out."""
    for n in walked(tree):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "add_argument"):
            continue
        names = [a.value for a in n.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        kw = {k.arg: k.value for k in n.keywords if k.arg}
        dest = kw["dest"].value if isinstance(kw.get("dest"), ast.Constant) else None
        if dest is None:
            longs = [x for x in names if x.startswith("--")]
            pos = [x for x in names if not x.startswith("-")]
            dest = longs[0][2:].replace("-", "_") if longs else pos[0] if pos else None
        if dest:
            yield names, dest, kw


# pathlib's classes a script hands argparse as `type=`: the word or string default becomes that path
_PATH_TYPES = ("Path", "PurePath", "PosixPath")


def _path_node(word: ast.Constant) -> ast.Call:
    """`Path(word)`: what argparse hands the script for a word under a pathlib `type=`, as the values module reads it."""
    return ast.Call(func=ast.Name(id="Path"), args=[word], keywords=[])


def _type_name(typ) -> str | None:
    """The name of an add_argument `type=` (`int`, `str2bool`, `utils.str_to_bool`); None for anything else."""
    return typ.id if isinstance(typ, ast.Name) else typ.attr if isinstance(typ, ast.Attribute) else None


def _add_argument_defaults(tree):
    """(dest, default node) of each `X.add_argument("--name", ...)` the script makes."""
    for _names, dest, kw in _add_arguments(tree):
        action = kw["action"].value if isinstance(kw.get("action"), ast.Constant) else None
        if "default" in kw:
            d = kw["default"]
            typ = kw.get("type")
            tname = _type_name(typ)
            if isinstance(d, ast.Constant) and isinstance(d.value, str) and tname in _PATH_TYPES:
                # argparse runs type over a string default (`type=Path, default="configs/x.yaml"`): the path itself
                d = _path_node(d)
            elif isinstance(d, ast.Constant) and isinstance(d.value, str) and typ is not None and tname != "str":
                if tname and "bool" in tname.lower():
                    d = ast.Constant(value=d.value.strip().lower() in _TRUE_WORDS)
                elif tname in ("int", "float"):
                    try:
                        d = ast.Constant(value=int(d.value) if tname == "int" else float(d.value))
                    except ValueError:
                        d = RUNTIME
                else:
                    d = RUNTIME
        elif action in ("store_true", "store_false"):
            d = ast.Constant(value=action == "store_false")
        else:
            d = ast.Constant(value=None)
        yield dest, d


def _parse_call(node) -> bool:
    """`parser.parse_args()`, `parse_args()`, `get_args()` ...: the script's argument parsing, as _PARSED names it."""
    return isinstance(node, ast.Call) and bool(_PARSED.match(_call_name(node)))


def _parsed_args(node, consts: dict) -> bool:
    """`args` is the script's parsed arguments: a name it assigns from parse_args() (or a function of that name)."""
    got = consts.get(node.id) if isinstance(node, ast.Name) else None
    if isinstance(got, ast.Subscript) and isinstance(got.value, ast.Call) and \
            (_call_name(got.value) in _DATACLASS_PARSES or getattr(got, PARSED_FILE, False)):
        return True  # `script_args = parser.parse_args_into_dataclasses()[0]` (or parse_yaml_file of a file here)
    if not isinstance(got, ast.Call):
        return False
    f = got.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
    return bool(_PARSED.match(name))


def _parsed_parameters(tree, consts: dict) -> dict:
    """name -> the parsing, for a parameter of the script's own function that every call of it in the script passes the
    parsed arguments: `main(parser.parse_args())`, `opts = get_args(); train(opts)`, `main(*parser.
    parse_args_into_dataclasses())` (each parameter the dataclass of its position): inside the function `opts.bf16` is
    the option's default, as it is for `args = parser.parse_args()` at the top level. A parameter some call passes
    anything else is the caller's, not known here."""
    funcs = {f.name: f for f in walked(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
    got: dict = {}
    other: set = set()

    def parsed(arg):
        node = resolve(arg, consts) if isinstance(arg, ast.Name) else arg
        if _parse_call(node) or isinstance(node, ast.Subscript) and isinstance(node.value, ast.Call) and \
                _call_name(node.value) in _DATACLASS_PARSES:
            return node
        return None

    for n in walked(tree):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in funcs):
            continue
        f = funcs[n.func.id]
        params = [a.arg for a in f.args.posonlyargs + f.args.args]
        pairs = []
        for i, a in enumerate(n.args):
            if isinstance(a, ast.Starred):
                # `main(*parser.parse_args_into_dataclasses())`: the dataclasses in order, from this position on
                if isinstance(a.value, ast.Call) and _call_name(a.value) in _DATACLASS_PARSES:
                    pairs += [(p, ast.Subscript(value=a.value, slice=ast.Constant(value=j), ctx=ast.Load()))
                              for j, p in enumerate(params[i:])]
                else:
                    other.update(params[i:])
                break
            if i < len(params):
                pairs.append((params[i], a))
        pairs += [(k.arg, k.value) for k in n.keywords if k.arg]
        for name, a in pairs:
            node = parsed(a)
            if node is None or name in got and ast.dump(got[name]) != ast.dump(node):
                other.add(name)
            else:
                got[name] = node
    return {k: v for k, v in got.items() if k not in other}
