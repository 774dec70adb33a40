"""Issue 24, round 19: users' files attn-doctor must refuse (fixtures/configs/round19/, see its README).

48 files from users' repositories on the train side of the split, none of them a config of a trainer attn-doctor claims:
files of frameworks it does not read (torchtitan, OpenRLHF, Megatron-LM, fairseq, detectron2, LLaVA, Multimodal-GPT,
nanoGPT, verl, lmgame, PyTorch Lightning, users' own trainers) and files that look like configs but configure no
training (DeepSpeed and Accelerate configs, ComfyUI workflows, A1111 and text-generation-webui settings and launchers,
transformers generation / tokenizer configs, a PEFT adapter config, dataset TOMLs). Each is refused in one line with
the words its expect file asks for (`refused`). The rules behind the refusals that round 19 added are tested with
variants in tests/test_configs_round19_rules.py."""

from __future__ import annotations

from each_case import each

from configs_corpus import CONFIGS as CORPUS, CLAIMED, check_read_as_expected, check_staged_expect, expect, files, \
    rel, repo_of, repos_outside, split_module

FILES = files(CORPUS / "round19")


def test_the_corpus_is_there_and_on_the_readers_side_of_the_split():
    split = split_module()
    repos = set()
    frameworks = set()
    for p in FILES:
        e = expect(p)
        t = check_staged_expect(p, e, split)
        assert e["captured"] == "2026-11-28" and len(e["commit"]) == 40, p
        assert t not in CLAIMED, p  # a round of files to refuse: no claimed trainer's file is in it
        repos.add(repo_of(e["source"]))
        frameworks.add(t)
    assert len(FILES) >= 48 and len(repos) >= 42, (len(FILES), len(repos))
    assert len(frameworks - {"none", "unclaimed:user-script"}) >= 10, sorted(frameworks)


def test_no_repository_is_shared_with_another_set():
    mine = {repo_of(expect(p)["source"]) for p in FILES}
    others = repos_outside("round19")
    assert not mine & others, sorted(mine & others)


# refused, but not in the label's words once the file's own path is taken out of the message (cfg66: the words asked of a
# refusal are the message's, not its folder's); strict xfails: saying them makes the test fail, so the entry goes
STILL_WRONG = {
    "round19/unclaimed-torchtitan/chelseaisaac__torchtitan-runai-distributed__Dockerfile":
        'refused as a Dockerfile that only runs another script (./run_llama_train.sh, not in the set), '
        "not in the label's words: that it clones and installs pytorch/torchtitan is not read "
        "(installed.py knows the claimed trainers' repositories only); 'torchtitan' was said only by the "
        "file's folder (cfg66)",
}


def test_real_file():
    # (one test over the set, the misses held as strict xfails were: tests/each_case.py says why)
    each(((rel(p), (p,)) for p in FILES), check_read_as_expected, still_wrong=STILL_WRONG)
