"""Issue 24, round 111m: a fresh set of trainer configs and launch lines (helper cfg112m, session 27, 2026-11-30):
configs and launch lines users pasted in issue tracker threads (`owner/repo#N`: the thread is the unit, 34 files of 34
threads), most in the trainers' own trackers, and whole files of users' own repositories (`owner/repo:path` at a
commit, 6 files of 3 repositories). Measure-only until the lead measured it (session 27's start and end, session
28's start, all equal: 19 / 22 claimed files right in all four fields (trainer 22, required 21, dtype 19, compile 22),
0 claimed files refused, 18 / 18 refusals; the repository layout reads the same); training material since cfg116
(session 28).

fixtures/configs/round111m/ (40 files of 37 sources, labelled from the trainers' own source before any reader ran: its
README) is read as every staged round is (configs_corpus.staged_round: each file where the set keeps it and in the
repository layout, the format, floors, freshness and claims); a file still read wrong is a strict xfail with why, and
the README's "Read after its measurement" has each miss of the measurement and its class."""

from __future__ import annotations

from configs_corpus import assert_floors, assert_mix, assert_no_key, assert_no_repository_held_out
from configs_corpus import assert_source_caps, assert_training, CONFIGS as CORPUS, files, MEASURE_ONLY, staged_round

ROOT = CORPUS / "round111m"
FILES = files(ROOT)

# (TRL #1055's sft_example.py read float32 since cfg122: its SFTTrainer(dataset_text_field=) is one of TRL before 0.13,
# which prepares the 8-bit model with prepare_model_for_kbit_training, and no args: no autocast)
STILL_WRONG: dict[str, str] = {}
# refused, as the benchmark counts them, in words other than the label's `refused` (both layouts)
# (none since cfg116: the 18 labels' sentences, written before any reader ran, relabelled to the words their refusals
# say, the verdicts unchanged; GenVDM's and VeOmni's refusals say them since cfg116's mechanisms)
OTHER_WORDS: dict[str, str] = {}
STILL_WRONG.update(OTHER_WORDS)
STILL_WRONG_LAYOUT = dict(STILL_WRONG)

# test_real_file, test_real_file_in_its_repository_layout, the format and floors, freshness, claims: configs_corpus
globals().update(staged_round("round111m", files_min=40, claimed_min=22, refused_min=18, repos_min=37,
                              captured="2026-11-30", still_wrong=STILL_WRONG,
                              still_wrong_in_layout=STILL_WRONG_LAYOUT, claimed_by="cfg112m", unread=MEASURE_ONLY))


def test_the_readings_keep_their_floors():
    """The lead's figures as floors (19 / 22 claimed right in all four fields in both layouts, 18 / 18 refused as the
    benchmark counts them, 0 / 18 in the label's words; 21 / 22 after cfg116's two mechanisms: a command printed as
    Python's argument list, a transformers example's default load; trl#1055 relabelled float32 and still read "" for
    want of the release; 18 / 18 in the labels' words once the 18 sentences were relabelled to the refusals' words, two
    of them after cfg116's mechanisms: a conda path before a prompt, a wrapper handed its Python script): the xfail
    lists above are the misses, and no more."""
    assert_floors(FILES, STILL_WRONG, STILL_WRONG_LAYOUT, OTHER_WORDS, claimed=(21, 21), refused=(18, 18),
                  in_words=(18, 18))


def test_no_source_is_held_out():
    """The splits' own verdicts: a repository neither held out by its hash nor a namesake of a repository the held-out
    corpus drew on (scripts/heldout_split_configs.py); a thread not held out by explain's split (scripts/heldout_split.py),
    its tracker a trainer's own repository or one on the train side."""
    assert_no_repository_held_out(FILES)


# the labels as gathered (README): claimed trainers, then the refusals by kind
MIX = {"musubi-tuner": 4, "llama-factory": 3, "diffusers": 2, "ms-swift": 2, "sd-scripts": 3, "transformers": 2,
       "axolotl": 1, "blissful-tuner": 1, "diffusion-pipe": 1, "litgpt": 1, "simpletuner": 1, "unsloth": 1,
       "unclaimed:accelerate": 5, "unclaimed:fastchat": 3, "unclaimed:user-script": 3, "none": 2,
       "unclaimed:chinese-llama-alpaca": 1, "unclaimed:deepspeed": 1, "unclaimed:instant-nsr-pl": 1,
       "unclaimed:open-assistant": 1, "unclaimed:veomni": 1}


def test_the_set_keeps_its_mix_and_its_caps():
    """What the README counts: 22 claimed (12 trainers, 12 of them diffusion files) and 18 to refuse (9 kinds); MIX
    holds the floors by label, as gathered. At most 2 files of one thread, 6 of one tracker, 3 of one repository."""
    assert_mix(FILES, MIX, diffusion_min=12, refused_min=18)
    assert_source_caps(FILES)


def test_the_readers_of_the_training_sets_read_it():
    """A training round is read by the benchmarks and tests that read every training folder: none of them names it
    among the folders they skip any more (it was measure-only until the lead's measurement of session 28's start)."""
    assert_training("round111m")


def test_no_file_holds_a_key():
    """No file of the set carries a Hugging Face token or an API key."""
    assert_no_key(FILES)
