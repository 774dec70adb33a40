"""Rows of ../shared/reports/new-user-2026-12-03b.md (helper nu42, session 42) fixed with a test each: a new user's
trial of the README's commands on a CPU machine with their own trainer configs and a composed 11,800-line training log.
No torch child: faked results and explain's in-process reading."""

from __future__ import annotations

import io

from tests.each_case import each


# Row 7: `explain train.log` on a log of torch 2.6.0+cu124 (xformers' "(you have 2.6.0+cu124)" line) that ends in "CUDA out
# of memory" printed train.oom's fix as `export PYTORCH_ALLOC_CONF='expandable_segments:True'`, with the other fixes of the
# same log fitted to "torch 2.6.0+cu124, read from the input". torch reads the unified name from 2.11 on (2.9.x ignored
# expandable_segments through it, older releases never read it): pasted there, the line changes nothing. The fitted fix
# now writes the name that torch reads (checks/allocator.target_name, as check's own allocator findings do).
OOM_LOG = (
    "    PyTorch 2.5.1+cu121 with CUDA 1201 (you have {torch})\n"
    "  File \"/home/me/proj/train.py\", line 228, in main\n    loss = model(**batch).loss\n"
    "  File \"/home/me/venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py\", line 96, in "
    "sdpa_attention_forward\n    attn_output = torch.nn.functional.scaled_dot_product_attention(\n"
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.55 GiB "
    "of which 1.12 GiB is free. Of the allocated memory 20.91 GiB is allocated by PyTorch, and 1.02 GiB is reserved "
    "by PyTorch but unallocated.\n")


def oom_fix(torch: str) -> str:
    from attn_doctor.explain import examine

    hit = next(m for m in examine(OOM_LOG.format(torch=torch)).found if m.entry.id == "train.oom")
    return hit.fix


def test_row_7_the_oom_fix_sets_the_allocator_name_the_logs_torch_reads():
    def case(torch, name, other):
        fix = oom_fix(torch)
        cmd = fix.split("   # ")[0]
        assert cmd == f"export {name}='expandable_segments:True'", fix
        assert other not in cmd
        if name == "PYTORCH_CUDA_ALLOC_CONF":
            assert "torch < 2.11" not in fix and f"the name torch {torch.split('+')[0]} reads" in fix, fix

    each([("torch 2.6.0", ("2.6.0+cu124", "PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_ALLOC_CONF=")),
          ("torch 2.9.1 (ignored expandable_segments under the new name)",
           ("2.9.1+cu128", "PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_ALLOC_CONF=")),
          # near misses: a torch that reads the unified name keeps the line as written
          ("torch 2.11.0", ("2.11.0+cu130", "PYTORCH_ALLOC_CONF", "PYTORCH_CUDA_ALLOC_CONF=")),
          ("torch 2.13.0", ("2.13.0+cu130", "PYTORCH_ALLOC_CONF", "PYTORCH_CUDA_ALLOC_CONF="))], case)


def test_row_7_the_names_swap_only_in_a_literal_setting_and_never_without_a_torch():
    from attn_doctor.knowledge.tailor import Versions, _alloc_name

    old = Versions("2.6.0+cu124", "cu124", "the input (line 1)")
    both = ("export PYTORCH_ALLOC_CONF='expandable_segments:True'; unset PYTORCH_CUDA_ALLOC_CONF   # True / False "
            "capitalised (torch < 2.11: keep the old name PYTORCH_CUDA_ALLOC_CONF)")
    assert _alloc_name(both, old) == ("export PYTORCH_CUDA_ALLOC_CONF='expandable_segments:True'; unset "
                                      "PYTORCH_ALLOC_CONF   # True / False capitalised (the name torch 2.6.0 reads)")
    # near misses: a move between the names (its words are the point), an unset, no torch known, a newer torch
    moved = 'export PYTORCH_ALLOC_CONF="$PYTORCH_CUDA_ALLOC_CONF"; unset PYTORCH_CUDA_ALLOC_CONF'
    for fix, v in ((moved, old), ("unset PYTORCH_ALLOC_CONF PYTORCH_CUDA_ALLOC_CONF", old),
                   (both, Versions()), (both, Versions("2.12.0+cu130", "cu130", "x"))):
        assert _alloc_name(fix, v) == fix


# Row 9: `attn-doctor bench` on the CPU (seq 256, 4 heads, d64) printed "0.00" in both TFLOP/s columns and as the label
# of every bar (flex's 30 marks, sdpa's 22): a CPU's attention runs at a few GFLOP/s. Below 0.1 the rate keeps two
# significant digits; a GPU's table is as recorded (test_new_user_rows_s41c.py's golden hold3 outputs).
def test_row_9_a_cpu_bench_shows_its_rates_not_zeros():
    from rich.console import Console

    from attn_doctor import bench
    from attn_doctor.render import bench as render_bench

    shape = bench.shapes_from([256], 1, 4, None, 64, "bfloat16", False)[0]
    rows = [{"label": "flex", "backend": "flex", "shape": shape, "fwd": {"median": 0.0239, "tflops": 0.0028}},
            {"label": "sdpa", "backend": "sdpa", "shape": shape, "fwd": {"median": 0.0320, "tflops": 0.0021},
             "fwd_bwd": {"median": 0.2627, "tflops": 0.00072}}]
    result = {"device": "cpu", "ceiling": None, "results": rows,
              "recommendations": [{"shape": shape, "best": "sdpa", "metric": "fwd_bwd"}]}
    buf = io.StringIO()
    render_bench.render(result, Console(file=buf, width=200, no_color=True, color_system=None, soft_wrap=False))
    text = buf.getvalue()
    assert "0.00 " not in text + " " and " 0.00\n" not in text, text
    assert "0.0028" in text and "0.0021" in text and "0.00072" in text, text
    # near misses: rates of a GPU keep their form
    assert [render_bench._rate(x) for x in (0.0, 0.25, 2.5, 123.4)] == ["0.00", "0.25", "2.50", "123"]


# Row 8: `attn-doctor trace -- python -c "<a program of three lines>"` printed its header over two lines
# ("attn-doctor trace: .../python -c " then "import torch, torch.nn.fu... (program exit 0, ...)"): the program's newline
# was printed as it is. The header shows each run of whitespace as one space.
def test_row_8_the_trace_header_is_one_line_whatever_the_command_holds():
    from attn_doctor.trace.render import header
    from attn_doctor.trace.report import TraceReport

    def case(command, want):
        line = header(TraceReport(calls=[], findings=[], command=command, program_exit_code=0))
        assert "\n" not in line and "\t" not in line, line
        assert line.startswith(f"attn-doctor trace: {want} (program exit 0, "), line

    each([("a -c program", (["python", "-c", "import torch\nprint(1)"], "python -c import torch print(1)")),
          ("tabs and CRLF", (["python", "-c", "x = 1\r\n\tprint(x)"], "python -c x = 1 print(x)")),
          # near miss: a plain command reads as before
          ("plain", (["torchrun", "--nproc_per_node", "2", "train.py"], "torchrun --nproc_per_node 2 train.py"))], case)


# Row 6: with HOME=/tmp/nu42/home (writable, but under /tmp), `fix --write-env` wrote in env.sh "TORCHINDUCTOR_CACHE_DIR is
# not set: no directory under $HOME can be created here", which is untrue: it can be created, and would not last. The
# paste line said why right ("not under $HOME: /tmp/nu42/home is under /tmp, so it does not last either"); env.sh now says
# the same reason (checks/caches.persist's), and the old words only where none is given.
def test_row_6_env_sh_says_why_no_home_directory_was_written():
    from attn_doctor import envfile
    from attn_doctor.knowledge import finding
    from attn_doctor.model import Report

    def text(persist_cmd):
        f = finding("cache.volatile", var="TORCHINDUCTOR_CACHE_DIR", path="/tmp/torchinductor_u", name="inductor",
                    how="the default", why="under /tmp", used_by="torch.compile", persist_cmd=persist_cmd)
        return envfile.build(Report(tool_version="t", facts={"env": {}}, backends={}, findings=[f], options={}))[0]

    def case(reason, want):
        cmd = 'export TORCHINDUCTOR_CACHE_DIR="${CACHE_ROOT:?a directory}/torchinductor"' + (f"   # {reason}" if reason else "")
        got = text(cmd)
        assert "export TORCHINDUCTOR_CACHE_DIR" not in got and want in got, got

    each([("HOME under /tmp", ("not under $HOME: /tmp/u is under /tmp, so it does not last either",
                               "TORCHINDUCTOR_CACHE_DIR is not set: not under $HOME: /tmp/u is under /tmp, so it does not "
                               "last either; choose a directory on a persistent volume")),
          ("HOME is the problem", ("$HOME/.cache/torchinductor is the directory that is not writable",
                                   "is not set: $HOME/.cache/torchinductor is the directory that is not writable;")),
          # near miss: no reason given keeps the general words
          ("no reason", ("", "is not set: no directory under $HOME can be created here; choose"))], case)


# Row 3: a config that sets no attention (an ai-toolkit FLUX job, an axolotl YAML without flash_attention, a LLaMA-Factory
# YAML whose flash_attn key is misspelt) was shown as "attention: no attention backend; requires: nothing local", while
# the job runs the trainer's or model's default (diffusers' SDPA for ai-toolkit FLUX). The line now says what is known:
# nothing is set in the file (or, for a launch whose config file is not here, that it is not known).
def test_row_3_a_config_without_an_attention_setting_is_not_shown_as_running_none():
    from attn_doctor.render.text import config_lines

    base = {"trainer": "ai-toolkit", "trainer_title": "ai-toolkit", "format": "yaml", "path": "job.yaml",
            "attention": [], "required": []}

    def case(cfg, want):
        line = config_lines(cfg)[1]
        assert line == f"attention: {want}; requires: nothing local", line
        assert "no attention backend" not in line

    each([("nothing set", (base, "none set in the file")),
          ("config file not here", (dict(base, config_file_unread=True, format="cmdline"),
                                    "not known (its config file is not read)"))], case)
    # near miss: a setting read is shown by its name, as before
    assert config_lines(dict(base, attention=[{"name": "xformers"}], required=["xformers"]))[1] == \
        "attention: xformers; requires: xformers"


# Row 2: in a training log, an app's "flash_attn is not installed: falling back to attn_implementation='sdpa'" right under
# xformers' "xFormers can't load C++/CUDA extensions" block was shown as `fa2.not-available-fallback (warning, backend
# xformers)`, "named on line 6: Set XFORMERS_MORE_DETAILS=1": xformers takes over FA2's entries ([takes_over]), but this
# entry is FlashAttention 2's fallback by its own words, and its own line names flash_attn. Alone, that line was fa2.
XF_BLOCK = ("WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
            "    PyTorch 2.5.1+cu121 with CUDA 1201 (you have 2.6.0+cu124)\n"
            "    Python  3.11.10 (you have 3.11.7)\n"
            "  Please reinstall xformers (see https://github.com/facebookresearch/xformers#installing-xformers)\n"
            "  Memory-efficient attention, SwiGLU, sparse and more won't be available.\n"
            "  Set XFORMERS_MORE_DETAILS=1 for more details\n")


def test_row_2_flash_attentions_fallback_stays_fa2_under_an_xformers_warning():
    from attn_doctor.explain import examine

    def backends(text):
        return {m.entry.id: m.backend for m in examine(text).found}

    def case(fallback, want_other):
        got = backends(XF_BLOCK + fallback + "\n")
        assert got.get("fa2.not-available-fallback") == "fa2", got
        assert got.get("xformers.built-for-other-torch") == want_other, got  # the xformers block keeps its own

    each([("an app's logger line", ("2026-12-03 18:01:09 | WARNING  | train:102 - flash_attn is not installed: falling back "
                                    "to attn_implementation='sdpa'", "xformers")),
          ("a plain notice", ("FlashAttention2 is not installed, falling back to SDPA", "xformers"))], case)
