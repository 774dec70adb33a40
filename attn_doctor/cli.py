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
from .api import COMPILE_MODES, backend_names as _backends  # noqa: F401 (the flags' vocabulary)
from .model import BACKENDS, EXIT_USAGE, UsageError

NAMES = ", ".join(BACKENDS)
EPILOG = f"""\b
Backends: {NAMES}.
Compile modes (--compile-mode): {", ".join(COMPILE_MODES)}.
Exit codes: 0 no error finding; 1 an error finding, a required backend not ok,
or a warning with --strict; 2 the doctor could not do what was asked (a bad
flag or input, a GPU that is not there): one line on stderr.
Start with: attn-doctor check, then attn-doctor fix --write-env && . ./env.sh"""

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode=None, context_settings={"help_option_names": ["-h", "--help"]},
                  help="Preflight doctor for GPU attention backends.", epilog=EPILOG)

try:  # typer 0.2x prints an argument's type after its metavar ("ID|- <str>"): the metavar says it all
    from typer.core import TyperArgument as _Arg

    _type_shown = _Arg.display_type_rich
    _Arg.display_type_rich = lambda self, ctx: None if self.metavar else _type_shown(self, ctx)
except (ImportError, AttributeError):  # pragma: no cover - other typer versions print no type there
    pass


def _version(value: bool):
    if value:
        print(f"attn-doctor {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="Print the version and exit.")):
    """Preflight doctor for GPU attention backends."""


def _emit(text: str, dest: str) -> None:
    from .fsutil import write_atomic

    if dest == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        write_atomic(dest, text)


def _writable(path: str | None, flag: str) -> None:
    """Fail before probing (which takes seconds) when an output file cannot be written."""
    if not path or path == "-":
        return
    full = os.path.abspath(path)
    if os.path.isdir(full):
        raise UsageError(f"{flag}: {path} is a directory")
    if not os.path.isdir(os.path.dirname(full)):
        raise UsageError(f"{flag}: cannot write {path}: directory {os.path.dirname(full)} does not exist")
    if not os.access(os.path.dirname(full), os.W_OK | os.X_OK):
        raise UsageError(f"{flag}: cannot write {path}: directory {os.path.dirname(full)} is not writable")


FORMATS = ("text", "json", "github", "markdown")
BINARY_HINT = "gzip, bzip2 and xz logs are read as their text; decompress others (zstd, zip) first"


@app.command(short_help="Probe GPUs, backends, versions and settings, run each backend's kernels, print every problem with its fix.")
def check(
    no_smoke: bool = typer.Option(False, "--no-smoke", help="Probe only: run no kernels."),
    backend: Optional[List[str]] = typer.Option(None, "--backend", "-b", metavar="NAME", help=f"Limit the run to these backends (repeatable or comma-separated): {NAMES}."),
    require: Optional[List[str]] = typer.Option(None, "--require", "-r", metavar="NAME", help="Fail (exit 1) unless this backend is ok (repeatable)."),
    config: Optional[str] = typer.Option(None, "--config", "-c", metavar="PATH", help="A trainer config or launch script (SimpleTuner, musubi-tuner, blissful-tuner, ai-toolkit, sd-scripts and kohya_ss GUI JSON, diffusion-pipe, OneTrainer, axolotl, LLaMA-Factory, transformers/TRL, torchtune, LitGPT, ms-swift, Unsloth; a DIFFUSERS_ATTN_BACKEND env file): require and test what it asks for."),
    trainer: Optional[str] = typer.Option(None, "--trainer", metavar="NAME", help="Which trainer --config is for, when the file could be two trainers'."),
    timeout: float = typer.Option(180.0, "--timeout", min=1.0, max=3600.0, metavar="SECONDS", help="Seconds allowed for each child process (imports, kernels)."),
    fmt: str = typer.Option("text", "--format", "-f", metavar="FORMAT", help="What to print: text, json (same as --json -), github (workflow annotations) or markdown (for a bug report, redacted)."),
    json_out: Optional[str] = typer.Option(None, "--json", metavar="PATH|-", help="Write the JSON report to PATH, or to stdout with '-'."),
    junit: Optional[str] = typer.Option(None, "--junit", metavar="PATH", help="Also write a JUnit XML report to PATH (one test case per backend and per check)."),
    select: Optional[List[str]] = typer.Option(None, "--select", metavar="ID", help="Report only these finding ids or prefixes (alloc., 'cache.*'; repeatable or comma-separated)."),
    ignore: Optional[List[str]] = typer.Option(None, "--ignore", metavar="ID", help="Drop these finding ids or prefixes; they do not count for the exit code."),
    strict: bool = typer.Option(False, "--strict", help="Warnings fail too."),
    compile_mode: Optional[str] = typer.Option(None, "--compile-mode", metavar="MODE", help=f"The torch.compile mode your job uses (for the allocator check): {', '.join(COMPILE_MODES)}."),
    from_report: Optional[str] = typer.Option(None, "--from", metavar="REPORT.json", help="Re-evaluate a saved report's facts; probe nothing. The saved run's --require, --config, --select, --ignore, --strict and --compile-mode apply unless given again."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Show every finding's evidence in full."),
    thorough: bool = typer.Option(False, "--thorough", help="Smoke-test every dtype x head dim x causal combination."),
    device: Optional[List[int]] = typer.Option(None, "--device", "-d", min=0, metavar="INDEX", help="Smoke-test only this GPU index (repeatable; default: every visible GPU; one that is not there: exit 2)."),
    distributed: bool = typer.Option(False, "--distributed", help="Under torchrun or srun: each rank checks its own GPU, rank 0 prints one report for all (--json there writes the fleet report)."),
    gather_timeout: Optional[float] = typer.Option(None, "--gather-timeout", min=1.0, max=86400.0, metavar="SECONDS", help="With --distributed: how long rank 0 waits for the other ranks (default: 2 x --timeout + 60)."),
    python: Optional[str] = typer.Option(None, "--python", metavar="PATH", help="Check this interpreter instead of attn-doctor's own: a python executable, a venv directory or a conda prefix. Every probe and kernel runs in it."),
):
    """Probe GPUs, backends, versions and settings; run kernel smoke tests; print every problem with its fix."""
    from . import api

    if fmt not in FORMATS:
        raise UsageError(f"--format: unknown format {fmt!r} (known: {', '.join(FORMATS)})")
    if fmt == "json":
        if json_out not in (None, "-"):
            raise UsageError("--format json prints the JSON report; --json PATH writes it: give one of them")
        json_out = "-"
    elif json_out == "-" and fmt != "text":
        raise UsageError(f"--json - and --format {fmt} both write to stdout: give --json a PATH")
    if junit == "-":
        raise UsageError("--junit needs a file path")
    _writable(json_out, "--json")
    _writable(junit, "--junit")
    rank = None
    if distributed:
        from .fleet import distributed as dist

        if from_report:
            raise UsageError("--distributed checks the machines of a job; to combine saved reports use: attn-doctor merge REPORT.json...")
        rank = dist.launch_env()
        device = device or dist.local_devices(rank)
        dist.guard_signals(rank)
    elif gather_timeout is not None:
        raise UsageError("--gather-timeout goes with --distributed")
    plan = api.plan_check(backend, require, config, smoke=not no_smoke, timeout=timeout, strict=strict,
                          compile_mode=compile_mode, select=select, ignore=ignore, thorough=thorough,
                          devices=device, from_report=from_report, python=python,
                          strict_devices=not distributed, trainer=trainer)
    if rank is not None:
        _distributed(plan, rank, device, gather_timeout or 2 * timeout + 60, json_out, verbose, strict)
    from .progress import Progress

    with Progress(enabled=plan.facts is None and fmt == "text" and json_out != "-") as prog:
        report = api.run_check(plan, progress=prog)
    from .render import json as rjson

    try:
        if json_out:
            _emit(rjson.dumps(report), json_out)
        if junit:
            from .render import junit as rjunit

            _emit(rjunit.render(report), junit)
        if fmt == "github":
            from .render import github

            _emit(github.render(report), "-")
        elif fmt == "markdown":
            from .render import markdown

            _emit(markdown.render(report), "-")
        elif json_out != "-":
            from .render.text import make_console, render

            render(report, make_console(), verbose=verbose)
    except BrokenPipeError:  # the reader left early (`| head`): the verdict still stands
        _drop_stdout()
    raise typer.Exit(report.exit_code)


def _distributed(plan, rank, device, gather_timeout: float, json_out: str | None, verbose: bool, strict: bool):
    """One rank of a job: check this rank's GPU, move the reports to rank 0, which prints the fleet."""
    from . import api
    from .fleet import distributed as dist

    report, error = None, None
    try:
        report = api.run_check(plan, options={"distributed": rank.describe(str(device[0]) if len(device) == 1 else None)})
    except Exception as e:  # rank 0 hears of it instead of waiting for a report that will never come
        error = f"{type(e).__name__}: {e}"
    py = plan.interpreter["python"] if plan.interpreter else None  # the exchange child needs torch
    out = dist.exchange(rank, report, error, gather_timeout=gather_timeout, strict=strict, python=py)
    if out.view is None:
        sys.stderr.write(out.line + "\n")
        raise typer.Exit(out.code)
    _render_fleet(out.view, json_out, verbose, launcher=f"{rank.launcher}, world size {rank.world_size}")
    sys.stdout.flush()
    dist.printed(rank, py)
    raise typer.Exit(out.code)


def _render_fleet(view, json_out: str | None, verbose: bool, launcher: str | None = None) -> None:
    from .render import fleet as rfleet

    if json_out:
        _emit(rfleet.dumps(view), json_out)
    if json_out != "-":
        from .render.text import make_console

        rfleet.render(view, make_console(), verbose=verbose, launcher=launcher)


def _drop_stdout() -> None:
    """Point stdout at /dev/null so the exit-time flush cannot fail again (click would exit 1)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _tolerant_stdout() -> None:
    """A value that is not UTF-8 (an env var, a path) reaches us as lone surrogates; under a UTF-8
    locale stdout's 'strict' errors would turn printing it into a crash, so escape it instead."""
    if getattr(sys.stdout, "errors", None) == "strict" and hasattr(sys.stdout, "reconfigure"):
        try:
            sys.stdout.reconfigure(errors="backslashreplace")
        except (ValueError, OSError):
            pass


@app.command(short_help='Explain a finding id, or the known problems in an error or a log (explain train.log, explain - < train.log).')
def explain(
    target: Optional[str] = typer.Argument(None, metavar="ID|PATH|-", help="A finding id, a log file to read whole, '-' to read an error or a log from stdin, or an error message."),
    list_ids: bool = typer.Option(False, "--list", help="List every id."),
    json_out: bool = typer.Option(False, "--json", help='Print {"matches": [{"id", "backend", "title", "cause", "fix", "line", ...}], "found", "read", "versions"}.'),
    limit: int = typer.Option(20, "--limit", min=1, metavar="N", help="Show at most this many matches (the header says how many were found)."),
    python: Optional[str] = typer.Option(None, "--python", metavar="PATH", help="Fit the fixes to this interpreter's torch and CUDA (a python, a venv directory or a conda prefix; read from its files, nothing imported)."),
    from_report: Optional[str] = typer.Option(None, "--from", metavar="REPORT.json", help="Fit the fixes to the torch and CUDA of a saved check report."),
):
    """Explain a finding id, or find every known problem in an error message or a whole log, read to
    its end (any size, from a file or stdin), root causes first, with the line each was seen on.
    Without --python or --from, the fixes use the versions the log names, else placeholders a shell
    refuses. Exit 1: nothing matched."""
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
        raise UsageError("explain: give an ID, a log file, '-' to read an error or a log from stdin, or --list")
    kind = ex.classify(target)
    if kind == "stdin" and from_report == "-":
        raise UsageError("explain: stdin cannot be both the log and the --from report")
    env = ex.environment(python, from_report)
    result = None
    if kind == "stdin":
        if sys.stdin is None or sys.stdin.isatty():  # a terminal: say what it waits for
            print("attn-doctor explain: paste the error or the log, then press Ctrl-D "
                  "(or: attn-doctor explain train.log)", file=sys.stderr)
        result = ex.examine(sys.stdin if sys.stdin is not None else "", env)
        if result.blank:
            raise UsageError("explain -: got no text on stdin (pipe a log in: attn-doctor explain - < train.log)")
        if result.binary and not result.found:
            raise UsageError(f"explain -: stdin is binary, not a log ({BINARY_HINT})")
    elif kind == "path":
        with ex.open_input(target) as fh:
            result = ex.examine(fh, env)
        if result.blank:
            raise UsageError(f"explain: {target} has no text in it")
        if result.binary and not result.found:  # (what a binary file holds that matched is still shown)
            raise UsageError(f"explain: {target} is binary, not a log ({BINARY_HINT})")
    elif kind == "text":
        result = ex.examine(target, env)
    if result is not None:
        found, by = result.found, "text"
    else:
        found, by = [ex.entries()[target]], "id"
    total = len(found)
    found = found[:limit]
    versions = result.versions if result is not None else env
    if json_out:
        print(json.dumps(ex.to_json(found, total=total, result=result, versions=versions), indent=2, ensure_ascii=False))
    elif found:
        ex.render_entries(make_console(), found, by, total=total, versions=versions)
    else:
        hint = ex.suggestions(target) if kind == "text" else []
        if kind == "text" and " " not in target:
            msg = f"no entry {target!r} and no known problem matches it"
        else:
            msg = f"no known problem matches this text ({result.lines:,} line(s) read)"
        if hint:
            msg += "; did you mean " + ", ".join(hint)
        print(f"attn-doctor explain: {msg} (attn-doctor explain --list shows every id)", file=sys.stderr)
    raise typer.Exit(0 if found else 1)


@app.command(short_help='Print every fix, most important first; --write-env writes the environment part to env.sh.')
def fix(
    path: Optional[str] = typer.Argument(None, metavar="PATH", help="Where --write-env writes (default ./env.sh)."),
    write_env: bool = typer.Option(False, "--write-env", help="Write the environment part as PATH, a POSIX-shell file of exports."),
    print_env: bool = typer.Option(False, "--print", help="Print the env file on stdout instead of writing it."),
    force: bool = typer.Option(False, "--force", help="Replace a file at PATH that attn-doctor did not write (keeps PATH.bak)."),
    backend: Optional[List[str]] = typer.Option(None, "--backend", "-b", metavar="NAME", help=f"Limit the run to these backends (repeatable): {NAMES}."),
    require: Optional[List[str]] = typer.Option(None, "--require", "-r", metavar="NAME", help="Backends the job needs (repeatable)."),
    timeout: float = typer.Option(180.0, "--timeout", min=1.0, max=3600.0, metavar="SECONDS", help="Seconds allowed for each child process."),
    compile_mode: Optional[str] = typer.Option(None, "--compile-mode", metavar="MODE", help=f"The torch.compile mode your job uses (the allocator setting must be safe for it): {', '.join(COMPILE_MODES)}."),
    from_report: Optional[str] = typer.Option(None, "--from", metavar="REPORT.json", help="Fix what a saved report found; probe nothing."),
    json_out: bool = typer.Option(False, "--json", help="Print the fixes and the env exports as JSON."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Show each finding's evidence."),
    config: Optional[str] = typer.Option(None, "--config", "-c", metavar="PATH", help="A trainer config: fix what it needs too (as check --config)."),
    trainer: Optional[str] = typer.Option(None, "--trainer", metavar="NAME", help="Which trainer --config is for, when the file could be two trainers'."),
    python: Optional[str] = typer.Option(None, "--python", metavar="PATH", help="Check this interpreter instead of attn-doctor's own: a python executable, a venv directory or a conda prefix. Every probe and kernel runs in it."),
):
    """Print the fixes for the findings of a fresh check (or of --from REPORT.json), most important first;
    --write-env writes their environment part to env.sh. Exit 0 when done, 2 when it could not."""
    import json

    from . import envfile, fixes

    if path is not None and not write_env:
        raise UsageError(f"fix: {path!r}: a PATH goes with --write-env")
    saved = None
    if from_report:
        from .saved import load_report

        saved = load_report(from_report)  # once: '-' is stdin
        if compile_mode is None:
            compile_mode = (saved.get("options") or {}).get("compile_mode")
    from . import api
    from .progress import Progress

    with Progress(enabled=not (print_env or json_out) and not from_report) as prog:
        report = api.probe_report(backend, require, timeout, compile_mode, from_report, progress=prog,
                                  python=python, saved=saved, config=config, trainer=trainer)
    compile_mode = compile_mode or (report.config or {}).get("compile_mode")  # a saved run's --config
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


@app.command(short_help='Combine reports saved on many machines into one fleet view.')
def merge(
    reports: List[str] = typer.Argument(..., metavar="REPORT.json", help="Reports saved with check --json (or fleet reports) from many machines."),
    json_out: Optional[str] = typer.Option(None, "--json", metavar="PATH|-", help="Write the fleet report (JSON) to PATH, or to stdout with '-'."),
    strict: bool = typer.Option(False, "--strict", help="Warnings fail too."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Show every finding's evidence in full."),
):
    """Combine reports saved on many machines into one fleet view: a row per host and GPU, differences flagged."""
    from .fleet import merge as merge_reports

    view = merge_reports(reports, strict=strict)
    _render_fleet(view, json_out, verbose)
    raise typer.Exit(view.exit_code)


def _close_options_only(e: Exception) -> None:
    """click suggests the options within difflib's default cutoff of the typed one *with* its leading `--`, which
    two shared dashes lift past it: `--bogus` got "(Possible options: --verbose)". Kept: those close by their
    names alone (`--jsn` -> --json); none close, no suggestion."""
    if isinstance(e, _click_exc.NoSuchOption) and e.possibilities:
        import difflib

        typed = e.option_name.lstrip("-")
        e.possibilities = [p for p in e.possibilities if difflib.get_close_matches(typed, [p.lstrip("-")], n=1)]


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        argv = ["--help"]
    _tolerant_stdout()
    try:
        rv = app(args=argv, prog_name="attn-doctor", standalone_mode=False)
        return int(rv or 0)
    except UsageError as e:
        print(f"attn-doctor: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except _EXIT as e:
        return e.exit_code
    except _click_exc.ClickException as e:  # bad flag, bad value, missing argument
        _close_options_only(e)
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


DTYPE_ALIASES = {"bf16": "bfloat16", "bfloat16": "bfloat16", "fp16": "float16", "float16": "float16",
                 "half": "float16", "fp32": "float32", "float32": "float32"}


def _ints(raw: str, flag: str) -> list[int]:
    try:
        out = [int(x) for x in raw.replace(" ", "").split(",") if x]
    except ValueError:
        raise UsageError(f"{flag}: expected whole numbers separated by commas, got {raw!r}") from None
    if not out or any(x <= 0 for x in out):
        raise UsageError(f"{flag}: expected positive whole numbers, got {raw!r}")
    return out


@app.command(short_help='Time the backends that pass their smoke tests at your shapes; say how to select the fastest.')
def bench(
    seqlen: Optional[str] = typer.Option(None, "--seqlen", "-s", metavar="N,N,...", help="Sequence lengths, comma-separated (default: 1024,4096,16384 on a GPU; 256,1024 on the CPU)."),
    batch: Optional[int] = typer.Option(None, "--batch", min=1, metavar="N", help="Batch size (default: about 32768 tokens per shape)."),
    heads: int = typer.Option(24, "--heads", min=1, metavar="N", help="Query heads."),
    kv_heads: Optional[int] = typer.Option(None, "--kv-heads", min=1, metavar="N", help="Key/value heads (GQA); default: --heads."),
    head_dim: Optional[int] = typer.Option(None, "--head-dim", min=8, metavar="N", help="Head dim (default 128, or the config's)."),
    dtype: Optional[str] = typer.Option(None, "--dtype", metavar="DTYPE", help="bf16 (default, or the config's), fp16 or fp32."),
    causal: bool = typer.Option(False, "--causal/--no-causal", help="Causal mask (LLMs) or full attention (diffusion)."),
    backward: bool = typer.Option(True, "--backward/--no-backward", help="Also time forward+backward."),
    config: Optional[str] = typer.Option(None, "--config", "-c", metavar="PATH", help="Take dtype, head dim and batch from a trainer config."),
    trainer: Optional[str] = typer.Option(None, "--trainer", metavar="NAME", help="Which trainer --config is for, when the file could be two trainers'."),
    backend: Optional[List[str]] = typer.Option(None, "--backend", "-b", metavar="NAME", help=f"Only these backends (repeatable): {NAMES}."),
    device: Optional[int] = typer.Option(None, "--device", "-d", min=0, metavar="INDEX", help="GPU index to time on (default 0; one that is not there: exit 2)."),
    timeout: float = typer.Option(600.0, "--timeout", min=10.0, max=3600.0, metavar="SECONDS", help="Seconds allowed for each backend's timing process."),
    min_time: float = typer.Option(1.0, "--min-time", min=0.05, max=60.0, metavar="SECONDS", help="Seconds of timed calls per measurement (median taken)."),
    json_out: Optional[str] = typer.Option(None, "--json", metavar="PATH|-", help="Write the results as JSON to PATH, or stdout with '-'."),
    plot: Optional[str] = typer.Option(None, "--plot", metavar="FILE", help="Plot TFLOP/s against sequence length (.png/.svg; needs matplotlib)."),
    python: Optional[str] = typer.Option(None, "--python", metavar="PATH", help="Check this interpreter instead of attn-doctor's own: a python executable, a venv directory or a conda prefix. Every probe and kernel runs in it."),
):
    """Time every backend that passes its smoke tests at your shapes; rank the correct ones; say how to select the fastest."""
    from . import api
    from .progress import Progress

    seqlens = _ints(seqlen, "--seqlen") if seqlen is not None else None
    only = _backends(backend, "--backend") or None
    cfg = None
    if config:
        from .configs import load

        cfg = load(config, trainer)
    elif trainer:
        raise UsageError("--trainer goes with --config")
    dt = dtype or (cfg or {}).get("dtype") or "bf16"
    if dt not in DTYPE_ALIASES:
        raise UsageError(f"--dtype: unknown dtype {dt!r} (known: bf16, fp16, fp32)")
    dt = DTYPE_ALIASES[dt]
    hd = head_dim or ((cfg or {}).get("head_dims") or [128])[0]
    if kv_heads and heads % kv_heads:
        raise UsageError(f"--kv-heads {kv_heads} must divide --heads {heads}")
    if plot:
        _writable(plot, "--plot")
        import importlib.util

        if importlib.util.find_spec("matplotlib") is None:  # before minutes of timing, not after
            raise UsageError("--plot needs matplotlib, which attn-doctor's Python lacks: "
                             f"{sys.executable} -m pip install matplotlib (or leave out --plot)")
    _writable(json_out, "--json")
    b = batch or (cfg or {}).get("batch_size")
    with Progress(enabled=json_out != "-") as prog:
        result, rows = api.run_bench(only, seqlens, seqlens is None, b, heads, kv_heads, hd, dt, causal,
                                     backward, device, timeout, min_time, progress=prog, python=python)
    import json as _json

    if json_out:
        _emit(_json.dumps(result, indent=2, default=str) + "\n", json_out)
    if plot:
        from .render.bench import plot as do_plot

        do_plot(result, plot)
    if json_out != "-":
        from .render.bench import render as show
        from .render.text import make_console

        show(result, make_console())
    ranked = any(rec.get("best") for rec in result["recommendations"])
    raise typer.Exit(0 if ranked else 1)


# ---- trace (issue 21): which attention kernel actually ran, per call site, in the user's own job -------------

@app.command(short_help="Run your training command with a hook; report which attention kernel ran at each call site.",
             context_settings={"allow_interspersed_args": False, "ignore_unknown_options": True})
def trace(
    command: Optional[List[str]] = typer.Argument(None, metavar="-- CMD [ARGS]...", help="The command to run, unchanged: python train.py ..., accelerate launch ..., torchrun ... (every rank), a trainer's console script."),
    json_out: Optional[str] = typer.Option(None, "--json", metavar="PATH|-", help="Write the trace as JSON to PATH, or to stdout with '-' (after the program's own output)."),
    steps: Optional[int] = typer.Option(None, "--steps", min=1, metavar="N", help="Stop the program after N optimizer steps that ran attention (each process counts its own), then report."),
    seconds: Optional[float] = typer.Option(None, "--seconds", min=0.1, metavar="S", help="Stop each process at its first attention call or optimizer step S seconds after it started, then report."),
    config: Optional[str] = typer.Option(None, "--config", "-c", metavar="PATH", help="A trainer config: an error (exit 1) when the backend it asks for is not what ran."),
    trainer: Optional[str] = typer.Option(None, "--trainer", metavar="NAME", help="Which trainer --config is for, when the file could be two trainers'."),
    require: Optional[List[str]] = typer.Option(None, "--require", "-r", metavar="NAME", help="Fail (exit 1) unless this backend ran (repeatable; sdpa:flash, sdpa:cudnn ... for an SDPA kernel)."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Show each call site's shapes, devices, processes and the dispatcher's reasons."),
):
    """Run CMD unchanged with a hook in its Python processes; report which attention backend and kernel ran at
    each call site, and what is wrong with it. Exit: the program's exit code; when that is 0, 1 if --require
    (or --config's backend) did not run."""
    from .trace import run as trace_run
    from .trace.report import require_specs

    if steps and seconds:
        raise UsageError("trace: give --steps or --seconds, not both")
    first = (command or [""])[0]
    if first.startswith("-") and first != "--":
        # an option trace does not have, read as the command (`trace --python X -- ...`): say so
        why = "; trace runs the command's own interpreter (name it in the command)" if first == "--python" else ""
        raise UsageError(f"trace: no such option: {first}{why}; the command goes after --: attn-doctor trace [OPTIONS] -- python train.py")
    required = require_specs(require)
    cfg = None
    if config:
        from .configs import load

        cfg = load(config, trainer)
    elif trainer:
        raise UsageError("--trainer goes with --config")
    _writable(json_out, "--json")
    rep = trace_run.run(list(command or []), steps=steps, seconds=seconds, required=required, config=cfg)
    try:
        if json_out:
            _emit(trace_run.dumps(rep), json_out)
        if json_out != "-":
            from .render.text import make_console
            from .trace.render import render as render_trace

            render_trace(rep, make_console(file=sys.stderr), verbose=verbose)
    except BrokenPipeError:
        _drop_stdout()
    raise typer.Exit(rep.exit_code)
