"""`fix --from`: reads a saved report once (so '-' reads it from stdin), and judges its facts as the
saved run asked: its --require, --config, --select and --ignore, as `check --from` does (issue 15).

The saved reports are the real CPU VM report (fixtures/cpu/check-no-smoke.json, captured 2026-11-22)
with only their `options` / `config` rewritten, as a run with those flags would have saved them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from attn_doctor.configs import load

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "fixtures" / "cpu" / "check-no-smoke.json"


def doctor(*args, stdin=None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "attn_doctor", *args], capture_output=True, text=True,
                          timeout=300, env=env, stdin=stdin)


def saved(tmp_path, config_path: str | None = None, **options) -> str:
    data = json.loads(FIXTURE.read_text())
    data["options"].update(options)
    if config_path:
        data["config"] = load(str(ROOT / config_path))
        data["options"]["config"] = config_path
    p = tmp_path / "saved.json"
    p.write_text(json.dumps(data))
    return str(p)


def fixes(*args, stdin=None) -> list[tuple[str, str | None]]:
    r = doctor("fix", *args, "--json", stdin=stdin)
    assert r.returncode == 0, r.stderr
    return sorted((x["id"], x["backend"]) for x in json.loads(r.stdout)["fixes"])


def checked(*args) -> list[tuple[str, str | None]]:
    r = doctor("check", *args, "--json", "-")
    assert r.returncode in (0, 1), r.stderr
    return sorted((x["id"], x["backend"]) for x in json.loads(r.stdout)["findings"])


def test_fix_from_stdin_reads_the_report_once():
    """It used to read stdin twice (the second read saw nothing) and exit 2."""
    with open(FIXTURE) as fh:
        from_stdin = fixes("--from", "-", stdin=fh)
    assert from_stdin == fixes("--from", str(FIXTURE))
    assert ("cache.volatile", None) in from_stdin
    with open(FIXTURE) as fh:
        r = doctor("fix", "--from", "-", "--print", stdin=fh)
    assert r.returncode == 0 and "export TORCHINDUCTOR_CACHE_DIR=" in r.stdout


@pytest.mark.parametrize("case", ["require", "ignore", "select", "config"])
def test_fix_from_honours_the_saved_runs_options(tmp_path, case):
    """What fix lists is what check --from reports for the same saved run, and differs from the bare
    facts' findings: the saved run's options were applied, not dropped."""
    opts = {"require": dict(require=["fa3"]), "ignore": dict(ignore=["cache.volatile"]),
            "select": dict(select=["torch."]), "config": dict(config_path="fixtures/configs/simpletuner-sage/config.env")}[case]
    path = saved(tmp_path, **opts)
    got = fixes("--from", path)
    assert got == checked("--from", path)
    bare = fixes("--from", str(FIXTURE))
    assert got != bare
    if case == "require":
        assert ("require.not-ok", "fa3") in got
    elif case == "ignore":
        assert [i for i, _ in got] == ["torch.cpu-build"]
    elif case == "select":
        assert [i for i, _ in got] == ["torch.cpu-build"]
    else:  # the config asks for sage, which is not installed on the CPU VM
        assert ("require.not-ok", "sage") in got


def test_fix_from_flags_given_again_win(tmp_path):
    path = saved(tmp_path, require=["fa3"])
    got = fixes("--from", path, "--require", "sdpa")
    assert ("require.not-ok", "fa3") not in got
    assert got == checked("--from", path, "--require", "sdpa")


def test_the_printed_fix_from_line_keeps_the_config_and_require_this_run_was_given(tmp_path):
    """`check --from R --config C --trainer T --require X` ends with `attn-doctor fix --from R ...`: pasted, that line must
    judge R as this run did, so it carries --config, --trainer and --require (it dropped them: ci40c, session 40, and
    `fix --from R` alone judged R without the config)."""
    from attn_doctor import api
    from attn_doctor.render.text import fix_command
    from attn_doctor.saved import load_report

    path = saved(tmp_path)
    cfg = str(ROOT / "fixtures/configs/simpletuner-sage/config.env")
    report = api.probe_report(None, ["sdpa"], 10, None, path, saved=load_report(path), config=cfg, trainer="simpletuner")
    line = fix_command(report)
    assert line.startswith(f"attn-doctor fix --from {path} ")
    assert f"--config {cfg}" in line and "--trainer simpletuner" in line and "--require sdpa" in line
    assert fix_command(report, "--write-env").endswith(" --write-env")
    plain = api.probe_report(None, None, 10, None, path, saved=load_report(path))
    assert fix_command(plain) == f"attn-doctor fix --from {path}"
