"""The real-world corpus (fixtures/configs/real/, see its README): every published config file and saved
command line is detected as its trainer and gives the expected required backends, dtype and compile mode.

Where attn-doctor reads a trainer's code differently from the expect file, DISAGREE names the file, the field,
attn-doctor's value and why; the test asserts attn-doctor's value and that the expect file still differs."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

from attn_doctor import configs
from configs_corpus import without_path
from attn_doctor.model import UsageError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "configs" / "real"
# issue 24 round 3: claimed trainers' configs from 28 more users' repositories, kept apart as a measurement set
# (benchmarks/configs_heldout.py --dir fixtures/configs/round3a; its README) and read here like the rest
ROUND3A = REAL.parent / "round3a"
ROUND3A2 = REAL.parent / "round3a2"  # gathered after round3a's changes and measured before any change made from it
ROUND3A3 = REAL.parent / "round3a3"  # the same, after round3a2's changes
ROUND4A = REAL.parent / "round4a"  # issue 24 round 4a: diffusion/video trainers' files, measured before its changes


def _corpus(root: Path) -> list:
    return sorted(p for p in root.rglob("*") if p.is_file() and not p.name.endswith(".expect.toml")
                  and p.name not in ("README.md", "TRAINERS.md", "ROUND2_SPLIT.tsv")
                  and not p.name.startswith("SEMANTICS-")  # the semantics audits' notes (SEMANTICS-llm.md, SEMANTICS-diffusion.md)
                  and not hydra_companion(p))


def hydra_companion(p: Path) -> bool:
    """A file of a Hydra app kept in its repository layout under real/hydra/ (cfg88) that is not read on its own: the
    app's config folder and modules, read by the launch or script that has the expect file."""
    return p.is_relative_to(REAL / "hydra") and not p.with_name(p.name + ".expect.toml").is_file()


FILES = _corpus(REAL) + _corpus(ROUND3A) + _corpus(ROUND3A2) + _corpus(ROUND3A3) + _corpus(ROUND4A)
# the expect files' trainer names -> attn-doctor's reader ids
TRAINER = {"musubi-tuner": "musubi", "blissful-tuner": "blissful"}

# (the three SimpleTuner Hub-kernel examples once here were relabelled required [] by cfg131, and SimpleTuner's FLEX.md
# snippet dtype bfloat16 (its mixed_precision default) by cfg132: their expect files)
# (NeviumX's sd-scripts template with mixed_precision = "" was here as float32 until cfg132: Accelerator(mixed_precision="")
# raises before prepare_dtype matters, so no dtype reaches attention, as its label says: configs/sd_scripts.py)
DISAGREE: dict = {}
FP8 = ("attn_implementation: fp8 loads the model with sdpa and then torchao replaces F.scaled_dot_product_attention "
       "with its FP8 attention (monkeypatch/attention/fp8_attn.py): what runs is torchao's, which attn-doctor does not "
       "check (config.backend-not-checked)")
# (the axolotl snippets' dtype and the gpt-oss Hub-kernel labels were corrected to the source in the semantics audit:
# fixtures/configs/real/SEMANTICS-llm.md)
TRL_BF16 = ("TRL's configs default bf16 to `not fp16` since TRL 0.19 (huggingface/trl@f2cd577 trl/trainer/base_config.py:"
            "104-105), so with the TRL of this file's commit it trains under bf16 autocast; the file itself says nothing "
            "that dates it (no `dtype` key, the name TRL uses since 208e9f7df), and before 0.19 bf16 stayed False")
DISAGREE.update({
    "axolotl/docs_attention.qmd__fp8.yaml": ("required", [], FP8),
    "transformers/trl__cli_configs__example_config.yaml": ("dtype", "", TRL_BF16),
})
# Snippets from the trainers' docs that hold only keys two trainers share: detection says so in one line
# (exit 2) and --trainer with the expect file's trainer reads them.
AMBIGUOUS = {"axolotl/docs_attention.qmd__flex_compile.yaml", "axolotl/docs_attention.qmd__hub_fa3.yaml"}
# A blissful-tuner file that uses none of blissful-tuner's own options is a musubi-tuner file: the same
# parser, the same reading (configs/blissful.py); the test accepts musubi for it.
SAME_READING = {"blissful": "musubi"}
# Files no trainer can read: one line, exit 2 (the trainer itself fails on them too).
INVALID = {
    "blissful-tuner/DustyL__dlay_lokr_prodigy_training.toml":
        ("not valid TOML", "`num_timestep_buckets = null`: TOML has no null; musubi-tuner's toml.load (toml 0.10.2) raises TomlDecodeError on it too"),
}


def rel(p: Path) -> str:
    """A file's name in the tables above: relative to real/, or round3a/... for the round-3 set."""
    return p.relative_to(REAL).as_posix() if REAL in p.parents else p.relative_to(REAL.parent).as_posix()


def expect(p: Path) -> dict:
    return tomllib.loads(p.with_name(p.name + ".expect.toml").read_text())


def test_the_corpus_is_there_and_every_file_says_what_it_should_give():
    assert len(FILES) >= 60
    missing = [rel(p) for p in FILES if not p.with_name(p.name + ".expect.toml").is_file()]
    assert missing == []
    for p in FILES:
        e = expect(p)
        assert {"source", "trainer", "required", "dtype", "compile_mode", "why"} <= set(e), rel(p)
    trainers = Counter(expect(p)["trainer"] for p in FILES if not expect(p).get("refused"))
    assert len(trainers) >= 15, trainers
    refused = [p for p in FILES if expect(p).get("refused")]
    assert all(expect(p)["trainer"] in ("", "none") for p in refused)  # "none": the held-out format (round4a)
    assert len({expect(p)["refused"] for p in refused}) >= 5  # five unclaimed frameworks at least, and a dataset config
    assert set(DISAGREE) | set(INVALID) | AMBIGUOUS | set(STILL_WRONG) <= {rel(p) for p in FILES}


# Real files attn-doctor still reads wrong (strict xfails: a fix makes the entry go), with why
STILL_WRONG: dict = {}  # (cfg90: tall-e/finetuning's scripts/train_hydra.py is read through src/trainers/__init__.py's
#  re-export, configs.own_definition)


@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.xfail(strict=True, reason=STILL_WRONG[rel(p)]))
                                  if rel(p) in STILL_WRONG else p for p in FILES], ids=rel)
def test_real_config(path):
    e = expect(path)
    name = rel(path)
    if e.get("refused"):  # a file of a framework attn-doctor does not read, or a dataset config: refused, one line
        with pytest.raises(UsageError) as err:
            configs.load(str(path))
        assert "\n" not in str(err.value) and str(err.value).startswith("--config: ")
        assert e["refused"] in without_path(str(err.value), path), str(err.value)  # its words, not its folder's
        return
    if name in INVALID:
        with pytest.raises(UsageError, match=INVALID[name][0]) as err:
            configs.load(str(path))
        assert "\n" not in str(err.value)
        return
    if name in AMBIGUOUS:
        with pytest.raises(UsageError, match="--trainer") as err:
            configs.load(str(path))
        assert "\n" not in str(err.value)
    cfg = configs.load(str(path), TRAINER.get(e["trainer"], e["trainer"]) if name in AMBIGUOUS else None)
    got = {"trainer": cfg["detected"]["trainer"], "required": cfg["required"], "dtype": cfg["dtype"] or "",
           "compile_mode": cfg["compile_mode"] or "none"}
    want = {"trainer": TRAINER.get(e["trainer"], e["trainer"]), "required": e["required"], "dtype": e["dtype"],
            "compile_mode": e["compile_mode"] or "none"}
    diffs = DISAGREE.get(name, [])
    for field, ours, _why in [diffs] if isinstance(diffs, tuple) else diffs:
        assert want[field] != ours, f"{name}: the expect file now agrees on {field}; drop it from DISAGREE"
        want[field] = ours
    if got["trainer"] == SAME_READING.get(want["trainer"]):
        from attn_doctor.configs import blissful

        assert not blissful.OWN_KEYS & set(configs.make_doc(str(path), path.read_text())["keys"])
        want["trainer"] = got["trainer"]
    assert got == want
    assert cfg["detected"]["by"] == ("--trainer" if name in AMBIGUOUS else "content")
    assert cfg["detected"]["evidence"]


def test_figures(capsys):
    """How many files, per trainer, read as expected (printed for the report; the asserts are above)."""
    per = Counter(expect(p)["trainer"] or "refused" for p in FILES)
    with capsys.disabled():
        print(f"\ncorpus: {len(FILES)} files, {len(per)} trainers ({', '.join(f'{k} {v}' for k, v in sorted(per.items()))}); "
              f"{len(DISAGREE)} read differently from their expect file on purpose, {len(AMBIGUOUS)} ambiguous snippets "
              f"settled by --trainer, {len(INVALID)} invalid")
