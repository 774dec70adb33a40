#!/usr/bin/env python3
"""Which knowledge patterns could make the regex engine backtrack more than linearly on a long line (helper ex167,
session 29; issue 23, "<= 2 s for 50 MB"). tests/test_explain_long_lines.py's work guard counts the characters the
matcher hands its patterns, not what the engine does with them: a badly written pattern behind the literal gate passes it
and could cost seconds on one long line. This reads each pattern's parse tree (re's own parser, as the knowledge compiles
it: case-blind, `^` at lines) and names three shapes whose cost per character grows with a line's length, none timed:

- `nested`: a repeat whose body holds a repeat that may read `BIG` characters or more (or many short reads), where one
  text can be split between the iterations in many ways: no character the body must match lies outside the inner repeat's
  characters (`(?:[ \\t][^\\n]*){0,4}`, `(\\w+\\s?)*`). `(?:[ \\t][^\\n]*\\n){0,4}` is safe: each iteration ends at a
  line end the inner repeat cannot read.
- `adjacent`: a long repeat followed, with no character between them that it cannot read, by another long repeat over
  some of the same characters, directly or as the first part of what follows (a group, each way of an alternation):
  `[^\\n]*[ \\t]*x`, `[^\\n]*?(?:a[^\\n]*|[^\\n]*b)`. On a line of the shared characters each end of the first is tried
  with each of the second: length squared per start.
- `look`: a look that reads `BIG` characters or more, inside a repeat that may run `BIG` times
  (`(?:(?![^\\n]*x).){0,4096}`): each step of the repeat reads the look's whole reach.
- `wrap` (review rev29): a repeat that may run WRAP times or more whose body ends with a repeat and begins with another
  over one same character (`(?:[^,]{1,40}?,[ \\t]*)+`: the blanks after a comma read by `[ \\t]*` or by the next item):
  each boundary between iterations splits that run two ways or more, and the ways multiply with the iterations where the
  whole fails (attribution's PROSE_EXAMPLES: a minute on one line of 25 items). Safe: an item that cannot begin with that
  character (`[^,\\s][^,]{0,39}?,[ \\t]*`).
The patterns read: every entry's patterns and frames, the probes, and attribution's own (attribution_patterns: its modules'
compiled patterns and attribution.toml's), which run over the lines near each match.
A long repeat is one whose maximum is at least BIG characters (`*`, `+`, knowledge.bounded's LINE_GAP). The characters of an
item are read over ALPHABET (ASCII and a few others): two sets overlap where they share one of those.

Usage: PYTHONPATH=. python benchmarks/explain_backtracking.py [--all]   (--all: every pattern's verdict, else the flagged)
"""

from __future__ import annotations

import argparse
import re
import sys
import warnings
from functools import lru_cache

try:
    from re import _parser as regex_parser  # Python 3.11+
except ImportError:  # pragma: no cover
    import sre_parse as regex_parser  # type: ignore[no-redef]

WHY = {"nested": "a repeat around a repeat: one text splits between its iterations many ways",
       "adjacent": "a long repeat, then another over the same characters with nothing between that the first cannot read",
       "look": "a long look inside a long repeat: each step reads the look's reach",
       "wrap": "a repeat whose body ends and begins with repeats over one same character: each boundary splits their run"}
BIG = 256  # a repeat that may read this many characters or more is long
WRAP = 16  # a repeat that may run this many times or more: ways that multiply per iteration grow past any bound (wrap)
ALPHABET = tuple(range(128)) + tuple(map(ord, "éßЖ中の한✓→│█\u00a0\u3000"))
_CATEGORY = {"CATEGORY_DIGIT": r"\d", "CATEGORY_NOT_DIGIT": r"\D", "CATEGORY_SPACE": r"\s", "CATEGORY_NOT_SPACE": r"\S",
             "CATEGORY_WORD": r"\w", "CATEGORY_NOT_WORD": r"\W", "CATEGORY_LINEBREAK": r"\n", "CATEGORY_NOT_LINEBREAK": r"."}
_REPEATS = ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")
_LINE_ENDS = ("AT_BEGINNING", "AT_BEGINNING_LINE", "AT_BEGINNING_STRING", "AT_END", "AT_END_LINE", "AT_END_STRING")
FLAGS = re.IGNORECASE | re.MULTILINE


@lru_cache(maxsize=None)
def _category(name: str) -> frozenset[int]:
    rx = re.compile(_CATEGORY[name])
    return frozenset(c for c in ALPHABET if rx.match(chr(c)))


def _cased(c: int) -> set[int]:
    ch = chr(c)
    return {c} | {ord(x) for x in (ch.lower(), ch.upper()) if len(x) == 1}


def chars(op, av) -> frozenset[int] | None:
    """The characters (of ALPHABET) one single-character item matches, case-blind; None where the item is no single
    character."""
    name = str(op)
    if name == "LITERAL":
        return frozenset(_cased(av))
    if name == "NOT_LITERAL":
        return frozenset(ALPHABET) - _cased(av)
    if name == "ANY":
        return frozenset(ALPHABET) - {10}
    if name == "CATEGORY":
        return _category(str(av))
    if name == "IN":
        out: set[int] = set()
        negate = False
        for o, a in av:
            o = str(o)
            if o == "NEGATE":
                negate = True
            elif o == "LITERAL":
                out |= _cased(a)
            elif o == "RANGE":
                out |= {c for c in ALPHABET if a[0] <= c <= a[1]} | {c for c in ALPHABET if any(
                    a[0] <= x <= a[1] for x in _cased(c))}
            elif o == "CATEGORY":
                out |= _category(str(a))
        return frozenset(ALPHABET) - out if negate else frozenset(out)
    return None


def _inside(op, av) -> list:
    """The parsed sequences one item holds (a group's, each way of a branch, a repeat's body, a look's)."""
    name = str(op)
    if name == "SUBPATTERN":
        return [av[-1]]
    if name == "BRANCH":
        return list(av[1])
    if name in _REPEATS:
        return [av[2]]
    if name in ("ASSERT", "ASSERT_NOT"):
        return [av[1]]
    if name == "ATOMIC_GROUP":
        return [av]
    if name == "GROUPREF_EXISTS":
        return [x for x in av[1:] if x is not None]
    return []


def all_chars(seq) -> frozenset[int]:
    """Every character some single-character item of `seq` (looks left out) may match."""
    out: set[int] = set()
    for op, av in seq:
        c = chars(op, av)
        if c is not None:
            out |= c
        elif str(op) not in ("ASSERT", "ASSERT_NOT"):
            for sub in _inside(op, av):
                out |= all_chars(sub)
    return frozenset(out)


def width(seq) -> int:
    """The most characters `seq` may match (capped at BIG * BIG)."""
    try:
        hi = (seq if isinstance(seq, regex_parser.SubPattern) else regex_parser.SubPattern(regex_parser.State(), list(seq))
              ).getwidth()[1]
    except Exception:  # (a back reference's width needs its group's: read as long)
        return BIG * BIG
    return min(hi, BIG * BIG)


def _is_long(op, av) -> bool:
    return str(op) in _REPEATS and av[1] * max(1, width(av[2])) >= BIG


def delimited(seq, barred: frozenset[int], skip=None) -> bool:
    """Does every match of `seq` that holds `skip` (if given) hold a character outside `barred`: an item it must match, not
    `skip`, whose characters are all outside `barred`?"""
    for item in seq:
        if item is skip:
            continue
        op, av = item
        name = str(op)
        c = chars(op, av)
        if c is not None:
            if not (c & barred):
                return True
            continue
        holds = skip is not None and _contains([item], skip)  # (what holds `skip` is matched wherever `skip` is)
        if name in ("SUBPATTERN", "ATOMIC_GROUP"):
            if delimited(_inside(op, av)[0], barred, skip):
                return True
        elif name == "BRANCH":
            ways = [alt for alt in av[1] if _contains(alt, skip)] if holds else av[1]
            if all(delimited(alt, barred, skip) for alt in ways):  # (the way that holds `skip`: the others are no part of it)
                return True
        elif name in _REPEATS and (av[0] >= 1 or holds):
            if delimited(av[2], barred, skip):
                return True
    return False


def literal_in(seq) -> bool:
    """Must every match of `seq` match a literal character (a word of an alternation, each way holding one)?"""
    for op, av in seq:
        name = str(op)
        if name == "LITERAL":
            return True
        if name in ("SUBPATTERN", "ATOMIC_GROUP") and literal_in(_inside(op, av)[0]):
            return True
        if name == "BRANCH" and all(literal_in(alt) for alt in av[1]):
            return True
        if name in _REPEATS and av[0] >= 1 and literal_in(av[2]):
            return True
    return False


BROAD = frozenset(map(ord, " /.:,\"'=()"))


def broad(shared: frozenset[int]) -> bool:
    """Do the characters two repeats share make long runs in real logs: a letter and a space or a punctuation mark (a
    sentence, a path, JSON, a minified stack)? Blanks, digits or word characters alone make short runs (an indentation, a
    number, a word)."""
    return any(chr(c).isalpha() for c in shared) and bool(shared & BROAD)


def _contains(seq, target) -> bool:
    for item in seq:
        if item is target:
            return True
        if any(_contains(sub, target) for sub in _inside(*item)):
            return True
    return False


def _heads(seq, i: int, reach: frozenset[int], sep: frozenset[int] = frozenset()):
    r"""(repeat, separators) for each long repeat that may begin what follows item i of `seq` before a character outside
    `reach` or a literal must be matched: directly, or as the first part of a group or of each way of an alternation;
    `separators`: the characters of the classes it must match between (`[/\\]` in `\S*[/\\]\S*`)."""
    for item in list(seq)[i + 1:]:
        op, av = item
        name = str(op)
        c = chars(op, av)
        if c is not None:
            if name == "LITERAL" or not (c & reach):
                return  # a literal between: the first repeat ends at one of its occurrences (a gap between two words)
            sep = sep | c  # a class of characters the first repeat can read too: its end may lie on either side
            continue
        if name == "AT" and str(av) in _LINE_ENDS:
            return  # the second repeat starts at a line's start (or end): once per line, not once per character
        if name in ("AT", "ASSERT", "ASSERT_NOT"):
            continue
        if name in _REPEATS and _is_long(op, av) and width(av[2]) == 1:
            yield item, sep
            if av[0] >= 1:
                return
            continue
        if name in ("SUBPATTERN", "ATOMIC_GROUP", "BRANCH") or name in _REPEATS:
            for sub in _inside(op, av):
                yield from _heads([(None, None)] + list(sub), 0, reach, sep)
            if (name not in _REPEATS or av[0] >= 1) and (delimited([item], reach) or literal_in([item])):
                return
            continue
        return  # (a back reference, a conditional: not followed)


def findings(pattern: str) -> list[tuple[str, str]]:
    """(shape, the part of the pattern it concerns, as re prints it, cut) of each shape this pattern holds (see the module
    docstring); [] for none, or for a pattern re cannot parse."""
    try:
        tree = regex_parser.parse(pattern, FLAGS)
    except re.error:
        return []
    out: list[tuple[str, str]] = []
    _walk(list(tree), out, False, [])
    return out


def _show(item) -> str:
    """One parsed item written back as a pattern (the knowledge's text as the matcher compiles it: gaps bounded)."""
    return unparse([item])[:160]


_CATEGORY_TEXT = {"CATEGORY_DIGIT": r"\d", "CATEGORY_NOT_DIGIT": r"\D", "CATEGORY_SPACE": r"\s", "CATEGORY_NOT_SPACE": r"\S",
                  "CATEGORY_WORD": r"\w", "CATEGORY_NOT_WORD": r"\W"}
_AT_TEXT = {"AT_BEGINNING": "^", "AT_BEGINNING_LINE": "^", "AT_BEGINNING_STRING": r"\A", "AT_END": "$", "AT_END_LINE": "$",
            "AT_END_STRING": r"\Z", "AT_BOUNDARY": r"\b", "AT_NON_BOUNDARY": r"\B"}


def _char(c: int, in_set: bool = False) -> str:
    ch = chr(c)
    if ch == "\n":
        return r"\n"
    if ch == "\t":
        return r"\t"
    special = "\\]^-[" if in_set else ".^$*+?{}[]\\|()"
    return "\\" + ch if ch in special else ch


def unparse(seq) -> str:
    """A parsed sequence written back as a pattern, to name a part in a message (what re's parser read: its in-line flags
    and the compiler's own rewrites not kept)."""
    out = []
    for op, av in seq:
        name = str(op)
        if name == "LITERAL":
            out.append(_char(av))
        elif name == "NOT_LITERAL":
            out.append("[^" + _char(av, True) + "]")
        elif name == "ANY":
            out.append(".")
        elif name == "CATEGORY":
            out.append(_CATEGORY_TEXT.get(str(av), "?"))
        elif name == "IN":
            body = ""
            for o, a in av:
                o = str(o)
                body += ("^" if o == "NEGATE" else _char(a, True) if o == "LITERAL" else
                         _char(a[0], True) + "-" + _char(a[1], True) if o == "RANGE" else _CATEGORY_TEXT.get(str(a), "?"))
            out.append("[" + body + "]")
        elif name in _REPEATS:
            lo, hi, body = av
            inner = unparse(body)
            if len(body) != 1 or str(body[0][0]) in ("BRANCH",) or str(body[0][0]) in _REPEATS:
                inner = "(?:" + inner + ")"
            hi_text = "" if hi == regex_parser.MAXREPEAT else str(hi)
            q = {(0, ""): "*", (1, ""): "+", (0, "1"): "?"}.get((lo, hi_text), "{%d,%s}" % (lo, hi_text))
            out.append(inner + q + ("?" if name == "MIN_REPEAT" else "+" if name == "POSSESSIVE_REPEAT" else ""))
        elif name == "SUBPATTERN":
            out.append("(" + ("" if av[0] else "?:") + unparse(av[-1]) + ")")
        elif name == "BRANCH":
            out.append("(?:" + "|".join(unparse(alt) for alt in av[1]) + ")")
        elif name == "AT":
            out.append(_AT_TEXT.get(str(av), "?"))
        elif name in ("ASSERT", "ASSERT_NOT"):
            out.append("(?" + ("<" if av[0] < 0 else "") + ("=" if name == "ASSERT" else "!") + unparse(av[1]) + ")")
        elif name == "GROUPREF":
            out.append("\\%d" % av)
        else:
            out.append("(?" + name + ")")
    return "".join(out)


def _walk(seq, out: list, in_long_repeat: bool, rest: list) -> None:
    """Record in `out` each shape in `seq`, whose match is followed by the items `rest` (what follows its group, outwards)."""
    seq = list(seq)
    for i, item in enumerate(seq):
        op, av = item
        name = str(op)
        after = seq[i + 1:] + rest
        if name in _REPEATS:
            lo, hi, body = av
            body = list(body)
            if hi >= 2:
                for inner, before, behind in _repeats_in(body):
                    ilo, ihi, ibody = inner[1]
                    if ihi < 2 or hi * ihi < BIG or ilo == ihi or width(ibody) != 1:
                        continue  # (a repeat of a group is read as its own outer repeat, by _walk)
                    if _whole_run(all_chars(ibody), before, behind):
                        continue
                    if not delimited(body, all_chars(ibody), skip=inner):
                        out.append(("nested", f"{_show(item)}"))
                        break
            if hi >= WRAP and (ends := _wrap(body)) is not None:
                out.append(("wrap", f"{_show(item)}: {_show(ends[0])} then {_show(ends[1])}"))
            if _is_long(op, av) and width(body) == 1 and not _whole_run(all_chars(body), seq[i - 1] if i else None,
                                                                         after[0] if after else None):
                reach = all_chars(body)  # (a repeat that reads a whole run ends in one place)
                for nxt, sep in _heads([(None, None)] + after, 0, reach):
                    second = all_chars(nxt[1][2])
                    if sep and not (second & sep):
                        continue  # a separator the second cannot read: its reads from each end of the first do not overlap
                    if broad(second & reach):
                        out.append(("adjacent", f"{_show(item)}  then  {_show(nxt)}"))
                        break
            _walk(body, out, in_long_repeat or hi >= BIG, after)
            continue
        if name in ("ASSERT", "ASSERT_NOT"):
            if in_long_repeat and width(av[1]) >= BIG and _reads_broad(av[1]):
                out.append(("look", _show(item)))
            _walk(av[1], out, False, [])  # (a look's own end: what follows it is no part of it)
            continue
        for sub in _inside(op, av):
            _walk(sub, out, in_long_repeat, after)


def _edge(seq, last: bool):
    """The item a match of `seq` ends with (`last`) or begins with, looking into groups; None where that is no one item."""
    seq = [x for x in seq if str(x[0]) not in ("AT", "ASSERT", "ASSERT_NOT")]
    if not seq:
        return None
    item = seq[-1] if last else seq[0]
    if str(item[0]) in ("SUBPATTERN", "ATOMIC_GROUP"):
        return _edge(_inside(*item)[0], last)
    return item


def _wrap(body):
    """(the repeat that ends the body, the repeat that begins it) where both read one same character and the end may give
    characters back to the next iteration's start: each boundary between iterations splits a run of those characters
    between them, and the ways multiply with the iterations (`(?:[^,]{1,40}?,[ \\t]*)+`: the blanks after a comma read by
    `[ \\t]*` or by the next item)."""
    tail, head = _edge(body, True), _edge(body, False)
    if tail is None or head is None or tail is head:
        return None
    if not all(str(x[0]) in _REPEATS and width(x[1][2]) == 1 and x[1][1] > x[1][0] for x in (tail, head)):
        return None
    return (tail, head) if all_chars(tail[1][2]) & all_chars(head[1][2]) else None


def _reads_broad(seq) -> bool:
    """Does a long repeat in `seq` read characters that make long runs in real logs (broad)? A look whose long part reads
    blanks only (`[ \\t]+(?:when|if)\\b`) reads a run of blanks: short in a log, as `adjacent` counts them (review rev29)."""
    return any(_is_long(*r) and broad(all_chars(r[1][2])) for r, _, _ in _repeats_in(seq))


def _repeats_in(seq):
    """(repeat, the item before it, the item after it) for each repeat inside `seq` (any depth, looks left out)."""
    seq = list(seq)
    for i, item in enumerate(seq):
        op, av = item
        name = str(op)
        if name in ("ASSERT", "ASSERT_NOT"):
            continue
        if name in _REPEATS:
            yield item, seq[i - 1] if i else None, seq[i + 1] if i + 1 < len(seq) else None
        for sub in _inside(op, av):
            yield from _repeats_in(sub)


_WORD = _category("CATEGORY_WORD")


def _whole_run(reads: frozenset[int], before, after) -> bool:
    r"""Does a repeat over `reads` read a whole run of those characters: a look before it that no such character may
    precede (`(?<![\w-])[\w-]+`), or one after it that no such character may follow (`\w*\b`, `[\w-]+(?![\w-])`)? Then
    no iteration of a repeat around it ends inside a run, and a text splits between them one way only."""
    for item, behind in ((before, True), (after, False)):
        if item is None:
            continue
        op, av = item
        name = str(op)
        if name == "AT" and str(av) == "AT_BOUNDARY" and reads <= _WORD:
            return True
        if name == "ASSERT_NOT" and (av[0] < 0) == behind:
            body = list(av[1])
            if len(body) == 1 and (c := chars(*body[0])) is not None and reads <= c:
                return True
    return False


def knowledge_patterns() -> list[tuple[str, str]]:
    """(entry id or `probe NAME`, pattern as the matcher compiles it: knowledge.matcher_form) for every pattern explain runs."""
    from attn_doctor import explain
    from attn_doctor.knowledge import entries, matcher_form

    out = []
    for e in entries().values():
        for p in dict.fromkeys(e.patterns + e.frames):
            out.append((e.id, matcher_form(p)))
    for name, p in explain.probes():
        out.append(("probe " + name, p))
    return out + attribution_patterns()


def attribution_patterns() -> list[tuple[str, str]]:
    """(`attribution NAME`, pattern) for the patterns attribution runs over the lines near each match (review rev29: its
    PROSE_EXAMPLES split a list's blanks two ways per comma, a minute on one line of 25 items, unread by this guard): every
    compiled pattern of attn_doctor/knowledge/attribution/*.py and every string of attribution.toml that compiles (its
    tables' patterns; its other strings hold no repeat)."""
    import importlib
    import pkgutil

    from attn_doctor.knowledge import attribution
    from attn_doctor.knowledge.attribution.tables import _toml

    out, seen = [], set()
    for m in pkgutil.iter_modules(attribution.__path__):
        mod = importlib.import_module(f"{attribution.__name__}.{m.name}")
        for key, v in vars(mod).items():
            if isinstance(v, re.Pattern) and isinstance(v.pattern, str) and v.pattern not in seen:
                seen.add(v.pattern)
                out.append((f"attribution {m.name}.{key}", v.pattern))

    def strings(x, where):
        if isinstance(x, dict):
            for k, v in x.items():
                yield from strings(v, f"{where}.{k}" if where else k)
        elif isinstance(x, list):
            for v in x:
                yield from strings(v, where)
        elif isinstance(x, str) and x not in seen:
            yield where, x

    for where, x in strings(_toml(), ""):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # (a fix's words read as a pattern: "[[" is no set of a pattern here)
                re.compile(x)
        except re.error:
            continue
        seen.add(x)
        out.append((f"attribution.toml {where}", x))
    return out


def flagged() -> list[tuple[str, str, str, str]]:
    """(entry, shape, part, pattern) for each finding over every knowledge pattern."""
    rows = []
    for eid, p in knowledge_patterns():
        for shape, part in findings(p):
            rows.append((eid, shape, part, p))
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--all", action="store_true")
    args = ap.parse_args()
    rows = flagged()
    for eid, shape, part, p in rows:
        print(f"{eid:40s} {shape:9s} {part[:110]}\n{'':40s} pattern: {p[:150]}")
    print(f"{len(rows)} findings in {len({r[3] for r in rows})} patterns of {len(knowledge_patterns())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
