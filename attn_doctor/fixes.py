"""`attn-doctor fix`: the fixes for a report's findings, most important first, each with what to paste,
and which of them env.sh (envfile.py) takes care of."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

import shlex

from .envfile import Plan
from .explain import printed
from .model import Report, sort_findings
from .render.text import fix_command

SEV_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
NO_KERNELS = "fix probes the machine but runs no kernels, so what only the smoke tests find is not here; for that:"
FROM_REPORT = "attn-doctor check --json report.json; attn-doctor fix --from report.json"


def items(report: Report, plan: Plan) -> list[dict]:
    """One dict per finding: id, severity, backend, title, fix, and the env.sh exports that fix it."""
    out = []
    for f in sort_findings(report.findings):
        env = [{"var": x.var, "value": x.value} for x in plan.exports if f.id in x.ids]
        out.append({"id": f.id, "severity": f.severity, "backend": f.backend, "title": f.title,
                    "fix": f.params.get("plan") or f.fix,  # require.not-ok keeps its install plan here
                    "detail": f.detail, "env": env})
    return out


def to_json(report: Report, plan: Plan, written: dict | None = None) -> dict:
    return {
        "fixes": items(report, plan),
        "env": {"exports": [{"var": x.var, "value": x.value, "ids": x.ids} for x in plan.exports],
                "skipped": list(plan.skipped), **(written or {})},
        "exit_code": report.exit_code,
    }


@printed
def render(console: Console, report: Report, plan: Plan, written: str | None = None, verbose: bool = False) -> None:
    fixes = items(report, plan)
    if not fixes:
        console.print(Text("attn-doctor fix: nothing to fix.", style="bold green"))
    else:
        console.print(Text(f"attn-doctor fix: {len(fixes)} problem(s), most important first", style="bold"))
    if not (report.options or {}).get("from"):
        console.print(Text(NO_KERNELS, style="dim"))
        console.print(Text("run: ", style="bold") + Text(_from_report(report)), soft_wrap=True)
    for i, x in enumerate(fixes, 1):
        console.print()
        num = f"{i}."
        title = Text(x["title"])
        title.append(f"  [{x['id']}]", style="dim")
        console.print(_grid(num, [(num, Text(x["severity"].upper(), style=SEV_STYLE.get(x["severity"], "")), title)]))
        if x["fix"]:  # never wrapped, so a copied command stays whole (as check prints its fix: lines)
            indent = " " * (len(num) + 9)
            if "\n" in x["fix"]:  # an install plan: a block of commands and comments, pasted whole
                console.print(Text(indent) + Text("paste:", style="bold"))
                for line in x["fix"].splitlines():
                    console.print(Text(line), soft_wrap=True)
            else:
                console.print(Text(indent) + Text("paste: ", style="bold") + Text(x["fix"]), soft_wrap=True)
        rows = []
        if x["env"]:
            sets = [e["var"] for e in x["env"] if e["value"] is not None]
            unsets = [e["var"] for e in x["env"] if e["value"] is None]
            what = "; ".join(p for p in ("sets " + ", ".join(sets) if sets else "",
                                         "unsets " + ", ".join(unsets) if unsets else "") if p)
            rows.append(("", "", Text("env.sh " + what, style="dim")))
        if verbose and x["detail"]:
            rows.append(("", "", Text("seen: " + x["detail"], style="dim")))
        if rows:
            console.print(_grid(num, rows))
    console.print()
    n = len(plan.exports)
    if written:
        console.print(Text(written, style="bold"), soft_wrap=True)
    elif n:
        console.print(Text(f"{n} environment variable(s) fix part of this:", style="bold"))
        console.print(Text("run: ", style="bold") + Text(fix_command(report, "--write-env") + " && . ./env.sh"),
                      soft_wrap=True)


def _from_report(report: Report) -> str:
    """check with the kernels, then fix from its report: for the same env, config and requirements."""
    from .advice import aim
    from .target import from_facts

    opts = report.options or {}
    extra = " ".join([f"--config {shlex.quote(str(opts['config']))}" if opts.get("config") else ""]
                     + ([f"--trainer {shlex.quote(str(opts['trainer']))}"] if opts.get("config") and opts.get("trainer") else [])
                     + [f"--require {n}" for n in opts.get("require") or []]).strip()
    return aim(FROM_REPORT.replace("check --json", f"check {extra} --json" if extra else "check --json"),
               from_facts(report.facts))


def _grid(num: str, rows: list[tuple]) -> Table:
    """Number, severity, text: the text column starts at the same place in every grid of one fix."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(width=len(num), no_wrap=True)
    grid.add_column(width=7, no_wrap=True)
    grid.add_column(overflow="fold")
    for row in rows:
        grid.add_row(*row)
    return grid
