"""`attn-doctor explain`: print one knowledge entry by id, list every id, or find the entries that
explain an error message or a whole log (the same matcher `check` uses for failed imports)."""

from __future__ import annotations

import difflib
import sys

from rich.console import Console
from rich.table import Table
from rich.text import Text

from dataclasses import dataclass

from .knowledge import Entry, entries
from .knowledge import attribution
from .knowledge.match import MAX_TEXT, Match, normalize
from .knowledge.match import match as find

MAX_INPUT = 64 * 1024 * 1024  # bytes read from stdin; the matcher searches the tail
SEV_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


def read_text(stream=None) -> str:
    """An error text or a log from `stream` (stdin), decoded leniently, its tail kept."""
    stream = stream if stream is not None else sys.stdin
    raw = getattr(stream, "buffer", stream).read(MAX_INPUT)
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    return text[-MAX_TEXT:]


@dataclass
class Explained(Match):
    """A match with the backend it belongs to: the entry's own, or the one the log names nearest to
    the error line (knowledge/attribution.py), and the entry's words for that backend."""
    backend: str | None = None
    title: str = ""
    fix: str | None = None
    named_by: attribution.Attribution | None = None  # the line that named the backend, when inferred


def match(text: str, *, limit: int | None = None) -> list[Explained]:
    """The known problems in an error text or a log, best first, each with its backend."""
    found = find(text)
    lines = normalize(text or "").split("\n")
    out = []
    for m in found:
        if attribution.foreign_kernel(m.entry, lines, m.line):
            continue
        if attribution.foreign(m.entry, backend_of(m.entry), lines, m.line):
            continue  # another (non-attention) library's failure
        if attribution.needs_backend(m.entry) and attribution.nearest(lines, m.line) is None:
            continue
        backend, named_by = attribution.attribute(m.entry, backend_of(m.entry), lines, m.line)
        title, fix = attribution.wording(m.entry, backend)
        out.append(Explained(**vars(m), backend=backend, title=title or m.entry.headline,
                             fix=fix or m.entry.plain_fix, named_by=named_by))
    return out[:limit] if limit else out


def lookup(target: str) -> tuple[list[Match] | list[Entry], str]:
    """(what explains `target`, how it was found): an entry by id, else the entries whose patterns
    occur in it (it is then an error text given on the command line)."""
    known = entries()
    if target in known:
        return [known[target]], "id"
    return match(target), "text"


def suggestions(target: str, n: int = 3) -> list[str]:
    return difflib.get_close_matches(target, list(entries()), n=n, cutoff=0.6)


BACKEND_PREFIX = {"sdpa": "sdpa", "flex": "flex", "cute": "cute", "fa2": "fa2", "fa3": "fa3", "sage": "sage",
                  "xformers": "xformers"}


def backend_of(e: Entry) -> str | None:
    """The entry's backend, else the one its id names (checks pass it per finding; explain has none)."""
    return e.backend or BACKEND_PREFIX.get(e.id.split(".", 1)[0])


def entry_dict(e: Entry, m: Match | None = None) -> dict:
    x = m if isinstance(m, Explained) else None
    d = {"id": e.id, "backend": x.backend if x else backend_of(e), "title": x.title if x else e.headline,
         "cause": e.cause or None, "fix": x.fix if x else e.plain_fix, "severity": e.severity, "section": e.section}
    if x and x.named_by:
        d["backend_from"] = {"line": x.named_by.line, "text": x.named_by.text}
    if e.guide_claim or e.truth:
        d.update(guide_claim=e.guide_claim, truth=e.truth)
    if e.refs:
        d["refs"] = list(e.refs)
    if m is not None:
        d.update(evidence=m.evidence, line=m.line, count=m.count)
    return d


def to_json(found: list) -> dict:
    items = [entry_dict(x.entry, x) if isinstance(x, Match) else entry_dict(x) for x in found]
    return {"matches": items}


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


@printed
def render_entries(console: Console, found: list, by: str) -> None:
    many = len(found) > 1
    if by == "text" and found:
        console.print(Text(f"{len(found)} known problem(s) in the input, most likely cause first:", style="bold"))
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
            grid.add_row("", "backend:", Text(f"{backend}, named on line {xm.named_by.line}: {xm.named_by.text}", style="dim"))
        if e.cause:
            grid.add_row("", "why:", Text(e.cause))
        console.print(grid)
        fix = xm.fix if xm else e.plain_fix
        if fix:  # never wrapped, so a copied command stays whole
            console.print(Text("   fix: ", style="bold") + Text(fix), soft_wrap=True)
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
