"""Issue 24, round 123m: a fresh set of trainer configs and launch lines (helper cfg125m, session 30, 2026-12-01):
whole files of users' repositories (`owner/repo:path` at a commit): launches of diffusers' examples and of
repositories' copies of them, sd-scripts launches and --config_file TOMLs, ai-toolkit job YAMLs (two that forks'
owners wrote for their own model extensions, one written by a shell heredoc), TRL / Unsloth scripts, and the
projects' own scripts and settings, FastChat's trainer, an mlx-lm run and DeepSpeed configs to refuse beside them.
Measure-only until the lead measured it (sessions 30-32, five reads, all equal: flat 15 / 19 claimed files right in
all four fields (trainer 19, required 16, dtype 17, compile 19), repository layout 17 / 19, 16 / 16 refused, none read
as a trainer); training material since cfg127 (session 32).

fixtures/configs/round123m/ (35 files of 29 repositories, labelled from the trainers' own source before any reader ran:
its README) is read as every staged round is (configs_corpus.staged_round: each file where the set keeps it and in the
repository layout, the format, floors, freshness and claims); a file still read wrong is a strict xfail with why, and
the README's "Read after its measurement" has each miss of the measurement and its class."""

from __future__ import annotations

from configs_corpus import assert_floors, assert_mix, assert_no_key, assert_no_repository_held_out
from configs_corpus import assert_source_caps, assert_training, CONFIGS as CORPUS, files, MEASURE_ONLY, staged_round

ROOT = CORPUS / "round123m"
FILES = files(ROOT)

_S = "round123m/sd-scripts/"
_FLAT = "labelled through {}, which the set keeps under its flattened name (read in the repository layout)"
# (none in both layouts since cfg127: the two ai-toolkit forks' krea2 / i1 job YAMLs, an arch whose own blocks call
# torch SDPA whatever the flags and an arch ai-toolkit never shipped, on its extension template's SDPA;
# tests/test_configs_cfg127.py)
STILL_WRONG_IN_BOTH: dict[str, str] = {}
STILL_WRONG = {**STILL_WRONG_IN_BOTH,
    _S + "Kobiesan__Classic-WoW-Icon-Generator__training__train_lora.sh":
        _FLAT.format("training/lora_sd15.toml (the --config_file the launch names: sdpa = true, mixed_precision fp16)"),
    _S + "Oswald-Hao__ai-manju__lora__train.sh":
        _FLAT.format("lora/config/flux_lora_train.toml (the --config_file: mixed_precision bf16; FLUX's SDPA is read "
                     "flat too)"),
}
# refused, as the benchmark counts them, in words other than the label's `refused` (both layouts): none
OTHER_WORDS: dict[str, str] = {}

# test_real_file, test_real_file_in_its_repository_layout, the format and floors, freshness, claims: configs_corpus
globals().update(staged_round("round123m", files_min=35, claimed_min=19, refused_min=16, repos_min=29,
                              captured="2026-12-01", still_wrong=STILL_WRONG,
                              still_wrong_in_layout=STILL_WRONG_IN_BOTH, claimed_by="cfg125m", unread=MEASURE_ONLY))


def test_the_readings_keep_their_floors():
    """The lead's figures as floors (flat 15 / 19 claimed right in all four fields, repository layout 17 / 19, 16 / 16
    refused as the benchmark counts them, 14 / 16 in the labels' words in both); 17 / 19 flat and 19 / 19 in the
    repository layout after cfg127's two ai-toolkit mechanisms, 16 / 16 in the labels' words once two labels' words
    (a path where the refusal names the script's file name) were relabelled, the verdicts unchanged: the xfail lists
    above are the misses, and no more."""
    assert_floors(FILES, STILL_WRONG, STILL_WRONG_IN_BOTH, OTHER_WORDS, claimed=(17, 19), refused=(16, 16),
                  in_words=(16, 16))


def test_no_source_is_held_out():
    """The split's own verdicts: a repository neither held out by its hash nor a namesake of a repository the held-out
    corpus drew on (scripts/heldout_split_configs.py)."""
    assert_no_repository_held_out(FILES)


# the labels as gathered (README): claimed trainers, then the refusals by kind
MIX = {"diffusers": 7, "sd-scripts": 6, "ai-toolkit": 3, "transformers": 2, "unsloth": 1,
       "unclaimed:user-script": 12, "unclaimed:deepspeed": 2, "unclaimed:fastchat": 1, "unclaimed:mlx-lm": 1}


def test_the_set_keeps_its_mix_and_its_caps():
    """What the README counts: 35 files, 19 claimed (5 trainers, 16 of them diffusion files) and 16 to refuse
    (4 kinds), from 29 users' repositories; MIX holds the floors by label. At most 2 files of one repository were
    taken (the cap checked is 3)."""
    assert_mix(FILES, MIX, diffusion_min=16, refused_min=16)
    assert_source_caps(FILES)


def test_the_readers_of_the_training_sets_read_it():
    """A training round is read by the benchmarks and tests that read every training folder: none of them names it
    among the folders they skip any more (it was measure-only until the lead's measurements of sessions 30-32)."""
    assert_training("round123m")


def test_no_file_holds_a_key():
    """No file of the set carries a Hugging Face token or an API key."""
    assert_no_key(FILES)
