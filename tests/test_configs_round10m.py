"""Issue 24, round 10m: a measure-only fresh set of users' trainer configs and launch scripts (helper cfg10m, 2026-11-28).

fixtures/configs/round10m/ (see its README: 62 files from 55 users' repositories on the train side of the split, taken as
searches returned them, labelled from the trainers' own source; no reader was run on them by the helper) is not read file
by file here, and no measured figure is held: the lead measures the set once, at the end of the session. What is checked
is the format:
- every file has its expect file, well formed (the staged fields, capture date, a 40-digit commit), its repository on the
  readers' side of the split and not a trainer's own, the file in the folder its trainer names, `refused` exactly for files
  no claimed trainer reads;
- the set keeps its size (floors = what was gathered: 62 files, 40 claimed, 22 unclaimed or none, 55 repositories);
- no repository is shared with another folder under fixtures/configs/ (held-out aside, and never listed)."""

from __future__ import annotations

from configs_corpus import repo_of, repos_outside
from configs_corpus import CONFIGS as CORPUS, CLAIMED, check_staged_expect, expect, files, split_module

FILES = files(CORPUS / "round10m")


def _repo(source: str) -> str:
    return source.split(":", 1)[0].split("#")[0]


def test_the_set_is_there_well_formed_and_on_the_readers_side_of_the_split():
    split = split_module()
    claimed = refused = 0
    repos = set()
    for p in FILES:
        e = expect(p)
        t = check_staged_expect(p, e, split)
        assert e["captured"] == "2026-11-28" and len(e["commit"]) == 40, p
        int(e["commit"], 16)
        assert isinstance(e["required"], list) and isinstance(e["dtype"], str) and isinstance(e["compile_mode"], str), p
        assert e["why"].strip(), p
        assert p.name == _repo(e["source"]).replace("/", "__") + "__" + e["source"].split(":", 1)[1].replace("/", "__"), p
        repos.add(_repo(e["source"]))
        claimed += t in CLAIMED
        refused += t not in CLAIMED
    assert len(FILES) >= 62 and claimed >= 40 and refused >= 22 and len(repos) >= 55, (len(FILES), claimed, refused)


def test_every_expect_file_has_its_corpus_file():
    root = CORPUS / "round10m"
    for e in root.rglob("*.expect.toml"):
        assert e.with_name(e.name[: -len(".expect.toml")]).is_file(), e


def test_no_repository_is_shared_with_another_set():
    """round10m's repositories are fresh: none of them feeds fixtures/configs/real/, another round or a loose expect
    file at the top of fixtures/configs/ (held-out aside, and never listed)."""
    mine = {repo_of(expect(p)["source"]) for p in FILES}
    others = repos_outside("round10m")
    assert not mine & others, sorted(mine & others)
