"""What a new user reads (issue 16): check ends with the problems by id and the command that fixes
them, one finding order in every format, the missing backends in one line with their install hints
whole, no command cut at 80 columns, and a --help with no raw placeholders or cut descriptions."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import fakefacts as ff
from attn_doctor.checks import Context
from attn_doctor.model import BACKENDS, SECTION_ORDER, sort_findings
from attn_doctor.render.text import SECTIONS, make_console, render
from attn_doctor.report import evaluate

ROOT = Path(__file__).resolve().parents[1]


def doctor(*args, env: dict | None = None):
    e = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1", **(env or {}))
    return subprocess.run([sys.executable, "-m", "attn_doctor", *args], capture_output=True, text=True,
                          timeout=300, env=e, cwd=ROOT)


def busy_box() -> dict:
    """FAKES the healthy H200 box with a broken allocator setting, no FA4 cache and caches under /tmp,
    and only sdpa/flex/cute installed: errors, warnings and notes in several sections."""
    f = ff.gpu_box()
    ff.set_env(f, PYTORCH_CUDA_ALLOC_CONF="expandable_segments:true", CUTE_DSL_CACHE_DIR="/tmp/cute")
    ff.install(f, "cute", "flash-attn-4", "4.0.0b36")
    return f


def text_of(report, width=80) -> str:
    buf = io.StringIO()
    render(report, make_console(file=buf, width=width))
    return buf.getvalue()


def test_check_ends_with_the_problems_by_id_and_the_fix_command():
    r = evaluate(busy_box(), Context(), {})
    assert r.findings
    lines = text_of(r).rstrip("\n").splitlines()
    ids = list(dict.fromkeys(f.id for f in sort_findings(r.findings)))
    tail = " ".join(" ".join(lines[-4:]).split())
    assert "problems, most important first: " + ", ".join(ids) in tail
    # issue 20 / report row 31: the closing line leads with the most important error's own fix
    top = sort_findings(r.findings)[0]
    assert top.severity == "error"
    assert lines[-1].startswith("fix: " + top.fix.split("   # ")[0]) and "attn-doctor fix lists every fix" in lines[-1]


def test_a_clean_report_ends_with_its_counts():
    r = evaluate(ff.gpu_box(), Context(), {})
    assert text_of(r).rstrip("\n").splitlines()[-1].endswith("exit 0")


def test_one_order_in_text_markdown_github_json_and_fix():
    from attn_doctor import envfile, fixes
    from attn_doctor.render import github, markdown

    r = evaluate(busy_box(), Context(), {})
    want = [f.id for f in sort_findings(r.findings)]
    assert [f.id for f in r.findings] == want  # JSON keeps the report's order
    assert [x["id"] for x in fixes.items(r, envfile.plan(r))] == want
    gh = [re.search(r"title=([a-z0-9.-]+)::", ln).group(1) for ln in github.render(r).splitlines() if ln.startswith("::")]
    assert gh == want
    md = markdown.render(r)
    assert sorted(want, key=lambda i: md.index(f"`{i}`")) == want
    # errors first, then warnings, then notes; within one, the text report's section order
    assert [k for k, _ in SECTIONS] == list(SECTION_ORDER)


def test_missing_backends_are_one_line_with_each_install_hint_whole():
    r = evaluate(ff.gpu_box(), Context(), {})
    out = text_of(r)
    missing = [n for n in BACKENDS if r.backends[n]["status"] == "missing"]
    assert len(missing) >= 2
    assert "not installed: " + ", ".join(missing) in out
    for n in missing:
        hint = r.backends[n]["reason"].removeprefix("not installed (").removesuffix(")")
        # backends that share one hint share its line; a hint too long for the line gets one of its own
        assert re.search(rf"^  (?:[a-z0-9]+, )*{n}(?:, [a-z0-9]+)*:(?: +|\n    ){re.escape(hint)}$", out, re.M), (n, hint)
        assert not re.search(rf"^{n} +\|", out, re.M)  # no table row of its own


def test_no_command_is_cut_at_80_columns():
    r = evaluate(busy_box(), Context(), {})
    out = text_of(r, width=80)
    for f in r.findings:
        if f.fix:
            assert ("fix: " + f.fix) in out, f.fix
    assert "fix: /venv/bin/python -m pip install 'nvidia-cutlass-dsl>=4.6.2'   # versions.requirement-missing" in out


def test_fix_says_it_runs_no_kernels():
    r = doctor("fix", "--backend", "sdpa")
    assert r.returncode == 0, r.stderr
    assert "runs no kernels" in r.stdout
    assert "run: attn-doctor check --json report.json; attn-doctor fix --from report.json" in r.stdout


COMMANDS = ["check", "fix", "explain", "merge", "bench"]


def test_help_has_no_raw_placeholders_or_cut_descriptions():
    top = doctor("--help").stdout
    assert "..." not in top.split("Commands:")[1].split("Backends:")[0], top
    flat = " ".join(top.split())
    assert "Backends: " + ", ".join(BACKENDS) in flat
    assert "Exit codes: 0" in flat and "1 an error finding" in flat and "2 the doctor could not" in flat
    for cmd in COMMANDS:
        out = doctor(cmd, "--help").stdout
        assert not re.search(r"<[a-z][a-z\[\] ]*>", out), (cmd, re.findall(r"<[a-z][a-z\[\] ]*>", out))
    from attn_doctor.cli import COMPILE_MODES

    assert "Compile modes (--compile-mode): " + ", ".join(COMPILE_MODES) in flat
    check = re.sub(r"-\s+", "-", " ".join(doctor("check", "--help").stdout.split()))  # the wrap breaks at hyphens
    assert ", ".join(COMPILE_MODES) in check and ", ".join(BACKENDS) in check


def test_markdown_has_one_row_for_the_missing_backends():
    from attn_doctor.render import markdown

    r = evaluate(ff.gpu_box(), Context(), {})
    md = markdown.render(r)
    missing = [n for n in BACKENDS if r.backends[n]["status"] == "missing"]
    rows = [ln for ln in md.splitlines() if ln.startswith("| ") and "| missing |" in ln]
    assert len(rows) == 1 and rows[0].startswith("| " + ", ".join(missing) + " | missing |")
    for n in missing:  # each backend's install hint (the install plan's short form), whole
        hint = r.backends[n]["reason"].removeprefix("not installed (").removesuffix(")")
        assert f"{n}: `{hint}`" in rows[0], (n, rows[0])
