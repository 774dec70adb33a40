"""Every fix line attn-doctor prints can be pasted into a shell as it stands.

Each knowledge entry's fix is rendered the way users see it: from the findings the checks make in
every scenario of tests/test_findings.py (params filled in as the checks fill them), from the
fleet findings of tests/test_fleet.py and the trace findings of tests/test_trace.py, and in its param-free form (`explain ID`, or a check that
lacks a param). Every line must pass `bash -n`, keep no placeholder (`<package>`, `{var}`,
`'<corrected value>'`), and start each command with a command, not prose. New entries are covered
as they come: an entry whose fix takes params and that no scenario renders fails the test.
"""

from __future__ import annotations

import functools
import re
import shutil
import subprocess

import pytest
from each_case import each

import fakefacts as ff
from attn_doctor import knowledge

PLACEHOLDER = re.compile(r"<[A-Za-z_][^<>\n]*>|(?<![$\w])\{[A-Za-z_]\w*\}|\bNone\b")
# What a fix line's commands may start with: the commands users are told to run.
COMMANDS = {
    "export", "unset", "cd", "ls", "chmod", "df", "rm", "mv", "mkdir", "echo", "command", "sudo", "id", "test",
    "pip", "pip3", "python", "python3", "uv", "conda", "apt-get", "git", "nvidia-smi", "nvcc", "attn-doctor",
    "torchrun", "srun", "accelerate", "ldd", "ldconfig", "readlink", "find", "env", "source", ".", "true",
    "tail", "grep", "head", "awk", "printf", "cat",
}


def _scenario_fixes() -> list[tuple[str, str]]:
    from test_findings import SCENARIOS

    out = []
    for sc in SCENARIOS:
        for f in ff.check(sc.build(), **sc.ctx).findings:
            if f.fix:
                out.append((f"{f.id} ({sc.name})", f.fix))
    return out


def _fleet_fixes() -> list[tuple[str, str]]:
    from test_fleet import every_fleet_finding

    return [(f"{f.id} (fleet)", f.fix) for f in every_fleet_finding() if f.fix]


def _plain_fixes() -> list[tuple[str, str]]:
    return [(f"{e.id} (no params)", e.plain_fix) for e in knowledge.entries().values() if e.plain_fix]


def _trace_fixes() -> list[tuple[str, str]]:
    from test_trace import every_trace_finding

    return [(f"{f.id} (trace)", f.fix) for f in every_trace_finding() if f.fix]


@functools.cache
def rendered() -> list[tuple[str, str]]:
    """The fix lines the scenarios render (~4 s of CPU: every scenario's check): built by the first test that asks, in
    the worker that runs it, not at collection in every xdist worker."""
    return _scenario_fixes() + _fleet_fixes() + _trace_fixes()


@functools.cache
def every_line() -> list[tuple[str, str]]:
    return sorted(set(rendered() + _plain_fixes()))


def test_every_entry_with_params_is_rendered_from_facts():
    """An entry whose fix names params is pasted below only if some scenario renders it."""
    seen = {label.split(" ")[0] for label, _ in rendered()}
    missing = sorted(e.id for e in knowledge.entries().values()
                     if knowledge.template_fields(e.fix) and e.id not in seen)
    assert missing == []


def commands(line: str) -> list[str]:
    """The first word of each command of a one-line shell snippet (comments and quotes respected)."""
    code = []
    quote = None
    for i, ch in enumerate(line):  # cut the comment: a # that starts a word, outside quotes
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            break
        code.append(ch)
    text = re.sub(r"'[^']*'|\"[^\"]*\"|\$\([^)]*\)", "X", "".join(code))
    firsts = []
    for part in re.split(r"&&|\|\||[;|]", text):
        words = part.split()
        while words and re.match(r"[A-Za-z_][A-Za-z0-9_]*\+?=", words[0]):  # VAR=value command
            words = words[1:]
        if words:
            firsts.append(words[0])
    return firsts


def test_commands_finder():
    assert commands("export A='x; y' B=1   # see: a | b") == ["export"]
    assert commands("cd / && python -c 'import x' 2>&1 | attn-doctor explain -") == ["cd", "python", "attn-doctor"]
    assert commands("MAX_JOBS=4 pip install x") == ["pip"]
    assert commands("drop max_split_size_mb from the settings") == ["drop"]


def setting(line: str) -> str | None:
    """A fix that is not a shell command but a setting to paste elsewhere: a trainer flag, a JSON or
    TOML line of a config file, a line of Python."""
    if line.startswith("--"):
        return "flag"
    if re.match(r'"[\w.-]+": ', line):
        return "json"
    if re.match(r"[A-Za-z_][\w.]*(, *[A-Za-z_]\w*)* = ", line):
        return "toml or python assignment"
    if re.match(r"(with )?[A-Za-z_][\w.]*\(", line):
        return "python call"
    return None


def shell_lines() -> list[tuple[str, str]]:
    return [(label, line) for label, line in every_line() if setting(line) is None]


def test_no_placeholder_survives():
    """Every fix line, rendered or param-free, each failing one named by its label (one test over the ~900 lines:
    tests/each_case.py says why)."""
    each(((label, (line,)) for label, line in every_line()), _no_placeholder_survives)


def _no_placeholder_survives(line):
    assert "\n" not in line, "a fix is one line"
    assert not PLACEHOLDER.search(line), f"placeholder left: {PLACEHOLDER.search(line).group()!r} in {line!r}"


@pytest.mark.skipif(not shutil.which("bash"), reason="needs bash")
def test_every_fix_line_passes_bash_n():
    """One bash per line would take seconds: each line goes into its own function body, in one file,
    and a syntax error names its line."""
    lines = sorted({line for _, line in shell_lines()})
    bad = []
    for line in lines:
        r = subprocess.run(["bash", "-n"], input=line + "\n", capture_output=True, text=True, timeout=30)
        if r.returncode != 0:
            bad.append((line, r.stderr.strip()))
    assert bad == []


TORCH_LINE = re.compile(r"(\S+ -m )?pip install (--force-reinstall --no-deps )?'torch==(\d+\.\d+\.\d+)\+(cu\d+|cpu|rocm[\d.]+)'"
                        r"   # the (\S+) build: from PyTorch's wheel index for (\S+) \(pip --index-url\)")


def test_every_torch_install_is_pinned_with_its_index():
    """Issue 16: torch advice is pinned to a version and build (`torch==2.11.0+cu130`), in one wording
    (the same for check, fix and merge); issue 20: no registry host is named, a comment says which of
    PyTorch's wheel indexes has that build. torch.missing has no version to pin."""
    lines = [(label, line) for label, line in rendered()  # a reinstall or a change of build (an upgrade
             if re.search(r"pip install[^#]*\btorch==", line.split("   #")[0])  # to 'torch>=2.5' is not)
             and not label.startswith("torch.missing")]
    assert len(lines) >= 6, lines  # the platform entries and the fleet ones
    for label, line in lines:
        m = TORCH_LINE.match(line)
        assert m and m.group(4) == m.group(5) == m.group(6), (label, line)
        assert "download." not in line and "--index-url http" not in line


@pytest.mark.parametrize("version,cuda,want", [
    ("2.13.0+cu130", "13.0", "cu130"), ("2.5.1+cu121", "12.1", "cu121"), ("2.6.0+cu124", "12.4", "cu124"),
    ("2.9.0", "12.8", "cu128"), ("2.7.1", "12.6", "cu126"), ("2.13.0+cpu", None, "cpu"), ("2.11.0", None, None),
])
def test_torch_index_comes_from_torchs_cuda(version, cuda, want):
    from attn_doctor.torchpin import index_of

    assert index_of(version, cuda) == want


def test_reinstalling_the_same_torch_keeps_its_version_and_dependencies():
    from attn_doctor.torchpin import install

    where = "   # the cu130 build: from PyTorch's wheel index for cu130 (pip --index-url) if pip's index lacks it"
    assert install("2.13.0+cu130", "cu130", reinstall=True) == (
        "pip install --force-reinstall --no-deps 'torch==2.13.0+cu130'" + where)
    # switching CPU -> CUDA at the same version: no --force-reinstall of everything, the CUDA libraries come along
    assert install("2.13.0+cpu", "cu130", reinstall=False) == "pip install 'torch==2.13.0+cu130'" + where
