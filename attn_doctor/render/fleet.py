"""The fleet view in the terminal (a row per member and GPU, what differs, the members' findings
once each with who has them) and as JSON (schema attn-doctor.fleet/1)."""

from __future__ import annotations

import json

from rich.text import Text

from ..devices import LEGEND, NA, shown_backends
from ..fleet import Fleet, _names
from ..model import Finding, finding_order
from .text import _finding, device_header, device_line


def dumps(fleet: Fleet) -> str:
    return json.dumps(fleet.to_dict(), indent=2, default=str) + "\n"


def device_lines(fleet: Fleet) -> list[Text]:
    """Each member on a line of its own (a hostname can be long), then a row per GPU under it."""
    rows = fleet.rows()
    cols = shown_backends([r for r in rows if r["device"] is not None])
    out = [device_header(cols, indent=2)]
    last = None
    for r in rows:
        m = r["member"]
        if m is not last:
            last = m
            line = Text(m.label, style="bold")
            if m.report is None:
                line.append("  no report: " + (m.error or "?"), style="bold red")
            else:
                line.append(f"  exit {m.exit_code}", style="bold red" if m.exit_code else "green")
            out.append(line)
        if r["device"] is not None:
            out.append(device_line(r, cols, indent=2))
    for x in fleet.missing:
        out.append(Text(f"rank {x['rank']}", style="bold") + Text("  MISSING: " + (x.get("why") or "no report"),
                                                                   style="bold red"))
    return out


def grouped(fleet: Fleet) -> list[tuple[Finding, list[str]]]:
    """The members' own findings, each once, with the members that have it; not those a fleet
    finding already says. Worded by this attn-doctor's knowledge where their params allow, so one
    cause reads the same on every member and in the fleet findings; a fix worded again is aimed
    and checked again for each member (advice.safe with its own situation and interpreter), and
    members whose lines differ are told apart. In the same order whatever the order of the members."""
    from ..fleet import covered, natural

    said = covered(fleet.members)
    groups: dict[tuple, tuple[Finding, list[str]]] = {}
    for m in fleet.members:
        for d in (m.report or {}).get("findings") or []:
            if (m.label, d.get("id")) in said:
                continue
            f = _reworded(Finding.from_dict(d), m.report)
            key = (f.id, f.backend, f.title, f.fix)
            groups.setdefault(key, (f, []))[1].append(m.label)
    for _, labels in groups.values():
        labels.sort(key=natural)
    order = sorted(groups.values(), key=lambda g: (finding_order(g[0]), natural(g[0].title), g[0].fix or "",
                                                   [natural(x) for x in g[1]]))
    return [(f, labels) for f, labels in order]


def _reworded(f: Finding, report: dict | None = None) -> Finding:
    import dataclasses

    from .. import advice, knowledge
    from ..target import from_facts

    try:
        if not knowledge.renders(f.id, dict(f.params, backend=f.backend)):
            return f
        again = knowledge.finding(f.id, backend=f.backend, severity=f.severity, detail=f.detail, **f.params)
    except (KeyError, ValueError, TypeError):  # an id this version does not know: as the member said it
        return f
    f = dataclasses.replace(f, title=again.title, fix=again.fix)
    if report is None:
        return f
    facts = report.get("facts") or {}
    own = [Finding.from_dict(d) for d in report.get("findings") or [] if isinstance(d, dict)]
    return advice.safe_finding(f, advice.Situation.of(facts, report.get("backends") or {}, own), from_facts(facts))


def _who(labels: list[str], total: int) -> str:
    if len(labels) == total and total > 1:
        return f"on every member ({total})"
    return "on " + _names(labels)


def render(fleet: Fleet, console, verbose: bool = False, launcher: str | None = None) -> None:
    if not console.no_color:
        return _render(fleet, console, verbose, launcher)
    with console.capture() as cap:  # plain text (logs, pipes): no padding at line ends
        _render(fleet, console, verbose, launcher)
    console.file.write("\n".join(line.rstrip() for line in cap.get().splitlines()) + "\n")
    console.file.flush()


def _render(fleet: Fleet, console, verbose: bool, launcher: str | None) -> None:
    from .. import __version__

    n, hosts = len(fleet.members), len(fleet.hosts)
    head = f"attn-doctor {__version__} - fleet of {n} member(s) on {hosts} host(s)"
    if fleet.missing:
        head += f", {len(fleet.missing)} missing"
    if launcher:
        head += f" ({launcher})"
    console.print(Text(head, style="bold"))
    console.print()
    console.print(Text("Members and their GPUs", style="bold underline"))
    for line in device_lines(fleet):
        console.print(line)
    if any(r["cells"].get(b) == NA for r in fleet.rows() for b in r["cells"]) or verbose:
        console.print(Text(LEGEND, style="dim"), overflow="fold")
    console.print()
    console.print(Text("Fleet", style="bold underline"))
    if not fleet.findings:
        console.print(Text("  every member reported and they all match", style="green"))
    for f in fleet.findings:
        _finding(console, f, verbose)
    groups = grouped(fleet)
    if groups:
        console.print()
        console.print(Text("Members' findings", style="bold underline"))
        for f, labels in groups:
            _finding(console, f, verbose, where=_who(labels, n))
    e, w, i = summary_counts(fleet, groups)
    failing = sum(1 for m in fleet.members if m.exit_code != 0)
    console.print()
    console.print(Text(f"{e} error(s), {w} warning(s), {i} note(s) above; {n} member(s), {failing} failing, "
                       f"{len(fleet.missing)} missing - exit {fleet.exit_code}",
                       style="bold red" if fleet.exit_code else "bold green"))


def summary_counts(fleet: Fleet, groups: list | None = None) -> tuple[int, int, int]:
    """Errors, warnings and notes as printed: the fleet's findings and the members' (each once)."""
    shown = list(fleet.findings) + [f for f, _ in (grouped(fleet) if groups is None else groups)]
    return tuple(sum(1 for f in shown if f.severity == sev) for sev in ("error", "warning", "info"))
