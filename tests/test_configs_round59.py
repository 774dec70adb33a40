"""Round 59: users' diffusion / video trainer files of 2025-26 (helper cfg59, session 13, 2026-11-29; training material).

fixtures/configs/round59/ (see its README: 25 files from 13 users' repositories on the train side of the split: a
diffusion-pipe Wan TOML of a user's fork, a HunyuanVideo 1.5 musubi-tuner wrapper and its compose file, a FLUX.2 klein
musubi config generator, ai-toolkit Z-Image jobs (a ComfyUI node's Jinja2 template and the node that runs it, a RunPod
worker that builds the job dict and dumps it), a diffusers CogVideoX example copy's launcher, and 17 files no claimed
trainer reads, labelled from the trainers' own source before any reader ran) is read file by file, as `check --config
FILE` reads it where the set keeps it, and again in its repositories' layout (every file at its `source` path). main
(aa38878) read 3 / 8 claimed files right in both layouts and 2 (flat) / 1 (repository layout) unclaimed files as a
trainer, branch cfg59 6 / 8 and 1 / 0; the format is checked as in round 55:
- every file has its expect file, well formed, its repository on the readers' side of the split and not a trainer's
  own, the file in the folder its trainer names and named after its source, `refused` exactly for the files no claimed
  trainer reads;
- the set keeps its size (floors = what was gathered: 25 files, 8 claimed, 17 refused, 13 repositories);
- no repository is shared with another folder under fixtures/configs/, and each was claimed for this round in the
  session's claims file when that file is on this machine."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from configs_corpus import BLIND_BACKENDS, BLIND_DTYPES, BLIND_MODES, CLAIMED, check_read_as_expected, \
    check_staged_expect, expect, files, in_repository_layout, rel, repo_of, repos_outside, split_module
from configs_corpus import CONFIGS as CORPUS

ROOT = CORPUS / "round59"
FILES = files(ROOT)
FILES_MIN, CLAIMED_MIN, REFUSED_MIN, REPOS_MIN = 25, 8, 17, 13
CLAIMS = Path("/work/wt/claims.txt")

_NODE = ("a Python node that renders templates/base_config.yaml.j2 with jinja2.Template and runs ai-toolkit's run.py "
         "on the file it writes: the job is the template's, which a reader of the script does not follow")
_COMPOSE = ("a compose service that runs the repository's own train_local.py with options of its own: refused by "
            "design (the script is read by itself, with its defaults)")
STILL_WRONG = {
    "round59/ai-toolkit/HelloWarcraft__comfy-aitoolkit-trainer__trainer_node.py": _NODE,
    "round59/musubi-tuner/mrbizarro__hunyuan1.5trainer__docker-compose.yml": _COMPOSE,
}
STILL_WRONG_FLAT = dict(STILL_WRONG, **{
    "round59/none/mrbizarro__hunyuan1.5trainer__Dockerfile.local":
        "a Dockerfile under a flattened name with a dot in it (not taken as a Dockerfile by name or text), so its "
        "exec-form CMD [\"python\", \"train_local.py\", \"--help\"] is not read; in the repository layout it is",
})


def _marked(paths, wrong):
    return [pytest.param(p, marks=pytest.mark.xfail(strict=True, reason=wrong[rel(p)])) if rel(p) in wrong else p
            for p in paths]


@pytest.mark.parametrize("path", _marked(FILES, STILL_WRONG_FLAT), ids=rel)
def test_real_file(path):
    check_read_as_expected(path)


@pytest.fixture(scope="module")
def repo_layout(tmp_path_factory) -> dict:
    """Every file of the set at its source path, OWNER/REPO/PATH, as a user's checkout has it (no expect files)."""
    return in_repository_layout(FILES, tmp_path_factory.mktemp("round59-layout"))


@pytest.mark.parametrize("name", [pytest.param(rel(p), marks=pytest.mark.xfail(strict=True, reason=STILL_WRONG[rel(p)]))
                                  if rel(p) in STILL_WRONG else rel(p) for p in FILES])
def test_real_file_in_its_repository_layout(repo_layout, name):
    check_read_as_expected(Path(repo_layout[name]), CORPUS / name)


def test_the_set_is_there_well_formed_and_on_the_readers_side_of_the_split():
    split = split_module()
    claimed = refused = 0
    repos = set()
    for p in FILES:
        e = expect(p)
        t = check_staged_expect(p, e, split)
        assert e["captured"] == "2026-11-29" and re.fullmatch(r"[0-9a-f]{40}", e["commit"]), p
        assert isinstance(e["required"], list) and set(e["required"]) <= BLIND_BACKENDS, p
        assert e["dtype"] in BLIND_DTYPES and e["compile_mode"] in BLIND_MODES and e["why"].strip(), p
        if t not in CLAIMED:  # a refused file asks for nothing
            assert e["required"] == [] and e["dtype"] == "" and e["compile_mode"] == "" and e["refused"].strip(), p
        repo = e["source"].split(":", 1)[0]
        assert p.name == repo.replace("/", "__") + "__" + e["source"].split(":", 1)[1].replace("/", "__"), p
        repos.add(repo)
        claimed += t in CLAIMED
        refused += t not in CLAIMED
    assert len(FILES) >= FILES_MIN and claimed >= CLAIMED_MIN and refused >= REFUSED_MIN and \
        len(repos) >= REPOS_MIN, (len(FILES), claimed, refused, len(repos))


def test_every_expect_file_has_its_corpus_file():
    for e in ROOT.rglob("*.expect.toml"):
        assert e.with_name(e.name[: -len(".expect.toml")]).is_file(), e


def test_no_repository_is_shared_with_another_set():
    mine = {repo_of(expect(p)["source"]) for p in FILES}
    others = repos_outside("round59")
    assert not mine & others, sorted(mine & others)


@pytest.mark.skipif(not CLAIMS.is_file(), reason="the session's claims file is not on this machine")
def test_every_repository_was_claimed_for_this_round():
    lines = CLAIMS.read_text(encoding="utf-8").splitlines()
    for repo in sorted({expect(p)["source"].split(":", 1)[0] for p in FILES}):
        owners = [ln.split()[2] for ln in lines if ln.startswith(f"REPO {repo} ")]
        assert owners == ["cfg59"], (repo, owners)


def test_no_file_holds_a_key():
    """No file of the set carries a Hugging Face token or an API key (zakack's wan-config.toml has the placeholder
    wandb_api_key = "xxxxxxx"; the RunPod worker reads its keys from the environment)."""
    for p in FILES:
        text = p.read_text(encoding="utf-8", errors="replace")
        assert not re.search(r"\bhf_[A-Za-z0-9]{30,}\b", text), p
        assert not re.search(r"(api_key|token|ApiKey)\W{1,3}[0-9A-Za-z]{32,}", text, re.IGNORECASE), p
