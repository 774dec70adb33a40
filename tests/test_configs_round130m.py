"""Issue 24, round 130m: a fresh set of trainer configs and launch lines (helper cfg130m, session 32, 2026-12-02):
whole files of users' repositories (`owner/repo:path` at a commit): launches of the repositories' copies of diffusers'
examples (SD 1.5 / 2.1 / SDXL / SD3.5, LoRA, DreamBooth, ControlNet, full fine-tunes), sd-scripts FLUX launches,
ai-toolkit job YAMLs users wrote beside their copies of ai-toolkit, an ms-swift launch, a LLaMA-Factory YAML,
transformers / TRL and Unsloth scripts, and the projects' own scripts, mlx-lm runs and DeepSpeed configs to refuse.
Measure-only until the lead measured it (sessions 32-33, twice, equal: 22 / 22 claimed files right in all four fields
in the flat and the repository layout, 15 / 15 refused, none read as a trainer); training material since cfg132
(session 33).

fixtures/configs/round130m/ (37 files of 34 repositories, labelled from the trainers' own source before any reader ran:
its README) is read as every staged round is (configs_corpus.staged_round: each file where the set keeps it and in the
repository layout, the format, floors, freshness and claims); a file read wrong would be a strict xfail with why (none
is), and the README's "Read after its measurement" says what the measurement found."""

from __future__ import annotations

from configs_corpus import assert_floors, assert_mix, assert_no_key, assert_no_repository_held_out
from configs_corpus import assert_source_caps, assert_training, CONFIGS as CORPUS, files, MEASURE_ONLY, staged_round

ROOT = CORPUS / "round130m"
FILES = files(ROOT)

# no file is read wrong in either layout at the lead's two measurements (9be101e2, 52c3374d)
STILL_WRONG_IN_BOTH: dict[str, str] = {}
STILL_WRONG: dict[str, str] = {**STILL_WRONG_IN_BOTH}
# refused, as the benchmark counts them, in words other than the label's `refused` (both layouts): none
OTHER_WORDS: dict[str, str] = {}

# test_real_file, test_real_file_in_its_repository_layout, the format and floors, freshness, claims: configs_corpus
globals().update(staged_round("round130m", files_min=37, claimed_min=22, refused_min=15, repos_min=34,
                              captured="2026-12-02", still_wrong=STILL_WRONG,
                              still_wrong_in_layout=STILL_WRONG_IN_BOTH, claimed_by="cfg130m", unread=MEASURE_ONLY))


def test_the_readings_keep_their_floors():
    """The lead's figures as floors (22 / 22 claimed right in all four fields in both layouts, 15 / 15 refused as the
    benchmark counts them and in the labels' words): the xfail lists above are the misses (none), and no more."""
    assert_floors(FILES, STILL_WRONG, STILL_WRONG_IN_BOTH, OTHER_WORDS, claimed=(22, 22), refused=(15, 15),
                  in_words=(15, 15))


def test_no_source_is_held_out():
    """The split's own verdicts: a repository neither held out by its hash nor a namesake of a repository the held-out
    corpus drew on (scripts/heldout_split_configs.py)."""
    assert_no_repository_held_out(FILES)


# the labels as gathered (README): claimed trainers, then the refusals by kind
MIX = {"diffusers": 11, "sd-scripts": 2, "ai-toolkit": 2, "transformers": 3, "unsloth": 2, "ms-swift": 1,
       "llama-factory": 1, "unclaimed:user-script": 9, "unclaimed:mlx-lm": 3, "unclaimed:deepspeed": 3}


def test_the_set_keeps_its_mix_and_its_caps():
    """What the README counts: 37 files, 22 claimed (7 trainers, 15 of them diffusion files) and 15 to refuse
    (3 kinds), from 34 users' repositories; MIX holds the floors by label, as gathered. At most 2 files of one
    repository were taken (the cap checked is 3)."""
    assert_mix(FILES, MIX, diffusion_min=15, refused_min=15)
    assert_source_caps(FILES)


def test_the_readers_of_the_training_sets_read_it():
    """A training round is read by the benchmarks and tests that read every training folder: none of them names it
    among the folders they skip any more (it was measure-only until the lead's measurements of sessions 32-33)."""
    assert_training("round130m")


def test_no_file_holds_a_key():
    """No file of the set carries a Hugging Face token or an API key."""
    assert_no_key(FILES)
