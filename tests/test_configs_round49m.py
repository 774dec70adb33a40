"""Issue 24, round 49m: a fresh set of users' trainer configs and launch scripts (helper cfg49m, session 11,
2026-11-29), measured blind by the lead at session 12's start (7536b8d8: 14/18 claimed right in all four fields, 14/18 in
the repository layout, 1 claimed file refused, 15/16 refused, 1 user script read as diffusers), then made training
material (helper cfg53, session 12).

fixtures/configs/round49m/ (see its README: 34 files from 22 users' repositories on the train side of the split, taken
as the look-ups returned them, labelled from the trainers' own source; its section "Read after its measurement" classes
every miss) is read file by file, as `check --config FILE` reads it where the set keeps it: every file as labelled, the
misses left as strict xfails, each saying why (reading one right makes its test fail, so its entry goes); and each file
again in its repository's layout (every file of the set at its `source` path), the misses there strict xfails too. The
format is checked as well:
- every file has its expect file, well formed (the staged fields, capture date, a 40-digit commit, a label of the right
  types and values), its repository on the readers' side of the split and not a trainer's own, the file in the folder its
  trainer names and named after its source, `refused` exactly for files no claimed trainer reads;
- the set keeps its size (floors = what was gathered), and keeps files of both kinds of trainer (diffusion / video and
  LLM) and of refusals;
- no repository is shared with another folder under fixtures/configs/ (held-out and the measure-only round 64m aside,
  never listed)."""

from __future__ import annotations

from configs_corpus import CONFIGS as CORPUS, MEASURE_ONLY, assert_training, expect, files, rel, staged_round

ROOT = CORPUS / "round49m"
FILES = files(ROOT)
# the counts gathered (README): files, of them claimed and to refuse, repositories
FILES_MIN, CLAIMED_MIN, REFUSED_MIN, REPOS_MIN = 34, 18, 16, 22
# CodeDaoVietNam's train_lora.py (`fp16=bool(deep_get(config, "training.fp16", True))` of a YAML the set does not keep,
# spread from the script's own build_training_args_kwargs()) was a strict xfail here until cfg63 (session 15): a default
# that turns an autocast on is the script's precision (tests/test_configs_cfg63.py), while round 17's JackyJerkyYt
# (`bf16=train_cfg.get('bf16', False)`) stays "" (defaults that leave both switches off say nothing)
_FLAT = "labelled through {}, which the set keeps under its flattened name (read in the repository layout)"
STILL_WRONG_IN_BOTH: dict = {}
STILL_WRONG = {**STILL_WRONG_IN_BOTH,
    "round49m/unsloth/takahashiJe__matsuo_llm2025_mainCompe__scripts__train_lora.py":
        _FLAT.format("configs/train_lora.yaml (the script's --config default, loaded by its own load_config)"),
    "round49m/transformers/isalnikow86__Lami-LoRA__scripts__train_lora.sh":
        _FLAT.format("scripts/train_lora.py (`accelerate launch --multi_gpu scripts/train_lora.py --config ...`)"),
}


# test_real_file, test_real_file_in_its_repository_layout, the format and floors, freshness: configs_corpus
globals().update(staged_round("round49m", files_min=FILES_MIN, claimed_min=CLAIMED_MIN, refused_min=REFUSED_MIN,
                              repos_min=REPOS_MIN, captured="2026-11-29", still_wrong=STILL_WRONG,
                              still_wrong_in_layout=STILL_WRONG_IN_BOTH, unread=MEASURE_ONLY))


def test_the_readings_keep_their_floors():
    """The figures at cfg63's end (flat: 16/18 claimed right, 16/16 refused, 0 read as a trainer; repository layout:
    18/18; cfg53 had 15 and 17) as floors: the xfail lists above are the misses, and no more of them."""
    claimed = [p for p in FILES if not expect(p).get("refused")]
    refused = [p for p in FILES if expect(p).get("refused")]
    assert len(claimed) - len([p for p in claimed if rel(p) in STILL_WRONG]) >= 16
    assert len(claimed) - len([p for p in claimed if rel(p) in STILL_WRONG_IN_BOTH]) >= 18
    assert not [p for p in refused if rel(p) in STILL_WRONG]  # every file to refuse is refused (16/16)


DIFFUSION = {"musubi-tuner", "blissful-tuner", "sd-scripts", "ai-toolkit", "diffusion-pipe", "onetrainer", "simpletuner",
             "diffusers"}


def test_the_set_keeps_its_mix():
    """What the README counts: diffusion / video trainers' files (7), LLM trainers' files (11), refusals (16)."""
    trainers = [expect(p)["trainer"] for p in FILES]
    assert sum(t in DIFFUSION for t in trainers) >= 7
    assert sum(t not in DIFFUSION and not t.startswith("unclaimed:") and t != "none" for t in trainers) >= 11
    assert sum(t.startswith("unclaimed:") or t == "none" for t in trainers) >= 16


def test_the_readers_of_the_training_sets_read_it():
    """A training round is read by the benchmarks and tests that read every training folder: none of them names it
    among the folders they skip any more (it was measure-only until the lead's measurement of session 12)."""
    assert_training("round49m")