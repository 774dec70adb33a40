"""Whether torch is installed, asked without importing it.

`pytest.importorskip("torch")` at a test module's top imports torch (~4.5 s of CPU here) into every xdist worker at
collection, whether or not that worker runs one of the module's tests; most such modules only start children that
import it. `needs_torch` skips as importorskip did (torch not installed), and a test that uses torch in-process
imports it itself (`torch = torch_here.torch()`).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest


def installed(submodule: str = "") -> bool:
    """torch is on this interpreter's path (and, with `submodule` such as "distributed/run.py", ships that file),
    found without importing it."""
    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.origin:
        return False
    return not submodule or (Path(spec.origin).parent / submodule).is_file()


def needs_torch(submodule: str = "", reason: str = "torch is not installed") -> pytest.MarkDecorator:
    return pytest.mark.skipif(not installed(submodule), reason=reason)


def torch():
    """torch, imported now (in the test that needs it, not at collection); a skip where it is not installed."""
    return pytest.importorskip("torch")
