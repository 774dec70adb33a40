"""What the trainer-config corpus tests share (fixtures/configs/: the held-out set and the staged rounds): the
trainer names the expect files use, reading an expect file, the split script, and the two checks every staged
file gets (its expect file on the readers' side of the split; attn-doctor reads it as the expect file says)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

from attn_doctor import configs
from attn_doctor.model import UsageError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = ROOT / "fixtures" / "configs"
# the trainer names fixtures/configs/real/README.md uses for the trainers attn-doctor claims
CLAIMED = {"musubi-tuner", "blissful-tuner", "sd-scripts", "ai-toolkit", "diffusion-pipe", "onetrainer", "simpletuner",
           "diffusers", "axolotl", "llama-factory", "transformers", "torchtune", "litgpt", "ms-swift", "unsloth"}
# the expect files' trainer names -> attn-doctor's reader ids
TRAINER = {"musubi-tuner": "musubi", "blissful-tuner": "blissful"}
KEYS = {"source", "commit", "captured", "trainer", "required", "dtype", "compile_mode", "why"}


def files(*dirs: Path) -> list[Path]:
    """Every corpus file under `dirs` (not the expect files, not the READMEs)."""
    return sorted(p for d in dirs for p in d.rglob("*")
                  if p.is_file() and not p.name.endswith(".expect.toml") and p.name != "README.md")


def expect(p: Path) -> dict:
    return tomllib.loads(p.with_name(p.name + ".expect.toml").read_text(encoding="utf-8"))


def split_module():
    spec = importlib.util.spec_from_file_location("heldout_split_configs", ROOT / "scripts" / "heldout_split_configs.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def check_staged_expect(p: Path, e: dict, split) -> str:
    """A staged file's expect file: well formed, its repository on the readers' side of the split, the file in
    the folder its trainer names, refused exactly when no claimed trainer reads it. Returns the trainer."""
    assert KEYS <= set(e), p
    repo = e["source"].split(":", 1)[0]
    assert not split.held_out(repo) and repo not in split.TRAINER_REPOS, repo
    t = e["trainer"]
    assert t in CLAIMED or t == "none" or re.fullmatch(r"unclaimed:[a-z0-9][a-z0-9.-]*", t), t
    assert p.parent.name == (t if t in CLAIMED or t == "none" else "unclaimed-" + t.split(":", 1)[1])
    assert bool(e.get("refused")) == (t not in CLAIMED), p
    return t


def repo_of(source: str) -> str:
    """The repository of an expect file's source (`owner/repo:path`, `owner/repo#N`), lower-cased."""
    return source.split(":", 1)[0].split("#")[0].lower()


def repos_outside(folder: str) -> set[str]:
    """The repositories every other set under fixtures/configs/ draws from (the rounds, real/ and the loose files at
    the top), held-out aside and never read: a fresh set shares none of them."""
    paths = [e for d in CONFIGS.iterdir() if d.is_dir() and d.name not in (folder, "heldout")
             for e in d.rglob("*.expect.toml")] + list(CONFIGS.glob("*.toml"))
    return {repo_of(line.split("\"")[1]) for e in paths for line in e.read_text(encoding="utf-8").splitlines()
            if line.startswith("source = \"")}


def rel(p: Path) -> str:
    """A corpus file's test id: its path under fixtures/configs/."""
    return p.relative_to(CONFIGS).as_posix()


def write(tmp_path: Path, name: str, text: str) -> str:
    """A variant written for a test, byte for byte (no newline translation), as a file `check --config` reads."""
    p = tmp_path / name
    p.write_text(text, encoding="utf-8", newline="")
    return str(p)


def reading(cfg: dict) -> tuple:
    """What the corpus labels of a read config: (trainer, required, dtype, compile mode)."""
    return cfg["detected"]["trainer"], sorted(cfg["required"]), cfg["dtype"] or "", cfg["compile_mode"] or "none"


def read(tmp_path: Path, name: str, text: str) -> tuple:
    return reading(configs.load(write(tmp_path, name, text)))


def refusal(tmp_path: Path, name: str, text: str) -> str:
    """The one-line refusal of a variant, without the test's own path (the words asked for must come from the
    message, not from tmp_path)."""
    with pytest.raises(UsageError) as err:
        configs.load(write(tmp_path, name, text))
    msg = str(err.value)
    assert "\n" not in msg and msg.startswith("--config: ")
    return msg.replace(str(tmp_path), "")


def check_read_as_expected(path: Path, labelled: Path | None = None) -> None:
    """`check --config FILE` reads it as its expect file says: refused in one line with the expected words, or
    (trainer, required, dtype, compile mode) as labelled. labelled: the set's file whose expect file labels it, when
    `path` is a copy of it elsewhere (in_repository_layout)."""
    e = expect(labelled or path)
    if e.get("refused"):
        with pytest.raises(UsageError) as err:
            configs.load(str(path))
        msg = str(err.value)
        assert "\n" not in msg and msg.startswith("--config: ")
        assert e["refused"] in msg
        return
    got = reading(configs.load(str(path)))
    want = (TRAINER.get(e["trainer"], e["trainer"]), sorted(e["required"]), e["dtype"], e["compile_mode"] or "none")
    assert got == want


BLIND_BACKENDS = {"sdpa", "flex", "fa2", "fa3", "cute", "sage", "xformers"}
BLIND_DTYPES = {"", "bfloat16", "float16", "float32"}
BLIND_MODES = {"", "default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs"}


def check_blind_round(paths: list[Path], *, files_min: int, claimed_min: int, refused_min: int, repos_min: int,
                      captured: str = "2026-11-28") -> None:
    """The format every measure-only config round keeps (26m, 29m, 33m): each expect file well formed (the staged
    fields, capture date, a 40-digit commit, a label of the right types and values, `refused` exactly for files no
    claimed trainer reads), each file named after its source, and the set's size floors."""
    split = split_module()
    claimed = refused = 0
    repos = set()
    for p in paths:
        e = expect(p)
        t = check_staged_expect(p, e, split)
        assert e["captured"] == captured and re.fullmatch(r"[0-9a-f]{40}", e["commit"]), p
        assert isinstance(e["required"], list) and set(e["required"]) <= BLIND_BACKENDS, p
        assert len(e["required"]) == len(set(e["required"])), p
        assert e["dtype"] in BLIND_DTYPES and e["compile_mode"] in BLIND_MODES, p
        assert e["why"].strip(), p
        if t not in CLAIMED:  # a refused file asks for nothing
            assert e["required"] == [] and e["dtype"] == "" and e["compile_mode"] == "", p
            assert e["refused"].strip(), p
        repo = e["source"].split(":", 1)[0].split("#")[0]
        assert p.name == repo.replace("/", "__") + "__" + e["source"].split(":", 1)[1].replace("/", "__"), p
        repos.add(repo)
        claimed += t in CLAIMED
        refused += t not in CLAIMED
    assert len(paths) >= files_min and claimed >= claimed_min and refused >= refused_min and len(repos) >= repos_min, \
        (len(paths), claimed, refused, len(repos))


def in_repository_layout(paths: list[Path], root: Path) -> dict[str, Path]:
    """Every file of a set copied to its source path under root, OWNER/REPO/PATH, as a user's checkout has it and as
    `configs_heldout.py --layout repo` reads it (benchmarks/configs_repo_layout.py: no expect file beside it, a second
    file at a path kept flat): {rel(file): where it now is}. check_read_as_expected(where, labelled=file) reads it."""
    spec = importlib.util.spec_from_file_location("configs_repo_layout", ROOT / "benchmarks" / "configs_repo_layout.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return {rel(p): dest for p, dest in mod.repository_layout(paths, CONFIGS, root).items()}
