"""Facts (+ smoke results) → statuses → findings → one Report with its exit code.

`evaluate` never probes anything: it is what `check --from REPORT.json` runs on saved facts.
"""

from __future__ import annotations

from . import __version__
from .checks import Context, run
from .checks.backends import statuses
from .model import EXIT_FINDINGS, EXIT_OK, Report, sort_findings


def evaluate(facts: dict, ctx: Context, options: dict | None = None) -> Report:
    ctx.backends = statuses(facts, ctx)
    findings = sort_findings(run(facts, ctx))
    failing = any(f.severity == "error" or (ctx.strict and f.severity == "warning") for f in findings)
    failing = failing or any(ctx.backends.get(n, {}).get("status") != "ok" for n in ctx.required)
    return Report(
        tool_version=__version__,
        facts=facts,
        backends=ctx.backends,
        findings=findings,
        required=list(ctx.required),
        exit_code=EXIT_FINDINGS if failing else EXIT_OK,
        options=options or {},
    )
