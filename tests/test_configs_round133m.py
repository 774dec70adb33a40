"""Issue 24, round 133m: a fresh set of trainer configs and launch lines (helper cfg133m, session 33, 2026-12-02):
whole files of users' repositories (`owner/repo:path` at a commit): old LLaMA-Factory / LLaMA-Efficient-Tuning
`src/train_bash.py` launches, a LLaMA-Factory YAML and two files LLaMA-Board saved, kohya_ss GUI JSONs and a Windows
batch launch of sd-scripts, launches of the repositories' copies of diffusers' examples (a Windows .bat, a PowerShell
script, instruct-pix2pix with and without xformers), a torchtune recipe config, Unsloth and TRL / transformers scripts,
and the projects' own scripts, mlx-lm runners, verl jobs, a DeepSpeed config, Lightning, LLM Foundry, NeMo and
Megatron-DeepSpeed files to refuse. Measure-only until the lead measured it (session 33, twice, equal: c7b7aa74 and
e8b86f51: 22 / 23 claimed files right in all four fields in the flat and the repository layout, one claimed file
refused, 13 / 13 refused, none read as a trainer); training material since cfg134 (session 34).

fixtures/configs/round133m/ (36 files of 33 repositories, labelled from the trainers' own source before any reader ran:
its README) is read as every staged round is (configs_corpus.staged_round: each file where the set keeps it and in the
repository layout, the format, floors, freshness and claims); a file read wrong is a strict xfail with why, and the
README's "Read after its measurement" says what the measurement found."""

from __future__ import annotations

from configs_corpus import assert_floors, assert_mix, assert_no_key, assert_no_repository_held_out
from configs_corpus import assert_source_caps, assert_training, CONFIGS as CORPUS, files, MEASURE_ONLY, staged_round

ROOT = CORPUS / "round133m"
FILES = files(ROOT)

# read wrong in both layouts at the lead's two measurements (c7b7aa74, e8b86f51), and still (cfg134: README)
STILL_WRONG_IN_BOTH: dict[str, str] = {
    "round133m/transformers/hongjunyan__finetune_xs__finetune.sh":
        "deepspeed launch of finetune_language_model.py, the repository's copy of run_clm.py, which the set does not "
        "keep: refused as a script no trainer ships, asking for that script (with it beside the launch, the launch "
        "reads transformers, [], float16: tests/test_configs_cfg134.py)",
}
STILL_WRONG: dict[str, str] = {**STILL_WRONG_IN_BOTH}
# refused, as the benchmark counts them, in words other than the label's `refused` (both layouts): none
OTHER_WORDS: dict[str, str] = {}

# test_real_file, test_real_file_in_its_repository_layout, the format and floors, freshness, claims: configs_corpus
globals().update(staged_round("round133m", files_min=36, claimed_min=23, refused_min=13, repos_min=33,
                              captured="2026-12-02", still_wrong=STILL_WRONG,
                              still_wrong_in_layout=STILL_WRONG_IN_BOTH, claimed_by="cfg133m", unread=MEASURE_ONLY))


def test_the_readings_keep_their_floors():
    """The lead's figures as floors (22 / 23 claimed right in all four fields in both layouts, 13 / 13 refused as the
    benchmark counts them and in the labels' words): the xfail lists above are the misses, and no more."""
    assert_floors(FILES, STILL_WRONG, STILL_WRONG_IN_BOTH, OTHER_WORDS, claimed=(22, 22), refused=(13, 13),
                  in_words=(13, 13))


def test_no_source_is_held_out():
    """The split's own verdicts: a repository neither held out by its hash nor a namesake of a repository the held-out
    corpus drew on (scripts/heldout_split_configs.py)."""
    assert_no_repository_held_out(FILES)


# the labels as gathered (README): claimed trainers, then the refusals by kind
MIX = {"diffusers": 7, "sd-scripts": 3, "llama-factory": 7, "unsloth": 3, "transformers": 2, "torchtune": 1,
       "unclaimed:user-script": 4, "unclaimed:mlx-lm": 2, "unclaimed:verl": 2, "unclaimed:deepspeed": 1,
       "unclaimed:lightning": 1, "unclaimed:llm-foundry": 1, "unclaimed:megatron-deepspeed": 1, "unclaimed:nemo": 1}


def test_the_set_keeps_its_mix_and_its_caps():
    """What the README counts: 36 files, 23 claimed (6 trainers, 10 of them diffusion files) and 13 to refuse
    (8 kinds), from 33 users' repositories; MIX holds the floors by label, as gathered. At most 2 files of one
    repository were taken (the cap checked is 3)."""
    assert_mix(FILES, MIX, diffusion_min=10, refused_min=13)
    assert_source_caps(FILES)


def test_the_readers_of_the_training_sets_read_it():
    """A training round is read by the benchmarks and tests that read every training folder: none of them names it
    among the folders they skip any more (it was measure-only until the lead's measurements of session 33)."""
    assert_training("round133m")


def test_no_file_holds_a_key():
    """No file of the set carries a Hugging Face token or an API key."""
    assert_no_key(FILES)
