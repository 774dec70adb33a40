"""Issue 24, round 30 (helper cfg36, session 9): LLM trainers' files in the shapes users keep — launch scripts of the
user's own training script, Python scripts with their entry points, notebooks, a Slurm job — and near misses carrying
trainers' words (captured 2026-11-28).

The real files of fixtures/configs/round30/ (see its README: users' repositories on the train side of the split,
labelled before any reader ran on them). The mechanisms written from them, with variants and near misses, are in
tests/test_configs_cfg36.py. The files attn-doctor still reads otherwise than labelled are strict xfails, each saying
why: reading one right makes its test fail, so its entry goes."""

from __future__ import annotations

from each_case import each

from configs_corpus import repo_of, repos_outside
from configs_corpus import CONFIGS as CORPUS, CLAIMED, check_read_as_expected, check_staged_expect, expect, files, \
    rel, split_module

FILES = files(CORPUS / "round30")

ABSENT = ("a launch of the user's own script, which is not in the set (flattened name): the launch's HF-style options "
          "are every HfArgumentParser script's, so the reader does not guess the trainer (configs.detect)")
STILL_WRONG = {
    "round30/transformers/01xianyi__Qwen2.5-3B-ChID-__train_base_3b_danka.sh": ABSENT,
    "round30/transformers/c-heidt__rbr-vs-rlhf__slurm_script.sh": ABSENT,
    "round30/transformers/fengjiaxin__Qwen-finetune__finetune_lora_single_gpu.sh": ABSENT,
    "round30/transformers/guotong1988__Train-8B-LLM__run_sft.sh": ABSENT,
    "round30/transformers/taishan1994__Llama3.1-Finetuning__script__finetune_lora_qwen2.sh": ABSENT,
}
# (chriszhang1's codeforces/train.py, a BertForSequenceClassification load with no dtype and no autocast, was a strict
# xfail until cfg104, session 25: a family published in float32 is float32 under either transformers release,
# hf_transformers._FLOAT32_CLASSES)


def test_the_corpus_is_there_and_on_the_readers_side_of_the_split():
    split = split_module()
    claimed = refused = 0
    repos = set()
    for p in FILES:
        e = expect(p)
        t = check_staged_expect(p, e, split)
        assert e["captured"] == "2026-11-28" and len(e["commit"]) == 40, p
        repos.add(e["source"].split(":", 1)[0])
        claimed += t in CLAIMED
        refused += t not in CLAIMED
    assert len(FILES) >= 40 and claimed >= 30 and refused >= 10 and len(repos) >= 38, (len(FILES), claimed, refused,
                                                                                         len(repos))


def test_no_repository_is_shared_with_another_set():
    mine = {repo_of(expect(p)["source"]) for p in FILES}
    others = repos_outside("round30")
    assert not mine & others, sorted(mine & others)


def test_real_file():
    # (one test over the set, the misses held as strict xfails were: tests/each_case.py says why)
    each(((rel(p), (p,)) for p in FILES), check_read_as_expected, still_wrong=STILL_WRONG)
