"""Issue 24, round 21: users' trainer configs and launch scripts of the claimed trainers (captured 2026-11-28).

The real files of fixtures/configs/round21/ (see its README: users' repositories and files users added to their forks of
the trainers, on the train side of the split, labelled from the trainers' own source before any reader ran on them)."""

from __future__ import annotations

from configs_corpus import repo_of, repos_outside
from configs_corpus import CONFIGS as CORPUS, CLAIMED, check_staged_expect, expect, files, split_module

FILES = files(CORPUS / "round21")


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
    assert len(FILES) >= 45 and claimed >= 37 and refused >= 7 and len(repos) >= 35, (len(FILES), claimed, refused,
                                                                                        len(repos))


def test_no_repository_is_shared_with_another_set():
    mine = {repo_of(expect(p)["source"]) for p in FILES}
    others = repos_outside("round21")
    assert not mine & others, sorted(mine & others)


from each_case import each  # noqa: E402

from configs_corpus import check_read_as_expected, rel  # noqa: E402


def test_real_file():
    each(((rel(p), (p,)) for p in FILES), check_read_as_expected)  # (one test over the set: tests/each_case.py)
