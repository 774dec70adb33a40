"""Issue 24, round 54m: a measure-only fresh set of users' trainer configs and launch scripts (helper cfg54m, session 12,
2026-11-29).

fixtures/configs/round54m/ (see its README: users' files from repositories on the train side of the split, taken as the
look-ups returned them, labelled from the trainers' own source; no reader was run on them by the helper) is not read
file by file here, and no measured figure is held: the lead measures the set (at the session's start commit and at its
end). What is checked is the format:
- every file has its expect file, well formed (the staged fields, capture date, a 40-digit commit, a label of the right
  types and values), its repository on the readers' side of the split and not a trainer's own, the file in the folder its
  trainer names and named after its source, `refused` exactly for files no claimed trainer reads;
- the set keeps its size (floors = what was gathered), and keeps files of both kinds of trainer (diffusion / video and
  LLM) and of refusals;
- no repository is shared with another folder under fixtures/configs/ (held-out aside, and never listed).
While the set is measure-only, benchmarks/configs_refusals.py (MEASURE_ONLY), benchmarks/configs_robustness.py
(NOT_TRAINING) and tests/test_configs_cfg33.py (_own_files) keep their readers out of this folder."""

from __future__ import annotations

from configs_corpus import check_blind_round, repo_of, repos_outside
from configs_corpus import CONFIGS as CORPUS, expect, files

ROOT = CORPUS / "round54m"
FILES = files(ROOT)
# the counts gathered (README): files, of them claimed and to refuse, repositories
FILES_MIN, CLAIMED_MIN, REFUSED_MIN, REPOS_MIN = 34, 17, 17, 19
DIFFUSION = {"musubi-tuner", "blissful-tuner", "sd-scripts", "ai-toolkit", "diffusion-pipe", "onetrainer", "simpletuner",
             "diffusers"}


def test_the_set_is_there_well_formed_and_on_the_readers_side_of_the_split():
    check_blind_round(FILES, files_min=FILES_MIN, claimed_min=CLAIMED_MIN, refused_min=REFUSED_MIN, repos_min=REPOS_MIN,
                      captured="2026-11-29")


def test_every_expect_file_has_its_corpus_file():
    for e in ROOT.rglob("*.expect.toml"):
        assert e.with_name(e.name[: -len(".expect.toml")]).is_file(), e


def test_the_set_keeps_its_mix():
    """What the README counts: diffusion / video trainers' files (7), LLM trainers' files (10), refusals (17)."""
    trainers = [expect(p)["trainer"] for p in FILES]
    assert sum(t in DIFFUSION for t in trainers) >= 7
    assert sum(t not in DIFFUSION and not t.startswith("unclaimed:") and t != "none" for t in trainers) >= 10
    assert sum(t.startswith("unclaimed:") or t == "none" for t in trainers) >= 17


def test_no_repository_is_shared_with_another_set():
    """round54m's repositories are fresh: none of them feeds fixtures/configs/real/, another round or a loose expect
    file at the top of fixtures/configs/ (held-out aside, and never listed)."""
    mine = {repo_of(expect(p)["source"]) for p in FILES}
    others = repos_outside("round54m")
    assert not mine & others, sorted(mine & others)


def test_the_readers_of_the_training_sets_keep_out_of_it():
    """A measure-only round is read by nobody but the lead's measurements: the benchmarks and tests that read every
    training folder name it among the folders they skip."""
    root = CORPUS.parents[1]
    assert "round54m" in (root / "benchmarks/configs_refusals.py").read_text(encoding="utf-8").split("MEASURE_ONLY = ", 1)[1].split("\n", 1)[0]
    assert "round54m" in (root / "benchmarks/configs_robustness.py").read_text(encoding="utf-8").split("NOT_TRAINING = ", 1)[1].split("\n", 1)[0]
    sets_line = next(line for line in (root / "tests/test_configs_cfg33.py").read_text(encoding="utf-8").splitlines()
                     if line.strip().startswith("sets = ["))
    assert '"round54m"' in sets_line
