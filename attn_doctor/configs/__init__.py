"""Trainer configs (`check --config PATH`): what the user's training job will ask of the attention stack.

One module per trainer turns its config into one plain dict (JSON-round-trippable, so a saved
report keeps it and `check --from` re-evaluates it):

    trainer, trainer_title, path, format      which trainer, which file, json | toml | env | cmdline
    attention: [{name, setting, backend, known, kind, masks, via_diffusers, sdpa_kernel, hub_repo,
                 kernels_min, mask_alternative, suggestion, fix}]
                                              every backend the config names, as the trainer spells it;
                                              backend is attn-doctor's name (sdpa, flex, cute, fa2, fa3,
                                              sage, xformers) or None; kind: local | hub | other;
                                              masks: yes | refused (raises on a mask) | dropped (ignores it)
    required                                  backends that must be ok (as if --require)
    family, head_dims, dtype, mixed_precision what the smoke tests should use (dtype: torch's name)
    compile: {enabled, mode, setting}, compile_mode
                                              compile_mode feeds the allocator check ("none": no compile)
    batch_size, split_attn, sage_training, unet, fixes
                                              what checks/trainer.py needs; fixes holds config snippets in
                                              the trainer's own syntax for the knowledge entries' fix lines

Reading never imports the trainer. Unknown keys are ignored; a file that cannot be read is a
UsageError (one line, exit 2).
"""

from __future__ import annotations

import os
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


def detect(path: str, text: str) -> str:
    """Which reader fits: simpletuner | musubi | diffusers, from the name first, then the content."""
    from . import diffusers, musubi, simpletuner

    name = os.path.basename(path).lower()
    stripped = text.lstrip()
    if name.endswith(".json") or stripped.startswith("{"):
        return "simpletuner"  # of the trainers read here, only SimpleTuner keeps its config in JSON
    if name.endswith(".toml"):
        data = load_toml(path, text)
        if simpletuner.looks_like(data):
            return "simpletuner"
        if musubi.looks_like(data):
            return "musubi"
        raise UsageError(f"--config: {path} is TOML but neither a SimpleTuner config (attention_mechanism, "
                         "model_family, ...) nor a musubi-tuner one (sdpa, flash_attn, dit, ...)")
    if musubi.command_script(text) is not None or musubi.mentions_flags(text):
        return "musubi"
    if simpletuner.looks_like_env(text) or simpletuner.looks_like_cmdline(text):
        return "simpletuner"
    if diffusers.looks_like(text):
        return "diffusers"
    raise UsageError(f"--config: cannot tell which trainer {path} is for (read: SimpleTuner config.json/.toml/"
                     "config.env, musubi-tuner TOML or command line, a DIFFUSERS_ATTN_BACKEND env file)")


def load(path: str) -> dict:
    """Read a trainer config into the dict described above."""
    from . import diffusers, musubi, simpletuner

    text = read_text(path)
    kind = detect(path, text)
    reader = {"simpletuner": simpletuner, "musubi": musubi, "diffusers": diffusers}[kind]
    cfg = reader.parse(path, text)
    cfg["path"] = os.path.abspath(path)
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
