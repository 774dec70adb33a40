"""The Python interpreter a check is about: the doctor's own, or the one `--python PATH` names.

`--python` takes a python executable, a venv directory or a conda prefix. Every probe and kernel
then runs in that interpreter, and its packages are read from ITS sys.path, asked of it in a child
(the standard library only, nothing imported from the environment being checked).
"""

from __future__ import annotations

import os
import platform
import shutil
import sys

from .. import proc
from ..model import UsageError

MIN_VERSION = (3, 10)  # what the probe children are written for (pyproject's requires-python)

# Runs in the checked interpreter with `-c`, like a user's script: its sys.path, its site dirs,
# its PEP 508 marker values (packaging is not imported there: the env may not have it).
QUERY = r"""
import importlib.util, json, os, platform, site, sys, sysconfig
def v(i):
    s = "%d.%d.%d" % (i.major, i.minor, i.micro)
    return s if i.releaselevel == "final" else s + i.releaselevel[0] + str(i.serial)
sites = []
try:
    sites += site.getsitepackages()
except AttributeError:
    pass
try:
    if site.ENABLE_USER_SITE:
        sites.append(site.getusersitepackages())
except AttributeError:
    pass
entries = []
for p in sys.path:
    p = p or os.getcwd()
    if p not in entries and os.path.isdir(p):
        entries.append(p)
print("\n@@ATTN_DOCTOR@@" + json.dumps({
    "executable": sys.executable, "version": platform.python_version(),
    "version_info": list(sys.version_info[:3]), "prefix": sys.prefix,
    "in_venv": sys.prefix != getattr(sys, "base_prefix", sys.prefix),
    "sys_path": entries, "site_dirs": [os.path.realpath(d) for d in sites],
    "has_pip": importlib.util.find_spec("pip") is not None,
    "externally_managed": sys.prefix == getattr(sys, "base_prefix", sys.prefix) and
        os.path.isfile(os.path.join(sysconfig.get_path("stdlib") or "", "EXTERNALLY-MANAGED")),
    "marker_env": {
        "implementation_name": sys.implementation.name, "implementation_version": v(sys.implementation.version),
        "os_name": os.name, "platform_machine": platform.machine(), "platform_release": platform.release(),
        "platform_system": platform.system(), "platform_version": platform.version(),
        "python_full_version": platform.python_version(),
        "platform_python_implementation": platform.python_implementation(),
        "python_version": ".".join(platform.python_version_tuple()[:2]), "sys_platform": sys.platform},
}))
"""

# Where a venv (bin/python) or a conda prefix (bin/python; python.exe on Windows) keeps its python.
_IN_DIR = ("bin/python", "bin/python3", "python.exe", "Scripts/python.exe")


def resolve(path: str) -> str:
    """The python executable PATH names (a file, a venv directory, a conda prefix, or a name on PATH)."""
    p = os.path.expanduser(path)
    if os.path.isdir(p):
        for rel in _IN_DIR:
            cand = os.path.join(p, rel)
            if os.path.isfile(cand) and os.access(cand, os.X_OK):
                return os.path.abspath(cand)
        raise UsageError(f"--python: {path} is a directory without bin/python: not a venv or a conda prefix")
    if not os.path.exists(p):
        found = shutil.which(p) if os.sep not in p else None
        if found:
            return found
        raise UsageError(f"--python: {path} does not exist")
    if not os.access(p, os.X_OK):
        raise UsageError(f"--python: {path} is not executable")
    return os.path.abspath(p)  # not realpath: a venv's bin/python is a symlink that makes it the venv


def query(path: str, timeout: float = 60.0) -> dict:
    """What the interpreter at PATH is and where it finds packages; UsageError if it is not a working
    Python (one line)."""
    exe = resolve(path)
    r = proc.run(proc.python_argv(QUERY, python=exe), timeout=timeout)
    info = r.payload
    if not r.ok or not info or not isinstance(info.get("sys_path"), list):
        tail = [ln.strip() for ln in r.text().splitlines() if ln.strip()][-1:]
        why = ("did not answer within %.0f s" % timeout if r.timed_out else r.start_error or r.signal_name
               or (f"exit {r.returncode}" if r.returncode else "it ran, but gave no answer")) + (
            f": {tail[0][:200]}" if tail else "")
        raise UsageError(f"--python: {path} is not a working Python ({why})")
    if tuple(info.get("version_info") or ()) < MIN_VERSION:
        raise UsageError(f"--python: {path} is Python {info.get('version')}; attn-doctor checks Python "
                         f"{'.'.join(map(str, MIN_VERSION))} or newer")
    info["requested"] = path
    info["python"] = exe  # what the children run: the path given, so a venv stays a venv
    return info


def own() -> dict:
    """The doctor's own interpreter, described as `query` describes another one."""
    from packaging.markers import default_environment

    from . import packages

    return {
        "executable": sys.executable, "version": platform.python_version(),
        "version_info": list(sys.version_info[:3]), "prefix": sys.prefix,
        "in_venv": sys.prefix != getattr(sys, "base_prefix", sys.prefix),
        "sys_path": packages.path_entries(), "site_dirs": packages.site_dirs(),
        "marker_env": dict(default_environment()), "requested": None, "python": None,
    }
