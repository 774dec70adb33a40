"""Rows 9-11 and 6 of ../shared/reports/new-user-2026-12-03.md (helper nu41, session 41), fixed by helper nu41c with a
test each: a new user's trial of the README's commands on a CPU machine. Faked facts; no torch child."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from attn_doctor.facts import caches
import fakefacts as ff

ROOT = Path(__file__).resolve().parents[1]
SHELLS = [s for s in ("sh", "bash", "dash", "zsh") if shutil.which(s)]


# Row 9: after `fix --write-env && . ./env.sh` (TORCHINDUCTOR_CACHE_DIR and TRITON_CACHE_DIR both moved under $HOME),
# cache.moved's copy copied Triton's kernels twice: inside the whole Inductor cache (<it>/triton/, which no run reads
# once TRITON_CACHE_DIR is set) and again to TRITON_CACHE_DIR, there one level too deep (<dir>/0/<key>: Inductor's
# default is <its cache>/triton/<device>/<key>, a set TRITON_CACHE_DIR is read as <dir>/<key>). The printed line is
# run here, in each POSIX shell present, in a scratch HOME with small fake caches.
def moved_home(tmp_path: Path, monkeypatch, triton_set: bool = True) -> tuple[dict, Path, Path, Path]:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp dir"))  # a space: the line must quote
    old = tmp_path / "tmp dir" / "torchinductor_user"
    for rel, body in (("fxgraph/ab/entry", "graph"), ("aotautograd/cd/entry", "aot"),
                      ("triton/0/KEY0/k.cubin", "dev0"), ("triton/1/KEY1/k.cubin", "dev1")):
        (old / rel).parent.mkdir(parents=True, exist_ok=True)
        (old / rel).write_text(body)
    home = tmp_path / "home"
    new, tri = home / ".cache" / "torchinductor", home / ".cache" / "triton"
    env = {"TORCHINDUCTOR_CACHE_DIR": str(new), "HOME": str(home)}
    if triton_set:
        env["TRITON_CACHE_DIR"] = str(tri)
    f = ff.gpu_box()
    f["caches"] = caches.collect(env, "user")
    f["env"].update(env)
    return f, old, new, tri


def files(d: Path) -> dict:
    return {str(p.relative_to(d)): p.read_text() for p in sorted(d.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("shell", SHELLS)
def test_row_9_the_moved_caches_copy_puts_each_kernel_once_where_it_is_looked_up(tmp_path, monkeypatch, shell):
    f, old, new, tri = moved_home(tmp_path, monkeypatch)
    hit = next(x for x in ff.check(f).findings if x.id == "cache.moved")
    line = hit.fix.split("   # ")[0]
    run = subprocess.run([shell, "-c", line], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, (line, run.stderr)
    assert files(new) == {"fxgraph/ab/entry": "graph", "aotautograd/cd/entry": "aot"}  # no triton/ in it
    assert files(tri) == {"KEY0/k.cubin": "dev0", "KEY1/k.cubin": "dev1"}  # <TRITON_CACHE_DIR>/<key>
    assert "each once" in hit.fix  # the knowledge's words say why


def test_row_9_without_triton_cache_dir_the_inductor_cache_is_copied_whole(tmp_path, monkeypatch):
    f, old, new, tri = moved_home(tmp_path, monkeypatch, triton_set=False)
    hit = next(x for x in ff.check(f).findings if x.id == "cache.moved")
    run = subprocess.run(["sh", "-c", hit.fix.split("   # ")[0]], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert files(new) == files(old) and not tri.exists()  # triton/<device>/ is where Inductor looks, unset


# Row 10: `check --bogus` said "No such option: --bogus (Possible options: --verbose)": click compares the names with
# their leading `--`, which lifts --verbose past difflib's default cutoff. Only names close by themselves are offered.
@pytest.mark.parametrize("typed, offered", [("--bogus", None), ("--x", None), ("--jsn", "--json"),
                                            ("--verbos", "--verbose"), ("--no-smok", "--no-smoke")])
def test_row_10_an_unknown_option_suggests_only_close_names(capsys, typed, offered):
    from attn_doctor.cli import main

    assert main(["check", typed]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"No such option: {typed}" in err[0]
    if offered is None:
        assert "Possible options" not in err[0]
    else:
        assert err[0].endswith(f"(Possible options: {offered})")
