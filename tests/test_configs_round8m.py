"""Issue 24, round 8m: a measure-only fresh set of users' trainer configs and launch scripts (helper cfgm, 2026-11-28).

fixtures/configs/round8m/ (see its README: 56 files from 39 users' repositories on the train side of the split, taken as
searches returned them, labelled from the trainers' own source before any reader ran) is not read file by file here:
nobody tuned the readers on it, and the files main misses are its point. What is checked:
- format: every file has its expect file, well formed, its repository on the readers' side of the split and not a
  trainer's own, the file in the folder its trainer names, `refused` exactly for files no claimed trainer reads;
- the set keeps its size (floors = what was gathered: 56 files, 38 claimed, 18 unclaimed or none);
- floors on what main's readers at 66ad44f measured (benchmarks/results/configs-round8m-measured.json, the figures in
  the README): claimed files read right in all four fields >= 32 of 38, unclaimed / none refused >= 16 of 18, read as a
  trainer <= 2. A change that loses one of those readings fails here; one that gains should raise the floor.
Then (2026-11-28, the next step) round 8m became training material (tests/test_configs_round8m_rules.py): 37 of 38 right,
17 of 18 refused, 1 read as a trainer (IP-Adapter's train_sdxl.py, named like a diffusers research script)."""

from __future__ import annotations

import importlib.util

import pytest

from configs_corpus import repo_of, repos_outside
from configs_corpus import CONFIGS as CORPUS, CLAIMED, ROOT, check_staged_expect, expect, files, split_module

FILES = files(CORPUS / "round8m")


def test_the_set_is_there_well_formed_and_on_the_readers_side_of_the_split():
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
    assert len(FILES) >= 56 and claimed >= 38 and refused >= 18 and len(repos) >= 39, (len(FILES), claimed, refused)


def test_no_repository_is_shared_with_another_set():
    """round8m's repositories are fresh: none of them feeds fixtures/configs/real/ or another round (held-out aside)."""
    mine = {repo_of(expect(p)["source"]) for p in FILES}
    others = repos_outside("round8m")
    assert not mine & others, sorted(mine & others)


def _benchmark():
    spec = importlib.util.spec_from_file_location("configs_heldout", ROOT / "benchmarks" / "configs_heldout.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("floor", [dict(all_right=37, unclaimed_refused=17, read_as_trainer=1)])
def test_the_readers_keep_what_they_measured_on_this_set(floor):
    bench = _benchmark()
    root = CORPUS / "round8m"
    s = bench.summarise([bench.score(p, root) for p in bench.corpus(root)])
    assert s["files"] == len(FILES) and s["crashed"] == 0
    assert s["claimed_all_right"] >= floor["all_right"], s["claimed_right"]
    assert s["unclaimed_refused"] >= floor["unclaimed_refused"]
    assert s["unclaimed_read_as_trainer"] <= floor["read_as_trainer"], s["per_unclaimed"]
