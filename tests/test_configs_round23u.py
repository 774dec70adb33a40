"""Issue 24, round 23u: files that are no claimed trainer's config but look like one (fixtures/configs/round23u/, see
its README).

37 files from users' repositories on the train side of the split: other frameworks' configs and launches (LLM Foundry,
LeRobot, Ultralytics YOLO, MMSegmentation, a Hydra run's snapshot of a Lightning app, laksjdjf's sd-trainer, Eden's
flux-trainer, a Ray Train DreamBooth, users' own trainers), cloud job specs (SkyPilot tasks, a Baseten Training job, a
Modal app's config) and files that sit beside configs and train nothing (LLaMA-Factory's dataset_info.json, a
diffusion-pipe dataset TOML, a DeepSpeed YAML, transformers' trainer_state.json, a Lightning hparams.yaml, a VS Code
launch.json, ComfyUI workflows and node lists, Truss serving configs, docker-compose files, a requirements.txt). Each is
refused in one line with the words its expect file asks for (`refused`). The rules behind the refusals round 23u added
are tested with variants in tests/test_configs_round23u_rules.py."""

from __future__ import annotations

from each_case import each

from configs_corpus import CONFIGS as CORPUS, CLAIMED, check_read_as_expected, check_staged_expect, expect, files, \
    rel, repo_of, repos_outside, split_module

FILES = files(CORPUS / "round23u")


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
    assert len(FILES) >= 37 and len(repos) >= 27, (len(FILES), len(repos))
    assert len(frameworks - {"none", "unclaimed:user-script"}) >= 10, sorted(frameworks)


def test_no_repository_is_shared_with_another_set():
    mine = {repo_of(expect(p)["source"]) for p in FILES}
    others = repos_outside("round23u")
    assert not mine & others, sorted(mine & others)


def test_real_file():
    each(((rel(p), (p,)) for p in FILES), check_read_as_expected)  # (one test over the set: tests/each_case.py)
