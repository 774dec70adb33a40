"""A launcher that installs one trainer (from the trainer's own repository, or its package by name) and runs a
training script of its own that is not here (round 28: a SageMaker image that clones kohya-ss/sd-scripts and execs
/opt/ml/code/train.py; a RunPod image that clones ostris/ai-toolkit and runs handler.py; round 31: one that clones
bghira/SimpleTuner and hands over to CMD ["/start.sh"]; one that builds a fork of sd-scripts and ends ENTRYPOINT
["accelerate", "launch"], the script given by `docker run`): the trainer is the one it
installs, and every setting lives in the script that is not here, so nothing but the trainer is known. A repository no
reader claims (ComfyUI, lora-scripts), two trainers, libraries every job installs, a launcher that runs nothing, a GUI
or a script that only samples or serves is none of this. Nothing is run or fetched."""

from __future__ import annotations

import os
import re

# The trainers' own repositories (the trainer applications; the libraries transformers, diffusers, trl and unsloth are
# cloned for every kind of job, inference included, and say nothing of the training run) -> reader id
TRAINER_REPOS = {
    "ostris/ai-toolkit": "ai-toolkit", "kohya-ss/sd-scripts": "sd-scripts", "kohya-ss/musubi-tuner": "musubi",
    "sarania/blissful-tuner": "blissful", "tdrussell/diffusion-pipe": "diffusion-pipe",
    "nerogar/onetrainer": "onetrainer", "bghira/simpletuner": "simpletuner", "hiyouga/llama-factory": "llama-factory",
    "axolotl-ai-cloud/axolotl": "axolotl", "openaccess-ai-collective/axolotl": "axolotl",
    "pytorch/torchtune": "torchtune", "lightning-ai/litgpt": "litgpt", "modelscope/ms-swift": "ms-swift",
}
_CLONE = re.compile(r"\bgit\s+clone\b[^\n;&|]*?(?:https?://|git@)github\.com[/:]([\w.-]+/[\w.-]+?)(?:\.git)?(?=[\s'\"/;&|]|$)",
                    re.IGNORECASE)
# what a container or launch script runs to train, or to take training jobs (a serverless handler, a worker)
_RUNS_TRAINING = re.compile(r"^(\w*train\w*|\w*finetune\w*|\w*fine_tune\w*|sft\w*|handler|rp_handler|\w+_handler|"
                            r"worker|main|run|launch|start|entrypoint)\.(py|sh)$", re.IGNORECASE)


# The trainers installed from their package index by name (`pip install "axolotl[flash-attn]"`, `uv pip install -U
# ms-swift`): the trainer applications' distributions -> the repository they are built from
TRAINER_PACKAGES = {"axolotl": "axolotl-ai-cloud/axolotl", "llamafactory": "hiyouga/llama-factory",
                    "ms-swift": "modelscope/ms-swift", "torchtune": "pytorch/torchtune", "litgpt": "lightning-ai/litgpt",
                    "musubi-tuner": "kohya-ss/musubi-tuner"}
_PIP_INSTALL = re.compile(r"\bpip3?\s+install\b([^\n;&|]*)", re.IGNORECASE)


def pip_installed(text: str) -> list[str]:
    """The trainers' repositories (TRAINER_PACKAGES) a text installs by package name with pip / uv pip, in order."""
    out = []
    for m in _PIP_INSTALL.finditer(text):
        for w in m.group(1).split():
            name = re.split(r"[\[<>=~!;@]", w.strip("'\""), maxsplit=1)[0].lower()
            if name in TRAINER_PACKAGES:
                out.append(TRAINER_PACKAGES[name])
    return out


def cloned(text: str) -> list[str]:
    """The GitHub repositories the text clones (`git clone [--depth 1] https://github.com/OWNER/REPO[.git] [dir]`), as
    owner/repo in lower case, in order."""
    return [m.group(1).lower() for m in _CLONE.finditer(text)]


# A fork keeps its upstream's name (`git clone https://github.com/aoirint/sd-scripts`, a build of kohya-ss/sd-scripts
# v0.9.1 with one patch): a repository named as one trainer's own is that trainer's fork. Matched on the whole name only
# (Akegarasu/lora-scripts, bmaltais/kohya_ss are other programs, no fork of a reader's repository).
FORK_NAMES = {r.split("/", 1)[1]: t for r, t in TRAINER_REPOS.items()}
# repositories a build clones for its toolchain, which run no training (pyenv's python-build, nvm, asdf)
TOOLCHAIN_REPOS = {"pyenv/pyenv", "pyenv/pyenv-virtualenv", "nvm-sh/nvm", "asdf-vm/asdf"}
# what a container's entry point starts a training script with, the script itself given by `docker run`
_SCRIPT_LAUNCHERS = ("accelerate", "torchrun", "deepspeed")


def trainer_of(repo: str) -> str | None:
    """The reader id of a cloned repository (owner/name, lower case): a trainer's own repository, or a fork of it."""
    return TRAINER_REPOS.get(repo) or FORK_NAMES.get(repo.split("/", 1)[-1])


def _cloned_by_commands(doc: dict) -> list[str]:
    """The GitHub repositories the file's commands clone once its variables are settled (`ARG SD_SCRIPTS_URL=https://
    github.com/...` then `gosu venvbuilder git clone "${SD_SCRIPTS_URL}" /opt/sd-scripts`), as owner/repo."""
    out = []
    for c in doc.get("commands") or []:
        w = list(c.words)
        if "git" in w and "clone" in w[w.index("git"):]:
            out += cloned("git clone " + " ".join(w[w.index("git") + 2:]))
    return out


def _entry_launcher(doc: dict) -> str | None:
    """`accelerate launch` (torchrun, deepspeed) as a Dockerfile's last command with no script: the container's entry
    point, to which `docker run` appends the training script and its options (round 31: aoirint's sd-scripts image,
    ENTRYPOINT ["accelerate", "launch"] in the checkout's WORKDIR)."""
    cmds = doc.get("commands") or []
    if not doc.get("dockerfile") or not cmds:
        return None
    c = cmds[-1]
    if c.launcher and c.launcher[0] in _SCRIPT_LAUNCHERS and not c.script and not c.module and \
            not any(not a.startswith("-") for a in c.args):
        return " ".join(c.launcher)
    return None


def installed_trainer(doc: dict, beside) -> tuple[str, str, str] | None:
    """(reader id, repository, script) when the launch file clones exactly one trainer's own repository (and no other
    repository) and runs, or names as its entry point, a training script of its own that is not here. beside(script)
    says whether the script can be read here (then that script is what to read, not this). None otherwise."""
    from . import NOT_TRAINING_SCRIPT, TRAINER_GUIS

    if doc.get("fmt") != "text":
        return None
    repos = list(dict.fromkeys(cloned(doc.get("text") or "") + _cloned_by_commands(doc)
                               + pip_installed(doc.get("text") or "")))
    repos = [r for r in repos if r not in TOOLCHAIN_REPOS]
    trainers = {trainer_of(r) for r in repos if trainer_of(r)}
    if len(trainers) != 1 or len(repos) != 1:
        return None
    scripts = [os.path.basename(s.replace("\\", "/")) for s in doc.get("scripts") or []]
    from .others import runs_other_script

    handed = runs_other_script(doc)
    if handed and handed.lower().endswith((".sh", ".bash")):
        # the shell script a container hands over to (round 31: an image that clones bghira/SimpleTuner and ends
        # CMD ["/start.sh"], a start.sh that is not here): its entry point, by name as a .py one is
        scripts.append(os.path.basename(handed.replace("\\", "/")))
    if any(s in TRAINER_GUIS or NOT_TRAINING_SCRIPT.match(s) for s in scripts):
        return None  # it starts a GUI or a sampler: no training run of its own
    own = [s for s in scripts if _RUNS_TRAINING.match(s)]
    entry = _entry_launcher(doc) if not own else None
    if entry:
        return next(iter(trainers)), repos[0], f"the script `docker run` passes to `{entry}`"
    if not own or beside(own[-1]):
        return None
    return next(iter(trainers)), repos[0], own[-1]
