"""Issue 24, round 52: diffusion trainers' users' files found by content rather than by name (helper cfg52, session 11,
2026-11-29).

fixtures/configs/round52/ (see its README: 27 files from 11 users' repositories on the train side of the split,
labelled from the trainers' own source before any reader ran on them; main read 8 of its 10 claimed files right and
refused all 17 others, benchmarks/results/configs-round52-main*.json) is read file by file, as `check --config FILE`
reads it where the set keeps it, and again in its repositories' layout (every file at its `source` path). The format is
checked as well:
- every file has its expect file, well formed (the staged fields, the capture date, a 40-digit commit, a label of the
  right types and values), its repository on the readers' side of the split and not a trainer's own, the file in the
  folder its trainer names and named after its source, `refused` exactly for the files no claimed trainer reads;
- the set keeps its size (floors = what was gathered: 27 files, 10 claimed, 17 refused, 11 repositories);
- no repository is shared with another folder under fixtures/configs/ (held-out aside, and never listed), and each was
  claimed for this round in the session's claims file when that file is on this machine."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from configs_corpus import BLIND_BACKENDS, BLIND_DTYPES, BLIND_MODES, CLAIMED, check_read_as_expected, \
    check_staged_expect, expect, files, in_repository_layout, rel, repo_of, repos_outside, split_module
from configs_corpus import CONFIGS as CORPUS

ROOT = CORPUS / "round52"
FILES = files(ROOT)
FILES_MIN, CLAIMED_MIN, REFUSED_MIN, REPOS_MIN = 27, 10, 17, 11
CLAIMS = Path("/work/wt/claims.txt")


@pytest.mark.parametrize("path", FILES, ids=rel)
def test_real_file(path):
    check_read_as_expected(path)


@pytest.fixture(scope="module")
def repo_layout(tmp_path_factory) -> dict:
    """Every file of the set at its source path, OWNER/REPO/PATH, as a user's checkout has it (no expect files)."""
    return in_repository_layout(FILES, tmp_path_factory.mktemp("round52-layout"))


@pytest.mark.parametrize("name", [rel(p) for p in FILES])
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
    others = repos_outside("round52")
    assert not mine & others, sorted(mine & others)


@pytest.mark.skipif(not CLAIMS.is_file(), reason="the session's claims file is not on this machine")
def test_every_repository_was_claimed_for_this_round():
    lines = CLAIMS.read_text(encoding="utf-8").splitlines()
    for repo in sorted({expect(p)["source"].split(":", 1)[0] for p in FILES}):
        owners = [ln.split()[2] for ln in lines if ln.startswith(f"REPO {repo} ")]
        assert owners == ["cfg52"], (repo, owners)


def test_no_file_holds_a_key():
    """No file of the set carries a Hugging Face token or an API key (psidox's config.example.json has an empty
    runpodApiKey, kept as it is)."""
    for p in FILES:
        text = p.read_text(encoding="utf-8", errors="replace")
        assert not re.search(r"\bhf_[A-Za-z0-9]{30,}\b", text), p
        assert not re.search(r"(api_key|token|ApiKey)\W{1,3}[0-9A-Za-z]{32,}", text, re.IGNORECASE), p
