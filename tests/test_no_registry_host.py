"""The brief's rule: "Name no package registry's host in the repository: pip's configured index will do." What the
tool prints and what its docs tell a user to run name no registry host (`pip --index-url` alone, pip's configured index).
Session 41: a fix word of nu41b named PyTorch's wheel host in `cpu_torch_first`'s comment; this guards the wording.
Verbatim real material (fixtures/, tests' captured logs, the seed guides under docs/guides/) is quoted, not advice, and
is not read here."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOSTS = re.compile(r"(?:download\.pytorch\.org|(?<![\w.])(?:test\.)?pypi\.org|pythonhosted\.org|pypi\.nvidia\.com|"
                   r"pypi\.ngc\.nvidia\.com)", re.IGNORECASE)


def _advice_files() -> list[Path]:
    files = [p for p in (ROOT / "attn_doctor").rglob("*") if p.suffix in (".py", ".toml", ".md")]
    files += [p for p in (ROOT / "docs").rglob("*.md") if "guides" not in p.relative_to(ROOT / "docs").parts]
    files += [ROOT / n for n in ("README.md", "Makefile", "pyproject.toml") if (ROOT / n).is_file()]
    return files


def test_no_registry_host_in_what_the_tool_prints_or_its_docs():
    hits = [f"{p.relative_to(ROOT)}:{i}: {m.group(0)}" for p in _advice_files()
            for i, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
            for m in HOSTS.finditer(line)]
    assert not hits, hits


def test_the_pattern_finds_each_host_and_passes_a_docs_link():
    for host in ("https://download.pytorch.org/whl/cu130", "pypi.org/simple", "files.pythonhosted.org/packages",
                 "https://pypi.nvidia.com", "test.pypi.org"):
        assert HOSTS.search(host), host
    assert not HOSTS.search("https://pytorch.org/docs/stable/nn.attention.html")
