"""Issue 24, round 105: files of frameworks attn-doctor does not claim, from the frameworks' own repositories (helper
cfg105, session 25, 2026-11-30; training material).

fixtures/configs/round105/ (70 files of 22 frameworks' own example, recipe, config and script folders: x-flux, PixArt,
Sana, HunyuanVideo-1.5, nanoGPT, modded-nanogpt, H2O LLM Studio, fairseq2, AutoTrain Advanced, llama-cookbook,
NeMo-Skills, Megatron-Bridge, open_lm, LeRobot, Composer, SGLang, vLLM, and five post-training compression libraries:
llm-compressor, NVIDIA Model Optimizer, Optimum Quanto, AutoGPTQ, AutoAWQ; its README) is every file to refuse, labelled
`unclaimed:<framework>` from the framework's own source before any reader ran. At the session's start code 62 / 70
were refused and 8 read as transformers (every compression library's example that loads a model and quantizes it);
since cfg105's mechanisms (tests/test_configs_cfg105.py) all 70 are refused, in both layouts. It is read as every
staged round is (configs_corpus.staged_round: each file where the set keeps it and at its `source` path, the format,
floors, freshness and claims)."""

from __future__ import annotations

from configs_corpus import CONFIGS as CORPUS, MEASURE_ONLY, assert_floors, assert_no_key, assert_no_repository_held_out
from configs_corpus import assert_training, expect, files, staged_round

ROOT = CORPUS / "round105"
FILES = files(ROOT)

# refused, as the benchmark counts them, in words other than the label's (both layouts)
OTHER_WORDS = {
    "round105/unclaimed-megatron-bridge/NVIDIA-NeMo__Megatron-Bridge__examples__models__deepseek_v4__slurm_sft.sh":
        "refused naming the first script it runs, scripts/conversion/run_conversion.py (the checkpoint import), not "
        "the training script run_recipe.py the label names: the refusal names one script and the launcher runs two",
}
STILL_WRONG = dict(OTHER_WORDS)

# test_real_file, test_real_file_in_its_repository_layout, the format and floors, freshness, claims: configs_corpus
globals().update(staged_round("round105", files_min=70, claimed_min=0, refused_min=70, repos_min=22,
                              captured="2026-11-30", still_wrong=STILL_WRONG, still_wrong_in_layout=STILL_WRONG,
                              claimed_by="cfg105", unread=MEASURE_ONLY))


def test_the_readings_keep_their_floors():
    """Every file refused, in both layouts, all but one in the label's words (at the session's start 62 / 70 refused,
    8 read as transformers)."""
    assert_floors(FILES, STILL_WRONG, STILL_WRONG, OTHER_WORDS, claimed=(0, 0), refused=(70, 70), in_words=(69, 69))


def test_no_repository_is_held_out_by_its_hash_or_its_name():
    """The split's own verdict for each repository, both halves (hash and namesake), as the helper checked it with
    scripts/heldout_split_configs.py before claiming (its verdict field compared exactly with `train`)."""
    assert_no_repository_held_out(FILES)


def test_the_set_keeps_its_mix():
    """At least 15 frameworks, at most 6 files of one repository, every file a refusal of a framework's own."""
    trainers = [expect(p)["trainer"] for p in FILES]
    assert all(t.startswith("unclaimed:") for t in trainers)
    assert len(set(trainers)) >= 15
    repos = [expect(p)["source"].split(":", 1)[0] for p in FILES]
    assert max(repos.count(r) for r in set(repos)) <= 6


def test_the_readers_of_the_training_sets_read_it():
    assert_training("round105")


def test_no_file_holds_a_key():
    assert_no_key(FILES)
