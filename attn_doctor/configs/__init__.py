"""Trainer configs (`check --config PATH [--trainer NAME]`): what the user's training job will ask of the
attention stack.

Which trainer a file belongs to is told by evidence, then refused when the evidence is missing (detect()). The
file is parsed once (JSON, TOML, YAML through yaml.safe_load, a Python script or notebook read with ast, or
text: an env file, a shell / .bat / .ps1 script, a saved command line, taken apart by shell.py) and every
reader in READERS scores what it recognises (a Score): the trainer's own evidence (a script or CLI name, a
section layout, keys or values no other trainer has) weighs STRONG; keys a few trainers share SHARED; keys
nearly all have (mixed_precision, batch_size) COMMON. A file is read as trainer X only on X's own evidence:
- frameworks attn-doctor does not read (others.py: torchtitan, NeMo, Megatron, a DeepSpeed or accelerate
  config, mmengine, Lightning, ...) are recognised the same way and refused: "looks like Y, which attn-doctor
  does not read yet";
- a dataset config (the [[datasets]] TOML sd-scripts and musubi-tuner take with --dataset_config) is refused
  as one;
- no reader with its own evidence: "not a trainer config" (or, when keys several trainers share are there,
  which evidence is missing);
- two readers whose own evidence is about equal: the file mixes them, and says so.
Each refusal is one line, exit 2; --trainer NAME reads the file with that reader anyway. Nothing is imported
from any trainer, and no script is run.

One module per trainer turns its config into one plain dict (JSON-round-trippable, so a saved
report keeps it and `check --from` re-evaluates it):

    trainer, trainer_title, path, format      which trainer, which file, json | toml | yaml | env | cmdline
    detected: {trainer, title, by, score, evidence, runner_up, runner_up_score}
                                              how the trainer was told (by: content | --trainer) and from
                                              which keys and values (evidence)
    attention: [{name, setting, backend, known, kind, masks, via_diffusers, sdpa_kernel, hub_repo,
                 kernels_min, mask_alternative, suggestion, fix}]
                                              every backend the config names, as the trainer spells it;
                                              backend is attn-doctor's name (sdpa, flex, cute, fa2, fa3,
                                              sage, xformers) or None; kind: local | hub | other |
                                              builtin (plain PyTorch matmul + softmax: nothing to check) | unused (set, but
                                              never reached: another flag wins, a UNet ignores it);
                                              masks: yes | refused (raises on a mask) | dropped (ignores it)
    required                                  backends that must be ok (as if --require); a file that
                                              chooses no backend (the trainer's default) requires none
    family, head_dims, dtype, mixed_precision what the smoke tests should use (dtype: torch's name)
    compile: {enabled, mode, setting}, compile_mode
                                              compile_mode feeds the allocator check ("none": no compile)
    batch_size, split_attn, sage_training, unet, packing, fixes
                                              what checks/trainer.py needs (packing: [{setting, attn}] where
                                              packed samples would attend to each other); fixes holds
                                              config snippets in the trainer's own syntax for the fix lines

Unknown keys are ignored; a file that cannot be read is a UsageError (one line, exit 2).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import stat

from ..textutil import walked
from ..model import BACKENDS, UsageError
from .runners import kube_manifest, runner_commands
from .launchers import (NOTEBOOK, QUOTES, bang_lines, dockerfile_script, dumped_for, exported_notebook,  # noqa: F401
                        makefile_script, justfile_script, inline_python, notebook_code, notebook_command,
                        notebook_shell, python_commands, notebook_written_files, python_dumped_configs, python_written_files)

MAX_CONFIG = 4 * 1024 * 1024  # real trainer configs are a few KB; anything this big is the wrong file

# torch dtype names the smoke runner takes, from each trainer's mixed_precision values. "no" (fp32 master
# weights) says nothing about the dtype attention runs in: the trainers cast q/k/v themselves.
DTYPES = {"bf16": "bfloat16", "fp16": "float16"}
COMPILE_MODES = ("default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs")


# Launch scripts the shells read in a legacy code page as well (configs, which parsers read as UTF-8, are refused)
LEGACY_CODEPAGE_SCRIPTS = (".bat", ".cmd", ".ps1", ".sh", ".bash", ".zsh")


def read_text(path: str) -> str:
    """The config's text, or a UsageError that says in one line why not."""
    try:
        st = os.stat(path)  # follows symlinks: a loop raises ELOOP here
    except OSError as e:
        raise UsageError(f"--config: cannot read {path}: {e.strerror or e}") from None
    if stat.S_ISDIR(st.st_mode):
        raise UsageError(f"--config: {path} is a directory, not a trainer config")
    if not stat.S_ISREG(st.st_mode):
        raise UsageError(f"--config: {path} is not a regular file")
    if st.st_size > MAX_CONFIG:
        raise UsageError(f"--config: {path} is {st.st_size // (1024 * 1024)} MiB: too large for a trainer config")
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_CONFIG + 1)
    except OSError as e:
        raise UsageError(f"--config: cannot read {path}: {e.strerror or e}") from None
    for bom, enc in ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"), (b"\xff\xfe", "UTF-16"),
                     (b"\xfe\xff", "UTF-16")):
        if raw.startswith(bom):
            raise UsageError(f"--config: {path} is {enc} (as Windows PowerShell 5 saves text): save it as UTF-8")
    if b"\x00" in raw:
        head = raw[:4096]
        zeros_odd, zeros_even = head[1::2].count(0), head[0::2].count(0)
        if len(head) >= 8 and max(zeros_odd, zeros_even) > 0.4 * (len(head) // 2) and min(zeros_odd, zeros_even) < 4:
            raise UsageError(f"--config: {path} is UTF-16 (without a byte-order mark): save it as UTF-8")
        raise UsageError(f"--config: {path} is binary, not a trainer config")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        if path.lower().endswith(LEGACY_CODEPAGE_SCRIPTS):
            # cmd.exe reads a batch file in the console's OEM code page and Windows PowerShell 5 a BOM-less .ps1 in the
            # ANSI one (cp936 for a Chinese `REM 训练` comment), bash reads bytes: a script saved that way runs. Its
            # programs, scripts and options are ASCII, so the bytes no code page here can name are read as U+FFFD
            return raw.decode("utf-8", errors="replace")
        raise UsageError(f"--config: {path} is not UTF-8 text") from None


# Every reader, in the order a tie is reported: attn-doctor's id -> module. Each module has TITLE, a
# score(doc) -> (points, evidence) and read(doc) -> the config dict (plus parse(path, text) for one file).
READERS = {
    "simpletuner": "simpletuner", "musubi": "musubi", "blissful": "blissful", "diffusers": "diffusers",
    "ai-toolkit": "ai_toolkit", "sd-scripts": "sd_scripts", "diffusion-pipe": "diffusion_pipe",
    "onetrainer": "onetrainer", "axolotl": "axolotl", "llama-factory": "llamafactory",
    "transformers": "hf_transformers", "torchtune": "torchtune", "litgpt": "litgpt", "ms-swift": "ms_swift",
    "unsloth": "unsloth",
}
# Other spellings --trainer accepts.
ALIASES = {"musubi-tuner": "musubi", "blissful-tuner": "blissful", "ai_toolkit": "ai-toolkit", "aitoolkit": "ai-toolkit",
           "ostris": "ai-toolkit", "sd_scripts": "sd-scripts", "kohya": "sd-scripts", "kohya-ss": "sd-scripts",
           "diffusion_pipe": "diffusion-pipe", "llamafactory": "llama-factory", "llama_factory": "llama-factory",
           "trl": "transformers", "hf": "transformers", "one-trainer": "onetrainer", "kohya_ss": "sd-scripts",
           "kohya_gui": "sd-scripts", "kohya-gui": "sd-scripts", "lit-gpt": "litgpt", "swift": "ms-swift",
           "ms_swift": "ms-swift", "modelscope-swift": "ms-swift", "tune": "torchtune"}
# How much a piece of evidence counts: a key (or value) only this trainer uses, one a few trainers share,
# and a key nearly every trainer has (mixed_precision, batch_size, ...).
STRONG, SHARED, COMMON = 3.0, 1.0, 0.25
MIN_SCORE = 3.0  # less than one key of its own (or three shared ones): not this trainer's file
MARGIN = 2.0  # the winner must lead the runner-up by this much, or it is a tie


def _module(name: str):
    import importlib

    return importlib.import_module(f"{__name__}.{READERS[name]}")


def trainer_name(raw: str) -> str:
    """--trainer's value as a reader id, or a UsageError listing the names."""
    key = str(raw).strip().lower()
    key = ALIASES.get(key, key)
    if key not in READERS:
        raise UsageError(f"--trainer: unknown trainer {raw!r} (known: {', '.join(READERS)})")
    return key


def supported() -> str:
    return ", ".join(_module(n).TITLE for n in READERS)


# ---------------------------------------------------------------------------------------------------
# The file as every reader sees it
# ---------------------------------------------------------------------------------------------------

_ENV_LINE = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*(\+?=)(.*)$")
_SCRIPT = re.compile(r"(?:^|[\s/\\\"'])([A-Za-z0-9_.-]+\.py)\b")


def load_json(path: str, text: str):
    import json

    try:
        return json.loads(text)
    except RecursionError:
        raise UsageError(f"--config: {path} is too deeply nested to be a trainer config") from None
    except ValueError as e:
        if _json_lines(text):
            raise UsageError(f"--config: {path} is JSON Lines (one JSON record per line: data such as a training set, "
                             f"not settings), not a trainer config") from None
        from .others import VSCODE_LAUNCH, vscode_launch_text

        if vscode_launch_text(text):
            # VS Code writes launch.json as JSON with comments (`// Use IntelliSense ...`), which json.loads refuses
            raise UsageError(f"--config: {path} is {VSCODE_LAUNCH}, not a trainer config (attn-doctor reads "
                             f"{supported()})") from None
        raise UsageError(f"--config: {path} is not valid JSON: {e}") from None


def _json_lines(text: str) -> bool:
    """Two or more lines that are each one JSON object or array (a .jsonl dataset: instruction/output pairs, chat
    `messages` records): json.loads stops at the second record with "Extra data"."""
    import json

    lines = [ln for ln in text.lstrip("\ufeff").splitlines() if ln.strip()]
    if len(lines) < 2:
        return False
    try:
        return all(isinstance(json.loads(ln), (dict, list)) for ln in lines[:50])
    except (ValueError, RecursionError):
        return False


def load_yaml(path: str, text: str):
    import yaml

    try:
        return yaml.safe_load(text)
    except RecursionError:
        raise UsageError(f"--config: {path} is too deeply nested to be a trainer config") from None
    except yaml.YAMLError as e:
        where = getattr(e, "problem_mark", None)
        at = f" (line {where.line + 1})" if where is not None else ""
        raise UsageError(f"--config: {path} is not valid YAML{at}: {getattr(e, 'problem', None) or e}".replace("\n", " ")) from None
    except ValueError as e:  # a scalar its tag or form cannot hold: `created: 2024-02-30`, `n: !!int abc`
        raise UsageError(f"--config: {path} is not valid YAML: {e}".replace("\n", " ")) from None


def _load_yaml_docs(path: str, text: str):
    """load_yaml, and for a stream of several documents that are all Kubernetes manifests (`---` between a ConfigMap,
    a Job and a Service) the list of them (runners.py reads their containers' commands); any other stream is refused
    as load_yaml refuses it."""
    import yaml

    try:
        return load_yaml(path, text)
    except UsageError as refused:
        try:
            docs = [d for d in yaml.safe_load_all(text) if d is not None]
        except Exception:
            raise refused from None
        if len(docs) > 1 and all(kube_manifest(d) for d in docs):
            return docs
        raise


def tokens(text: str) -> list[str]:
    """A saved command line as shell words (line continuations joined, comments dropped)."""
    text = text.replace("\\\r\n", " ").replace("\\\n", " ").replace("^\r\n", " ").replace("`\n", " ")
    try:
        return shlex.split(text, comments=True)
    except ValueError:  # an unbalanced quote somewhere (an apostrophe in an echo): read it line by line
        out: list[str] = []
        for line in text.splitlines():
            try:
                out += shlex.split(line, comments=True)
            except ValueError:
                out += [w.strip("'\"") for w in line.split()]
        return out


def args_of(words: list[str], flag: str = "-") -> dict:
    """`--key=value`, `--key value` and bare `--flag` words -> {key: value} (True for a bare flag).
    A word that starts with `flag` is the next option, not a value."""
    out: dict = {}
    i = 0
    while i < len(words):
        tok = words[i]
        if tok.startswith("--") and len(tok) > 2:
            key, eq, value = tok[2:].partition("=")
            if eq:
                out[key] = value
            elif i + 1 < len(words) and not words[i + 1].startswith(flag):
                out[key] = words[i + 1]
                i += 1
            else:
                out[key] = True
        i += 1
    return out


def env_of(text: str) -> dict:
    """VAR=value lines (with or without export, quotes, comments, +=) -> {VAR: value}."""
    env: dict = {}
    for line in text.splitlines():
        m = _ENV_LINE.match(line)
        if not m:
            continue
        key, op, value = m.group(1), m.group(2), m.group(3).strip()
        try:
            parts = shlex.split(value, comments=True)
        except ValueError:
            parts = [value.strip("'\"")]
        value = " ".join(parts)
        env[key] = (env.get(key, "") + " " + value).strip() if op == "+=" else value
    return env


_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def expand(text: str, env: dict) -> str:
    """A shell script's $VAR / ${VAR} replaced by the value it last assigns them (a few rounds, for nesting);
    variables it never assigns stay as written."""
    for _ in range(3):
        new = _VAR.sub(lambda m: str(env.get(m.group(1) or m.group(2), m.group(0))), text)
        if new == text:
            break
        text = new
    return text


def _all_keys(data, depth: int = 0, out: set | None = None) -> set:
    """Every mapping key in a parsed document, at any depth (through lists), as strings."""
    out = set() if out is None else out
    if depth > 6:
        return out
    if isinstance(data, dict):
        for k, v in data.items():
            out.add(str(k).lstrip("-"))
            _all_keys(v, depth + 1, out)
    elif isinstance(data, list):
        for v in data[:50]:
            _all_keys(v, depth + 1, out)
    return out


def flatten(data: dict) -> dict:
    """A TOML/YAML document with its sections' keys joined to the top level (kohya's read_config_from_file)."""
    out: dict = {}
    for k, v in data.items():
        if isinstance(v, dict):
            for k2, v2 in v.items():
                out[str(k2).lstrip("-")] = v2  # a later section's value wins, as in kohya's reader
        else:
            out[str(k).lstrip("-")] = v
    return out


# A value a Jinja2 template fills in (`name: {{ output_name }}`, `- {{ item }}`), as the whole of a line's value: read as
# a quoted string that stands for a value given at run time, so the template parses as the config it renders
_TEMPLATE_VALUE = re.compile(r"^([ \t]*(?:-[ \t]+)?(?:[\w.-]+:[ \t]*)?)(\{\{[^{}\n]*\}\})[ \t]*$", re.MULTILINE)


def template_values(text: str) -> str:
    """A config template's text with each value `{{ expr }}` that is a whole line's value quoted as a string."""
    return _TEMPLATE_VALUE.sub(lambda m: m.group(1) + json.dumps(m.group(2)), text)


def make_doc(path: str, text: str, *, argv: dict | None = None) -> dict:
    """The file parsed once for every reader: {path, text, name, fmt, data, keys, flat, commands, command, words,
    args, launcher, env, scripts, python}.

    fmt: json | toml | yaml (data is the parsed mapping), python (a .py script or a notebook's code cells, in
    `python`), or text (a command line, a shell / .bat / .ps1 script, an env file). For text, `commands` are
    shell.py's Commands, `command` the training command among them (None when none trains), `words` and `args`
    its words and options (the launcher's options under them, the script's own winning), `launcher` the
    launcher's options alone, `env` the VAR=value lines, `scripts` every *.py the text names."""
    from . import shell

    name = os.path.basename(path).lower()
    template = re.match(r"(.+\.(?:ya?ml|json|toml))\.(?:j2|jinja2?)$", name)
    if template:
        # a Jinja2 template of a config (round 59: a ComfyUI node's templates/base_config.yaml.j2 that it renders and
        # hands to ai-toolkit's run.py): the config its rendering makes, each `{{ expr }}` a value filled in at run time
        name, text = template.group(1), template_values(text)
    stripped = text.lstrip()
    doc = {"path": path, "text": text, "name": name, "data": None, "words": [], "args": {}, "env": {}, "scripts": [],
           "commands": [], "command": None, "launcher": {}, "python": None}
    if NOTEBOOK.search(name):
        data = load_json(path, text)
        doc.update(fmt="python", data=data if isinstance(data, dict) else {}, keys=set(), flat={},
                   python=notebook_code(path, data) if isinstance(data, dict) else "")
        # the notebook's shell lines (!tune run ..., !litgpt finetune ...), its %%bash cells and the commands its
        # Python starts (subprocess.run([...])) are its command lines
        _text_doc(doc, "\n".join(x for x in (bang_lines(doc["python"]), notebook_shell(doc["data"]),
                                              python_commands(doc["python"])) if x), shell)
        doc["files"].update(python_written_files(doc["python"]))
        doc["files"].update(notebook_written_files(doc["data"]))
        doc["dumped"] = python_dumped_configs(doc["python"]) if doc.get("commands") else []
        doc["fmt"] = "python"
        return doc
    if name.endswith((".jsonnet", ".libsonnet")):
        # Jsonnet (comments, unquoted keys, `+:` merges, imports) is a program its framework evaluates into JSON
        # (AllenNLP, VinePPO/treetune, ...): no trainer attn-doctor reads takes it
        raise UsageError(f"--config: {path} is a Jsonnet config (a program its framework evaluates into JSON), which "
                         f"attn-doctor does not read yet (it reads {supported()})")
    if name.endswith(".py"):
        note = _command_note(doc, text, shell)
        if note is not None:
            return note
        doc.update(fmt="python", keys=set(), flat={}, python=text)
        started = python_commands(text, argv)
        exported = exported_notebook(text)
        if exported:
            # a notebook saved as a script (nbconvert's get_ipython().system(...), jupytext's `# !cmd`, a download's
            # bare `!cmd`): its shell escapes are its launch lines, read as a notebook's are (round 55), when one of
            # them runs a program (a .py script, a trainer's CLI, a launcher); escapes that only install, clone or
            # unpack leave the script's Python to say what it runs, as before
            nb = {**doc, "exported": True, "words": [], "args": {}, "env": {}, "scripts": [], "commands": [],
                  "launcher": {}}
            _text_doc(nb, "\n".join(x for x in (bang_lines(exported), started) if x), shell)
            if nb.get("command") is not None or any(
                    c.script or c.program in TRAINER_CLIS or c.program in shell.LAUNCHERS for c in nb["commands"]):
                nb["files"].update(python_written_files(text))
                nb["dumped"] = python_dumped_configs(text) if nb.get("commands") else []
                nb["fmt"] = "python"
                return nb
        if started:  # a wrapper that starts the trainer: subprocess.run(["accelerate", "launch", ...])
            _text_doc(doc, started, shell)
            doc["files"].update(python_written_files(text))  # the config it writes before it runs it, as a notebook's
            doc["dumped"] = python_dumped_configs(text)  # ... or builds as a dict and dumps (yaml / json / toml)
            doc["fmt"] = "python"
            if doc.get("command") is None and _runs_dumped(doc):
                # no command says "train" by name, but one runs a program on the config the script builds and writes
                # (round 31: a RunPod handler's yaml.safe_dump(job, f) then `python3 run.py CONFIG_PATH`): that command is
                # the training run, read with the config it is given
                doc["command"] = _runs_dumped(doc)
            entry = _trainer_entry(doc) if doc.get("command") is None else None
            if entry is not None:
                # no command says "train" by name, but one runs a trainer's own entry point (`-m axolotl.cli.main
                # train`, unsloth-cli.py, ai-toolkit's run.py): the wrapper's run, read as the same line in a shell
                # script is (cfg80, ENTRYPOINTS.md)
                _use_command(doc, entry, shell)
            if doc.get("command") is None:  # no training command among them: the script is read as before
                doc.update(commands=[], command=None, words=[], args={}, launcher={}, keys=set(), flat={}, scripts=[])
        return doc
    if name.endswith(".json") or (stripped.startswith("{") and not name.endswith((".toml", ".yaml", ".yml"))):
        data, fmt = load_json(path, text), "json"
    elif name.endswith(".toml"):
        data, fmt = load_toml(path, text), "toml"
    elif name.endswith((".yaml", ".yml")) or _yaml_mapping_text(name, text):
        data, fmt = _load_yaml_docs(path, text), "yaml"
    else:
        data, fmt = None, "text"
    doc["fmt"] = fmt
    if fmt != "text":
        if data is None:
            data = {}  # an empty YAML file
        if isinstance(data, list) and data and all(isinstance(d, dict) for d in data) and \
                any("instance_data_dir" in d or d.get("type") in ("local", "aws", "csv", "huggingface") for d in data):
            # (bghira/SimpleTuner@bc8e6ab documentation/DATALOADER.md:1-60: the file --data_backend_config names is a
            # list of datasets, each with its id, type and dataset_type)
            raise UsageError(f"--config: {path} is a SimpleTuner dataset config (the dataloader config "
                             f"--data_backend_config names), not a training config: give attn-doctor the config.json / "
                             f"config.toml / config.env it sits beside")
        from .others import swift_dataset_info

        if swift_dataset_info(data):
            raise UsageError(f"--config: {path} is a dataset registry (ms-swift's --custom_dataset_info: datasets by "
                             f"ms_dataset_id / hf_dataset_id / dataset_path with their columns), not a trainer config: "
                             f"give attn-doctor the training command line or config that names it")
        argv = saved_argv(data)
        if argv is not None:
            # a command line a tool saved as its argv list ({"command": ["python", "-m", "accelerate.commands.launch",
            # ..., "anima_train_network.py", "--mixed_precision", "bf16", ...]}, round 31): read as that command line is
            doc.update(fmt="text")
            _text_doc(doc, " ".join(shlex.quote(w) for w in argv), shell)
            return doc
        # (a Compose file, Kubernetes manifest(s), a CI pipeline: runners.py); several Kubernetes manifests in one file
        # (_load_yaml_docs) are a list, whose containers' commands are what runs
        runner = runner_commands(data)
        if runner is None and isinstance(data, list) and data and all(kube_manifest(d) for d in data):
            raise UsageError(f"--config: {path} is a Kubernetes manifest (kind: {data[0]['kind']}), not a trainer "
                             f"config (attn-doctor reads {supported()})")
        if runner is None and not isinstance(data, dict):
            raise UsageError(f"--config: {path} is {fmt.upper()} but not an object of trainer settings "
                             f"(it holds a {type(data).__name__})")
        job = job_commands(data, runner)
        if job is not None:
            # a cloud job spec (an Azure ML command job, a SkyPilot task, a dstack task): its other keys are the
            # cloud's (compute, resources, inputs); what it trains is the shell it runs, read as a launch file is
            doc["job"] = job[0]
            doc.update(fmt="text")
            _text_doc(doc, job[1], shell)
            return doc
        doc["data"] = data
        doc["keys"] = _all_keys(data)
        doc["flat"] = flatten(data)
        return doc
    if name in ("dockerfile", "containerfile") or name.endswith((".dockerfile", ".containerfile")) or \
            (re.match(r"(docker|container)file[._-]\w[\w.-]*$", name) and
             not name.endswith((".md", ".txt", ".sh", ".yml", ".yaml", ".json", ".toml", ".py", ".ps1", ".bat", ".cmd"))) \
            or ("." not in name and DOCKERFILE_TEXT.match(text)):
        # (Dockerfile, train.dockerfile, Dockerfile.gpu, and the per-variant names Dockerfile-cuda12 / Dockerfile_dev)
        text = dockerfile_script(text)
        doc["dockerfile"] = True  # its last CMD / ENTRYPOINT is what the container runs, with `docker run`'s words added
    elif name in ("makefile", "gnumakefile") or name.endswith(".mk") or ("." not in name and MAKEFILE_TEXT.search(text)):
        text = makefile_script(text)  # `make train`: its recipes, as the shell runs them
    elif name in ("justfile", ".justfile") or name.endswith(".just"):
        text = justfile_script(text)  # `just train`: its recipes, as just hands them to the shell
    elif name.endswith((".md", ".markdown", ".rst", ".txt")):
        text = without_prompts(text)  # a README's `$ accelerate launch ...`: the command after the prompt
    elif not name.endswith((".bat", ".cmd", ".ps1")):
        text = without_pasted_prompts(text)  # a terminal session pasted as a script: `> ` continuation prompts
    _text_doc(doc, text, shell)
    if doc["command"] is None and fmt == "text":
        code = inline_python(text)
        if code:
            # no command trains by name, but Python the script runs inline does (`python3 -c "... trainer.train()"`,
            # `python - <<'EOF'`): the file is read as that Python script is (its shell steps aside)
            doc.update(fmt="python", python=code, commands=[], command=None, words=[], args={}, launcher={},
                       keys=set(), flat={}, scripts=[])
    return doc


# the keys a tool saves a command's argv list under, as the only content of the file
_ARGV_KEYS = {"command", "cmd", "argv", "args", "command_line", "cmdline", "launch_command", "train_command"}


def saved_argv(data) -> list[str] | None:
    """The argv list a JSON file holds as its whole content (`["accelerate", "launch", "train.py", ...]`, or
    `{"command": [...]}` and the like, one key only): a list of strings that runs a Python script or a launcher (a
    word ending in .py, or python / accelerate / torchrun / deepspeed first). None for anything else (a list of
    settings, of names, of prompts)."""
    if isinstance(data, dict) and len(data) == 1 and str(next(iter(data))).lower() in _ARGV_KEYS:
        data = next(iter(data.values()))
    if not (isinstance(data, list) and len(data) >= 2 and all(isinstance(w, str) for w in data)):
        return None
    first = os.path.basename(data[0].replace("\\", "/")).lower()
    first = first[:-4] if first.endswith(".exe") else first
    if any(w.strip().lower().endswith(".py") and " " not in w.strip() for w in data) or \
            re.match(r"(python(\d(\.\d+)?)?|accelerate|torchrun|deepspeed)$", first):
        return data
    return None


def _written_config(doc: dict, where: str):
    """(reader id, doc, path, score) of the one config file a Python script or notebook writes from a triple-quoted
    string (launchers.python_written_files) when it runs no command itself and exactly one reader claims that file on
    its own evidence; None otherwise (two such files, two readers, or a script that runs what it writes: read through
    its command)."""
    from . import others
    from .launchers import python_written_files

    if doc["fmt"] != "python" or doc.get("commands"):
        return None
    found = []
    for path, text in python_written_files(doc.get("python") or doc.get("text") or "").items():
        if not path.lower().endswith((".yaml", ".yml", ".json", ".toml")):
            continue
        try:
            sub = make_doc(path, text)
        except (UsageError, RecursionError, ValueError):
            continue
        if sub["fmt"] not in ("yaml", "json", "toml") or others.dataset_config(sub):
            continue  # (a dataset config it writes is no training config either: detect refuses one given directly)
        own = _claiming(sub, STRONG)
        if len(own) == 1:
            found.append((own[0][0], sub, f"writes {os.path.basename(path)}", own[0][1]))
    return found[0] if len(found) == 1 else None


def _claiming(sub: dict, floor: int) -> list:
    """(reader id, score) of each reader that claims `sub` (a config a script holds, writes or builds) on at least
    `floor` points of its own evidence, in READERS' order: the test _written_config, _settings_dict, _dumped_config and
    _templated_config each put to the texts they find."""
    return [(r, sc) for r in READERS for sc in [_module(r).score(sub)] if isinstance(sc, Score) and sc.own_points >= floor]


def _settings_dict(doc: dict):
    """(reader id, doc, name, score) of the one dict literal a Python module defines and never uses itself (a module or
    class attribute its app imports: round 31, a Flask app's Config.LORA_TRAINING_CONFIG = {'model_train_type':
    'flux-lora', 'network_module': 'networks.lora_flux', 'sdpa': True, ...}) when exactly one reader claims its settings
    on twice its own evidence; None otherwise (a script that runs anything, a dict it passes on, two such dicts)."""
    import ast
    from collections import Counter

    from .pyscript import tree

    if doc["fmt"] != "python" or doc.get("commands") or not doc["name"].endswith(".py"):
        return None
    src = doc.get("python") or ""
    t = tree(src)
    if t is None:
        return None
    # one walk of the tree: the dict literals bound to a name, how often each name occurs, the attributes named
    dicts, uses, attrs = [], Counter(), set()
    for n in walked(t):
        if isinstance(n, ast.Name):
            uses[n.id] += 1
        elif isinstance(n, ast.Attribute):
            attrs.add(n.attr)
        elif isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) and \
                isinstance(n.value, ast.Dict) and len(n.value.keys) >= 8:
            dicts.append(n)
    found = []
    for n in dicts:
        name = n.targets[0].id
        if uses[name] > 1 or name in attrs:
            continue  # the script uses it itself (passes it on, dumps it): read through that use, not here
        settings = {}
        for k, v in zip(n.value.keys, n.value.values):
            if isinstance(k, ast.Constant) and isinstance(k.value, str):
                try:
                    val = ast.literal_eval(v)
                except (ValueError, SyntaxError, TypeError, RecursionError):
                    continue
                if isinstance(val, (str, int, float, bool)) or val is None:
                    settings[k.value] = val
        settings = {k: v for k, v in settings.items() if v is not None}
        own = []
        # as the JSON and as the TOML the app would write it (a trainer reads one kind: musubi-tuner's --config_file
        # is TOML, SimpleTuner's config.json JSON); a scalar's JSON spelling is its TOML one
        for fname, text in ((f"{name}.json", json.dumps(settings)),
                            (f"{name}.toml", "".join(f"{k} = {json.dumps(v)}\n" for k, v in settings.items()
                                                     if re.fullmatch(r"[A-Za-z0-9_-]+", k)))):
            try:
                sub = make_doc(fname, text)
            except UsageError:
                continue
            if others_dataset(sub):
                continue
            own += [(rname, sc, sub) for rname, sc in _claiming(sub, 2 * STRONG) if rname not in [o[0] for o in own]]
        if len(own) == 1:
            found.append((own[0][0], own[0][2], f"defines {name} (a dict it does not use itself)", own[0][1]))
    return found[0] if len(found) == 1 else None


def _toml_text(data: dict) -> str | None:
    """A dict of literals (launchers.python_dumped_configs) as the TOML `toml.dumps` writes: its scalars and lists of
    scalars, then a [section] per dict of them and an [[array]] per list of such dicts; None when it holds a value TOML
    cannot carry here (a dict nested deeper)."""
    def val(v):
        if isinstance(v, list):
            items = [val(x) for x in v]
            return None if None in items else "[" + ", ".join(items) + "]"
        return json.dumps(v) if isinstance(v, (str, bool, int, float)) else None

    def body(d):
        lines = []
        for k, v in d.items():
            got = val(v)
            if got is None or not re.fullmatch(r"[A-Za-z0-9_-]+", k):
                return None
            lines.append(f"{k} = {got}\n")
        return "".join(lines)

    head, tail = {}, []
    for k, v in data.items():
        if isinstance(v, dict):
            b = body(v)
            if b is None:
                return None
            tail.append(f"[{k}]\n{b}")
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            for x in v:
                b = body(x)
                if b is None:
                    return None
                tail.append(f"[[{k}]]\n{b}")
        else:
            head[k] = v
    top = body(head)
    return None if top is None else top + "".join(tail)


def _dumped_config(doc: dict):
    """(reader id, doc, what, score) of the one config a Python script that runs nothing builds as a dict and writes
    with yaml / json / toml (launchers.python_dumped_configs; round 59: a musubi-tuner config generator whose helper
    writes `toml.dumps(config_dict)` to training_config.toml for the user's --config_file) when exactly one reader
    claims it on its own evidence, read as the TOML and as the JSON the script may write; None otherwise (a script that
    runs a command: read through it; a dataset config it also writes is no training config)."""
    from .launchers import python_dumped_configs

    if doc["fmt"] != "python" or doc.get("commands") or not doc["name"].endswith(".py"):
        return None
    found = []
    for _target, data in python_dumped_configs(doc.get("python") or ""):
        own = []
        for fname, text in (("the config it writes.toml", _toml_text(data)), ("the config it writes.json",
                                                                              json.dumps(data))):
            if text is None:
                continue
            try:
                sub = make_doc(os.path.join(os.path.dirname(os.path.abspath(doc["path"])), fname), text)
            except (UsageError, RecursionError, ValueError):
                continue
            if others_dataset(sub):
                continue
            own += [(rname, sc, sub) for rname, sc in _claiming(sub, STRONG) if rname not in [o[0] for o in own]]
        if len(own) == 1:
            found.append((own[0][0], own[0][2], "the config it builds and dumps", own[0][1]))
    return found[0] if len(found) == 1 else None


def _templated_config(doc: dict):
    """(reader id, doc, what, score) of the config a Python module that runs nothing holds as a triple-quoted text, plain
    or an f-string it fills in (launchers.python_templates; round 141m: a Krea 2 LoRA kit's trainer/_configs.py, whose
    build_training_config() returns ai-toolkit's job YAML for the kit's launcher to write and run), when one reader, and
    only one, claims such texts on twice its own evidence: the first of them (a module's later templates are the
    variants of it: a preview pass, a smaller tier). None otherwise (a module that runs a command: read through it; two
    trainers' texts)."""
    from .launchers import python_templates

    if doc["fmt"] != "python" or doc.get("commands") or not doc["name"].endswith(".py"):
        return None
    found, readers = [], set()
    for text in python_templates(doc.get("python") or ""):
        kinds = ("json",) if text.lstrip().startswith("{") else ("yaml", "toml")
        for kind in kinds:
            try:
                sub = make_doc(os.path.join(os.path.dirname(os.path.abspath(doc["path"])), "the config it builds."
                                            + kind), text)
            except (UsageError, RecursionError, ValueError):
                continue
            if sub["fmt"] != kind or not isinstance(sub.get("data"), dict) or others_dataset(sub):
                continue
            own = _claiming(sub, 2 * STRONG)
            if len(own) == 1:
                found.append((own[0][0], sub, "the config it builds as text", own[0][1]))
                readers.add(own[0][0])
            elif own:
                readers.update(o[0] for o in own)
            break
    return found[0] if found and len(readers) == 1 else None


def _sharing(scores, shared) -> str:
    """How to choose among the trainers whose names a file of shared settings holds (detect()'s refusal): those
    trainers by name, strongest first, each with its --trainer value (cfg84: round 57m's presets JSON, the axolotl
    docs' two-line snippets that are as much transformers' and LLaMA-Factory's)."""
    names = [n for s, n in scores if s.points > 0 and set(map(str, s.evidence)) & set(map(str, shared))]
    if len(names) < 2:
        return f"if one of {supported()} runs it, --trainer NAME reads it"
    said = [f"{_module(n).TITLE} (--trainer {n})" for n in names[:6]]
    return f"these are settings of {', '.join(said[:-1])} or {said[-1]}{' among others' if len(names) > 6 else ''}: " \
           f"if one of them runs it, --trainer NAME reads it as that trainer's"


def _named_presets(doc: dict, where: str):
    """(reader id, doc, evidence) of a settings file that is a set of named presets of one trainer's settings, a script
    of the user's picking one by name (round 57m: hujuDev's finetuning_configs.json, {"default-config": {stage: sft,
    finetuning_type: lora, fp16: true, ...}, "longer-input-config": {...}}, each handed to LLaMA-Factory's run_exp):
    every top-level value a mapping that exactly one reader claims on its own evidence, the same reader for all, no
    other reader claiming any. When the presets choose the same attention, dtype and compile, that is the file's
    reading (the first preset's doc); when they differ, a UsageError names them and says how to read one. None when
    the file is not laid out so."""
    if doc["fmt"] not in ("json", "yaml", "toml") or not isinstance(doc.get("data"), dict):
        return None
    data = doc["data"]
    if not data or len(data) > 32 or not all(isinstance(v, dict) and len(v) >= 3 for v in data.values()):
        return None
    name, subs = None, []
    for key, value in data.items():
        text = _toml_text(value) if doc["fmt"] == "toml" else json.dumps(value, default=str)
        if text is None:
            return None
        try:
            sub = make_doc(doc["path"], text)
        except (UsageError, RecursionError, ValueError):
            return None
        if sub["fmt"] != doc["fmt"] or others_dataset(sub):
            return None
        scored = [(r, _module(r).score(sub)) for r in READERS]
        scored = [(r, sc) for r, sc in scored if isinstance(sc, Score) and sc.own]
        own = [r for r, sc in scored if sc.own_points >= STRONG]
        if len(own) != 1 or len(scored) != 1 or (name is not None and own[0] != name):
            return None
        name = own[0]
        subs.append((str(key), sub))
    readings = []
    for _key, sub in subs:
        sub["unread"] = []
        try:
            cfg = finish(_module(name).read(sub))
        except (AttributeError, KeyError, TypeError, ValueError):
            return None
        readings.append((tuple(sorted(cfg.get("required") or [])), cfg.get("dtype") or "",
                         cfg.get("compile_mode") or ""))
    keys = [k for k, _ in subs]
    if len(set(readings)) > 1:
        differ = "; ".join(f"{k}: {', '.join(r[0]) or 'nothing'} required, dtype {r[1] or 'unknown'}, compile "
                           f"{r[2] or 'none'}" for k, r in zip(keys[:6], readings[:6]))
        raise UsageError(f"{where} holds {len(keys)} named sets of {_module(name).TITLE} settings that choose "
                         f"differently ({differ}); the run uses the one its script picks: save that set as a file of "
                         f"its own and give attn-doctor that file")
    return name, subs[0][1], [f"{len(keys)} named sets of {_module(name).TITLE} settings ({', '.join(keys[:4])}"
                              f"{' ...' if len(keys) > 4 else ''}), each read alike"]


def others_dataset(sub: dict):
    from . import others

    return others.dataset_config(sub)


# `cd /root/ai-toolkit && ...` (a wrapper's line, or subprocess's cwd= written so by launchers.python_commands)
_AI_TOOLKIT_CD = re.compile(r"(?:^|[\s;&|(])cd\s+[\"']?(?:[^\s;&|'\"]*/)?ai[-_]toolkit(?:-main|-master)?/?[\"']?\s*(?:&&|;|$)",
                            re.IGNORECASE | re.MULTILINE)


def _trainer_entry(doc: dict):
    """The first command a Python script starts that runs a claimed trainer's own entry point, though its name does not
    say "train" (shell.is_training): axolotl's CLI module (`python -m axolotl.cli.main train X.yml`, src/axolotl/cli/
    main.py), Unsloth's unsloth-cli.py, ai-toolkit's run.py from its checkout or on its job here (run.py:70-100),
    LLaMA-Factory's package CLI / launcher file by path. None otherwise (a wrapper's `git clone`, `nvidia-smi`, or a
    run.py of anyone's stays unread, as before)."""
    from . import ai_toolkit, axolotl, llamafactory, unsloth

    for c in doc.get("commands") or []:
        if axolotl.launch(c) is not None or llamafactory._package_cli(c) or llamafactory._package_launcher(c):
            return c
        if not c.module and os.path.basename(c.script or "").lower() == unsloth.CLI_SCRIPT:
            return c
        name = ai_toolkit.launch(c)
        here = next((w for w in c.words if os.path.basename(w.replace("\\", "/")) == "run.py"), "")
        if name and (re.search(r"(^|[/\\])ai[-_]toolkit(-main|-master)?[/\\]run\.py$", here, re.IGNORECASE) or
                     here.replace("\\", "/") in ("run.py", "./run.py") and _AI_TOOLKIT_CD.search(doc.get("expanded") or "")
                     or ai_toolkit._job(doc, name) is not None):
            return c
    return None


def _use_command(doc: dict, cmd, shell) -> None:
    """Make `cmd` the doc's training command, its words and options the doc's, as _text_doc does for the one
    shell.main_command picks."""
    doc["command"] = cmd
    doc["words"] = list(cmd.words)
    doc["launcher"] = dict(cmd.launcher_args)
    doc["args"] = {**cmd.launcher_args, **shell.parse_options(cmd.args).values}
    doc["keys"] = set(doc["args"]) | set(doc["env"])
    doc["flat"] = dict(doc["args"])


def _runs_dumped(doc: dict):
    """The first command a Python script starts that runs a script on a config file the script itself writes
    (python_dumped_configs: a dict it builds and yaml / json / toml dumps to that path), else None."""
    dumped = doc.get("dumped") or []
    if not dumped:
        return None
    for c in doc.get("commands") or []:
        if c.script and any(a != "$PY_VALUE" and dumped_for(dumped, a) is not None for a in c.args):
            return c
    return None


# A Dockerfile by its text, whatever its name (a file named only for its folder or copied under another name; Podman's
# Containerfile): comments, blank lines and ARGs, then FROM IMAGE, and a RUN, CMD or ENTRYPOINT instruction later on
# (upper case, as Dockerfiles write them: with no name to go by, "From the docs: ... Run it with" is prose); a blank line
# may end in CR (a Dockerfile saved on Windows: Docker trims "\r\n" from every line)
DOCKERFILE_TEXT = re.compile(r"\A(?:[ \t]*(?:#[^\n]*)?\r?\n|[ \t]*ARG[ \t][^\n]*\n)*[ \t]*FROM[ \t]+\S+[^\n]*\n"
                             r"(?=(?:[^\n]*\n)*?[ \t]*(?:RUN|CMD|ENTRYPOINT)[ \t])")


# A Makefile by its text, whatever its name: a rule line (`train:`, `sd15_fine_tune: build`; not `VAR := x`) with a
# tab-indented recipe line under it
MAKEFILE_TEXT = re.compile(r"^[A-Za-z0-9_.%/-]+(?:[ \t]+[A-Za-z0-9_.%/-]+)*[ \t]*:(?![=:])[^\n]*\n\t[^\s#]",
                           re.MULTILINE)


# The prompt a document writes before a command it shows (README code blocks, console transcripts): `$ `, `% `, `> `,
# `(venv) $ `, `user@host:~/repo$ `, a bash prompt of the working folder only (PS1 `\w\$ `: `/home/me/lit-gpt# `,
# `~/repo$ `), `PS C:\repo> `, `C:\repo> `; the shell never sees it, the command after it runs. cmd.exe's own prompt
# (`$P$G`, its default) ends at the `>` with no space, and the command it echoes follows at once (`G:\DEV>accelerate
# launch ...`, a .bat echoing its lines: `(env) C:\fluxgym>accelerate launch ...`): taken off there too where the
# folder has no blank in it (with a blank before it, the `>` may redirect a command: `C:\venv\python.exe x.py >log`).
# The environment conda puts before the prompt is its name, or its whole path where the environment is not in an
# `envs` folder (conda/conda conda/activate.py _Activator._default_env: `basename(prefix) if basename(dirname(prefix))
# == 'envs' else prefix`, and _prompt_modifier's "(%s) "): `(H:\conda_envs\sd) PS H:\repo> `, `(/opt/envs-x/sd) $ `;
# not a path before a lone `>` (helper rev28): `(/opt/kohya/train.sh) > log.txt` is a subshell running a script, its output
# redirected
_ENV_PROMPT = r"\((?:[\w.-]+\)[ \t]+|(?:[A-Za-z]:|~)?[\\/][^()\s]*\)[ \t]+(?!>))"
_PROMPT = re.compile(r"^([ \t]*)(?:" + _ENV_PROMPT + r")?(?:(?:[\w.-]+@[\w.-]+(?::[^\s$#]*)?[ \t]*[$#]|[~/][^\s$#]*[$#]|"
                     r"PS [^>\n]*>|[A-Za-z]:\\[^>\n]*>|[$%>])[ \t]+|[A-Za-z]:\\[^>\s\"]*>)(?=\S)", re.MULTILINE)
# A log's head before a line it echoes: the time, and the level where the logger writes one (FluxGym runs the train.bat
# it writes under gradio_logsview's LogsViewRunner, whose lines are `[2024-09-09 15:40:46] [INFO] ` + the child's output,
# cmd.exe's echo of the command included: cocktailpeanut/fluxgym@678add2 app.py:619-622; Python logging's
# `2024-09-09 15:40:46,123 - INFO - `)
_LOG_HEAD = re.compile(r"^([ \t]*)\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?\]?"
                       r"(?:[ \t]+(?:-[ \t]+)?\[?(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL)\]?(?:[ \t]+-|:)?)?[ \t]+(?=\S)",
                       re.MULTILINE)


# A record of Rich's logging handler (rich/_log_render.py LogRender: a grid of a time column, a level column 8 wide, the
# message and, with show_path, the caller's `file.py:N` on the right, one space between columns): the time as its
# log_time_format writes it (the default `[%x %X]`, `[01/25/24 20:57:13]`; the kohya_ss GUI's `%H:%M:%S-%f`,
# kohya_gui/custom_logging.py:48,73: `20:57:13-361144`), blanks where omit_repeated_times hides a time the record
# before showed, then the level; a message wider than the console goes on under it, every further line indented to the
# message's column (the table's cell), with no backslash: one message, as the kohya_ss GUI logs the accelerate launch it
# runs (bmaltais/kohya_ss, its `INFO     accelerate launch ... "./train_network.py"` then indented lines of options)
_RICH_LEVEL = r"(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)[ \t]"
_RICH_HEAD = re.compile(r"^(?:(?:\[\d\d/\d\d/\d\d[ \t]\d\d:\d\d:\d\d\]|\d\d:\d\d:\d\d(?:[.,-]\d{1,6})?)[ \t]+|[ \t]+)"
                        + _RICH_LEVEL + r"[ \t]*(?=\S)")
_RICH_PATH = re.compile(r"[ \t]{2,}[\w.-]+\.py:\d+[ \t]*$")


def rich_records(text: str) -> str:
    """Each record of a Rich log handler's output (_RICH_HEAD) as one line, its message alone: the head taken off, the
    lines under it indented to the message's column joined to it, the caller's `file.py:N` at the right of its first
    line dropped. Every other line is kept as it is."""
    if not re.search(_RICH_LEVEL, text):
        return text
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        m = _RICH_HEAD.match(lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        col = m.end()
        parts = [_RICH_PATH.sub("", lines[i][col:]).rstrip()]
        i += 1
        while i < len(lines) and len(lines[i]) > col and lines[i][:col].strip() == "" and not lines[i][col].isspace() \
                and not _RICH_HEAD.match(lines[i]):
            parts.append(lines[i][col:].rstrip())
            i += 1
        out.append(" ".join(parts))
    return "\n".join(out)


# A label a user or a program's log writes before the command line it shows, on the same line: the user's words
# glued to what they pasted (`使用参数：CUDA_VISIBLE_DEVICES=0,1 NPROC_PER_NODE=2 swift sft ...`, `训练命令: torchrun ...`),
# a log's echo of what it runs (a script's `echo "Running command: $cmd"` before its `eval $cmd`, as finetrainers' /
# cogvideox-factory's training scripts and many users' own write it; `Command: python train.py ...`): one to three words, or words of a script other than Latin, and a colon (ASCII or full-width), then
# an environment assignment or a launcher / trainer CLI (shell.LAUNCHERS, shell.CLI_SUBCOMMANDS, python). No shell
# runs a program of that name: the command after it is what ran
_LABELLED = re.compile(r"^([ \t]*)(?:(?:(?![:：])[^\x00-\x7f\s]){1,24}[:：][ \t]*|[A-Za-z][\w-]*(?:[ \t]+[A-Za-z][\w-]*){0,2}"
                       r"[:：][ \t]+)(?=[A-Za-z_]\w*=[^\s=]|(?:python[\d.]*|accelerate|torchrun|deepspeed|swift|megatron|"
                       r"llamafactory-cli|lmf|tune|litgpt|axolotl|trl|simpletuner)[ \t])", re.MULTILINE)


def without_labels(text: str) -> str:
    """A pasted text's command lines without the label written before them on their line (_LABELLED)."""
    return _LABELLED.sub(lambda m: m.group(1), text) if ":" in text or "：" in text else text


def without_prompts(text: str) -> str:
    """A document's command lines without the shell prompts it shows before them (`$ accelerate launch train.py ...`,
    `(venv) user@host:~/flux$ accelerate launch ...`, `PS C:\\kohya> accelerate launch ...`, `C:\\kohya>accelerate
    launch ...`), and a log's head before them (`[2024-09-09 15:40:46] [INFO] `: _LOG_HEAD; a Rich log record's, its
    wrapped lines joined: rich_records): read as the shell would
    run them, the prompt as a program would hide the command (a program `$`, or `>` redirecting into a file); a line
    that prints a command as Python's list of its arguments (printed_argv) is that command line."""
    text = without_labels(rich_records(text))
    return printed_argv(_PROMPT.sub(lambda m: m.group(1), _LOG_HEAD.sub(lambda m: m.group(1), text)))


# A Python list of strings on one line, as repr() prints it (`['python', 'train.py', '--xformers']`, quotes either way)
_STR = r"(?:'(?:\\.|[^'\\\n])*'|\"(?:\\.|[^\"\\\n])*\")"
_PY_LIST = re.compile(r"\[[ \t]*" + _STR + r"(?:[ \t]*,[ \t]*" + _STR + r")+[ \t]*,?[ \t]*\]")


# what CalledProcessError prints after the list (CPython Lib/subprocess.py, CalledProcessError.__str__)
_RAISED = re.compile(r"'?[ \t]+returned[ \t]+non-zero[ \t]+exit[ \t]+status\b")


def _runs_something(words: list[str]) -> bool:
    """Does an argument list hand its program something to run: a later word that is an option or a path (`--xformers`,
    `train.py`, `C:\\kohya\\x.toml`)? A list of bare words (`['accelerate', 'torchrun', 'deepspeed']`, a README's list of
    launchers) is none (helper rev28b)."""
    return any(w.startswith("-") or "/" in w or "\\" in w or re.search(r"\.\w{1,5}$", w) for w in words[1:])


def printed_argv(text: str) -> str:
    """Each line of a document or log that holds a command as Python prints its argument list, that command line
    (the words quoted for the shell), the rest of the line dropped: subprocess.CalledProcessError's message is
    `"Command '%s' returned non-zero exit status %d." % (self.cmd, self.returncode)` (CPython Lib/subprocess.py,
    CalledProcessError.__str__), a list's repr when the caller ran an argument list (a GUI's failed
    `subprocess.run([python, "train_network.py", ...], check=True)`), and a program's log of the list it runs prints
    the same. Only a list that runs a Python script or a launcher (saved_argv, as a JSON file's saved argv is read);
    any other list, and every other line, is kept as it is."""
    if "[" not in text:
        return text
    import ast

    def line(ln: str) -> str:
        for m in _PY_LIST.finditer(ln):
            try:
                words = ast.literal_eval(m.group(0))
            except (ValueError, SyntaxError):
                continue
            if saved_argv(words) is not None and (_RAISED.match(ln, m.end()) or _runs_something(words)):
                return " ".join(shlex.quote(w) for w in words)
        return ln

    return "\n".join(line(ln) for ln in text.split("\n"))


# The same prompts where a launch script holds a console transcript a user pasted (an issue's terminal block kept as
# .sh), only where no script means the words: a prompt before a command, with its user@host (`(llama3)
# root@M09:~/ft# xtuner train ...`) or a lone `$ ` (a program `$` runs nothing), and bash's continuation prompt (PS2,
# `> `) at the head of a line a backslash continues, when an option follows it (the shell would redirect the output
# into a file named `--mixed_precision=fp16` and drop the option: no script writes that)
_SCRIPT_PS1 = re.compile(r"^([ \t]*)(?:" + _ENV_PROMPT + r")?(?:[\w.-]+@[\w.-]+(?::[^\s$#]*)?[ \t]*[$#]|\$)[ \t]+(?=\S)",
                         re.MULTILINE)
_SCRIPT_PS2 = re.compile(r"(\\\r?\n[ \t]*)>[ \t]+(?=-)")


def without_pasted_prompts(text: str) -> str:
    """A launch script's lines without the prompts of a terminal session pasted into it (_SCRIPT_PS1, _SCRIPT_PS2) and
    the label a user glued before a command (_LABELLED): what the user typed, as the shell ran it."""
    return without_labels(_SCRIPT_PS2.sub(lambda m: m.group(1), _SCRIPT_PS1.sub(lambda m: m.group(1), text)))


# the names a launch script or a plain text file has: read as shell / text whatever their lines look like
_SCRIPT_SUFFIXES = (".sh", ".bash", ".zsh", ".bat", ".cmd", ".ps1", ".txt", ".md", ".env", ".slurm", ".sbatch", ".pbs",
                    ".job", ".command", ".ipynb", ".py", ".json", ".toml", ".cfg", ".ini")
_YAML_LINE = re.compile(r"^(?:---\s*$|#|[ \t]+\S|-[ \t]|[A-Za-z_][\w.-]*:(?:[ \t]|$)|\"[^\"]+\":(?:[ \t]|$))")


def _yaml_mapping_text(name: str, text: str) -> bool:
    """A YAML mapping under a name that does not say YAML: `accelerate.config` (round 50: the accelerate config a
    Dockerfile copies and `accelerate launch --config_file accelerate.config` reads), `default_config`, `train.conf`.
    Every line is a `key: value` line, an indented line under one, a list item, a comment or `---`, and at least two
    top-level keys; a launch script (`export X=1`, `python train.py ...`), a Makefile (`train:` then a tab-indented
    recipe, which YAML refuses) or a KEY=VALUE env file is none of that."""
    if name.endswith(_SCRIPT_SUFFIXES) or name in ("makefile", "dockerfile", "procfile") or "\t" in text:
        return False
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if sum(1 for ln in lines if re.match(r"^[A-Za-z_][\w.-]*:(?:[ \t]|$)", ln)) < 2 or \
            not all(_YAML_LINE.match(ln) for ln in lines):
        return False
    import yaml

    try:
        return isinstance(yaml.safe_load(text), dict)
    except Exception:
        return False  # lines that only look like YAML: read as text


def _named_outside_prints(text: str, name: str) -> bool:
    """Whether a line that is no echo / printf (nor a comment) names the script."""
    return any(name in ln and not re.match(r"^\s*(?:@?echo\b|printf\b|#)", ln, re.IGNORECASE)
               for ln in text.splitlines())


def job_commands(data, runner: tuple[str, str] | None) -> tuple[str, str] | None:
    """(what the file is, the shell it runs) for a cloud job spec or a runner file: an Azure ML command job (`$schema:
    .../commandJob.schema.json` or `type: command` with `compute:`, whose `command:` runs in `code:`), a SkyPilot task
    (`run:` beside `resources:` / `setup:` / `num_nodes:`), a dstack task (`type: task` with a `commands:` list), and
    the runners of runners.py (a Compose service's entrypoint + command, a Kubernetes container's command + args, a CI
    workflow's run / script steps: runner, what runners.runner_commands read in it); None for any other mapping. The
    kind is named where the shell is taken, so a refusal names the job the way it was read."""
    if runner is not None:
        return runner  # a Compose file, Kubernetes manifest(s), a GitHub Actions / GitLab CI pipeline (runners.py)
    if not isinstance(data, dict):
        return None
    schema = str(data.get("$schema", "")).lower()
    cmd = data.get("command")
    if isinstance(cmd, str) and ("azureml" in schema or data.get("type") == "command" and "compute" in data):
        return "an Azure ML command job", cmd
    run = data.get("run")
    if isinstance(run, str) and {"resources", "setup", "num_nodes", "workdir"} & set(data):
        return "a SkyPilot task (resources: / run:)", \
            "\n".join(x for x in (data.get("setup") if isinstance(data.get("setup"), str) else "", run) if x)
    cmds = data.get("commands")
    if data.get("type") == "task" and isinstance(cmds, list) and all(isinstance(c, str) for c in cmds):
        return "a dstack task", "\n".join(cmds)
    return None


def _command_note(doc: dict, text: str, shell) -> dict | None:
    """A .py file whose every statement is a string literal runs nothing as Python: it is a note that keeps a command
    line (round 136: a course exercise's 96.py whose only content is a '''...''' holding `fairseq-train ... --fp16`).
    When the strings hold a command that trains (shell.main_command) or one a framework no reader claims runs
    (others.command_lines), the file is read as that text, as a launch file is; else None (read as Python, as before)."""
    import ast

    from .pyscript import tree

    parsed = tree(text)  # (parsed once per text, shared with the Python readers)
    body = parsed.body if parsed is not None else []
    if not body or not all(isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and
                           isinstance(s.value.value, str) for s in body):
        return None
    held = "\n".join(s.value.value for s in body)
    trial = {**doc, "fmt": "text", "text": held}
    _text_doc(trial, held, shell)
    from .others import command_lines

    if trial.get("command") is None and command_lines(trial) is None:
        return None
    trial["note"] = True
    return trial


def _text_doc(doc: dict, text: str, shell) -> None:
    """Fill a text doc's shell view: commands, the training command, its words and options."""
    script = shell.parse(text, doc["name"], where=os.path.dirname(os.path.abspath(doc["path"])) if doc.get("path") else None)
    doc["commands"] = script.commands
    doc["files"] = dict(script.files)
    main = shell.main_command(script)
    doc["command"] = main
    doc["env"] = env_of(text)
    for k, v in script.env.items():
        if isinstance(v, str):
            doc["env"].setdefault(k, v)
    doc["expanded"] = shell.expand(text, script.env, script.dialect) if script.dialect == "posix" else text
    if main is not None:
        doc["words"] = list(main.words)
        doc["launcher"] = dict(main.launcher_args)
        doc["args"] = {**main.launcher_args, **shell.parse_options(main.args).values}
    else:
        # no command trains by name: the options of every command that runs a program (a script, a module, a
        # trainer's CLI), never the words an echo or a tee prints
        # (`python -m pip install --upgrade pip`, `python -m venv`: the installer's options, no program's that trains)
        running = [c for c in script.commands if (c.script or c.module or c.program in shell.CLI_SUBCOMMANDS) and
                   c.module not in INSTALLER_MODULES]
        doc["words"] = [w for c in running for w in c.words]
        doc["args"] = {}
        for c in running:
            doc["args"].update(c.launcher_args)
            doc["args"].update(shell.parse_options(c.args).values)
    # the scripts the text names (a command line the shell view could not take apart still names its script), but not
    # one named only in what the file prints: `echo "then run: accelerate launch train_network.py --xformers"` runs
    # nothing (a usage message, an installer's last words)
    printed = {os.path.basename(m.group(1)) for c in script.commands if c.program in ("echo", "printf")
               for m in _SCRIPT.finditer(" ".join(c.words))}
    # nor one named only in a here-document the file shows (`cat <<EOF` ... "Example usage: python
    # src/musubi_tuner/wan_generate_video.py --task i2v-A14B ..." ... EOF at the end of an installer)
    outside = text
    for body in script.printed:
        printed |= {os.path.basename(m.group(1)) for m in _SCRIPT.finditer(body)}
        outside = outside.replace(body, "")
    doc["scripts"] = [os.path.basename(m.group(1)) for m in _SCRIPT.finditer(text)
                      if os.path.basename(m.group(1)) not in printed or _named_outside_prints(outside, m.group(1))]
    for c in script.commands:
        if c.script and c.script not in doc["scripts"]:
            doc["scripts"].append(c.script)
    doc["keys"] = set(doc["args"]) | set(doc["env"])
    doc["flat"] = dict(doc["args"])


# the modules `python -m` runs to set up an environment, never to train
INSTALLER_MODULES = {"pip", "ensurepip", "venv", "virtualenv", "pipx", "uv"}


class Score:
    """What a reader recognises in a file: points, the evidence it names (its own first), and `own`: the pieces
    only its trainer has (a script or CLI name, a section layout, keys or values no other trainer uses)."""

    __slots__ = ("points", "evidence", "own", "own_points", "refused")

    def __init__(self, points: float = 0.0, evidence=None, own=None, own_points: float | None = None):
        self.points, self.evidence, self.own = points, list(evidence or []), list(own or [])
        self.own_points = STRONG * len(self.own) if own_points is None else own_points  # the weight of `own`
        # why the file is not this trainer's although it carries its names: the keys its own parser would refuse
        # (parser_keys.py); detect() says it when no reader claims the file
        self.refused: str | None = None

    def add(self, item: str, weight: float = STRONG) -> "Score":
        """One more piece of evidence; STRONG or more is the trainer's own."""
        self.points += weight
        if item not in self.evidence:
            self.evidence.append(item)
        if weight >= STRONG and item not in self.own:
            self.own.append(item)
            self.own_points += weight
        return self

    def __iter__(self):  # (points, evidence), as the readers' scores once were
        return iter((self.points, self.evidence))

    def __bool__(self) -> bool:
        return self.points > 0


NOTHING = Score()


def score_keys(keys, strong=(), shared=(), common=()) -> Score:
    """The evidence of the keys a reader knows: its own keys, shared ones, common ones."""
    own = sorted(k for k in keys if k in strong)
    some = sorted(k for k in keys if k in shared and k not in strong)
    pts = STRONG * len(own) + SHARED * len(some) + COMMON * sum(1 for k in keys if k in common and k not in strong
                                                                and k not in shared)
    return Score(pts, own + some, own)


def detect(path: str, text: str, trainer: str | None = None, *, handed_over: bool = False,
           argv: dict | None = None, environ: dict | None = None) -> tuple[str, dict, dict]:
    """(reader id, doc, detection) for a file: the reader whose own evidence it carries, or the one --trainer names.
    handed_over: the file is the script another launch file hands over to (_handed_over), which hands over no further.
    environ: what the launch running a script puts in its environment that decides what the script imports
    (PYTHONPATH, _pythonpath_dirs), before any reader looks at it.

    detection: {trainer, title, by ("--trainer" | "content"), score, evidence (the keys and values it recognised),
    runner_up, runner_up_score}. A file no reader can claim on its own evidence is a UsageError that says why."""
    from . import others

    doc = make_doc(path, text, argv=argv)
    if environ:
        doc["environ"] = dict(environ)
    scores = []
    for name in READERS:
        sc = _module(name).score(doc)
        if not isinstance(sc, Score):  # (points, evidence) from a reader not yet telling its own evidence apart
            sc = Score(sc[0], sc[1], sc[1] if sc[0] >= STRONG else [])
        scores.append((sc, name))
    scores.sort(key=lambda s: (-s[0].own_points, -s[0].points))  # stable: READERS order breaks exact ties
    if trainer:
        name = trainer_name(trainer)
        sc = next(s for s, n in scores if n == name)
        return name, doc, {"trainer": name, "title": _module(name).TITLE, "by": "--trainer", "score": sc.points,
                           "evidence": sc.evidence[:12], "runner_up": None, "runner_up_score": None}
    where = f"--config: {path}"
    refusal = others.dataset_config(doc) or others.wandb_run_record(doc) or others.gui_settings(doc)
    if refusal:
        raise UsageError(f"{where} is {refusal}")
    entry = _swift_main_sub(doc.get("text")) if doc["fmt"] == "python" and not handed_over else None
    if entry is not None:
        # the file is ms-swift's CLI with a few lines of its own before it (a patch, an import): `swift SUB` on the
        # options it is given, none here (round 65: fyh2001's swift_sft_patched.py, `sft_main()` after a shim)
        # (read as that command line, a launch line beside the file: the result keeps the file's own path)
        try:
            name, sdoc, det = detect(os.path.splitext(path)[0] + ".cmdline.sh", f"swift {entry[0]}\n",
                                     handed_over=True)
        except UsageError:
            name = None
        if name is not None:
            return name, sdoc, dict(det, evidence=[f"calls ms-swift's {entry[1]}() on its own command line"] +
                                    det["evidence"])
    claimed = [(s, n) for s, n in scores if s.own]
    best, name = claimed[0] if claimed else (NOTHING, None)
    other = others.recognise(doc)
    if other and other[0] == others.HYDRA_APP and _hydra_app_here(doc):
        other = None
    saved = others.hydra_output(doc) if not claimed else None
    if saved:
        also = f"; it looks like {other[0]} ({', '.join(other[1].own[:3])})" if other and \
            other[1].own_points >= STRONG else ""
        raise UsageError(f"{where} is {saved}, not a trainer config{also} (attn-doctor reads {supported()})")
    if other and other[1].own_points >= STRONG and other[1].own_points >= best.own_points:
        title, osc = other
        if title in others.RUN_SETTINGS:
            # a launcher's or an engine's settings, which any trainer's run may be given: no trainer's config to read
            raise UsageError(f"{where} looks like {title} ({', '.join(osc.own[:3])}): {others.RUN_SETTINGS[title]}, not "
                             f"a trainer config: give attn-doctor the training config or launch line it is used with "
                             f"(attn-doctor reads {supported()})")
        raise UsageError(f"{where} looks like {title} ({', '.join(osc.own[:3])}), which attn-doctor does not read "
                         f"yet (it reads {supported()}); --trainer NAME reads it as one of those anyway")
    if not claimed:
        written = _written_config(doc, where) or _settings_dict(doc) or _dumped_config(doc) or _templated_config(doc)
        if written is not None:
            # a setup script or cell that writes one trainer's config file and runs nothing itself (round 31: a Colab
            # cell saved as .py that clones ai-toolkit, writes config_marcos.yaml from a triple-quoted job and prints
            # `!python run.py config_marcos.yaml` for the next cell): that config is the training the file sets up
            wname, wdoc, wpath, wsc = written
            return wname, wdoc, {"trainer": wname, "title": _module(wname).TITLE, "by": "content", "score": wsc.points,
                                 "evidence": [f"{wpath}, a config of {_module(wname).TITLE}"]
                                 + wsc.evidence[:8], "runner_up": None, "runner_up_score": None}
        presets = _named_presets(doc, where)
        if presets is not None:
            # named presets of one trainer's settings, which a script of the user's picks by name (cfg84)
            pname, pdoc, pevidence = presets
            return pname, pdoc, {"trainer": pname, "title": _module(pname).TITLE, "by": "content", "score": STRONG,
                                 "evidence": pevidence, "runner_up": None, "runner_up_score": None}
        from .installed import installed_trainer

        inst = installed_trainer(doc, lambda s: named_config(doc, s) is not None)
        if inst:
            # a launcher that installs one trainer from its own repository and runs a script of its own that is not
            # here (installed.py): that trainer, and nothing else known
            name, repo, ran = inst
            doc["installed_only"] = ran
            return name, doc, {"trainer": name, "title": _module(name).TITLE, "by": "content", "score": STRONG,
                               "evidence": [f"clones {repo}", f"runs {ran}, which is not here"], "runner_up": None,
                               "runner_up_score": None}
        shared = []
        for s, _n in scores:
            shared += [e for e in s.evidence if e not in shared]
        script = _script_run(doc) or _module_run(doc) or _bare_run(doc)
        # a cloud job spec (a SkyPilot task, a Baseten Training job, a Modal app): the file is the job, and what it
        # runs is no claimed trainer's (no reader claims it)
        spec = doc.get("job") or others.job_spec(doc)
        kind = others.what_file(doc) if not spec else None
        if kind:
            raise UsageError(f"{where} is {kind}, not a trainer config (attn-doctor reads {supported()})")
        built = others.built_on_trainer(doc)
        if built and built[0] == others.HYDRA_APP and _hydra_app_here(doc):
            built = None
        if built:
            raise UsageError(f"{where} looks like {built[0]} ({built[1]}), which attn-doctor does not read yet (it reads "
                             f"{supported()}); --trainer NAME reads it as one of those anyway")
        framework = others.imported_framework(doc) if doc["fmt"] == "python" else None
        if framework:
            raise UsageError(f"{where} looks like a script of {framework[0]} (imports {framework[1]}), which attn-doctor does not "
                             f"read yet (it reads {supported()}); --trainer NAME reads it as one of those anyway")
        other_script = others.runs_other_script(doc)
        handed = _handed_over(doc, other_script) if other_script and not script and not handed_over else None
        if handed is not None:
            return handed
        if other_script and not script:
            py = others.handed_python_script(doc, other_script)
            given = f", handing it {py}" if py else ""
            raise UsageError(f"{where} is not a trainer config: it only runs another script ({other_script}{given}); "
                             f"give attn-doctor that script (it reads {supported()})")
        cli = _cli_run(doc)
        if cli and not script:
            # a trainer CLI's step around training (`swift export`, `llamafactory-cli webui`): that says more than the
            # option names it shares with other trainers (`--max_length`)
            raise UsageError(f"{where} is not a trainer config attn-doctor recognises: it runs `{cli}`, which is not a "
                             f"training command of the trainer CLI of that name (it reads {supported()})")
        if spec and not script:
            script = _job_script(doc)
        if spec and not script:
            ran = _last_script(doc) if doc["fmt"] in ("text", "python") else None
            raise UsageError(f"{where} is {spec}, not a trainer config" + (
                f": it runs {ran}, which is none of the trainers' training scripts" if ran else "") +
                f" (attn-doctor reads {supported()})")
        own = doc.get("parsed_by")
        if own and own["kind"] == "own" and not script:
            # the repository's own script reads it and takes its values by name, whether or not a trainer runs after
            # (hf_transformers._parsed_by, parsed_by.py; session 18, cfg77)
            raise UsageError(f"{where} is not a trainer config: the repository's {own['script']} reads it with "
                             f"{own['how']}() and takes its values by name into its own settings, so its keys are that "
                             f"script's, whatever TrainingArguments / TRL names they share (attn-doctor reads "
                             f"{supported()}); `attn-doctor check --config` on that script reads the run it starts, "
                             f"--trainer NAME reads this file as one of those anyway")
        parser_refusal = next((f"{where} is not a trainer config of {_module(n).TITLE}: {s.refused} (attn-doctor reads "
                               f"{supported()}); --trainer NAME reads it as one of those anyway"
                               for s, n in scores if s.refused), None)
        if parser_refusal and not script:
            raise UsageError(parser_refusal)
        if shared and not script:
            raise UsageError(f"{where} is not a trainer config attn-doctor can tell: it holds only settings several "
                             f"trainers share ({', '.join(shared[:5])}) and nothing one trainer alone has (its script "
                             f"or CLI, its own keys or layout); {_sharing(scores, shared[:5])}")
        if script:
            wrapped = _swift_entry_run(doc, path, script) if not handed_over else None
            if wrapped is not None:
                return wrapped
            beside = _script_beside(doc, script)
            if beside is not None:
                return _read_through(doc, path, where, script, beside)
            gui = TRAINER_GUIS.get(os.path.basename(script))
            if gui:
                # a trainer's GUI started with options of its own (`python kohya_gui.py --listen 0.0.0.0`): as the
                # refusal below says it of one started bare (cfg74's variants of round 72m's Kohya-start.sh)
                shell = doc["fmt"] == "text" and _shell_script(doc)
                raise UsageError(f"{where} is {spec + ', ' if spec else ''}not a trainer config attn-doctor recognises: "
                                 f"{'a shell script with no trainer calls attn-doctor reads; ' if shell else ''}it runs "
                                 f"{script}, {gui}, where the training settings are chosen, not a training run (it "
                                 f"reads {supported()})")
            if NOT_TRAINING_SCRIPT.match(os.path.basename(script)):
                raise UsageError(f"{where} is {spec + ', ' if spec else ''}not a trainer config: it runs {script}, which "
                                 f"samples, generates, evaluates, serves or rewrites a model rather than training one "
                                 f"(attn-doctor reads {supported()})")
            if DATA_PREP_SCRIPT.match(os.path.basename(script)):
                # round 49m: a launcher whose training lines are all commented out, its one live command `python
                # preprocess_sam.py --instance_data_dir ... --instance_prompt ...`: a data step, not a training script
                raise UsageError(f"{where} {'is ' + spec + ' with' if spec else 'has'} no trainer calls attn-doctor "
                                 f"reads: it runs {script}, which prepares data (a dataset, captions, masks, tokens) "
                                 f"rather than training a model (attn-doctor reads {supported()})")
            sub = _script_doc(doc, script)[1] if script.endswith(".py") else None
            loop = _module("transformers").own_loop(sub) if sub is not None and sub.get("fmt") == "python" else None
            if loop is not None:
                # the script it runs is here and is a user's own loop over a transformers model (hf_transformers.own_loop,
                # cfg74: round 47m's launch.sh, round 51's run_grpo.sh)
                raise UsageError(f"{where} {'is ' + spec + ' that ' if spec else ''}runs {script}, which is "
                                 f"{_module('transformers').own_loop_refusal(loop)} (attn-doctor reads {supported()}); "
                                 f"`attn-doctor check --config {script} --trainer transformers` reads the model's "
                                 f"settings in it anyway")
            handed = _config_handed(doc, path, script) if not handed_over else None
            if handed is not None:
                return handed
            framework = others.imported_framework(sub) if sub is not None and sub.get("fmt") == "python" else None
            if framework:
                # the script is here and is an app of a framework no reader claims (a Lightning Hydra app under src/:
                # rev21b), said as `check --config` on that script says it
                raise UsageError(f"{where} {'is ' + spec + ' that ' if spec else ''}runs {sub['path']}, a script of "
                                 f"{framework[0]} (imports {framework[1]}), which attn-doctor does not read yet (it reads "
                                 f"{supported()}); --trainer NAME reads it as one of those anyway")
            written = _as_written(doc, script)
            raise UsageError(f"{where} {'is ' + spec + ' that ' if spec else ''}runs {script}"
                             f"{' (' + written + ')' if written != script else ''}, a training script none "
                             f"of the trainers attn-doctor reads "
                             f"ships, which attn-doctor does not read yet (it reads {supported()}); --trainer NAME reads "
                             f"it as one of those anyway" + (
                                 f"; {written} is not here (beside this file or where the command names it): what "
                                 f"trains is in that script, so give attn-doctor that script"
                                 if sub is None and script.endswith(".py") else ""))
        entry = _through_own_modules(doc, path) if doc["fmt"] == "python" and not handed_over else None
        if entry is None and doc["fmt"] == "text" and not handed_over:
            entry = _code_run(doc, path)
        if entry is not None:
            return entry
        loop = _module("transformers").own_loop(doc) if doc["fmt"] == "python" else None
        if loop is not None:
            # a user's own loop over a transformers model (hf_transformers.own_loop): refused, saying what it is and
            # the attention it asks transformers for (session 18, cfg74: the blind rounds' convention)
            raise UsageError(f"{where} is {_module('transformers').own_loop_refusal(loop)} (attn-doctor reads "
                             f"{supported()}); --trainer transformers reads the model's settings in it anyway")
        what = "a Python script with no trainer calls attn-doctor reads" if doc["fmt"] == "python" else \
            "not a trainer config attn-doctor recognises"
        ran = _last_script(doc) if doc["fmt"] in ("text", "python") else None  # (python: a notebook's !lines)
        if ran is None and doc["fmt"] in ("text", "python"):
            # a module run names what the file starts as surely as a script does (round 143m: a Windows .bat whose one
            # command is `".venv\Scripts\python.exe" -m pipeline.run_full_pipeline --input_dir ...`, the project's own
            # pipeline, which the refusal did not name)
            ran = _last_module(doc)
        shell = doc["fmt"] == "text" and _shell_script(doc)
        if shell:
            # round 54m: a vast.ai start script that starts a file browser and a proxy and trains nothing: a shell
            # script, said as the Python script's refusal says it (round 72m's Kohya-start.sh, which clones and starts
            # the kohya_ss GUI, too: cfg74)
            what += ": a shell script with no trainer calls attn-doctor reads"
        if ran:
            # (round 9: an installer that ends in `python app.py`, a GUI; round 11: a notebook that starts the kohya_ss
            # GUI with `!python kohya_gui.py --share`): name what it runs
            gui = TRAINER_GUIS.get(os.path.basename(ran))
            kind = "modules" if ran.endswith(" (-m)") else "scripts"
            what += ("; " if shell else ": ") + f"it runs {ran}, " + (f"{gui}, where the training settings are chosen, not a training run"
                                             if gui else f"which is none of the trainers' training {kind}")
        elif _job_file(doc):
            # round 145m's saikoneru submit_job.sh: `sbatch --export=CONFIG_PATH="$CONFIG_PATH" submit_bentxt.sbatch`
            # and nothing else runs: what trains is in the job file it hands over, which the refusal names
            job, runner = _job_file(doc)
            what += ("; " if shell else ": ") + f"the last script it starts is {job} ({runner}), whose commands are " \
                f"not in this file: `attn-doctor check --config {job}` reads the run that script starts"
        elif doc["fmt"] == "text" and not shell and not any(c.script or c.module for c in doc["commands"]):
            # a text whose lines run no script but name one (round 103m: llama#642's "Unable to run torchrun ...
            # llama_finetuning.py ...", the command inside a sentence): named, so the user sees what the refusal is about
            named = list(dict.fromkeys(n for n in doc.get("scripts") or [] if re.fullmatch(r"\w[\w.-]*\.py", n)))
            if named:
                what += f": it names {', '.join(named[:3])} on no line that runs it"
        raise UsageError(f"{where} is {what} (it reads {supported()})")
    run = _script_run(doc)
    if run and best.own and all(os.path.basename(str(e)) == os.path.basename(run) for e in best.own):
        # the claim rests on the script's name alone (`uv run python train_qwen3_unsloth.py` named like a diffusers
        # example, round 51): when that script is here and its own content reads as another trainer, it is that one's
        ran = _script_beside(doc, run)
        if ran is not None and ran[0] != name:
            return _read_through(doc, path, where, run, ran)
    if run and best.own and all(str(e) in (f"{run}: trl command", "trl command") for e in best.own):
        # the claim rests on TRL's example name (sft.py, dpo.py, grpo.py under `--config X.yaml`, which TRL's own
        # TrlParser takes too: hf_transformers._trl_command) while the script it runs is here, a user's own whose
        # argparse takes every option the launch gives it (round 82m's MaxLSB sft_job.sh: `torchrun
        # $PROJECT_DIR/src/sft/sft.py --config $CONFIG`, an sft.py that yaml.safe_loads its --config and takes
        # model.attn_implementation / training.bf16 from it by name): the run is that script's, read with those options,
        # not the YAML read as TRL's fields, nor a refusal naming the script (a dpo.py given a JSON: cfg108)
        ran = _script_beside(doc, run)
        if ran is not None and ran[0] == name and _script_argv(ran):
            return _read_through(doc, path, where, run, ran)
    foreign = _foreign_script(doc, best)
    wrapped = _swift_entry_run(doc, path, foreign) if foreign and not handed_over else None
    if wrapped is not None:
        return wrapped
    beside = _script_beside(doc, foreign) if foreign else None
    if beside is not None:
        raise _beside_refusal(where, foreign, beside)
    if foreign:
        raise UsageError(f"{where} runs {foreign}, a script none of the trainers attn-doctor reads ships, so its options "
                         f"({', '.join(best.own[:3])}) are that script's own, which attn-doctor does not read yet (it reads "
                         f"{supported()}); --trainer NAME reads it as one of those anyway")
    run = _script_run(doc)
    if run and len(claimed) > 1:
        # a command line's options are parsed by the script it runs: when one reader names that script as its own, the
        # option names other readers also know (sd-scripts' --text_encoder_lr, --train_data_dir on a diffusers example)
        # are that script's options, not a second trainer's evidence
        named = [(s, n) for s, n in claimed if any(os.path.basename(str(e)) == os.path.basename(run) for e in s.own)]
        if len(named) == 1:
            (best, name), claimed = named[0], named
    rivals = [(s, n) for s, n in claimed[1:]]
    second, other_name = rivals[0] if rivals else (NOTHING, None)
    if rivals and best.own_points - second.own_points < MARGIN and best.points - second.points < MARGIN:
        raise UsageError(f"{where} mixes settings only {_module(name).TITLE} has ({', '.join(best.own[:3])}) with "
                         f"settings only {_module(other_name).TITLE} has ({', '.join(second.own[:3])}), so "
                         f"attn-doctor cannot tell which trainer runs it; say which with --trainer NAME")
    runner = max((s for s, n in scores if n != name), key=lambda s: s.points)
    runner_name = next(n for s, n in scores if s is runner)
    return name, doc, {"trainer": name, "title": _module(name).TITLE, "by": "content", "score": best.points,
                       "evidence": best.evidence[:12], "runner_up": runner_name if runner.points > 0 else None,
                       "runner_up_score": runner.points if runner.points > 0 else None}


# scripts that use a trained model rather than train one (HunyuanVideo's sample_video.py, a fine-tune's generate.py,
# inference.py, eval.py): a launch of one is no training run, whatever options it shares with trainers
# (a `run_` in front names the same step: run_evaluation.py, run_inference.py, round 51)
NOT_TRAINING_SCRIPT = re.compile(r"^((run_)?(generate|sample|sampling|infer|inference|predict|eval|evaluate|evaluation|"
                                 r"server|serve|api_server|webui|demo)(_[a-z0-9_]+)?|"
                                 # sd-scripts' and musubi-tuner's own tools: image / video generation (gen_img.py,
                                 # sdxl_gen_img.py, flux_minimal_inference.py, wan_generate_video.py) and the LoRA
                                 # utilities under networks/ (resize_lora.py, merge_lora.py, sdxl_merge_lora.py,
                                 # svd_merge_lora.py, extract_lora_from_models.py): no training run (round 31)
                                 r"([a-z0-9]+_)?gen_img|[a-z0-9_]*minimal_inference|[a-z0-9_]+_generate_(image|video)s?|"
                                 r"resize_lora|([a-z0-9]+_)?merge_lora|svd_merge_lora|extract_lora_from_models)\.py$",
                                 re.IGNORECASE)
# scripts that prepare a run's data rather than train (preprocess.py, preprocess_sam.py, prepare_dataset.py,
# caption_images.py, tokenize_data.py, make_masks.py; none with `train` in its name): the one command of a launcher whose
# training lines are commented out
DATA_PREP_SCRIPT = re.compile(r"^(?!.*train)(pre_?process(ing)?|prepare|prep|caption(s|ing)?|auto_caption|tokeni[sz]e|"
                              r"make_masks?|segment|download)(_[a-z0-9_]+)?\.py$", re.IGNORECASE)
# Python's own set-up scripts: an installer that runs `python get-pip.py --no-warn-script-location` (round 50's ai-toolkit
# installer .bat) or `python setup.py install` sets up an environment; the command is no training run of any trainer
SETUP_SCRIPTS = {"get-pip.py", "get_pip.py", "ez_setup.py", "distribute_setup.py", "setup.py"}
# Entry-point names many trainers (and their users' wrappers) share: SimpleTuner's and torchtitan's train.py,
# LLaMA-Factory's src/train.py, axolotl's scripts/finetune.py ... A command running one of these is judged by its
# options as before; any other script must be one a reader knows by name.
GENERIC_SCRIPTS = {"train", "main", "run", "finetune", "sft", "launch", "cli", "trainer", "training"}
# the trainers' own console scripts (shell.CLI_SUBCOMMANDS less the launchers and hub tools)
TRAINER_CLIS = {"swift", "megatron", "llamafactory-cli", "lmf", "tune", "litgpt", "axolotl", "trl", "simpletuner"}


# A wrapper's own arguments handed on whole (`python run.py "$@"`, `%*` in cmd.exe, `@args` in PowerShell): the options
# the script is run with, whatever they are
FORWARDED_ARGS = {"$@", "${@}", "$*", "${*}", "%*", "@args", "$args"}


def _launch_lines(doc: dict) -> bool:
    """Are `doc`'s commands its launch lines: a launch script or text, a notebook, or a notebook saved as a script?"""
    return doc["fmt"] == "text" or bool(NOTEBOOK.search(doc["name"])) or bool(doc.get("exported"))


def _as_written(doc: dict, script: str) -> str:
    """The script a refusal names, as the launch line writes it when that is a settled path relative to where it runs
    (round 145m's minha12 launcher: `accelerate launch ... src/training/train.py ...`, named "train.py" before, which
    says less than the path the user typed); else the name."""
    cmd = doc.get("command")
    cmds = ([cmd] if cmd is not None else []) + list(doc.get("commands") or [])
    for c in cmds:
        if getattr(c, "script", None) == script:
            word = next((w for w in c.head if os.path.basename(w) == script), None)
            if word and word != script and not os.path.isabs(word) and "$" not in word and "%" not in word and \
                    "\\" not in word and not word.startswith("~") and ".." not in word.split("/"):
                return word[2:] if word.startswith("./") else word
            return script
    return script


def _script_run(doc: dict) -> str | None:
    """The .py file a command line's training command runs (through python, accelerate launch, torchrun, `python -m
    accelerate.commands.launch`), None for a CLI or a `python -m package.module` run."""
    cmd = doc.get("command")
    if doc["fmt"] == "text" and cmd is None:
        # no command trains by name (python experiment/main.py --flash_attn ...): the first that runs a .py script with
        # options is the job, unless the file runs a trainer's own CLI (`simpletuner --config_path ...` after a
        # `python prepare_dataset.py --output ...`): that is the job, and it runs no .py of the user's
        if any(c.program in TRAINER_CLIS and not c.script for c in doc.get("commands") or []):
            return None
        runs = [c for c in doc.get("commands") or [] if c.script and c.script.endswith(".py") and not c.module
                and os.path.basename(c.script) not in SETUP_SCRIPTS
                and any(a.startswith("--") or a in FORWARDED_ARGS for a in c.args)]
        # a staged pipeline of the project's own scripts (a CSV step, a tokenizer, `pipeline.py --build_dataset`, then
        # `pipeline.py --train`): the step its own switch says trains is the job, not the first step (round 135m's
        # pknandi run.sh, refused as running its dataset_to_csv.py)
        cmd = next((c for c in runs if _train_switch(c.args)), None) or (runs[0] if runs else None)
    if not _launch_lines(doc) or cmd is None or not cmd.script or not cmd.script.endswith(".py"):
        return None  # (a notebook's training command is its `!accelerate launch x.py ...` line, as a launch script's)
    if cmd.module and cmd.script == cmd.module.rsplit(".", 1)[-1] + ".py":
        return None
    return cmd.script


# the switches by which a script of the user's that does several things is told to train (`--train`, HF examples'
# `--do_train`, `--mode train`)
TRAIN_SWITCHES = {"--train", "--do_train", "--do-train"}


def _train_switch(args) -> bool:
    """Whether a command's arguments tell its script to train: a training switch (TRAIN_SWITCHES, not set false) or
    `--mode train` / `--mode=train`."""
    args = list(args)
    for i, a in enumerate(args):
        name, _, val = a.partition("=")
        nxt = args[i + 1].lower() if i + 1 < len(args) else ""
        if name in TRAIN_SWITCHES and (val or nxt).lower() not in ("false", "0", "no"):
            return True
        if name == "--mode" and (val or nxt).lower() == "train":
            return True
    return False


def _bare_run(doc: dict) -> str | None:
    """The user's own script a launch file runs with no options (`export ATTN_IMPL=sdpa` then `python train_qwen.py`,
    `accelerate launch finetune.py`), when that script is here (beside the launch file, or where the command names it)
    and a reader claims it on its own evidence: the launch's job, with the defaults the script sets (and the variables
    the launch exports to it). _script_run takes only a command given options; one with none is otherwise read as
    naming a script, not running the job. Several such scripts, or none claimed: None (the launch is judged as
    before)."""
    if not _launch_lines(doc):
        return None
    names = []
    for c in doc.get("commands") or []:
        if c.script and c.script.endswith(".py") and not c.module and c.script not in names:
            names.append(c.script)
    claimed = [n for n in names if _script_beside(doc, n) is not None]
    return claimed[0] if len(claimed) == 1 else None


def _script_beside(doc: dict, script: str):
    """(reader id, doc, the options the launch gives it, detection) of the user's own Python script a launch file runs,
    when that script is on this machine (named_config: beside the launch file, or as written) and a reader claims it
    on its own evidence; None otherwise. A user pointing --config at run.sh whose `accelerate launch train.py` runs a
    TRL script beside it means that script."""
    if script.endswith(" (-m)"):
        return _module_beside(doc, script[:-len(" (-m)")])
    cmd, sub = _script_doc(doc, script)
    return _read_beside(doc, sub, cmd)


def _script_doc(doc: dict, script: str):
    """(the command that runs `script`, the doc of that script or None where it is not here): the script looked for as the
    command names it (`python src/train_sft.py`: under src/, not beside the launcher), then by its name."""
    cmd = next((c for c in [doc.get("command")] + list(doc.get("commands") or []) if c is not None and c.script == script),
               None)
    written = next((w for w in (cmd.words if cmd is not None else [])
                    if os.path.basename(w.replace("\\", "/")) == script), script)
    sub = named_config(doc, written)
    if sub is None and written != script:
        sub = named_config(doc, script)
    return cmd, sub


def _job_script(doc: dict) -> str | None:
    """The training script a Python job spec (a Modal app: functions Modal runs in its containers) starts by subprocess,
    when it is the repository's own and here (its container path's last parts under the app's folder or above:
    `/root/scripts/train_sft.py` of an image that copies scripts/ to /root/scripts, round 29m) and every training
    script the app starts that is here reads as the same trainer: the app's first training command's script, read
    as a launch file's (_script_beside, with the options the app gives it). None otherwise (the app is refused, naming
    what it runs)."""
    if doc["fmt"] != "python":
        return None
    runs = [c for c in [doc.get("command")] + list(doc.get("commands") or []) if c is not None and c.script and
            c.script.endswith(".py") and not NOT_TRAINING_SCRIPT.match(c.script)]
    if not runs:
        return None
    found = [_script_beside(doc, c.script) for c in runs]
    if found[0] is None or len({b[0] for b in found if b is not None}) != 1:
        return None
    return runs[0].script


def _handed_over(doc: dict, other: str):
    """detect()'s answer for a launch file whose only job is to run another shell script of the repository (a Slurm
    job's `bash sft.sh` after `source .venv/bin/activate`, round 29m), when that script is here where the launch would
    find it (named_config: after its `cd`s, beside it, from the repository root) and is given no arguments of its own
    (a wrapper's "$@" only): that script's reading, as `check --config` on it gives, with the hand-over named first.
    One hand-over deep (the script's own detect() is told it was handed over: handed_over=True, no state shared between
    readings); None otherwise (the launch is refused, naming the script, as before)."""
    if doc["fmt"] != "text":
        return None
    def names(w):
        return w == other or w.endswith(("/" + other, "\\" + other))

    cmd = next((c for c in doc.get("commands") or [] if any(names(w) for w in c.words)), None)
    if cmd is None:
        return None
    at = next(i for i, w in enumerate(cmd.words) if names(w))
    if any(w not in FORWARDED_ARGS for w in cmd.words[at + 1:]):
        return None
    sub = named_config(doc, cmd.words[at])
    if sub is None or sub["fmt"] != "text":
        return None
    try:
        name, sdoc, det = detect(sub["path"], sub["text"], handed_over=True)
    except UsageError:
        return None
    return name, sdoc, dict(det, evidence=[f"{os.path.basename(doc['path'])} runs {other}, which is here"] +
                            list(det.get("evidence") or []))


# the option a user's wrapper script takes its one settings file under (`python src/train.py --config x.yaml`), and the
# files such an option names
_HANDED_CONFIG = re.compile(r"^--?(config|config[_-]file|config[_-]path|cfg|yaml|conf)$")
_HANDED_SUFFIX = re.compile(r"\.(ya?ml|json|toml)$", re.IGNORECASE)
# the pieces of its trainer's own evidence (Score.own) a settings file handed to a wrapper must show
HANDED_OWN = 2


def _config_handed(doc: dict, path: str, script: str):
    """detect()'s answer for a launch that runs a user's script which is not here, given nothing but one settings file
    (`python src/train.py --config configs/lora_sft.yaml`, or the file alone as its argument) that is here and reads on
    its own as a claimed trainer's config, with HANDED_OWN or more of that trainer's own keys (not transformers': its
    fields are every HfArgumentParser script's): the script is a wrapper handing that file to the trainer (round 79m's
    rohit07cf run_training.sh, whose src/train.py passes the YAML to LLaMA-Factory's run_exp; cfg81), so the run is
    what `check --config FILE` reads, with the hand-over named first. The launch gives the script no option of its
    own beside the file (a wrapper's "$@" only), so nothing the file says is overridden. One hand-over deep; None
    otherwise (the launch is refused, naming the script)."""
    if doc["fmt"] != "text" or not script.endswith(".py"):
        return None
    cmd = next((c for c in [doc.get("command")] + list(doc.get("commands") or []) if c is not None and c.script == script),
               None)
    if cmd is None:
        return None
    args = [str(a) for a in cmd.args if a not in FORWARDED_ARGS]
    if len(args) == 2 and _HANDED_CONFIG.match(args[0]):
        named = args[1]
    elif len(args) == 1 and "=" in args[0] and _HANDED_CONFIG.match(args[0].split("=", 1)[0]):
        named = args[0].split("=", 1)[1]
    elif len(args) == 1 and not args[0].startswith("-"):
        named = args[0]
    else:
        return None
    named = named.strip("'\"")
    if not _HANDED_SUFFIX.search(named):
        return None
    sub = named_config(doc, named)
    if sub is None or sub["fmt"] not in ("yaml", "json", "toml"):
        return None
    try:
        name, sdoc, det = detect(sub["path"], sub["text"], handed_over=True)
    except UsageError:
        return None
    if name == "transformers" or len(getattr(_module(name).score(sdoc), "own", None) or ()) < HANDED_OWN:
        # TrainingArguments / TRL field names are every HfArgumentParser script's (a user's own train.py reads such a
        # YAML its own way: round 3's convention, 9 unclaimed launchers of the training rounds), and a name or two
        # another trainer shares (`stage: sft` beside max_epochs, cfg80) tells no wrapper: only a file made of one
        # trainer's own keys is handed to that trainer
        return None
    return name, sdoc, dict(det, evidence=[f"{os.path.basename(path)} runs {script} (not here) with only {named}, which "
                                           f"is here"] + list(det.get("evidence") or []))


# ms-swift's pipeline entry points, as its console scripts call them (swift/cli/sft.py: `from swift.llm import sft_main`
# then `sft_main()`; swift.pipelines in later versions): called with no arguments they parse sys.argv
_SWIFT_MAINS = {"sft_main": "sft", "rlhf_main": "rlhf", "pt_main": "pt"}


def _swift_entry_run(doc: dict, path: str, script: str):
    """detect()'s answer for a launch that runs a user's script which only wraps ms-swift's entry point: the script is
    here (named_config), imports sft_main / rlhf_main / pt_main from swift and calls it with no arguments, so swift
    parses the script's own command line, the options the launch gives it, as `swift sft` would (round 65: fyh2001's
    swift_sft_patched.py, which applies a sequence-parallel patch, then `from swift.pipelines import sft_main;
    sft_main()`, under `torchrun ... swift_sft_patched.py --model ... --attn_impl flash_attention_2 ...`). The launch is
    read as `swift SUB OPTIONS`; None otherwise."""
    if not script or not script.endswith(".py"):
        return None
    cmd = next((c for c in [doc.get("command")] + list(doc.get("commands") or []) if c is not None and c.script == script),
               None)
    if cmd is None:
        return None
    written = next((w for w in cmd.words if os.path.basename(w.replace("\\", "/")) == script), script)
    sub = named_config(doc, written) or (named_config(doc, script) if written != script else None)
    found = _swift_main_sub(sub["text"]) if sub is not None and sub["fmt"] == "python" else None
    if found is None:
        return None
    args = [a for a in cmd.args if a not in FORWARDED_ARGS]
    try:
        name, sdoc, det = detect(path, shlex.join(["swift", found[0], *args]) + "\n", handed_over=True)
    except UsageError:
        return None
    return name, sdoc, dict(det, evidence=[f"{os.path.basename(path)} runs {script}, which calls ms-swift's "
                                           f"{found[1]}() on its own command line"] + det["evidence"])


def _swift_main_sub(text: str) -> tuple[str, str] | None:
    """(swift subcommand, entry name) of a Python file that imports one of ms-swift's pipeline entry points
    (_SWIFT_MAINS) and calls it with no arguments, so that it parses the file's own sys.argv, and never assigns
    sys.argv itself (launchers.py reads that form); None otherwise, or when it calls more than one."""
    import ast

    from .pyscript import tree

    t = tree(text or "")
    if t is None:
        return None
    mains = {(a.asname or a.name): a.name for n in walked(t) if isinstance(n, ast.ImportFrom)
             and n.module and n.module.split(".")[0] == "swift" for a in n.names if a.name in _SWIFT_MAINS}
    called = {mains[n.func.id] for n in walked(t) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
              and n.func.id in mains and not n.args and not n.keywords}
    sets_argv = any(isinstance(n, (ast.Assign, ast.AugAssign)) and any(
        isinstance(x, ast.Attribute) and x.attr == "argv" for tg in (n.targets if isinstance(n, ast.Assign) else
                                                                     [n.target]) for x in walked(tg))
        for n in walked(t))
    if len(called) != 1 or sets_argv:
        return None
    entry = called.pop()
    return _SWIFT_MAINS[entry], entry


def _through_own_modules(doc: dict, path: str):
    """detect()'s answer for an entry script with no trainer calls of its own that imports functions from modules of
    the user's repository and calls them (round 65, eliashossain001/efficient-gemma3-finetuning's main.py: `from
    model.loader import load_model_and_tokenizer`, `from train_module.train import train_model`, main() calls both):
    Python runs those functions, so their trainer calls are the run's. The modules here that define them (beside the
    script or in the repository root above it; through a package's re-exports, own_definition: cfg90), their text
    after the script's, read as one script (the functions' own imports of other modules are not followed); None when
    none is here or the joined text is claimed by no reader."""
    import ast

    from .pyscript import _LIBRARIES, tree

    t = tree(doc.get("text") or "")
    if t is None:
        return None
    called = {n.func.id for n in walked(t) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    modules = script_modules(doc)
    texts = []
    for n in walked(t):
        if isinstance(n, ast.ImportFrom) and n.module and (n.level or n.module.split(".")[0] not in _LIBRARIES):
            for a in n.names:
                if (a.asname or a.name) not in called:
                    continue
                # the module that defines the function, through its package's re-exports (own_definition); else the
                # module named, as it is
                found = own_definition(doc, n.module, n.level, a.name)
                src = found[1] if found is not None else modules(n.module, n.level)
                if src and src not in texts:
                    texts.append(src)
    for module, level, name in _module_object_calls(doc, t):
        # `import mypkg; mypkg.train()`, `from mypkg import cli; cli.main()`, `import mypkg.trainer as T; T.run()`
        found = own_definition(doc, module, level, name)
        if found is not None and found[1] not in texts:
            texts.append(found[1])
    if not texts:
        return None
    try:
        name, sdoc, det = detect(path, "\n".join([doc["text"], *map(_as_imported, texts)]), handed_over=True)
    except UsageError:
        return None
    return name, sdoc, dict(det, evidence=[f"{os.path.basename(path)} calls functions of {len(texts)} module(s) of its "
                                           f"repository"] + det["evidence"])


def _as_imported(text: str) -> str:
    """A module's text as importing it runs it: its top-level `if __name__ == "__main__":` block left out (__name__ is
    then the module's name, so that block runs only when the file is the script: `python train.py`), which would read as
    a second call of the function the entry script calls, handing other values (`main()` beside the script's
    `main(bf16=True)`). Text that does not parse is kept whole."""
    import ast

    from .pyscript import tree

    t = tree(text)
    if t is None:
        return text
    lines = text.split("\n")
    for n in reversed(t.body):
        if isinstance(n, ast.If) and not n.orelse and isinstance(n.test, ast.Compare) and \
                [type(o) for o in n.test.ops] == [ast.Eq] and \
                {ast.unparse(n.test.left), *map(ast.unparse, n.test.comparators)} in ({"__name__", "'__main__'"},) and \
                n.end_lineno <= len(lines):
            del lines[n.lineno - 1:n.end_lineno]
    return "\n".join(lines)


def _code_run(doc: dict, path: str):
    """detect()'s answer for a launch file whose command runs `python -c CODE` where CODE calls functions of the user's
    own modules (`python -c "from train import main; main(bf16=True)"`): Python runs CODE as a script with the folder
    the command runs in first on sys.path (Python's command line, -c), so it is read as a script of that folder would be
    (_through_own_modules: CODE, then the modules that define what it calls). None when no command runs such code or
    the joined text is claimed by no reader."""
    for cmd in [doc.get("command")] + list(doc.get("commands") or []):
        code = getattr(cmd, "code", None)
        if not code:
            continue
        sub = make_doc(os.path.join(os.path.dirname(os.path.abspath(path)), "-c.py"), code)
        found = _through_own_modules(sub, sub["path"])
        if found is not None:
            name, sdoc, det = found
            return name, sdoc, dict(det, evidence=[f"{os.path.basename(path)} runs `python -c` code that calls functions "
                                                   f"of the repository's modules"] + det["evidence"][1:])
    return None


def _module_object_calls(doc: dict, t, written: bool = False) -> list | dict:
    """(module, level, function) of each call the script `t` makes on a module object of the user's checkout (with
    `written`: {the callee as the script spells it, `tu.build_args`: that triple}), as the
    import statement binds the name (Python reference, "The import statement"): `import a.b.c` binds a, and a.b, a.b.c
    are its attributes; `import a.b as T` binds T to a.b; `from a import b` binds a's attribute b, or else its submodule
    a.b (here: when a does not define b and a/b.py or a/b/__init__.py is). A submodule reached as an attribute of a
    module (`mypkg.trainer.run()` after `import mypkg`) is one only when something imports it: the script's own import
    statement, or the package's __init__.py (importing a submodule makes it the package's attribute). An installed
    library's modules are never looked for (_LIBRARIES); a name the script rebinds is not a module any more."""
    import ast

    from .pyscript import own_imports

    bound: dict = {}  # name -> (module, level, the dotted modules the import statement itself imports)
    for name, module, level, chain, source, attr in own_imports(t):
        # (`from a import b`: a's attribute b when a defines it, else its submodule a.b when that file is here)
        if source is None and attr is None or attr != "*" and \
                (source is None or own_definition(doc, source, level, attr) is None) and \
                _module_file(doc, module, level, package=True):
            bound[name] = (module, level, chain)
    rebound = {x.id for n in walked(t) if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For))
               for tg in (n.targets if isinstance(n, ast.Assign) else [n.target]) for x in walked(tg)
               if isinstance(x, ast.Name)}
    out = []
    spelt: dict = {}
    for n in walked(t):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)):
            continue
        parts, x = [], n.func
        while isinstance(x, ast.Attribute):
            parts.insert(0, x.attr)
            x = x.value
        if not isinstance(x, ast.Name) or x.id not in bound or x.id in rebound:
            continue
        module, level, imported = bound[x.id]
        for part in parts[:-1]:
            sub = module + "." + part
            if sub not in imported and not _imports_submodule(doc, module, level, part):
                module = None
                break
            module = sub
        if module is not None and (module, level, parts[-1]) not in out:
            out.append((module, level, parts[-1]))
        if module is not None:
            spelt[ast.unparse(n.func)] = (module, level, parts[-1])
    return spelt if written else out


def _imports_submodule(doc: dict, package: str, level: int, name: str) -> bool:
    """Whether the package's __init__.py (of the user's checkout) imports its submodule `name` (`from . import name`,
    `from .name import x`, `import package.name`), which makes the submodule the package's attribute, and does not
    bind `name` to anything else (own_definition finds no def, class or assignment of it)."""
    import ast

    from .pyscript import tree

    where = _module_file(doc, package, level, package=True)
    if where is None or not where.endswith("__init__.py") or own_definition(doc, package, level, name) is not None:
        return False
    t = tree(_module_text(where) or "")
    for n in walked(t) if t is not None else ():
        if isinstance(n, ast.ImportFrom) and n.level == 1 and (
                n.module is None and any(a.name == name and not a.asname for a in n.names) or
                n.module is not None and n.module.split(".")[0] == name):
            return True
        if isinstance(n, ast.ImportFrom) and not n.level and n.module and n.module.startswith(f"{package}.{name}") or \
                isinstance(n, ast.Import) and any(a.name.startswith(f"{package}.{name}") for a in n.names):
            return True
    return False


def _module_beside(doc: dict, module: str):
    """_script_beside for `accelerate launch -m pkg.train` / `python -m pkg.train`: the module's file where Python
    finds it from the repository (pkg/train.py, or pkg/train/__main__.py), or under src/ (the src layout a pyproject
    installs the package from: round 29m's `srun accelerate launch ... -m citation_sft.train`, the module at
    src/citation_sft/train.py) or the package folder the build configuration names (_package_dirs). A module of an
    installed package that is not here stays unread."""
    if not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)+", module):
        return None  # (a one-part module is an installed tool's as often as the user's: `-m train` stays as it was)
    cmd = next((c for c in [doc.get("command")] + list(doc.get("commands") or []) if c is not None and
                c.module == module), None)
    from .references import locate

    rel = module.replace(".", "/")
    for cand in (rel + ".py", "src/" + rel + ".py", rel + "/__main__.py", "src/" + rel + "/__main__.py"):
        where = locate(doc, cand)  # (looked for first: a candidate that is not here is no file the launch names)
        if where is not None:
            return _read_beside(doc, named_config(doc, cand, located=where), cmd)
    # the folders the launch puts on PYTHONPATH (`PYTHONPATH=lib python -m pkg.train`), then the package folder the
    # repository's build configuration names (`where = ["lib"]`: lib/pkg/train.py), from the launcher's folder or one
    # of the two above it (cfg93)
    for d in _pythonpath_dirs(doc, cmd) + _package_roots(doc):
        for cand in (rel + ".py", rel + "/__main__.py"):
            if os.path.isfile(os.path.join(d, cand)):
                where = os.path.join(d, cand)
                return _read_beside(doc, named_config(doc, where, located=where), cmd)
    return None


def _read_beside(doc: dict, sub, cmd):
    """_script_beside's reading of the script found (sub: its doc, or None), with the options `cmd` gives it."""
    if sub is None or sub["fmt"] != "python":
        return None
    # (one level deep at most: detect reaches here only for a command line's script, and a Python file has none)
    given = [a for a in (cmd.args if cmd is not None else []) if a not in FORWARDED_ARGS]
    live = _live_text(sub["text"], given)
    try:
        roots = _pythonpath_dirs(doc, cmd)
        name, sdoc, det = detect(sub["path"], live if live is not None else sub["text"],
                                 environ={"PYTHONPATH": os.pathsep.join(roots)} if roots else None)
    except UsageError:
        return None
    return name, sdoc, given, det


def _live_text(text: str, given: list) -> str | None:
    """The script's text as the launch runs it: a top-level `if` whose test the launch's options settle (`if
    args.full_finetune:` under `--full-finetune`) keeps only the branch it takes, the other blanked line for line (so
    every other line stays where it was). Round 68m (cfg71): frankyaoxiao/unsloth-qwen4b's train_sft.py loads
    transformers' AutoModelForCausalLM under --full-finetune and Unsloth's FastLanguageModel in its `else:`; the launch
    that gives --full-finetune is a transformers / TRL run, and an import in the branch not taken is no evidence. None
    when no such test is settled, an option is not the script's own (argv_options), or the text would not parse."""
    import ast

    from .pyscript import argv_options, constants, tree, value

    t = tree(text)
    argv = argv_options(t, list(given)) if t is not None and given else None
    if not argv:
        return None
    consts = constants(t, argv)
    lines = text.splitlines()
    cut = False
    for st in t.body:
        if not isinstance(st, ast.If) or not any(isinstance(x, ast.Attribute) and x.attr in argv
                                                 for x in walked(st.test)):
            continue
        test = value(st.test, consts)
        if not isinstance(test, bool) or st.body[0].lineno == st.lineno:
            continue
        if test:
            if not st.orelse:
                continue
            # the `else:` / `elif` and everything under it
            first, last = st.body[-1].end_lineno + 1, st.orelse[-1].end_lineno
            lines[first - 1:last] = [""] * (last - first + 1)
        else:
            first, last = st.body[0].lineno, st.body[-1].end_lineno
            indent = lines[first - 1][:len(lines[first - 1]) - len(lines[first - 1].lstrip())]
            lines[first - 1:last] = [indent + "pass"] + [""] * (last - first)
        cut = True
    if not cut:
        return None
    out = "\n".join(lines) + ("\n" if text.endswith("\n") else "")
    return out if tree(out) is not None else None


def _read_through(doc: dict, path: str, where: str, script: str, beside):
    """detect()'s answer for a launch file that runs a user's script which is here and a reader claims (_script_beside):
    that script's reading, with the variables the launch exports to it and the options it gives it when the script's
    own argparse takes them all; a launch giving it options attn-doctor cannot apply is refused, naming the command
    that reads the script."""
    beside[1]["environ"] = _launch_environ(doc, script)
    if not beside[2]:
        return beside[0], beside[1], dict(beside[3], evidence=[f"{os.path.basename(path)} runs {script} with no "
                                                              f"options of its own"] + beside[3]["evidence"])
    primary = _hydra_overrides(beside, doc)
    if primary is not None:
        # the script's reader composes its config with these overrides (pyscript.settings_files.hydra_composed)
        beside[1]["hydra_overrides"] = _hydra_words(doc, beside[2])
        return beside[0], beside[1], dict(beside[3], evidence=[
            f"{os.path.basename(path)} runs {script}, a Hydra app, with overrides of the config its {primary} "
            f"composes ({' '.join(beside[2])[:120]})"] + beside[3]["evidence"])
    argv = _script_argv(beside)
    if argv is not None:
        # the options are the script's own argparse's (--output_dir, --num_train_epochs): read with their values
        beside[1]["argv"] = argv
        how = f"its own {_cli_library(beside) or 'argparse'}{' command line' if _cli_library(beside) else ''} takes" \
            if argv else "it reads nowhere (it takes no command line)"
        return beside[0], beside[1], dict(beside[3], evidence=[
            f"{os.path.basename(path)} runs {script} with options {how} "
            f"({', '.join(w for w in beside[2] if w.startswith('-') and not w[1:2].isdigit())[:120]})"] + beside[3]["evidence"])
    wrapped = _wrapper_argv(beside)
    if wrapped is not None:
        return wrapped[0], dict(wrapped[1], environ=beside[1]["environ"]), dict(wrapped[2], evidence=[
            f"{os.path.basename(path)} runs {script} with options its own argparse takes "
            f"({', '.join(w for w in beside[2] if w.startswith('-') and not w[1:2].isdigit())[:120]}), which build the "
            f"command it starts"] + wrapped[2]["evidence"])
    raise _beside_refusal(where, script, beside)


def _hydra_app_here(doc: dict) -> bool:
    """Whether the script a launch recognised as a Hydra app's (`train.py +trainer.x=1`, others._hydra_forced) runs is
    here and takes the launch's overrides (_hydra_overrides): its reader composes its config, _read_through (cfg87)."""
    script = _script_run(doc)
    return bool(script) and _hydra_overrides(_script_beside(doc, script), doc) is not None


def _hydra_words(doc: dict, words) -> list:
    """The launch's words to a Hydra app with its config folder flags written as this machine finds the folders:
    `--config-dir D` / `-cd D` made absolute from where the command runs, as Hydra makes it (hydra/_internal/utils.py
    _run_hydra: os.path.abspath(args.config_dir)): after the launch's `cd`s (references.working_dir), else the
    launcher's folder or one of the two above it that holds D (a launch in scripts/ run from the repository root); a D
    none of those holds stays under the launcher's folder, where nothing is found (its files are not here). An
    absolute folder of another machine (`-cp /workspace/repo/conf`, either flag) is its last parts under the
    launcher's folder or the two above it, where one of those is here (the repository checked out elsewhere, as
    references.locate finds a file). A relative `--config-path` stays relative to the script, as Hydra reads it."""
    from .references import launcher_dir, working_dir

    here = launcher_dir(doc)
    ups = [here, os.path.dirname(here), os.path.dirname(os.path.dirname(here))]
    out, it = [], iter(str(w) for w in words)
    for w in it:
        flag, eq, val = w.partition("=")
        if flag not in ("-cd", "--config-dir", "-cp", "--config-path"):
            out.append(w)
            continue
        d = val if eq else next(it, "")
        if "$" in d or "`" in d or not d:
            pass  # (chosen at run time: hydra_compose.config_flags refuses it)
        elif os.path.isabs(d) and not os.path.isdir(d):
            parts = [p for p in d.split("/") if p]
            d = next((os.path.join(u, *parts[i:]) for i in range(1, len(parts)) for u in ups
                      if os.path.isdir(os.path.join(u, *parts[i:]))), d)
        elif not os.path.isabs(d) and flag in ("-cd", "--config-dir"):
            cwd = next((c for c in (working_dir(doc, x.script) for x in doc.get("commands") or [] if x.script)
                        if c is not None), None)
            starts = [cwd] if cwd else ups
            d = next((os.path.join(u, d) for u in starts if os.path.isdir(os.path.join(u, d))),
                     os.path.join(starts[0], d))
        out.append(f"{'--config-dir' if flag in ('-cd', '--config-dir') else '--config-path'}={d}")
    return out


def _hydra_overrides(beside, doc: dict | None = None) -> str | None:
    """The primary config's name when the script beside a launch is a Hydra app (`@hydra.main(config_path=...,
    config_name=...)`) whose primary config is here and every word the launch gives it is a Hydra override its
    composition takes (`python src/train.py model=$MODEL_NAME training=qlora training.bf16=false`: a group's option,
    a value set, added or deleted; round 79m's SourabhGothe run_experiment.sh, cfg81, cfg87); None otherwise (an
    option, a group its defaults list does not name, a key the composed config does not have: refused as any other
    option)."""
    from .pyscript import tree
    from .pyscript.hydra_compose import Refused
    from .pyscript.settings_files import hydra_composed, hydra_entries

    if beside is None or not beside[2] or beside[0] not in ARGV_READERS:
        return None
    t = tree(beside[1].get("python") or "")
    entries = hydra_entries(t, {}) if t is not None else []
    if not entries:
        return None
    hydra = dict(script_hydra(beside[1]), note=lambda p: None)
    try:
        composed = hydra_composed(entries[0][1], hydra, overrides=_hydra_words(doc, beside[2]) if doc is not None
                                  else list(beside[2]))
    except Refused:
        return None
    return os.path.basename(entries[0][1]) if composed is not None else None


def _wrapper_argv(beside):
    """A launch file's options to a user's wrapper script beside it (a Python script that builds a trainer's command and
    starts it with subprocess: round 59's train_local.py, whose argparse takes --task / --epochs / --fp8 and whose
    `cmd` list runs musubi-tuner's hv_1_5_train_network.py with --sdpa) when its reader reads the command the script
    starts rather than the script's own calls (not ARGV_READERS) and the script's argparse declares every option given:
    the script read again with those values in place of its defaults (launchers.python_commands' argv), when it still
    reads as the same trainer; None otherwise (cfg84)."""
    if beside is None or not beside[2] or beside[0] in ARGV_READERS or not beside[1].get("commands"):
        return None
    from .pyscript import argv_options, tree

    text = beside[1].get("python") or ""
    t = tree(text)
    argv = argv_options(t, list(beside[2])) if t is not None else None
    if not argv:
        return None
    try:
        name, sdoc, det = detect(beside[1]["path"], text, argv=argv)
    except UsageError:
        return None
    return (name, sdoc, det) if name == beside[0] else None


def _cli_library(beside) -> str | None:
    """The CLI library the script beside a launch takes its command line through, where it is not argparse: Python
    Fire, Typer or Click (pyscript.argv.cli_parameters)."""
    from .pyscript import tree
    from .pyscript.argv import fire_parameters, cli_parameters

    t = tree(beside[1].get("python") or "")
    if t is None or not cli_parameters(t):
        return None
    if fire_parameters(t):
        return "Python Fire"
    return "Click" if re.search(r"(?m)^\s*(import click|from click import)", beside[1].get("python") or "") else "Typer"


# readers that read a script's argparse with the values a launcher gives it (pyscript.constants' argv)
ARGV_READERS = {"transformers", "unsloth"}


def _script_argv(beside) -> dict | None:
    """The launcher's options to a user's script beside it (_script_beside) as the script's own argparse takes them
    (pyscript.argv_options), when its reader reads scripts that way and every option is one the script declares; None
    otherwise (the launch is refused with the command that reads the script alone)."""
    if beside is None or not beside[2] or beside[0] not in ARGV_READERS:
        return None
    from .pyscript import argv_options, reads_argv_by_position_only, reads_no_command_line, tree
    from .pyscript.dataclass_args import trl_parser

    t = tree(beside[1].get("python") or "")
    if t is not None and (reads_no_command_line(t) or reads_argv_by_position_only(t) and
                          not any(w.startswith("-") for w in beside[2])):
        # a script that takes no options at all (no sys.argv, no parser, nothing of the user's own imported that could
        # read one): the launcher's options reach nobody, the run is the script as it is (round 49m: `accelerate
        # launch scripts/train_lora.py --config configs/lora_config.yaml` of a script reading its YAML at a fixed path);
        # or words alone that it reads as sys.argv[N] (round 65: `./train-unsloth.py "$LOG_FILE"`, a log file's name)
        return {}
    argv = argv_options(t, list(beside[2])) if t is not None else None
    if argv and "config" in argv and trl_parser(t):
        # TrlParser's `--config sft.yaml` (trl/scripts/utils.py:320-343): the file's values are the defaults the rest of
        # the command line overrides; read when the file is where the script's run finds it, else the launch is refused
        # as before (its settings are not here). cfg83
        from .pyscript import value
        from .pyscript.settings_files import _literal

        path = value(argv.pop("config"), {})
        data = script_files(beside[1])(path) if isinstance(path, str) else None
        if data is None:
            return None
        argv = {**{k: _literal(v) for k, v in data.items() if isinstance(k, str) and k != "env"}, **argv}
    return argv


# the trainers' own GUIs, started by a script's last command: their settings are made in the browser, not in the file
TRAINER_GUIS = {"kohya_gui.py": "the kohya_ss GUI (bmaltais/kohya_ss)", "train_ui.py": "OneTrainer's GUI"}


def _beside_refusal(where: str, script: str, beside) -> UsageError:
    """The refusal of a launch file that gives its own script (here, read by _script_beside) options attn-doctor does
    not apply to a user's script: the command that reads the script."""
    return UsageError(f"{where} runs {script}, a script of its own, with options attn-doctor does not read on a command "
                      f"line; the script is here and reads as {beside[3]['title']}: attn-doctor check --config "
                      f"{beside[1]['path']} reads it (with the defaults it sets, not these options)")


def _last_script(doc: dict) -> str | None:
    """The .py file the last command that runs one runs (`python app.py` at the end of an installer), by name."""
    runs = [c.script for c in doc.get("commands") or [] if c.script and c.script.endswith(".py") and not c.module
            and os.path.basename(c.script) not in SETUP_SCRIPTS]
    return runs[-1] if runs else None


# the cluster schedulers' submit commands: what they are handed is the job that runs (an installer's `bash
# ~/miniconda.sh -b` is a step of the file's own, which a refusal should not send the user to)
_JOB_RUNNERS = {"sbatch", "qsub", "bsub", "srun"}
_JOB_FILE = re.compile(r"\.(?:sh|bash|zsh|slurm|sbatch|pbs|job|qsub|lsf)$", re.IGNORECASE)


def _job_file(doc: dict) -> tuple | None:
    """(the script as written, the program) of the last `sbatch [OPTIONS] JOB.sbatch` (qsub, bsub, srun) of a launch
    text, for a refusal to name when the text runs no .py file or module itself; None when it starts none
    (a word that names no such file: an option's value, a `-c` string)."""
    if doc.get("fmt") != "text":
        return None
    for c in reversed(doc.get("commands") or []):
        if c.program in _JOB_RUNNERS and not c.script and not c.module:
            job = next((a for a in c.args if not a.startswith("-") and _JOB_FILE.search(a)), None)
            if job and not any(re.match(r"^-[a-z]*c$", a) for a in c.args):
                return job, c.program
    return None


def _last_module(doc: dict) -> str | None:
    """`pkg.module (-m)` for the module the last `python -m pkg.module` (or `torchrun -m`, `accelerate launch -m` ...)
    command runs, not an installer's (pip, venv ...), for a refusal to name when the file runs no .py file by name."""
    from .shell import LAUNCHERS

    runs = [c.module for c in doc.get("commands") or [] if c.module and c.module.split(".")[0] not in INSTALLER_MODULES
            and (re.match(r"python", os.path.basename(c.program)) or c.program in LAUNCHERS)]
    return f"{runs[-1]} (-m)" if runs else None


def _cli_run(doc: dict) -> str | None:
    """`litgpt fit`, `swift infer`, `tune download`: a command of a trainer CLI's name whose subcommand is none of its
    training ones (a program of the same name, or a step around training), as the user wrote it."""
    from .shell import CLI_SUBCOMMANDS, is_training

    if doc["fmt"] not in ("text", "python"):  # (python: a notebook's `!llamafactory-cli webui`, a script's subprocess)
        return None
    for c in doc.get("commands") or []:
        if c.program in CLI_SUBCOMMANDS and not c.script and c.sub and not is_training(c):
            return f"{c.program} {c.sub[0]}"
    return None


# (a package named for what it is, `python -m lora_trainer.cli ... --mixed_precision fp16`, round 139m's jszaday test.sh,
# trains as surely as one of its modules named so: \w*_trainer / \w*_training)
_TRAINING_MODULE = re.compile(r"(^|\.)(train\w*|\w*_train(er|ing)?|finetune\w*|sft|dpo|grpo|pretrain\w*)(\.|$)",
                              re.IGNORECASE)


def _module_run(doc: dict) -> str | None:
    """`python -m pkg.module` / `torchrun -m pkg.module`: the module a command line's training command runs, as a user
    reads it (for the refusal of a file no reader claims)."""
    from .shell import LAUNCHERS

    cmd = doc.get("command")
    # only a distributed launch (torchrun / accelerate launch / deepspeed -m ...) is surely a training job; a plain
    # `python -m networks.wan_extract_lora` is as likely a tool, unless a part of the module's path says it trains
    # (`python -m chess_llm.train.sft --config configs/sft.yaml`, `python -m src.train`, `python -m pkg.training.dpo`,
    # which no training-sounding script name made the file's command)
    if cmd is None and doc["fmt"] == "text":
        cmd = next((c for c in doc.get("commands") or [] if c.module and c.program.startswith("python")
                    and _TRAINING_MODULE.search(c.module)), None)
    if doc["fmt"] != "text" or cmd is None or not cmd.module or \
            cmd.program not in LAUNCHERS and not (cmd.program.startswith("python")
                                                  and _TRAINING_MODULE.search(cmd.module)):
        return None
    return f"{cmd.module} (-m)"


def _foreign_script(doc: dict, best: Score) -> str | None:
    """The script a command line runs when it is none of the claiming reader's own scripts and the reader's own
    evidence is a single option name: a training script's options are parsed by that script's own argparse
    (`python train_unianimate_wan.py --task train`), so one option that shares a trainer's name (musubi-tuner's
    --task) is no evidence of that trainer."""
    script = _script_run(doc)
    if not script:
        return None
    stem = os.path.splitext(script)[0].lower()
    if stem in GENERIC_SCRIPTS or any(stem in str(e).lower() for e in best.own):
        return None
    # one shared option name is a coincidence; several of a trainer's own options are that trainer's script under
    # another name (a user's copy: sdxl_train_v2.py with sd-scripts' bucket and caption options)
    return script if len(best.own) <= 1 else None


def named_config(doc: dict, path, suffix: str = "", *, located: str | None = None) -> dict | None:
    """The doc of a config file a launch script hands to a trainer (`train.py --config X.toml`, `run.py X.yaml`):
    the text the script writes itself (`cat > X <<EOF`), else the file on this machine: relative to the launch file,
    as written (absolute, or relative to where attn-doctor runs), or its name beside the launch file (a line written
    for another machine: `--config /workspace/configs/wan.toml` next to a wan.toml). None when it is nowhere to read
    here, is the launch file itself, or is not readable (the job's own file: unknown, not an error of the one
    --config names). suffix: what the trainer adds to a name without it (musubi-tuner's .toml), the file read as one
    of that kind. located: where the caller's own references.locate(doc, path, suffix) found it (not looked for again)."""
    from .shell import known

    dumped = dumped_for(doc.get("dumped") or [], path)
    if dumped is not None:
        # a config the launching script writes from a dict of its own (launchers.python_dumped_configs)
        return dumped_doc(doc, dumped, "written by the script")
    from .references import locate, note_unread, spelt

    if not isinstance(path, str) or not path:
        return None
    copy = _copied_config(doc, path, suffix)
    if copy is not None:
        return copy or None
    files = doc.get("files") or {}
    # the file the script writes under the very spelling it then passes (`cat > "$CFG" <<EOF` ... `--config_file
    # "$CFG"`, CFG="$(dirname "$SCRIPT_DIR")/configs/${ID}.toml"): that text, settled spelling or not (round 49m)
    written = next((n for n in (path, path + suffix) if n in files), None)
    if written is None and not known(spelt(doc, path)):
        note_unread(doc, path)  # a value the caller gives (`$1`, `${YAML}` never set): not a file to guess at
        return None
    if written is not None:
        text, where = files[written], written if written.endswith(suffix) else written + suffix
    else:
        # where the launcher's own run finds it (references.locate: after its `cd`s, beside it, from the repository
        # root above it, an absolute path of another machine under the checkout)
        where = located or locate(doc, path, suffix)
        if where is None:
            note_unread(doc, path)
            return None
        try:
            text = read_text(where)
        except UsageError:
            text = None
    return _doc_or_unread(doc, path, where, text)


def _doc_or_unread(doc: dict, path: str, where: str, text: str | None):
    """The doc of `text`, the file the launch names as `path` found at `where`; None, with `path` noted among the
    reading's unread files (references.note_unread), when there is no text or it is no config attn-doctor reads."""
    from .references import note_unread

    if text is not None:
        try:
            return make_doc(where, text)
        except UsageError:
            pass
    note_unread(doc, path)
    return None


def _copied_config(doc: dict, path: str, suffix: str = ""):
    """The doc of a config the launch script makes by copying another file (`cp base.toml "$TMP"`, then `sed -i ...
    "$TMP"`) and names as `path`: the base file, found as named_config finds any file, with the script's substitutions
    (configs/copies.py). None when the script copies nothing to `path`; False when it does but the base file is not
    here or an edit cannot be applied (the copy is then unread, never guessed at)."""
    from .copies import copied_from, edited
    from .references import locate, spelt
    from .shell import known

    got = copied_from(doc, path) or (copied_from(doc, path + suffix) if suffix and not path.endswith(suffix) else None)
    if got is None or got[0] == path:
        return None
    src, edits = got
    # (a base file under the launcher's own folder spelt through a variable, `ROOT="$(cd "$(dirname "$0")/.." && pwd)"`
    # then `sed ... "${ROOT}/lora/x.template.yaml" > "$RENDERED"`, is as known as named_config takes it: round 86m)
    where = locate(doc, src) if known(spelt(doc, src)) else None
    text = None
    if where is not None:
        try:
            text = edited(read_text(where), edits)
        except UsageError:
            text = None
    return _doc_or_unread(doc, path, where, text) or False


def dumped_doc(doc: dict, settings: dict, what: str) -> dict:
    """The doc of settings a script builds as a dict (launchers.python_dumped_configs), read as a JSON config named
    `what` beside the script."""
    return make_doc(os.path.join(os.path.dirname(os.path.abspath(doc["path"])), f"{what}.json"), json.dumps(settings))


def _shell_script(doc: dict) -> bool:
    """The doc is a shell script: named so (.sh / .bash / .zsh / .slurm) or opening with a shell's #! line."""
    if re.search(r"\.(sh|bash|zsh|slurm)$", str(doc.get("path") or ""), re.IGNORECASE):
        return True
    first = (doc.get("text") or "").lstrip("\ufeff").split("\n", 1)[0]
    return bool(re.match(r"^#!\s*\S*/(?:env\s+)?(?:ba|z|da|k)?sh\b", first))


def config_data(doc: dict, path, suffix: str = "") -> dict | None:
    """The settings (a mapping) of the YAML / JSON / TOML file named_config finds, or None."""
    sub = named_config(doc, path, suffix)
    return sub["data"] if sub is not None and sub["fmt"] in ("yaml", "json", "toml") and \
        isinstance(sub.get("data"), dict) else None


def with_accelerate_config(doc: dict, launcher: dict) -> dict:
    """The launcher's settings with those of the accelerate config file it names (`accelerate launch --config_file
    accel.yaml ...`), or of the default config the launch file writes, under them, when that file is here (beside the
    launch file, or written by it): `accelerate launch` takes mixed_precision and dynamo_config.{dynamo_backend,
    dynamo_mode} from the file for the flags it is not given (huggingface/accelerate@16cb6eb commands/launch.py:1212,
    1281-1285; commands/config/config_args.py)."""
    path = launcher.get("config_file")
    if isinstance(path, str) and path:
        data = config_data(doc, path)
    else:
        # no --config_file: accelerate reads its default config, $HF_HOME/accelerate/default_config.yaml (HF_HOME
        # defaults to ~/.cache/huggingface; commands/config/config_args.py:32-40, commands/launch.py:1212), which is the
        # user's machine's unless the launch file writes it itself (`cat > ~/.cache/huggingface/accelerate/
        # default_config.yaml <<EOF`, a Dockerfile's `tee`)
        written = [n for n in doc.get("files") or {} if re.search(r"(?:^|/)accelerate/default_config\.(?:yaml|json)$", n)]
        data = config_data(doc, written[-1]) if written else None
    if not data:
        return launcher
    out = dict(launcher)
    mp = data.get("mixed_precision")
    if not given(mp):
        # a config without mixed_precision: None, or "fp16" for an old file's `fp16: true` (config_args.py:113-114),
        # and `accelerate launch` then runs with "no" (launch.py:1281-1283), which it puts in the script's
        # ACCELERATE_MIXED_PRECISION like any other value (utils/launch.py:175)
        mp = "fp16" if data.get("fp16") is True else "no"
    if not given(out.get("mixed_precision")):  # `accelerate launch --mixed_precision X` wins over the file
        out["mixed_precision"] = str(mp).strip().lower()
    dyn = data.get("dynamo_config") if isinstance(data.get("dynamo_config"), dict) else {}
    if "dynamo_backend" in data and not dyn:
        # an old file's top-level dynamo_backend (config_args.py:117-119: "NO" is none)
        dyn = {"dynamo_backend": data["dynamo_backend"]}
    for k in ("dynamo_backend", "dynamo_mode"):
        if given(dyn.get(k)) and not given(out.get(k)):
            out[k] = str(dyn[k]).strip().lower()
    return out


def unknown_settings(trainer: str, title: str, setting: str | None = None, fixes: dict | None = None) -> dict:
    """A launch command of `trainer` whose config file is not here (or is not that trainer's): nothing known but the
    trainer, and `config_file_unread` says so (checks/trainer.py then claims nothing about what the file chooses).
    setting: the config key that turns compile on; fixes: the trainer's fix lines, as its reader writes them."""
    return {"trainer": trainer, "trainer_title": title, "format": "cmdline", "config_file_unread": True,
            "attention": [], "dtype": None, "compile": {"enabled": None, "mode": None, "setting": setting},
            "fixes": dict(fixes or {})}


def launch_config(doc: dict, match) -> tuple:
    """(command, what `match(cmd)` returns) for the command of a launch script that starts a trainer with its config
    file: the script's training command (doc["command"]) when match takes it, else the first command match takes
    (a `python run.py x.yaml` that shell.main_command does not call training); (None, None) when none does."""
    cmds = doc.get("commands") or []
    if doc.get("command") is not None:
        cmds = [doc["command"], *cmds]
    for c in cmds:
        found = match(c)
        if found:
            return c, found
    return None, None


def load(path: str, trainer: str | None = None) -> dict:
    """Read a trainer config into the dict described above (trainer: --trainer's value, or None to detect)."""
    if trainer:
        trainer_name(trainer)  # an unknown name is the first thing to say
    text = read_text(path)
    try:
        name, doc, detection = detect(path, text, trainer)
        doc["unread"] = [doc["installed_only"]] if doc.get("installed_only") else []  # what the chosen reader finds
        # missing, not what the others looked for while scoring
        try:
            cfg = unknown_settings(name, _module(name).TITLE) if doc.get("installed_only") else _module(name).read(doc)
        except (AttributeError, KeyError, TypeError, ValueError) as e:  # --trainer named a reader for another kind of file
            if detection["by"] != "--trainer":
                raise
            raise UsageError(f"--config: {path} is not a {_module(name).TITLE} config that attn-doctor can read "
                             f"({doc['fmt']}: {type(e).__name__})") from None
        if detection["by"] != "--trainer" and not doc.get("installed_only"):
            cfg = _loop_launches(path, text, name, doc, cfg)
    except RecursionError:
        raise UsageError(f"--config: {path} is too deeply nested to be a trainer config") from None
    cfg["path"] = os.path.abspath(path)
    cfg["detected"] = detection
    # the files the launcher names that could not be read here, as it writes them (references.note_unread)
    cfg["unread"] = list(dict.fromkeys([*cfg.get("unread", []), *doc.get("unread", [])]))
    if doc.get("at_launch"):
        # the training script's settings file, named only by its command line (references.note_at_launch)
        cfg["at_launch"] = list(doc["at_launch"])
    return finish(cfg)


# the fields a launch's runs are compared on: the four a reading is scored on (benchmarks/configs_train.py)
_LAUNCH_FIELDS = ("trainer", "required", "dtype", "compile_mode")


def _loop_launches(path: str, text: str, name: str, doc: dict, cfg: dict) -> dict:
    """A training command inside a `for` loop whose variable its line uses (`for lr in 1e-4 2e-4; do accelerate launch
    train.py --learning_rate $lr ...; done | tee log`) is one launch per value (shell.loop_runs). Each run is read on
    its own, its loop variables holding that run's values (shell.pinned): runs that agree on the trainer, the required
    backends, the dtype and compile are one job, read as the first run is (a value only the loop gives, `--mixed_precision
    $mp` over `for mp in bf16`, is then known); runs that differ keep the loop's reading (each run's attention flag
    possible, a value that differs unknown) and say so: cfg["launches"] = {"count", "loop", "differ": {field: [each
    run's value]}, "values": [each run's loop variables]}, config.launches-differ."""
    from . import shell

    cmd = doc.get("command")
    runs = shell.loop_runs(cmd) if cmd is not None and doc.get("fmt") == "text" else []
    if not runs:
        return cfg
    read = []
    for values in runs:
        try:
            with shell.pinned(values):
                _, run_doc, _ = detect(path, text, name)
                run_doc["unread"] = []
                read.append(finish(_module(name).read(run_doc)))
        except (UsageError, AttributeError, KeyError, TypeError, ValueError):
            return cfg
    seen = [{k: r.get(k) for k in _LAUNCH_FIELDS} for r in read]
    differ = {k: [s[k] for s in seen] for k in _LAUNCH_FIELDS if any(s[k] != seen[0][k] for s in seen)}
    if not differ:
        return read[0]
    loops = sorted({c for c, _ in cmd.maybe or [] if c.startswith("each run of for ")})
    cfg["launches"] = {"count": len(runs), "loop": "; ".join(c[len("each run of "):] for c in loops),
                       "differ": differ, "values": runs}
    return cfg


# What checks/ asks of configs beside load() (checks/trainer.py): the trainers' semantics a check needs go through
# these, so that no check imports a reader module.

def environment_config(value: str) -> dict:
    """The config summary of a DIFFUSERS_ATTN_BACKEND the doctor's own environment sets (check without --config):
    what diffusers' dispatcher makes of that value (diffusers.from_value)."""
    return _module("diffusers").from_value(value, f"DIFFUSERS_ATTN_BACKEND={value} in the environment")


def diffusers_name(cfg: dict, entry: dict) -> str:
    """The name diffusers' dispatcher knows a config's attention entry by: SimpleTuner's own names are its
    AttentionBackendName values (simpletuner.TO_DIFFUSERS); every other reader's entry already says diffusers' name."""
    if cfg.get("trainer") == "simpletuner":
        return _module("simpletuner").TO_DIFFUSERS.get(entry["name"], entry["name"])
    return entry["name"]


# The attention options of the command-line trainers, for flags a launch script adds only under a condition it does
# not settle (shell.Command.maybe): musubi-tuner's and blissful-tuner's (configs/musubi.py FLAGS), sd-scripts' U-Net
# options (library/train_util.py add_training_arguments), diffusers' examples (--enable_xformers_memory_efficient_attention).
CONDITIONAL_FLAGS = {
    "musubi": {"sdpa": "sdpa", "flash_attn": "fa2", "flash3": "fa3", "sage_attn": "sage", "xformers": "xformers"},
    "sd-scripts": {"sdpa": "sdpa", "xformers": "xformers"},
    "diffusers": {"enable_xformers_memory_efficient_attention": "xformers"},
}
CONDITIONAL_FLAGS["blissful"] = CONDITIONAL_FLAGS["musubi"]


def conditional_flags(cfg: dict, doc: dict) -> dict:
    """Attention flags the launch script adds only under a condition it does not settle (`[[ $USE_XF == true ]] &&
    args+=(--xformers)` with $USE_XF set by the caller): bash runs one branch and the file alone does not say which,
    so each is reported as possible (kind "conditional", config.conditional-backend), never as required. The
    command-line readers (musubi, sd_scripts, diffusers) call it at the end of read(); returns cfg."""
    from .shell import parse_options

    cmd = doc.get("command")
    flags = CONDITIONAL_FLAGS.get(cfg.get("trainer") or "")
    if cmd is None or not flags or not getattr(cmd, "maybe", None):
        return cfg
    have = {a["name"].lstrip("-").split()[0] for a in cfg.get("attention") or []}
    for cond, words in cmd.maybe:
        for k in parse_options(words).values:
            key = k.lstrip("-")
            if key in flags and key not in have:
                have.add(key)
                # a `for` loop's other values are further runs of the same command (shell.parse): each one runs
                cfg.setdefault("attention", []).append(
                    attention(f"--{key}", cond, flags[key], kind="local" if cond.startswith("each run of ") else
                              "conditional"))
    return cfg


def load_toml(path: str, text: str) -> dict:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise UsageError(f"--config: {path} is too deeply nested to be a trainer config") from None
    except tomllib.TOMLDecodeError as e:
        raise UsageError(f"--config: {path} is not valid TOML: {e}") from None


def attention(name: str, setting: str, backend: str | None, *, known: bool = True, kind: str = "local",
              masks: str = "yes", via_diffusers: bool = False, sdpa_kernel: str | None = None,
              hub_repo: str | None = None, kernels_min: str | None = None, mask_alternative: str | None = None,
              suggestion: str | None = None, fix: str | None = None) -> dict:
    """One backend a config names, in the shape checks/trainer.py reads (fix: what to write instead of an
    unknown name, in the trainer's own syntax)."""
    assert backend is None or backend in BACKENDS, backend
    return {"name": name, "setting": setting, "backend": backend, "known": known, "kind": kind, "masks": masks,
            "via_diffusers": via_diffusers, "sdpa_kernel": sdpa_kernel, "hub_repo": hub_repo,
            "kernels_min": kernels_min, "mask_alternative": mask_alternative, "suggestion": suggestion, "fix": fix}


def dtype_of(mixed_precision) -> str | None:
    return DTYPES.get(str(mixed_precision).strip().lower()) if mixed_precision not in (None, "") else None


def finish(cfg: dict) -> dict:
    """Fill the keys every reader shares, and derive `required` from the backends a config names."""
    cfg.setdefault("attention", [])
    for key in ("family", "head_dims", "dtype", "mixed_precision", "batch_size", "split_attn"):
        cfg.setdefault(key, None)
    cfg.setdefault("compile", {"enabled": None, "mode": None, "setting": None})
    cfg.setdefault("sage_training", False)
    cfg.setdefault("unet", False)
    cfg.setdefault("fixes", {})
    c = cfg["compile"]
    if c.get("enabled") is None:
        cfg["compile_mode"] = None  # not known from this config: the allocator check assumes the worst
    else:
        cfg["compile_mode"] = (c.get("mode") or "default") if c["enabled"] else "none"
    if "required" not in cfg:
        req = []
        for a in cfg["attention"]:
            if a["known"] and a["kind"] == "local" and a["backend"] and a["backend"] not in req:
                req.append(a["backend"])
        cfg["required"] = req
    return cfg


def given(value) -> bool:
    """A setting with a value: not missing, not empty, not a bare flag (True) standing where a value belongs, not a
    shell variable the script never sets (`$MODEL`)."""
    from .shell import known

    return value is not None and value is not True and value != "" and known(value)


def as_bool(value) -> bool:
    """A config value as Python's argparse-from-TOML truthiness sees it (musubi): bool(value)."""
    return bool(value)


def as_int(value) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


# where a launch's run finds the user's code and files (configs/launch_paths.py): imported last, it reads the names
# above
from .launch_paths import (_REEXPORT_HOPS, _launch_environ, _module_file, _module_text, _package_dirs,  # noqa: E402,F401
                           _package_roots, _pythonpath_dirs, own_definition, script_files, script_hydra, script_modules)
