"""Facts (+ smoke results) → statuses → findings → one Report with its exit code.

`evaluate` never probes anything: it is what `check --from REPORT.json` runs on saved facts.
--select / --ignore are applied here, after every check ran, so they change what is reported and
what counts for the exit code, never what is checked.
"""

from __future__ import annotations

from . import __version__, advice
from .checks import Context, run
from .checks.backends import statuses
from .checks.trainer import gate_required, resolve_dtype
from .model import EXIT_FINDINGS, EXIT_OK, Report, sort_findings
from .selection import keep


def evaluate(facts: dict, ctx: Context, options: dict | None = None) -> Report:
    gate_required(facts, ctx)  # a config's backend its trainer turns off on these GPUs is not required
    resolve_dtype(facts, ctx)  # a dtype the script leaves to the GPU: what each GPU here makes it
    ctx.backends = statuses(facts, ctx)
    every = sort_findings(run(facts, ctx))
    findings = [f for f in every if keep(f.id, ctx.select, ctx.ignore)]
    failing = any(f.severity == "error" or (ctx.strict and f.severity == "warning") for f in findings)
    # A required backend that is not ok fails the run, unless its finding was ignored on purpose.
    if keep("require.not-ok", ctx.select, ctx.ignore):
        failing = failing or any(ctx.backends.get(n, {}).get("status") != "ok" for n in ctx.required)
    report = Report(
        tool_version=__version__,
        facts=facts,
        backends=ctx.backends,
        findings=findings,
        required=list(ctx.required),
        exit_code=EXIT_FINDINGS if failing else EXIT_OK,
        options={**(options or {}), "strict": ctx.strict},  # renderers decide what "fails" from it
        config=ctx.config,
        ignored=len(every) - len(findings),
    )
    advice.apply(report)  # every printed command aimed at the checked env, none that breaks what works
    return report
