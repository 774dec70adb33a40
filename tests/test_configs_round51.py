"""Issue 24, round 51: a training set of users' LLM-trainer files (helper cfg51, session 11, 2026-11-29), measured on main
e7787cc9 before any rule was written (benchmarks/results/configs-round51-main.json: 22/35 claimed right in all four
fields, 7 claimed refused, 8/8 others refused; -main-repo.json in the repository layout: 26/35, 4 claimed refused),
then read by the rules of tests/test_configs_round51_rules.py (after: 24/35 flat, 31/35 in the repository layout).

fixtures/configs/round51/ (see its README: 43 files from 16 users' repositories on the train side of the split, taken as
the look-ups returned them, labelled from the trainers' own source before any reader ran) is read file by file, as
`check --config FILE` reads it where the set keeps it: every file as labelled, the misses left as strict xfails, each
saying why (reading one right makes its test fail, so its entry goes); and each file again in its repository's layout
(every file of the set at its `source` path), the misses there strict xfails too. The format is checked as well:
- every file has its expect file, well formed (the staged fields, capture date, a 40-digit commit, a label of the right
  types and values), its repository on the readers' side of the split and not a trainer's own, the file in the folder its
  trainer names and named after its source, `refused` exactly for files no claimed trainer reads;
- the set keeps its size (floors = what was gathered: 43 files, 35 claimed, 8 refused, 16 repositories);
- no repository is shared with another folder under fixtures/configs/ (held-out aside, and never listed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from configs_corpus import check_blind_round, in_repository_layout, repo_of
from configs_corpus import CONFIGS as CORPUS, check_read_as_expected, expect, files, rel

ROOT = CORPUS / "round51"
FILES = files(ROOT)
# the counts gathered (README): files, of them claimed and to refuse, repositories
FILES_MIN, CLAIMED_MIN, REFUSED_MIN, REPOS_MIN = 43, 35, 8, 16

# where the set keeps them (flattened names), the launchers labelled through another file of the set cannot find it
_FLAT = "labelled through {}, which the set keeps under its flattened name (read in the repository layout)"
STILL_WRONG_IN_BOTH = {
    "round51/transformers/faizghifari__scale-resources__training.sh":
        "gives train.py --train_tokenizer, which train.py's argparse does not declare (parse_args would stop with "
        "\"unrecognized arguments\"): refused naming the script, which reads as labelled on its own",
    "round51/transformers/guybarnahum__gemma3_twitter__train_gemma3.py":
        "float32 weights from its argparse defaults (--bf16 / --fp16 off) read as no dtype ('')",
    "round51/transformers/willystumblr__ehrsql-2024__scripts__sft_text2sql.sh":
        "runs `python sft_main.py` from scripts/: sft_main.py is at the repository root, and a bare name is looked for "
        "beside the launcher only (tests/test_configs_layouts_s6.py's design); its options are declared in "
        "utils/args.py besides",
}
STILL_WRONG = {**STILL_WRONG_IN_BOTH,
    # (read in the repository layout since cfg53: pyscript._loaded_files reads the YAML the script loads itself)
    "round51/unsloth/insublee__llm_env__docker__train__train.py":
        _FLAT.format("configs/train.yaml, which the script loads with yaml.safe_load from /workspace/configs/train.yaml "
                     "(TrainingArguments(bf16=training_args[\"bf16\"]))"),
    "round51/llama-factory/FaezehFaez2025__InvertiTune__pipeline.sh":
        _FLAT.format("LLaMA-Factory/examples/train_full/qwen2.5_full_sft.yaml (after `cd LLaMA-Factory`)"),
    "round51/transformers/BFCmath__Confident_Task_LoRA__run_grpo.sh": _FLAT.format("train_grpo.py"),
    "round51/transformers/BFCmath__Confident_Task_LoRA__script.sh": _FLAT.format("finetune_model.py"),
    "round51/transformers/ubinaroy__qwen-law__run.sh": _FLAT.format("sft_train.py"),
    "round51/transformers/LZY-the-boys__dpo__run.sh": _FLAT.format("v1231.yaml (the handbook recipe run_dpo.py is given)"),
    "round51/unsloth/faizghifari__scale-resources__combined_training.sh": _FLAT.format("sft_unsloth.py"),
    "round51/unsloth/frankyaoxiao__gpt-oss-sft__run_training_qwen3.sh": _FLAT.format("train_qwen3_unsloth.py"),
}


@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.xfail(strict=True, reason=STILL_WRONG[rel(p)]))
                                  if rel(p) in STILL_WRONG else p for p in FILES], ids=rel)
def test_real_file(path):
    check_read_as_expected(path)


@pytest.fixture(scope="module")
def repo_layout(tmp_path_factory) -> dict:
    """Every file of the set at its source path, OWNER/REPO/PATH, as a user's checkout has it (no expect files)."""
    return in_repository_layout(FILES, tmp_path_factory.mktemp("round51-layout"))


@pytest.mark.parametrize("name", [pytest.param(rel(p), marks=pytest.mark.xfail(
    strict=True, reason=STILL_WRONG_IN_BOTH[rel(p)])) if rel(p) in STILL_WRONG_IN_BOTH else rel(p) for p in FILES])
def test_real_file_in_its_repository_layout(repo_layout, name):
    check_read_as_expected(Path(repo_layout[name]), CORPUS / name)


def test_the_set_is_there_well_formed_and_on_the_readers_side_of_the_split():
    check_blind_round(FILES, files_min=FILES_MIN, claimed_min=CLAIMED_MIN, refused_min=REFUSED_MIN, repos_min=REPOS_MIN,
                      captured="2026-11-29")


def test_every_expect_file_has_its_corpus_file():
    for e in ROOT.rglob("*.expect.toml"):
        assert e.with_name(e.name[: -len(".expect.toml")]).is_file(), e


def test_no_repository_is_shared_with_another_set():
    """round51's repositories are fresh: none of them feeds fixtures/configs/real/, another round or a loose expect
    file at the top of fixtures/configs/ (held-out and the measure-only round54m aside, and never listed)."""
    mine = {repo_of(expect(p)["source"]) for p in FILES}
    assert not mine & _repos_outside_open_sets(), sorted(mine & _repos_outside_open_sets())


# measure-only config sets of this session, never read by a training round's test (their repositories were kept out
# through /work/wt/claims.txt when round 51 was gathered)
MEASURE_ONLY = {"round54m"}  # (round49m: training material since cfg53)


def _repos_outside_open_sets() -> set:
    """repos_outside("round51") less what the measure-only sets hold, without reading them."""
    paths = [e for d in CORPUS.iterdir() if d.is_dir() and d.name not in ("round51", "heldout", *MEASURE_ONLY)
             for e in d.rglob("*.expect.toml")] + list(CORPUS.glob("*.toml"))
    return {repo_of(line.split("\"")[1]) for e in paths for line in e.read_text(encoding="utf-8").splitlines()
            if line.startswith("source = \"")}
