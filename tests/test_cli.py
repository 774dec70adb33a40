"""The command line as a user (or CI) runs it: exit codes, stdout/stderr discipline, atomic JSON,
plain text that fits 80 columns. Runs `python -m attn_doctor` in subprocesses; the runs that need
a deterministic report re-evaluate the captured CPU fixture with --from (probing nothing)."""

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
from each_case import each
from attn_doctor.render.text import make_console, render

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = str(ROOT / "fixtures" / "cpu" / "check-no-smoke.json")
ANSI = re.compile(r"\x1b\[")


def doctor(*args, env=None, **kw) -> subprocess.CompletedProcess:
    e = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1")
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "attn_doctor", *args], capture_output=True, text=True,
                          timeout=300, env=e, **kw)


def one_line_error(r: subprocess.CompletedProcess, *needles: str) -> None:
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert r.stderr.startswith("attn-doctor: error: "), r.stderr
    assert r.stderr.count("\n") == 1, r.stderr
    assert "Traceback" not in r.stderr
    assert r.stdout == ""
    for n in needles:
        assert n in r.stderr, r.stderr


def too_wide(text: str, width: int = 80) -> list[str]:
    """Lines wider than `width`, except a line that is one unbreakable token (after its indent) and
    a `fix:` (check) or `paste:` (fix) line, or a missing backend's install hint (`  fa2: pip ...`),
    which are never wrapped so that copying them gives the whole command."""
    return [ln for ln in text.splitlines() if len(ln) > width and len(ln.strip().split()) > 1
            and not ln.lstrip().startswith(("fix: ", "paste: ", "run: "))
            and not re.match(r"  [a-z0-9]+: +(pip|cd|git|python) ", ln)
            and not re.match(r" +\S*python3? -m pip ", ln)]


# -- exit codes --------------------------------------------------------------------------------

def test_exit_0_on_the_fixture():
    """The CPU VM's report has warnings only."""
    r = doctor("check", "--from", FIXTURE)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "exit 0" in r.stdout


def test_strict_makes_a_warning_fail():
    r = doctor("check", "--from", FIXTURE, "--strict")
    assert r.returncode == 1
    assert "exit 1" in r.stdout


def test_require_a_missing_backend_fails():
    r = doctor("check", "--from", FIXTURE, "--require", "fa3")
    assert r.returncode == 1
    assert "[require.not-ok]" in r.stdout


def test_require_a_present_backend_passes():
    r = doctor("check", "--from", FIXTURE, "--require", "sdpa,flex")
    assert r.returncode == 0, r.stdout


# One live probe of this machine (~3 s of CPU: its children import torch) serves the three tests that need a live text
# report: `python -m attn_doctor check --no-smoke --require fa3 --json PATH`, run through runpy inside a child that
# then writes which heavy modules the doctor's own process imported to a file (so stdout and stderr stay the doctor's).
HEAVY = ('torch', 'triton', 'flash_attn', 'flash_attn_interface', 'sageattention', 'xformers', 'cutlass', 'quack',
         'numpy')


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    d = tmp_path_factory.mktemp("live")
    code = ("import json, runpy, sys\n"
            f"sys.argv = ['attn_doctor', 'check', '--no-smoke', '--require', 'fa3', '--json', {str(d / 'r.json')!r}]\n"
            "try:\n"
            "    runpy.run_module('attn_doctor', run_name='__main__', alter_sys=True)\n"
            "    rc = 0\n"
            "except SystemExit as e:\n"
            "    rc = e.code\n"
            f"heavy = sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r})\n"
            f"open({str(d / 'heavy.json')!r}, 'w').write(json.dumps(heavy))\n"
            "sys.exit(rc)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1"))
    return r, d


def test_live_require_missing_backend_fails(live):
    """REAL: this machine, probed. fa3 is not installed anywhere the doctor runs in CI."""
    r, d = live
    assert r.returncode == 1, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    assert "[require.not-ok]" in " ".join(r.stdout.split())
    assert json.loads((d / "r.json").read_text())["exit_code"] == 1


@pytest.mark.parametrize("args,needle", [
    (["check", "--frobnicate"], "--frobnicate"),
    (["check", "--no-smoke", "--backend", "nope"], "unknown backend 'nope'"),
    (["check", "--no-smoke", "--require", "sdpa,nope"], "unknown backend 'nope'"),
    (["check", "--no-smoke", "--compile-mode", "fast"], "--compile-mode"),
    (["check", "--no-smoke", "--timeout", "0"], "--timeout"),
    (["check", "--no-smoke", "--timeout", "abc"], "--timeout"),
    (["frobnicate"], "frobnicate"),
])
def test_bad_flags_are_one_line_exit_2(args, needle):
    one_line_error(doctor(*args), needle)


def test_from_a_file_that_is_not_a_report(tmp_path):
    cases = {
        "not-json.json": "this is not json\n",
        "other.json": '{"hello": "world"}',
        "list.json": "[1, 2, 3]",
        "no-facts.json": '{"schema": "attn-doctor.report/1"}',
        "binary.json": None,
    }
    for name, text in cases.items():
        p = tmp_path / name
        if text is None:
            p.write_bytes(b"\xff\xfe\x00\x01")
        else:
            p.write_text(text)
        one_line_error(doctor("check", "--from", str(p)), str(p))
    one_line_error(doctor("check", "--from", str(tmp_path / "missing.json")), "missing.json")
    one_line_error(doctor("check", "--from", str(tmp_path)), "directory")


def test_from_stdin():
    with open(FIXTURE) as fh:
        r = doctor("check", "--from", "-", "--json", "-", stdin=fh)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["facts"] == json.loads(Path(FIXTURE).read_text())["facts"]


# -- JSON --------------------------------------------------------------------------------------

def test_json_stdout_is_exactly_one_document():
    """REAL: probed. Nothing but the JSON on stdout (no progress, no text report)."""
    r = doctor("check", "--no-smoke", "--json", "-")
    doc = json.loads(r.stdout)  # raises if anything else is on stdout
    assert r.stdout.count('"schema": "attn-doctor.report/1"') == 1
    assert doc["exit_code"] == r.returncode
    assert set(doc) >= {"schema", "tool_version", "exit_code", "required", "options", "backends", "findings", "facts"}
    assert doc["schema"] == "attn-doctor.report/1"
    assert set(doc["backends"]) == {"sdpa", "flex", "cute", "fa2", "fa3", "sage", "xformers"}
    for f in doc["findings"]:
        assert set(f) == {"id", "severity", "section", "title", "fix", "backend", "detail", "params"}


def test_json_path_is_written_atomically(tmp_path):
    """The report replaces the file by a rename (new inode, never a half-written file in place),
    leaves no temporary file behind, and the text report still goes to stdout."""
    out = tmp_path / "report.json"
    out.write_text("old content\n")
    inode = out.stat().st_ino
    r = doctor("check", "--from", FIXTURE, "--json", str(out))
    assert r.returncode == 0, r.stderr
    doc = json.loads(out.read_text())
    assert doc["schema"] == "attn-doctor.report/1"
    assert out.stat().st_ino != inode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]
    assert "attn-doctor" in r.stdout and "{" not in r.stdout.splitlines()[0]


def test_json_path_replaces_a_symlink_not_its_target(tmp_path):
    target = tmp_path / "precious.txt"
    target.write_text("keep me\n")
    link = tmp_path / "report.json"
    link.symlink_to(target)
    r = doctor("check", "--from", FIXTURE, "--json", str(link))
    assert r.returncode == 0, r.stderr
    assert target.read_text() == "keep me\n"
    assert not link.is_symlink() and json.loads(link.read_text())["schema"] == "attn-doctor.report/1"


def test_json_into_a_missing_directory_is_exit_2_and_writes_nothing(tmp_path):
    dest = tmp_path / "nope" / "report.json"
    r = doctor("check", "--from", FIXTURE, "--json", str(dest))
    assert r.returncode == 2 and "does not exist" in r.stderr and r.stderr.count("\n") == 1
    assert not (tmp_path / "nope").exists()


def test_json_onto_a_directory_is_exit_2(tmp_path):
    r = doctor("check", "--from", FIXTURE, "--json", str(tmp_path))
    assert r.returncode == 2 and "is a directory" in r.stderr
    assert list(tmp_path.iterdir()) == []


def test_saved_report_round_trips(tmp_path):
    """check --from a report re-evaluates the same facts to the same findings."""
    out = tmp_path / "again.json"
    r = doctor("check", "--from", FIXTURE, "--json", str(out))
    assert r.returncode == 0
    first, again = json.loads(Path(FIXTURE).read_text()), json.loads(out.read_text())
    assert again["facts"] == first["facts"]
    assert sorted(f["id"] for f in again["findings"]) == sorted(f["id"] for f in first["findings"])
    assert again["options"]["from"] == FIXTURE


# -- plain text --------------------------------------------------------------------------------

def test_live_plain_text_fits_80_columns(live):
    """REAL: probed, piped (not a terminal) and NO_COLOR: no escape codes, 80 columns."""
    r, _ = live
    assert r.returncode in (0, 1), r.stderr
    assert not ANSI.search(r.stdout) and not ANSI.search(r.stderr)
    assert too_wide(r.stdout) == []
    assert all(ln == ln.rstrip() for ln in r.stdout.splitlines())
    assert r.stderr == ""  # no progress line when stderr is not a terminal
    assert "Fleet" not in r.stdout.splitlines()  # a single machine's report has no fleet heading
    assert "attn-doctor" in r.stdout and not r.stdout.lstrip().startswith("{")  # the text; the JSON went to its file


def test_pipe_without_no_color_is_plain_too():
    r = doctor("check", "--from", FIXTURE, env={"NO_COLOR": ""})
    assert not ANSI.search(r.stdout) and too_wide(r.stdout) == []


def test_forced_terminal_has_color():
    """The other side of the switch: rich on a (pretend) terminal does emit escapes, so the
    no-escape assertions above can fail."""
    from rich.console import Console

    from attn_doctor.report import evaluate
    from attn_doctor.checks import Context

    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=80, color_system="standard")
    render(evaluate(ff.cpu_box(), Context()), console)
    assert ANSI.search(buf.getvalue())


def _scenario_reports():
    """(id, (scenario,)) of every scenario of tests/test_findings.py, the cases of the two tests below: one item each
    over every scenario (tests/each_case.py), where they were ~570 items (each built in CI's 4 workers; session 42, ci42d)."""
    import test_findings as tf

    return [(f"{s.id}:{s.name}", (s,)) for s in tf.SCENARIOS]


@pytest.mark.parametrize("verbose", [False, True], ids=["plain", "verbose"])
def test_every_scenario_renders_in_80_columns(verbose):
    """Every finding the suite can produce, rendered as plain text: nothing wider than 80 columns
    (except one unbreakable token), every finding's id and fix shown."""
    each(_scenario_reports(), lambda sc: _renders_in_80_columns(sc, verbose))


def _renders_in_80_columns(sc, verbose):
    report = ff.check(sc.build(), **sc.ctx)
    buf = io.StringIO()
    render(report, make_console(file=buf), verbose=verbose)
    text = buf.getvalue()
    assert not ANSI.search(text)
    assert too_wide(text) == []
    squashed = "".join(text.split())  # folding may break any line: compare without whitespace
    for f in report.findings:
        assert f"[{f.id}]" in squashed, f.id
        assert "".join(f.fix.split()) in squashed, f.fix
    assert f"exit {report.exit_code}" in text


def test_every_scenario_fix_output_in_80_columns():
    """`attn-doctor fix` as plain text: nothing wider than 80 columns but the `paste:` lines, and each
    finding's fix on one `paste:` line, whole (a wrapped command breaks when copied)."""
    each(_scenario_reports(), _fix_output_in_80_columns)


def _fix_output_in_80_columns(sc):
    from attn_doctor import envfile, fixes

    report = ff.check(sc.build(), **sc.ctx)
    _, plan = envfile.build(report, compile_mode=sc.ctx.get("compile_mode"))
    buf = io.StringIO()
    fixes.render(make_console(file=buf), report, plan, verbose=True)
    text = buf.getvalue()
    assert not ANSI.search(text)
    assert too_wide(text) == []
    lines = text.splitlines()
    pasted = [ln.lstrip()[len("paste: "):] for ln in lines if ln.lstrip().startswith("paste: ")]
    for i, ln in enumerate(lines):  # an install plan: "paste:" then its block, unindented, to a blank line
        if ln.strip() == "paste:":
            block = []
            for nxt in lines[i + 1:]:
                if not nxt.strip() or nxt.startswith(" " * 8):
                    break
                block.append(nxt)
            pasted.append("\n".join(block))
    # require.not-ok's fix is one line (attn-doctor fix --require NAME); `fix` prints the plan it carries
    assert sorted(pasted) == sorted(f.params.get("plan") or f.fix for f in report.findings if f.fix)


@pytest.mark.parametrize("extra,verdict", [([], 0), (["--strict"], 1), (["--json", "-"], 0)])
def test_broken_pipe_is_quiet_and_keeps_the_verdict(extra, verdict):
    """`attn-doctor check | head -0`: the reader is gone before the report is written. Nothing on
    stderr, and the exit code is still the report's (a CI step with pipefail sees the verdict)."""
    p = subprocess.Popen([sys.executable, "-m", "attn_doctor", "check", "--from", FIXTURE, *extra],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    p.stdout.close()
    err = p.stderr.read().decode()
    rc = p.wait(timeout=120)
    assert err == ""
    assert rc == verdict


def test_the_doctor_process_imports_no_backend(live):
    """REAL: a full `check --no-smoke` in one process; torch and the backends were only imported by
    its children (they can crash; the doctor must not)."""
    r, d = live
    assert r.returncode in (0, 1) and "Traceback" not in r.stderr, r.stderr
    assert json.loads((d / "r.json").read_text())["schema"] == "attn-doctor.report/1"  # the check ran to its end
    assert json.loads((d / "heavy.json").read_text()) == []
