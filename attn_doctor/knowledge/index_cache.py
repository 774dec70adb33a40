"""What the matcher learns of each pattern before it reads a line (its needles, whether it may span lines, its literal
groups; and, once a run has asked, whether it reads each line alone), kept on disk between runs: learning it parses every one of ~1,800 patterns (about 0.4 s of CPU on the 2-core dev
machine, half of a short explain's time), reading it back takes milliseconds.

One JSON file, `index.json`, in $ATTN_DOCTOR_CACHE_DIR, else $XDG_CACHE_HOME/attn-doctor, else ~/.cache/attn-doctor
(ATTN_DOCTOR_CACHE_DIR set empty: no file is read or written). It maps each pattern's text to what was learnt, under a key
that is the hash of the code that learns it (knowledge/match.py and knowledge/__init__.py) and the Python version: a
changed matcher or another Python reads nothing old. Written atomically; a cache that cannot be read or written is
learnt again, silently: it only ever costs time, never changes a reading (tests/test_index_cache.py).

Beside it, each pattern the matcher compiles (`compiled`): compiling costs more than running on most inputs (the ~40
report-head prose patterns, 2-11 KB each, took ~0.35 s of every explain; an error's ~30 patterns another ~0.1 s). Python's
regex compiler turns a pattern into a list of integers that its engine (`_sre`) builds the pattern object from; that list
is kept in a file of its own, `re-<engine>/<hash>.bin` (the engine's key: the Python version and build, `_sre`'s MAGIC and
code size, the byte order), and read back the next time the same pattern is compiled with the same flags. A file is used
only where its header names this very pattern and flags and its code's digest is right, and the engine itself validates
the code; anything else (no file, another engine's, torn, corrupt, unwritable, an interpreter without these internals)
compiles the pattern as `re.compile` does. The object is the one `re.compile` builds from the same code (equal to it:
CPython compares patterns by their code). The ~800 patterns attribution.rules() compiles each run are kept together in
one such file (`Pack`).

And the knowledge's TOML files as parsed (`toml`, ~0.1 s of every explain): `toml-<python>/<hash>.json`, found by the
file's content (its SHA-256) and this Python's version, a JSON copy of what the TOML parser returned; a file whose
parse JSON cannot hold (dates, times) is not kept, one that does not name the content's hash is not read."""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import tempfile
from array import array
from functools import lru_cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
ENV = "ATTN_DOCTOR_CACHE_DIR"
NAME = "index.json"


def directory() -> Path | None:
    v = os.environ.get(ENV)
    if v is not None:
        return Path(v).expanduser() if v.strip() else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "attn-doctor"


@lru_cache(maxsize=1)
def code_key() -> str:
    h = hashlib.sha256(sys.version.encode())
    for name in ("match.py", "__init__.py"):
        try:
            h.update((HERE / name).read_bytes())
        except OSError:  # pragma: no cover - a zipped install: no key, no cache
            return ""
    return h.hexdigest()


def load() -> dict[str, list]:
    """pattern -> [needles, spans_lines, factors or None, line_local or None], or {} (no file, another key, unreadable)."""
    d, key = directory(), code_key()
    if d is None or not key:
        return {}
    try:
        with open(d / NAME, encoding="utf-8") as fh:
            doc = json.load(fh)
    except (OSError, ValueError):
        return {}
    if not isinstance(doc, dict) or doc.get("key") != key or not isinstance(doc.get("patterns"), dict):
        return {}
    return doc["patterns"]


def _keep(path: Path, data: bytes, prefix: str) -> None:
    """Write a cache file atomically (a temporary dot file in the same folder, then a rename); any failure is ignored: a
    cache only ever costs time. (fsutil.write_atomic is for the user's output files: it fsyncs each and fails loudly.)"""
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=prefix, dir=path.parent)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
        tmp = None
    except OSError:
        pass
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def save(patterns: dict[str, list]) -> None:
    """Write what was learnt (atomically); any failure is ignored."""
    d, key = directory(), code_key()
    if d is None or not key:
        return
    text = json.dumps({"key": key, "patterns": patterns}, ensure_ascii=False, separators=(",", ":"))
    _keep(d / NAME, text.encode("utf-8", "surrogatepass"), ".index-")
    prune(d)


# A folder of compiled patterns or parsed TOML files grows with each knowledge or Python version that wrote into it (a
# pattern's file is named by its text). save() runs when the matcher learnt something new, as after an upgrade: a folder
# past its bound keeps its newest half. Another run reading a file as it goes only compiles that pattern again.
BOUND = {"re-": 6000, "toml-": 400}


def prune(d: Path) -> None:
    """Keep each `re-*` / `toml-*` folder under `d` within its BOUND (oldest files go first); any failure is ignored."""
    try:
        folders = [f for f in d.iterdir() if f.is_dir() and not f.is_symlink()]
    except OSError:
        return
    for folder in folders:
        bound = next((n for prefix, n in BOUND.items() if folder.name.startswith(prefix)), None)
        if bound is None:
            continue
        try:
            files = [e for e in os.scandir(folder) if e.is_file(follow_symlinks=False)]
            if len(files) <= bound:
                continue
            files.sort(key=lambda e: e.stat(follow_symlinks=False).st_mtime)
            for e in files[:len(files) - bound // 2]:
                try:
                    os.unlink(e.path)
                except OSError:
                    pass
        except OSError:
            continue


# ---- compiled patterns ------------------------------------------------------------------------------

try:  # the regex engine and the compiler's two halves (CPython's; another interpreter compiles with re.compile)
    import _sre
    try:
        from re import _compiler as _sre_compiler, _parser as _sre_parser
    except ImportError:  # pragma: no cover - Python 3.10
        import sre_compile as _sre_compiler  # type: ignore[no-redef]
        import sre_parse as _sre_parser  # type: ignore[no-redef]
    _ENGINE = (_sre.compile, _sre_compiler._code, _sre_parser.parse, _sre.MAGIC, _sre.CODESIZE)
    _CODE_TYPE = next(t for t in "IL" if array(t).itemsize == _sre.CODESIZE)  # an array of the engine's code units
except (ImportError, AttributeError, StopIteration):  # pragma: no cover - no such internals: no compiled cache
    _ENGINE = None


@lru_cache(maxsize=1)
def engine_key() -> str:
    """What a compiled pattern's code depends on: this interpreter's version and build and its regex engine's."""
    if _ENGINE is None:  # pragma: no cover
        return ""
    return hashlib.sha256(repr((sys.version, sys.implementation.cache_tag, sys.byteorder, _ENGINE[3], _ENGINE[4],
                                _CODE_TYPE)).encode()).hexdigest()[:16]


def _engine_compile(pattern: str, flags: int, amend=None) -> tuple[re.Pattern, tuple | None]:
    """`pattern` compiled as re.compile does, and what rebuilds it (final flags, code, groups, group index, group names);
    None for the latter where the internals are not as expected (then it is re.compile's own object). With `amend`
    (knowledge.first_look_tree: (pattern, its parse) -> (pattern rewritten, the rewritten one's parse)), the rewritten
    pattern, parsed once."""
    try:
        tree = _ENGINE[2](pattern, flags)
        if amend is not None:
            pattern, tree = amend(pattern, tree)
        code = _ENGINE[1](tree, flags)
        index = dict(tree.state.groupdict)
        names = [None] * tree.state.groups
        for k, i in index.items():
            names[i] = k
        made = (flags | tree.state.flags, code, tree.state.groups - 1, index, names)
        return _ENGINE[0](pattern, made[0], code, made[2], index, tuple(names)), made
    except re.error:
        raise
    except Exception:  # pragma: no cover - internals not as expected: the public way
        return re.compile(pattern, flags), None


def _from_code(pattern: str, final: int, body: bytes, groups: int, index: dict, names: list) -> tuple[re.Pattern, array]:
    """The pattern object rebuilt from its kept code (the engine validates the code; anything wrong raises)."""
    code = array(_CODE_TYPE)
    code.frombytes(body)
    return _ENGINE[0](pattern, final, code.tolist(), groups, dict(index),
                      tuple(None if n is None else str(n) for n in names)), code


def _compiled_path(pattern: str, flags: int, rewrite=None, amend=None) -> Path | None:
    d, key = directory(), engine_key()
    if d is None or not key:
        return None
    if rewrite is not None or amend is not None:  # found by the pattern before it is rewritten: the rewriting code is
        learner = code_key()                       # part of the key
        if not learner:  # pragma: no cover - a zipped install
            return None
        pattern = f"{learner}:{_name(rewrite)}:{_name(amend)}:{pattern}"
    name = hashlib.sha256(f"{int(flags)}:{pattern}".encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return d / f"re-{key}" / f"{name}.bin"


def _name(fn) -> str:
    return "" if fn is None else f"{fn.__module__}.{fn.__qualname__}"


def compiled(pattern: str, flags: int = 0, rewrite=None, amend=None) -> re.Pattern:
    """`re.compile(pattern, flags)`, its code read back from the cache where a run before compiled it (see above). With
    `rewrite` (knowledge.bounded), `re.compile(rewrite(pattern), flags)`, read back without rewriting the pattern again;
    with `amend` as well (knowledge.first_look_tree), the rewritten pattern amended on its parse (_engine_compile)."""
    flags = int(flags)
    if _ENGINE is None or flags & re.DEBUG or not isinstance(pattern, str):
        return re.compile(pattern if rewrite is None else rewrite(pattern), flags)  # (unamended: the same matches)
    path = _compiled_path(pattern, flags, rewrite, amend)
    if path is not None:
        rx = _read_compiled(path, pattern, flags, rewrite is not None or amend is not None)
        if rx is not None:
            return rx
    source, pattern = pattern, (pattern if rewrite is None else rewrite(pattern))
    rx, made = _engine_compile(pattern, flags, amend)
    if path is not None and made is not None:
        _write_compiled(path, source, rx.pattern, flags, made)
    return rx


def _read_compiled(path: Path, source: str, flags: int, rewritten: bool = False) -> re.Pattern | None:
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
        head, _, body = raw.partition(b"\n")
        h = json.loads(head)
        pattern = h["pattern"]
        if h.get("source") != source or (not rewritten and pattern != source) or h.get("flags") != int(flags) \
                or not isinstance(pattern, str) or len(body) != h["n"] * _ENGINE[4] \
                or hashlib.blake2b(body, digest_size=16).hexdigest() != h["digest"]:
            return None
        return _from_code(pattern, h["final"], body, h["groups"], h["index"], h["names"])[0]
    except Exception:  # no file, another's, torn or corrupt, code the engine refuses: compiled again
        return None


def _write_compiled(path: Path, source: str, pattern: str, flags: int, made: tuple) -> None:
    """Keep a fresh pattern's code (atomically, as save() writes); any failure is ignored."""
    final, code, groups, index, names = made
    try:
        body = array(_CODE_TYPE, code).tobytes()
        head = json.dumps({"source": source, "pattern": pattern, "flags": flags, "final": final, "groups": groups, "index": index,
                           "names": names, "n": len(code), "digest": hashlib.blake2b(body, digest_size=16).hexdigest()},
                          ensure_ascii=True, separators=(",", ":"))
    except (ValueError, OverflowError, TypeError):
        return
    _keep(path, head.encode("ascii") + b"\n" + body, ".re-")


# ---- parsed TOML ----------------------------------------------------------------------------------------------------

def toml(raw: bytes, parse) -> dict:
    """`parse(raw)` (a TOML file's bytes parsed to a dict), read back from the cache where a run before parsed the same
    bytes on this Python (see above)."""
    d = directory()
    digest = hashlib.sha256(raw).hexdigest()
    path = None
    if d is not None:
        key = hashlib.sha256(repr((sys.version, parse.__module__, getattr(parse, "__qualname__", ""))).encode())
        path = d / f"toml-{key.hexdigest()[:16]}" / f"{digest[:32]}.json"
        try:
            with open(path, encoding="utf-8") as fh:
                doc = json.load(fh)
            if isinstance(doc, dict) and doc.get("sha256") == digest and isinstance(doc.get("data"), dict):
                return doc["data"]
        except (OSError, ValueError):
            pass
    data = parse(raw)
    if path is not None:
        try:
            text = json.dumps({"sha256": digest, "data": data}, ensure_ascii=False, separators=(",", ":"))
            if json.loads(text)["data"] != data:  # (NaN is never equal to itself: such a file is parsed each time)
                return data
        except (TypeError, ValueError):  # a value JSON cannot hold (a date): not kept
            return data
        _keep(path, text.encode("utf-8", "surrogatepass"), ".toml-")
    return data


class Pack:
    """The patterns one reader compiles together each run (attribution.rules(): ~800 small ones, ~0.08 s), their code
    kept in one file, `re-<engine>/pack-<name>.bin`: a header (each pattern, its flags and its code's place) and the codes,
    with one digest over them. `compile` is re.compile, from the file where it holds the pattern; `save` rewrites the file
    with exactly the patterns compiled since the pack was made, when they are not the ones it held.
    A module's own patterns, compiled as it is imported (knowledge/match.py's ~60, attribution/sentences.py's ~60, ...:
    ~0.15 s of every run on the 2-core dev machine, helper ex181), are kept the same way, one pack per module, saved at
    the module's end (`module_pack`); a pattern may be bytes (kept as its latin-1 text, marked)."""

    def __init__(self, name: str):
        self.name = name
        self.held: dict[tuple[str, int], list] | None = None
        self.body = b""
        self.used: dict[tuple[str, int], tuple] = {}
        self.objects: dict[tuple[str, int], re.Pattern] = {}
        self.missed = False

    def _path(self) -> Path | None:
        d, key = directory(), engine_key()
        return None if d is None or not key else d / f"re-{key}" / f"pack-{self.name}.bin"

    def _load(self) -> None:
        self.held = {}
        path = self._path()
        if path is None:
            return
        try:
            with open(path, "rb") as fh:
                raw = fh.read()
            head, _, body = raw.partition(b"\n")
            h = json.loads(head)
            items = h["items"]
            if sum(it[6] for it in items) * _ENGINE[4] != len(body) \
                    or hashlib.blake2b(body, digest_size=16).hexdigest() != h["digest"]:
                return
            at = 0
            for it in items:
                self.held[(_pattern_of(it[0]), it[1])] = [*it[2:6], at, it[6]]
                at += it[6]
            self.body = body
        except Exception:  # no file, another's, torn or corrupt: every pattern compiled again
            self.held, self.body = {}, b""

    def compile(self, pattern: str, flags: int = 0) -> re.Pattern:
        flags = int(flags)
        if _ENGINE is None or flags & re.DEBUG or not isinstance(pattern, (str, bytes)):
            return re.compile(pattern, flags)
        if self.held is None:
            self._load()
        key = (pattern, flags)
        if key in self.objects:  # the same pattern asked for again: the same object, as re.compile's own cache gives
            return self.objects[key]
        rx = self._compile(key)
        self.objects[key] = rx
        return rx

    def _compile(self, key: tuple[str, int]) -> re.Pattern:
        pattern, flags = key
        v = self.held.get(key)
        if v is not None:
            final, groups, index, names, at, n = v
            size = _ENGINE[4]
            try:
                rx, code = _from_code(pattern, final, self.body[at * size:(at + n) * size], groups, index, names)
                self.used[key] = (final, code, groups, index, names)
                return rx
            except Exception:
                pass
        self.missed = True
        rx, made = _engine_compile(pattern, flags)
        if made is not None:
            self.used[key] = made
        return rx

    def save(self) -> None:
        """Keep the patterns compiled since the pack was made, where they differ from what the file held; failures
        are ignored."""
        path = self._path()
        if path is None or self.held is None or (not self.missed and set(self.used) == set(self.held)):
            return
        try:
            items, bodies = [], []
            for (pattern, flags), (final, code, groups, index, names) in self.used.items():
                b = (code if isinstance(code, array) else array(_CODE_TYPE, code)).tobytes()
                items.append([pattern if isinstance(pattern, str) else [pattern.decode("latin-1")], flags, final, groups,
                              index, names, len(b) // _ENGINE[4]])
                bodies.append(b)
            body = b"".join(bodies)
            head = json.dumps({"digest": hashlib.blake2b(body, digest_size=16).hexdigest(), "items": items},
                              ensure_ascii=True, separators=(",", ":"))
        except (ValueError, OverflowError, TypeError):
            return
        _keep(path, head.encode("ascii") + b"\n" + body, ".pack-")


def _pattern_of(kept) -> str | bytes:
    """A pack's pattern as kept: its text, or a bytes pattern's latin-1 text in a list of one."""
    if isinstance(kept, str):
        return kept
    if isinstance(kept, list) and len(kept) == 1 and isinstance(kept[0], str):
        return kept[0].encode("latin-1")
    raise ValueError("not a pattern")


def module_pack(name: str) -> Pack:
    """The pack of a module's own patterns (compiled as it is imported): `rx = module_pack(__name__)`, `rx.compile(...)`
    in place of `re.compile(...)`, and `rx.save()` at the module's end."""
    return Pack("module-" + name)
