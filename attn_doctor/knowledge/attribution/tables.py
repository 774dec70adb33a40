"""attribution.toml's tables, loaded once (rules() and its _Rules; the file stays in knowledge/, beside the other
tables, HERE), and the first library rule that holds on one line (_first_rule): the primitive every other reading stands
on. The seven backends (BACKENDS) and the rules' backends that are none of them (NOT_SEVEN). Tables read by one concern
alone are read beside it (refusals, probes, search, evidence); [not_a_report.document] is here because the search and the
refusals both read it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ...model import BACKENDS as MODEL_BACKENDS
from .. import MACRO, _expand, index_cache, toml_data


HERE = Path(__file__).parent.parent  # knowledge/, where attribution.toml is


@dataclass(frozen=True)
class _Rules:
    libraries: tuple[tuple[str, re.Pattern, bool], ...]  # (backend, pattern, shared): hub repos, files, names, then shared names
    takes_over: dict[str, frozenset[str]]
    entry_takes_over: dict[str, frozenset[str]]  # entry id -> backends that may take over that entry alone
    never: frozenset[str]
    words: dict[str, dict[str, str]]  # backend -> {name, package, reinstall, ...}
    wording: dict[str, dict[str, dict[str, str]]]  # entry id -> backend|"any" -> {title, fix}
    kernel_only: frozenset[str]  # entries claimed only when the failing Triton kernel is attention's
    kernel_context: tuple[re.Pattern, ...]  # lines that show an attention kernel (Inductor's)
    needs_backend: frozenset[str]  # catch-alls claimed only when the log names a backend near them
    own_or_frames: frozenset[str]  # ...and where another backend's naming must be a traceback frame
    past_traceback: frozenset[str]  # entries whose evidence lies above their traceback (a build's output)
    title_sentence: frozenset[str]  # entries that, as a report's title, take the backend of its first sentence
    in_traceback: frozenset[str]  # entries whose naming must be on the error line, its continuation or its frames
    required_by: frozenset[str]  # loader errors whose '(required by X.so)' must be an attention library's
    first_named: frozenset[str]  # entries whose backend is the one their evidence line names first
    optimizer_oom: frozenset[str]  # OOM entries not claimed when the optimizer step raised them
    optimizer_frames: tuple[re.Pattern, ...]  # the optimizers' code, as a traceback frame names it
    engine_frames: tuple[re.Pattern, ...]  # a serving engine's code, as a traceback frame names it
    engine_lines: tuple[re.Pattern, ...]  # a script's lines that start a serving engine
    other_counts: frozenset[str]  # catch-alls an attention library outside the seven claims (backend "other")
    announcements: tuple[re.Pattern, ...]  # a program's lines saying what it selected: not evidence searching down
    selected_after: tuple[frozenset[str], re.Pattern | None]  # (ids, words) after which a sentence names the selection
    files: tuple[tuple[str, re.Pattern], ...] = ()  # (backend, pattern): the seven backends' hub repos and files only
    specialize: dict[tuple[str, str], tuple[tuple[str, re.Pattern | None, re.Pattern | None, re.Pattern | None], ...]] = \
        field(default_factory=dict)  # [[specialize]]
    setup: tuple[re.Pattern, ...] = ()  # lines that set up the run (a command line, a variable, an install, an import)
    inventory: tuple[re.Pattern, ...] = ()  # lines that list what is installed: no evidence of what failed
    # [optional_probe]: (ids, lines that mark a library's optional import probe, how many lines above a match they stand)
    optional_probe: tuple[frozenset[str], tuple[re.Pattern, ...], int] = (frozenset(), (), 8)
    # [[evidence_backend]]: entry id -> ((backend, pattern), ...): the backend its own evidence names (session 7, ex43)
    evidence_backend: dict[str, tuple[tuple[str, re.Pattern, bool, re.Pattern | None], ...]] = field(default_factory=dict)
    # [dsl_kernel]: (entry id prefix, what names FA4, what names another CuTe DSL program's kernel) (session 7, ex43)
    dsl_kernel: tuple[str, tuple[re.Pattern, ...], tuple[re.Pattern, ...]] = ("", (), ())
    own_if_named: frozenset[str] = frozenset()  # [own_if_named]: the entry's own backend only where the log names one
    own_line_only: frozenset[str] = frozenset()  # [needs_backend] own_line_only: in_traceback ids not read beside a bare error
    # `libraries` split once: (backend, pattern) of the rules that name one of the seven, in order, and the patterns of
    # those that name none of them (backend "none": torch's own; "foreign"; "other")
    seven: tuple[tuple[str, re.Pattern], ...] = ()
    seven_shared: tuple[bool, ...] = ()  # beside `seven`: is that rule a name several backends share
    not_seven: tuple[re.Pattern, ...] = ()
    torch_own: tuple[re.Pattern, ...] = ()  # the "none" rules' own (not shared) patterns: torch's messages, its build first
    # [handled_probe]: (ids, lines of the chained traceback that show the program's fallback import, how many lines below)
    handled_probe: tuple[frozenset[str], tuple[re.Pattern, ...], int] = (frozenset(), (), 12)


NOT_SEVEN = ("none", "foreign", "other")  # the library rules' backends that are no attention backend of the seven


@lru_cache(maxsize=1)
def _toml() -> dict:
    """attribution.toml as parsed, once for every reader of its tables (rules() and the tables the helpers' readings
    below take: [optional_probe], [not_a_report], [described_fallback])."""
    return toml_data("attribution.toml")


@lru_cache(maxsize=1)
def rules() -> _Rules:
    """attribution.toml, read once (with the messages each backend's own source raises, knowledge/messages/, as names of
    that backend). Its ~800 patterns' compiled code is kept in the cache (index_cache.Pack: ~0.08 s of every explain), the
    [[specialize]], [[evidence_backend]], probe and kernel tables' too (their readers take the pack's compile: helper ex181)."""
    data = _toml()
    pack = index_cache.Pack("attribution")
    rx_ = pack.compile
    # ASCII: a library name next to CJK text ("安装flash-attn的话") is still a word of its own
    libs = tuple((lib["backend"], rx_(p, re.IGNORECASE | re.ASCII), tier.startswith("shared"))
                 for tier in ("hub", "files", "shared_files", "names") for lib in data["library"] for p in lib.get(tier, ()))
    # the messages each backend's own source raises (knowledge/messages/): names of that backend, after its
    # files and names, before the names several backends share
    from ..messages import messages

    libs += tuple((m.backend, rx_(m.pattern, re.IGNORECASE | re.ASCII), False) for m in messages())
    libs += tuple((lib["backend"], rx_(p, re.IGNORECASE | re.ASCII), True)
                  for lib in data["library"] for p in lib.get("shared", ()))
    only = data.get("attention_kernel_only", {})
    evidence, specialize = _with_absent_notice(data)
    made = _Rules(libs, {k: frozenset(v) for k, v in data.get("takes_over", {}).items()},
                  {k: frozenset(v) for k, v in data.get("entry_takes_over", {}).items()},
                  frozenset(data.get("never", {}).get("ids", ())), data.get("backend", {}), data.get("wording", {}),
                  frozenset(only.get("ids", ())), tuple(rx_(p, re.IGNORECASE) for p in only.get("context", ())),
                  frozenset(data.get("needs_backend", {}).get("ids", ())),
                  frozenset(data.get("needs_backend", {}).get("own_or_frames", ())),
                  frozenset(data.get("needs_backend", {}).get("past_traceback", ())),
                  frozenset(data.get("needs_backend", {}).get("title_sentence", ())),
                  frozenset(data.get("needs_backend", {}).get("in_traceback", ())),
                  frozenset(data.get("required_by", {}).get("ids", ())),
                  frozenset(data.get("first_named", {}).get("ids", ())),
                  frozenset(data.get("optimizer_oom", {}).get("ids", ())),
                  tuple(rx_(p, re.IGNORECASE) for p in data.get("optimizer_oom", {}).get("frames", ())),
                  tuple(rx_(p, re.IGNORECASE) for p in data.get("optimizer_oom", {}).get("engine_frames", ())),
                  tuple(rx_(p, re.IGNORECASE | re.MULTILINE) for p in data.get("optimizer_oom", {}).get("engine_lines", ())),
                  frozenset(data.get("needs_backend", {}).get("other_counts", ())),
                  tuple(rx_(p) for p in data.get("announcement", {}).get("lines", ())),  # case-sensitive: as printed
                  _selected_after(data.get("selected_after", {}), rx_),
                  tuple((lib["backend"], rx_(p, re.IGNORECASE | re.ASCII)) for tier in ("hub", "files")
                        for lib in data["library"] for p in lib.get(tier, ())
                        if lib["backend"] not in NOT_SEVEN),
                  _specializations(specialize, data.get("macros", {}), rx_),
                  tuple(rx_(p, re.IGNORECASE) for p in data.get("setup", {}).get("lines", ())),
                  tuple(rx_(p, re.IGNORECASE) for p in data.get("inventory", {}).get("lines", ())),
                  _optional_probe(data.get("optional_probe", {}), rx_),
                  _evidence_backends(evidence, rx_),
                  _dsl_kernel(data.get("dsl_kernel", {}), rx_),
                  frozenset(data.get("own_if_named", {}).get("ids", ())),
                  own_line_only=frozenset(data.get("needs_backend", {}).get("own_line_only", ())),
                  handled_probe=_optional_probe(data.get("handled_probe", {}), rx_),
                  seven=tuple((b, rx) for b, rx, _ in libs if b not in NOT_SEVEN),
                  seven_shared=tuple(shared for b, _, shared in libs if b not in NOT_SEVEN),
                  not_seven=tuple(rx for b, rx, _ in libs if b in NOT_SEVEN),
                  torch_own=tuple(rx for b, rx, shared in libs if b == "none" and not shared))
    pack.save()
    return made


def _dsl_kernel(table: dict, rx_=re.compile) -> tuple[str, tuple[re.Pattern, ...], tuple[re.Pattern, ...]]:
    return (table.get("prefix", ""), tuple(rx_(p, re.IGNORECASE) for p in table.get("fa4", ())),
            tuple(rx_(p, re.IGNORECASE) for p in table.get("others", ())))


def _grouped(rows, key, value) -> dict:
    """An array of tables as key(row) -> (value(row), ...), each key's values in the file's order (the first that holds
    wins where they are conditions)."""
    out: dict = {}
    for x in rows:
        out[key(x)] = out.get(key(x), ()) + (value(x),)
    return out


def _evidence_backends(table, rx_=re.compile) -> dict[str, tuple[tuple[str, re.Pattern, bool, re.Pattern | None], ...]]:
    """[[evidence_backend]] as entry -> ((backend, when, title only, unless), ...): `unless`, where a row has it, is searched in
    the lines within WINDOW of the match, and a hit there leaves the row out (another library that prints the same message)."""
    return _grouped(table, lambda x: x["entry"], lambda x: (x["backend"], rx_(x["when"]), bool(x.get("title")),
                                                            rx_(x["unless"], re.MULTILINE) if x.get("unless") else None))


def _expanded(pattern: str, macros: dict[str, str]) -> str:
    """`pattern` with attribution.toml's [macros] expanded as the entries' are (knowledge._expand), a macro's own `<NAME>`s too."""
    while MACRO.search(pattern):
        pattern = _expand(pattern, macros, "attribution.toml")
    return pattern


def _specializations(table, macros: dict[str, str], rx_=re.compile) -> dict[tuple[str, str], tuple[tuple[str, re.Pattern | None, re.Pattern | None,
                                                                     re.Pattern | None], ...]]:
    """[[specialize]] as (entry, backend) -> ((to, when, near, unless), ...); a row whose `entry` or `backend` is a list stands
    for one row each. `unless`, where a row has it, is searched where `near` is (the lines within WINDOW of the match and the
    title), and a hit there leaves the row out (as [[evidence_backend]]'s unless)."""
    def each(v):
        return [v] if isinstance(v, str) else v

    def rx(x, key):
        return rx_(_expanded(x[key], macros)) if x.get(key) else None
    table = [dict(x, entry=e, backend=b) for x in table for e in each(x["entry"]) for b in each(x["backend"])]
    return _grouped(table, lambda x: (x["entry"], x["backend"]),
                    lambda x: (x["to"], rx(x, "when"), rx(x, "near"), rx(x, "unless")))


def _with_absent_notice(data: dict) -> tuple[list[dict], list[dict]]:
    """The [[evidence_backend]] and [[specialize]] rows, with those [absent_notice] stands for after them: for each of its
    libraries, its notice as a report's title names its backend, and that backend's entry (`to`) says it."""
    evidence, specialize = list(data.get("evidence_backend", ())), list(data.get("specialize", ()))
    notice = data.get("absent_notice", {})
    for lib in notice.get("libraries", ()):
        evidence.append({"entry": notice["entry"], "backend": lib["backend"], "title": True,
                         "when": notice["when"].replace("<MODULE>", re.escape(lib["module"]))})
        specialize.append({"entry": notice["entry"], "backend": lib["backend"], "to": lib["to"]})
    return evidence, specialize


def _selected_after(table: dict, rx_=re.compile) -> tuple[frozenset[str], re.Pattern | None]:
    words = table.get("words")
    return frozenset(table.get("ids", ())), rx_(words, re.IGNORECASE) if words else None


# The rules a line can hold (helper ci40b, session 40). _first_rule searched the line with every rule, ~750 of them (torch's own
# and the libraries'), and the attribution reads each line near a match this way (nearest, first_named, ...): a fifth of
# explain's CPU over the training texts. Each rule's needles (knowledge/match.py needles(): literal strings, one of which every
# match holds, lower-cased, digits and a-f written as 0) are looked for in the line folded and shaped as they are
# (match._fold, match.shape: every rule is compiled re.IGNORECASE | re.ASCII), and only the rules whose needle the line holds
# are searched, in their order: the same answer. Finding the needles parses every rule (~0.1 s), so the gate is built only
# once a process has read GATE_AFTER lines: a short explain reads every rule as before. sentences._first_named reads the
# seven's and the others' rules through the same gate.
GATE_AFTER = 200
_GATE: list = [None, 0, None]  # (the rules it is for, lines read without it, each list's needle tables: _rule_gate)


def _rule_gate(r: _Rules) -> tuple | None:
    """The needle tables of `r`'s torch_own, libraries, seven and not_seven (each: the needles by their first GRAM
    characters, with the indexes of the rules they stand for) and how a line is shaped to look for them, once GATE_AFTER
    lines were read with `r`; else None."""
    g = _GATE
    if g[0] is not r:
        g[:] = [r, 0, None]
    if g[2] is None:
        g[1] += 1
        if g[1] <= GATE_AFTER:
            return None
        from ..match import _fold, needles, shape

        def table(patterns) -> tuple[dict[str, list[tuple[str, list[int]]]], list[tuple[str, list[int]]], list[int]]:
            """The needles by their first GRAM characters (those shorter, apart), each with the rules it stands for; and the
            rules read on every line: those without a needle, or compiled otherwise than the needles are read for (a verbose
            pattern is parsed otherwise)."""
            by: dict[str, list[int]] = {}
            always = []
            for i, rx in enumerate(patterns):
                alts = needles(rx.pattern, min_len=1) if not rx.flags & re.VERBOSE else ()
                if not alts:
                    always.append(i)
                for n in alts:
                    by.setdefault(n, []).append(i)
            grams: dict[str, list[tuple[str, list[int]]]] = {}
            for n, ids in by.items():
                if len(n) >= GRAM:
                    grams.setdefault(n[:GRAM], []).append((n, ids))
            return grams, [(n, ids) for n, ids in by.items() if len(n) < GRAM], always
        g[2] = {"torch_own": table(r.torch_own), "libraries": table([rx for _, rx, _ in r.libraries]),
                "seven": table([rx for _, rx in r.seven]), "not_seven": table(r.not_seven),
                "shape": lambda line: shape(_fold(line))}
    return g[2]


def _line_gate(r: _Rules, line: str) -> tuple | None:
    """What _picked needs to keep, of a list of `r`'s rules, those whose needle `line` holds; None before the gate is built
    (_rule_gate): then every rule is read."""
    gate = _rule_gate(r)
    if gate is None:
        return None
    held = gate["shape"](line)
    return gate, held, {held[i:i + GRAM] for i in range(len(held) - GRAM + 1)}


def _picked(at: tuple, kind: str, items: list | tuple) -> list:
    """The items (of `kind`: torch_own, libraries, seven, not_seven, or a list beside one of them) whose rule's needle the
    line of `at` (_line_gate) holds, in their order."""
    gate, held, grams = at
    return [items[i] for i in _gated(gate[kind], held, grams)]


GRAM = 3


def _gated(table, held: str, grams: set[str]) -> list[int]:
    """The indexes, in order, of the rules one of whose needles `held` (a line, shaped) holds (`grams`: its GRAM-grams)."""
    by, short, always = table
    out = {i for n, ids in short if n in held for i in ids}
    out.update(always)
    for gram in grams & by.keys():
        for n, ids in by[gram]:
            if n in held:
                out.update(ids)
    return sorted(out)


def _first_rule(line: str) -> tuple[str, bool] | None:
    """(backend, only by a name several backends share) of the first library rule that holds on `line`, or None;
    ("none", False) wherever one of torch's own rules holds. A shared name that holds first stays the answer, made precise
    (False) where a later rule of the same backend holds too."""
    hit = None
    r = rules()
    torch_own, libraries = r.torch_own, r.libraries
    at = _line_gate(r, line)
    if at is not None:  # only the rules whose needle the line holds (_rule_gate)
        torch_own, libraries = _picked(at, "torch_own", torch_own), _picked(at, "libraries", libraries)
    if any(rx.search(line) for rx in torch_own):
        # torch's own message (or a sentence that puts torch's build first): the line names no backend, whatever else
        # it names (session 7, ex48: "Torch and xFormers do not support RTX 50xx yet")
        return "none", False
    for backend, rx, shared in libraries:
        if rx.search(line):
            if not shared:
                # a shared name first, then the same backend's own name on the line (round 23, hear-t1/EasyR1#21: "the
                # package flash_attn" in "ImportError: FlashAttention2 has been toggled on"): the line names it precisely
                return (backend, False) if hit is None or hit[0] == backend else hit
            if hit is None:
                hit = (backend, shared)
    return hit


def _optional_probe(data: dict, rx_=re.compile) -> tuple[frozenset[str], tuple[re.Pattern, ...], int]:
    return (frozenset(data.get("ids", ())), tuple(rx_(p) for p in data.get("lines", ())),
            int(data.get("span", 8)))


@lru_cache(maxsize=1)
def _document_rules() -> dict:
    """[not_a_report.document] in attribution.toml (helper ex67), compiled."""
    d = _toml().get("not_a_report", {}).get("document", {})
    if not d:
        return {}
    return {"head": int(d.get("head", 12)), "failing": re.compile(d["failing"]), "marks": [re.compile(p) for p in d["marks"]],
            "window": int(d.get("window", 400)), "quoted": [re.compile(p, re.MULTILINE) for p in d["quoted"]]}


BACKENDS = frozenset(MODEL_BACKENDS)  # the seven (an entry id's namespace may name one)
