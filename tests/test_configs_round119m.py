"""Issue 24, round 119m: a measure-only fresh set of trainer configs and launch lines (helper cfg121m, session 29,
2026-12-01): texts users pasted in trackers' threads (`owner/repo#N`: the thread is the unit; launches and configs of
LLaMA-Factory, ms-swift, musubi-tuner, sd-scripts (FluxGym's and kohya_ss's logs among them), diffusion-pipe,
torchtune and TRL, and the accelerate / DeepSpeed / dataset configs and other trainers' runs to refuse beside them)
and whole files of two users' repositories (`owner/repo:path` at a commit: a musubi-tuner fork's configs, a
SimpleTuner fork's sweep script, all to refuse).

fixtures/configs/round119m/ (see its README: labelled from the trainers' own source; no reader was run on it by the
helper) is not read file by file here, and no measured figure is held: the lead measures the set (at the session's
start commit and at its end). What is checked is the format:
- every file has its expect file, well formed (the staged fields, capture date, no commit for a thread's file, a label
  of the right types and values), its source on the readers' side of the split (a thread by
  scripts/heldout_split.py, its tracker a trainer's repository or on the train side; a repository by
  scripts/heldout_split_configs.py, no namesake), the file in the folder its trainer names and named after its source,
  `refused` exactly for files no claimed trainer reads;
- the set keeps its size (floors = what was gathered) and its mix, and the per-source caps it was gathered under;
- no thread or repository is shared with another folder under fixtures/configs/ (held-out aside, and never listed),
  and every one was claimed for this round in the session's claims file (where that file is on this machine).
While the set is measure-only, benchmarks/configs_refusals.py's MEASURE_ONLY names it: every reader of the training
folders takes its skips from that one list."""

from __future__ import annotations

import pytest

from configs_corpus import assert_every_expect_file_has_its_file, assert_measure_only, assert_mix, assert_no_key
from configs_corpus import assert_no_repository_held_out, assert_source_caps, check_blind_round, CLAIMS
from configs_corpus import CONFIGS as CORPUS, claim_of, expect, files, shared_with_other_sets

ROOT = CORPUS / "round119m"
FILES = files(ROOT)
# the counts gathered (README): files, of them claimed and to refuse, sources (threads and repositories)
FILES_MIN, CLAIMED_MIN, REFUSED_MIN, REPOS_MIN = 34, 20, 14, 33
# the labels as gathered (README): claimed trainers, then the refusals by kind
MIX = {"diffusers": 1, "llama-factory": 3, "ms-swift": 4, "musubi-tuner": 4, "sd-scripts": 4, "diffusion-pipe": 2, "torchtune": 1,
       "transformers": 1, "none": 4, "unclaimed:finetrainers": 2, "unclaimed:accelerate": 1, "unclaimed:deepspeed": 1,
       "unclaimed:arctictraining": 1, "unclaimed:dlssnr": 1, "unclaimed:h2ogpt": 1, "unclaimed:megatron-deepspeed": 1,
       "unclaimed:mlx-lm": 1, "unclaimed:user-script": 1}
DIFFUSION_MIN = 11


def test_the_set_is_there_well_formed_and_on_the_readers_side_of_the_split():
    """The format (check_blind_round), each expect file beside its file, and the splits' own verdicts: a repository
    neither held out by its hash nor a namesake of a repository the held-out corpus drew on
    (scripts/heldout_split_configs.py); a thread not held out by explain's split (scripts/heldout_split.py), its tracker
    a trainer's own repository or one on the train side."""
    check_blind_round(FILES, files_min=FILES_MIN, claimed_min=CLAIMED_MIN, refused_min=REFUSED_MIN, repos_min=REPOS_MIN,
                      captured="2026-12-01")
    assert_every_expect_file_has_its_file(ROOT)
    assert_no_repository_held_out(FILES)


def test_the_set_keeps_its_mix_and_its_caps():
    """What the README counts: 34 files, 20 claimed (8 trainers, 11 of them diffusion files) and 14 to refuse
    (10 kinds), from 33 sources (31 threads, 2 users' repositories); MIX holds the floors by label, as gathered. At most
    2 files of one thread, 6 of one tracker, 3 of one repository."""
    assert_mix(FILES, MIX, diffusion_min=DIFFUSION_MIN, refused_min=REFUSED_MIN)
    assert_source_caps(FILES)


def test_no_repository_or_thread_is_shared_with_another_set():
    """round119m's sources are fresh: no thread or user's repository of it feeds fixtures/configs/real/, another round
    (the other blind sets included, by their `source` lines) or a loose expect file at the top of
    fixtures/configs/ (held-out aside, and never listed)."""
    shared = shared_with_other_sets(FILES, "round119m")
    assert not shared, sorted(shared)


@pytest.mark.skipif(not CLAIMS.is_file(), reason="the session's claims file is not on this machine")
def test_every_source_was_claimed_for_this_round():
    """Each thread (`THREAD owner/repo#N cfg121m`) and each user's repository (`REPO owner/repo cfg121m`) was claimed
    by cfg121m, and by nobody else, before it was taken."""
    lines = CLAIMS.read_text(encoding="utf-8").splitlines()
    for claim in sorted({claim_of(expect(p)["source"]) for p in FILES}):
        owners = [line.split()[2] for line in lines if line.startswith(claim)]
        assert owners == ["cfg121m"], (claim, owners)


def test_the_readers_of_the_training_sets_keep_out_of_it():
    """A measure-only round is read by nobody but the lead's measurements: the benchmarks and tests that read every
    training folder name it among the folders they skip."""
    assert_measure_only("round119m")


def test_no_file_holds_a_key():
    """No file of the set carries a Hugging Face token or an API key."""
    assert_no_key(FILES)
