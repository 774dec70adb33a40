"""Issue 24, round 95m: a measure-only fresh set of users' trainer configs and launch scripts (helper cfg95m, session 23,
2026-11-30).

fixtures/configs/round95m/ (see its README: users' files from repositories on the train side of the split, taken as the
look-ups returned them, labelled from the trainers' own source; no reader was run on them by the helper) is not read
file by file here, and no measured figure is held: the lead measures the set (at the session's start commit and at its
end). What is checked is the format:
- every file has its expect file, well formed (the staged fields, capture date, a 40-digit commit, a label of the right
  types and values), its repository on the readers' side of the split and not a trainer's own, the file in the folder its
  trainer names and named after its source, `refused` exactly for files no claimed trainer reads;
- the set keeps its size (floors = what was gathered), and keeps its mix of trainers (transformers / TRL, Unsloth,
  ms-swift) and of refusals;
- no repository is shared with another folder under fixtures/configs/ (held-out aside, and never listed), and every one
  was claimed for this round in the session's claims file (where that file is on this machine);
While the set is measure-only, benchmarks/configs_refusals.py's MEASURE_ONLY names it: every reader of the training
folders takes its skips from that one list."""

from __future__ import annotations


import pytest

from configs_corpus import assert_no_key, assert_no_repository_held_out, CLAIMS, assert_measure_only, check_blind_round, repo_of, repos_outside
from configs_corpus import CONFIGS as CORPUS, expect, files

ROOT = CORPUS / "round95m"
FILES = files(ROOT)
# the counts gathered (README): files, of them claimed and to refuse, repositories
FILES_MIN, CLAIMED_MIN, REFUSED_MIN, REPOS_MIN = 58, 28, 30, 40


def test_the_set_is_there_well_formed_and_on_the_readers_side_of_the_split():
    check_blind_round(FILES, files_min=FILES_MIN, claimed_min=CLAIMED_MIN, refused_min=REFUSED_MIN, repos_min=REPOS_MIN,
                      captured="2026-11-30")


def test_no_repository_is_held_out_by_its_hash_or_its_name():
    """The split's own verdict for each repository, both halves of it: not held out by its hash, and not a namesake of a
    repository the held-out corpus drew on (scripts/heldout_split_configs.py reads only those names). The helper's
    look-up script compared the split's verdict field (the second tab-separated field) exactly with `train`."""
    assert_no_repository_held_out(FILES)


def test_every_expect_file_has_its_corpus_file():
    for e in ROOT.rglob("*.expect.toml"):
        assert e.with_name(e.name[: -len(".expect.toml")]).is_file(), e


def test_the_set_keeps_its_mix():
    """What the README counts: claimed trainers' files (transformers / TRL 15, Unsloth 10, ms-swift 3) and refusals (30:
    users' own settings files and loops (DreamBooth loops and settings over diffusers' models among them), a LightningCLI config of a user's own framework, an MLX framework's settings,
    an Accelerate launcher config, a Nix expression of invoke-training settings)."""
    trainers = [expect(p)["trainer"] for p in FILES]
    assert sum(t == "transformers" for t in trainers) >= 15
    assert sum(t == "unsloth" for t in trainers) >= 10
    assert sum(t == "ms-swift" for t in trainers) >= 3
    assert sum(t.startswith("unclaimed:") or t == "none" for t in trainers) >= 30


def test_no_repository_is_shared_with_another_set():
    """round95m's repositories are fresh: none of them feeds fixtures/configs/real/, another round or a loose expect
    file at the top of fixtures/configs/ (held-out aside, and never listed; round 92m, measure-only or freed, counts by
    its `source` lines)."""
    mine = {repo_of(expect(p)["source"]) for p in FILES}
    others = repos_outside("round95m")
    assert not mine & others, sorted(mine & others)


@pytest.mark.skipif(not CLAIMS.is_file(), reason="the session's claims file is not on this machine")
def test_every_repository_was_claimed_for_this_round():
    """Each repository was claimed by cfg95m, and by nobody else, before it was opened."""
    lines = CLAIMS.read_text(encoding="utf-8").splitlines()
    for repo in sorted({expect(p)["source"].split(":", 1)[0] for p in FILES}):
        owners = [line.split()[2] for line in lines if line.startswith(f"REPO {repo} ")]
        assert owners == ["cfg95m"], (repo, owners)


def test_the_readers_of_the_training_sets_keep_out_of_it():
    """A measure-only round is read by nobody but the lead's measurements: the benchmarks and tests that read every
    training folder name it among the folders they skip."""
    assert_measure_only("round95m")


def test_no_file_holds_a_key():
    """No file of the set carries a Hugging Face token or an API key (no .env file was taken; scripts read their W&B
    and Hub keys from the environment)."""
    assert_no_key(FILES)
