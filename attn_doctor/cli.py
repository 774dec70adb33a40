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
    json_out: Optional[str] = typer.Option(None, "--json", metavar="PATH|-", help="Write the JSON report to PATH, or to stdout with '-'."),
    strict: bool = typer.Option(False, "--strict", help="Warnings fail too."),
    compile_mode: Optional[str] = typer.Option(None, "--compile-mode", help="The torch.compile mode your job uses (for the allocator check)."),
    from_report: Optional[str] = typer.Option(None, "--from", metavar="REPORT.json", help="Re-evaluate a saved report's facts; probe nothing."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Show every finding's evidence in full."),
):
    """Probe GPUs, backends, versions and settings; run kernel smoke tests; print every problem with its fix."""
    report = _report(backend, require, timeout, compile_mode, from_report, strict=strict, smoke=not no_smoke,
                     progress=json_out != "-")
    from .render import json as rjson

    if json_out:
        _emit_json(rjson.dumps(report), json_out)
    if json_out != "-":
        from .render.text import make_console, render

        render(report, make_console(), verbose=verbose)
    raise typer.Exit(report.exit_code)


COMPILE_MODES = ("default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs", "none")


def _report(backend, require, timeout: float, compile_mode: str | None, from_report: str | None, *,
            strict: bool = False, smoke: bool = False, progress: bool = True):
    """Collect facts (or load a saved report's) and evaluate them: what check and fix both run on."""
    from .checks import Context
    from .report import evaluate

    selected = _backends(backend, "--backend") or None
    required = _backends(require, "--require")
    if compile_mode is not None and compile_mode not in COMPILE_MODES:
        raise UsageError(f"--compile-mode: unknown mode {compile_mode!r} (known: {', '.join(COMPILE_MODES)})")
    if selected:
        selected = sorted(set(selected) | set(required))
    if from_report:
        from .saved import load_report

        facts = load_report(from_report)["facts"]
    else:
        from .facts import collect
        from .progress import Progress

        with Progress(enabled=progress) as prog:
            prog.update("probing torch, GPUs and backends")
            facts = collect(backends=selected, timeout=timeout)
    ctx = Context(required=required, selected=selected, compile_mode=compile_mode, strict=strict, smoke=smoke)
    options = {"smoke": smoke, "backends": selected, "strict": strict, "compile_mode": compile_mode,
               "timeout": timeout, "from": from_report}
    return evaluate(facts, ctx, options)


@app.command()
def explain(
    target: Optional[str] = typer.Argument(None, metavar="ID|-", help="A finding id, '-' to read an error or a whole log from stdin, or an error message."),
    list_ids: bool = typer.Option(False, "--list", help="List every id."),
    json_out: bool = typer.Option(False, "--json", help='Print {"matches": [{"id", "backend", "title", "cause", "fix", ...}]}.'),
    limit: int = typer.Option(20, "--limit", min=1, help="Show at most this many matches."),
):
    """Explain a finding id, or find the known problems in an error message or a log (exit 1: nothing matched)."""
    import json

    from . import explain as ex
    from .render.text import make_console

    if list_ids:
        if json_out:
            print(json.dumps(ex.list_json(), indent=2))
        else:
            ex.render_list(make_console())
        raise typer.Exit(0)
    if target is None:
        raise UsageError("explain: give an ID, '-' to read an error or a log from stdin, or --list")
    if target == "-":
        found, by = ex.match(ex.read_text()), "text"
    else:
        found, by = ex.lookup(target)
    found = found[:limit]
    if json_out:
        print(json.dumps(ex.to_json(found), indent=2, ensure_ascii=False))
    elif found:
        ex.render_entries(make_console(), found, by)
    else:
        hint = ex.suggestions(target) if target != "-" else []
        msg = "no known problem matches this text" if target == "-" or " " in target else f"no entry {target!r} and no known problem matches it"
        if hint:
            msg += "; did you mean " + ", ".join(hint)
        print(f"attn-doctor explain: {msg} (attn-doctor explain --list shows every id)", file=sys.stderr)
    raise typer.Exit(0 if found else 1)


@app.command()
def fix(
    path: Optional[str] = typer.Argument(None, metavar="[PATH]", help="Where --write-env writes (default ./env.sh)."),
    write_env: bool = typer.Option(False, "--write-env", help="Write the environment part as PATH, a POSIX-shell file of exports."),
    print_env: bool = typer.Option(False, "--print", help="Print the env file on stdout instead of writing it."),
    force: bool = typer.Option(False, "--force", help="Replace a file at PATH that attn-doctor did not write (keeps PATH.bak)."),
    backend: Optional[List[str]] = typer.Option(None, "--backend", "-b", help="Limit the run to these backends (repeatable)."),
    require: Optional[List[str]] = typer.Option(None, "--require", "-r", help="Backends the job needs (repeatable)."),
    timeout: float = typer.Option(180.0, "--timeout", min=1.0, max=3600.0, help="Seconds allowed for each child process."),
    compile_mode: Optional[str] = typer.Option(None, "--compile-mode", help="The torch.compile mode your job uses (the allocator setting must be safe for it)."),
    from_report: Optional[str] = typer.Option(None, "--from", metavar="REPORT.json", help="Fix what a saved report found; probe nothing."),
    json_out: bool = typer.Option(False, "--json", help="Print the fixes and the env exports as JSON."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Show each finding's evidence."),
):
    """Print the fixes for the findings of a fresh check (or of --from REPORT.json), most important first;
    --write-env writes their environment part to env.sh. Exit 0 when done, 2 when it could not."""
    import json

    from . import envfile, fixes

    if path is not None and not write_env:
        raise UsageError(f"fix: {path!r}: a PATH goes with --write-env")
    if compile_mode is None and from_report:
        from .saved import load_report

        compile_mode = (load_report(from_report).get("options") or {}).get("compile_mode")
    report = _report(backend, require, timeout, compile_mode, from_report, progress=not (print_env or json_out))
    written, note = None, None
    if print_env:
        text, plan = envfile.build(report, compile_mode=compile_mode)
        sys.stdout.write(text)
        raise typer.Exit(0)
    if write_env:
        written = envfile.write(report, path or "env.sh", force=force, compile_mode=compile_mode)
        plan = written.plan
        n = len(plan.exports)
        note = (f"{written.path} is up to date ({n} export(s))" if written.status == "unchanged"
                else f"wrote {written.path} ({n} export(s))" + (f"; the previous file is {written.backup}" if written.backup else "")
                ) + f": . {written.path if '/' in written.path else './' + written.path}"
    else:
        _, plan = envfile.build(report, compile_mode=compile_mode)
    if json_out:
        extra = {"path": written.path, "status": written.status, "backup": written.backup} if written else None
        print(json.dumps(fixes.to_json(report, plan, extra), indent=2, ensure_ascii=False))
    else:
        from .render.text import make_console

        fixes.render(make_console(), report, plan, written=note, verbose=verbose)
    raise typer.Exit(0)


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
