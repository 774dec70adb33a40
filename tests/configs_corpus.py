"""What the trainer-config corpus tests share (fixtures/configs/: the held-out set and the staged rounds): the
trainer names the expect files use, reading an expect file, the split script, and the two checks every staged
file gets (its expect file on the readers' side of the split; attn-doctor reads it as the expect file says)."""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest
from each_case import each

from attn_doctor import configs
from attn_doctor.model import UsageError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = ROOT / "fixtures" / "configs"
sys.path.insert(0, str(ROOT / "benchmarks"))
import configs_snapshot  # noqa: E402  (standard library only at import)

# the measure-only rounds (held-out aside): benchmarks/configs_refusals.py's MEASURE_ONLY, the one list, as
# benchmarks/configs_snapshot.py reads it (from its text, so that no reader is imported); never read by a test
MEASURE_ONLY = tuple(sorted(configs_snapshot.measure_only() - {"heldout"}))


def assert_training(name: str) -> None:
    """A training round is read by every benchmark and test that reads the training folders: it is not in the one
    measure-only list (benchmarks/configs_refusals.py), which they all take their skips from (test_configs_snapshot
    checks that they do)."""
    assert name not in MEASURE_ONLY and name != "heldout", name


def assert_measure_only(name: str) -> None:
    """A measure-only round is skipped by every benchmark and test that reads the training folders: it is in the one
    list they take their skips from."""
    assert name in MEASURE_ONLY, name
# the trainer names fixtures/configs/real/README.md uses for the trainers attn-doctor claims
CLAIMED = {"musubi-tuner", "blissful-tuner", "sd-scripts", "ai-toolkit", "diffusion-pipe", "onetrainer", "simpletuner",
           "diffusers", "axolotl", "llama-factory", "transformers", "torchtune", "litgpt", "ms-swift", "unsloth"}
# the expect files' trainer names -> attn-doctor's reader ids
TRAINER = {"musubi-tuner": "musubi", "blissful-tuner": "blissful"}
KEYS = {"source", "commit", "captured", "trainer", "required", "dtype", "compile_mode", "why"}


def files(*dirs: Path) -> list[Path]:
    """Every corpus file under `dirs` (not the expect files, not the READMEs)."""
    return sorted(p for d in dirs for p in d.rglob("*")
                  if p.is_file() and not p.name.endswith(".expect.toml") and p.name != "README.md")


def expect(p: Path) -> dict:
    return tomllib.loads(p.with_name(p.name + ".expect.toml").read_text(encoding="utf-8"))


def split_module(name: str = "heldout_split_configs"):
    """scripts/NAME.py as a module: the configs split (the default) or explain's thread split (`heldout_split`)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# a thread of a trainer's tracker, `owner/repo#N`: a config or launch line a user pasted whole in an issue or a
# discussion (round 99m on). The thread is the unit, as a repository is for a user's file: explain's thread split
# (scripts/heldout_split.py) keeps it out of the held-out third, and no thread feeds two sets.
THREAD = re.compile(r"[^/\s:#]+/[^/\s:#]+#[0-9]+")


def is_thread(source: str) -> bool:
    return bool(THREAD.fullmatch(source))


def unit_of(source: str) -> str:
    """What a set must not share with another, lower-cased: a thread (`owner/repo#N`) or a repository."""
    return source.lower() if is_thread(source) else repo_of(source)


def claim_of(source: str) -> str:
    """The start of the claims-file line that claimed a source: `THREAD owner/repo#N ` or `REPO owner/repo `."""
    return f"THREAD {source} " if is_thread(source) else f"REPO {source.split(':', 1)[0]} "


def thread_side_ok(source: str, split, threads) -> bool:
    """A thread is on the readers' side: explain's split does not hold it out, and its tracker is a trainer's own
    repository or a repository the configs split puts on the train side (never a namesake of a held-out one)."""
    repo = source.split("#")[0]
    return not threads.is_heldout(source) and (
        repo in split.TRAINER_REPOS or not (split.held_out(repo) or split.namesake(repo)))


def check_staged_expect(p: Path, e: dict, split) -> str:
    """A staged file's expect file: well formed, its repository on the readers' side of the split, the file in
    the folder its trainer names, refused exactly when no claimed trainer reads it. Returns the trainer."""
    assert KEYS <= set(e), p
    if is_thread(e["source"]):
        assert thread_side_ok(e["source"], split, split_module("heldout_split")), e["source"]
    else:
        repo = e["source"].split(":", 1)[0]
        assert not split.held_out(repo) and repo not in split.TRAINER_REPOS, repo
    t = e["trainer"]
    assert t in CLAIMED or t == "none" or re.fullmatch(r"unclaimed:[a-z0-9][a-z0-9.-]*", t), t
    assert p.parent.name == (t if t in CLAIMED or t == "none" else "unclaimed-" + t.split(":", 1)[1])
    assert bool(e.get("refused")) == (t not in CLAIMED), p
    return t


def repo_of(source: str) -> str:
    """The repository of an expect file's source (`owner/repo:path`, `owner/repo#N`), lower-cased."""
    return source.split(":", 1)[0].split("#")[0].lower()


def sources_outside(folder: str, unread: tuple = ()) -> set[str]:
    """The `source` of every file of every other set under fixtures/configs/ (the rounds, real/ and the loose files at
    the top), held-out and the folders in `unread` (measure-only sets) aside and never read."""
    dirs = [d for d in CONFIGS.iterdir() if d.is_dir() and d.name not in (folder, "heldout", *unread)]
    return set().union(*(_sources_in(d) for d in dirs), _sources_of(tuple(sorted(CONFIGS.glob("*.toml")))))


@lru_cache(maxsize=None)
def _sources_in(d: Path) -> frozenset:
    """The `source` lines of the expect files under the set folder `d`, read once per test process: every round's
    freshness test asked them of every other folder again (~40 rounds x ~3,000 expect files; session 34, ci34a). Only a
    folder some call does not leave aside is ever read (held-out never: sources_outside skips it first)."""
    return _sources_of(tuple(sorted(d.rglob("*.expect.toml"))))


def _sources_of(paths: tuple) -> frozenset:
    return frozenset(line.split("\"")[1] for e in paths for line in e.read_text(encoding="utf-8").splitlines()
                     if line.startswith("source = \""))


def repos_outside(folder: str, unread: tuple = ()) -> set[str]:
    """The repositories every other set draws from (sources_outside): a fresh set shares none of them."""
    return {repo_of(s) for s in sources_outside(folder, unread)}


def shared_with_other_sets(paths: list[Path], folder: str, unread: tuple = ()) -> set[str]:
    """What `paths` (a set in fixtures/configs/FOLDER) shares with the other sets: a user's repository another set
    draws from, or a thread another set took a pasted text from (a thread's tracker is a trainer's repository, which
    real/ draws from: the thread is the unit there)."""
    mine = {unit_of(expect(p)["source"]) for p in paths}
    outside = sources_outside(folder, unread)
    return mine & ({repo_of(s) for s in outside if not is_thread(s)} | {unit_of(s) for s in outside if is_thread(s)})


def rel(p: Path) -> str:
    """A corpus file's test id: its path under fixtures/configs/."""
    return p.relative_to(CONFIGS).as_posix()


def write(tmp_path: Path, name: str, text: str) -> str:
    """A variant written for a test, byte for byte (no newline translation), as a file `check --config` reads."""
    p = tmp_path / name
    p.write_text(text, encoding="utf-8", newline="")
    return str(p)


def put(root: Path, rel: str, text: str) -> Path:
    """A file of a synthetic repository written for a test at root/rel, its folders made."""
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


def trainer_reading(path) -> tuple | str:
    """(trainer, required, dtype) of a file `check --config` reads, or "refused" (its refusal one line)."""
    try:
        cfg = configs.load(str(path))
    except UsageError as e:
        assert "\n" not in str(e)
        return "refused"
    return cfg["detected"]["trainer"], sorted(cfg.get("required") or []), cfg.get("dtype")


def reading(cfg: dict) -> tuple:
    """What the corpus labels of a read config: (trainer, required, dtype, compile mode)."""
    return cfg["detected"]["trainer"], sorted(cfg["required"]), cfg["dtype"] or "", cfg["compile_mode"] or "none"


def read(tmp_path: Path, name: str, text: str) -> tuple:
    return reading(configs.load(write(tmp_path, name, text)))


def refusal(tmp_path: Path, name: str, text: str) -> str:
    """The one-line refusal of a variant, without the test's own path (the words asked for must come from the
    message, not from tmp_path nor the variant's file name: without_path)."""
    path = write(tmp_path, name, text)
    with pytest.raises(UsageError) as err:
        configs.load(path)
    msg = str(err.value)
    assert "\n" not in msg and msg.startswith("--config: ")
    return without_path(msg, path).replace(str(tmp_path), "")


def path_forms(path: Path | str) -> list[str]:
    """The ways a refusal can print the file it refuses: as given, absolute, resolved and relative to here, each in its
    POSIX and Windows spelling (and the doubled backslashes of a repr), longest first."""
    given = str(path)
    forms = {given, Path(given).as_posix(), os.path.abspath(given), os.path.realpath(given)}
    try:
        forms.add(os.path.relpath(given))
    except ValueError:  # pragma: no cover - another drive on Windows
        pass
    for f in list(forms):
        forms |= {f.replace("/", "\\"), f.replace("\\", "/"), f.replace("/", "\\").replace("\\", "\\\\")}
    return sorted((f for f in forms if f), key=len, reverse=True)


def without_path(msg: str, path: Path | str) -> str:
    """A refusal with the refused file's own path taken out (each form of it, path_forms), so that words asked of the
    message come from what it says, not from the folder or repository the file is kept in (a label `verl` is in
    every path under `unclaimed-verl/`). The path is replaced by a NUL, so no words join across it."""
    for f in path_forms(path):
        msg = msg.replace(f, "\0")
    return msg


def refused_in_its_words(msg: str, words: str, path: Path | str) -> bool:
    """Whether a refusal says `words` (an expect file's `refused`) outside the refused file's own path."""
    return words in without_path(msg, path)


def check_read_as_expected(path: Path, labelled: Path | None = None) -> None:
    """`check --config FILE` reads it as its expect file says: refused in one line with the expected words (said by the
    message, outside the file's own path: refused_in_its_words), or
    (trainer, required, dtype, compile mode) as labelled. labelled: the set's file whose expect file labels it, when
    `path` is a copy of it elsewhere (in_repository_layout)."""
    e = expect(labelled or path)
    if e.get("refused"):
        with pytest.raises(UsageError) as err:
            configs.load(str(path))
        msg = str(err.value)
        assert "\n" not in msg and msg.startswith("--config: ")
        assert refused_in_its_words(msg, e["refused"], path), (e["refused"], without_path(msg, path))
        return
    got = reading(configs.load(str(path)))
    want = (TRAINER.get(e["trainer"], e["trainer"]), sorted(e["required"]), e["dtype"], e["compile_mode"] or "none")
    assert got == want


BLIND_BACKENDS = {"sdpa", "flex", "fa2", "fa3", "cute", "sage", "xformers"}
BLIND_DTYPES = {"", "bfloat16", "float16", "float32"}
BLIND_MODES = {"", "default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs"}


def assert_floors(paths: list[Path], flat: dict, layout: dict, other_words: dict, *, claimed: tuple[int, int],
                  refused: tuple[int, int], in_words: tuple[int, int]) -> None:
    """A staged round's readings keep their floors, each (flat, repository layout): `claimed` files right in all four
    fields, files to refuse refused as the benchmark counts them (`other_words`: refused in words other than the
    label's, listed among the misses) and refused in the label's words; and the xfail lists `flat` / `layout` name files
    of the set, no more."""
    rels = {p: p.relative_to(CONFIGS).as_posix() for p in paths}
    to_claim = {p for p in paths if not expect(p).get("refused")}
    to_refuse = {p for p in paths if expect(p).get("refused")}
    words = {p for p in paths if rels[p] in other_words}
    assert words <= to_refuse
    for wrong, floor_claimed, floor_refused, floor_words in zip((flat, layout), claimed, refused, in_words):
        missed = {p for p in paths if rels[p] in wrong}
        assert len(missed) == len(wrong)
        assert len(to_claim - missed) >= floor_claimed
        assert len(to_refuse - (missed - words)) >= floor_refused
        assert len(to_refuse - missed) >= floor_words


# rounds a later helper completed with files of the same repositories that the round's files read or run (copied at the
# round's commit, captured that day): cfg115 (session 27), benchmarks/results/configs-user-modules-s27.md
GATHERED_AFTER = {r: "2026-11-30" for r in ("round54m", "round57m", "round64m", "round68m", "round72m", "round73",
                                            "round75m", "round79m")}


def check_blind_round(paths: list[Path], *, files_min: int, claimed_min: int, refused_min: int, repos_min: int,
                      captured: str = "2026-11-28") -> None:
    """The format every measure-only config round keeps (26m, 29m, 33m): each expect file well formed (the staged
    fields, capture date, a 40-digit commit, a label of the right types and values, `refused` exactly for files no
    claimed trainer reads), each file named after its source, and the set's size floors."""
    split = split_module()
    claimed = refused = 0
    repos = set()
    for p in paths:
        e = expect(p)
        t = check_staged_expect(p, e, split)
        thread = is_thread(e["source"])
        # a thread has no commit (the text is the one posted); a user's file names the commit it was copied at
        assert e["captured"] in (captured, GATHERED_AFTER.get(p.parent.parent.name)) and (e["commit"] == "" if thread else re.fullmatch(r"[0-9a-f]{40}", e["commit"])), p
        assert isinstance(e["required"], list) and set(e["required"]) <= BLIND_BACKENDS, p
        assert len(e["required"]) == len(set(e["required"])), p
        assert e["dtype"] in BLIND_DTYPES and e["compile_mode"] in BLIND_MODES, p
        assert e["why"].strip(), p
        if t not in CLAIMED:  # a refused file asks for nothing
            assert e["required"] == [] and e["dtype"] == "" and e["compile_mode"] == "", p
            assert e["refused"].strip(), p
        if thread:  # owner__repo__N__NAME: the thread, then a name for the pasted text
            assert p.name.startswith(e["source"].replace("/", "__").replace("#", "__") + "__"), p
        else:
            repo = e["source"].split(":", 1)[0].split("#")[0]
            assert p.name == repo.replace("/", "__") + "__" + e["source"].split(":", 1)[1].replace("/", "__"), p
        repos.add(unit_of(e["source"]))
        claimed += t in CLAIMED
        refused += t not in CLAIMED
    assert len(paths) >= files_min and claimed >= claimed_min and refused >= refused_min and len(repos) >= repos_min, \
        (len(paths), claimed, refused, len(repos))


def assert_no_repository_held_out(paths: list[Path]) -> None:
    """The split's own verdict for each repository of `paths` (their expect files' sources), both halves of it: not held
    out by its hash, and not a namesake of a repository the held-out corpus drew on (scripts/heldout_split_configs.py
    reads only those names)."""
    split = split_module()
    names = split.heldout_names()
    threads = split_module("heldout_split")
    for source in sorted({expect(p)["source"].split(":", 1)[0] for p in paths}):
        if is_thread(source):
            assert thread_side_ok(source, split, threads), source
        else:
            assert not split.held_out(source) and not split.namesake(source, names), source


# the diffusion trainers, for a gathered set's mix (round 111m on)
DIFFUSION = {"musubi-tuner", "blissful-tuner", "sd-scripts", "ai-toolkit", "diffusion-pipe", "onetrainer",
             "simpletuner", "diffusers"}


def assert_every_expect_file_has_its_file(root: Path) -> None:
    """Each `NAME.expect.toml` under `root` labels a file `NAME` beside it."""
    for e in root.rglob("*.expect.toml"):
        assert e.with_name(e.name[: -len(".expect.toml")]).is_file(), e


def assert_mix(paths: list[Path], mix: dict[str, int], *, diffusion_min: int, refused_min: int) -> None:
    """A gathered set keeps its mix: at least `mix[label]` files of each label, `diffusion_min` of diffusion trainers
    (DIFFUSION) and `refused_min` to refuse (`unclaimed:*` or `none`)."""
    trainers = Counter(expect(p)["trainer"] for p in paths)
    for trainer, n in mix.items():
        assert trainers[trainer] >= n, (trainer, trainers[trainer], n)
    assert sum(n for t, n in trainers.items() if t in DIFFUSION) >= diffusion_min
    assert sum(n for t, n in trainers.items() if t.startswith("unclaimed:") or t == "none") >= refused_min


def assert_source_caps(paths: list[Path], *, thread: int = 2, tracker: int = 6, repository: int = 3) -> None:
    """The per-source caps a set was gathered under: files of one thread, of one tracker, of one user's repository."""
    sources = [expect(p)["source"] for p in paths]
    threads = Counter(s for s in sources if is_thread(s))
    trackers = Counter(s.split("#")[0] for s in sources if is_thread(s))
    repos = Counter(s.split(":", 1)[0] for s in sources if not is_thread(s))
    assert max(threads.values(), default=0) <= thread, threads
    assert max(trackers.values(), default=0) <= tracker, trackers
    assert max(repos.values(), default=0) <= repository, repos


# a Hugging Face token, an OpenAI-style key, a GitHub token, an AWS access key id: no file of a gathered set carries one
SECRET = re.compile(r"\bhf_[A-Za-z0-9]{30,}|\bsk-[A-Za-z0-9]{20,}|\bghp_[A-Za-z0-9]{20,}|\bAKIA[0-9A-Z]{16}\b")


def assert_claimed_by(paths: list[Path], helper: str | dict, claims: Path | None = None) -> None:
    """Each source of `paths` (`THREAD owner/repo#N` or `REPO owner/repo` in the claims file, `claims` or the session's
    CLAIMS) was claimed by `helper` (one name, or one per kind of source: `{"THREAD": a, "REPO": b}`), and by nobody
    else, before it was taken. Skipped where no claims file is on this machine, or where it names none of the helpers
    (a machine renewed since the round was gathered holds only the current session's claims)."""
    path = claims or CLAIMS
    if not path.is_file():
        pytest.skip("the session's claims file is not on this machine")
    # a claim carried from an earlier session's file is tagged with that session (`cfg121m(s29)`): the same helper
    lines = [re.sub(r"\(s\d+\)$", "", ln) for ln in path.read_text(encoding="utf-8").splitlines()]
    helpers = set(helper.values()) if isinstance(helper, dict) else {helper}
    if not any(ln.split()[2:3] and ln.split()[2] in helpers for ln in lines):
        pytest.skip(f"the claims file here is not the one {', '.join(sorted(helpers))} claimed in")
    for claim in sorted({claim_of(expect(p)["source"]) for p in paths}):
        owners = [ln.split()[2] for ln in lines if ln.startswith(claim)]
        assert owners == [helper[claim.split()[0]] if isinstance(helper, dict) else helper], (claim, owners)


def assert_no_key(paths: list[Path]) -> None:
    """No file of `paths` holds a token or key (SECRET)."""
    for p in paths:
        assert not SECRET.search(p.read_text(encoding="utf-8", errors="replace")), p


def in_repository_layout(paths: list[Path], root: Path) -> dict[str, Path]:
    """Every file of a set copied to its source path under root, OWNER/REPO/PATH, as a user's checkout has it and as
    `configs_heldout.py --layout repo` reads it (benchmarks/configs_repo_layout.py: no expect file beside it, a second
    file at a path kept flat): {rel(file): where it now is}. check_read_as_expected(where, labelled=file) reads it."""
    spec = importlib.util.spec_from_file_location("configs_repo_layout", ROOT / "benchmarks" / "configs_repo_layout.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return {rel(p): dest for p, dest in mod.repository_layout(paths, CONFIGS, root).items()}


CLAIMS = Path("/work/wt/claims.txt")  # the session's claims file, where the rounds were gathered


def staged_round(folder: str, *, files_min: int, claimed_min: int, refused_min: int, repos_min: int,
                 captured: str = "2026-11-28", still_wrong: dict | None = None,
                 still_wrong_in_layout: dict | None = None, claimed_by: str | dict | None = None,
                 unread: tuple = (), claims: Path | None = None) -> dict:
    """The tests every staged config round repeats, for its test module to take as its own:
    `globals().update(staged_round("round50", ...))`. fixtures/configs/FOLDER is
    - read file by file, as `check --config FILE` reads it where the set keeps it (test_real_file), and again in its
      repositories' layout, every file at its `source` path (test_real_file_in_its_repository_layout, fixture
      repo_layout); `still_wrong` / `still_wrong_in_layout` ({rel(file): why}) are the misses in each, strict xfails
      (reading one right makes its test fail, so its entry goes);
    - checked for its format and size (test_the_set_is_there_well_formed_and_on_the_readers_side_of_the_split:
      check_blind_round with the floors, capture date `captured`), every expect file beside its corpus file;
    - fresh: no repository shared with another folder under fixtures/configs/ (held-out and the folders in `unread`
      aside, never read); with `claimed_by`, every repository claimed for this round by that helper in the claims file
      (skipped where that file is not on this machine); a round two helpers gathered names one per kind of source,
      `{"THREAD": helper, "REPO": helper}`. The claims file is `claims` (default CLAIMS); a machine renewed since the round
      was gathered has a claims file that names none of that round's helpers: the check is skipped there too."""
    root = CONFIGS / folder
    paths = files(root)
    flat = dict(still_wrong or {})
    layout = dict(still_wrong_in_layout or {})

    # (each reading one test over the set's files, each failing one named by its path and each still-wrong one held to
    # failing as pytest's strict xfail held it, not a pytest item per file: tests/each_case.py says why)
    def test_real_file():
        each(((rel(p), (p,)) for p in paths), check_read_as_expected, still_wrong=flat)

    @pytest.fixture(scope="module")
    def repo_layout(tmp_path_factory) -> dict:
        """Every file of the set at its source path, OWNER/REPO/PATH, as a user's checkout has it (no expect files)."""
        return in_repository_layout(paths, tmp_path_factory.mktemp(f"{folder}-layout"))

    def test_real_file_in_its_repository_layout(repo_layout):
        each(((rel(p), (Path(repo_layout[rel(p)]), CONFIGS / rel(p))) for p in paths), check_read_as_expected,
             still_wrong=layout)

    def test_the_set_is_there_well_formed_and_on_the_readers_side_of_the_split():
        check_blind_round(paths, files_min=files_min, claimed_min=claimed_min, refused_min=refused_min,
                          repos_min=repos_min, captured=captured)

    def test_every_expect_file_has_its_corpus_file():
        for e in root.rglob("*.expect.toml"):
            assert e.with_name(e.name[: -len(".expect.toml")]).is_file(), e

    def test_no_repository_is_shared_with_another_set():
        shared = shared_with_other_sets(paths, folder, unread)
        assert not shared, sorted(shared)

    tests = {f.__name__: f for f in (test_real_file, test_real_file_in_its_repository_layout,
                                     test_the_set_is_there_well_formed_and_on_the_readers_side_of_the_split,
                                     test_every_expect_file_has_its_corpus_file,
                                     test_no_repository_is_shared_with_another_set)}
    tests["repo_layout"] = repo_layout
    if claimed_by:
        def test_every_repository_was_claimed_for_this_round():
            assert_claimed_by(paths, claimed_by, claims)

        tests[test_every_repository_was_claimed_for_this_round.__name__] = test_every_repository_was_claimed_for_this_round
    return tests
