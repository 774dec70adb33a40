"""Rows of ../shared/reports/new-user-2026-12-03b.md (helper nu42, session 42) fixed with a test each: a new user's
trial of the README's commands on a CPU machine with their own trainer configs and a composed 11,800-line training log.
No torch child: faked results and explain's in-process reading."""

from __future__ import annotations

import io

from tests.each_case import each


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
