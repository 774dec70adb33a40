"""Issue 24, round 138: a training set of trainer configs and launch lines (helper cfg138, session 35, 2026-12-02):
whole files of users' repositories (`owner/repo:path` at a commit) in the formats issue 24 names: an ms-swift launch
through a bash array with ${VAR:-default}, a LLaMA-Factory YAML and the SLURM job that runs it inside `singularity exec
... bash -lc '...'`, an Unsloth training function whose loader comes from the project's own module, a LitGPT pretrain
config and the Python launcher that builds its command, a musubi-tuner Wan 2.2 script that builds its command in a string
(--xformers, fp16) and its dataset TOML, a diffusers xformers launch, an sd-scripts dataset TOML; and, to refuse, a
trlX config, a from-scratch loop in a repository named TinyLitGPT, a .bat, a verl-environment wrapper and a launch of
a project's own train.py.

fixtures/configs/round138/ (15 files of 11 repositories, labelled from the trainers' own source before any reader ran:
its README) is read as every staged round is (configs_corpus.staged_round: each file where the set keeps it and in the
repository layout, the format, floors, freshness and claims). First reading (main's readers): 11 / 15 flat, 12 / 15 in
the repository layout; the Unsloth function and the trlX config are read right since cfg138's reader changes
(tests/test_configs_cfg138.py); the two below are the misses left."""

from __future__ import annotations

from configs_corpus import assert_floors, assert_mix, assert_no_key, assert_no_repository_held_out
from configs_corpus import assert_source_caps, assert_training, CONFIGS as CORPUS, files, MEASURE_ONLY, staged_round

ROOT = CORPUS / "round138"
FILES = files(ROOT)

STILL_WRONG_IN_BOTH: dict[str, str] = {
    "round138/litgpt/jwkirchenbauer__litgpt__launch_exps_tuo.py":
        "a Python launcher that builds `python -u litgpt/pretrain.py --config=...` from a list and f-strings and hands "
        "it to os.system: refused as a Python script with no trainer calls (no reader follows a command built in "
        "Python strings)",
}
STILL_WRONG: dict[str, str] = {
    **STILL_WRONG_IN_BOTH,
    "round138/llama-factory/harshraj172__LlamaFactory__sft.sh":
        "flat only: the YAML its `bash -lc 'llamafactory-cli train examples/train_full/...yaml'` names is kept here as "
        "harshraj172__LlamaFactory__examples__train_full__opensci_full_sft_fsdp.yaml, not at that path, so the dtype is "
        "unknown; read right in the repository layout",
}
# refused, as the benchmark counts them, in words other than the label's `refused` (both layouts): none
OTHER_WORDS: dict[str, str] = {}

# test_real_file, test_real_file_in_its_repository_layout, the format and floors, freshness, claims: configs_corpus
globals().update(staged_round("round138", files_min=15, claimed_min=8, refused_min=7, repos_min=11,
                              captured="2026-12-02", still_wrong=STILL_WRONG,
                              still_wrong_in_layout=STILL_WRONG_IN_BOTH, claimed_by="cfg138", unread=MEASURE_ONLY))


def test_the_readings_keep_their_floors():
    """6 / 8 claimed right in all four fields flat and 7 / 8 in the repository layout, 7 / 7 refused as the benchmark
    counts them and in the labels' words: the xfail lists above are the misses, and no more."""
    assert_floors(FILES, STILL_WRONG, STILL_WRONG_IN_BOTH, OTHER_WORDS, claimed=(6, 7), refused=(7, 7),
                  in_words=(7, 7))


def test_no_source_is_held_out():
    """The split's own verdicts: a repository neither held out by its hash nor a namesake of a repository the held-out
    corpus drew on (scripts/heldout_split_configs.py)."""
    assert_no_repository_held_out(FILES)


# the labels as gathered (README): claimed trainers, then the refusals by kind
MIX = {"ms-swift": 1, "llama-factory": 2, "unsloth": 1, "litgpt": 2, "musubi-tuner": 1, "diffusers": 1, "none": 2,
       "unclaimed:user-script": 4, "unclaimed:trlx": 1}


def test_the_set_keeps_its_mix_and_its_caps():
    """What the README counts: 15 files, 8 claimed (6 trainers, 2 of them diffusion files) and 7 to refuse, from 11
    users' repositories; MIX holds the floors by label, as gathered. At most 2 files of one repository were taken (the
    cap checked is 3)."""
    assert_mix(FILES, MIX, diffusion_min=2, refused_min=7)
    assert_source_caps(FILES)


def test_the_readers_of_the_training_sets_read_it():
    """A training round is read by the benchmarks and tests that read every training folder: none of them names it
    among the folders they skip."""
    assert_training("round138")


def test_no_file_holds_a_key():
    """No file of the set carries a Hugging Face token or an API key."""
    assert_no_key(FILES)
