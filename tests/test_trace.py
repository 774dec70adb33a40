"""`attn-doctor trace -- CMD` and attn_doctor.trace(), on real scripts (tests/trace_scripts/) run with
the CPU torch of the test venv: SDPA in a loop and under sdpa_kernel, FlexAttention eager and compiled,
a tiny transformers Llama with each attn_implementation the CPU runs, a swapped F.scaled_dot_product_attention,
torchrun with two ranks (gloo), --steps and --seconds, and programs that exit non-zero or die. Then every
trace finding from faked process data (FAKED below, in the shape the hook writes), which
tests/test_fix_lines.py pastes too.

Each traced run is one subprocess (torch is imported there, never in this process). The slow one is
the transformers run (a cold torch.compile of FlexAttention on the CPU, ~20 s): there is one.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from attn_doctor import knowledge
from attn_doctor.cli import main
from attn_doctor.trace.report import build, require_specs

HERE = Path(__file__).resolve().parent
SCRIPTS = HERE / "trace_scripts"
ROOT = HERE.parent
PY = sys.executable
TIMEOUT = 600  # a loaded 2-core CI machine: torch imports alone can take seconds


def trace(tmp_path, *args, env=None, cwd=SCRIPTS, timeout=TIMEOUT):
    """Run `python -m attn_doctor trace --json OUT ARGS` as a user would; (process, report dict or None)."""
    out = tmp_path / "trace.json"
    e = {k: v for k, v in os.environ.items() if not k.startswith(("ATTN_DOCTOR_TRACE", "TORCHELASTIC_", "SLURM_"))
         and k not in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT")}
    e.update(PYTHONPATH=str(ROOT), NO_COLOR="1", TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "inductor"))
    e.update(env or {})
    p = subprocess.run([PY, "-m", "attn_doctor", "trace", "--json", str(out), *args], cwd=cwd, env=e,
                       capture_output=True, text=True, timeout=timeout)
    rep = json.loads(out.read_text()) if out.exists() else None
    return p, rep


def at(script: str, text: str) -> str:
    """script:line of the first line of tests/trace_scripts/<script> that contains text."""
    for n, ln in enumerate((SCRIPTS / script).read_text().splitlines(), 1):
        if text in ln:
            return f"{script}:{n}"
    raise AssertionError(f"{text!r} not in {script}")


def rows(rep, **match):
    return [c for c in rep["calls"] if all(c.get(k) == v for k, v in match.items())]


def ids(rep):
    return [f["id"] for f in rep["findings"]]


# ----------------------------------------------------------------------------------------------
# real scripts
# ----------------------------------------------------------------------------------------------

def test_sdpa_loop_math_flex_eager_swap_and_a_broken_hook(tmp_path):
    """One traced process: each thing misc.py does is a row at its call site, and the program's own
    stdout is byte for byte what it printed (the report is on stderr and in the JSON)."""
    p, rep = trace(tmp_path, "--", PY, "misc.py", env={"PYTHONPATH": f"{ROOT}{os.pathsep}{SCRIPTS / 'fake_backends'}"})
    assert p.returncode == 0, p.stderr[-3000:]
    assert p.stdout == ("same result through the sage swap: True\nsame result with a broken hook: True\n"
                        "user sitecustomize ran: yes\n")  # the user's own sitecustomize ran too
    assert "attn-doctor trace: " not in p.stdout and "attn-doctor trace: " in p.stderr
    block = at("misc.py", "return F.scaled_dot_product_attention(x, x, x, is_causal=True)")
    (flash,) = rows(rep, backend="sdpa", kernel="flash (CPU)", site=block)
    assert flash["site"] == block and flash["function"] == "Block.forward" and flash["count"] == 20
    assert (flash["dtype"], flash["head_dim"], flash["mask"], flash["compiled"]) == ("float32", 32, "causal", False)
    assert flash["shapes"]["q"] == [2, 4, 64, 32]
    (math,) = rows(rep, backend="sdpa", kernel="math", site=block)
    assert math["count"] == 3 and math["flash_disabled"]
    (flex,) = rows(rep, backend="flex")
    assert (flex["kernel"], flex["compiled"], flex["count"]) == ("unfused (eager)", False, 2)
    assert flex["site"] == at("misc.py", "flex_attention(q, q, q)")
    (sage,) = rows(rep, backend="sage")
    assert sage["count"] == 4 and sage["site"] == block and sage["entry"] == "sageattention.sageattn"
    (fa2,) = rows(rep, backend="fa2")
    fa2_site = at("misc.py", "flash_attn_func(q.transpose")
    assert (fa2["site"], fa2["count"], fa2["kernel"], fa2["mask"]) == (fa2_site, 3, "flash_attn_func", "causal")
    assert fa2["entry"] == "flash_attn.flash_attn_interface.flash_attn_func" and fa2["inner"] == ["sdpa"]
    (inner,) = rows(rep, backend="sdpa", site=fa2_site)
    assert inner["inside"] == "fa2" and inner["count"] == 3
    (fallback,) = rows(rep, site=at("misc.py", "x[..., :16]"))
    assert fallback["raised"].startswith("RuntimeError") and fallback["count"] == 1
    assert fallback["raised_at"] and all(x.startswith('  File "') for x in fallback["raised_at"])  # the frames, for its cause
    assert sorted(ids(rep)) == ["trace.call-raised", "trace.entry-patched", "trace.flex-eager", "trace.hook-error",
                                "trace.sdpa-flash-disabled"]
    (patched,) = [f for f in rep["findings"] if f["id"] == "trace.entry-patched"]
    assert patched["params"]["entry"] == "torch.nn.functional.scaled_dot_product_attention"
    assert patched["params"]["by"] == "sageattention.sageattn" and patched["backend"] == "sage"
    (err,) = [f for f in rep["findings"] if f["id"] == "trace.hook-error"]
    assert "planted by the test" in err["title"]
    assert rep["exit_code"] == 0 and rep["program_exit_code"] == 0


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("transformers") is None, reason="transformers is not installed (the test extra has it)")
def test_a_mask_passed_to_a_function_that_drops_it_is_named(tmp_path):
    """sageattn swapped in for SDPA and called with SDPA's attn_mask: the fake (1.0.6's signature) takes it through
    **kwargs and never reads it, as the real one does (seen on an H200, fixtures/gpu/h200-s16-faults). The trace names
    the dropped keyword at its call site; dropout_p=0.0, dropped too, changes nothing and is not named."""
    p, rep = trace(tmp_path, "--", PY, "sage_mask.py", env={"PYTHONPATH": f"{ROOT}{os.pathsep}{SCRIPTS / 'fake_backends'}"})
    assert p.returncode == 0, p.stderr[-3000:]
    assert p.stdout == "padded sample the same as SDPA's: False\n"  # what the dropped mask does to the padded sample
    site = at("sage_mask.py", "attn_mask=mask, dropout_p=0.0)")
    (masked,) = rows(rep, backend="sage", site=site)
    assert masked["ignored"] == ["attn_mask"] and masked["count"] == 3
    (plain,) = rows(rep, backend="sage", site=at("sage_mask.py", "F.scaled_dot_product_attention(q, q, q, dropout_p=0.0)"))
    assert "ignored" not in plain
    (f,) = [f for f in rep["findings"] if f["id"] == "trace.kwargs-ignored"]
    assert f["severity"] == "warning" and f["params"]["names"] == "attn_mask" and site in f["title"]
    assert "sageattention.sageattn" in f["title"]


def test_transformers_tiny_llama_each_attn_implementation(tmp_path):
    """eager computes attention itself (no row), sdpa is 2 layers x 3 training steps at the model's own
    attention line, through transformers' sdpa_attention_forward; flex_attention is compiled by transformers."""
    p, rep = trace(tmp_path, "--", PY, "hf_llama.py", "eager", "sdpa", "flex_attention")
    assert p.returncode == 0, p.stderr[-3000:]
    assert p.stdout.strip() == "hf done: eager sdpa flex_attention"
    (sdpa,) = rows(rep, backend="sdpa")
    assert re.fullmatch(r"transformers/models/llama/modeling_llama\.py:\d+", sdpa["site"]), sdpa["site"]
    assert sdpa["function"] == "LlamaAttention.forward" and sdpa["kernel"] == "flash (CPU)"
    assert sdpa["count"] == 6, "the eager model's attention must not be counted"
    assert sdpa["via"] == "transformers.integrations.sdpa_attention.sdpa_attention_forward"
    (flex,) = rows(rep, backend="flex")
    assert flex["compiled"] and flex["counted"] == "traces" and flex["kernel"] == "fused (Inductor: C++)"
    assert flex["site"] == sdpa["site"] and flex["head_dim"] == 8 and flex["mask"].startswith("block_mask(")
    assert rep["steps"] == 3 and ids(rep) == []


def test_torchrun_two_ranks_stopped_by_steps(tmp_path):
    """Every rank of `torchrun --nproc-per-node 2` is traced; --steps 2 stops a 10000-step loop on each."""
    torchrun = Path(PY).with_name("torchrun")
    cmd = [str(torchrun)] if torchrun.exists() else [PY, "-m", "torch.distributed.run"]
    with socket.socket() as s:  # a free port, as tests/test_distributed.py finds one
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    p, rep = trace(tmp_path, "--steps", "2", "--", *cmd, "--nproc-per-node", "2", "--master-addr", "127.0.0.1",
                   "--master-port", str(port), "ddp.py", env={"OMP_NUM_THREADS": "1"})
    assert p.returncode == 0, p.stderr[-3000:]
    assert "ran all 10000 steps" not in p.stdout
    (row,) = rep["calls"]
    assert row["processes"] == ["rank 0", "rank 1"] and row["count"] == 4  # 2 ranks x 2 steps x 1 layer
    assert row["site"] == at("ddp.py", "F.scaled_dot_product_attention(") and row["kernel"] == "flash (CPU)"
    assert rep["stopped"] == "steps" and rep["steps"] == 2
    ranks = {p["label"]: p for p in rep["processes"]}
    assert ranks["rank 0"]["stopped"] == ranks["rank 1"]["stopped"] == "steps"


def test_seconds_stops_an_endless_program(tmp_path):
    p, rep = trace(tmp_path, "--seconds", "1", "--", PY, "endless.py")
    assert p.returncode == 0, p.stderr[-3000:]
    assert rep["stopped"] == "seconds" and rows(rep, backend="sdpa")[0]["count"] >= 1


def test_no_attention_require_and_config(tmp_path):
    """Attention by matmul + softmax runs no backend: --require sdpa fails (exit 1), and so does a
    musubi-tuner config that asks for sage (fixtures/configs/musubi-sage.toml); each says why."""
    config = ROOT / "fixtures" / "configs" / "musubi-sage.toml"
    p, rep = trace(tmp_path, "--require", "sdpa", "--config", str(config), "--", PY, "eager_attn.py")
    assert p.returncode == 1 and p.stdout == "eager attention (1, 2, 16, 8)\n"
    assert sorted(ids(rep)) == ["trace.config-differs", "trace.no-attention", "trace.require-not-met"]
    assert "--require sdpa: no attention call ran sdpa" in p.stderr
    (cd,) = [f for f in rep["findings"] if f["id"] == "trace.config-differs"]
    assert cd["params"]["asked"] == "sage" and cd["params"]["setting"] == "sage_attn" and cd["severity"] == "error"
    (na,) = [f for f in rep["findings"] if f["id"] == "trace.no-attention"]
    assert na["severity"] == "warning" and rep["config"]["trainer"] == "musubi"


@pytest.mark.parametrize("code,rc,shows", [
    ("import sys\nprint('before')\nsys.exit(3)\n", 3, "before\n"),
    ("raise ValueError('boom')\n", 1, ""),
    ("import os\nos.abort()\n", 134, ""),
])
def test_the_programs_exit_code_is_kept(tmp_path, code, rc, shows):
    """A program that exits non-zero, raises or dies of a signal: trace exits as it did (128 + signal),
    even with --require unmet; its output passes through."""
    script = tmp_path / "prog.py"
    script.write_text(code)
    p, rep = trace(tmp_path, "--require", "flex", "--", PY, str(script), cwd=tmp_path)
    assert p.returncode == rc and p.stdout == shows
    assert rep["program_exit_code"] == rc and rep["exit_code"] == rc
    if "ValueError" in code:
        assert "ValueError: boom" in p.stderr  # the program's own traceback
    assert "trace.require-not-met" in ids(rep)


def test_api_in_process(tmp_path):
    """attn_doctor.trace() counts the calls made inside its block only; require='flex' is not met."""
    p = subprocess.run([PY, str(SCRIPTS / "api.py")], cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert p.returncode == 0, p.stderr[-3000:]
    d = json.loads(p.stdout)
    (row,) = d["report"]["calls"]
    assert row["count"] == 5 and row["site"] == "tests/trace_scripts/" + at("api.py", "return F.scaled") and row["function"] == "attend"
    assert d["ok"] is False and d["exit_code"] == 1 and ids(d["report"]) == ["trace.require-not-met"]


@pytest.mark.parametrize("argv,msg", [
    (["trace"], "give the command to run after --"),
    (["trace", "--", "no-such-command-here"], "cannot run 'no-such-command-here': command not found"),
    (["trace", "--steps", "1", "--seconds", "2", "--", "true"], "give --steps or --seconds, not both"),
    (["trace", "--require", "nope", "--", "true"], "unknown backend 'nope'"),
    (["trace", "--require", "flex:flash", "--", "true"], "only sdpa takes a kernel"),
    (["trace", "--trainer", "musubi", "--", "true"], "--trainer goes with --config"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, msg):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert msg in err and err.count("\n") == 1


def test_a_non_python_command_passes_through(tmp_path, capfd):
    """`trace -- true`: nothing to hook; no process reported, and the command's exit code is kept."""
    p, rep = trace(tmp_path, "--", "sh", "-c", "echo hi; exit 4", cwd=tmp_path)
    assert p.returncode == 4 and p.stdout == "hi\n"
    assert ids(rep) == ["trace.no-hook"]


# ----------------------------------------------------------------------------------------------
# every finding, from faked process data
# ----------------------------------------------------------------------------------------------

def _row(**kw) -> dict:
    """FAKED: one row in the shape hook.snapshot() wrote for tests/trace_scripts/misc.py on the 2-core
    CPU dev VM (torch 2.13.0+cpu, 2026-11-25); the values given override it."""
    r = {"backend": "sdpa", "kernel": "flash (CPU)", "compiled": False, "counted": "calls",
         "site": "/work/train.py:16", "function": "Block.forward", "module": "__main__", "via": None,
         "dtype": "float32", "device": "cpu", "shapes": {"q": [2, 4, 64, 32], "k": [2, 4, 64, 32], "v": [2, 4, 64, 32]},
         "head_dim": 32, "mask": "causal", "first_seen": 1.0, "pid": 100, "count": 20}
    r.update(kw)
    return r


# In the words of torch's sdp_utils.cpp (check_head_dim_size_flash), as can_use_flash_attention(debug=True)
# warns them; not captured from a GPU run.
HEAD_DIM_REASON = ("Flash attention requires q,k,v to have the same last dimension and to be less than or equal to 256. "
                   "Got Query.size(-1): 512, Key.size(-1): 512, Value.size(-1): 512 instead.")


# As the hook recorded it on the H100 (fixtures/gpu/h100-issue21/fa4.json: torch 2.11.0+cu130, flash-attn-4
# 4.0.0b36), with the frames the hook now keeps (their paths and lines from torch 2.11's _fa4.py, FAKED here).
FA4_ROUTE_RAISED = {
    "raised": "ValueError: too many values to unpack (expected 2)",
    "raised_at": ['  File "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/_fa4.py", line 255, in _fa4_flash_attention_forward_impl',
                  '  File "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/_fa4.py", line 226, in _fa4_run_forward'],
}


def test_a_head_dim_flash_refuses_is_named_when_torch_gave_no_reason():
    """On the H100 torch printed its reason as a C++ warning the hook cannot read (h100-issue21/log.txt)."""
    gpu = dict(device="cuda:0", dtype="bfloat16", mask="causal", function="<module>")
    procs = [{"pid": 1, "rank": "0", "steps": 1, "attention_steps": 1, "errors": [], "patched": [], "rows": [
        _row(kernel="efficient", site="/work/a.py:1", head_dim=512, **gpu),
        _row(kernel="efficient", site="/work/b.py:2", head_dim=100, **gpu),
        _row(kernel="efficient", site="/work/c.py:3", head_dim=128, **gpu)]}]
    got = {x.params["site"]: x.params["reason"] for x in build(procs, command=["python", "a.py"], program_exit_code=0).findings
           if x.id == "trace.sdpa-not-flash"}
    assert "head dim 512 is over 256" in got["/work/a.py:1"]
    assert "head dim 100 is not a multiple of 8" in got["/work/b.py:2"]
    assert got["/work/c.py:3"] == "no reason given (torch printed none)"  # nothing is made up


def test_a_raised_call_with_a_known_cause_names_it():
    procs = [{"pid": 1, "rank": "0", "steps": 1, "attention_steps": 1, "errors": [], "patched": [], "rows": [
        _row(kernel="flash (FA4 via SDPA)", site="/work/f.py:6", mask="causal", device="cuda:0", dtype="bfloat16",
             **FA4_ROUTE_RAISED)]}]
    f = [x for x in build(procs, command=["python", "f.py"], program_exit_code=0).findings if x.id.startswith("trace.call")]
    assert [x.id for x in f] == ["trace.call-raised-known"]
    assert f[0].params["cause_id"] == "sdpa.fa4-route" and "flash-attn-4" in f[0].fix
    # the same error without the frames that name torch's FA4 route: no cause is claimed
    procs[0]["rows"][0].pop("raised_at")
    f = [x for x in build(procs, command=["python", "f.py"], program_exit_code=0).findings if x.id.startswith("trace.call")]
    assert [x.id for x in f] == ["trace.call-raised"]


def every_trace_finding() -> list:
    """FAKED process data (the shape the hook writes, values of an H100 job where they say cuda) that
    makes every trace.* finding fire. tests/test_fix_lines.py pastes their fix lines."""
    gpu = dict(device="cuda:0", dtype="bfloat16")
    procs = [{"pid": 100, "rank": "0", "steps": 3, "attention_steps": 3, "rows": [
        _row(),
        _row(backend="flex", kernel="unfused (eager)", site="/work/train.py:30", function="main", mask="none", count=2),
        _row(kernel="math", flash_disabled=True, count=3),
        _row(kernel="efficient", site="/work/a.py:1", head_dim=512, reason=HEAD_DIM_REASON, **gpu),
        _row(kernel="efficient", site="/work/b.py:2", mask="bool mask", **gpu),
        _row(kernel="efficient", site="/work/c.py:3", mask="bool mask (causal)", **gpu),
        _row(kernel="efficient", site="/work/d.py:4", device="cuda:0", dtype="float32"),
        _row(backend="cute", kernel="flash_attn_func", site="/work/e.py:5", mask="causal", entry="flash_attn.cute.interface.flash_attn_func",
             raised="RuntimeError: planted", **gpu),
        _row(kernel="flash (FA4 via SDPA)", site="/work/f.py:6", mask="causal", **FA4_ROUTE_RAISED, **gpu),
    ], "errors": [{"where": "sdpa", "error": "RuntimeError: x"}],
        "patched": [{"entry": "torch.nn.functional.scaled_dot_product_attention", "by": "sageattention.core.sageattn",
                     "backend": "sage", "defined": None},
                    {"entry": "transformers ALL_ATTENTION_FUNCTIONS['sdpa']", "by": "mytrainer.attn.fast_attention",
                     "backend": None, "defined": "/work/mytrainer/attn.py:10"}]}]
    cfg = {"trainer": "musubi", "trainer_title": "musubi-tuner", "path": "/work/musubi-sage.toml", "required": ["sage"],
           "attention": [{"name": "sage_attn = true", "setting": "sage_attn", "backend": "sage", "sdpa_kernel": None}]}
    found = build(procs, required=["fa2", "sdpa:cudnn"], config=cfg, command=["python", "train.py"],
                  program_exit_code=0, cwd="/work").findings
    # a swapped-in sageattn passed SDPA's attn_mask, which it drops (apart: a sage row would meet the config's ask above)
    found += build([{"pid": 2, "rows": [_row(backend="sage", kernel="sageattn", site="/work/g.py:7", mask="none (attn_mask dropped)",
                                            entry="sageattention.sageattn", ignored=["attn_mask"], **gpu)], "errors": []}],
                   program_exit_code=0, cwd="/work").findings
    # compiled flex given a key and a value of different lengths, which it did not refuse (the H200, torch 2.11)
    found += build([{"pid": 3, "rows": [_row(backend="flex", kernel="fused (Inductor: Triton)", compiled=True, site="/work/h.py:8",
                                            mask="none", shapes={"q": [2, 8, 1024, 128], "k": [2, 8, 512, 128],
                                                                 "v": [2, 8, 256, 128]}, **gpu)], "errors": []}],
                   program_exit_code=0, cwd="/work").findings
    found += build([{"pid": 1, "rows": [], "errors": []}], command=["python", "train.py"], program_exit_code=0).findings
    found += build([], command=["bash", "run.sh"], program_exit_code=0).findings
    # `python` on PATH was another interpreter than the checked env's (pyenv's, without torch): nu41 row 5
    found += build([{"pid": 4, "python": "/root/.pyenv/versions/3.11.7/bin/python3.11", "torch": None, "rows": [],
                     "errors": []}], command=["python", "train.py"], program_exit_code=1,
                   checked="/work/.venv/bin/python").findings
    return found


def test_every_trace_entry_fires_and_renders_fully():
    found = every_trace_finding()
    trace_ids = {e.id for e in knowledge.entries().values() if e.section == "trace"}
    assert {f.id for f in found} == trace_ids
    for f in found:
        assert f.section == "trace"
        for s in (f.title, f.fix):
            assert s and not re.search(r"\{\w+\}", s) and "None" not in s, (f.id, s)


def test_findings_say_what_the_rows_say():
    by_id: dict[str, list] = {}
    for f in every_trace_finding():
        by_id.setdefault(f.id, []).append(f)
    (nf,) = by_id["trace.sdpa-not-flash"]
    assert "a.py:1" in nf.title and "less than or equal to 256" in nf.title and nf.severity == "warning"
    assert by_id["trace.sdpa-fp32"][0].severity == "info" and "d.py:4" in by_id["trace.sdpa-fp32"][0].title
    assert "c.py:3" in by_id["trace.sdpa-causal-mask"][0].title and "b.py:2" in by_id["trace.sdpa-mask"][0].title
    assert [f.params["want"] for f in by_id["trace.require-not-met"]] == ["fa2", "sdpa:cudnn"]
    (cd,) = by_id["trace.config-differs"]
    assert cd.severity == "error" and "musubi-tuner config /work/musubi-sage.toml asks for sage (sage_attn)" in cd.title
    # a CPU row on math with flash enabled (dropout, say) is the CPU's own choice: no finding
    quiet = build([{"pid": 1, "rows": [_row(kernel="math")], "errors": []}], program_exit_code=0).findings
    assert quiet == []


def test_a_key_and_value_of_different_lengths_is_named_only_where_the_call_returned():
    """FAKED rows: k and v that differ in anything but the head dim, on a call that returned, are an error finding; the
    same shapes on a call that raised (SDPA refuses them) are the raise's own finding, and a value head dim other than the
    key's is allowed."""
    def found(**kw):
        row = _row(backend="flex", kernel="fused (Inductor: Triton)", compiled=True, site="/work/h.py:8", mask="none", **kw)
        return [f for f in build([{"pid": 1, "rows": [row], "errors": []}], program_exit_code=0, cwd="/work").findings
                if f.id == "trace.kv-shape-mismatch"]
    (f,) = found(shapes={"q": [2, 8, 1024, 128], "k": [2, 8, 512, 128], "v": [2, 8, 256, 128]})
    assert f.severity == "error" and "2x8x512x128" in f.title and "2x8x256x128" in f.title and "h.py:8" in f.title
    assert found(shapes={"q": [2, 8, 1024, 128], "k": [2, 8, 512, 128], "v": [2, 8, 512, 64]}) == []
    assert found(shapes={"q": [2, 8, 1024, 128], "k": [2, 8, 512, 128], "v": [2, 8, 256, 128]}, raised="RuntimeError: x") == []
    assert found(shapes={"q": [2, 8, 1024, 128]}) == []  # a compiled row of an older hook: no k and v recorded


def test_merge_sums_ranks_and_exit_code():
    """FAKED: the same call site on two ranks (rows as the hook writes them)."""
    procs = [{"pid": 10 + r, "rank": str(r), "rows": [_row(device=f"cuda:{r}", kernel="flash", dtype="bfloat16", count=5)],
              "errors": []} for r in (0, 1)]
    rep = build(procs, required=["sdpa:flash"], cwd="/work", program_exit_code=0)
    (row,) = rep.calls
    assert row["count"] == 10 and row["processes"] == ["rank 0", "rank 1"] and row["devices"] == ["cuda:0", "cuda:1"]
    assert row["site"] == "train.py:16" and rep.exit_code == 0 and rep.ok
    assert build(procs, required=["sdpa:cudnn"], program_exit_code=0).exit_code == 1
    assert build(procs, required=["sdpa:cudnn"], program_exit_code=7).exit_code == 7


def test_require_specs():
    assert require_specs(["sdpa:flash,flex", "cute"]) == ["sdpa:flash", "flex", "cute"]


def test_only_a_function_that_never_reads_its_kwargs_is_said_to_drop_them():
    """The hook's reading of a wrapped function (hook._swallowed_kwargs): its declared parameters where it takes **kwargs
    and no instruction loads them; None where it forwards them, reads them in a closure or a tuple, or takes none."""
    from attn_doctor.trace import hook

    def swallows(q, k, v, tensor_layout="HND", is_causal=False, **kwargs):  # sageattention 1.0.6's signature
        return q

    def forwards(q, k, v, **kw):
        return swallows(q, k, v, **kw)

    def in_closure(q, **kw):
        return (lambda: kw)()

    def in_a_pair(q, **kw):
        a, b = q, kw
        return a, b

    def none(q, k=None):
        return q

    assert hook._swallowed_kwargs(swallows) == {"q", "k", "v", "tensor_layout", "is_causal"}
    assert [hook._swallowed_kwargs(f) for f in (forwards, in_closure, in_a_pair, none, print)] == [None] * 5
