"""Issue 24, round 135m: a fresh set of trainer configs and launch lines (helper cfg135m, session 34, 2026-12-02): whole
files of users' repositories (`owner/repo:path` at a commit): diffusion-pipe TOMLs of users' forks, launches of
repositories' copies of diffusers' examples, LLaMA-Factory and ms-swift YAMLs and launch lines, Unsloth and TRL /
transformers scripts; and, to refuse, the projects' own scripts, a dataset config and other frameworks' configs.
Measure-only until the lead measured it three times, equal (64867602, c144bb6b, c5815bfd: 26 / 26 claimed files right in
all four fields in the flat and the repository layout, 13 / 13 refused); training material since session 35.

fixtures/configs/round135m/ (39 files of 34 repositories, labelled from the trainers' own source before any reader ran:
its README) is read as every staged round is (configs_corpus.staged_round: each file where the set keeps it and in the
repository layout, the format, floors, freshness and claims); a file read wrong is a strict xfail with why."""

from __future__ import annotations

from configs_corpus import assert_floors, assert_mix, assert_no_key, assert_no_repository_held_out
from configs_corpus import assert_source_caps, assert_training, CONFIGS as CORPUS, files, MEASURE_ONLY, staged_round

ROOT = CORPUS / "round135m"
FILES = files(ROOT)

# refused, as the benchmark counts them, in words other than the label's `refused` (both layouts): the launch is refused
# as a run of a script no claimed trainer ships, asking for that script, where the label names the framework or calls the
# file no trainer config (strict xfails: reading one in the label's words makes its test fail, so its entry goes)
# (the DiffSynth-Studio launch and pknandi's staged run.sh are refused in their labels' words since cfg138: DiffSynth-
# Studio's own options name it, and a pipeline's step with a --train switch is its job: tests/test_configs_cfg138.py)
OTHER_WORDS: dict[str, str] = {
    "round135m/unclaimed-user-script/Ziyuli1121__RLEPD__train_flux.sh":
        "refused as a launch of fake_train.py; the label says not a trainer config",
}
STILL_WRONG_IN_BOTH: dict[str, str] = {**OTHER_WORDS}
STILL_WRONG: dict[str, str] = {**STILL_WRONG_IN_BOTH}

# test_real_file, test_real_file_in_its_repository_layout, the format and floors, freshness, claims: configs_corpus
globals().update(staged_round("round135m", files_min=39, claimed_min=26, refused_min=13, repos_min=34,
                              captured="2026-12-02", still_wrong=STILL_WRONG,
                              still_wrong_in_layout=STILL_WRONG_IN_BOTH, claimed_by="cfg135m", unread=MEASURE_ONLY))


def test_the_readings_keep_their_floors():
    """The lead's figures as floors (26 / 26 claimed right in all four fields in both layouts, 13 / 13 refused as the
    benchmark counts them, 10 / 13 in the labels' words; 12 / 13 since cfg138)."""
    assert_floors(FILES, STILL_WRONG, STILL_WRONG_IN_BOTH, OTHER_WORDS, claimed=(26, 26), refused=(13, 13),
                  in_words=(12, 12))


def test_no_source_is_held_out():
    """The split's own verdicts: a repository neither held out by its hash nor a namesake of a repository the held-out
    corpus drew on (scripts/heldout_split_configs.py)."""
    assert_no_repository_held_out(FILES)


# the labels as gathered (README): claimed trainers, then the refusals by kind
MIX = {"diffusion-pipe": 4, "diffusers": 3, "llama-factory": 5, "ms-swift": 4, "unsloth": 6, "transformers": 4,
       "unclaimed:user-script": 7, "unclaimed:flow-factory": 1, "unclaimed:torchtitan": 1,
       "unclaimed:diffsynth-studio": 1, "unclaimed:openrlhf": 1, "unclaimed:llama-cookbook": 1, "none": 1}


def test_the_set_keeps_its_mix_and_its_caps():
    """What the README counts: 39 files, 26 claimed (6 trainers, 7 of them diffusion files) and 13 to refuse, from 34
    users' repositories; MIX holds the floors by label, as gathered. At most 2 files of one repository were taken (the
    cap checked is 3)."""
    assert_mix(FILES, MIX, diffusion_min=7, refused_min=13)
    assert_source_caps(FILES)


def test_the_readers_of_the_training_sets_read_it():
    """A training round is read by the benchmarks and tests that read every training folder: none of them names it
    among the folders they skip any more (it was measure-only until the lead's measurements of sessions 34 and 35)."""
    assert_training("round135m")


def test_no_file_holds_a_key():
    """No file of the set carries a Hugging Face token or an API key."""
    assert_no_key(FILES)
