"""The trace report as text: a header, one row per call site, the findings with their fixes, a verdict."""

from __future__ import annotations

from rich.text import Text

from ..render.text import SEV_STYLE, _finding
from .report import TraceReport


def _shape(c: dict) -> str:
    q = (c.get("shapes") or {}).get("q")
    return "x".join(str(x) for x in q) if q else "?"


def header(rep: TraceReport) -> str:
    # each run of whitespace as one space: a `python -c` program's newlines would split the header (nu42 row 8)
    cmd = " ".join(" ".join(rep.command or []).split()) or "in-process trace"
    if len(cmd) > 60:
        cmd = cmd[:57] + "..."
    bits = []
    if rep.program_exit_code is not None:
        bits.append(f"program exit {rep.program_exit_code}")
    n = len(rep.processes)
    ran = sum(1 for p in rep.processes if p.get("rows"))
    bits.append(f"{ran} of {n} Python process{'es' if n != 1 else ''} ran attention")
    bits.append(f"{rep.steps} optimizer step{'s' if rep.steps != 1 else ''} with attention")
    if rep.seconds is not None:
        bits.append(f"{rep.seconds:.1f} s")
    if rep.stopped:
        bits.append(f"stopped by --{rep.stopped}")
    return f"attn-doctor trace: {cmd} ({', '.join(bits)})"


def call_lines(rep: TraceReport) -> list[str]:
    """The call sites, each followed by one aligned line per backend/kernel/dtype/mask that ran there."""
    cells = []
    for c in rep.calls:
        n = c["count"]
        count = f"{n} trace{'s' if n != 1 else ''}" if c.get("counted") == "traces" else f"{n} call{'s' if n != 1 else ''}"
        cells.append([c["backend"], str(c.get("kernel") or "?"), "compiled" if c.get("compiled") else "eager", count,
                      str(c.get("dtype") or "?"), f"hd {c.get('head_dim') or '?'}", str(c.get("mask") or "-")])
    widths = [max(len(row[i]) for row in cells) for i in range(len(cells[0]))] if cells else []
    by_site: dict[str, list[list[str]]] = {}  # sites in the order first seen, each with all its rows
    for c, row in zip(rep.calls, cells):
        site = c["site"] + (f"  {c['function']}" if c.get("function") and c["function"] != "<module>" else "")
        by_site.setdefault(site, []).append(row)
    out = []
    for site, rows in by_site.items():
        out.append(site)
        for row in rows:
            parts = [v.rjust(w) if i == 3 else v.ljust(w) for i, (v, w) in enumerate(zip(row, widths))]
            out.append("    " + "  ".join(parts).rstrip())
    return out


def detail_lines(rep: TraceReport) -> list[str]:
    """With -v: each row's shapes, path into the backend, processes and the dispatcher's reason."""
    out = []
    for c in rep.calls:
        bits = [f"q {_shape(c)}", f"on {', '.join(c.get('devices') or [c.get('device') or '?'])}"]
        if c.get("via"):
            bits.append(f"via {c['via']}")
        if c.get("entry"):
            bits.append(f"entry {c['entry']}")
        if c.get("inner"):
            bits.append(f"calls {', '.join(c['inner'])} inside")
        if c.get("inside"):
            bits.append(f"inside a {c['inside']} call")
        if c.get("autocast_from"):
            bits.append(f"autocast from {c['autocast_from']}")
        bits.append("in " + ", ".join(c.get("processes") or []))
        out.append(f"{c['site']}: " + "; ".join(bits))
        if c.get("raised"):
            out.append(f"    first call raised: {c['raised']}")
        if c.get("reason"):
            out.append(f"    dispatcher: {c['reason']}")
    return out


def render(rep: TraceReport, console, verbose: bool = False) -> None:
    console.print(Text(header(rep), style="bold"), soft_wrap=True)
    if rep.calls:
        console.print()
        for ln in call_lines(rep):
            console.print(Text(ln), soft_wrap=True)
        if any(c.get("counted") == "traces" for c in rep.calls):
            console.print(Text("compiled rows count how often torch.compile traced the call, not the calls",
                               style="dim"))
        if verbose:
            for ln in detail_lines(rep):
                console.print(Text(ln, style="dim"), soft_wrap=True)
    if rep.findings:
        console.print()
    for f in rep.findings:
        _finding(console, f, verbose)
    e = sum(1 for f in rep.findings if f.severity == "error")
    w = sum(1 for f in rep.findings if f.severity == "warning")
    i = sum(1 for f in rep.findings if f.severity == "info")
    req = ""
    if rep.required:
        from .report import _met

        req = "; required: " + ", ".join(f"{s} {'ran' if _met(s, rep.calls) else 'did not run'}" for s in rep.required)
    console.print()
    style = SEV_STYLE["error"] if rep.exit_code else "bold green"
    console.print(Text(f"{e} error(s), {w} warning(s), {i} note(s){req} - exit {rep.exit_code}", style=style))
