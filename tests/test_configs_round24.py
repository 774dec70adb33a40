"""Issue 24, round 24: runner files from users' repositories — Docker Compose files, Kubernetes manifests, GitHub Actions
workflows (captured 2026-11-28).

The real files of fixtures/configs/round24/ (see its README: users' repositories on the train side of the split,
labelled before any reader ran on them; one `refused` wording changed in phase 2, saying so in its `why`). All 15 are
near misses the runner readers of configs/runners.py must keep refusing: serving (vLLM), a web UI or Jupyter, an image
build, the repository's own scripts, a training posted to Replicate's API. The runners that run a claimed trainer are
the variants of tests/test_configs_round24_rules.py."""

from __future__ import annotations

from configs_corpus import repo_of, repos_outside
from configs_corpus import CONFIGS as CORPUS, CLAIMED, check_staged_expect, expect, files, split_module

FILES = files(CORPUS / "round24")


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
    assert len(FILES) >= 15 and refused >= 15 and len(repos) >= 15, (len(FILES), claimed, refused, len(repos))


def test_no_repository_is_shared_with_another_set():
    mine = {repo_of(expect(p)["source"]) for p in FILES}
    others = repos_outside("round24")
    assert not mine & others, sorted(mine & others)


from each_case import each  # noqa: E402

from configs_corpus import check_read_as_expected, rel  # noqa: E402


def test_real_file():
    each(((rel(p), (p,)) for p in FILES), check_read_as_expected)  # (one test over the set: tests/each_case.py)
