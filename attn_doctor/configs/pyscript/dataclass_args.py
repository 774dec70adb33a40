"""The dataclasses of a script: those it hands to HfArgumentParser (their fields are command-line options, their
defaults the run's values), transformers' TrainingArguments fields a subclass takes on the command line, and the
`@dataclass` classes it defines (DATACLASSES: class -> field -> default)."""

from __future__ import annotations

import ast

from ..hf_transformers import TRL_CONFIGS as _TRL_CONFIGS  # (the one list of TRL's configs, every reader's)
from .nodes import _call_name, walked


# HfArgumentParser's methods that return its dataclasses filled from the command line (transformers
# src/transformers/hf_argparser.py parse_args_into_dataclasses; TrlParser's parse_args_and_config, whose `--config` YAML
# configs._script_argv puts under the command line's options; parse_yaml_file / parse_json_file / parse_dict:
# FILE_PARSES below)
_DATACLASS_PARSES = {"parse_args_into_dataclasses", "parse_args_and_config"}
# HfArgumentParser's methods that fill its dataclasses from a file or a dict instead (hf_argparser.py parse_yaml_file,
# parse_json_file, parse_dict): the dataclasses hold that file's values, known only where the file is here (or the dict
# is written out): script_constants._file_parses binds their names then, and only then (cfg83)
FILE_PARSES = {"parse_yaml_file": "yaml_file", "parse_json_file": "json_file", "parse_dict": "args"}
# TrlParser: TRL's HfArgumentParser (huggingface/trl@f2cd577 trl/scripts/utils.py:303-343 parse_args_and_config: the
# command line over a `--config` YAML's values, over the dataclasses' defaults), which TRL's scripts and docs build their
# own scripts on (trl/scripts/sft.py:123-135, examples/scripts/gkd.py:67-68); cfg83
_ARG_PARSERS = {"HfArgumentParser", "H4ArgumentParser", "TrlParser"}


# transformers' TrainingArguments fields (src/transformers/training_args.py, the ones HfArgumentParser turns into
# `--name` options): a dataclass of the script's own that extends TrainingArguments (or TrainingArguments itself,
# handed to HfArgumentParser) takes them on the command line although the script never declares them (round 33m:
# DeepSeek-Coder's finetune script, `class TrainingArguments(transformers.TrainingArguments)` with three fields of its
# own, launched with `--num_train_epochs 10 ... --bf16 True`). The bool ones are HfArgumentParser flags.
TRAINING_ARGUMENTS_BOOLS = frozenset("""overwrite_output_dir do_train do_eval do_predict prediction_loss_only
logging_first_step logging_nan_inf_filter save_safetensors save_only_model save_on_each_node use_cpu full_determinism bf16
fp16 bf16_full_eval fp16_full_eval tf32 ddp_find_unused_parameters dataloader_drop_last dataloader_pin_memory
dataloader_persistent_workers disable_tqdm remove_unused_columns load_best_model_at_end greater_is_better
ignore_data_skip group_by_length gradient_checkpointing include_num_input_tokens_seen include_tokens_per_second
push_to_hub hub_private_repo hub_always_push torch_compile use_liger_kernel average_tokens_across_devices
auto_find_batch_size eval_on_start batch_eval_metrics skip_memory_metrics use_legacy_prediction_loop
restore_callback_states_from_checkpoint""".split())
TRAINING_ARGUMENTS_FIELDS = TRAINING_ARGUMENTS_BOOLS | frozenset("""output_dir eval_strategy evaluation_strategy
per_device_train_batch_size per_device_eval_batch_size gradient_accumulation_steps eval_accumulation_steps eval_delay
learning_rate weight_decay adam_beta1 adam_beta2 adam_epsilon max_grad_norm num_train_epochs max_steps
lr_scheduler_type lr_scheduler_kwargs warmup_ratio warmup_steps log_level log_level_replica logging_dir
logging_strategy logging_steps save_strategy save_steps save_total_limit seed data_seed local_rank ddp_backend
ddp_timeout dataloader_num_workers dataloader_prefetch_factor eval_steps run_name label_names metric_for_best_model
fsdp fsdp_config deepspeed label_smoothing_factor optim optim_args length_column_name report_to
gradient_checkpointing_kwargs hub_model_id hub_strategy hub_token hub_model_revision resume_from_checkpoint
torch_compile_backend torch_compile_mode neftune_noise_alpha liger_kernel_config ddp_bucket_cap_mb
torch_empty_cache_steps past_index accelerator_config""".split())
# (TRL's configs extend TrainingArguments: trl/trainer/base_config.py _BaseConfig(TrainingArguments), so their fields
# are TrainingArguments' and more; ModelConfig / ScriptArguments are TRL's classes of other fields: TRL_FIELD_CLASSES)
_TRAINING_ARGUMENTS = {"TrainingArguments", "Seq2SeqTrainingArguments"} | _TRL_CONFIGS
TRL_FIELD_CLASSES = _TRL_CONFIGS | {"ModelConfig", "ScriptArguments", "DatasetMixtureConfig", "GRPOScriptArguments"}


def parser_classes(call) -> list:
    """The dataclass nodes an HfArgumentParser / TrlParser call is given: its first argument (one class, a tuple or a
    list) or `dataclass_types=` (TrlParser(dataclass_types=[...]), as TRL's docs write it)."""
    a = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "dataclass_types"), None)
    if a is None:
        return []
    return list(a.elts) if isinstance(a, (ast.Tuple, ast.List)) else [a]


def _inherits_training_arguments(tree) -> bool:
    """The script hands HfArgumentParser transformers' TrainingArguments, or a class of its own that extends it (by name
    or as `transformers.TrainingArguments`, through its own classes too)."""
    classes = {n.name: n for n in walked(tree) if isinstance(n, ast.ClassDef)}

    def extends(c, depth=0) -> bool:
        for b in c.bases:
            bn = b.attr if isinstance(b, ast.Attribute) else b.id if isinstance(b, ast.Name) else ""
            if bn in _TRAINING_ARGUMENTS and (isinstance(b, ast.Attribute) or bn != c.name):
                return True
            if bn in classes and bn != c.name and depth < 4 and extends(classes[bn], depth + 1):
                return True
        return False

    for n in walked(tree):
        if isinstance(n, ast.Call) and _call_name(n) in _ARG_PARSERS:
            for e in parser_classes(n):
                name = e.attr if isinstance(e, ast.Attribute) else e.id if isinstance(e, ast.Name) else ""
                c = classes.get(name) if isinstance(e, ast.Name) else None
                if c is not None and extends(c) or c is None and name in _TRAINING_ARGUMENTS:
                    return True
    return False


def _dataclass_fields(tree):
    """The field statements (`name: T`, `name: T = value`, `name: T = field(...)`) of the dataclasses the script hands
    to HfArgumentParser (`HfArgumentParser(ScriptArguments)`, `HfArgumentParser((ModelArguments, DataArguments,
    TrainingArguments))`), each class once, in the order the script first gives them."""
    classes = {n.name: n for n in walked(tree) if isinstance(n, ast.ClassDef)}
    given: list = []
    for n in walked(tree):
        if isinstance(n, ast.Call) and _call_name(n) in _ARG_PARSERS:
            given += [e.id for e in parser_classes(n) if isinstance(e, ast.Name)]
    for cname in dict.fromkeys(given):
        c = classes.get(cname)
        for st in (c.body if c is not None else []):
            if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name):
                yield st


def _field_default(st: ast.AnnAssign):
    """The default node of a dataclass field, `name: T = value` or `name: T = field(default=value)`; None for a field
    with no default or with default_factory."""
    d = st.value
    if isinstance(d, ast.Call) and _call_name(d) == "field":
        return next((k.value for k in d.keywords if k.arg == "default"), None)
    return d


def _dataclass_defaults(tree):
    """(field, default node) of the dataclasses the script hands to HfArgumentParser (_field_default); a field with
    default_factory or no default is left out."""
    for st in _dataclass_fields(tree):
        d = _field_default(st)
        if d is not None:
            yield st.target.id, d


# consts' entry for the script's own dataclasses: class name -> {field: default node}
DATACLASSES = "<the script's dataclasses>"
# the mark on a field's default that is another dataclass of the same module built with its own defaults
# (`model: ModelConfig = field(default_factory=ModelConfig)`): {field: default node} of that class
NESTED = "_attn_doctor_dataclass_fields"
# consts' entry: the attribute names the script assigns on any object (`cfg.model.attn_implementation =
# "flash_attention_2"`, `cfg.bf16 = False`): a nested or returned dataclass's default under such a name is not what the
# run reads
NESTED_SETS = "<attributes the script sets>"
# consts' entry: function name -> the dataclass call `C()` it returns (script_constants._returned_objects)
RETURNED_OBJECTS = "<dataclasses the script's functions return>"


def nested_sets(tree) -> set:
    """NESTED_SETS of a script: X.name assigned (=, +=, : T =) or setattr(X, "name", ...) anywhere ("*": a name not
    written out)."""
    out = set()
    for n in walked(tree):
        targets = n.targets if isinstance(n, ast.Assign) else [n.target] if isinstance(n, (ast.AugAssign, ast.AnnAssign)) \
            else []
        for t in targets:
            for e in (t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t]):
                if isinstance(e, ast.Attribute):
                    out.add(e.attr)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "setattr" and len(n.args) >= 2:
            out.add(n.args[1].value if isinstance(n.args[1], ast.Constant) and isinstance(n.args[1].value, str) else "*")
    return out


def _nest(tree, out: dict) -> None:
    """A field `name: T = field(default_factory=C)` of a dataclass, C a dataclass of the same module (out): its default
    is C() with C's own defaults, kept as a call marked NESTED, so `cfg.model.attn_implementation` of `cfg = Config()`
    reads ModelConfig's default (round 79m's mrSvet0zar src/config.py, cfg81). A factory that is no dataclass of the
    module (`list`, a lambda) is left out, as before."""
    for c in walked(tree):
        if not isinstance(c, ast.ClassDef) or c.name not in out:
            continue
        for st in c.body:
            if not (isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and isinstance(st.value, ast.Call)
                    and _call_name(st.value) == "field"):
                continue
            f = next((k.value for k in st.value.keywords if k.arg == "default_factory"), None)
            if isinstance(f, ast.Name) and f.id in out and f.id != c.name:
                call = ast.Call(func=ast.Name(id=f.id, ctx=ast.Load()), args=[], keywords=[])
                setattr(call, NESTED, out[f.id])
                out[c.name][st.target.id] = call


def nested_dataclasses(tree) -> dict:
    """_script_dataclasses, with the fields whose default is another dataclass of the module (_nest)."""
    out = _script_dataclasses(tree)
    _nest(tree, out)
    return out


# the classes whose constructor keywords are the object's attributes of the same name (transformers' TrainingArguments,
# TRL's SFTConfig / ModelConfig, a script's own XxxArgs): `cfg.bf16` of `cfg = SFTConfig(bf16=True)` is True
_CONFIG_CLASSES = ("Config", "Arguments", "Args", "Namespace")


def _script_dataclasses(tree) -> dict:
    """class name -> {field: default node} of each `@dataclass` class the script defines (a field with no default, or
    with default_factory, is left out; a class defined twice is left out)."""
    out: dict = {}
    seen: set = set()
    for c in walked(tree):
        if not isinstance(c, ast.ClassDef):
            continue
        if not any(_call_name(d) == "dataclass" if isinstance(d, ast.Call) else
                   (d.attr if isinstance(d, ast.Attribute) else getattr(d, "id", "")) == "dataclass"
                   for d in c.decorator_list):
            continue
        if c.name in seen:
            out.pop(c.name, None)
            continue
        seen.add(c.name)
        fields = {}
        for st in c.body:
            d = _field_default(st) if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) else None
            if d is not None:
                fields[st.target.id] = d
        out[c.name] = fields
    return out


def trl_parser_classes(tree) -> set:
    """TRL's own dataclasses (TRL_FIELD_CLASSES: its configs, ModelConfig, ScriptArguments) a script hands to
    HfArgumentParser / TrlParser and does not define itself: their fields are options of its command line and keys of
    its `--config` YAML (trl/scripts/utils.py TrlParser)."""
    own = {n.name: n for n in walked(tree) if isinstance(n, ast.ClassDef)}

    def trl_base(name: str, depth: int = 0) -> str | None:
        # TRL's class itself, or the TRL class a class of the script's own extends (`class MyConfig(SFTConfig)`,
        # open-r1's `GRPOScriptArguments(ScriptArguments)`): its fields are TRL's and the subclass's
        if name not in own:
            return name if name in TRL_FIELD_CLASSES else None
        for b in own[name].bases if depth < 4 else []:
            bn = b.attr if isinstance(b, ast.Attribute) else b.id if isinstance(b, ast.Name) else ""
            got = (bn if bn in TRL_FIELD_CLASSES else None) if isinstance(b, ast.Attribute) or bn == name else \
                trl_base(bn, depth + 1)
            if got:
                return got
        return None

    out = set()
    for n in walked(tree):
        if isinstance(n, ast.Call) and _call_name(n) in _ARG_PARSERS:
            for e in parser_classes(n):
                name = e.attr if isinstance(e, ast.Attribute) else e.id if isinstance(e, ast.Name) else ""
                got = (name if name in TRL_FIELD_CLASSES else None) if isinstance(e, ast.Attribute) else trl_base(name)
                if got:
                    out.add(got)
    return out


def trl_parser(tree) -> bool:
    """The script parses its command line with TRL's TrlParser (whose parse_args_and_config takes `--config FILE`)."""
    return any(isinstance(n, ast.Call) and _call_name(n) == "TrlParser" for n in walked(tree))
