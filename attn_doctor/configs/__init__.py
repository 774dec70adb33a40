"""Trainer configs (`check --config PATH [--trainer NAME]`): what the user's training job will ask of the
attention stack.

Which trainer a file belongs to is told by evidence (detect()): the file is parsed once (JSON, TOML, YAML
through yaml.safe_load, or text: an env file, a shell script, a saved command line) and every reader in
READERS scores the keys and values it recognises: keys only it uses weigh STRONG, keys a few trainers share
SHARED, keys nearly all have (mixed_precision, batch_size) COMMON. The best reader must lead the runner-up by MARGIN
(otherwise the file is refused in one line, exit 2, naming the two, and --trainer settles it) and reach
MIN_SCORE (otherwise it is not a trainer config: exit 2 with the list of trainers read). Nothing is imported from any trainer.

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
                                              builtin (plain PyTorch matmul + softmax: nothing to check);
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

import os
import re
import shlex
import stat

from ..model import BACKENDS, UsageError

MAX_CONFIG = 4 * 1024 * 1024  # real trainer configs are a few KB; anything this big is the wrong file

# torch dtype names the smoke runner takes, from each trainer's mixed_precision values. "no" (fp32 master
# weights) says nothing about the dtype attention runs in: the trainers cast q/k/v themselves.
DTYPES = {"bf16": "bfloat16", "fp16": "float16"}
COMPILE_MODES = ("default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs")


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
    if b"\x00" in raw:
        raise UsageError(f"--config: {path} is binary, not a trainer config")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UsageError(f"--config: {path} is not UTF-8 text") from None


# Every reader, in the order a tie is reported: attn-doctor's id -> module. Each module has TITLE, a
# score(doc) -> (points, evidence) and read(doc) -> the config dict (plus parse(path, text) for one file).
READERS = {
    "simpletuner": "simpletuner", "musubi": "musubi", "blissful": "blissful", "diffusers": "diffusers",
    "ai-toolkit": "ai_toolkit", "sd-scripts": "sd_scripts", "diffusion-pipe": "diffusion_pipe",
    "onetrainer": "onetrainer", "axolotl": "axolotl", "llama-factory": "llamafactory",
    "transformers": "hf_transformers",
}
# Other spellings --trainer accepts.
ALIASES = {"musubi-tuner": "musubi", "blissful-tuner": "blissful", "ai_toolkit": "ai-toolkit", "aitoolkit": "ai-toolkit",
           "ostris": "ai-toolkit", "sd_scripts": "sd-scripts", "kohya": "sd-scripts", "kohya-ss": "sd-scripts",
           "diffusion_pipe": "diffusion-pipe", "llamafactory": "llama-factory", "llama_factory": "llama-factory",
           "trl": "transformers", "hf": "transformers", "one-trainer": "onetrainer"}
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
    except ValueError as e:
        raise UsageError(f"--config: {path} is not valid JSON: {e}") from None


def load_yaml(path: str, text: str):
    import yaml

    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as e:
        where = getattr(e, "problem_mark", None)
        at = f" (line {where.line + 1})" if where is not None else ""
        raise UsageError(f"--config: {path} is not valid YAML{at}: {getattr(e, 'problem', None) or e}".replace("\n", " ")) from None


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


def make_doc(path: str, text: str) -> dict:
    """The file parsed once for every reader: {path, text, fmt, data, keys, flat, words, args, env, scripts}.

    fmt: json | toml | yaml (data is the parsed mapping) or text (a command line, a shell script, an env
    file: words, args, env and scripts say what it holds)."""
    name = os.path.basename(path).lower()
    stripped = text.lstrip()
    doc = {"path": path, "text": text, "name": name, "data": None, "words": [], "args": {}, "env": {}, "scripts": []}
    if name.endswith(".json") or (stripped.startswith("{") and not name.endswith((".toml", ".yaml", ".yml"))):
        data, fmt = load_json(path, text), "json"
    elif name.endswith(".toml"):
        data, fmt = load_toml(path, text), "toml"
    elif name.endswith((".yaml", ".yml")):
        data, fmt = load_yaml(path, text), "yaml"
    else:
        data, fmt = None, "text"
    doc["fmt"] = fmt
    if fmt != "text":
        if data is None:
            data = {}  # an empty YAML file
        if not isinstance(data, dict):
            raise UsageError(f"--config: {path} is {fmt.upper()} but not an object of trainer settings "
                             f"(it holds a {type(data).__name__})")
        doc["data"] = data
        doc["keys"] = _all_keys(data)
        doc["flat"] = flatten(data)
        return doc
    doc["env"] = env_of(text)
    doc["expanded"] = expand(text, doc["env"])
    doc["words"] = tokens(doc["expanded"])
    doc["args"] = args_of(doc["words"])
    doc["scripts"] = [os.path.basename(m.group(1)) for m in _SCRIPT.finditer(text)]
    doc["keys"] = set(doc["args"]) | set(doc["env"])
    doc["flat"] = dict(doc["args"])
    return doc


def score_keys(keys, strong=(), shared=(), common=()) -> tuple[float, list[str]]:
    """Points and evidence for the keys a reader knows: its own keys, shared ones, common ones."""
    own = sorted(k for k in keys if k in strong)
    some = sorted(k for k in keys if k in shared and k not in strong)
    pts = STRONG * len(own) + SHARED * len(some) + COMMON * sum(1 for k in keys if k in common and k not in strong
                                                                and k not in shared)
    return pts, own + some  # evidence: its own keys first


def detect(path: str, text: str, trainer: str | None = None) -> tuple[str, dict, dict]:
    """(reader id, doc, detection) for a file: the reader that recognises most of it, or the one --trainer names.

    detection: {trainer, title, by ("--trainer" | "content"), score, evidence (the keys and values it recognised),
    runner_up, runner_up_score}."""
    doc = make_doc(path, text)
    scores = []
    for name in READERS:
        pts, ev = _module(name).score(doc)
        scores.append((pts, name, ev))
    scores.sort(key=lambda s: -s[0])  # stable: READERS order breaks exact ties
    if trainer:
        name = trainer_name(trainer)
        pts, ev = next((p, e) for p, n, e in scores if n == name)
        return name, doc, {"trainer": name, "title": _module(name).TITLE, "by": "--trainer", "score": pts, "evidence": ev[:12],
                           "runner_up": None, "runner_up_score": None}
    (best, name, ev), (second, other, ev2) = scores[0], scores[1]
    if best < MIN_SCORE and not (second > 0 and best - second < MARGIN):
        raise UsageError(f"--config: {path} is not a trainer config attn-doctor recognises "
                         f"(it reads {supported()})")
    if best - second < MARGIN:
        raise UsageError(f"--config: {path} fits {_module(name).TITLE} ({', '.join(ev[:4])}) and "
                         f"{_module(other).TITLE} ({', '.join(ev2[:4])}) about equally: say which with "
                         f"--trainer {name} or --trainer {other}")
    return name, doc, {"trainer": name, "title": _module(name).TITLE, "by": "content", "score": best, "evidence": ev[:12],
                       "runner_up": other if second > 0 else None, "runner_up_score": second if second > 0 else None}


def load(path: str, trainer: str | None = None) -> dict:
    """Read a trainer config into the dict described above (trainer: --trainer's value, or None to detect)."""
    if trainer:
        trainer_name(trainer)  # an unknown name is the first thing to say
    text = read_text(path)
    name, doc, detection = detect(path, text, trainer)
    try:
        cfg = _module(name).read(doc)
    except (AttributeError, KeyError, TypeError) as e:  # --trainer named a reader for another kind of file
        if detection["by"] != "--trainer":
            raise
        raise UsageError(f"--config: {path} is not a {_module(name).TITLE} config that attn-doctor can read "
                         f"({doc['fmt']}: {type(e).__name__})") from None
    cfg["path"] = os.path.abspath(path)
    cfg["detected"] = detection
    return finish(cfg)


def load_toml(path: str, text: str) -> dict:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    try:
        return tomllib.loads(text)
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
    """A setting with a value: not missing, not empty, not a bare flag (True) standing where a value belongs."""
    return value is not None and value is not True and value != ""


def as_bool(value) -> bool:
    """A config value as Python's argparse-from-TOML truthiness sees it (musubi): bool(value)."""
    return bool(value)


def as_int(value) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None
