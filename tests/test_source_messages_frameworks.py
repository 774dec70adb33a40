"""benchmarks/source_messages.py's frameworks listing (helper ex138, session 23): log / warnings / print lines beside the
raises, the attention-word filter, the frameworks' sample values and the backend a message's words name. Written on a
source of our own (not a framework's), shaped as the trainers write theirs."""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import source_messages as sm  # noqa: E402

SRC = '''
import logging, warnings
logger = logging.getLogger(__name__)

def pick(attn_mode, flash_attn_version, e):
    if attn_mode == "sage" and sageattn is None:
        raise RuntimeError("sage engine selected, but it can't be imported.")
    if flash_attn_version > 2:
        logger.warning_once(f"FlashAttention{flash_attn_version} has no dropout here")
    warnings.warn("xformers is slow on this card", FutureWarning)
    print(f"Failed to import flash_attn: {e}")
    logger.info("Using flash attention")
    logger.warning("dataset cache is stale")
'''


def rows(**kw):
    return sm.messages(SRC, "pkg/attn.py", **kw)


def test_without_logs_only_the_raise():
    assert [r["kind"] for r in rows()] == ["raise"]


def test_logs_lists_log_warn_and_print_sites_not_info():
    got = [(r["kind"], r["exc"], r["message"]) for r in rows(logs=True, grep=re.compile(sm.FRAMEWORK_WORDS, re.I))]
    assert got == [("raise", "RuntimeError", "sage engine selected, but it can't be imported."),
                   ("log", "WARNING", "FlashAttention2 has no dropout here"),
                   ("warn", "FutureWarning", "xformers is slow on this card"),
                   ("print", "", "Failed to import flash_attn: 64")]


def test_grep_drops_messages_without_attention_words():
    assert "dataset cache is stale" in [r["message"] for r in rows(logs=True)]
    assert "dataset cache is stale" not in [r["message"] for r in rows(logs=True, grep=re.compile(sm.FRAMEWORK_WORDS, re.I))]


def test_printed_and_framed_forms():
    r = {r["kind"]: r for r in rows(logs=True, grep=re.compile(sm.FRAMEWORK_WORDS, re.I))}
    assert sm.printed(r["log"]) == "WARNING FlashAttention2 has no dropout here"
    assert sm.printed(r["warn"]).startswith("pkg/attn.py:10: FutureWarning: xformers")
    assert '"' + sm.SITE + 'pkg/attn.py", line 7, in pick' in sm.framed_text(r["raise"])


def test_expected_backend_by_words():
    assert [sm.expected_backend(m) for m in ("flash-attn v3 is not installed", "sage engine selected", "usage message",
                                             "SDPA attention", "FlashAttention2 toggled on", "Invalid SLA payload")] == \
        ["fa3", "sage", None, "sdpa", "fa2", None]
