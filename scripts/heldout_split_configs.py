"""Which repositories the held-out corpus of trainer configs (issue 24) may take files from.

The split is by source repository and was fixed before anything was gathered: `owner/repo` (as GitHub
spells it) is held out iff int(sha1("owner/repo")) % 3 == 0. Files under fixtures/configs/heldout/ come
only from held-out repositories; the readers are written from files of the other two thirds, so no
repository feeds both. A trainer's own repository (its examples folders) and a repository that already has a
file under fixtures/configs/real/ never go into the held-out set.

    python scripts/heldout_split_configs.py owner/repo [owner/repo ...]

prints `held-out`, `train`, or why the repository can never be held out, for each, and exits 0. A repository on the
`train` side whose name (after the owner) is that of a repository the held-out corpus drew on is printed as held-out
too: it is most likely a fork or copy of it (round 20m found xingyux12/musubi-tuner-scripts, a fork of a held-out
repository), and a fork's files would carry held-out material into the readers. Only the names are read from the
held-out corpus, and only here."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "configs" / "real"
HELDOUT = REAL.parent / "heldout"

# The trainers' own repositories: their examples are the readers' material, never held out.
TRAINER_REPOS = frozenset({
    "kohya-ss/musubi-tuner", "Sarania/blissful-tuner", "kohya-ss/sd-scripts", "bmaltais/kohya_ss",
    "ostris/ai-toolkit", "bghira/SimpleTuner", "huggingface/diffusers", "tdrussell/diffusion-pipe",
    "Nerogar/OneTrainer", "axolotl-ai-cloud/axolotl", "OpenAccess-AI-Collective/axolotl", "hiyouga/LLaMA-Factory",
    "huggingface/transformers", "huggingface/trl",
})


def held_out(repo: str) -> bool:
    """True when `owner/repo` belongs to the held-out third."""
    return int(hashlib.sha1(repo.encode()).hexdigest(), 16) % 3 == 0


def seen_repos() -> set[str]:
    """Repositories that already have a file in fixtures/configs/real/ or a round's staged set (round3a/, round3a2/ ...):
    the readers' corpus."""
    out = set()
    for p in [*REAL.rglob("*.expect.toml"), *REAL.parent.glob("round*/**/*.expect.toml")]:
        for line in p.read_text(encoding="utf-8").splitlines():
            if line.startswith("source = \""):
                out.add(line.split("\"")[1].split(":")[0].split("#")[0])
    return out


def heldout_names() -> set[str]:
    """The names (after the owner, lower-cased) of the repositories the held-out corpus took files from."""
    out = set()
    for p in HELDOUT.rglob("*.expect.toml"):
        for line in p.read_text(encoding="utf-8").splitlines():
            if line.startswith("source = \""):
                repo = line.split("\"")[1].split(":")[0].split("#")[0]
                out.add(repo.partition("/")[2].lower())
    return out


def namesake(repo: str, names: set[str] | None = None) -> bool:
    """True when `owner/repo` is on the train side but bears the name of a held-out repository (a fork, a copy)."""
    names = heldout_names() if names is None else names
    return not held_out(repo) and repo.partition("/")[2].lower() in names


def eligible(repo: str, seen: set[str] | None = None) -> bool:
    """A repository files may be taken from for the held-out corpus."""
    seen = seen_repos() if seen is None else seen
    return held_out(repo) and repo not in TRAINER_REPOS and repo not in seen


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: python scripts/heldout_split_configs.py owner/repo [owner/repo ...]", file=sys.stderr)
        return 2
    seen, names = seen_repos(), heldout_names()
    for repo in argv:
        if repo in TRAINER_REPOS:
            verdict = "trainer's own repository (never held out)"
        elif namesake(repo, names):
            verdict = "held-out (it bears the name of a repository the held-out corpus drew on: a fork or copy; never use it)"
        elif repo in seen:
            verdict = "already in fixtures/configs/real or a round's set (never held out)"
        else:
            verdict = "held-out" if held_out(repo) else "train"
        print(f"{repo}\t{verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
