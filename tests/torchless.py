"""Make a venv in which attn-doctor runs but torch cannot be imported (what `pipx install` gives).

Offline and fast: a venv without pip and without the system site-packages, whose one .pth file names
the project root and a directory of symlinks to attn-doctor's runtime dependencies (typer, rich,
packaging and what they require, never torch), taken from the interpreter that runs this.

    python tests/torchless.py DIR      # prints DIR/bin/python
"""

from __future__ import annotations

import os
import re
import sys
import sysconfig
import venv
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NEEDS = ("typer", "rich", "packaging", "tomli")  # attn-doctor's runtime dependencies (pyproject.toml)
NEVER = {"torch", "triton"}


def _closure(names) -> list[metadata.Distribution]:
    seen: dict[str, metadata.Distribution] = {}
    todo = list(names)
    while todo:
        name = re.split(r"[\s;<>=!~\[(]", todo.pop(), maxsplit=1)[0].lower().replace("_", "-")
        if not name or name in seen or name in NEVER:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue  # optional (tomli on 3.11+) or an extra's requirement
        seen[name] = dist
        todo += [r for r in (dist.requires or []) if "extra ==" not in r]
    return list(seen.values())


def build(target: Path) -> Path:
    """The venv at `target`; returns its python."""
    venv.EnvBuilder(with_pip=False, system_site_packages=False, symlinks=os.name != "nt").create(target)
    py = target / "bin" / "python"
    deps = target / "attn-doctor-deps"
    deps.mkdir()
    for dist in _closure(NEEDS):
        for f in dist.files or []:
            top = f.parts[0]
            if top in ("..", "__pycache__") or top.split(".")[0].split("-")[0].lower() in NEVER:
                continue  # scripts in bin/, caches, and never torch
            src = Path(dist.locate_file(top))
            if src.exists() and not (deps / top).exists():
                (deps / top).symlink_to(src)
    purelib = sysconfig.get_path("purelib", vars={"base": str(target), "platbase": str(target)})
    Path(purelib).mkdir(parents=True, exist_ok=True)
    (Path(purelib) / "attn_doctor_test.pth").write_text(f"{ROOT}\n{deps}\n")
    return py


if __name__ == "__main__":
    print(build(Path(sys.argv[1]).resolve()))
