"""configs_corpus.staged_round, the tests every staged config round repeats (rounds 41m, 47m, 50, 51, 52 take them):
each test it hands out fails where the set breaks what it checks (a floor above the set, a claim by another helper, a
miss no longer listed), so a round's module that takes them keeps the old files' assertions."""

from __future__ import annotations

import pytest

from configs_corpus import CLAIMS, files, staged_round, CONFIGS

FLOORS = dict(files_min=30, claimed_min=8, refused_min=22, repos_min=19, captured="2026-11-29")
WELL_FORMED = "test_the_set_is_there_well_formed_and_on_the_readers_side_of_the_split"


def test_the_tests_it_hands_out():
    assert set(staged_round("round50", **FLOORS)) == {
        "test_real_file", "test_real_file_in_its_repository_layout", "repo_layout", WELL_FORMED,
        "test_every_expect_file_has_its_corpus_file", "test_no_repository_is_shared_with_another_set"}
    assert "test_every_repository_was_claimed_for_this_round" in staged_round("round50", **FLOORS, claimed_by="cfg50")


@pytest.mark.parametrize("floor", ["files_min", "claimed_min", "refused_min", "repos_min"])
def test_a_floor_above_the_set_fails(floor):
    staged_round("round50", **FLOORS)[WELL_FORMED]()  # the set's own floors hold
    with pytest.raises(AssertionError):
        staged_round("round50", **{**FLOORS, floor: FLOORS[floor] + 1})[WELL_FORMED]()


def test_another_capture_date_fails():
    with pytest.raises(AssertionError):
        staged_round("round50", **{**FLOORS, "captured": "2026-11-28"})[WELL_FORMED]()


@pytest.mark.skipif(not CLAIMS.is_file(), reason="the session's claims file is not on this machine")
def test_a_round_claimed_by_another_helper_fails():
    staged_round("round50", **FLOORS, claimed_by="cfg50")["test_every_repository_was_claimed_for_this_round"]()
    with pytest.raises(AssertionError):
        staged_round("round50", **FLOORS, claimed_by="cfg52")["test_every_repository_was_claimed_for_this_round"]()


def test_the_misses_are_strict_xfails_with_their_reason():
    one = files(CONFIGS / "round50")[0]
    name = one.relative_to(CONFIGS).as_posix()
    tests = staged_round("round50", **FLOORS, still_wrong={name: "why flat"}, still_wrong_in_layout={name: "why there"})
    for test, why in (("test_real_file", "why flat"), ("test_real_file_in_its_repository_layout", "why there")):
        params = [m for m in tests[test].pytestmark if m.name == "parametrize"][0].args[1]
        marked = [p for p in params if getattr(p, "marks", ())]
        assert len(marked) == 1 and marked[0].marks[0].kwargs == {"strict": True, "reason": why}, marked
