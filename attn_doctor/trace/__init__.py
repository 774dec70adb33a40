"""Which attention kernel actually ran, per call site: `attn-doctor trace -- CMD` and attn_doctor.trace().

    hook.py           runs inside the traced program: wraps SDPA, FlexAttention, FA2/FA3/FA4, Sage and
                      xformers when the program imports them; identifies each (call site, dtype, shape
                      class) once, then counts. Standard library only, loaded by path.
    sitecustomize.py  what `attn-doctor trace` puts on PYTHONPATH so every Python process loads the hook
    run.py            `attn-doctor trace`: runs the command with the hook, gathers each process's data
    report.py         data -> TraceReport: rows merged per call site, findings (knowledge/trace.toml)
    render.py         the text view

In a trainer, without a separate command:

    import attn_doctor
    with attn_doctor.trace(require="flex") as t:
        train_one_step()
    print(t.report.calls, t.report.ok)   # or t.render() for the text report

The hook stays installed after the block (uninstalling would make torch.compile retrace); the block
only delimits what its report counts. Nothing heavy is imported here either.
"""

from __future__ import annotations

import os
import sys

HOOK_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hook.py")
HOOK_MODULE = "_attn_doctor_trace_hook"  # the one hook module of a process, however it was loaded


def hook_module():
    """The hook of this process: the one `attn-doctor trace`'s sitecustomize loaded, else this package's."""
    mod = sys.modules.get(HOOK_MODULE)
    if mod is None:
        from . import hook as mod

        sys.modules[HOOK_MODULE] = mod
    return mod


class Trace:
    """`with attn_doctor.trace() as t:` - after the block, `t.report` is the TraceReport of the calls
    made inside it (`calls`, `findings`, `ok`, `exit_code`, `to_dict()`); `t.render()` prints it."""

    def __init__(self, require=None, config: str | None = None, trainer: str | None = None):
        from .report import require_specs

        self.required = require_specs([require] if isinstance(require, str) else require)
        self.config = None
        if config:
            from ..configs import load

            self.config = load(config, trainer)
        self.report = None
        self._before: dict = {}
        self._start = None

    def __enter__(self) -> "Trace":
        import time

        h = hook_module()
        h.install()
        self._before = {_key(r): r["count"] for r in h.rows()}
        self._start = time.monotonic()
        return self

    def __exit__(self, *exc) -> bool:
        import time

        from .report import build

        h = hook_module()
        snap = h.snapshot()
        rows = []
        for r in snap["rows"]:
            n = r["count"] - self._before.get(_key(r), 0)
            if n > 0:
                rows.append(dict(r, count=n))
        snap["rows"] = rows
        snap["rank"] = snap.get("rank")
        self.report = build([snap], required=self.required, config=self.config, cwd=os.getcwd(),
                            seconds=round(time.monotonic() - self._start, 3), hooked=False)
        return False

    def render(self, file=None, verbose: bool = False) -> None:
        from ..render.text import make_console
        from .render import render

        render(self.report, make_console(file=file or sys.stderr), verbose=verbose)


def _key(r: dict) -> tuple:
    return tuple(str(r.get(k)) for k in ("site", "backend", "kernel", "compiled", "dtype", "mask", "head_dim",
                                         "device", "entry", "first_seen"))


def trace(require=None, config: str | None = None, trainer: str | None = None) -> Trace:
    """A context manager that traces the attention calls made inside it, in this process."""
    return Trace(require=require, config=config, trainer=trainer)


class _CallableModule(type(sys)):
    """attn_doctor.trace is this package and, called, the context manager: importing a submodule
    (attn_doctor.trace.report) binds the package to the parent's attribute, which would otherwise
    replace a function of the same name exported from attn_doctor/__init__.py."""

    def __call__(self, require=None, config: str | None = None, trainer: str | None = None) -> Trace:
        return trace(require=require, config=config, trainer=trainer)


sys.modules[__name__].__class__ = _CallableModule
