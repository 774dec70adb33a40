"""`attn-doctor explain`: print one knowledge entry by id, list every id, or find the entries that
explain an error message or a whole log (the same matcher `check` uses for failed imports)."""

from __future__ import annotations

import dataclasses

import difflib

from rich.console import Console
from rich.table import Table
from rich.text import Text

from dataclasses import dataclass

from .knowledge import Entry, entries
from .knowledge import accelerator, attribution, checkout, sdpa_reasons, tailor
from .knowledge.match import Match, Scan, scan
from .knowledge.tailor import Versions

SEV_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


@dataclass
class Explained(Match):
    """A match with the backend it belongs to: the entry's own, or the one the log names nearest to
    the error line (knowledge/attribution/), and the entry's words for that backend."""
    backend: str | None = None
    title: str = ""
    fix: str | None = None
    named_by: attribution.Attribution | None = None  # the line that named the backend, when inferred
    untailored: str | None = None  # the fix before tailor.py fitted it to the versions


@dataclass
class Result:
    """explain's answer for one input: every known problem found, ranked, and what was read."""
    found: list[Explained]
    size: int  # bytes read
    lines: int  # lines read
    blank: bool  # the input held nothing but white space
    versions: Versions  # what the fixes were fitted to (knowledge/tailor.py)
    binary: bool = False  # its start is binary data, not text (match.looks_binary)


def probes() -> tuple[tuple[str, str], ...]:
    """The facts explain wants from the input besides its problems, searched in the same pass: the releases it names
    (tailor), a source checkout (checkout), SDPA's reasons (sdpa_reasons), the platform's evidence (accelerator)."""
    return tailor.PROBES + checkout.PROBES + sdpa_reasons.PROBES + accelerator.probes()


def examine(source, env: Versions | None = None, ids: set[str] | None = None) -> Result:
    """Read `source` whole (a str, bytes, a binary or text stream: a file or stdin of any size, in
    constant memory) and explain every known problem in it, ranked, with real line numbers. The
    fixes are fitted to `env` (the checked environment's versions), else to the versions the input
    names, else carry placeholders a shell refuses."""
    s = scan(source if source is not None else "", ids=ids, probes=probes())
    v = env if env is not None and env.known else tailor.from_probes(s.probed)
    if env is not None and v is not env:  # the env's torch is unknown: the log's versions, the env's interpreter
        v = dataclasses.replace(v, target=env.target, situation=env.situation)
    found = _attribute(s, v)
    if s.added:  # lines a decoded JSON or repr string added: every line shown as the input numbers it
        found = [_input_lines(m, s.input_line) for m in found]
    return Result(found, s.size, s.input_line(len(s.lines)), s.blank, v, s.binary)


def _input_lines(m: Explained, input_line) -> Explained:
    """`m` with its lines numbered as the input numbers them (Scan.input_line)."""
    named_by = dataclasses.replace(m.named_by, line=input_line(m.named_by.line)) if m.named_by else None
    return dataclasses.replace(m, line=input_line(m.line), lines=[input_line(n) for n in m.lines], named_by=named_by)


def match(text, *, limit: int | None = None, ids: set[str] | None = None) -> list[Explained]:
    """The known problems in an error text or a log, best first, each with its backend (`ids`: only
    these entries, as if the others did not exist)."""
    found = examine(text, ids=ids).found
    return found[:limit] if limit else found


def _attribute(s: Scan, v: Versions) -> list[Explained]:
    lines = s.lines
    built = checkout.sources(s.probed)  # the folders the input builds a library from
    out = []
    if s.found and attribution.no_failure_document(lines):
        return out  # release notes, a feature-request form, an answered question, docs ... quoting no failure (ex67)
    # the accelerator the text comes from (ROCm, ZLUDA, XPU, NPU, MPS; None: CUDA or not said): it routes entries whose
    # cause cannot be there and replaces fixes that only a CUDA machine can take (round 82, knowledge/accelerator.py)
    plat = accelerator.detect(s.probed) if s.found else None
    for m in sdpa_reasons.settle(s.found, s.probed):  # torch's SDPA warnings: the error's reasons, or a note
        if attribution.foreign_kernel(m.entry, lines, m.line):
            continue
        if attribution.program_printed(m.entry, lines, m.line):
            continue  # a program's log line read as a report's title (ex93)
        if attribution.described_fallback(m.entry, lines, m.line):
            continue  # a sentence that says what the code does when a backend is absent, not that it was (ex67)
        m = _past_stated_limit(m, lines)
        if m is None:
            continue  # read only from a sentence giving a limit as the reason for a choice, a failure reported after it (ex161)
        if attribution.foreign(m.entry, backend_of(m.entry), lines, m.line):
            continue  # another (non-attention) library's failure
        if attribution.note_beside_failure(m.entry, lines, [m.line, *m.lines]):
            continue  # a start-up note or advisory beside another program's quoted failure, no attention named in it (ex35u)
        if attribution.unclaimed(m.entry, backend_of(m.entry), lines, m.line):
            worded = attribution.engine_worded(m.entry, lines, m.line)
            if worded is not None:  # another engine's own flash attention (llama.cpp's, Ollama's, an NPU's): its entry, its switch
                if any(o.entry.id == worded for o in out):
                    continue  # (a second sentence reader's match of the same report says it already)
                m = dataclasses.replace(m, entry=entries()[worded])
            else:
                # a catch-all with no attention library named near it: near another line it matched, perhaps (a report's
                # title in words over a quoted sentence that names the backend)
                m = _claimed_elsewhere(m, lines)
                if m is None:
                    continue
        if attribution.required_by_other(m.entry, lines, m.line):
            continue  # a loader error of a library that is no attention backend
        if attribution.raised_by_optimizer(m.entry, lines, m.line):
            continue  # the optimizer step ran out of memory, not an attention call
        if attribution.grid_limit_elsewhere(m.entry, lines, m.line):
            continue  # CUDA's grid-limit error raised in a convolution's (a norm's) launch, not an attention kernel's (rev21b)
        if attribution.interrupted(m.entry, lines, m.line):
            continue  # a Ctrl-C or an exit that happened to stop the run inside a backend's frames (ex91)
        wider = attribution.generalized(m.entry, lines, m.line)
        if wider is not None:  # a backend's entry for a message every Triton kernel prints, where the text shows no kernel of it
            if any(f.entry.id == wider for f in s.found):
                continue  # the backend-neutral entry's own match says it already
            m = dataclasses.replace(m, entry=entries()[wider])
        backend, named_by = attribution.attribute(m.entry, backend_of(m.entry), lines, m.line)
        if attribution.optional_notice(m.entry, lines, m.line, named_by):
            continue  # a notice that an optional speed-up is off, or an error only such a notice names a backend for (ex75)
        better = attribution.specialized(m.entry, backend, m.evidence, lines, m.line)
        if better is not None:  # the backend's own entry for the same failure
            if any(f.entry.id == better for f in s.found) or any(o.entry.id == better and o.backend == backend for o in out):
                continue  # the backend's own entry's match, or another line specialized to it, says it already (as `wider`)
            m = dataclasses.replace(m, entry=entries()[better])
        routed = accelerator.route(m.entry.id, backend, plat, m.evidence)
        if routed is not None:  # what the failure is on this accelerator (flash-attn on a Mac: no build, not no nvcc)
            m = dataclasses.replace(m, entry=entries()[routed])
            backend, named_by = attribution.attribute(m.entry, backend_of(m.entry), lines, m.line)
        m = dataclasses.replace(m, entry=attribution.line_variant(m.entry, lines, m.lines or [m.line]))
        vendor, here = attribution.vendor_library(m.entry, backend, lines, m.line), plat
        if vendor is not None:  # raised through a vendor library's own API (AITER's MHA): its failure, none of the seven (ex144)
            row, n = vendor
            backend, named_by, here = None, attribution.Attribution(row["id"], n, lines[n - 1].strip()[:300]), plat or row["platform"]
        title, fix = attribution.wording(m.entry, backend)
        fix = checkout.rebuild(fix or m.entry.plain_fix, backend, checkout.of_backend(built, backend, s.probed))
        fix = accelerator.adapt(m.entry.id, fix, here)
        if vendor is not None:
            title = vendor[0]["title"].replace("{title}", m.entry.headline)
        out.append(Explained(**vars(m), backend=backend, title=title or m.entry.headline,
                             fix=tailor.tailor(fix, v, backend, m.entry.id), named_by=named_by, untailored=fix))
    return _failure_before_warning(out, lines)


# ex35b (session 35, issue 23: a log that names several backends is about the one that failed). Findings rank by where they
# first show (match.order_keys: a driver's warning is often the cause of the error after it), and a log's start-up warnings come
# first: xformers' "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions" over a traceback that ends in flash-attn's own
# import error, a model's "`flash-attention` package not found, consider installing for better performance" over SDPA's error.
# A warning about one backend is no cause of an error that another backend raised: where the first finding is read from a
# warning line (a logger's WARNING / WARN, a Python *Warning, torch's [W...] prefix, a notice that a speed-up is off, or one that
# the run falls back to another backend: "xformers is not available, falling back to SDPA" over SDPA's own error) and
# names backend A, and a later finding read from an exception line below it (a traceback's last line) names another backend B
# and can be a cause, B's error goes first (the others keep their order). Same backend, no backend, or no exception below:
# unchanged. (attribution.WARNING_LINE, in knowledge/attribution/shapes.py beside EXCEPTION_LINE, says which lines warn.)


def _failure_before_warning(out: list[Explained], lines: list[str]) -> list[Explained]:
    if len(out) < 2:
        return out
    top = out[0]
    if top.backend is None or not 0 < top.line <= len(lines) or not attribution.WARNING_LINE.search(lines[top.line - 1]):
        return out
    for k in range(1, len(out)):
        m = out[k]
        at = [n for n in (m.lines or [m.line]) if top.line < n <= len(lines)]
        if m.backend is not None and m.backend != top.backend and m.entry.can_cause and at and any(
                attribution.EXCEPTION_LINE.search(lines[n - 1]) and not attribution.WARNING_LINE.search(lines[n - 1])
                for n in at):
            return [m] + out[:k] + out[k + 1:]
    return out


def _claimed_elsewhere(m: Match, lines: list[str]) -> Match | None:
    """The match moved to the first other line it matched where a backend is named near it, else None."""
    own = backend_of(m.entry)
    return _moved(m, lines, lambda n: not attribution.unclaimed(m.entry, own, lines, n)
                  and not attribution.foreign(m.entry, own, lines, n))


def _past_stated_limit(m: Match, lines: list[str]) -> Match | None:
    """`m`, unless its line reads it only from a sentence that gives a limit as the reason for the writer's choice with a
    failure reported after it (attribution.limit_as_reason: "Our V100s cannot run flash-attn 2, so we use sdpa; the error
    below ..."): then the match moved to the next line it matched that is no such sentence (the backend's own refusal quoted
    below it), else None."""
    def read_there(n: int) -> bool:
        span = attribution.limit_as_reason(lines, n)
        return span is None or _reads_beside(m.entry, lines[n - 1], span)
    return m if read_there(m.line) else _moved(m, lines, read_there)


def _moved(m: Match, lines: list[str], ok) -> Match | None:
    """`m` moved to the first later line it matched where `ok(line number)` holds, else None."""
    for n in m.lines:
        if n > m.line and ok(n):
            return dataclasses.replace(m, line=n, evidence=lines[n - 1].strip()[:300])
    return None


def _reads_beside(entry: Entry, text: str, span: tuple[int, int]) -> bool:
    """Does `entry` still match `text` with the span blanked (its match is another sentence's of the line)?"""
    a, z = span
    return bool(scan(text[:a] + " " * (z - a) + text[z:], ids={entry.id}).found)


def lookup(target: str) -> tuple[list[Match] | list[Entry], str]:
    """(what explains `target`, how it was found): an entry by id, else the entries whose patterns
    occur in it (it is then an error text given on the command line)."""
    known = entries()
    if target in known:
        return [known[target]], "id"
    return match(target), "text"


def suggestions(target: str, n: int = 3) -> list[str]:
    return difflib.get_close_matches(target, list(entries()), n=n, cutoff=0.6)


backend_of = attribution.backend_of  # the entry's backend, else the one its id names (one rule, in attribution)


def entry_dict(e: Entry, m: Match | None = None, versions: Versions | None = None) -> dict:
    x = m if isinstance(m, Explained) else None
    fix = x.fix if x else tailor.tailor(e.plain_fix, versions or Versions(), backend_of(e), e.id)
    d = {"id": e.id, "backend": x.backend if x else backend_of(e), "title": x.title if x else e.headline,
         "cause": e.cause or None, "fix": fix, "severity": e.severity, "section": e.section}
    if x and x.named_by:
        d["backend_from"] = {"line": x.named_by.line, "text": x.named_by.text}
    if e.guide_claim or e.truth:
        d.update(guide_claim=e.guide_claim, truth=e.truth)
    if e.refs:
        d["refs"] = list(e.refs)
    if m is not None:
        d.update(evidence=m.evidence, line=m.line, count=m.count)
    return d


def to_json(found: list, *, total: int | None = None, result: Result | None = None,
            versions: Versions | None = None) -> dict:
    """{"matches": [...]} and, for an input, how many were found and what was read."""
    v = result.versions if result else versions
    items = [entry_dict(x.entry, x) if isinstance(x, Match) else entry_dict(x, None, v) for x in found]
    out: dict = {"matches": items}
    if result is not None:
        out["found"] = len(result.found) if total is None else total
        out["read"] = {"bytes": result.size, "lines": result.lines}
    if v is not None and v.known:
        out["versions"] = {"torch": v.torch, "index": v.index, "from": v.source}
    return out


def list_json() -> dict:
    return {"entries": [{"id": e.id, "backend": e.backend, "section": e.section, "severity": e.severity,
                         "title": e.headline, "explain_only": e.explain_only} for e in entries().values()]}


# ---- text ---------------------------------------------------------------------------------------

def printed(draw):
    """Run `draw(console)`; on a plain console (pipe, NO_COLOR) strip the padding rich adds at line ends."""
    def run(console: Console, *args, **kw):
        if not console.no_color:
            return draw(console, *args, **kw)
        with console.capture() as cap:
            draw(console, *args, **kw)
        console.file.write("\n".join(line.rstrip() for line in cap.get().splitlines()) + "\n")
        console.file.flush()
    return run


def headline(shown: int, total: int, notes_only: bool = False) -> str:
    if notes_only:  # start-up notices and advisories: none of them is why a run failed
        # said first and plainly: the log's failure is another library's or the user's, and the notes are no cause
        return ("no attention problem found: nothing in the input is a known cause of failure.\n"
                f"{total} {'note' if total == 1 else 'notes'} on what it printed, none of them why it failed"
                + (f", showing {shown} (--limit)" if shown < total else "") + ":")
    if shown < total:
        return f"{total} known problems found, showing {shown} (--limit), most likely cause first:"
    return f"{total} known problem(s) in the input, most likely cause first:"


@printed
def render_entries(console: Console, found: list, by: str, *, total: int | None = None,
                   versions: Versions | None = None) -> None:
    many = len(found) > 1
    if by == "text" and found:
        # matches of an input that are all notes (entries listed by id are no input's matches)
        notes = all(isinstance(x, Match) and x.entry.severity == "info" and not x.entry.can_cause for x in found)
        console.print(Text(headline(len(found), len(found) if total is None else total, notes_only=notes),
                           style="bold"))

    for i, x in enumerate(found, 1):
        m = x if isinstance(x, Match) else None
        e = m.entry if m else x
        xm = m if isinstance(m, Explained) else None
        backend = xm.backend if xm else backend_of(e)
        if i > 1 or by == "text":
            console.print()
        head = Text(f"{i}. " if many else "")
        head.append(e.id, style="bold")
        head.append(f"  ({e.severity}" + (f", backend {backend}" if backend else "") + ")",
                    style=SEV_STYLE.get(e.severity, ""))
        console.print(head)
        grid = Table.grid(padding=(0, 1))
        grid.add_column(width=2)
        grid.add_column(no_wrap=True, style="bold")
        grid.add_column(overflow="fold")
        grid.add_row("", "", Text(xm.title if xm else e.headline))
        if m:
            where = f" (line {m.line}" + (f", {m.count} times" if m.count > 1 else "") + ")"
            grid.add_row("", "seen:", Text(m.evidence + where, style="dim"))
        if xm and xm.named_by:
            grid.add_row("", "backend:", Text(f"{backend or xm.named_by.backend}, named on line {xm.named_by.line}: {xm.named_by.text}", style="dim"))
        if e.cause:
            grid.add_row("", "why:", Text(e.cause))
        console.print(grid)
        fix = xm.fix if xm else tailor.tailor(e.plain_fix, versions or Versions(), backend_of(e), e.id)
        if fix:  # never wrapped, so a copied command stays whole
            console.print(Text("   fix: ", style="bold") + Text(fix), soft_wrap=True)
            if fix != e.plain_fix and fix != (xm.untailored if xm else None):
                v = versions or Versions()
                said = (f"torch {v.torch}" + (f" ({v.index})" if v.index else "") + f", read from {v.source}"
                        if v.known else "your torch is not known: --python PATH (or --from REPORT.json) fills it in")
                console.print(Text("   for: ", style="bold") + Text(said, style="dim"), soft_wrap=True)
        grid = Table.grid(padding=(0, 1))
        grid.add_column(width=2)
        grid.add_column(no_wrap=True, style="bold")
        grid.add_column(overflow="fold")
        if e.guide_claim:
            grid.add_row("", "guide:", Text(e.guide_claim))
        if e.truth:
            grid.add_row("", "true:", Text(e.truth))
        for r in e.refs:
            grid.add_row("", "ref:", Text(r))
        if by == "id" and e.file:  # where to read or change it
            grid.add_row("", "file:", Text(f"attn_doctor/knowledge/{e.file}", style="dim"))
        console.print(grid)


@printed
def render_list(console: Console) -> None:
    tbl = Table.grid(padding=(0, 2))
    tbl.add_column(no_wrap=True)
    tbl.add_column(no_wrap=True, style="dim")
    tbl.add_column(overflow="fold")
    for e in sorted(entries().values(), key=lambda e: e.id):
        tbl.add_row(e.id, backend_of(e) or "-", e.headline)
    console.print(tbl)


# ---- what the command line's TARGET is ------------------------------------------------------------

LOG_SUFFIXES = (".log", ".txt", ".out", ".err", ".json", ".md", ".stderr", ".stdout")


def classify(target: str) -> str:
    """What `explain TARGET` was given: "stdin" ('-'), "id" (a finding id), "path" (a file to read),
    or "text" (an error message). A name that is both an id and a file is the id (ids have no '/':
    write ./NAME for the file). A single word that looks like a path (a '/' or '\\' in it, or a log's
    suffix) but names no file is a UsageError, not a message that matches nothing."""
    import os

    from .model import UsageError

    if target == "-":
        return "stdin"
    if target in entries():
        return "id"
    path = os.path.expanduser(target)
    if "\n" not in target and os.path.exists(path):
        if os.path.isdir(path):
            raise UsageError(f"explain: {target} is a directory; give a log file (or - to read stdin)")
        return "path"
    one_word = not any(c.isspace() for c in target)
    if one_word and ("/" in target or "\\" in target or target.lower().endswith(LOG_SUFFIXES)):
        raise UsageError(f"explain: {target}: no such file")
    return "text"


def open_input(target: str):
    """The binary stream of a file TARGET, or a UsageError saying why it cannot be read."""
    import os

    from .model import UsageError

    try:
        return open(os.path.expanduser(target), "rb")
    except OSError as e:
        raise UsageError(f"explain: cannot read {target}: {e.strerror or e}") from None


def environment(python: str | None, from_report: str | None) -> Versions | None:
    """The versions of the environment the fixes are for: --python's interpreter or --from's report."""
    from .model import UsageError

    if python and from_report:
        raise UsageError("explain: give --python or --from, not both")
    if python:
        return tailor.from_python(python)
    if from_report:
        from .saved import load_report

        rep = load_report(from_report)
        return tailor.from_facts(rep["facts"], from_report, rep.get("backends") if isinstance(rep.get("backends"), dict) else None)
    return None
