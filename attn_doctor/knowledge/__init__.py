"""The troubleshooting knowledge as data: every finding's wording, cause, fix and error patterns.

Entries live in the TOML files beside this module, one `[[entry]]` per problem. `check`, `fix`
and `explain` all read their words from here, so they never disagree.

Which file holds what, and how to add an entry: README.md beside this module. Some files hold what checks
emit (platform, backends, versions, env, ...); the others, named for what failed (flash_attn, sage, xformers,
builds, imports, ...), the errors users paste (`explain_only = true`: no check emits them, so their templates
take no params).
An entry's `env` maps variable -> value (templates over the finding's params); `fix --write-env`
writes them, skipping any whose params the finding lacks or whose value renders empty.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]
# the regex parser, public for knowledge/match.py (the prefilter's needles) and `bounded` here alike
try:  # re._parser from Python 3.11, sre_parse before
    from re import _parser as regex_parser
except ImportError:  # pragma: no cover - Python 3.10
    import sre_parse as regex_parser  # type: ignore[no-redef]

from ..model import SEVERITIES, Finding
from ..torchpin import expand_snippets

HERE = Path(__file__).parent


@dataclass(frozen=True)
class Entry:
    id: str
    title: str  # one sentence: what is wrong (a template over the finding's params)
    severity: str
    section: str
    fix: str | None = None  # what to paste (a template)
    backend: str | None = None
    cause: str = ""  # why it happens, for `explain`
    patterns: tuple[str, ...] = ()  # regexes that recognise it in an error text or log
    examples: tuple[str, ...] = ()  # realistic error texts the patterns must match (tested)
    refs: tuple[str, ...] = ()
    guide_claim: str | None = None  # what a seed guide says, where it is wrong
    truth: str | None = None  # what is true for current releases (FACTS.md)
    env: dict[str, str] = field(default_factory=dict)  # exports env.sh writes for it (templates)
    unset: tuple[str, ...] = ()  # variables env.sh unsets for it (templates)
    explain_only: bool = False  # an error users paste; no check emits it
    # Plain text (not templates): the title and fix for when the params are unknown (`explain`, or a
    # check that lacks one). Required when title / fix name params.
    summary: str | None = None
    general_fix: str | None = None
    generic: bool = False  # a catch-all: reported only on lines no specific entry matched
    # The last resort (knowledge/triage.toml): only where no other entry, catch-alls included, explains
    # a line nearby; it names whose code raised, not why.
    fallback: bool = False
    # Can its patterns be why an import or a run failed (an exception, an abort)? None: as its severity
    # says (errors can, warnings and notes are printed by runs that go on). Set where that is wrong.
    fails: bool | None = None
    # A message printed because something else failed first (a build's final "error: command ...
    # failed", ninja's FAILED line, a trainer's fallback warning, a watchdog timeout): explain ranks
    # it after every cause it finds in the same input.
    symptom: bool = False
    # The entries whose failure this message reports (xformers' "No operator found" lists why no kernel fits: an
    # extension that did not load, one built for another torch, a GPU too old): where one of them is found in the same
    # input, explain ranks this entry after it, wherever each stands (a user pastes the error, then the
    # `python -m xformers.info` that shows why under it). Round 79 (issue 23: a root cause before its symptoms).
    explained_by: tuple[str, ...] = ()
    # Patterns and examples taken from data at load time: "messages" (knowledge/messages/*.toml, the errors
    # the backends' sources raise).
    patterns_from: str | None = None
    # Read only on the input's first HEAD_LINES lines (knowledge/match.py), where a pasted report's title
    # and first sentences stand: words that describe a failure in prose, not a line a program printed.
    head: bool = False
    # Read only past the input's head (the lines `head` entries read): a report's own sentences under its title and first
    # lines. Ranked with `head` entries among last resorts (what a report says in words, after what its lines show).
    body: bool = False
    # Among last resorts (fallback) that claim the same line, the lower `order` is kept.
    order: int = 0
    # Measured: while this finding holds, none of its backend's kernels load or run, so that backend's
    # failed smoke runs are its symptoms. checks.run drops them (the finding names the cause, once).
    stops_backend: bool = False
    # Weak evidence: patterns of the traceback frames its failure passes through (diffusers' xformers
    # probe, a backend's own code) for when the message itself is cut off or unknown. Read as a last
    # resort of the same entry (generic and fallback: any entry that explains a line near them wins).
    frames: tuple[str, ...] = ()
    weak_copy: bool = False  # set on the copy `weak` makes, never in a TOML file
    file: str = field(default="", compare=False)  # the TOML file it is written in (set by the loader)

    @property
    def headline(self) -> str:
        """One sentence that needs no params: the title, else its summary."""
        if not template_fields(self.title):
            return render(self.title, {})
        return self.summary or _blank_fields(self.title)

    @property
    def plain_fix(self) -> str | None:
        """What to paste, without params: the fix, else its general form."""
        if not template_fields(self.fix):
            return render(self.fix, {})
        return self.general_fix or _blank_fields(self.fix)

    @property
    def can_cause(self) -> bool:
        """May it stand as the cause of a failed import or run (never a note a working run prints)?"""
        return self.severity == "error" if self.fails is None else self.fails

    @property
    def compiled(self) -> tuple[re.Pattern, ...]:
        return _compile(self.patterns)

    @cached_property
    def weak(self) -> "Entry | None":
        """The same entry read from its `frames` only: a catch-all and last resort (knowledge/match.py)."""
        if not self.frames:
            return None
        return replace(self, patterns=self.frames, frames=(), generic=True, fallback=True, head=False, weak_copy=True)


# How far one unbounded repeat inside a line (`[^\n]*`, `.*?`, `[^"\n]+`, `\w*`) reads: a pattern's gap between its
# parts (`flash_attn[^\n]*?loss=nan`, a frame's `in [^\n]*\n`) reads at most this much of a line. Unbounded, such a
# gap runs to the line's end from every occurrence of the part before it, and a 2 MB line that repeats that part cost
# seconds per pattern (benchmarks/explain_pattern_cost.py); bounded, it costs at most this per occurrence. No error
# message's parts stand further apart on one line (the training corpora's longest line is 1,358 characters).
LINE_GAP = 4_096


def class_end(pattern: str, i: int) -> int:
    """Where the character class that opens at pattern[i] (`[`) ends: the index of its closing `]` as the parser reads
    it (a `]` first, or after `^`, is a member; escapes skipped), len(pattern) or past it where none closes it."""
    n, j = len(pattern), i + 1
    if j < n and pattern[j] == "^":
        j += 1
    if j < n and pattern[j] == "]":
        j += 1
    while j < n and pattern[j] != "]":
        j += 2 if pattern[j] == "\\" else 1
    return j


def bounded(pattern: str, gap: int = LINE_GAP) -> str:
    r"""`pattern` with each unbounded repeat (`*`, `+`, `{n,}`) of one character that is never a line end (a class without
    `\n`, `.`, `\w`, `\S`) bounded to `gap` characters; repeats that may cross lines, of groups, and of literals
    stay as written."""
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            atom = pattern[i:i + 2]
        elif c == "[":
            atom = pattern[i:class_end(pattern, i) + 1]
        else:
            atom = c
        i += len(atom)
        out.append(atom)
        if not (i < n and (c in "\\[" and len(atom) > 1 or c == ".")):
            continue
        open_end = _OPEN_END.match(pattern, i)  # `{120,}`
        if (pattern[i] in "*+" or open_end) and _in_line(atom):
            least = 0 if pattern[i] == "*" else 1 if pattern[i] == "+" else int(open_end.group(1))
            out.append("{%d,%d}" % (least, max(least, gap)))
            i += len(open_end.group(0)) if open_end else 1
    return "".join(out)


_OPEN_END = re.compile(r"\{(\d+),\}")


# A pattern the regex engine can start at no literal (case-blind, it has no literal prefix; an alternation whose branches
# begin with `\b`, a look-behind or different words: the GPU lists `RTX ?50[5-9]0|\bBlackwell\b|\bB[23]00\b|...`) is tried
# whole at every character of a text, ~30-50 ns each where a failing first letter costs ~5 (helper ex162, session 28:
# 0.15-0.28 s per MB of a log of long lines, benchmarks/results/explain-longlines-s28.md). Such a pattern is run behind a
# look at the characters its match can start with (`(?=[BGPRbgpr5...])`), where they are few: the same matches.
FIRST_CHARS = 24  # at most this many distinct characters (both cases counted) in the look; more and it saves little


def _first_chars(items, rest=()) -> set[int] | None:
    """The characters a match of the parsed sequence `items` (then `rest`) can begin with, case-blind (both cases), or None
    where any may (a class such as `\\w`, `.`, a negated set, a back reference)."""
    out: set[int] = set()
    seq = list(items)
    for i, (op, av) in enumerate(seq):
        name = str(op)
        if name in ("AT", "ASSERT", "ASSERT_NOT"):
            continue  # zero width: the next item starts the match
        if name == "LITERAL":
            c = chr(av)
            return out | {ord(c.lower()), ord(c.upper())} if len(c.lower()) == len(c.upper()) == 1 else None
        if name == "IN":
            chars = set()
            for o, a in av:
                o = str(o)
                if o == "LITERAL":
                    chars |= {a, ord(chr(a).lower()[:1] or chr(a)), ord(chr(a).upper()[:1] or chr(a))}
                elif o == "RANGE" and a[1] - a[0] < 64:
                    for x in range(a[0], a[1] + 1):
                        chars |= {x, ord(chr(x).lower()[:1] or chr(x)), ord(chr(x).upper()[:1] or chr(x))}
                else:
                    return None
            return out | chars
        if name == "SUBPATTERN":
            sub = _first_chars(av[-1], seq[i + 1:] + list(rest))
            return None if sub is None else out | sub
        if name == "BRANCH":
            for alt in av[1]:
                sub = _first_chars(alt, seq[i + 1:] + list(rest))
                if sub is None:
                    return None
                out |= sub
            return out
        if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            lo, _, body = av
            sub = _first_chars(body, () if lo else seq[i + 1:] + list(rest))
            if sub is None:
                return None
            out |= sub
            if lo:
                return out
            continue  # may repeat no time: what follows may start the match too
        return None
    if rest:
        return _first_chars(rest)
    return None  # the pattern may match nothing: anywhere


def first_look(pattern: str) -> str:
    """`pattern` behind a look at the few characters its match can begin with (FIRST_CHARS), where it has no literal to
    start from (`(?=[BGbg])(?:pattern)`: before each branch of a top-level alternation, which `(?=[BGbg])A|B` would
    guard the first of only); else `pattern` as it is."""
    try:
        parsed = regex_parser.parse(pattern, re.IGNORECASE | re.MULTILINE)
    except re.error:
        return pattern
    return _with_look(pattern, _look(parsed))


def first_look_tree(pattern: str, tree) -> tuple[str, object]:
    """first_look for a pattern already parsed (`tree`, regex_parser's, case-blind, `^`/`$` at lines), as the compiler
    reads it: (first_look(pattern), its tree), the look parsed alone and put first in `tree` (changed in place). The same
    tree as parsing first_look(pattern) again gives, without that second parse: the patterns without a literal first are
    the long ones (the GPU lists, 372 KB of the 79 patterns a short explain compiles), and parsing each twice cost a cold
    run ~0.4 s (helper ex163, session 28)."""
    look = _look(tree)
    if not look:
        return pattern, tree
    tree.data[0:0] = list(regex_parser.parse(look, re.IGNORECASE | re.MULTILINE))  # (a group without a name: no code)
    return _with_look(pattern, look), tree


def _look(parsed) -> str:
    """The look (`(?=[...])`) first_look puts before the parsed pattern, or "" where none."""
    first = list(parsed)[:1]
    if first and str(first[0][0]) == "LITERAL":
        return ""  # a literal first: a failing first letter is as cheap as the look
    chars = _first_chars(parsed)
    if not chars or len(chars) > FIRST_CHARS or any(c == 10 or c > 0xFFFF for c in chars):
        return ""
    return "(?=[" + "".join(re.escape(chr(c)) for c in sorted(chars)) + "])"


def _with_look(pattern: str, look: str) -> str:
    if not look:
        return pattern
    flags = _GLOBAL_FLAGS.match(pattern)  # (global flags stay first)
    at = flags.end() if flags else 0
    return pattern[:at] + look + "(?:" + pattern[at:] + ")"  # (the look before every branch of a top-level `|`)


_GLOBAL_FLAGS = re.compile(r"(?:\(\?[aiLmsux]+\))+")


def matcher_form(pattern: str) -> str:
    """An entry pattern as the matcher compiles it: its in-line gaps bounded (bounded), behind a look at its first
    characters (first_look). compile_pattern gives the same, parsing it once (first_look_tree)."""
    return first_look(bounded(pattern))


def can_match_newline(op, av) -> bool:
    """Can one item of a parsed pattern (regex_parser's (op, av)) match a line end, as the knowledge compiles it (no
    DOTALL)? Read by `bounded` (an in-line repeat) and by knowledge/match.py (a pattern that may span lines)."""
    name = str(op)
    if name == "LITERAL":
        return av == 10
    if name == "NOT_LITERAL":
        return av != 10
    if name == "ANY":
        return False  # the knowledge compiles without DOTALL
    if name == "IN":
        items = [(str(o), a) for o, a in av]
        negate = bool(items) and items[0][0] == "NEGATE"
        hit = False
        for o, a in items:
            if o == "LITERAL" and a == 10:
                hit = True
            elif o == "RANGE" and a[0] <= 10 <= a[1]:
                hit = True
            elif o == "CATEGORY" and (str(a).endswith("_SPACE") != ("NOT" in str(a))):
                hit = True  # \s, or \W / \D (not-word and not-digit hold the line end)
        return (not hit) if negate else hit
    if name == "CATEGORY":
        return str(av).endswith("_SPACE") != ("NOT" in str(av))
    return False


@lru_cache(maxsize=None)
def _in_line(atom: str) -> bool:
    r"""Is `atom` one character that is never a line end (`[^\n]`, `[^"'\n]`, `.`, `\w`, `\d`, `\S`)?"""
    try:
        parsed = list(regex_parser.parse(atom))
    except re.error:
        return False
    if len(parsed) != 1:
        return False
    op, av = parsed[0]
    return str(op) in ("IN", "NOT_LITERAL", "ANY", "CATEGORY") and not can_match_newline(op, av)


@lru_cache(maxsize=None)
def compile_pattern(pattern: str) -> re.Pattern:
    """One entry pattern as the matcher runs it (bounded gaps, case-blind, `^`/`$` at lines). Compiled when first run:
    an explain that reaches a few dozen of ~1,800 patterns compiles those only (knowledge/match.py's _Index), and what a
    run before compiled is read back (index_cache.compiled)."""
    from .index_cache import compiled

    return compiled(pattern, re.IGNORECASE | re.MULTILINE, rewrite=bounded, amend=first_look_tree)


@lru_cache(maxsize=None)
def _compile(patterns: tuple[str, ...]) -> tuple[re.Pattern, ...]:
    return tuple(map(compile_pattern, patterns))


_FIELDS = set(Entry.__dataclass_fields__)


@lru_cache(maxsize=None)
def toml_data(name: str) -> dict:
    """A knowledge TOML file beside this module, parsed and its snippets expanded (@TRITON_PIN@: torchpin), once for every
    reader: entries() and the modules that read a file's other tables (attribution.toml, accelerators.toml). Shared: read,
    never change it. The parse is read back from the cache where a run before parsed the same bytes (index_cache.toml)."""
    from . import index_cache

    return expand_snippets(index_cache.toml((HERE / name).read_bytes(), _parse_toml))


def _parse_toml(raw: bytes) -> dict:
    return tomllib.loads(raw.decode("utf-8"))


@lru_cache(maxsize=1)
def entries() -> dict[str, Entry]:
    """Every entry by id, read once from the TOML files beside this module: each file's [macros] expanded in its patterns
    and frames, `patterns_from` filled in; an unknown key, a duplicate id or an unknown severity is refused."""
    out: dict[str, Entry] = {}
    for path in sorted(HERE.glob("*.toml")):
        data = toml_data(path.name)
        macros = data.get("macros", {})  # a file's shared regex parts: `<NAME>` in its patterns
        for raw in data.get("entry", []):
            raw = dict(raw)  # (toml_data's tables are shared with the modules that read the same file)
            unknown = set(raw) - _FIELDS | ({"weak_copy", "file"} & set(raw))
            if unknown:
                raise ValueError(f"{path.name}: entry {raw.get('id')!r} has unknown keys {sorted(unknown)}")
            for key in ("patterns", "examples", "refs", "unset", "frames", "explained_by"):
                raw[key] = tuple(raw.get(key, ()))
            if macros:
                raw["patterns"] = tuple(_expand(p, macros, path.name) for p in raw["patterns"])
                raw["frames"] = tuple(_expand(p, macros, path.name) for p in raw["frames"])
            if raw.get("patterns_from") == "messages":
                from .messages import messages

                raw["patterns"] += tuple(dict.fromkeys(m.pattern for m in messages()))
                raw["examples"] += tuple(dict.fromkeys(m.example for m in messages()))
            e = Entry(**raw, file=path.name)
            if e.id in out:
                raise ValueError(f"{path.name}: duplicate entry id {e.id!r}")
            if e.severity not in SEVERITIES:
                raise ValueError(f"{path.name}: entry {e.id!r} has severity {e.severity!r}")
            out[e.id] = e
    for e in out.values():
        missing = [i for i in e.explained_by if i not in out]
        if missing:
            raise ValueError(f"{e.file}: entry {e.id!r} is explained_by unknown entries {missing}")
    return out


MACRO = re.compile(r"<([A-Z][A-Z_]*)>")


def _expand(pattern: str, macros: dict[str, str], where: str) -> str:
    """`pattern` with each `<NAME>` replaced by its file's [macros] NAME, as a non-capturing group."""
    def one(m: re.Match) -> str:
        if m.group(1) not in macros:
            raise ValueError(f"{where}: pattern uses <{m.group(1)}>, which its [macros] does not define")
        return f"(?:{macros[m.group(1)]})"
    return MACRO.sub(one, pattern)


def get(entry_id: str) -> Entry:
    try:
        return entries()[entry_id]
    except KeyError:
        raise KeyError(f"no knowledge entry {entry_id!r}") from None


class _Params(dict):
    def __missing__(self, key):  # a template names a param the check did not give: show it, don't crash
        return "{" + key + "}"


def render(template: str | None, params: dict) -> str | None:
    if template is None:
        return None
    return string.Formatter().vformat(template, (), _Params(params))


def template_fields(template: str | None) -> set[str]:
    if not template:
        return set()
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def renders(entry_id: str, params: dict) -> bool:
    """Does the entry's wording render fully from these params (no {placeholder} left)?"""
    e = get(entry_id)
    return (template_fields(e.title) | template_fields(e.fix)) <= set(params) | {"backend"}


def finding_for_match(entry_id: str, known_id: str, *, backend: str | None = None, detail: str | None = None,
                      severity: str | None = None, **params) -> Finding:
    """A finding for an error text that matched knowledge entry `entry_id`. When the entry needs
    facts this context does not have, the generic `known_id` finding names it as the cause."""
    if renders(entry_id, dict(params, backend=backend)):
        return finding(entry_id, backend=backend, detail=detail, severity=severity, **params)
    e = get(entry_id)
    p = dict(params, backend=backend)
    cause_fix = render(e.fix, p) if e.fix and not (template_fields(e.fix) - set(p)) else f"attn-doctor explain {entry_id}"
    return finding(known_id, backend=backend, detail=detail, severity=severity, cause=entry_id, cause_fix=cause_fix,
                   **params)


def _blank_fields(template: str) -> str:
    return string.Formatter().vformat(template, (), _Blank())


class _Blank(dict):
    def __missing__(self, key):
        return "<" + key + ">"


def _render_or(template: str | None, params: dict, fallback: str | None) -> str | None:
    """The template filled in; when a param it names is missing, the param-free fallback (if any)."""
    if template is None:
        return None
    if fallback and not template_fields(template) <= set(params):
        return fallback
    return render(template, params)


def finding(entry_id: str, *, backend: str | None = None, severity: str | None = None,
            detail: str | None = None, **params) -> Finding:
    """The one way a check makes a Finding: wording, fix and default severity come from the entry."""
    e = get(entry_id)
    if backend is not None:
        params.setdefault("backend", backend)
    return Finding(
        id=e.id,
        severity=severity or e.severity,
        section=e.section,
        title=_render_or(e.title, params, e.summary),
        fix=_render_or(e.fix, params, e.general_fix),
        backend=backend if backend is not None else e.backend,
        detail=detail,
        params={k: v for k, v in params.items() if isinstance(v, (str, int, float, bool, type(None)))},
    )


@lru_cache(maxsize=None)
def words(stem: str) -> dict[str, str]:
    """The `[words]` table of knowledge/<stem>.toml: phrases code puts together into one finding's
    params (the fleet's "why this way" clauses), kept with the entries they fill."""
    with open(HERE / f"{stem}.toml", "rb") as fh:
        return dict(tomllib.load(fh).get("words") or {})
