"""Whether torch (or one of its files) is installed for the interpreter running the tests, found without importing it.

`pytest.importorskip("torch")` imports torch into the test process (~3 s of CPU and ~0.5 GB here). At a module's top it
runs at collection, so under xdist every worker paid it for every such module collected, where their tests only start
children that import torch for themselves (ci40c). `needs_torch()` skips as importorskip did when torch is absent (at a
module's top or in a test); a torch that is installed but cannot be imported is then the children's to report.
"""

from __future__ import annotations

import importlib.util
import os

import pytest


def torch_dir() -> str | None:
    spec = importlib.util.find_spec("torch")  # a top-level name: finding it imports nothing
    return spec.submodule_search_locations[0] if spec and spec.submodule_search_locations else None


def needs_torch(*part: str, reason: str | None = None) -> None:
    """Skip (the module, when called at its top) unless torch is installed, and torch/<part...>.py where given
    (needs_torch("distributed", "run") for torch.distributed.run)."""
    where = torch_dir()
    if where is None:
        pytest.skip(reason or "torch is not installed", allow_module_level=True)
    if part and not os.path.isfile(os.path.join(where, *part[:-1], part[-1] + ".py")):
        pytest.skip(reason or f"torch has no {'.'.join(('torch',) + part)}", allow_module_level=True)
