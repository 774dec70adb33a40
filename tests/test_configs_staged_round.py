"""configs_corpus.staged_round, the tests every staged config round repeats (rounds 41m, 47m, 50, 51, 52 take them):
each test it hands out fails where the set breaks what it checks (a floor above the set, a claim by another helper, a
miss no longer listed), so a round's module that takes them keeps the old files' assertions."""

from __future__ import annotations

import os

import pytest

from configs_corpus import CONFIGS, check_read_as_expected, claim_of, expect, files, refusal, refused_in_its_words, \
    staged_round, without_path

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


def test_a_round_claimed_by_another_helper_fails(tmp_path):
    """Against a claims file of its own (the session's file on this machine holds only this session's claims)."""
    claims = tmp_path / "claims.txt"
    sources = sorted({claim_of(expect(p)["source"]) for p in files(CONFIGS / "round50")})
    claims.write_text("".join(f"{c}cfg50\n" for c in sources) + "REPO some/other cfg52\n", encoding="utf-8")
    staged_round("round50", **FLOORS, claimed_by="cfg50", claims=claims)["test_every_repository_was_claimed_for_this_round"]()
    with pytest.raises(AssertionError):
        staged_round("round50", **FLOORS, claimed_by="cfg52", claims=claims)["test_every_repository_was_claimed_for_this_round"]()
    claims.write_text("".join(f"{c}cfg50\n" for c in sources[1:]) + f"{sources[0]}cfg52\n", encoding="utf-8")
    with pytest.raises(AssertionError):  # one source claimed by another helper
        staged_round("round50", **FLOORS, claimed_by="cfg50", claims=claims)["test_every_repository_was_claimed_for_this_round"]()


def test_the_misses_are_held_as_strict_xfails_were(monkeypatch):
    """A listed miss must fail (it may), a listed file that reads right fails the test naming it and why it was listed,
    and an unlisted file read wrong fails naming it, flat and in the repository layout (the readings are one test per
    set since session 34, tests/each_case.each; before, strict xfail items). FAKES the reading: `wrong` files fail."""
    import configs_corpus

    paths = files(CONFIGS / "round50")
    one, other = (p.relative_to(CONFIGS).as_posix() for p in paths[:2])
    wrong = set()

    def reading(path, labelled=None):
        assert (labelled or path).relative_to(CONFIGS).as_posix() not in wrong, "read wrong"

    monkeypatch.setattr(configs_corpus, "check_read_as_expected", reading)
    layout = {p.relative_to(CONFIGS).as_posix(): p for p in paths}  # (the files where they are: the fake reads any path)
    for test, why, kw in (("test_real_file", "why flat", "still_wrong"),
                          ("test_real_file_in_its_repository_layout", "why there", "still_wrong_in_layout")):
        run = staged_round("round50", **FLOORS, **{kw: {one: why}})[test]
        args = (layout,) if "layout" in test else ()
        wrong.clear()
        with pytest.raises(AssertionError) as err:  # listed, reads right
            run(*args)
        assert f"1 of {len(paths)} cases failed" in str(err.value) and f"{one}: passes" in str(err.value), err.value
        assert why in str(err.value)
        wrong.add(one)
        run(*args)  # listed, read wrong: as it should
        wrong.add(other)
        with pytest.raises(AssertionError) as err:  # not listed, read wrong
            run(*args)
        assert f"{other}: AssertionError: read wrong" in str(err.value) and f"{one}:" not in str(err.value), err.value


# cfg66: a refusal is in its label's words only where the message says them, not where it prints the refused file's
# path: a label "verl" is in every path under unclaimed-verl/ (flat layout) and volcengine/verl/ (repository layout)
_UNNAMED = " is not a trainer config attn-doctor recognises (it reads SimpleTuner, musubi-tuner, axolotl)"
_NAMED = " looks like verl (actor_rollout_ref:), which attn-doctor does not read yet"


@pytest.mark.parametrize("path", [
    "fixtures/configs/round9/unclaimed-verl/someone__repo__sft_config.yaml",  # flat, relative
    "/tmp/pytest-7/round9-layout0/volcengine/verl/examples/sft/run_sft.sh",  # repository layout, absolute
    "C:\\Users\\me\\unclaimed-verl\\sft_config.yaml",  # Windows, as given
    "D:/runs/verl/configs/ppo.yaml",  # Windows drive, forward slashes
])
def test_the_label_said_only_by_the_path_is_not_the_refusals_words(path):
    for shown in {path, path.replace("/", "\\"), path.replace("\\", "/"), path.replace("\\", "\\\\")}:
        assert "verl" in f"--config: {shown}{_UNNAMED}"  # the loophole: anywhere in the message
        assert not refused_in_its_words(f"--config: {shown}{_UNNAMED}", "verl", path), shown
        assert refused_in_its_words(f"--config: {shown}{_NAMED}", "verl", path), shown


def test_the_path_is_taken_out_in_its_absolute_form_too():
    rel_path = "fixtures/configs/round9/unclaimed-verl/x.yaml"
    msg = f"--config: {os.path.abspath(rel_path)}{_UNNAMED}"
    assert "\0" in without_path(msg, rel_path) and "verl" not in without_path(msg, rel_path)


def test_no_words_join_across_the_path():
    # "ver" + path + "l ..." must not read as "verl"
    assert not refused_in_its_words("--config: ver/tmp/a/b.yamll is refused", "verl", "/tmp/a/b.yaml")


def _labelled(tmp_path, folder: str, name: str, text: str, words: str):
    p = tmp_path / folder / name
    p.parent.mkdir(parents=True)
    p.write_text(text, encoding="utf-8")
    p.with_name(name + ".expect.toml").write_text(
        f'source = "someone/repo:{name}"\ntrainer = "unclaimed:verl"\nrequired = []\ndtype = ""\ncompile_mode = ""\n'
        f'why = "a test"\nrefused = "{words}"\n', encoding="utf-8")
    return p


def test_the_corpus_check_fails_a_refusal_that_names_the_label_only_in_its_path(tmp_path):
    p = _labelled(tmp_path, "unclaimed-verl", "verl_notes.yaml", "colour: blue\nsize: 3\n", "verl")
    with pytest.raises(AssertionError):
        check_read_as_expected(p)


def test_the_corpus_check_passes_a_refusal_in_the_labels_words(tmp_path):
    text = ("defaults:\n  - sft_trainer\n  - _self_\nmodel:\n  partial_pretrain: Qwen/Qwen2.5-0.5B-Instruct\n"
            "ulysses_sequence_parallel_size: 2\nuse_remove_padding: true\n")
    check_read_as_expected(_labelled(tmp_path, "unclaimed-verl", "sft.yaml", text, "verl"))


def test_a_variants_refusal_does_not_carry_its_file_name(tmp_path):
    # the variants' refusal() takes the written file's path out too, so a variant named after a framework does not
    # hand its test the framework's name
    (tmp_path / "unclaimed-verl").mkdir()
    msg = refusal(tmp_path / "unclaimed-verl", "verl_sft.yaml", "colour: blue\nsize: 3\n")
    assert msg.startswith("--config: ") and "verl" not in msg, msg
