"""Issue 24, round 33m: a fresh set of users' trainer configs and launch scripts (helper cfg33m, session 9, 2026-11-28),
measured blind by the lead (17/25 claimed right at the session's start 6fb2d8e, 19/25 at its final readers 4c9bf36,
17/17 refused), then made training material (helper cfg40).

fixtures/configs/round33m/ (see its README: 42 files from 25 users' repositories on the train side of the split, taken as
the look-ups returned them, labelled from the trainers' own source) is read file by file, as `check --config FILE`
reads it where the set keeps it: every file as labelled, the misses left as strict xfails, each saying why (reading one
right makes its test fail, so its entry goes); and each file again in its repository's layout (every file of the set at
its `source` path), where every one is read as labelled. The format is checked too:
- every file has its expect file, well formed (the staged fields, capture date, a 40-digit commit, a label of the right
  types and values), its repository on the readers' side of the split and not a trainer's own, the file in the folder its
  trainer names and named after its source, `refused` exactly for files no claimed trainer reads;
- the set keeps its size (floors = what was gathered: 42 files, 25 claimed, 17 unclaimed or none, 25 repositories);
- no repository is shared with another folder under fixtures/configs/ (held-out aside, and never listed)."""

from __future__ import annotations

from pathlib import Path

import pytest
from each_case import each

from configs_corpus import check_blind_round, in_repository_layout, repo_of, repos_outside
from configs_corpus import CONFIGS as CORPUS, check_read_as_expected, expect, files, rel

ROOT = CORPUS / "round33m"
FILES = files(ROOT)

# where the set keeps them (flattened names), the launchers labelled through another file of the set cannot find it
_FLAT = "labelled through {}, which the set keeps under its flattened name: in the repository's layout it reads as " \
        "labelled (test_real_file_in_its_repository_layout)"
STILL_WRONG = {
    "round33m/llama-factory/Kyleliu7__CoT_Controllability__scripts__train.sh":
        _FLAT.format("configs/qwen3_14b_all_caps_dpo.yaml (bf16: true)"),
    "round33m/transformers/AlexanderZemlyak__NeuralNet__finetune_lora.sh":
        _FLAT.format("finetune_deepseekcoder2.py (the script it runs, a user's copy no trainer ships)"),
    "round33m/transformers/Girjoaba__apertus-finetuning-pipeline__scripts__alps__multi_gpu_full_param_8B.sbatch":
        _FLAT.format("configs/sft_full_8B.yaml (`sft_train.py --config`)"),
    "round33m/transformers/Girjoaba__apertus-finetuning-pipeline__scripts__alps__single_gpu_lora_8B.sbatch":
        _FLAT.format("configs/sft_lora_8B.yaml (`sft_train.py --config` inside `bash -c \"$CMD\"`)"),
}


def test_real_file():
    # (one test over the set, the misses held as strict xfails were: tests/each_case.py says why)
    each(((rel(p), (p,)) for p in FILES), check_read_as_expected, still_wrong=STILL_WRONG)


@pytest.fixture(scope="module")
def repo_layout(tmp_path_factory) -> dict:
    """Every file of the set at its source path, OWNER/REPO/PATH, as a user's checkout has it (no expect files)."""
    return in_repository_layout(FILES, tmp_path_factory.mktemp("round33m-layout"))


def test_real_file_in_its_repository_layout(repo_layout):
    each(((rel(p), (Path(repo_layout[rel(p)]), CORPUS / rel(p))) for p in FILES), check_read_as_expected)


def test_the_set_is_there_well_formed_and_on_the_readers_side_of_the_split():
    check_blind_round(FILES, files_min=42, claimed_min=25, refused_min=17, repos_min=25)


def test_every_expect_file_has_its_corpus_file():
    for e in ROOT.rglob("*.expect.toml"):
        assert e.with_name(e.name[: -len(".expect.toml")]).is_file(), e


def test_no_repository_is_shared_with_another_set():
    """round33m's repositories are fresh: none of them feeds fixtures/configs/real/, another round or a loose expect
    file at the top of fixtures/configs/ (held-out aside, and never listed)."""
    mine = {repo_of(expect(p)["source"]) for p in FILES}
    others = repos_outside("round33m")
    assert not mine & others, sorted(mine & others)
