"""Issue 24, round 31: the diffusion trainers' files in the shapes users keep — Python launchers, RunPod / Modal /
Docker wrappers, app and GUI configs, notebooks, a saved argv JSON, musubi / sd-scripts TOMLs, and files to refuse
(dataset configs, a ComfyUI workflow, an inference profile, sd-scripts' tools, AutoTrain, repositories' own scripts)
(captured 2026-11-28, helper cfg37).

The real files of fixtures/configs/round31/ (see its README: users' repositories on the train side of the split,
labelled before any reader ran on them). The mechanisms written from them, with variants and near misses, are in
tests/test_configs_cfg37.py. The files attn-doctor still reads otherwise than labelled are strict xfails, each saying
why: reading one right makes its test fail, so its entry goes."""

from __future__ import annotations

from each_case import each

from configs_corpus import repo_of, repos_outside
from configs_corpus import CONFIGS as CORPUS, CLAIMED, check_read_as_expected, check_staged_expect, expect, files, \
    rel, split_module

FILES = files(CORPUS / "round31")

STILL_WRONG = {
    "round31/musubi-tuner/FranckyB__Musubi-Trainer__src__train_wan.py":
        "a GUI module that writes musubi's TOML line by line from Python string lists ('sdpa = true', "
        "'mixed_precision = \"bf16\"') and hands wan_train_network.py to a function of its own: neither is read",
    "round31/musubi-tuner/Simzy420__bba-wan-lora__train_wan22_lora.py":
        "a job runner that checks MUSUBI_DIR/src/musubi_tuner/wan_train_network.py and runs `bash train_commands.sh` "
        "from an uploaded zip: a trainer named only by the path it checks is not read as that trainer",
    "round31/sd-scripts/DualChimerra__chimerra-lora-trainer__colab__LoRA_Trainer.ipynb":
        "clones kohya-ss/sd-scripts and a second (UI) repository and starts a web UI: a GUI start is refused by design "
        "(TRAINER_GUIS), and installed.py takes one cloned repository only",
    "round31/sd-scripts/maTORIx__matorix-sd-scripts__config.json":
        "a front end's own settings JSON whose sd-scripts options are CLI strings in nested lists "
        "('--mixed_precision=fp16') beside `xformers: true`: that schema is not read",
}


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
    assert len(FILES) >= 42 and claimed >= 30 and refused >= 12 and len(repos) >= 29, (len(FILES), claimed, refused,
                                                                                        len(repos))


def test_no_repository_is_shared_with_another_set():
    mine = {repo_of(expect(p)["source"]) for p in FILES}
    others = repos_outside("round31")
    assert not mine & others, sorted(mine & others)


def test_real_file():
    # (one test over the set, the misses held as strict xfails were: tests/each_case.py says why)
    each(((rel(p), (p,)) for p in FILES), check_read_as_expected, still_wrong=STILL_WRONG)
