"""Would the trainer's own parser take this YAML/JSON file's keys? For the trainers that parse their config with
transformers' HfArgumentParser over their argument dataclasses (ms-swift, LLaMA-Factory), a key none of their
argument classes has is refused: ms-swift turns the file into `--key value` (swift/cli/main.py parse_yaml_args) and
raises ValueError("remaining_argv: [...]") for what the parser leaves over unless `ignore_args_error` is set
(swift/pipelines/base.py _parse_args); LLaMA-Factory's parse_dict raises "Some keys are not used by the
HfArgumentParser" unless ALLOW_EXTRA_ARGS is set (src/llamafactory/hparams/parser.py _parse_args). The key tables
are trainer_keys.py (scripts/extract_trainer_keys.py, several releases joined).

A file whose keys are mostly ones the trainer's parser would refuse is another framework's, whatever key names it
shares with the trainer (an MLX-LM LoRA YAML's train_type / lora_target_modules are ms-swift's names too); a real
file of the trainer with a typo'd or removed key among many of its own stays the trainer's."""

from __future__ import annotations

from .trainer_keys import KEYS

# Measured on every YAML/JSON of fixtures/configs (real/, rounds) and tests/data a claimed reader reads as ms-swift
# or LLaMA-Factory (session 8, cfg33): the trainers' own files hold at most 3 keys their parser lacks, and at most
# 1/12 of their keys (Sartify/LLaMA-Factory-pawa's pretrain config: 3 of 36, its fork's own keys; a typo'd
# enabel_lighter_kernel 1 of 30; a removed train_size 1 of 27); the MLX-LM LoRA YAML of round 28 has 10 of its 19
# keys refused by ms-swift's training parser. A file is not the trainer's when at least FOREIGN_MIN of its keys are
# refused and they are more than FOREIGN_SHARE of its keys.
FOREIGN_MIN = 3
FOREIGN_SHARE = 1 / 3
# the parser reads the YAML as a command line (argparse: a unique prefix of an option is that option, `--foo-bar`
# is `--foo_bar`'s alias); LLaMA-Factory's parse_dict takes the dataclass fields' names exactly
AS_COMMAND_LINE = {"ms-swift"}


def _takes(trainer: str, keys: frozenset, key: str, command_line: bool = False) -> bool:
    if key in keys:
        return True
    if trainer not in AS_COMMAND_LINE and not command_line:
        return False
    k = key.replace("-", "_")
    return k in keys or sum(1 for o in keys if o.startswith(k)) == 1


def refused_keys(trainer: str, data: dict, evidence=(), command_line: bool = False) -> tuple[str, list] | None:
    """(parser, the file's keys it would refuse) for the trainer's parser that refuses the fewest of them among those
    that take the keys the file is claimed on (`evidence`); None when attn-doctor has no key table for the trainer.
    command_line: the keys are a command line's options, which the parser reads as argparse does (a unique prefix of
    an option is that option) whatever it does with a file's keys."""
    parsers = KEYS.get(trainer)
    if not parsers or not isinstance(data, dict):
        return None
    best = None
    for name, keys in parsers.items():
        if any(not _takes(trainer, keys, e, command_line) for e in evidence):
            continue
        bad = [str(k) for k in data if not _takes(trainer, keys, str(k), command_line)]
        if best is None or len(bad) < len(best[1]):
            best = (name, bad)
    if best is None:  # no parser takes even the evidence: every parser's refusals, the least first
        best = min(((n, [str(k) for k in data if not _takes(trainer, ks, str(k), command_line)])
                    for n, ks in parsers.items()),
                   key=lambda b: len(b[1]))
    return best


def not_its_file(trainer: str, data: dict, evidence=(), command_line: bool = False) -> tuple[str, list] | None:
    """(parser, refused keys) when most of the file's keys are ones the trainer's own parser would refuse (see
    FOREIGN_MIN / FOREIGN_SHARE); None when the trainer's parser would take it (or nearly: a typo, a removed key)."""
    if trainer == "ms-swift" and isinstance(data, dict) and str(data.get("ignore_args_error")).lower() == "true":
        return None  # swift/pipelines/base.py: remaining_argv only warns
    got = refused_keys(trainer, data, evidence, command_line)
    if got is None:
        return None
    name, bad = got
    # keys the parser lacks that share a prefix, three or more of them, are one feature a fork of the trainer adds
    # (round 73: a LLaMA-Factory fork's stage config with grpo_beta, grpo_num_generations, ... grpo_vllm_mode): counted
    # as one key; another framework's keys are as many names as settings
    families: dict = {}
    for b in bad:
        families.setdefault(b.split("_", 1)[0], []).append(b)
    counted = len(bad) - sum(len(f) - 1 for f in families.values() if len(f) >= FOREIGN_MIN)
    if counted >= FOREIGN_MIN and counted > FOREIGN_SHARE * len(data):
        return name, bad
    return None


def refusal(title: str, data: dict, evidence, refused: tuple[str, list], also: str = "") -> str:
    """The sentence a refusal says: which keys the trainer would refuse, and why its names are no evidence."""
    parser, bad = refused
    shown = ", ".join(bad[:8]) + (", ..." if len(bad) > 8 else "")
    names = (f"its keys {', '.join(evidence[:3])} are {title} names" if len(evidence) > 1 else
             f"its key {evidence[0]} is a {title} name")
    return (f"{names}, but {title}'s own parser ({parser}) would refuse {len(bad)} of its {len(data)} keys "
            f"({shown}){also}, so it is another framework's config")
