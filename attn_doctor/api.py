"""The library every command calls: what to check (parsed, validated), then collect → smoke →
evaluate into one Report. Commands only parse their flags, call this and render what comes back;
trainers call `check` and `require` (re-exported as attn_doctor.check / attn_doctor.require).

Nothing here imports torch or a backend: they are imported, and their kernels run, in children
(in the interpreter `python` names, when given).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from .model import BACKENDS, PreflightError, Report, UsageError

COMPILE_MODES = ("default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs", "none")
DEFAULT_TIMEOUT = 180.0


def backend_names(values: Iterable[str] | str | None, flag: str) -> list[str]:
    """Backend names from repeated and comma-separated values, checked, in the order given."""
    if isinstance(values, str):
        values = [values]
    out = []
    for raw in values or []:
        for n in str(raw).split(","):
            n = n.strip().lower()
            if not n:
                continue
            if n not in BACKENDS:
                raise UsageError(f"{flag}: unknown backend {n!r} (known: {', '.join(BACKENDS)})")
            if n not in out:
                out.append(n)
    return out


def compile_mode_of(value: str | None, flag: str = "--compile-mode") -> str | None:
    if value is not None and value not in COMPILE_MODES:
        raise UsageError(f"{flag}: unknown mode {value!r} (known: {', '.join(COMPILE_MODES)})")
    return value


class _Quiet:
    """Progress that shows nothing (the API, JSON on stdout, ranks of a job)."""

    def update(self, text: str) -> None:
        pass

    def backend(self, *args) -> None:
        pass


@dataclass
class CheckPlan:
    """A check, validated and ready to run: what `run_check` needs, nothing left to parse."""
    ctx: object  # checks.Context
    options: dict
    smoke: dict | None  # the smoke level, dtype and head dims; None: probe only
    timeout: float
    selected: list[str] | None
    devices: list[int] | None
    python: str | None = None
    facts: dict | None = None  # a saved report's facts (--from): nothing is probed
    interpreter: dict | None = None  # what --python's (or the active env's) interpreter said of itself
    target: object = None  # target.Target: the env under check, which every printed command acts on
    strict_devices: bool = True  # a --device index CUDA does not show is bad input (not under --distributed)


def timeout_of(value, what: str = "timeout") -> float:
    """A timeout in seconds as the CLI takes it (1 to 3600); a UsageError in the API's words otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise UsageError(f"{what}: expected a number of seconds, got {value!r}")
    if not 1 <= value <= 3600:
        raise UsageError(f"{what}: expected 1 to 3600 seconds, got {value!r}")
    return float(value)


def plan_check(backends=None, require=None, config: str | None = None, smoke: bool = True,
               timeout: float = DEFAULT_TIMEOUT, python: str | None = None, *, strict: bool = False,
               compile_mode: str | None = None, select=None, ignore=None, thorough: bool = False,
               devices: list[int] | None = None, from_report: str | None = None,
               strict_devices: bool = True, trainer: str | None = None) -> CheckPlan:
    """Parse and validate what `check` was asked; a UsageError (one line) for anything wrong.
    With `from_report`, the saved run's require, config, select, ignore, strict, compile mode and
    backends apply unless given again (None: not given)."""
    from . import selection
    from .checks import Context

    timeout = timeout_of(timeout)
    selected = backend_names(backends, "--backend") or None
    explicit = backend_names(require, "--require")
    compile_mode_of(compile_mode)
    chosen = selection.parse(select, "--select") or None
    ignored = selection.parse(ignore, "--ignore")
    cfg = None
    if config:
        from .configs import load

        cfg = load(config, trainer)
    elif trainer:
        raise UsageError("--trainer goes with --config")
    saved = None
    if from_report:
        from .saved import load_report, prior_options

        saved = load_report(from_report)
        prior = prior_options(saved)  # the saved run, as it was asked for; given now wins
        explicit = explicit if require else prior["require"]
        if config is None:
            cfg, config = prior["config"], prior["config_path"]
        compile_mode = compile_mode if compile_mode is not None else prior["compile_mode"]
        strict = strict or prior["strict"]
        chosen = chosen if select is not None else prior["select"]
        ignored = ignored if ignore is not None else prior["ignore"]
        selected = selected if backends is not None else prior["backends"]
    required = list(explicit)
    for name in (cfg or {}).get("required") or []:
        if name not in required:
            required.append(name)
    if selected:
        selected = sorted(set(selected) | set(required))
    ctx = Context(required=required, selected=selected,
                  compile_mode=compile_mode or (cfg or {}).get("compile_mode"), strict=strict,
                  smoke=smoke, config=cfg, select=chosen, ignore=ignored, explicit=list(explicit))
    # (a dtype the config leaves to the GPU: each smoke child tests the one its GPU makes it, smoke.plan.auto_dtype)
    level = None if not smoke else {"level": "thorough" if thorough else "standard",
                                    "dtype": (cfg or {}).get("dtype"), "head_dims": (cfg or {}).get("head_dims"),
                                    **({"dtype_by_gpu": cfg["dtype_by_gpu"]} if (cfg or {}).get("dtype_by_gpu") else {})}
    options = {"smoke": smoke, "backends": selected, "strict": strict, "compile_mode": compile_mode,
               "timeout": timeout, "from": from_report, "require": explicit, "config": config,
               "select": chosen, "ignore": ignored, "thorough": thorough, "devices": devices or None}
    if config and trainer:
        options["trainer"] = trainer  # the reader it was read with: the printed follow-ups read it the same way
    interp, tgt = None, None
    if python is not None and saved is not None:
        raise UsageError("--python checks an interpreter; --from re-evaluates a saved report's facts: give one of them")
    if saved is None:
        tgt, interp = resolve_target(python, timeout)
        if interp is not None:
            options["python"] = interp["executable"]
    return CheckPlan(ctx=ctx, options=options, smoke=level, timeout=timeout, selected=selected,
                     devices=sorted(set(devices)) if devices else None, python=python, strict_devices=strict_devices,
                     facts=saved["facts"] if saved is not None else None, interpreter=interp, target=tgt)


def resolve_target(python: str | None, timeout: float = DEFAULT_TIMEOUT):
    """(target, interpreter facts): the env `--python` names, else the active venv or conda env
    when attn-doctor runs from another one, else attn-doctor's own (interpreter facts None).
    A UsageError (one line) when --python is not a working Python."""
    from .target import resolve

    return resolve(python, timeout=min(timeout, 60.0))


def run_check(plan: CheckPlan, progress=None, options: dict | None = None):
    """Collect (torch and backends in children, kernels too unless probe-only), then evaluate.
    `options` adds to what the report records of the run (e.g. the rank of a distributed check)."""
    from .report import evaluate

    facts = plan.facts
    if facts is None:
        from .facts import collect

        prog = progress or _Quiet()
        prog.update("importing torch and every backend" + ("" if plan.smoke is None else ", then running their kernels"))
        facts = collect(backends=plan.selected, timeout=plan.timeout, smoke=plan.smoke, progress=prog.backend,
                        device_ids=plan.devices, interpreter=plan.interpreter, strict_devices=plan.strict_devices,
                        target=plan.target)
    return evaluate(facts, plan.ctx, {**plan.options, **(options or {})})


def probe_report(backends=None, require=None, timeout: float = DEFAULT_TIMEOUT, compile_mode: str | None = None,
                 from_report: str | None = None, *, strict: bool = False, progress=None, python: str | None = None,
                 saved: dict | None = None, config: str | None = None, trainer: str | None = None):
    """The report `fix` works from: a fresh probe (no kernels: what fix changes is the environment)
    or a saved report's facts (`saved`, read once: '-' is stdin), judged as the saved run asked
    (its --require, --config, --select, --ignore, --backend) unless given again, as `check --from`."""
    from .checks import Context
    from .report import evaluate

    selected = backend_names(backends, "--backend") or None
    required = backend_names(require, "--require")
    compile_mode_of(compile_mode)
    cfg, chosen, ignored = None, None, []
    explicit = list(required)
    if config:
        from .configs import load

        cfg = load(config, trainer)
        required += [n for n in cfg.get("required") or [] if n not in required]
    elif trainer:
        raise UsageError("--trainer goes with --config")
    if from_report:
        from .saved import load_report, prior_options

        if python is not None:
            raise UsageError("--python checks an interpreter; --from re-evaluates a saved report's facts: give one of them")
        saved = saved if saved is not None else load_report(from_report)
        prior = prior_options(saved)
        required = required if require else prior["require"]
        explicit = list(required)
        cfg = cfg or prior["config"]
        required += [n for n in (cfg or {}).get("required") or [] if n not in required]
        compile_mode = compile_mode if compile_mode is not None else prior["compile_mode"]
        chosen, ignored = prior["select"], prior["ignore"]
        selected = selected if backends else prior["backends"]
    if selected:
        selected = sorted(set(selected) | set(required))
    if from_report:
        facts = saved["facts"]
    else:
        from .facts import collect

        tgt, interp = resolve_target(python, timeout)
        prog = progress or _Quiet()
        prog.update("probing torch, GPUs and backends")
        facts = collect(backends=selected, timeout=timeout, progress=prog.backend, interpreter=interp, target=tgt)
    ctx = Context(required=required, selected=selected, compile_mode=compile_mode or (cfg or {}).get("compile_mode"),
                  strict=strict, smoke=False, config=cfg, select=chosen, ignore=ignored, explicit=explicit)
    options = {"smoke": False, "backends": selected, "strict": strict, "compile_mode": compile_mode,
               "timeout": timeout, "from": from_report, "require": required, "select": chosen, "ignore": ignored,
               "config": config}
    if config and trainer:
        options["trainer"] = trainer
    if not from_report and interp is not None:
        options["python"] = interp["executable"]
    return evaluate(facts, ctx, options)


def run_bench(only: list[str] | None, seqlens: list[int] | None, default_seqlens: bool, batch: int | None, heads: int,
              kv_heads: int | None, head_dim: int, dtype: str, causal: bool, backward: bool, device: int,
              timeout: float, min_time: float, progress=None, python: str | None = None) -> tuple[dict, dict]:
    """Smoke-test the backends at these shapes, then time the correct ones: (result, status rows)."""
    from . import bench as bench_mod
    from .checks import Context
    from .checks.backends import statuses
    from .facts import collect

    tgt, interp = resolve_target(python, timeout)
    prog = progress or _Quiet()
    prog.update("checking which backends are correct here (smoke tests)")
    explicit = device is not None  # --device named: a GPU that is not there is bad input, as for check
    device = device or 0
    if not explicit:
        _fits_the_cpu_first(seqlens, default_seqlens, batch, heads, kv_heads, head_dim, dtype, causal, backward, timeout)
    facts = collect(backends=only, timeout=min(timeout, 300.0), smoke={"level": "standard", "dtype": dtype,
                    "head_dims": [head_dim]}, progress=prog.backend, device_ids=[device], interpreter=interp,
                    target=tgt, strict_devices=explicit)
    rows = statuses(facts, Context(selected=only))
    dev = f"cuda:{device}" if any(k != "cpu" for k in (facts.get("smoke") or {}).get("devices", {})) else "cpu"
    shapes = _bench_shapes(seqlens, default_seqlens, batch, heads, kv_heads, head_dim, dtype, causal, dev)
    bench_mod.fits(shapes, backward, bench_mod.memory_of(facts, device if dev != "cpu" else None))
    result = bench_mod.run(rows, shapes, dev, backward, timeout, only=only, min_time=min_time,
                           progress=prog.update, python=interp["python"] if interp else None)
    result["statuses"] = {n: {"status": r["status"], "reason": r.get("reason")} for n, r in rows.items()}
    result["gpu"] = next((g.get("name") for g in (facts.get("torch", {}).get("probe") or {}).get("cuda_runtime", {})
                          .get("devices", []) if g.get("index") == device), None)
    return result, rows


def _bench_shapes(seqlens, default_seqlens, batch, heads, kv_heads, head_dim, dtype, causal, dev: str) -> list[dict]:
    """The shapes bench times on `dev` ("cpu" or a GPU): the seqlens given, else the defaults --help names (the CPU's are
    small enough to finish)."""
    from . import bench as bench_mod

    if seqlens is None or default_seqlens:
        seqlens = [256, 1024] if dev == "cpu" else [1024, 4096, 16384]
    return bench_mod.shapes_from(seqlens, batch, heads, kv_heads, head_dim, dtype, causal,
                                 tokens=32768 if dev != "cpu" else 2048)


def _fits_the_cpu_first(seqlens, default_seqlens, batch, heads, kv_heads, head_dim, dtype, causal, backward,
                        timeout) -> None:
    """Where nvidia-smi lists no GPU the timing runs on the CPU whatever torch says (facts.smoke_devices): a shape that
    cannot fit in this machine's memory is then refused (bench.fits, the same words) before the smoke children start,
    not after every backend's import and kernels (report row 18's batch of 100000). Where a GPU is listed, the memory
    to judge by is known only once torch has said whether CUDA works: run_bench judges it after the smoke tests.
    nvidia-smi is asked only where the CPU's memory would refuse (collect() asks it again)."""
    from . import bench as bench_mod
    from .facts import gpus, system

    shapes = _bench_shapes(seqlens, default_seqlens, batch, heads, kv_heads, head_dim, dtype, causal, "cpu")
    try:
        bench_mod.fits(shapes, backward, bench_mod.memory_of({"system": system.resources()}, None))
    except UsageError:
        if gpus.collect(min(timeout, 15.0)).get("gpus"):
            return
        raise


# ---- the in-process API -------------------------------------------------------------------------

def check(backends=None, require=None, config: str | None = None, smoke: bool = True,
          timeout: float = DEFAULT_TIMEOUT, python: str | None = None, *, strict: bool = False,
          compile_mode: str | None = None, select=None, ignore=None, thorough: bool = False,
          devices: list[int] | None = None, from_report: str | None = None, trainer: str | None = None) -> Report:
    """What `attn-doctor check --json` reports, as a Report (`exit_code`, `backends`, `findings`,
    `to_dict()`). torch and the backends are imported, and their kernels run, only in child
    processes, so the caller's process stays as it was. `backends`/`require`: names or lists of
    names; `config`: a trainer config's path (`trainer` names its trainer where two could read it); `python`: check another interpreter (a python, a venv
    or a conda prefix). Bad arguments raise attn_doctor.UsageError."""
    try:
        plan = plan_check(backends, require, config, smoke=smoke, timeout=timeout, python=python, strict=strict,
                          compile_mode=compile_mode, select=select, ignore=ignore, thorough=thorough, devices=devices,
                          from_report=from_report, trainer=trainer)
    except UsageError as e:
        raise UsageError(api_words(str(e))) from None
    return run_check(plan)


# The CLI's flags and the arguments of check()/require() that take the same values: the API's errors name the latter.
ARGUMENTS = {"--backend": "backends", "--require": "require", "--config": "config", "--trainer": "trainer",
             "--python": "python", "--select": "select", "--ignore": "ignore", "--compile-mode": "compile_mode",
             "--from": "from_report", "--device": "devices", "--timeout": "timeout"}


def api_words(message: str) -> str:
    """A usage error of plan_check in the words of the API: `--backend: unknown backend 'x'` becomes
    `backends: unknown backend 'x'`. A message that prints a command (`attn-doctor check --python ...`) keeps its flags."""
    if "attn-doctor " in message:
        return re.sub(r"^(--[a-z-]+)(?=:)", lambda m: ARGUMENTS.get(m.group(1), m.group(1)), message)
    return re.sub(r"(?<![\w-])--[a-z][a-z-]*(?![\w-])", lambda m: ARGUMENTS.get(m.group(0), m.group(0)), message)


def require(*names: str, **kwargs) -> Report:
    """`check` with these backends required: the Report when every one of them is ok, else
    PreflightError, whose message lists the failing findings with their fixes. A config's
    required backends count too (`config=`)."""
    if "require" in kwargs:
        raise TypeError("require(): name the backends as arguments, not require=")
    flat: list[str] = []
    for n in names:  # require("sdpa", "flex") and require(["sdpa", "flex"]) mean the same
        flat += list(n) if isinstance(n, (list, tuple, set)) else [n]
    names = tuple(flat)
    if not names and not kwargs.get("config") and not kwargs.get("from_report"):
        raise UsageError("require(): name at least one backend (known: " + ", ".join(BACKENDS) + ")")
    report = check(require=list(names), **kwargs)
    bad = [n for n in report.required if (report.backends.get(n) or {}).get("status") != "ok"]
    if bad:
        raise PreflightError(report, bad)
    return report
