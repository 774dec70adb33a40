"""The command line: parse → call the library → render. No logic of its own.

Exit codes: 0 no error finding, 1 an error finding (or a required backend not ok, or a warning
with --strict), 2 the doctor could not do what was asked (bad flag, bad input), one line, no traceback.
"""

from __future__ import annotations

import os
import sys
from typing import List, Optional

import typer

try:  # typer >= 0.22 vendors click; older typer uses the click package
    from typer._click import exceptions as _click_exc
except ImportError:  # pragma: no cover - depends on the installed typer
    from click import exceptions as _click_exc

_EXIT = tuple({typer.Exit, getattr(_click_exc, "Exit", typer.Exit)})
_ABORT = tuple({typer.Abort, getattr(_click_exc, "Abort", typer.Abort)})

from . import __version__
from .model import BACKENDS, EXIT_USAGE, UsageError

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode=None, context_settings={"help_option_names": ["-h", "--help"]},
                  help="Preflight doctor for GPU attention backends.")


def _version(value: bool):
    if value:
        print(f"attn-doctor {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="Print the version and exit.")):
    """Preflight doctor for GPU attention backends."""


def _backends(names: Optional[List[str]], flag: str) -> list[str]:
    out = []
    for raw in names or []:
        for n in raw.split(","):
            n = n.strip().lower()
            if not n:
                continue
            if n not in BACKENDS:
                raise UsageError(f"{flag}: unknown backend {n!r} (known: {', '.join(BACKENDS)})")
            if n not in out:
                out.append(n)
    return out


def _emit_json(text: str, dest: str) -> None:
    from .fsutil import write_atomic

    if dest == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        write_atomic(dest, text)


@app.command()
def check(
    no_smoke: bool = typer.Option(False, "--no-smoke", help="Probe only: run no kernels."),
    backend: Optional[List[str]] = typer.Option(None, "--backend", "-b", help="Limit the run to these backends (repeatable)."),
    require: Optional[List[str]] = typer.Option(None, "--require", "-r", help="Fail (exit 1) unless this backend is ok (repeatable)."),
    timeout: float = typer.Option(180.0, "--timeout", min=1.0, max=3600.0, help="Seconds allowed for each child process (imports, kernels)."),
    json_out: Optional[str] = typer.Option(None, "--json", metavar="PATH|-", help="Write the JSON report to PATH, or to stdout with '-' (with --distributed: rank 0 writes the fleet report)."),
    strict: bool = typer.Option(False, "--strict", help="Warnings fail too."),
    compile_mode: Optional[str] = typer.Option(None, "--compile-mode", help="The torch.compile mode your job uses (for the allocator check)."),
    from_report: Optional[str] = typer.Option(None, "--from", metavar="REPORT.json", help="Re-evaluate a saved report's facts; probe nothing."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Show every finding's evidence in full."),
    thorough: bool = typer.Option(False, "--thorough", help="Smoke-test every dtype x head dim x causal combination."),
    device: Optional[List[int]] = typer.Option(None, "--device", "-d", min=0, help="Smoke-test only this GPU index (repeatable; default: every visible GPU)."),
    distributed: bool = typer.Option(False, "--distributed", help="Under torchrun or srun: each rank checks its own GPU, rank 0 prints one report for all."),
    gather_timeout: Optional[float] = typer.Option(None, "--gather-timeout", min=1.0, max=86400.0, metavar="SECONDS", help="With --distributed: how long rank 0 waits for the other ranks (default: 2 x --timeout + 60)."),
):
    """Probe GPUs, backends, versions and settings; run kernel smoke tests; print every problem with its fix."""
    from .checks import Context
    from .report import evaluate

    rank = None
    if distributed:
        from .fleet import distributed as dist

        if from_report:
            raise UsageError("--distributed checks the machines of a job; to combine saved reports use: attn-doctor merge REPORT.json...")
        rank = dist.launch_env()
        device = device or dist.local_devices(rank)
        dist.guard_signals(rank)
        fin = dict(gather_timeout=gather_timeout or 2 * timeout + 60, json_out=json_out, verbose=verbose, strict=strict)
    elif gather_timeout is not None:
        raise UsageError("--gather-timeout goes with --distributed")

    selected = _backends(backend, "--backend") or None
    required = _backends(require, "--require")
    if compile_mode is not None and compile_mode not in COMPILE_MODES:
        raise UsageError(f"--compile-mode: unknown mode {compile_mode!r} (known: {', '.join(COMPILE_MODES)})")
    if selected:
        selected = sorted(set(selected) | set(required))
    ctx = Context(required=required, selected=selected, compile_mode=compile_mode, strict=strict,
                  smoke=not no_smoke)
    if from_report:
        from .saved import load_report

        facts = load_report(from_report)["facts"]
    else:
        from .facts import collect
        from .progress import Progress

        try:
            with Progress(enabled=json_out != "-" and rank is None) as prog:
                prog.update("importing torch and every backend" + ("" if no_smoke else ", then running their kernels"))
                smoke = None if no_smoke else {"level": "thorough" if thorough else "standard",
                                               "dtype": (ctx.config or {}).get("dtype"),
                                               "head_dims": (ctx.config or {}).get("head_dims")}
                facts = collect(backends=selected, timeout=timeout, smoke=smoke, progress=prog.backend,
                                device_ids=sorted(set(device)) if device else None)
        except Exception as e:
            if rank is None:
                raise
            # Rank 0 hears of it instead of waiting for a report that will never come.
            raise typer.Exit(dist.finish(rank, None, f"{type(e).__name__}: {e}", **fin))
    options = {"smoke": not no_smoke, "backends": selected, "strict": strict, "compile_mode": compile_mode,
               "timeout": timeout, "from": from_report, "thorough": thorough, "devices": device or None}
    if rank is not None:
        options["distributed"] = rank.describe(str(device[0]) if len(device) == 1 else None)
    report = evaluate(facts, ctx, options)
    if rank is not None:
        raise typer.Exit(dist.finish(rank, report, None, **fin))
    from .render import json as rjson

    if json_out:
        _emit_json(rjson.dumps(report), json_out)
    if json_out != "-":
        from .render.text import make_console, render

        render(report, make_console(), verbose=verbose)
    raise typer.Exit(report.exit_code)


@app.command()
def merge(
    reports: List[str] = typer.Argument(..., metavar="REPORT.json...", help="Reports saved with check --json (or fleet reports) from many machines."),
    json_out: Optional[str] = typer.Option(None, "--json", metavar="PATH|-", help="Write the fleet report (JSON) to PATH, or to stdout with '-'."),
    strict: bool = typer.Option(False, "--strict", help="Warnings fail too."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Show every finding's evidence in full."),
):
    """Combine reports saved on many machines into one fleet view: a row per host and GPU, differences flagged."""
    from .fleet import merge as merge_reports
    from .render import fleet as rfleet

    view = merge_reports(reports, strict=strict)
    if json_out:
        _emit_json(rfleet.dumps(view), json_out)
    if json_out != "-":
        from .render.text import make_console

        rfleet.render(view, make_console(), verbose=verbose)
    raise typer.Exit(view.exit_code)


COMPILE_MODES = ("default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs", "none")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        argv = ["--help"]
    try:
        rv = app(args=argv, prog_name="attn-doctor", standalone_mode=False)
        return int(rv or 0)
    except UsageError as e:
        print(f"attn-doctor: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except _EXIT as e:
        return e.exit_code
    except _click_exc.ClickException as e:  # bad flag, bad value, missing argument
        msg = e.format_message().strip().splitlines()[0] if e.format_message().strip() else str(e)
        print(f"attn-doctor: error: {msg}", file=sys.stderr)
        return EXIT_USAGE
    except _ABORT:
        print("attn-doctor: aborted", file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        from .proc import kill_all

        kill_all()  # children run in their own sessions: Ctrl-C does not reach them
        print("attn-doctor: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0
    except Exception as e:  # a bug in the doctor: one line, and the traceback on request
        if os.environ.get("ATTN_DOCTOR_DEBUG"):
            raise
        print(f"attn-doctor: internal error: {type(e).__name__}: {e} (set ATTN_DOCTOR_DEBUG=1 for the traceback)",
              file=sys.stderr)
        return EXIT_USAGE
