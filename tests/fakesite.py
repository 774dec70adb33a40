"""Fake installed distributions: real *.dist-info directories (and package files) written into a
temporary directory, for the collectors that read the disk (facts/packages.py) and for end-to-end
runs of the doctor with that directory on PYTHONPATH.

WHAT IS FAKED: the packages themselves. The METADATA headers (Name, Version, Requires-Dist) and the
flash-attn-4 RECORD lines are copied from the real wheels (unpacked in /tmp/wh on the dev VM,
2026-11), so the collectors parse what pip would have left. Package code is a stub that only does
what a test says (raise, crash, hang).
"""

from __future__ import annotations

from pathlib import Path

from fakefacts import REQUIRES

# The first lines of the real flash_attn_4-4.0.0b36 RECORD (flash_attn/cute/ files).
FA4_RECORD = [
    "flash_attn/cute/__init__.py,sha256=UHEwEsOl6ARfNoZyNCrqbu6zs84JaMtWObHxWLlJlIc,367",
    "flash_attn/cute/ampere_helpers.py,sha256=ytrBcKfaN54nw20EQ2BIDXEM-ojQgtrSud7NWOSEcRE,3706",
    "flash_attn/cute/barrier.py,sha256=dnr4B6p1IbjRXubJU09HRaetIiSw2iuBbMScy56mwRk,2054",
    "flash_attn/cute/block_info.py,sha256=lvEimPvPnMbY7FxyYrXSI-JZeRYREGbdWlklnRT8YDM,8248",
    "flash_attn/cute/cache_utils.py,sha256=Ug7syD5GYGH3hsCf_Sw-Y4cg_Zl4NyGf0OYrZTLAWgE,11672",
    "flash_attn_4-4.0.0b36.dist-info/METADATA,sha256=oWAoZKogs_WuBA22DTDEl1_AKuVYA6TG0nlDONXon_w,1879",
    "flash_attn_4-4.0.0b36.dist-info/RECORD,,",
]
# FAKED: an FA2 wheel (<= 2.8.3) that carries its own old flash_attn/cute/ (the hashes are made up).
FA2_RECORD = [
    "flash_attn/__init__.py,sha256=AAAA,291",
    "flash_attn/flash_attn_interface.py,sha256=BBBB,61234",
    "flash_attn/cute/__init__.py,sha256=CCCC,120",
    "flash_attn/cute/interface.py,sha256=DDDD,20345",
    "flash_attn/cute/barrier.py,sha256=EEEE,2054",
    "flash_attn-2.8.3.dist-info/RECORD,,",
]


def dist_dir_name(name: str, version: str) -> str:
    return f"{name.replace('-', '_')}-{version}.dist-info"


def write_dist(site: Path, name: str, version: str, requires: list[str] | None = None,
               record: list[str] | None = None, metadata: str | bytes | None = None,
               direct_url: str | None = None) -> Path:
    """A <name>-<version>.dist-info in `site` as pip writes it. `requires` defaults to the real
    Requires-Dist of that release (fakefacts.REQUIRES); `metadata` replaces METADATA verbatim
    (to corrupt it)."""
    d = site / dist_dir_name(name, version)
    d.mkdir(parents=True)
    if metadata is None:
        reqs = REQUIRES.get((name, version), []) if requires is None else requires
        metadata = "Metadata-Version: 2.1\n" f"Name: {name}\n" f"Version: {version}\n" + "".join(
            f"Requires-Dist: {r}\n" for r in reqs)
    (d / "METADATA").write_bytes(metadata.encode() if isinstance(metadata, str) else metadata)
    (d / "INSTALLER").write_text("pip\n")
    if record is not None:
        (d / "RECORD").write_text("\n".join(record) + "\n")
    if direct_url is not None:
        (d / "direct_url.json").write_text('{"url": "%s", "archive_info": {}}' % direct_url)
    return d


def write_files(site: Path, files: dict[str, str]) -> None:
    """Package files: {relative path: content}."""
    for rel, text in files.items():
        p = site / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
