"""Every data file attn-doctor reads at run time is in what `pip install .` / `pipx install` installs (pyproject's
package-data), not only in a checkout: knowledge/messages/*.toml was left out until 2026-11-28, so an installed
attn-doctor knew none of the backends' own error messages (triage.backend-message) while the tests, run from the
checkout, passed."""

from __future__ import annotations

import fnmatch
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "attn_doctor"


def test_every_data_file_is_package_data():
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["attn_doctor"]
    data = [p.relative_to(PKG).as_posix() for p in PKG.rglob("*.toml")]
    assert data, "no data files found: the glob is wrong"
    missing = [d for d in data if not any(fnmatch.fnmatch(d, g) and d.count("/") == g.count("/") for g in globs)]
    assert missing == []
