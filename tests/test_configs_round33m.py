"""Issue 24, round 33m: a measure-only fresh set of users' trainer configs and launch scripts (helper cfg33m, session 9, 2026-11-28).

fixtures/configs/round33m/ (see its README: 42 files from 25 users' repositories on the train side of the split, taken as
the look-ups returned them, labelled from the trainers' own source; no reader was run on them by the helper) is not read
file by file here, and no measured figure is held: the lead measures the set once, at the end of the session. What is
checked is the format:
- every file has its expect file, well formed (the staged fields, capture date, a 40-digit commit, a label of the right
  types and values), its repository on the readers' side of the split and not a trainer's own, the file in the folder its
  trainer names and named after its source, `refused` exactly for files no claimed trainer reads;
- the set keeps its size (floors = what was gathered: 42 files, 25 claimed, 17 unclaimed or none, 25 repositories);
- no repository is shared with another folder under fixtures/configs/ (held-out aside, and never listed)."""

from __future__ import annotations

import re

from configs_corpus import repo_of, repos_outside
from configs_corpus import CONFIGS as CORPUS, CLAIMED, check_staged_expect, expect, files, split_module

ROOT = CORPUS / "round33m"
FILES = files(ROOT)
BACKENDS = {"sdpa", "flex", "fa2", "fa3", "cute", "sage", "xformers"}
DTYPES = {"", "bfloat16", "float16", "float32"}
MODES = {"", "default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs"}


def _repo(source: str) -> str:
    return source.split(":", 1)[0].split("#")[0]


def test_the_set_is_there_well_formed_and_on_the_readers_side_of_the_split():
    split = split_module()
    claimed = refused = 0
    repos = set()
    for p in FILES:
        e = expect(p)
        t = check_staged_expect(p, e, split)
        assert e["captured"] == "2026-11-28" and re.fullmatch(r"[0-9a-f]{40}", e["commit"]), p
        assert isinstance(e["required"], list) and set(e["required"]) <= BACKENDS, p
        assert len(e["required"]) == len(set(e["required"])), p
        assert e["dtype"] in DTYPES and e["compile_mode"] in MODES, p
        assert e["why"].strip(), p
        if t not in CLAIMED:  # a refused file asks for nothing
            assert e["required"] == [] and e["dtype"] == "" and e["compile_mode"] == "", p
            assert e["refused"].strip(), p
        assert p.name == _repo(e["source"]).replace("/", "__") + "__" + e["source"].split(":", 1)[1].replace("/", "__"), p
        repos.add(_repo(e["source"]))
        claimed += t in CLAIMED
        refused += t not in CLAIMED
    assert len(FILES) >= 42 and claimed >= 25 and refused >= 17 and len(repos) >= 25, (len(FILES), claimed, refused)


def test_every_expect_file_has_its_corpus_file():
    for e in ROOT.rglob("*.expect.toml"):
        assert e.with_name(e.name[: -len(".expect.toml")]).is_file(), e


def test_no_repository_is_shared_with_another_set():
    """round33m's repositories are fresh: none of them feeds fixtures/configs/real/, another round or a loose expect
    file at the top of fixtures/configs/ (held-out aside, and never listed)."""
    mine = {repo_of(expect(p)["source"]) for p in FILES}
    others = repos_outside("round33m")
    assert not mine & others, sorted(mine & others)
