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


# Row 11: `bench` on a CPU-only machine printed "ceiling: bfloat16 1024^3 matmul at 0.00 TFLOP/s" and every % as
# ">100%": a CPU's bf16 matmul is no roof for its attention. On the CPU the ceiling is not measured (one torch child
# less) nor shown, and one line says why; on a GPU the report stays as recorded (fixtures/gpu/h100-issue25/hold3).
def bench_text(result: dict) -> str:
    import io

    from rich.console import Console

    from attn_doctor.render import bench as render_bench

    buf = io.StringIO()
    render_bench.render(result, Console(file=buf, width=200, no_color=True, color_system=None, soft_wrap=False))
    return buf.getvalue()


def test_row_11_bench_on_the_cpu_measures_and_shows_no_ceiling(monkeypatch):
    from attn_doctor import bench

    shapes = bench.shapes_from([256], 1, 4, None, 64, "bfloat16", False)
    plans = []

    def fake_child(plan, timeout, python=None):
        plans.append(plan)
        if plan.get("ceiling"):
            return {"records": [{"ceiling": {"dtype": "bfloat16", "n": 1024, "tflops": 0.001}}], "final": {},
                    "timed_out": False, "signal": None}
        recs = [{"shape": s, "fwd": {"median": 0.01, "tflops": 0.05, "iters": 20}} for s in plan["shapes"]]
        return {"records": recs, "final": {}, "timed_out": False, "signal": None}

    monkeypatch.setattr(bench, "run_child", fake_child)
    statuses = {"sdpa": {"status": "ok"}, "flex": {"status": "ok"}}
    result = bench.run(statuses, shapes, "cpu", backward=False, timeout=60)
    assert not any(p.get("ceiling") for p in plans) and result["ceiling"] is None
    text = bench_text(dict(result, ceiling={"dtype": "bfloat16", "n": 1024, "tflops": 0.001}))  # a saved older one
    assert "ceiling:" not in text and "%" not in text.replace("ceiling or %", "")
    assert "no matmul ceiling or %" in text
    gpu = bench.run(statuses, shapes, "cuda:0", backward=False, timeout=60)  # a GPU still measures its roof
    assert any(p.get("ceiling") for p in plans) and gpu["ceiling"]["tflops"] == 0.001


@pytest.mark.parametrize("name", ["bench", "bench2"])
def test_row_11_a_gpu_bench_reads_as_recorded(name):
    import json

    d = ROOT / "fixtures" / "gpu" / "h100-issue25" / "hold3"
    assert bench_text(json.loads((d / f"{name}.json").read_text())) == (d / f"{name}.txt").read_text()
