"""The environment under check, resolved once: which interpreter, why that one, and how a printed
command reaches it (its pip, or uv's pip where it has none; attn-doctor run on it again).

Who decides, in order: `--python PATH`; else the active venv (VIRTUAL_ENV) or conda env
(CONDA_PREFIX) when attn-doctor itself runs from another interpreter (installed with pipx or
`uv tool`, say); else attn-doctor's own interpreter. The report's header says which and why, and
advice.py aims every printed command at it.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from dataclasses import asdict, dataclass

HOW = {
    "own": "attn-doctor's own interpreter",
    "--python": "named with --python",
    "VIRTUAL_ENV": "the active venv (VIRTUAL_ENV)",
    "CONDA_PREFIX": "the active conda env (CONDA_PREFIX)",
    "generic": "the Python of the job that printed the text",
}


@dataclass(frozen=True)
class Target:
    python: str  # the interpreter commands run: an absolute path, or "python" (explain without an env)
    how: str  # a key of HOW
    has_pip: bool | None = True  # None: unknown (a saved report from an older attn-doctor)
    uv: bool = False  # uv is on PATH, for an env that has no pip of its own
    doctor: str | None = None  # the interpreter attn-doctor itself runs from
    note: str | None = None  # why not the active env, when it could not be checked
    # the OS's own Python, marked EXTERNALLY-MANAGED (PEP 668; never a venv): its pip refuses every install (Debian's,
    # Ubuntu's, Fedora's /usr/bin/python3), so an install goes into a venv made from it (nu41)
    managed: bool = False

    @property
    def shown(self) -> str:
        """The interpreter as a shell word: `~/...` under $HOME when that needs no quoting."""
        if self.python == VENV:
            return f'"{VENV}"'  # the venv a managed target's install line made: the shell expands it
        return shell_path(self.python)

    def installed_into(self) -> "Target":
        """Where this env's install lines put what they install: itself, or for the OS's own Python (PEP 668) the
        venv they make from it ($VENV), which the next check must judge (nu41 row 1)."""
        if not self.managed:
            return self
        return Target(python=VENV, how="--python", has_pip=True, uv=self.uv, doctor=self.doctor)

    @property
    def flag(self) -> str | None:
        """What an attn-doctor line needs to check this env again; None when a plain run does."""
        if self.how in ("own", "generic"):
            return None
        return f"--python {self.shown}"

    def pip(self) -> str:
        """The start of a pip command that acts on this env and no other."""
        if self.managed:
            why = f"a new venv to install into: PEP 668 marks {self.python} as the OS Python, and its pip refuses"
            return f'{self.shown} -m venv "${{{{VENV:?{why}}}}}" && "$VENV"/bin/python -m pip {{sub}}'  # (.format: ${VENV:?...})
        if self.has_pip is False:
            if self.uv:
                return f"uv pip {{sub}} --python {self.shown}"
            return f"{self.shown} -m ensurepip && {self.shown} -m pip {{sub}}"  # a venv made --without-pip
        return f"{self.shown} -m pip {{sub}}"

    def describe(self) -> str:
        """One line for a report's header: which interpreter is checked, and why that one."""
        line = f"checking {self.python}: {HOW.get(self.how, self.how)}"
        if self.how in ("VIRTUAL_ENV", "CONDA_PREFIX") and self.doctor:
            line += f"; attn-doctor runs from {self.doctor} (--python chooses another)"
        if self.note:
            line += f" ({self.note})"
        if self.managed:
            line += ("; the OS manages it (PEP 668): its pip refuses to install, so install lines make a venv from it"
                     " ($VENV), which --python then checks")
        if self.has_pip is False:
            line += "; it has no pip" + (", so installs go through uv" if self.uv else "")
        return line

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "Target":
        return cls(**{k: d.get(k) for k in ("python", "how", "has_pip", "uv", "doctor", "note", "managed") if k in d})


GENERIC = Target(python="python", how="generic", has_pip=True)
VENV = "$VENV"  # the shell variable a managed target's install line makes its venv at (Target.pip)


def shell_path(path: str) -> str:
    if path.startswith("~/") and shlex.quote(path[2:]) == path[2:]:
        return path
    home = os.path.expanduser("~")
    if home not in ("", "/") and path.startswith(home + os.sep):
        rest = path[len(home) + 1:]
        if shlex.quote(rest) == rest:
            return "~/" + rest
    return shlex.quote(path)


def _same_env(a: str, b: str) -> bool:
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except OSError:
        return a == b


def active_env(environ: dict | None = None) -> tuple[str, str] | None:
    """(how, prefix) of the venv or conda env the shell has active, when attn-doctor runs from
    another one; None when it runs from that env itself or none is active."""
    environ = os.environ if environ is None else environ
    for how in ("VIRTUAL_ENV", "CONDA_PREFIX"):
        prefix = environ.get(how)
        if not prefix or not os.path.isdir(prefix):
            continue
        if _same_env(prefix, sys.prefix):
            return None  # attn-doctor lives in the active env: its own interpreter is that env's
        return how, prefix
    return None


def own() -> Target:
    import importlib.util

    return Target(python=sys.executable, how="own", has_pip=importlib.util.find_spec("pip") is not None,
                  uv=shutil.which("uv") is not None, doctor=sys.executable)


def resolve(python: str | None, timeout: float = 60.0, environ: dict | None = None) -> tuple[Target, dict | None]:
    """The target of a run and, when it is not attn-doctor's own interpreter, what that interpreter
    said of itself (facts.interpreter.query). `--python` wins; an active env that is no working
    Python falls back to attn-doctor's own, and the header says why."""
    from dataclasses import replace

    from .facts.interpreter import query
    from .model import UsageError

    if python is not None:
        info = query(python, timeout=timeout)
        return of_interpreter(info, "--python"), info
    act = active_env(environ)
    if act:
        how, prefix = act
        try:
            info = query(prefix, timeout=timeout)
        except UsageError as e:
            why = str(e).split(": ", 1)[-1]
            return replace(own(), note=f"{how}={prefix} was not checked: {why}"), None
        return of_interpreter(info, how), info
    return own(), None


def of_interpreter(info: dict, how: str) -> Target:
    """The target for an interpreter facts.interpreter.query described."""
    return Target(python=info["python"], how=how, has_pip=info.get("has_pip", True),
                  uv=shutil.which("uv") is not None, doctor=sys.executable,
                  managed=bool(info.get("externally_managed")))


def from_facts(facts: dict) -> Target:
    """The target a report's facts were collected for (a saved report too). Reports from before
    targets existed: the interpreter they name, with --python when it was not the doctor's own."""
    raw = facts.get("target")
    if isinstance(raw, dict) and raw.get("python"):
        try:
            return Target.from_dict(raw)
        except TypeError:
            pass
    s = facts.get("system") or {}
    exe = s.get("python_executable")
    if not exe:
        return GENERIC
    return Target(python=exe, how="--python" if s.get("doctor_python") else "own", has_pip=None,
                  doctor=s.get("doctor_python") or exe)
