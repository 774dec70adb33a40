"""Issue 24, round 136: a training set of trainer configs and launch lines (helper cfg136, session 34, 2026-12-02):
whole files of users' repositories (`owner/repo:path` at a commit) of the formats that carry worst: torchtune recipe
configs (packed; one on `device: mps`), an ms-swift 3.x launch, an Unsloth vision script, a LLaMA-Factory QLoRA YAML, a
diffusers launch, an sd-scripts dataset TOML, and files of frameworks no reader claims (mlx-lm, ColossalAI, fairseq,
NeMo 2, LLaVA, nanochat, the projects' own scripts, a Windows .bat and a `python -m torch.distributed.run` among them).

fixtures/configs/round136/ (18 files of 17 repositories, labelled from the trainers' own source before any reader ran:
its README) is read as every staged round is (configs_corpus.staged_round: each file where the set keeps it and in the
repository layout, the format, floors, freshness and claims). At their first readings three files were read wrong (the
`device: mps` torchtune config as FlexAttention; the fairseq-train command kept in a .py docstring and a nanochat fork's
train_config.toml refused in other words than fairseq's and nanochat's): all are read right since the reader changes of
this session (tests/test_configs_cfg136.py)."""

from __future__ import annotations

from configs_corpus import assert_floors, assert_mix, assert_no_key, assert_no_repository_held_out
from configs_corpus import assert_source_caps, assert_training, CONFIGS as CORPUS, files, MEASURE_ONLY, staged_round

ROOT = CORPUS / "round136"
FILES = files(ROOT)

# no file is read wrong in either layout since cfg136's reader changes (two were at the first reading: the README)
STILL_WRONG_IN_BOTH: dict[str, str] = {}
STILL_WRONG: dict[str, str] = {**STILL_WRONG_IN_BOTH}
# refused, as the benchmark counts them, in words other than the label's `refused` (both layouts): none
OTHER_WORDS: dict[str, str] = {}

# test_real_file, test_real_file_in_its_repository_layout, the format and floors, freshness, claims: configs_corpus
globals().update(staged_round("round136", files_min=18, claimed_min=7, refused_min=11, repos_min=17,
                              captured="2026-12-02", still_wrong=STILL_WRONG,
                              still_wrong_in_layout=STILL_WRONG_IN_BOTH, claimed_by="cfg136", unread=MEASURE_ONLY))


def test_the_readings_keep_their_floors():
    """7 / 7 claimed right in all four fields in both layouts, 11 / 11 refused as the benchmark counts them and in the
    labels' words: the xfail lists above are the misses (none), and no more."""
    assert_floors(FILES, STILL_WRONG, STILL_WRONG_IN_BOTH, OTHER_WORDS, claimed=(7, 7), refused=(11, 11),
                  in_words=(11, 11))


def test_no_source_is_held_out():
    """The split's own verdicts: a repository neither held out by its hash nor a namesake of a repository the held-out
    corpus drew on (scripts/heldout_split_configs.py)."""
    assert_no_repository_held_out(FILES)


# the labels as gathered (README): claimed trainers, then the refusals by kind
MIX = {"torchtune": 2, "ms-swift": 1, "unsloth": 2, "llama-factory": 1, "diffusers": 1, "none": 1,
       "unclaimed:mlx-lm": 2, "unclaimed:user-script": 3, "unclaimed:colossalai": 1, "unclaimed:fairseq": 1,
       "unclaimed:nemo": 1, "unclaimed:llava": 1, "unclaimed:nanochat": 1}


def test_the_set_keeps_its_mix_and_its_caps():
    """What the README counts: 18 files, 7 claimed (5 trainers, 1 diffusion file) and 11 to refuse, from 17 users'
    repositories; MIX holds the floors by label, as gathered. At most 2 files of one repository were taken (the cap
    checked is 3)."""
    assert_mix(FILES, MIX, diffusion_min=1, refused_min=11)
    assert_source_caps(FILES)


def test_the_readers_of_the_training_sets_read_it():
    """A training round is read by the benchmarks and tests that read every training folder: none of them names it
    among the folders they skip."""
    assert_training("round136")


def test_no_file_holds_a_key():
    """No file of the set carries a Hugging Face token or an API key."""
    assert_no_key(FILES)
