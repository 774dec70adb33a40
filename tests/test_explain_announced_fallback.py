"""An optional backend's import error that the program itself announces it goes on without (session 36, the lead; round
198m/unrelated: Stability-AI/stable-audio-tools#200, "No module named 'flash_attn'" over "flash_attn not installed,
disabling Flash Attention", then a traceback of a config key the library removed): that import error is the program's probe,
passed over ([announced_fallback] in attribution.toml, attribution/probes.py _announced_fallback), not the run's failure.

Every text was written by hand (2026-12-02): other programs, paths and wordings than the fixture. Positives: fa2.missing is
not reported for the probe; near misses: the same import error without the notice right under it stays fa2.missing.
"""

from __future__ import annotations

from each_case import each
from explain_top import assert_claim_no_unrelated_log, ids, tb

KEYERR = tb(("/srv/app/train.py", 88, "main", "model = build(cfg)"), ("/srv/app/models/vae.py", 301, "build", "return Encoder(**cfg)"),
            error="TypeError: Encoder.__init__() got an unexpected keyword argument 'window_size'")

PASSED_OVER = [
    ("stable-audio-like", "Seed set to 7\nNo module named 'flash_attn'\nflash_attn not installed, disabling Flash Attention\n" + KEYERR),
    ("falling-back", "ModuleNotFoundError: No module named 'flash_attn'\nflash-attn is not available, falling back to "
                     "torch attention\n" + KEYERR),
    ("two-lines-below", "No module named \"flash_attn\"\n[W] optional kernels\nFlashAttention not found; using "
                        "the math path\n" + KEYERR),
]

STILL_CLAIMED = [
    ("no-notice", "No module named 'flash_attn'\n" + KEYERR),
    ("notice-too-far", "No module named 'flash_attn'\nloading model\nsetting up\nflash_attn not installed, disabling Flash "
                       "Attention\n" + KEYERR),
    ("notice-without-fallback", "No module named 'flash_attn'\nflash_attn not installed\n" + KEYERR),
    ("a-request", "No module named 'flash_attn'\nPlease install flash_attn to continue\n" + KEYERR),
]


def test_an_announced_fallbacks_probe_is_passed_over():
    each(((n, (t,)) for n, t in PASSED_OVER), _absent)


def _absent(text: str) -> None:
    assert "fa2.missing" not in ids(text), ids(text)


def test_the_same_import_error_without_the_notice_stays_fa2_missing():
    each(((n, (t,)) for n, t in STILL_CLAIMED), _present)


def _present(text: str) -> None:
    assert "fa2.missing" in ids(text), ids(text)


def test_fa2_missing_claims_no_unrelated_log():
    assert_claim_no_unrelated_log({"fa2.missing"})
