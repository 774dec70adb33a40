"""diffusers: the attention backend a process uses by default, DIFFUSERS_ATTN_BACKEND (default `native`).

Names and behaviour read from diffusers' src/diffusers/models/attention_dispatch.py (AttentionBackendName,
_check_attention_backend_requirements, _HUB_KERNELS_REGISTRY, each backend's `attn_mask` handling) and
src/diffusers/utils/constants.py, huggingface/diffusers 58eb52c (2026-08-23). The example training scripts
(examples/*/train_*.py) take `--enable_xformers_memory_efficient_attention` (and, some, `--enable_npu_flash_attention`:
Ascend NPU attention, not checked); otherwise they run SDPA. The value is parsed with
`AttentionBackendName(DIFFUSERS_ATTN_BACKEND)` when attention_dispatch is imported: a name it does not
know makes loading any diffusers model fail.

The file read here is an env file or a shell snippet: `DIFFUSERS_ATTN_BACKEND=flex`, with or without
`export`, quotes, comments. In a launch script that runs an example, the value is the one the training command's
process gets (shell.Command.environment: exported before the launch line, or assigned in front of it), as bash hands
it; an assignment after the launch line, or one that died in a subshell, is not the run's (cfg114).
"""

from __future__ import annotations

import os
import re
import shlex
from functools import lru_cache

from . import NOTHING, Score, attention

VAR = "DIFFUSERS_ATTN_BACKEND"

# name -> (attn-doctor backend, how it treats an attention mask, the name to use instead when a mask is
# passed, the torch.nn.attention.sdpa_kernel it forces)
LOCAL = {
    "native": ("sdpa", "yes", None, None),
    "_native_cudnn": ("sdpa", "yes", None, "cudnn"),
    "_native_efficient": ("sdpa", "yes", None, "efficient"),
    "_native_flash": ("sdpa", "refused", "native", "flash"),
    "_native_math": ("sdpa", "yes", None, "math"),
    "flex": ("flex", "yes", None, None),
    "flash": ("fa2", "refused", "flash_varlen", None),
    "flash_varlen": ("fa2", "yes", None, None),
    "_flash_3": ("fa3", "refused", "_flash_varlen_3", None),
    "_flash_varlen_3": ("fa3", "yes", None, None),
    "sage": ("sage", "refused", "sage_varlen", None),
    "sage_varlen": ("sage", "yes", None, None),
    "_sage_qk_int8_pv_fp8_cuda": ("sage", "refused", "sage_varlen", None),
    "_sage_qk_int8_pv_fp8_cuda_sm90": ("sage", "refused", "sage_varlen", None),
    "_sage_qk_int8_pv_fp16_cuda": ("sage", "refused", "sage_varlen", None),
    "_sage_qk_int8_pv_fp16_triton": ("sage", "refused", "sage_varlen", None),
    "xformers": ("xformers", "yes", None, None),
}
# Kernels fetched from the Hugging Face Hub by the `kernels` package at run time: nothing local to check.
# name -> (repo, minimum `kernels` version diffusers asks for, mask handling, name to use with a mask)
HUB = {
    "flash_hub": ("kernels-community/flash-attn2", "0.12", "refused", "flash_varlen_hub"),
    "flash_varlen_hub": ("kernels-community/flash-attn2", "0.12", "yes", None),
    "_flash_3_hub": ("kernels-community/flash-attn3", "0.12", "refused", "_flash_3_varlen_hub"),
    "_flash_3_varlen_hub": ("kernels-community/flash-attn3", "0.12", "yes", None),
    "sage_hub": ("kernels-community/sage-attention", "0.12", "refused", "sage_varlen"),
    "flash_4_hub": ("kernels-community/flash-attn4", "0.12.3", "refused", "native"),
    "aiter_fa2_hub": ("kernels-community/aiter-flash-attn-ck", "0.12", "refused", "native"),
}
OTHER = {"_native_npu", "_native_xla"}  # Ascend NPU and XLA devices: not checked by attn-doctor
NAMES = tuple(LOCAL) + tuple(HUB) + tuple(sorted(OTHER))

_ASSIGN = re.compile(r"^\s*(?:export\s+)?" + VAR + r"\s*=\s*(.*)$", re.MULTILINE)


TITLE = "diffusers"


def looks_like(text: str) -> bool:
    return _ASSIGN.search(text) is not None


# diffusers' example training scripts (examples/*/train_*.py): their attention flag and the scripts' names
XFORMERS_FLAG = "enable_xformers_memory_efficient_attention"
# the examples' Ascend NPU option (14 scripts at 58eb52c: benchmarks/results/configs-option-surface-s23.md)
NPU_FLAG = "enable_npu_flash_attention"
_EXAMPLE = re.compile(r"^train_(dreambooth|text_to_image|controlnet|instruct_pix2pix|lcm_distill|custom_diffusion|"
                      r"t2i_adapter|unconditional|amused|cogvideox|flux|sd3|sana|lumina|hidream|qwen|wuerstchen|"
                      r"kandinsky|dreambooth_lora|textual_inversion)[a-z0-9_]*\.py$")


# diffusers' research projects (huggingface/diffusers examples/research_projects/*/train_*.py): built on the examples,
# each with a few options of its own; configs/options.py holds the options of examples/ only
RESEARCH = {"train_autoencoder_rae", "train_autoencoderkl", "train_cm_ct_unconditional", "train_controlnet_webdataset",
            "train_diffusion_dpo", "train_diffusion_dpo_sdxl", "train_diffusion_grpo_sdxl", "train_diffusion_orpo_sdxl_lora",
            "train_diffusion_orpo_sdxl_lora_wds", "train_dreambooth_colossalai", "train_dreambooth_inpaint",
            "train_dreambooth_inpaint_lora", "train_dreambooth_lora_flux_miniature", "train_dreambooth_lora_flux_nano",
            "train_dreambooth_lora_sd3_miniature", "train_gligen_text", "train_instruct_pix2pix_lora",
            "train_multi_subject_dreambooth", "train_multi_subject_dreambooth_inpaint",
            "train_multi_subject_dreambooth_inpainting", "train_pixart_controlnet_hf", "train_rae_dit", "train_realfill",
            "train_sana_sprint_diffusers", "train_sd_resadapter", "train_sdxl", "train_sdxl_lpl",
            "train_text_to_image_lora_prior", "train_text_to_image_prior", "train_text_to_image_xla"}


def _script(doc: dict) -> str | None:
    """The example script the training command runs (diffusers' examples/*/train_*.py)."""
    from .shell import trainer_options

    cmd = doc.get("command")
    if cmd is not None and cmd.script:
        if cmd.module and "." in cmd.module and not cmd.module.startswith(("examples.", "diffusers.")):
            return None  # `-m qwenvl.train.train_qwen`: a module of another package, whatever its file is called
        stem = os.path.splitext(os.path.basename(cmd.script))[0]
        named = trainer_options("diffusers", cmd.script) or stem in RESEARCH or _EXAMPLE.match(cmd.script)
        # a script named like an example (or a research project) is the example only when its options are
        # (PixArt-alpha's own train_scripts/train_controlnet.py CONFIG.py --work-dir ... is not diffusers'
        # train_controlnet.py); a command whose options all come from variables says nothing either way. The examples
        # take every setting as an option and read no settings file: a script handed one through an option no example
        # defines (x-flux's train_flux_deepspeed.py --config train_configs/x.yaml) reads its settings from there, so it
        # is another program's trainer whatever its name
        if named and not settings_file_option(cmd.args, cmd.script) and \
                (not any(a.startswith("--") for a in cmd.args) or _diffusers_options(cmd.args)) and \
                not lacks_model_option(cmd) and len(sd_scripts_options(cmd.args)) < \
                (1 if stem in SHARED_WITH_SD_SCRIPTS else SD_SCRIPTS_EXTRA) and \
                not downloaded_elsewhere(_launch_text(doc), cmd.script):
            return cmd.script
        return None  # the command runs another script: a name like train_flux_lora.py elsewhere is not the example
    return next((s for s in doc["scripts"] if _EXAMPLE.match(s)), None)


# a download of a script under an example's name (`wget https://gist.githubusercontent.com/.../train_dreambooth.py`,
# `curl -L -o train_dreambooth.py URL`, `!wget -q URL`): the URL's last path part is the file it saves
_DOWNLOAD = re.compile(r"\b(?:wget|curl)\b[^\n]*?(https?://[^\s'\"]+)", re.IGNORECASE)


def _launch_text(doc: dict) -> str:
    """The text a download is looked for in, as written: a launch script's, or a notebook's Python cells with their `!`
    lines and its `%%bash` / `%%sh` cells (which IPython hands to bash): `!wget URL` in a code cell and `wget URL` in a
    %%bash cell fetch the same file (cfg45: a notebook's `!` lines saved as one %%bash cell)."""
    from .launchers import NOTEBOOK, notebook_shell

    text = doc.get("python") or doc["text"]
    if NOTEBOOK.search(doc.get("name") or "") and isinstance(doc.get("data"), dict):
        text = "\n".join(x for x in (text, notebook_shell(doc["data"])) if x)
    return text


def downloaded_elsewhere(text: str, script: str) -> bool:
    """The launcher downloads the script it runs from somewhere other than diffusers' own repository (round 28: a
    notebook that wgets a gist of ShivamShrirao's fork of train_dreambooth.py, whose options diffusers' example never
    had): that source's script of the example's name, not the example."""
    name = os.path.basename(script or "")
    for m in _DOWNLOAD.finditer(text or ""):
        url = m.group(1).rstrip(").,;")
        if url.rsplit("/", 1)[-1].split("?", 1)[0] == name:
            return not re.match(r"https?://(?:github\.com|raw\.githubusercontent\.com)/huggingface/diffusers/", url,
                                re.IGNORECASE)
    return False


# The examples whose argparse requires --pretrained_model_name_or_path (required=True) are all of them but these
# (huggingface/diffusers@58eb52c: the Kandinsky 2.2, Cosmos, LLaDA2, unconditional and VQGAN scripts name their model
# another way and require no option for it; the LCM distillation scripts require another, FAMILY_MODEL_OPTION)
MODEL_NOT_REQUIRED = {"train_cosmos_predict25_lora", "train_llada2", "train_text_to_image_decoder",
                      "train_text_to_image_lora_decoder", "train_text_to_image_lora_prior", "train_text_to_image_prior",
                      "train_unconditional", "train_vqgan"}
# A family of examples that requires another option for its model: (the option, the shortest abbreviation of it the
# check takes). The LCM distillation examples require --pretrained_teacher_model (huggingface/diffusers@58eb52c
# examples/consistency_distillation/train_lcm_distill_lora_sdxl.py:283-286, train_lcm_distill_lora_sd_wds.py:481-484,
# train_lcm_distill_lora_sdxl_wds.py:455-458, train_lcm_distill_sd_wds.py:459-462, train_lcm_distill_sdxl_wds.py:478-481:
# required=True) and take no --pretrained_model_name_or_path; an adapted copy under a name of the family's own (an SD 1.5
# train_lcm_distill_lora_sd.py, which diffusers does not ship) keeps that argparse
FAMILY_MODEL_OPTION = {"train_lcm_distill": ("pretrained_teacher_model", "pretrained_teacher")}
_MODEL_OPTION = ("pretrained_model_name_or_path", "pretrained_model")


# options of sd-scripts that no diffusers example defines (--xformers, --conditioning_data_dir, --network_module ...),
# on a command under a name both projects use (train_controlnet.py: sd-scripts' shim of train_control_net.py, and
# diffusers' ControlNet example): this many make it sd-scripts' script, whose argparse defines them
SD_SCRIPTS_EXTRA = 2
# the example names sd-scripts ships a script under too (configs/sd_scripts.py SCRIPT_ALIASES): one option of sd-scripts'
# own is enough there, sd-scripts' reader taking the launch on it
SHARED_WITH_SD_SCRIPTS = {"train_controlnet"}


def sd_scripts_options(args: list) -> list[str]:
    """The options of a command line that sd-scripts defines and no diffusers example does."""
    from .shell import argparse_takes, every_option, option_names

    ours, theirs = every_option("diffusers"), every_option("sd-scripts")
    return [n for n in dict.fromkeys(option_names(args)) if n in theirs and not argparse_takes(n, ours)]


def lacks_model_option(cmd) -> bool:
    """The command runs a script under an example's own name with options, but without the --pretrained_model_name_or_path
    (the LCM distillation family: --pretrained_teacher_model, FAMILY_MODEL_OPTION) that example's argparse requires
    (parse_args() stops: "the following arguments are required"), and nothing that
    could hand it on (`"$@"`, `%*`, an options variable): the repository's own script of that name (FibLDM's
    ../train_dreambooth.py --pretrained_model_path ... --pretrained_controlnet_path ..., a trainer written from scratch).
    A renamed or adapted copy keeps the example's argparse and its required model option (FaceChain's
    train_text_to_image_lora.py, round 7), and is read as the example."""
    from .shell import option_names, trainer_options

    stem = os.path.splitext(os.path.basename(cmd.script or ""))[0]
    # (a name only like an example's, train_qwen3_unsloth.py, is held to the examples' required option as well: round 51)
    if not stem or stem in MODEL_NOT_REQUIRED or (trainer_options("diffusers", stem + ".py") is None and
                                                  not _EXAMPLE.match(stem + ".py")):
        return False
    if not cmd.args:
        # run bare (`python train_qwen25_lora.py`, round 79m's Sarouny19 autodl_train.sh): nothing on the line, nothing
        # that could hand options on, so the examples' parse_args() would stop on the required model option; the
        # script is one of the user's own that reads its settings itself (cfg81)
        return True
    if not any(a.startswith("--") for a in cmd.args) or _may_hand_on(cmd.args):
        return False
    option, shortest = next((o for family, o in FAMILY_MODEL_OPTION.items() if stem.startswith(family)), _MODEL_OPTION)
    return not any(option.startswith(n) and len(n) >= len(shortest) for n in option_names(cmd.args))


def _may_hand_on(args: list) -> bool:
    """A word of the command that could hold more options: `"$@"` / `%*` / `@args`, or a variable where an option goes
    (`$EXTRA_ARGS`); a variable that is the value of the option before it (`--output_dir $SCRIPT_DIR/out`) holds none."""
    for i, a in enumerate(args):
        if not (a[:1] in ("$", "%", "@") or a.startswith('"$')):
            continue
        prev = args[i - 1] if i else ""
        if a.strip('"') in ("$@", "${@}", "$*", "${*}", "%*", "@args") or not prev.startswith("--") or "=" in prev:
            return True
    return False


SETTINGS_FILE = re.compile(r"\.(ya?ml|json|toml|py)$", re.IGNORECASE)


def settings_file_option(args: list, script: str | None = None) -> str | None:
    """The option of a command that hands its script a settings file (`--config train_configs/test_lora.yaml`, `--cfg
    x.py`) when no diffusers example defines that option: the examples read every setting from argparse and take no
    settings file (their --dataset_config_name is a dataset's configuration name, not a file), so such a script is
    another program's trainer. script: the example the command names; argparse takes an abbreviation of that
    script's own options only (`--cfg` is no option of train_text_to_image.py, whatever another example's
    --cfg_dropout_prob), so its table is the one checked when configs/options.py has it, else every example's."""
    from .shell import argparse_takes, every_option, trainer_options

    own = trainer_options("diffusers", os.path.basename(script)) if script else None
    known = every_option("diffusers") if own is None else set(own)
    for i, w in enumerate(args):
        if not w.startswith("--") or len(w) <= 2:
            continue
        name, eq, value = w[2:].partition("=")
        if not eq:
            value = args[i + 1] if i + 1 < len(args) else ""
        if ("config" in name or "cfg" in name) and SETTINGS_FILE.search(str(value).strip("'\"")) and \
                not argparse_takes(name, known):
            return "--" + name
    return None


def _diffusers_options(args: list, every: bool = False) -> bool:
    """Most options of a command are ones diffusers' example scripts define: a script named like an example but not in
    configs/options.py is one only if an example's argparse would take its options (parse_args() stops on an
    unrecognized argument), so a user's train_flux_lora.py with --pretrained_dit_path --precision is its own. every: all
    of them, as a renamed copy of an example under a name of its own takes the example's options and nothing else."""
    from .shell import argparse_takes, every_option, option_names

    known = every_option("diffusers")
    names = option_names(args)
    hits = sum(1 for n in names if argparse_takes(n, known))
    # a research-project example (train_dreambooth_inpaint.py) adds a few options of its own to the common ones
    return bool(names) and hits >= len(names) / (1 if every else 2)


def score(doc: dict) -> "Score":
    from . import SHARED, STRONG

    if doc["fmt"] != "text" and not _notebook_command(doc):
        return NOTHING
    sc = Score()
    script = _script(doc)
    if looks_like(doc["text"]):
        # an env file, or the variable set for (or exported before) the launch of an example: that script is diffusers'
        return sc.add(VAR, 2 * STRONG).add(script, 2 * STRONG) if script else sc.add(VAR, 2 * STRONG)
    if script:
        sc.add(script, 2 * STRONG)
    # the flag is parsed by the script the command that passes it runs: a script that is no example, under a name of
    # its own (src/train.py --modality --noise_type ... --enable_xformers_memory_efficient_attention), is the user's own
    # trainer, which may take the examples' flag; only a renamed copy of an example takes every option an example does
    # and nothing else (parse_args() stops on an unrecognized argument), and then its options are diffusers' evidence
    runs = doc.get("command") or next((c for c in doc.get("commands") or [] if "--" + XFORMERS_FLAG in c.args), None) \
        or next((c for c in doc.get("commands") or [] if c.script and c.script.endswith(".py") and not c.module
                 and any(a.startswith("--") for a in c.args)), None)  # no command trains by name: the one with options
    copy = False
    # (a copy that added an option of its own to an example's many: _modified_copy)
    added = [] if runs is None or not runs.script or script or _diffusers_options(runs.args, every=True) else \
        _modified_copy(runs.args)
    if XFORMERS_FLAG in doc["args"] and not script and runs is not None and runs.script:
        if not _diffusers_options(runs.args, every=True) and not added:
            return NOTHING
        if added:
            sc.add(_modified_copy_evidence("", added))
        elif sum(1 for a in runs.args if a.startswith("--")) >= 3:
            sc.add("every option one of diffusers' examples' (a renamed copy of an example)")
    elif not script and runs is not None and runs.script and not runs.module and \
            sum(1 for a in runs.args if a.startswith("--")) >= COPY_OPTIONS and \
            (_diffusers_options(runs.args, every=True) or added) \
            and not _cloned_repos_own(doc, runs.script) and not _own_scripts_share_options(doc, runs):
        # a renamed copy of an example without the xformers flag (sdxl_lora.py, train_lora_dreambooth.py): the
        # example's argparse (parse_args() stops on an option it does not define) takes every one of its many options
        copy = True
        sc.add(_modified_copy_evidence(runs.script, added) if added else
               f"{runs.script}: every option one of diffusers' examples' (a renamed copy of an example)")
    if XFORMERS_FLAG in doc["args"]:
        sc.add("--" + XFORMERS_FLAG)
    for k in ("pretrained_model_name_or_path", "instance_prompt", "instance_data_dir", "dataset_name",
              "train_batch_size", "validation_prompt", "checkpointing_steps"):
        if k in doc["args"]:
            sc.add(k, SHARED)
    return sc if script or copy or XFORMERS_FLAG in doc["args"] else NOTHING


def _cloned_repos_own(doc: dict, script: str) -> bool:
    """The script is a generic name (train.py, main.py ...) the file runs from a repository it clones itself, none of
    them diffusers (round 31: a notebook that clones the user's lora-sdxl repository, %cd's into it and runs
    `accelerate launch train.py --pretrained_model_name_or_path ... --rank=32`): that repository's own trainer, whose
    options an example's argparse also takes, not a renamed copy of an example."""
    from . import GENERIC_SCRIPTS
    from .installed import cloned

    stem = os.path.splitext(os.path.basename(script))[0].lower()
    repos = cloned(doc.get("text") or "") + cloned(doc.get("python") or "")
    return stem in GENERIC_SCRIPTS and bool(repos) and not any(r.split("/")[-1] == "diffusers" for r in repos)


# options a command line must pass, every one an example's, to be a renamed copy of an example on that evidence alone
COPY_OPTIONS = 6
# a copy of an example that added options of its own (a modified copy, as the research projects are: a few options added
# to an example's argparse) keeps the example's many options: one added option in this many passed, every other one
# that one example's own argparse takes ...
MODIFIED_COPY_OPTIONS = 12
# ... this many of them that example's own, not of the block at least half the examples share (configs/options.py's ''
# table): users' own trainers start from that shared argparse block too (round 107m's SUR-Adapter Cos_train.py with
# --llm_loss_weight, round 5b's marigold_train.py with --val_data_dir: the shared options and at most two more), a copy
# of one example keeps what that example alone has (the FLUX examples' --guidance_scale --max_sequence_length
# --weighting_scheme)
MODIFIED_COPY_OWN = 3


def _modified_copy(args: list) -> list[str]:
    """The options of a command that one diffusers example's argparse does not take, when it takes all the others, those
    are many (MODIFIED_COPY_OPTIONS for each one it lacks) and MODIFIED_COPY_OWN of them are that example's own: a
    repository's copy of that example with an option of its own added (round 137m: ZonixLabs' Kontext-Lora-Trainer runs
    `accelerate launch train.py` with 24 options of train_dreambooth_lora_flux_kontext.py, --guidance_scale
    --max_sequence_length --weighting_scheme --rank --lora_alpha --optimizer among them, and its own --style_type). []
    otherwise: a user's trainer in the examples' shared words, one that adds more than that, reads a settings file
    (settings_file_option), or takes options no one example has together."""
    from .options import OPTIONS
    from .shell import argparse_takes, option_names, trainer_option_names

    names = list(dict.fromkeys(option_names(args)))
    if len(names) < MODIFIED_COPY_OPTIONS or settings_file_option(args) is not None:
        return []
    tables = OPTIONS.get("diffusers") or {}
    shared = _shared_options()
    best = None
    for stem in tables:
        own = trainer_option_names("diffusers", stem + ".py") if stem else None
        if own is None:
            continue
        extra = [n for n in names if not argparse_takes(n, own)]
        its_own = [n for n in names if n not in extra and not argparse_takes(n, shared)]
        if len(its_own) >= MODIFIED_COPY_OWN and (best is None or len(extra) < len(best)):
            best = extra
    return best if best and len(best) <= len(names) // MODIFIED_COPY_OPTIONS else []


@lru_cache(maxsize=None)
def _shared_options() -> frozenset:
    """The options every diffusers example shares (configs/options.py's "" table), without their kinds."""
    from .options import OPTIONS

    return frozenset(item.rpartition(":")[0] for item in (OPTIONS.get("diffusers") or {}).get("", "").split())


def _modified_copy_evidence(script: str, added: list) -> str:
    return (f"{script}: " if script else "") + f"every option but {', '.join('--' + x for x in added)} one of " \
        "diffusers' examples' (a copy of that example with an option of its own)"

# the examples' options that name a run's data and its prompt (examples/dreambooth, examples/text_to_image): what a
# pipeline's own preparation and inference scripts take too when the repository writes them in the examples' words
DATA_OPTIONS = ("instance_data_dir", "instance_prompt", "class_data_dir", "class_prompt", "train_data_dir",
                "instance_mask_dir")


def _option_values(args: list) -> dict:
    """{name: value} of a command's long options that take a value (`--x=v`, `--x v`)."""
    out = {}
    for i, w in enumerate(args):
        if not w.startswith("--") or len(w) <= 2:
            continue
        name, eq, val = w[2:].partition("=")
        if not eq:
            if i + 1 >= len(args) or args[i + 1].startswith("--"):
                continue
            val = args[i + 1]
        out[name] = val
    return out


def _own_scripts_share_options(doc: dict, runs) -> bool:
    """Another command of the file runs a Python script that is no example and no trainer's (the repository's own
    preprocess.py, inference.py) with one of the examples' data options given the same value as the training command
    (`python preprocess.py --instance_data_dir $INSTANCE_DIR --instance_prompt $PROMPT` before `accelerate launch
    train_lora.py --instance_data_dir=$INSTANCE_DIR --instance_prompt=$PROMPT ...`; round 49m's sofa-inpainting
    launcher): the repository writes its own scripts in the examples' option names over one pipeline's data, so those
    names do not make its train_lora.py an unmodified copy of an example (it was a changed inpainting loop)."""
    from .shell import trainer_options

    mine = {k: v for k, v in _option_values(runs.args).items() if k in DATA_OPTIONS and v}
    if not mine:
        return False
    for c in doc.get("commands") or []:
        if c is runs or not c.script or c.module or not c.script.endswith(".py") or c.script == runs.script:
            continue
        stem = os.path.splitext(os.path.basename(c.script))[0]
        if trainer_options("diffusers", c.script) or stem in RESEARCH or _EXAMPLE.match(os.path.basename(c.script)):
            continue
        theirs = _option_values(c.args)
        if any(theirs.get(k) == v for k, v in mine.items()):
            return True
    return False


def _notebook_command(doc: dict) -> bool:
    """A notebook whose `!accelerate launch train_*.py ...` lines run an example (configs.bang_lines)."""
    from . import notebook_command

    return notebook_command(doc)


def read(doc: dict) -> dict:
    if not _notebook_command(doc) and (doc["fmt"] != "text" or looks_like(doc["text"]) and not _script(doc)):
        return parse(doc["path"], doc["text"])
    from . import as_int, dtype_of, given
    from .shell import check_options

    a = doc["args"]
    errors: list = []
    script = _script(doc)
    cmd = doc.get("command")
    launcher = cmd.launcher_args if cmd is not None else {}
    if cmd is not None and cmd.script == script:
        from . import with_accelerate_config

        launcher = with_accelerate_config(doc, cmd.launcher_args) if cmd.program == "accelerate" else cmd.launcher_args
        parsed, errors = check_options("diffusers", cmd)
        a = {**launcher, **{k: v for k, v in parsed.values.items()}}
        if not given(parsed.values.get("mixed_precision")) and given(launcher.get("mixed_precision")):
            a["mixed_precision"] = launcher["mixed_precision"]  # the script's default None: accelerate's
    entries = [attention("--" + XFORMERS_FLAG, "--" + XFORMERS_FLAG, "xformers")] if a.get(XFORMERS_FLAG) else []
    if a.get(NPU_FLAG) and not any(e.get("name") == "--" + NPU_FLAG for e in errors):
        # Ascend's flash attention through torch_npu (examples/dreambooth/train_dreambooth_lora_flux.py:1223-1228
        # set_attention_backend("_native_npu"), text_to_image/train_text_to_image_sdxl.py:736-741
        # unet.enable_npu_flash_attention()); without torch_npu the script stops: "npu flash attention requires
        # torch_npu extensions and is supported only on npu devices" (a script without the option stops at argparse)
        entries.insert(0, attention("Ascend NPU flash attention (torch_npu)", "--" + NPU_FLAG, None, kind="other",
                                    via_diffusers=True))
    mp = a.get("mixed_precision")
    # `--mixed_precision=$VAR` / a value Python computes: the option is given, its value is the run's; the launcher's
    # and accelerate's fallbacks below apply only when the option is not given at all
    unset = mp is None or mp is True or mp == ""
    mp = str(mp).strip().lower() if given(mp) else None
    if mp is None and unset and cmd is not None and cmd.program == "accelerate":
        mp = written_config_precision(doc, cmd)
    if mp is None and unset and cmd is not None and cmd.program != "accelerate":
        # Accelerator(mixed_precision=None) reads ACCELERATE_MIXED_PRECISION (huggingface/accelerate state.py:924-928),
        # which only `accelerate launch` sets (from its flag or its config file): run with python or torchrun, the
        # example trains with that variable's value if the line sets it, else mixed precision "no" (float32 weights)
        env_mp = cmd.environment().get("ACCELERATE_MIXED_PRECISION")
        mp = str(env_mp).strip().lower() if given(env_mp) else "no"
    # The examples build Accelerator(gradient_accumulation_steps, mixed_precision, log_with, project_config) and pass no
    # dynamo settings (examples/text_to_image/train_text_to_image.py:550-555), so TorchDynamoPlugin() takes the
    # ACCELERATE_DYNAMO_* variables `accelerate launch --dynamo_backend X --dynamo_mode M` sets (huggingface/accelerate
    # utils/launch.py:184-193, accelerator.py:326-329, utils/dataclasses.py:1094-1099) and accelerator.prepare()
    # compiles the model: the launcher's dynamo backend is the run's torch.compile.
    dyn = str(launcher.get("dynamo_backend") or "no").strip().lower()
    comp = dyn not in ("no", "none", "false")
    dmode = str(launcher.get("dynamo_mode") or "default").strip().lower() if comp else None
    from . import conditional_flags

    # the value the training command's process sees (shell.Command.environment: exported before it, or a prefix of its
    # line such as `CUDA_VISIBLE_DEVICES=0 DIFFUSERS_ATTN_BACKEND=flex accelerate launch ...`); a plain
    # `DIFFUSERS_ATTN_BACKEND=flex` line is the shell's own variable, which the program never sees, and one exported
    # after the launch line reaches only the commands after it (bash(1), ENVIRONMENT and COMMAND EXECUTION
    # ENVIRONMENT). The file's text is read for it only where no command runs the script (an env file)
    seen = cmd.environment().get(VAR) if cmd is not None else None
    env = (seen if isinstance(seen, str) and seen.strip() else None) if cmd is not None else value_in(doc["text"])
    unet, family = False, None
    stem = os.path.basename(script or "")
    if env is not None and script and (_DISPATCH.search(stem) or not _OWN_PROCESSORS.search(stem)):
        # DIFFUSERS_ATTN_BACKEND sets the process's default for dispatch_attention_fn (huggingface/diffusers@58eb52c
        # src/diffusers/utils/constants.py:45, models/attention_dispatch.py:262, 407-409), which the FLUX, Qwen-Image,
        # Z-Image ... transformers call; a UNet's AttnProcessor2_0 calls F.scaled_dot_product_attention itself
        # (models/attention_processor.py:1406): there the variable changes nothing
        e = entry(env, f"{VAR}={env}")
        entries.append(e)
        if not _DISPATCH.search(stem):
            unet, family = True, "sdxl" if "sdxl" in stem else "sd1x"
            if e["known"]:  # (a name diffusers does not know still stops it at import: that entry stays as it is)
                e["kind"] = "unused"
    return conditional_flags({
        "trainer": "diffusers", "trainer_title": f"diffusers {script}" if script else "diffusers", "format": "cmdline",
        "script": script, "cmdline_errors": errors, "unet": unet, "family": family,
        "attention": entries, "mixed_precision": mp,
        "dtype": "float32" if mp == "no" else dtype_of(mp) if mp else None,
        "compile": {"enabled": comp, "mode": dmode, "setting": "accelerate launch --dynamo_backend" if comp else None},
        "batch_size": as_int(a.get("train_batch_size", 1)),
        "fixes": {"use_default": f"unset {VAR}   # diffusers' default is native (PyTorch SDPA)" if unet else
                  "drop --" + (NPU_FLAG if any(e["setting"] == "--" + NPU_FLAG for e in entries) else XFORMERS_FLAG) +
                  "   # the scripts then run PyTorch SDPA",
                  "mask": next((f"export {VAR}={e['mask_alternative']}" for e in entries if e.get("mask_alternative")),
                               None)},
    }, doc)  # --enable_xformers_memory_efficient_attention added only under a condition the script leaves open


def written_config_precision(doc: dict, cmd) -> str | None:
    """The mixed precision of the accelerate config the file writes before it launches: `accelerate config default
    [--mixed_precision X] [--config_file P]`, or accelerate.utils.write_basic_config(...) in a Python wrapper
    (launchers.python_commands turns it into that line; round 9m: Modal apps and a local runner that write it, then
    `accelerate launch train_dreambooth.py ...` with no --mixed_precision). `accelerate launch` with no
    --mixed_precision takes the config file's (huggingface/accelerate@16cb6eb commands/launch.py:1212, 1281-1285):
    the default one, or the --config_file it names; X defaults to "no" (commands/config/default.py:156-164).
    write_basic_config keeps a config already there (default.py:52-56): the one the file writes is what it asks for,
    and what a fresh machine (a container, a notebook VM) runs with. None when the file writes none, or another."""
    cmds = doc.get("commands") or []
    if cmd not in cmds:
        return None
    target = cmd.launcher_args.get("config_file")
    found = None
    for c in cmds[:cmds.index(cmd)]:
        if c.program == "accelerate" and c.sub == ["config"] and c.args[:1] == ["default"]:
            from .shell import parse_options

            opts = parse_options(c.args[1:]).values
            if opts.get("config_file") == target or opts.get("config_file") is None and target is None:
                found = opts.get("mixed_precision") or "no"
    from . import given

    return str(found).strip().lower() if found is not None and given(found) else None


# Example scripts whose model's attention goes through dispatch_attention_fn (src/diffusers/models/transformers/
# transformer_flux.py, transformer_flux2.py, transformer_qwenimage.py, transformer_z_image.py, transformer_ideogram4.py,
# transformer_krea2.py, transformer_wan.py, transformer_ltx.py, transformer_hunyuan_video.py), and those whose
# non-UNet model has processors of its own that call F.scaled_dot_product_attention (SD3's JointAttnProcessor2_0, Sana,
# Lumina2, HiDream, CogVideoX, CogView4, aMUSEd, Würstchen, Kandinsky: no dispatch_attention_fn in their files).
_DISPATCH = re.compile(r"flux|qwen|z_image|ideogram4|krea2|wan|ltx|hunyuan")
_OWN_PROCESSORS = re.compile(r"sd3|sana|lumina|hidream|cogvideo|cogview|amused|wuerstchen|kandinsky")


def entry(name: str, setting: str) -> dict:
    """One diffusers backend name as an attention entry (also used for SimpleTuner's diffusers names)."""
    if name in LOCAL:
        backend, masks, alt, kernel = LOCAL[name]
        return attention(name, setting, backend, masks=masks, via_diffusers=True, sdpa_kernel=kernel,
                         mask_alternative=alt)
    if name in HUB:
        repo, kmin, masks, alt = HUB[name]
        return attention(name, setting, None, kind="hub", masks=masks, via_diffusers=True, hub_repo=repo,
                         kernels_min=kmin, mask_alternative=alt)
    if name in OTHER:
        return attention(name, setting, None, kind="other", via_diffusers=True)
    hint = suggest(name, NAMES)
    return attention(name, setting, None, known=False, via_diffusers=True, suggestion=hint,
                     fix=f"export {VAR}={hint}" if hint else f"unset {VAR}   # diffusers' default is native (PyTorch SDPA)")


def suggest(name: str, names) -> str | None:
    import difflib

    got = difflib.get_close_matches(name.strip().lower().replace("-", "_"), list(names), n=1, cutoff=0.5)
    return got[0] if got else None


def value_in(text: str) -> str | None:
    """The last value the file assigns to DIFFUSERS_ATTN_BACKEND (shell quoting and comments allowed)."""
    found = None
    for m in _ASSIGN.finditer(text):
        raw = m.group(1).strip()
        if raw.endswith("\\"):
            raw = raw[:-1]  # `DIFFUSERS_ATTN_BACKEND=flex accelerate launch x.py \` continues the launch line
        try:
            parts = shlex.split(raw, comments=True)
        except ValueError:
            parts = [raw.split()[0].strip("'\"")] if raw.split() else [""]
        found = parts[0] if parts else ""
    return found


def from_value(value: str, setting: str) -> dict:
    """A config summary for one DIFFUSERS_ATTN_BACKEND value (an env file, or the doctor's own environment)."""
    return {
        "trainer": "diffusers", "trainer_title": "diffusers", "format": "env",
        "attention": [entry(value, setting)],
        # Whether the job compiles its model is not in an env file.
        "compile": {"enabled": None, "mode": None, "setting": None},
        "fixes": {"compile": "transformer = torch.compile(transformer)   # or pipe.transformer.compile()",
                  "use_default": f"export {VAR}=native"},
    }


def parse(path: str, text: str) -> dict:
    value = value_in(text)
    if value is None:
        value = "native"
    cfg = from_value(value, f"{VAR}={value}")
    if cfg["attention"][0]["masks"] == "refused" and cfg["attention"][0]["mask_alternative"]:
        cfg["fixes"]["mask"] = f"export {VAR}={cfg['attention'][0]['mask_alternative']}"
    return cfg
