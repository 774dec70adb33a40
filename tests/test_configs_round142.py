"""Issue 24, round 142: a training set of trainer configs and launch lines (helper cfg142, session 38, 2026-12-03):
whole files of users' repositories (`owner/repo:path` at a commit): musubi-tuner runs whose command is built as a Python
list (`[sys.executable, "-m", "accelerate.commands.accelerate_cli", "launch", ..., train_script, "--sdpa", ...]`), a TRL
SFTTrainer script that leaves bf16 to SFTConfig's default, an alignment-handbook recipe and the accelerate launch that
runs it; and, to refuse, four launches of projects' own SFT modules and scripts, two of them naming an attention
implementation on their own command lines.

fixtures/configs/round142/ (9 files of 7 repositories, labelled from the trainers' own source before any reader ran:
its README) is read as every staged round is (configs_corpus.staged_round). First reading (main's readers at cde248a8):
6 / 9 right flat (claimed 2 / 5), 7 / 9 in the repository layout (3 / 5), the 4 refusals 4 / 4; the Wan 2.2 template is
read right since cfg142's reader changes (tests/test_configs_cfg142.py); the misses left are below."""

from __future__ import annotations

from configs_corpus import assert_floors, assert_mix, assert_no_key, assert_no_repository_held_out
from configs_corpus import assert_source_caps, assert_training, CONFIGS as CORPUS, files, MEASURE_ONLY, staged_round

ROOT = CORPUS / "round142"
FILES = files(ROOT)

STILL_WRONG_IN_BOTH: dict[str, str] = {
    "round142/transformers/triptips-top__docker__gemma3__gemma-3-270m-it-SFT.py":
        "dtype unknown where the label says bfloat16: SFTConfig(learning_rate=...) leaves bf16 to TRL's default, true "
        "from TRL 0.19 (`self.bf16 = not (self.fp16) if self.bf16 is None`); the file shows no TRL release (no `dtype` "
        "key, no pin in the repository), and before 0.19 bf16 stayed False, so hf_transformers._run_dtype leaves it "
        "unknown on purpose (the label assumes a TRL of the file's time, 2025-26)",
}
STILL_WRONG: dict[str, str] = {
    **STILL_WRONG_IN_BOTH,
    "round142/transformers/PoliWings__SejmAI__alignment-handbook__start.sh":
        "flat only: the recipe its `scripts/run_sft.py ../fine_tuning/bielik/left_sft_qlora.yaml` names is kept here as "
        "PoliWings__SejmAI__fine_tuning__bielik__left_sft_qlora.yaml, not at that path, so attention and dtype are "
        "unknown; read right in the repository layout",
}
# refused, as the benchmark counts them, in words other than the label's `refused` (both layouts): none
OTHER_WORDS: dict[str, str] = {}

# test_real_file, test_real_file_in_its_repository_layout, the format and floors, freshness, claims: configs_corpus
globals().update(staged_round("round142", files_min=9, claimed_min=5, refused_min=4, repos_min=7,
                              captured="2026-12-03", still_wrong=STILL_WRONG,
                              still_wrong_in_layout=STILL_WRONG_IN_BOTH, claimed_by="cfg142", unread=MEASURE_ONLY))


def test_the_readings_keep_their_floors():
    """3 / 5 claimed right in all four fields flat and 4 / 5 in the repository layout, 4 / 4 refused as the benchmark
    counts them and in the labels' words: the xfail lists above are the misses, and no more."""
    assert_floors(FILES, STILL_WRONG, STILL_WRONG_IN_BOTH, OTHER_WORDS, claimed=(3, 4), refused=(4, 4),
                  in_words=(4, 4))


def test_no_source_is_held_out():
    """The split's own verdicts: a repository neither held out by its hash nor a namesake of a repository the held-out
    corpus drew on (scripts/heldout_split_configs.py)."""
    assert_no_repository_held_out(FILES)


# the labels as gathered (README): claimed trainers, then the refusals by kind
MIX = {"musubi-tuner": 2, "transformers": 3, "unclaimed:user-script": 4}


def test_the_set_keeps_its_mix_and_its_caps():
    """What the README counts: 9 files, 5 claimed (2 trainers, 2 of them diffusion files) and 4 to refuse, from 7
    users' repositories; at most 2 files of one repository (the cap checked is 3)."""
    assert_mix(FILES, MIX, diffusion_min=2, refused_min=4)
    assert_source_caps(FILES)


def test_the_readers_of_the_training_sets_read_it():
    """A training round is read by the benchmarks and tests that read every training folder: none of them names it
    among the folders they skip."""
    assert_training("round142")


def test_no_file_holds_a_key():
    """No file of the set carries a Hugging Face token or an API key."""
    assert_no_key(FILES)
