"""attn-doctor: a preflight doctor for GPU attention backends.

From a training script, before the model is built:

    import attn_doctor
    attn_doctor.require("flex")  # raises attn_doctor.PreflightError, with the fixes, unless flex is ok

`check` and `require` run every probe and kernel in child processes: torch and the backends are
never imported into the caller's process. This module stays light (the standard library only):
the probe children load it too, in the interpreter they check.
"""

__version__ = "0.1.0"
__all__ = ["check", "require", "trace", "PreflightError", "UsageError", "Report", "Finding", "__version__"]


def check(backends=None, require=None, config=None, smoke=True, timeout=180.0, python=None, **more):
    """The Report `attn-doctor check --json` gives (exit_code, backends, findings, to_dict())."""
    from .api import check as _check

    return _check(backends, require, config, smoke=smoke, timeout=timeout, python=python, **more)


def require(*names, **kwargs):
    """check() with these backends required; PreflightError unless every one of them is ok."""
    from .api import require as _require

    return _require(*names, **kwargs)


def __getattr__(name):  # the types, and trace, imported when first asked for
    if name == "trace":
        # `with attn_doctor.trace(require="flex") as t: ...` - which attention kernel ran at each call site
        # of the block, in this process (t.report: calls, findings, ok). The subpackage attn_doctor.trace,
        # made callable (see attn_doctor/trace/__init__.py); standard library only until torch is imported.
        import importlib

        return importlib.import_module(f"{__name__}.trace")
    if name in ("PreflightError", "UsageError", "Report", "Finding"):
        from . import model

        return getattr(model, name)
    raise AttributeError(f"module 'attn_doctor' has no attribute {name!r}")
