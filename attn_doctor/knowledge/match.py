"""Match an error text or a whole log against the knowledge entries' patterns, best first.

How a log is read (`scan`):
- The whole input, streamed: a file or stdin of any size is read in blocks of whole lines, in
  constant memory, and every line number is counted from the start of the input. A lone `\r` is a progress bar's
  redraw (its last state is read), except in an input with no `\n` in its first block: its `\r`s are its line ends
  (an old Mac's file, a capture without LF: `_line_ends`).
- A prefilter keeps it fast: every pattern has needles (literal strings one of which any match must
  contain, `needles()`). Each line's shape (lower-cased, digits and a-f as 0) is looked up once: a training
  log repeats a few hundred shapes millions of times, so only new shapes are searched for needles.
  The patterns then run only on the lines around a line holding one of their needles (SPAN bytes
  and SPAN_LINES lines either side, more than any pattern stretches across lines), so a 50 MB log
  with no error in it costs one pass of bytes operations. A line holds a pattern's needle and is
  still not worth its look where it lacks one of the pattern's other literal groups (factors: `only ... works`, `_C.pyd`
  beside `xformers`): on the line for a pattern that cannot span lines, in the window around it for one that can.
  Lines near each other that only line_local patterns search are read as one text, and such a text of many lines by
  the kinds of its lines (a log repeating a backend's warning each step: a few kinds, the digits aside, digit_table
  and digit_blind): a 20 MB log of one repeated line naming xformers took 52 s, now 5 s
  (benchmarks/explain_repeated_lines.py).
- A line longer than 2 * LINE_READ bytes (a minified JSON log, a log flattened onto one line) is read at its first
  and last LINE_READ bytes only, and every pattern's in-line gap reads at most LINE_GAP characters (knowledge.bounded),
  so a 2 MB line costs what 32 KB do. A text searched at once of GATE_CHARS or more (a block of long lines that each name a
  backend) is searched by a pattern only where it holds one of each of the pattern's literal groups in its own letters
  (text_gate: a line's shape writes `bf16` as `0000`), by the kinds of its lines from KIND_CHARS on, and a sentence's
  pattern (a `body` entry's) reads no line longer than HEAD_LINE_BYTES (benchmarks/explain_longlines.py).
- An entry's score is how specific its best hit is (the literal characters of the pattern), plus a
  little for each further pattern that hit.
- Specific beats generic: an entry whose hits all lie on lines already claimed by a more specific
  entry is dropped (the same error line is explained once). A `generic` entry (a catch-all) is
  judged line by line: it is reported when one of its lines has no specific entry that can be a
  failure's cause on or near it (within NEAR lines: the same traceback), so a note or a warning
  elsewhere in the log never hides an error nobody names.
- Weak evidence last: an entry's `frames` (a frame of the call that fails: diffusers' xformers probe, a
  backend's own files) stand for it only where its message is cut off or unknown, far from every line anything
  else explains (knowledge/triage.toml triage.through-backend is frames only).
- Several errors in one log are each reported, ranked so a root cause comes before its symptoms:
  by where they first occur (an earlier error is usually the cause of the later ones: a warning
  about the driver before "no CUDA GPUs", a failed import before the crash it leads to, the first
  exception of a chained traceback), except that a `symptom` entry (a message printed after some
  other failure: the build's final "error: command ... failed", ninja's FAILED line, a trainer's
  fallback warning, a watchdog timeout) comes after every cause found, and an entry whose message
  reports another's failure (`explained_by`: xformers' "No operator found" and the extension that did
  not load) comes after that one when both are found, wherever each stands. A catch-all kept on a line whose specific reading
  is no cause (a warning, a symptom) comes after every finding but the notes: the specific one says what it says, and why.
  Notes (info entries:
  deprecations, optional mismatches) come last, except a note that a found entry is `explained_by`
  where nothing found is a cause (no prebuilt wheel, under the build's final error): it is the root.
- attn-doctor's own output names its findings as `[some.id]` (text) or `"id": "some.id"` (JSON);
  pasting it into `explain -` explains those findings.
"""

from __future__ import annotations

import bisect
import codecs
from itertools import accumulate, chain
import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Iterable, Iterator

try:  # the regex compiler and its constants (the parser is the knowledge's regex_parser)
    from re import _compiler as _sre_compiler, _constants as _sre_constants
except ImportError:  # pragma: no cover - Python 3.10
    import sre_compile as _sre_compiler  # type: ignore[no-redef]
    import sre_constants as _sre_constants  # type: ignore[no-redef]

from . import LINE_GAP, Entry, bounded, can_match_newline, class_end, compile_pattern, entries, index_cache, \
    regex_parser
_R = index_cache.module_pack(__name__)  # this module's patterns: re.compile through the compiled-pattern cache

BLOCK = 4 << 20  # bytes read at a time (cut at the last line end)
LONG_LINE = 4 * BLOCK  # a line longer than this is cut (a log with no line ends at all)
SPAN = 16_384  # bytes either side of a needle's line that a match may reach (tests/test_explain_stream.py)
SPAN_LINES = 8  # and at least this many lines either side
CONTEXT_LINES = 90  # lines kept around each entry's first hit (attribution/ looks 80 up and down)
CONTEXT_CHARS = 2_000  # of each such line
MAX_SHAPES = 200_000  # line shapes remembered (then forgotten and searched again)
MAX_HITS = 50  # occurrences of one pattern that are counted
MAX_LATER = 20  # lines of a catch-all's other hits remembered (where it is reported when its first is explained)
MIN_NEEDLE = 4  # characters, one outside ASCII counting two (_weight): a shorter needle would make too many lines worth a look
# Of a line longer than twice this, the patterns (and the prefilter's needles) read its first and last this many bytes
# (a minified JSON log, a traceback flattened onto one line: each of 70-130 patterns read every byte of a 2 MB line,
# 6-16 s in all; benchmarks/explain_long_lines.py, benchmarks/explain_pattern_cost.py). As far as a match may reach
# from its needle's line (SPAN).
LINE_READ = 16_384
_ELIDED = b"\0" * (LINE_GAP + 1)
HEAD_LINES = 5  # an input's first lines: a pasted report's title and first sentences (Entry.head)
# and the blank lines among them, up to this many lines in all: the blank line a pasted issue puts under its title is no
# sentence (helper ex42, session 7: microsoft/GUI-Actor#15's "Many bug has show in flash-attn realese 2.8.0 or over." on line 6);
# one more line, not more: at 7, three training rounds' unrelated posts were read as failures (their sixth and seventh lines)
HEAD_MAX_LINES = 6
# helper ex192 (session 33; round 83 hiyouga/LlamaFactory#9631: a title, a sentence, three `{'loss': 0.0, 'grad_norm': nan, ...}`
# lines, then "只要从sdpa（默认）切换到fla即可" on line 6): a line that is only a flat dict of scalars (a trainer's logged metrics, a
# JSON config's one line) says nothing, as a blank line does: it is not counted among the head's HEAD_LINES sentences, and the head
# still ends at HEAD_MAX_LINES lines
METRIC_ROW = _R.compile(rb"""[ \t]*\{[ \t]*['"][\w./ -]{1,40}['"][ \t]*:[ \t]*[-+\w.'"]{1,40}"""
                        rb"""(?:[ \t]*,[ \t]*['"][\w./ -]{1,40}['"][ \t]*:[ \t]*[-+\w.'"]{1,40})*[ \t]*,?[ \t]*\}[ \t]*\r?$""")
# helper ex34u (session 34; round 6b sgl-project/sglang#12178: a title, then "Machine: RTX Pro 6000", "CUDA:12.8", "TORCH: >2.7.0",
# then the sentences, the one that names FA3 and its SM80-90 on line 6): a line that is only an environment field and its short
# value (OS, GPU, CUDA, driver, Python, torch, a package's version: what issue templates and users list above the report) says
# nothing either; the head still ends at HEAD_MAX_LINES lines. Not a line whose value says something ("GPU: not detected",
# "Error: ..." has no field name of these)
ENV_ROW = _R.compile(rb"""[ \t]*(?:(?:[-*+]|\xe2\x80\xa2)[ \t]+)?(?:\*\*)?(?i:os|platform|system|machine|hardware|device|gpus?|graphics(?:[ \t]+card)?|"""
                     rb"""card|vram|ram|memory|cpu|cuda(?:[ \t]+(?:version|toolkit))?|cudnn|nvcc|(?:nvidia[ \t]+)?driver(?:[ \t]+version)?|"""
                     rb"""python(?:[ \t]+version)?|(?:py)?torch(?:[ \t]+version)?|transformers|diffusers|accelerate|triton|comfyui|"""
                     rb"""environment|env|distro|kernel|compiler|gcc|docker(?:[ \t]+image)?|image)(?:\*\*)?[ \t]*(?:\*\*)?[:=][ \t]*"""
                     rb"""(?:\*\*)?(?![^\n]*(?i:\bnot\b|n't\b|\bno\b|\bfail|\berror|\bcrash))[^\n]{1,60}\r?$""")
# helper ex41p (session 41; benchmarks/results/explain-policies-s41.md): where blank lines end the head before its HEAD_LINES
# sentences (a title, a blank, "Hi,", a blank: two sentences are left), the catch-alls that need a complaint of a particular
# shape (a speed complaint, a backend left unused, a crash, wrong or NaN numbers) read on to the head's HEAD_LINES-th sentence,
# within HEAD_WIDE_LINES lines. Not the broad ones (prose.fails, .build, .gpu, .import, .compile, .said: any "error", "install",
# "GPU" or a guess such as "it is possible that FlashAttention2 is causing this"): counting only said lines for every prose
# entry matched 9 more training texts and claimed 9 more unrelated logs, all 9 by the broad ones; for these four, 6 more texts
# (first-measurement misses of rounds 36m, 105m, 148m, 198m, 202m) and no unrelated log.
HEAD_WIDE_LINES = 12
HEAD_WIDE = frozenset({"prose.slow", "prose.ignored", "prose.crash", "prose.numbers"})
HEAD_VIEWS, HEAD_VIEW_CHARS = 2_048, 8_000_000  # report heads whose prose patterns' matches are kept (_Index.head_spans)
# helper ci42a (session 42): a look of a head pattern (_head_finds) that reads its line alone (line_local: prose.toml's LINE,
# a backend's names, a failure's words) holds at a line's start or not by that line's text alone, wherever the line stands;
# a process that reads many heads (tests/test_findings.py reads every knowledge example as explain's text, as a failed
# import's traceback under each backend, as torch's, as a CUDA warning: ~9,000 heads of ~3,500 texts, ~3 ms of looks each)
# meets the same lines again in other texts and other indexes. Once it has read LOOK_LINES_AFTER heads (a short explain
# reads a few, and parses no look for line_local), each such look's verdict on a line is kept by the line's text, for up to
# LOOK_LINES lines of LOOK_LINE_CHARS characters in all (then forgotten, and kept anew): in test_findings.py's four tests
# over the examples, 302,000 looks answered so, 90,000 run.
LOOK_LINES, LOOK_LINE_CHARS, LOOK_LINES_AFTER = 32_768, 4_000_000, 64
HEAD_LINE_BYTES = 4_096  # and none longer: a longer line is no title or sentence (a progress bar's rewrites, a JSON dump)
# A report's head ends at a line longer than HEAD_TITLE_BYTES (helper ex162, session 28): no training text has a head line
# over 1 KB (2592 texts, the longest of the 408 with a prose finding 424 bytes, benchmarks/results/explain-longlines-s28.md),
# and the head's prose patterns cost ~1 ms per KB of each line (prose.toml LINE's line-wide looks, tried at every
# character): a build log's 2 KB nvcc commands on its first lines cost ~0.4 s there; a longer line is no title.
HEAD_TITLE_BYTES = 1_024
ID_TAG_SCORE = 200  # attn-doctor's own `[id]` is as specific as a match gets
ANSI = _R.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
ANSI_BYTES = _R.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]")
# The same escapes as a terminal capture or a copied `less` view shows them, in caret notation (`^[[36m`), and a
# carriage return shown as `^M` at a line's end (round 17: vLLM's Ray workers' coloured prefixes)
CARET_BYTES = _R.compile(rb"\^\[\[[0-9;?]*[ -/]*[@-~]|\^M(?=\r?\n|$)", re.M)
# What launchers, loggers and quoting put before every line of a program's output, stripped before matching (the
# line keeps its number): torchrun's `[rank0]: `, Ray's and vLLM's `(Worker pid=12) `, docker compose's
# `trainer-1  | `, vLLM's `ERROR 10-15 07:53:38 [core.py:708] `, logging's `2026-03-01 12:00:01,123 - ERROR - `,
# glog's `E0301 12:00:01.123456  1234 file.cc:12] `, a CI runner's ISO time, and a Markdown quote's `> `; and the
# multi-node launchers' (mpirun --tag-output's `[1,0]<stderr>:`, srun --label's `3: `, pdsh's and DeepSpeed's runner's
# `worker-1: ` or `10.0.0.2: `, kubectl logs --prefix's `[pod/x/c] `), journalctl's `Nov 28 07:20:34 host python[12]: ` and
# docker build's (BuildKit's plain progress: a step and its seconds, `#12 1830.5 `).
# Repeated: a launcher's prefix often stands before a logger's. A logger's level and prefix stay on INFO and DEBUG
# lines (entries tell a notice from a failure by them), loguru's `time | LEVEL | ` stays whole, and a time alone
# stays (a line of a log, not a report's title: prose reads titles). Round 17: Ray's and vLLM's prefix with more
# than a name (`(VllmWorker rank=0 pid=12) `, SkyPilot's `(task, pid=12) `), docker compose's for a service with a
# container_name (`worker      | `, no index), a rich logger's time-only `12:00:01-123456 ERROR    `, and a GUI's
# wrapper that logs a child's stderr at INFO or DEBUG (FluxGym's `[2026-03-01 12:00:01] [INFO] `, SwarmUI's
# `2026-03-01 12:00:01.123 [Debug] [ComfyUI-0/STDERR] `, a rich time, Python logging's `date - INFO - `) where what
# follows is a traceback's line:
# a traceback is a failure whatever level its wrapper gave it.
LINE_PREFIX = _R.compile(
    rb"^(?:"
    rb"\[(?:rank|default)\d+\]: ?"
    rb"|\((?:[\w.:=-]+,? )*pid=\d+(?:, ip=[\d.]+)?\) "
    rb"|[\w.-]+[-_]\d+ +\| "
    rb"|[a-z][\w.-]* +\| (?![^\n]*\s\|(?:\s|$))"  # (not a table's first column: no other bar on the line)
    rb"|(?:ERROR|WARNING|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \[[\w./-]+:\d+\] "
    rb"|\d\d:\d\d:\d\d-\d{6} (?:ERROR|WARNING|CRITICAL) +"
    rb"|(?:\[\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[,.]\d+)?\] \[[A-Za-z]+\] "
    rb"|\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[,.]\d+)? \[[A-Za-z]+\] \[[\w./-]+\] "
    rb"|\d\d:\d\d:\d\d-\d{6} [A-Z]+ +(?! )"
    rb"|\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[,.]\d+)?\]?(?: - | )\[?(?:INFO|DEBUG)\]?(?: - |:? )"
    # helper ex65 (session 10): Hydra's job log (`[2026-03-01 12:00:01,123][__main__][INFO] - `: NeMo, Lightning templates) and
    # the Hugging Face example scripts' (`03/01/2026 12:00:01 - INFO - __main__ - `), at INFO or DEBUG before a traceback's line
    rb"|\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:[,.]\d+)?\]\[[\w.-]+\]\[(?:INFO|DEBUG)\] - "
    rb"|\d\d/\d\d/\d{4} \d\d:\d\d:\d\d - (?:INFO|DEBUG) - [\w.-]+ - )"
    rb"(?=Traceback \(most recent call last\)|\s*File \"|\s{4}|[A-Za-z_][\w.]*(?:Error|Exception)\b)"
    # ... and at ERROR, WARNING or CRITICAL before any line (as the ISO time's below)
    rb"|\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:[,.]\d+)?\]\[[\w.-]+\]\[(?:ERROR|WARNING|CRITICAL)\] - "
    rb"|\d\d/\d\d/\d{4} \d\d:\d\d:\d\d - (?:ERROR|WARNING|CRITICAL) - [\w.-]+ - "
    # a rank's tag as launchers other than torchrun write it, a space in it (Lightning's `[rank: 0] `, `[Rank 3] `, `[rank 1]: `;
    # not `[rank0] ` without a colon, which stays as it was)
    rb"|\[[Rr]ank:? \d+\]:? ?"
    # helper ex131 (session 22; benchmarks/explain_decorations.py pytest, bar): pytest's `E       ` before an exception's lines,
    # and a bare `| ` a log viewer or a compose service without a name puts before each line (not a table's row: as above)
    # (pytest's long form is `E` and 7 spaces, its short form `E` and 3; a table's row: a bar after a blank on the same line)
    rb"|E(?: {7}| {3}(?! {4}))"
    rb"|\| (?![^\n]*[ \t]\|(?:[ \t\n]|\Z))"
    rb"|\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[,.]\d+)?(?:Z|[+-]\d\d:?\d\d)?\]?(?: - | )"
    rb"\[?(?:ERROR|WARNING|WARN|CRITICAL)\]?(?: - |:? )"
    rb"|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z "
    rb"|[EWF]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ [\w.-]+:\d+\] "
    rb"|\[\d+,\d+\]<std(?:out|err)>: ?"
    rb"|\d{1,4}: "
    rb"|(?:\d{1,3}(?:\.\d{1,3}){3}|[\w-]{0,40}?(?:worker|node|host|gpu)[\w-]{0,20}?\d{1,5}): "
    rb"|\[pod/[\w.-]+/[\w.-]+\] "
    rb"|#\d{1,4} \d+\.\d+ "  # docker build's plain progress (BuildKit): `#12 1830.5 ` (session 6, ex35)
    rb"|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d [\w.-]+ [\w.@/-]+(?:\[\d+\])?: "
    rb"|> "
    # helper ex68 (session 10; benchmarks/explain_robustness.py chat, details): a chat's time before a line pasted into Slack or
    # Discord or their export (`[12:03 PM] `: with AM/PM, no logger writes it so), a quote's empty line (`>`), and the tags of
    # GitHub's collapsed block around a log (`<details><summary>Log</summary>`, `</details>`: markup, never the log's)
    rb"|\[\d{1,2}:\d\d(?::\d\d)? ?[AaPp]\.?[Mm]\.?\] "
    rb"|>[ \t]*(?=\n|\Z)"
    # helper ex140 (session 23; benchmarks/explain_decorations.py gha, htmlpre): GitHub Actions' workflow command before a line of
    # its raw log (`##[error]`, `##[warning]`, `##[group]`: after its time, above), and a web page's source of a code block opening
    # on the log's first line (`<pre><code class="language-python">`; its closing tags, _pasted_dress below)
    rb"|##\[(?:error|warning|notice|debug|command|group|endgroup)\]"
    rb"|<pre(?:[ \t][^\n>]{0,80})?>(?:<code(?:[ \t][^\n>]{0,80})?>)?"
    rb"|</?details(?: [^\n>]{0,40})?>[ \t]*"
    rb"|<summary>[^\n<]{0,120}</summary>[ \t]*(?=\n|\Z)"  # (`$` is not a line end where _AFTER_LINE_END reads it)
    rb"|[\"'`](?=[A-Z][\w.]*(?:Error|Exception|Warning): )"  # an error quoted in prose: `"RuntimeError: vmap: ...`
    # helper ex59 (session 9; round 41m's Ascend/sglang#16, missed at its blind measurement): the same behind a curly or CJK
    # quote (`“AssertionError: ...”`); behind a short lead of words, _quoted_error_leads below
    rb"|(?:\xe2\x80[\x9c\x98]|\xe3\x80[\x8c\x8e])(?=[A-Z][\w.]*(?:Error|Exception|Warning): )"
    rb")+", re.M)
# The bytes a prefix can begin with (every byte the first character of one of LINE_PREFIX's ways takes; none of them matches
# empty): a line that begins with another (a loss dict's `{`, a progress bar's space, a path's `/`) is passed over at its
# first byte instead of trying each of the ~45 ways (a 50 MB training log: the pass took ~40% less;
# tests/test_explain_prefix_guard.py keeps the class a superset of what the ways begin with, so nothing else changes).
PREFIX_FIRST = rb"""[-"#'(.0-9<>A-Z\[_`a-z|\xe2\xe3]"""
_AFTER_LINE_END = _R.compile(b"\n(?=" + PREFIX_FIRST + b")" + LINE_PREFIX.pattern[1:])  # the same after a line end: a literal first, found fast
# An error quoted in the middle of a sentence, behind a short lead that says what follows is the error ("Service failed and
# the error message “AssertionError: ...”", "It fails with 'ValueError: ...'", "启动报错“ImportError: ..."): the lead is cut so that
# the line starts with the exception, as the entries read it (helper ex59, session 9: round 41m's Ascend/sglang#16, missed at its
# blind measurement). The lead is up to 60 characters of words (letters, spaces, commas, CJK; no path, symbol, version or quote)
# naming no backend or framework (a line that names one keeps it: round 21m's "torch.compiled flex_attention + NJT raises `...`"
# is a title prose.toml reads), ending in an error word and the quote. Looked for only where a quote stands before an
# exception's name (a scan, not a pattern tried at every line start: benchmarks/explain_50mb.py).
_QUOTED_ERROR = _R.compile(rb"(?:[\"'`]|\xe2\x80[\x9c\x98]|\xe3\x80[\x8c\x8e])(?=[A-Z][\w.]*(?:Error|Exception): )")
_QUOTED_LEAD = _R.compile(
    rb"(?![^\n\"'`\xe2\xe3]{0,80}?(?i:\b(?:\w*attn\w*|\w*atten\w*|xformers?|sage\w*|flex\w*|sdpa|triton|cute|fa[234]|vllm|sglang|\w*torch\w*)\b))"
    rb"[A-Za-z ,\xe4-\xe9\x80-\xbf]{0,60}?(?:\b[Ee]rror(?: message)?|\b[Ee]xception|\bmessage|\bfails? with|\bfailed with|\braises?|"
    rb"\braised|\bthrows?|\bthrew|\xe6\x8a\xa5\xe9\x94\x99)[ \t]*(?:is|was|of|:|\xef\xbc\x9a)?[ \t]*")

# The same lead ending in a colon, no quote ("Loading the model raises: ValueError: ...", "It throws: AssertionError: ...",
# "and it gives the error: ..."): the writer's words for what follows, cut as a quoted error's lead is (helper ex166, session 29:
# the catch-all for an exception's line reads it at the line's start, and a refusal after the colon read as the writer's prose)
_COLON_ERROR = _R.compile(rb"(?::|\xef\xbc\x9a)[ \t]*(?=[A-Z][\w.]*(?:Error|Exception): )")

# A lead of words in another script alone, no quote, before an English exception on its line (`运行时报错：RuntimeError: ...`,
# `Ошибка: ImportError: ...`, `エラーが出ます：ValueError: ...`): no ASCII in it, so it names no backend, and it is cut as a
# quoted error's lead is (helper ex131, session 22; benchmarks/explain_decorations.py zh-lead, ja-lead, ko-lead, ru-lead)
_NATIVE_LEAD = _R.compile(rb"[\x80-\xff][\x80-\xff \t]{0,120}?:?[ \t]*(?=[A-Z][\w.]*(?:Error|Exception): )")


LEAD_REACH = 160  # bytes from a line's start to its quoted exception, at most


def _quoted_error_leads(data: bytes) -> bytes:
    """`data` with the lead of each line that quotes an error mid-sentence cut (see _QUOTED_ERROR); line numbers stay.
    Each `Error: ` / `Exception: ` is found with bytes.find (a regex scan of every byte costs a 50 MB log 0.3 s)."""
    hits = []
    for word in (b"Error: ", b"Exception: "):
        at = data.find(word)
        while at >= 0:
            # (the line's start looked for within the lead's reach only: from each hit back to the line's start, a line of
            # megabytes that repeats an exception was read once per hit, 7 s of a 20 MB line: benchmarks/explain_longlines.py)
            lo = max(0, at - LEAD_REACH - 1)
            start = data.rfind(b"\n", lo, at) + 1
            if (start or not lo) and at - start <= LEAD_REACH:
                m = _QUOTED_ERROR.search(data, start, at + len(word))
                if m is None and data[start] < 0x80:
                    m = _COLON_ERROR.search(data, start, at + len(word))  # the lead's colon, no quote (helper ex166)
                if m is not None and m.start() > start and m.start() - start <= 64:
                    hits.append((start, m.start(), m.end(), False))
                elif data[start] >= 0x80 and (m := _NATIVE_LEAD.match(data, start, at + len(word))) and m.end() > start:
                    hits.append((start, m.end(), m.end(), True))
            at = data.find(word, at + len(word))
    if not hits:
        return data
    out, last = [], 0
    for start, quote, end, native in sorted(set(hits)):
        if start >= last and (native or _QUOTED_LEAD.fullmatch(data, start, quote)):
            out.append(data[last:start])
            last = end
    if not out:
        return data
    out.append(data[last:])
    return b"".join(out)


# A lead in another script that says an error follows, before words that are not an exception's line (`运行时报错：<a title>`,
# `エラーが出ます：...`, `오류 발생: ...`, `Ошибка: ...`): the error word is the lead's, said of what follows, not of a backend the rest
# of the line names (helper ex149, session 25; benchmarks/explain_decorations.py zh-lead .. ru-lead: 68-70 unrelated logs each
# claimed when the lead stood on their title). The lead is cut as _NATIVE_LEAD's is, and the rest is read on its own: it names a
# failure in its own words or is none. No ASCII in the lead (it names no backend), an error word in it, a colon at its end and
# words after it on the line.
_NATIVE_ERROR_WORDS = tuple(w.encode() for w in ("报错", "錯誤", "错误", "出错", "エラー", "오류", "에러", "Ошибка", "ошибка"))
_NATIVE_ERROR_LEAD = _R.compile(
    rb"[\x80-\xff \t]{0,90}?(?:"
    # the error word, then only the words that say it appeared (not a field's name: a Windows event log's `錯誤模組名稱： x.dll`)
    + "|".join(("(?:报错|錯誤|错误|出错)(?:了|如下|信息|提示)?", "エラー(?:が(?:出ます|出る|出ました|発生しました|発生します))?",
                "(?:오류|에러) ?(?:발생(?:함|했습니다|합니다)?|가 (?:납니다|발생합니다))?",
                "(?:Ошибка|ошибка)")).encode()
    + rb"(?: \xd0\xbf\xd1\x80\xd0\xb8(?: (?:[\xd0\xd1][\x80-\xbf])+){1,2})?"  # `Ошибка при запуске:` (a Cyrillic word or two after `при`)
    + rb")[ \t]*(?::|\xef\xbc\x9a)[ \t]*(?=[^\s])")
# A lead whose rest is a fragment in the lead's own scripts stays: the writer goes on in their own language and the lead's error
# word is the only predicate of what follows ("运行报错：flash_attn 在 V100 上", "Ошибка: sageattention на RTX 2080": the backend and
# where it failed; review rev25: cut, such a line named no failure). A fragment: a word of those scripts (_NATIVE_WORD: Cyrillic,
# kana and CJK ideographs, Hangul; not CJK punctuation, U+3000-303F), at most _FRAGMENT_CHARS characters, no sentence end or
# question (a sentence of its own says its failure in its own words: "SageAttention を使うと RTX 5090 で黒い画像しか出ません。"),
# no tag before it ("[Plan] ...", "[Usage]: ..."), no topic noun after it ("...的flash_attn问题": a title naming its subject).
# A lead over words of another script (an English title, an exception's line) is the dress ex149 cut.
_NATIVE_WORD = _R.compile(rb"[\xd0-\xd3][\x80-\xbf]|\xe3[\x81-\xbf][\x80-\xbf]|[\xe4-\xe9\xea-\xed][\x80-\xbf]{2}")
_NOT_FRAGMENT = _R.compile(r"[.!?。！？]|吗|呢|如何|怎么|怎样|是否|ですか|ますか|까|\bли\b|\A\s*[\[【]|(?:问题|問題|疑问|求助|咨询)\s*\Z")
_FRAGMENT_CHARS = 40


def _writers_fragment(rest: bytes) -> bool:
    """Is `rest` (a line after a native error lead) a fragment of the writer's own that the lead's error word is said of?"""
    if not _NATIVE_WORD.search(rest):
        return False
    text = rest.decode("utf-8", "replace").strip()
    return len(text) <= _FRAGMENT_CHARS and not _NOT_FRAGMENT.search(text)


def _native_error_leads(data: bytes) -> bytes:
    """`data` with the lead of each line that opens with an error word of another script and a colon cut (see
    _NATIVE_ERROR_LEAD), unless the rest of its line is the writer's fragment (_writers_fragment); line numbers stay.
    Each error word is found with bytes.find."""
    cuts = set()
    for word in _NATIVE_ERROR_WORDS:
        at = data.find(word)
        while at >= 0:
            start = data.rfind(b"\n", 0, at) + 1
            if at - start <= 90 and data[start] >= 0x80 and (m := _NATIVE_ERROR_LEAD.match(data, start)) is not None \
                    and m.end() > at:
                end = data.find(b"\n", m.end())
                if not _writers_fragment(data[m.end():len(data) if end < 0 else end]):
                    cuts.add((start, m.end()))
            at = data.find(word, at + len(word))
    return _without_spans(data, cuts)


# IPython's and Jupyter's tracebacks (Colab, notebooks), rewritten line for line into Python's own form, which the
# entries' frame patterns read: `File /p/x.py:3, in f(a)` and the older `/p/x.py in f(a)` -> `File "/p/x.py", line 3,
# in f`, `Cell In[4], line 2` and `<ipython-input-4-..> in <module>` -> a frame of the cell, `----> 3 code` -> the
# frame's code, and the header `ImportError   Traceback (most recent call last)` -> Python's. (Old IPython prints
# the frame's line number on its `---->` line only: its frame says line 0.)
_IPY_FRAME = _R.compile(rb"^File (\S[^\n]*?\.pyx?):(\d+), in ([\w<>.]+)(?:\([^\n]*\))?[ \t]*$", re.M)
# Colab wraps a frame's file in a Markdown link to its viewer (`[/usr/lib/x.py](https://localhost:8080/#) in f(a)`) and
# names a cell's code `<cell line: 0>` (round 17)
_IPY_FUNC = rb"(<cell line: \d+>|[\w<>.]+)"
_IPY_OLD_FRAME = _R.compile(rb"^\[?((?:[A-Za-z]:)?[\\/~][^\n\]]*?\.pyx?)(?:\]\([^)\s]*\))? in " + _IPY_FUNC
                            + rb"(?:\([^\n]*\))?[ \t]*$", re.M)
_IPY_CELL = _R.compile(rb"^(?:Cell In ?\[\d*\], line (\d+)|\[?(<ipython-input-[\w-]+>)(?:\]\([^)\s]*\))? in "
                       + _IPY_FUNC + rb"(?:\([^\n]*\))?)[ \t]*$", re.M)
_IPY_ARROW = _R.compile(rb"^-{1,4}> ?\d+ ", re.M)
_IPY_HEAD = _R.compile(rb"^[\w.]+(?:Error|Exception|Interrupt|Exit)[ \t]{2,}Traceback \(most recent call last\)[ \t]*$", re.M)


def _python_frames(data: bytes) -> bytes:
    data = _IPY_HEAD.sub(b"Traceback (most recent call last):", data)
    data = _IPY_FRAME.sub(rb'  File "\1", line \2, in \3', data)
    data = _IPY_OLD_FRAME.sub(rb'  File "\1", line 0, in \2', data)
    data = _IPY_CELL.sub(lambda m: b'  File "%s", line %s, in %s' % (m.group(2) or b"<cell>", m.group(1) or b"0",
                                                                      m.group(3) or b"<module>"), data)
    return _IPY_ARROW.sub(b"    ", data)


# HTML's escapes of quotes and brackets, in text copied from a web page's source or an API that escapes it
# (`cannot import name &#39;x&#39;`): read as the characters (a line keeps its number).
HTML_ENTITY = _R.compile(rb"&(?:quot|apos|#39|#x27|#34|#x22|lt|gt|amp);")
_HTML_CHARS = {b"&quot;": b'"', b"&apos;": b"'", b"&#39;": b"'", b"&#x27;": b"'", b"&#34;": b'"', b"&#x22;": b'"',
               b"&lt;": b"<", b"&gt;": b">", b"&amp;": b"&"}
ID_TAG = _R.compile(r"\[([a-z0-9][a-z0-9_.-]*\.[a-z0-9_.-]+)\]|\"id\":\s*\"([a-z0-9][a-z0-9_.-]*\.[a-z0-9_.-]+)\"")
# A line's shape: lower-cased, and every digit and hex letter (a-f) as 0, so lines that differ only
# in numbers, hashes, addresses or run ids share one shape. A needle is shaped the same way (a
# needle's shape in a line's shape is necessary for the needle in the line), in one translate.
_SHAPE = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ123456789abcdef",
                         b"000000" + b"GHIJKLMNOPQRSTUVWXYZ".lower() + b"0" * 15)
_SHAPE_STR = str.maketrans("abcdef123456789", "000000000000000")


@dataclass
class Match:
    entry: Entry
    score: float  # how specific the best hit is
    evidence: str  # the line of the first hit
    position: int  # where in the input it first matched (earlier errors are often the cause)
    line: int = 0  # 1-based line of the first hit, counted from the start of the input
    count: int = 1  # on how many lines it shows
    lines: list[int] = field(default_factory=list)  # the lines that matched (first few)


@lru_cache(maxsize=2)
def _parsed(pattern: str):
    """`pattern` parsed (the last two kept: needles, spans_lines, factors and line_local read a pattern one after the
    other; kept longer, the parse trees of every pattern make each garbage collection slower; not changed)."""
    return regex_parser.parse(pattern)


def literal_chars(pattern: str) -> int:
    """How many literal characters any match of `pattern` must contain: its specificity. Character
    classes and wildcards count 0, an alternation counts its weakest branch, a repeat its minimum."""
    return _min_literals(_parsed(pattern))


def _min_literals(sub) -> int:
    n = 0
    for op, av in sub:
        name = str(op)
        if name == "LITERAL":
            n += 1
        elif name == "BRANCH":
            n += min(_min_literals(b) for b in av[1])
        elif name == "SUBPATTERN":
            n += _min_literals(av[-1])
        elif name == "ATOMIC_GROUP":
            n += _min_literals(av)
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            n += av[0] * _min_literals(av[2])
    return n


def required_literal(pattern: str) -> str:
    """The longest run of characters every match contains (lower-cased), or "" when there is none."""
    alts = needles(pattern, min_len=1, masked=False)
    return alts[0] if len(alts) == 1 else ""


def _caseless(c: str) -> bool:
    """Can `c` stand in a needle: ASCII (the shape lower-cases it), or a character without case (CJK,
    Devanagari: bytes.lower() leaves their UTF-8 alone, and so does IGNORECASE)?"""
    return c.isascii() or c.lower() == c.upper() == c


_ZERO_WIDTH = {"AT", "ASSERT", "ASSERT_NOT"}
_REPEATS = {"MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"}


def _group_rank(group: tuple[str, ...]) -> tuple[int, int, int]:
    """How good a needle group is: its shortest string longest, then the fewest strings, then the most characters."""
    return min(map(len, group)), -len(group), sum(map(len, group))


def _weight(needle: str) -> int:
    """A needle's length as the prefilter values it: a character outside ASCII counts two (a two-character CJK word is
    as rare in a log as a four-letter ASCII one)."""
    return len(needle) + sum(1 for c in needle if ord(c) > 127)


def _better(a: tuple[str, ...], b: tuple[str, ...] | None) -> bool:
    return b is None or _group_rank(a) > _group_rank(b)


@lru_cache(maxsize=None)
def needles(pattern: str, min_len: int = MIN_NEEDLE, masked: bool = True) -> tuple[str, ...]:
    """Literal strings (lower-cased; digits as 0 when `masked`) one of which every match of `pattern`
    contains: the prefilter's needles. () when no such set has strings of `min_len` (_weight) or
    more (the pattern is then run on every line: tests/test_explain_stream.py keeps that from
    happening to a shipped pattern)."""
    groups: list[tuple[str, ...]] = []
    _factors(_parsed(pattern), groups, min_len=1, every_way=False)
    alts = None
    for g in groups:  # the best group long enough; of equal ones, the first
        if min(map(_weight, g)) >= min_len and _better(g, alts):
            alts = g
    if not alts:
        return ()
    if masked:
        alts = tuple(sorted({shape(a) for a in alts}))
    return alts


def _factors(sub, out: list[tuple[str, ...]], min_len: int = 3, every_way: bool = True) -> None:
    """Append to `out` each literal group every match of the parsed sequence `sub` holds: a run of literals, or a
    branch each of whose ways holds one of a set of literals, each one element of the sequence or of a group or a
    repeat (at least once) that every match passes through, each alternative `min_len` bytes or more (UTF-8). What a
    lookaround reads is not part of the match (it may lie on another line): skipped, as are optional parts (`?`, `*`,
    `{0,n}`). A branch gives the group of each way's best one joined, and with `every_way` also the k-th of each
    (needles() takes the best group of all, from the first join only)."""
    run: list[str] = []

    def add(group):
        if group and min(len(a.encode()) for a in group) >= min_len:
            out.append(group)

    def flush():
        if run:
            add(("".join(run),))
            run.clear()

    for op, av in sub:
        name = str(op)
        if name == "LITERAL":
            c = chr(av)
            if c == "\n" or not _caseless(c):
                flush()
            else:
                run.append(c.lower())
        elif name in _ZERO_WIDTH:
            continue  # takes no characters (a lookaround's literals are not the match's)
        elif name == "SUBPATTERN":
            inner = list(av[-1])
            if inner and all(str(o) == "LITERAL" and chr(a) != "\n" and _caseless(chr(a)) for o, a in inner):
                run.extend(chr(a).lower() for _, a in inner)
            else:
                flush()
                _factors(av[-1], out, min_len, every_way)
        elif name == "BRANCH":
            # one group of each way, joined: a group of the branch (every way's match holds one of them). Each way's
            # groups best first, the k-th of each (or its last) joined, for k up to the most groups a way has
            flush()
            ways = []
            for b in av[1]:
                groups: list[tuple[str, ...]] = []
                _factors(b, groups, min_len, every_way)
                if not groups:
                    break
                ways.append(sorted(groups, key=_group_rank, reverse=True))  # (stable: of equal groups, the first)
            else:
                for k in range(max(map(len, ways)) if every_way else 1):
                    add(tuple(sorted(set().union(*(w[min(k, len(w) - 1)] for w in ways)))))
        elif name in _REPEATS and av[0] >= 1:
            flush()
            _factors(av[2], out, min_len, every_way)
        elif name == "ATOMIC_GROUP":
            flush()
            _factors(av, out, min_len, every_way)
        else:
            flush()
    flush()


@lru_cache(maxsize=None)
def factors(pattern: str, min_len: int = 3) -> tuple[tuple[str, ...], ...]:
    """Every literal group (alternatives, lower-cased, shaped as needles are: digits and a-f as 0) that every match of
    `pattern` holds one of, each alternative `min_len` bytes or more (UTF-8): the prefilter marks a line hot for a
    pattern that cannot span lines only where the line's shape holds one alternative of each (its needles are one
    such group). Each alternative is a run without a line end, so it lies on one line."""
    out: list[tuple[str, ...]] = []
    _factors(_parsed(pattern), out, min_len)
    groups = {tuple(sorted({shape(a) for a in g})) for g in out}
    return tuple(sorted(groups))


@lru_cache(maxsize=None)
def line_factors(pattern: str) -> tuple[tuple[str, ...], ...]:
    """The literal groups a line's shape must hold for a pattern that cannot span lines (_Index.line_groups): factors()
    down to single characters, less those whose alternatives the shape writes as digits alone (`FA2` is `000`: every
    number holds it). A short literal beside the needle is what rules most such lines out: attn.return-value's needle
    `return` is on every `return fn(*args, **kwargs)` line of a warning's traceback, and its match needs a backtick
    (helper ex181: 7,252 lines of benchmarks/explain_50mb.py's log each searched, ~0.2 s of its ~2 s). factors()'s own groups
    are kept too: a branch's groups are joined way by way, so the groups of another min_len are other joins."""
    short = (g for g in factors(pattern, 1) if not any(set(a) <= {"0"} for a in g))
    return tuple(sorted(set(factors(pattern)).union(short)))


def _lookaround_factors(sub, out: list[tuple[str, ...]]) -> None:
    """Append to `out` the literal groups (as _factors finds them) of each positive lookaround that every match of the
    parsed `sub` passes through: what it reads lies in the searched text too, though maybe not in the match."""
    for op, av in sub:
        name = str(op)
        if name == "ASSERT":
            _factors(av[1], out, min_len=1)
            _lookaround_factors(av[1], out)
        elif name == "SUBPATTERN":
            _lookaround_factors(av[-1], out)
        elif name in _REPEATS and av[0] >= 1:
            _lookaround_factors(av[2], out)
        elif name == "ATOMIC_GROUP":
            _lookaround_factors(av, out)


@lru_cache(maxsize=None)
def text_factors(pattern: str) -> tuple[tuple[str, ...], ...]:
    """Every literal group (alternatives, lower-cased, not shaped) of which a text where `pattern` matches holds one
    (folded: _fold), its positive lookarounds' included: a `head` pattern is not run on a report's head that lacks one
    (_Scanner._region; ~40 prose patterns of 2-11 KB each were half of a short input's scan)."""
    out: list[tuple[str, ...]] = []
    tree = _parsed(pattern)
    _factors(tree, out, min_len=1)
    _lookaround_factors(tree, out)
    return tuple(sorted({tuple(sorted(set(g))) for g in out}))


# The characters other than an ASCII letter's two cases that IGNORECASE matches to it (`İ` and `ı` to i, the Kelvin sign to
# k, the long s to s: tests/test_match_shortcuts.py asks the engine), folded to it, as str.lower() does the rest
_FOLDS = str.maketrans({"\u0130": "i", "\u0131": "i", "\u212a": "k", "\u017f": "s"})


def _fold(text: str) -> str:
    """`text` lower-cased so that each character a case-blind literal (ASCII, or a character without case) matches is that
    literal: a literal group's alternative absent from it is absent from `text` for the case-blind pattern too."""
    return text.lower() if text.isascii() else text.translate(_FOLDS).lower()


def shape(needle: str) -> str:
    """A (lower-cased) needle as the prefilter sees lines: digits and a-f as 0."""
    return needle.translate(_SHAPE_STR)


# The parsed sequences one item of a parsed pattern holds, by the item's kind: a group's, each way of a branch, a repeat's
# body, a lookaround's (a single character, an anchor, a back-reference: none)
_INSIDE = {"SUBPATTERN": lambda av: (av[-1],), "BRANCH": lambda av: av[1], "ATOMIC_GROUP": lambda av: (av,),
           "ASSERT": lambda av: (av[1],), "ASSERT_NOT": lambda av: (av[1],),
           **{r: (lambda av: (av[2],)) for r in _REPEATS}}


def _walk_newline(sub) -> bool:
    for op, av in sub:
        name = str(op)
        inside = _INSIDE.get(name)
        if inside is None:
            if can_match_newline(op, av):
                return True
        # a lookaround takes no characters, nor does a repeat of at most 0 (av[1]: its maximum)
        elif name not in ("ASSERT", "ASSERT_NOT") and (name not in _REPEATS or av[1]):
            for s in inside(av):
                if _walk_newline(s):
                    return True
    return False


@lru_cache(maxsize=None)
def spans_lines(pattern: str) -> bool:
    """Can a match of `pattern` hold a line end? If not, it lies on its needle's line alone, and the
    matcher runs it on that line only (a common needle then costs one short search per line)."""
    return _walk_newline(_parsed(pattern))


def _reads_past_line(sub) -> bool:
    """Does a lookaround of the parsed `sub` read a line end, or an anchor read the text's start or end?"""
    for op, av in sub:
        name = str(op)
        if name in ("ASSERT", "ASSERT_NOT") and _walk_newline(av[1]):
            return True
        if name == "AT" and str(av) in ("AT_BEGINNING_STRING", "AT_END_STRING"):
            return True
        if name in ("GROUPREF_EXISTS", "GROUPREF", "GROUPREF_IGNORE"):
            return True
        inside = _INSIDE.get(name)
        if inside is not None:
            for s in inside(av):
                if _reads_past_line(s):
                    return True
    return False


@lru_cache(maxsize=None)
def line_local(pattern: str) -> bool:
    r"""Does what `pattern` matches on a line depend on that line alone: no match holds a line end (spans_lines), no
    lookaround may read across one (`(?=\n  File)`, `(?<=\s)` at a line's start), no `\A` or `\Z` (the text's ends)?
    Such a pattern finds the same on a line searched alone or with the lines around it, so lines next to each other
    that only such patterns search are searched as one text (_Scanner.block)."""
    return not spans_lines(pattern) and not _reads_past_line(_parsed(pattern))


_DIGITS = "0123456789"
_UNIFORM = {"CATEGORY_DIGIT": True, "CATEGORY_NOT_DIGIT": False, "CATEGORY_WORD": True, "CATEGORY_NOT_WORD": False,
            "CATEGORY_SPACE": False, "CATEGORY_NOT_SPACE": True, "CATEGORY_LINEBREAK": False,
            "CATEGORY_NOT_LINEBREAK": True}  # (the same for every ASCII digit)


def _digit_tests(sub, tests: list[tuple[bool, ...]]) -> bool:
    """Append what each character test of the parsed `sub` says of each ASCII digit; False where a test cannot be read
    (a back-reference compares characters with each other)."""
    for op, av in sub:
        name = str(op)
        if name == "LITERAL":
            tests.append(tuple(ord(d) == av for d in _DIGITS))
        elif name == "NOT_LITERAL":
            tests.append(tuple(ord(d) != av for d in _DIGITS))
        elif name == "IN":
            items = [(str(o), a) for o, a in av]
            negate = bool(items) and items[0][0] == "NEGATE"
            said = []
            for d in _DIGITS:
                hit = False
                for o, a in items:
                    if o == "LITERAL":
                        hit = hit or a == ord(d)
                    elif o == "RANGE":
                        hit = hit or a[0] <= ord(d) <= a[1]
                    elif o == "CATEGORY":
                        if str(a) not in _UNIFORM:
                            return False
                        hit = hit or _UNIFORM[str(a)]
                    elif o != "NEGATE":
                        return False
                said.append(hit != negate)
            tests.append(tuple(said))
        elif name == "SUBPATTERN":
            if not _digit_tests(av[-1], tests):
                return False
        elif name == "BRANCH":
            if not all(_digit_tests(b, tests) for b in av[1]):
                return False
        elif name in _REPEATS:
            if not _digit_tests(av[2], tests):
                return False
        elif name == "ATOMIC_GROUP":
            if not _digit_tests(av, tests):
                return False
        elif name in ("ASSERT", "ASSERT_NOT"):
            if not _digit_tests(av[1], tests):
                return False
        elif name in ("GROUPREF", "GROUPREF_EXISTS", "GROUPREF_IGNORE"):
            return False
        elif name not in ("ANY", "CATEGORY", "AT"):  # the same for every digit
            return False
    return True


@lru_cache(maxsize=None)
def digit_table(pattern: str) -> bytes | None:
    r"""A bytes.translate table that writes each ASCII digit as the first digit `pattern` cannot tell from it (every
    character test of the pattern says the same of both: `\d`, `\w`, `[^\n]` tell none apart, `50[5-9]0` tells 5-9
    from 0-4 and 0 from 5), or None where it tells every digit apart or cannot be read. Two lines the same once so
    written hold the pattern's matches at the same places (_Scanner._kinds)."""
    tests: list[tuple[bool, ...]] = []
    if not _digit_tests(_parsed(pattern), tests):
        return None
    first: dict[tuple[bool, ...], str] = {}
    to = "".join(first.setdefault(tuple(t[i] for t in tests), d) for i, d in enumerate(_DIGITS))
    return None if to == _DIGITS else bytes.maketrans(_DIGITS.encode(), to.encode())


def _relax(sub, negative: bool):
    r"""A copy of the parsed `sub` whose character tests each take every ASCII digit where they took one (`5` -> `\d`,
    `[5-9]` -> `[0-9]`), or None where that cannot be done so that a match of the original on a line is a match of the
    copy there (a test inside a negative lookaround that tells digits apart, an atomic group, a back-reference)."""
    c = _sre_constants
    out = []
    for op, av in sub:
        name = str(op)
        if name in ("LITERAL", "NOT_LITERAL"):
            if not 48 <= av <= 57:
                out.append((op, av))
            elif negative:
                return None
            elif name == "LITERAL":
                out.append((c.IN, [(c.CATEGORY, c.CATEGORY_DIGIT)]))
            else:  # every character but one digit, and that digit
                out.append((c.IN, [(c.CATEGORY, c.CATEGORY_DIGIT), (c.CATEGORY, c.CATEGORY_NOT_DIGIT)]))
        elif name == "IN":
            said: list[tuple[bool, ...]] = []
            if not _digit_tests([(op, av)], said):
                return None
            if len(set(said[0])) == 1:
                out.append((op, av))
                continue
            if negative:
                return None
            items = [(str(o), o, x) for o, x in av]
            if items and items[0][0] == "NEGATE":  # `[^5]`: no digit left out
                kept = [(c.NEGATE, None)]
                for n, o, x in items[1:]:
                    if n == "LITERAL" and 48 <= x <= 57:
                        continue
                    if n == "RANGE" and x[0] <= 57 and x[1] >= 48:
                        if x[0] < 48:
                            kept.append((o, (x[0], 47)))
                        if x[1] > 57:
                            kept.append((o, (58, x[1])))
                        continue
                    kept.append((o, x))
                out.append((op, kept))
            else:
                out.append((op, list(av) + [(c.RANGE, (48, 57))]))
        elif name == "SUBPATTERN":
            inner = _relax(av[-1], negative)
            if inner is None:
                return None
            out.append((op, (*av[:-1], inner)))
        elif name == "BRANCH":
            ways = [_relax(w, negative) for w in av[1]]
            if any(w is None for w in ways):
                return None
            out.append((op, (av[0], ways)))
        elif name in ("MAX_REPEAT", "MIN_REPEAT"):
            inner = _relax(av[2], negative)
            if inner is None:
                return None
            out.append((op, (av[0], av[1], inner)))
        elif name == "ASSERT":
            inner = _relax(av[1], negative)
            if inner is None:
                return None
            out.append((op, (av[0], inner)))
        elif name == "ASSERT_NOT":
            inner = _relax(av[1], True)
            if inner is None:
                return None
            out.append((op, (av[0], inner)))
        elif name in ("ANY", "CATEGORY", "AT"):
            out.append((op, av))
        else:
            return None
    return regex_parser.SubPattern(sub.state, out)


@lru_cache(maxsize=None)
def digit_blind(pattern: str) -> re.Pattern | None:
    r"""`pattern` (bounded, as the knowledge compiles it) with every character test that takes a digit taking every
    digit (`RTX ?50[5-9]0` -> `RTX ?\d\d\d\d`): a line where the pattern matches is one where this matches, and this
    matches alike on lines that differ only in their digits. Where it finds nothing on a line of each kind of a
    region's lines (digits masked), the pattern finds nothing in the region (_Scanner._region). None where it cannot
    be built (_relax)."""
    from . import bounded

    tree = regex_parser.parse(bounded(pattern))
    relaxed = _relax(tree, False)
    if relaxed is None:
        return None
    try:
        # int flags, as re.compile hands them on: the compiler tests them at every item, and a RegexFlag's & runs as Python
        # code (2,751 patterns: 3.96 s with the enum, 2.74 s with its int; the same compiled patterns: ci42c, session 42)
        return _sre_compiler.compile(relaxed, int(re.IGNORECASE | re.MULTILINE))
    except (re.error, TypeError, ValueError, IndexError):  # pragma: no cover - a tree the compiler will not take
        return None


@lru_cache(maxsize=None)
def _specificity(pattern: str) -> int:
    return literal_chars(pattern)


def normalize(text: str) -> str:
    """The searchable text: without terminal colours or Windows line ends. A lone \\r (a progress
    bar redrawing itself) stays, so line numbers keep matching the user's file."""
    return ANSI.sub("", text).replace("\r\n", "\n")


# ---- the prefilter -------------------------------------------------------------------------------

_ID = -1  # the pseudo-pattern of attn-doctor's own `[id]` tags


def _readers(known: Iterable[Entry], ids: frozenset[str] | None) -> Iterator[Entry]:
    """The entries to search for, and for each with `frames` its weak copy (a last resort of the same id)."""
    for e in known:
        if ids is None or e.id in ids:
            yield e
            if e.frames:
                yield e.weak


class _Index:
    """The patterns of a set of entries, their needles and the shapes of lines already looked at."""

    def __init__(self, ids: frozenset[str] | None, probes: tuple[tuple[str, str], ...] = ()):
        known = entries()
        self.known = known
        self.ids = ids
        self.patterns: list[tuple[Entry | None, str]] = []  # entry None: a probe
        self.probe_names: dict[int, str] = {}
        self.wide: set[int] = set()  # patterns that may reach across lines (spans_lines)
        self._local: dict[int, bool] = {}  # is a pattern line_local (learnt with its needles, else when asked)
        self._tables: dict[int, bytes | None] = {}  # a pattern's digit_table (read from the index, else when asked)
        self.needles: dict[bytes, list[int]] = {}
        # pattern -> the literal groups (factors) a line's shape must each hold one of besides its needle, for
        # patterns that cannot span lines: a line that names a backend holds needles of ~100 patterns, most of which
        # need other literals it lacks (`_C.pyd`, `RTX`, `only ... works`)
        self.factors: dict[int, tuple[tuple[bytes, ...], ...]] = {}
        # and for patterns that may span lines, the groups (by number) that must each lie within the window around a
        # line holding its needle (_Scanner.block): which of them a line's shape holds is learnt with its needles
        self.wide_factors: dict[int, tuple[int, ...]] = {}
        self.group_needles: dict[bytes, list[int]] = {}
        self.present: dict[bytes, frozenset[int]] = {}  # a line's shape -> the groups it holds
        self._group_ids: dict[tuple[bytes, ...], int] = {}
        self.always: list[int] = []  # patterns without needles: run on every line
        self.head: list[int] = []  # patterns of `head` entries: run once, on the input's first HEAD_LINES lines
        # each one's text_factors (read from the index), by number: the prose patterns share most of them (a backend's names)
        self.head_gate: dict[int, tuple[int, ...]] = {}
        self.head_groups: dict[tuple[str, ...], int] = {}
        self._head_group_list: list[tuple[str, ...]] = []  # (the same, by number)
        self._head_views: dict[str, dict[int, list[tuple[int, int]]]] = {}  # head -> pattern -> its matches (head_spans)
        self._head_chars = 0  # the characters of the heads kept there
        self._head_split: dict[int, tuple | None] = {}  # head pattern -> its looks and its rest (_head_split), when first run
        # each pattern compiled when first run (self.rx), its needles and groups read back from index_cache when a run
        # before this one learnt them: a short explain reaches a few dozen of ~1,800 patterns
        self._rx: list[re.Pattern | None] = []
        disk, learnt = index_cache.load(), {}
        for e in _readers(known.values(), ids):
            for pattern in e.patterns:
                k = len(self.patterns)
                self.patterns.append((e, pattern))
                self._rx.append(None)
                if e.head:  # read on the input's first lines only, by _Scanner.head: never a needle
                    self.head.append(k)
                    self.head_gate[k] = tuple(self.head_groups.setdefault(g, len(self.head_groups))
                                              for g in _learn_head(pattern, disk, learnt))
                    continue
                self._place(k, *_learn(pattern, disk, learnt))
        for name, pattern in probes:  # not problems: facts the caller wants from the input (tailor.py)
            k = len(self.patterns)
            self.patterns.append((None, pattern))
            self._rx.append(re.compile(pattern, re.IGNORECASE | re.MULTILINE))
            self.probe_names[k] = name
            self._place(k, *_learn(pattern, disk, learnt))
        self._head_group_list = list(self.head_groups)
        # the patterns that read a report's title (`\A`): run again past an issue form's headings (_Scanner.head)
        self.titled = frozenset(k for k, (_, pattern) in enumerate(self.patterns) if pattern.startswith("\\A"))
        doc = {**disk, **learnt} if len(disk) < 4 * len(learnt) else learnt
        if any(p not in disk for p in learnt):
            index_cache.save(doc)
        # what is learnt of a pattern when first asked (line_groups, is_local, digit_table) is kept in the index once,
        # after the first scan that learnt any (keep): a first run does not learn it for every pattern (~0.5 s)
        self._doc: dict[str, list] | None = doc
        self._later: set[int] = set()
        # each searched pattern's text_factors (text_gate), by number, learnt when first asked (read back from the index)
        self._disk = disk
        self._text_gate: dict[int, tuple[int, ...]] = {}
        self._text_learnt: dict[str, list] = {}
        for eid in known if ids is None else ids & set(known):
            self.needles.setdefault(shape(f"[{eid}]").encode(), []).append(_ID)
        self.needles.setdefault(b'"id":', []).append(_ID)
        self.shapes: dict[bytes, frozenset[int]] = {}
        self._grams: tuple | None = None  # the needles and the groups' needles by their first bytes (_by_gram), when asked

    def is_local(self, k: int) -> bool:
        """Is pattern k line_local (an entry's or a probe's, not a head's)?"""
        v = self._local.get(k)
        if v is None:
            v = self._local[k] = k != _ID and k not in self.wide and not (self.patterns[k][0] is not None
                                                                         and self.patterns[k][0].head) \
                and line_local(self.patterns[k][1])
            if k != _ID:
                self._later.add(k)
        return v

    def keep(self) -> None:
        """Keep in the index (index_cache) what was learnt of its patterns when first asked, the first time there is
        any (once: a process that scans many texts writes it once)."""
        doc, self._later, later = self._doc, set(), self._later
        if doc is None or not later:
            return
        self._doc = None
        doc.update(self._text_learnt)
        for k in later:
            e, pattern = self.patterns[k]
            v = doc.get(pattern)
            if v is None or (e is not None and e.head):  # (a head's pattern is not in the index: its is_local is False)
                continue
            if k in self.factors and not v[1] and v[0]:
                v[2] = [list(g) for g in line_factors(pattern)]
            if k in self._local:  # (a placed pattern's is_local is its line_local: a wide one is not)
                v[3] = self._local[k]
            if k in self._tables:
                table = self._tables[k]
                v[4] = None if table is None else table[48:58].decode("ascii")
        index_cache.save(doc)

    def digit_table(self, k: int) -> bytes | None:
        """Pattern k's digit_table (kept in the index once a run asked, as line_local is)."""
        if k in self._tables:
            return self._tables[k]
        table = self._tables[k] = digit_table(self.patterns[k][1])
        self._later.add(k)
        return table

    def line_groups(self, k: int) -> tuple[tuple[bytes, ...], ...]:
        """The groups besides its needles a line must hold for pattern k (one that cannot span lines; learnt when first
        asked)."""
        groups = self.factors.get(k)
        if groups is None:
            pattern = self.patterns[k][1]
            alts = needles(pattern)
            groups = self.factors[k] = tuple(tuple(a.encode() for a in g) for g in line_factors(pattern) if g != alts) \
                if alts else ()
            self._later.add(k)
        return groups

    def head_spans(self, text: str, k: int) -> list[tuple[int, int]] | None:
        """(start, end) of each match of head pattern k in `text` (a report's head as _Scanner.head reads it); None where the
        head lacks one of its literal groups (text_factors: no match there, and the pattern is not run). Found once and
        kept for the last HEAD_VIEWS heads read: `check` reads one import error for each backend that printed it, and a
        process that checks or explains many texts reads the same heads again (each prose pattern costs 0.1-1 ms on a
        head that names a backend)."""
        views = self._head_views
        kept = views.pop(text, None)  # (put back last: the least recently read head goes first)
        if kept is None:
            kept = {_ID: ({}, _fold(text))}  # (_ID is no pattern) the groups looked for in the head, and where
            self._head_chars += 2 * len(text)
            _HEADS_READ[0] += 1
            while views and (len(views) >= HEAD_VIEWS or self._head_chars > HEAD_VIEW_CHARS):
                old = next(iter(views), None)
                if old is not None and views.pop(old, None) is not None:  # (another thread may have let it go)
                    self._head_chars -= 2 * len(old)
        views[text] = kept
        if k not in kept:
            held, folded = kept[_ID]  # each group looked for once: the prose patterns share most of them
            groups = self._head_group_list
            if all(held[g] if g in held else held.setdefault(g, any(a in folded for a in groups[g]))
                   for g in self.head_gate[k]):
                kept[k] = self._head_finds(text, k, held)
            else:
                kept[k] = None
        return kept[k]

    def _head_finds(self, text: str, k: int, said: dict) -> list[tuple[int, int]]:
        """The spans `self.rx(k).finditer(text)` gives, for head pattern k (helper ci38a, session 38). Most prose patterns
        open with the same zero-width look at a line (prose.toml's LINE: `^` and a dozen `(?![^\n]*...)` over the
        whole line, ~60% of each one's time), so that look is taken once per line start of a head and kept in `said`
        (by its text) for every pattern that opens with it; each pattern's rest is matched at the line starts where its
        looks hold (_head_split), as the regex engine itself would try them: the same spans."""
        split = self._head_split.get(k, False)
        if split is False:
            learnt, disk = self._text_learnt, self._disk
            pattern = self.patterns[k][1]
            split = self._head_split[k] = _named_first(pattern, _head_split(pattern, disk, learnt))
            if any(key not in disk for key in learnt):  # (what the split learnt anew: kept in the index, by keep)
                self._later.add(k)
        if split is None:
            return [m.span() for m in self.rx(k).finditer(text)]
        anchored, leads, rest = split

        keyed = _HEADS_READ[0] >= LOOK_LINES_AFTER  # (a line's verdicts, by its text: LOOK_LINES above)

        def holds(q: int) -> bool:  # does each zero-width look hold at q?
            for lead, rx in leads:
                v = said.get((lead, q))
                if v is None:
                    if keyed and line_local(lead):
                        line = said.get((None, q))  # the verdicts kept for the line that starts at q
                        if line is None:
                            line = said[None, q] = _line_verdicts(text, q)
                        v = line.get(lead)
                        if v is None:
                            v = line[lead] = rx.match(text, q) is not None
                    else:
                        v = rx.match(text, q) is not None
                    said[lead, q] = v
                if not v:
                    return False
            return True
        if anchored:  # `\A(?:[ \t]*\n)*` first: the looks at the line after the blank lines, then at each before it
            tries, q = [0], 0
            while (m := _BLANK_LINE.match(text, q)) is not None:
                q = m.end()
                tries.append(q)
            for q in reversed(tries):
                if holds(q) and (m := rest.match(text, q)) is not None:
                    if m.end() == 0:  # (an empty match: finditer's own rules, from the whole pattern)
                        break
                    return [(0, m.end())]
            else:
                return []
            return [m.span() for m in self.rx(k).finditer(text)]
        out: list[tuple[int, int]] = []
        end, q = 0, 0
        while q != -1:  # each line start (`^`), the text's end too where it ends a line, in order; none inside a match
            if q >= end and holds(q) and (m := rest.match(text, q)) is not None:
                if m.end() == q:  # (an empty match: finditer's own rules, from the whole pattern)
                    return [m.span() for m in self.rx(k).finditer(text)]
                out.append((q, m.end()))
                end = m.end()
            q = text.find("\n", q)
            if q != -1:
                q += 1
        return out

    def text_gate(self, k: int) -> tuple[int, ...]:
        """The literal groups (text_factors, by number as head_gate numbers them) of which a text where pattern k matches
        holds one alternative each: learnt when first asked, kept in the index as a head pattern's are (_learn_head)."""
        gate = self._text_gate.get(k)
        if gate is None:
            groups = _learn_head(self.patterns[k][1], self._disk, self._text_learnt)
            gate = self._text_gate[k] = tuple(self._text_group(g) for g in groups)
            self._later.add(k)
        return gate

    def _text_group(self, group: tuple[str, ...]) -> int:
        gid = self.head_groups.get(group)
        if gid is None:
            gid = self.head_groups[group] = len(self.head_groups)
            self._head_group_list.append(group)
        return gid

    def rx(self, k: int) -> re.Pattern:
        """Pattern k, compiled (when first asked)."""
        r = self._rx[k]
        if r is None:
            r = self._rx[k] = compile_pattern(self.patterns[k][1])
        return r

    def _place(self, k: int, alts: tuple[str, ...], wide: bool, facs: tuple[tuple[str, ...], ...] | None,
               local: bool | None, table: str | None | bool) -> None:
        """File pattern k under its needles `alts` (none: run on every line); a `wide` one (it may span lines) with its
        literal groups `facs` (a line-bound one's, where known); whether it is line_local and its digit_table (`table`:
        the digits each digit is written as, None for none), where known (False: not known)."""
        if local is not None:
            self._local[k] = not wide and local  # (as is_local says: no entry placed here is a head's)
        if table is not False:
            self._tables[k] = None if table is None else bytes.maketrans(_DIGITS.encode(), table.encode())
        if wide:
            self.wide.add(k)
        if not alts:
            self.always.append(k)
        for a in alts:
            self.needles.setdefault(a.encode(), []).append(k)
        if wide:
            self._factors(k, alts, facs or ())
        elif alts and facs is not None:  # what line_groups would learn
            self.factors[k] = tuple(tuple(a.encode() for a in g) for g in facs if g != alts)

    def _factors(self, k: int, alts: tuple[str, ...], facs: tuple[tuple[str, ...], ...]) -> None:
        """Learn wide pattern k's groups (besides its needles `alts`), by number, and their literals."""
        if not alts:
            return
        groups = tuple(tuple(a.encode() for a in g) for g in facs if g != alts)
        if not groups:
            return
        gids = []
        for g in groups:
            gids.append(self._group_id(g))
        self.wide_factors[k] = tuple(gids)

    def _group_id(self, group: tuple[bytes, ...]) -> int:
        ids = self._group_ids
        if group not in ids:
            ids[group] = len(ids)
            for a in group:
                self.group_needles.setdefault(a, []).append(ids[group])
        return ids[group]

    def hot(self, shapes: list[bytes], distinct: set[bytes] | None = None) -> list[tuple[int, frozenset[int]]]:
        """(index, patterns) of the lines whose shape holds a needle (`distinct`: the set of `shapes`, if known)."""
        cache = self.shapes
        if distinct is None:
            distinct = set(shapes)
        new = [s for s in distinct if s not in cache]
        if new:
            if len(cache) + len(new) > MAX_SHAPES:
                cache.clear()
                self.present.clear()
                new = list(distinct)  # (this block's shapes learnt before are forgotten too)
            self._learn(new)
        if not any(cache[s] for s in distinct):
            return []
        return [(i, cache[s]) for i, s in enumerate(shapes) if cache[s]]

    def _learn(self, new: list[bytes]) -> None:
        """Remember, for each line shape not seen before, the patterns whose needles it holds (one find per needle over
        the new shapes joined, not one per shape)."""
        joined = b"\n".join(new)
        starts = [0]
        for s in new[:-1]:
            starts.append(starts[-1] + len(s) + 1)
        found: dict[int, set[int]] = {}
        needles, group_needles = self.needles.items(), self.group_needles.items()
        if len(joined) <= GRAM_BYTES:  # only the needles whose first GRAM bytes the new shapes hold (_by_gram)
            if self._grams is None:
                self._grams = (_by_gram(self.needles), _by_gram(self.group_needles))
            held = {joined[i:i + GRAM] for i in range(len(joined) - GRAM + 1)}
            needles, group_needles = ([x for g in held & by.keys() for x in by[g]] + short for by, short in self._grams)
        for needle, pats in needles:
            i = joined.find(needle)
            while i != -1:
                k = bisect.bisect_right(starts, i) - 1
                found.setdefault(k, set()).update(pats)
                nxt = starts[k + 1] if k + 1 < len(starts) else len(joined)
                i = joined.find(needle, nxt)
        empty: frozenset[int] = frozenset()
        present: dict[int, set[int]] = {}
        for needle, gids in group_needles:
            i = joined.find(needle)
            while i != -1:
                k = bisect.bisect_right(starts, i) - 1
                present.setdefault(k, set()).update(gids)
                nxt = starts[k + 1] if k + 1 < len(starts) else len(joined)
                i = joined.find(needle, nxt)
        for k, s in enumerate(new):
            self.present[s] = frozenset(present[k]) if k in present else empty
        wide, line_groups = self.wide, self.line_groups
        for k, s in enumerate(new):
            pats = found.get(k)
            if pats is None:
                self.shapes[s] = empty
                continue
            self.shapes[s] = frozenset(p for p in pats if p in wide or p == _ID
                                       or all(any(a in s for a in g) for g in line_groups(p))) or empty


# A short text's new line shapes (a report, a probe's traceback) are looked up by the needles whose first GRAM bytes they
# hold, out of ~2,000 (each find ~1 us: ~3 ms of every short scan, perf19); past GRAM_BYTES (a long log's block), by all
GRAM, GRAM_BYTES = 3, 65_536


def _by_gram(table: dict[bytes, list[int]]) -> tuple[dict[bytes, list[tuple[bytes, list[int]]]], list]:
    """`table`'s (needle, patterns) by the needle's first GRAM bytes, and those of needles shorter than that (none so far)."""
    by: dict[bytes, list[tuple[bytes, list[int]]]] = {}
    short = []
    for needle, v in table.items():
        if len(needle) < GRAM:
            short.append((needle, v))
        else:
            by.setdefault(needle[:GRAM], []).append((needle, v))
    return by, short


def _learn(pattern: str, disk: dict[str, list], learnt: dict[str, list]
           ) -> tuple[tuple[str, ...], bool, tuple[tuple[str, ...], ...] | None, bool | None, str | None | bool]:
    """`pattern`'s needles, whether it may span lines, and (if it has needles) its literal groups: read back from `disk`
    (index_cache) or learnt now; either way kept in `learnt`; and whether it is line_local and its digit_table. A
    line-bound pattern's groups, line_local and digit_table are learnt when first asked (line_groups, is_local,
    digit_table; parsing each pattern: ~0.1 s of a short explain and of a long log, ~0.5 s for every pattern) and kept
    here after (_Index.keep): None, None and False until then."""
    v = disk.get(pattern)
    # (a pattern with needles has one literal group at least, its needles: factors() holds them. No groups kept for one is
    # what a process whose factors said nothing wrote (a test that turns the prefilter's groups off, helper ci39d): believed,
    # every line holding the needle was searched by the pattern, in every later process that read this index)
    if not (isinstance(v, list) and len(v) == 5 and v[3] in (None, True, False)
            and (v[4] is None or v[4] is False or isinstance(v[4], str) and len(v[4]) == 10 and v[4].isdigit())
            and not (v[0] and v[2] == [])):
        alts, wide = needles(pattern), spans_lines(pattern)
        facs = factors(pattern) if wide and alts else None
        v = [list(alts), wide, None if facs is None else [list(g) for g in facs], None, False]
    learnt[pattern] = v
    return tuple(v[0]), bool(v[1]), None if v[2] is None else tuple(tuple(g) for g in v[2]), v[3], v[4]


def _learn_head(pattern: str, disk: dict[str, list], learnt: dict[str, list]) -> tuple[tuple[str, ...], ...]:
    """A `head` pattern's text_factors, read back from `disk` (index_cache, under a key of its own) or learnt now (parsing
    the ~40 prose patterns: ~0.05 s); either way kept in `learnt`."""
    key = "\0head:" + pattern  # (in the index's own shape: no needles, no span, the groups, nothing else learnt)
    v = disk.get(key)
    if not (isinstance(v, list) and len(v) == 5 and isinstance(v[2], list)
            and all(isinstance(g, list) and g and all(isinstance(a, str) for a in g) for g in v[2])):
        v = [[], False, [list(g) for g in text_factors(pattern)], None, False]
    learnt[key] = v
    return tuple(tuple(g) for g in v[2])


_BLANKS = "\\A(?:[ \\t]*\\n)*"  # the blank lines a `head` pattern reading a title skips first (prose.toml)
_BLANK_LINE = re.compile(bounded(r"[ \t]*\n"))  # (one of them, as compile_pattern bounds it)
_LOOKS = ("(?=", "(?!", "(?<=", "(?<!")


def _group_end(pattern: str, i: int) -> int:
    """The end of the group that opens at pattern[i] (`(`), escapes and character classes skipped as the parser reads
    them (knowledge.class_end, as knowledge.bounded walks a pattern); -1 where it does not close."""
    depth, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            i = class_end(pattern, i) + 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1


@lru_cache(maxsize=64)
def _is_look(group: str, first: bool) -> bool:
    """Is `group` (a pattern's top-level group) a zero-width look that captures nothing (`first`: one that opens with `^`
    in every branch, prose.toml's LINE)? (Parsing it: ~5 ms a group; the verdict is kept in the index, _look_rx.)"""
    try:
        tree = regex_parser.parse(group, re.IGNORECASE | re.MULTILINE)
        if tree.getwidth() != (0, 0) or tree.state.groups != 1:
            return False
        if first and (not tree.data or str(tree.data[0][0]) != "AT" or str(tree.data[0][1]) != "AT_BEGINNING"):
            return False  # (the parser reads `(?:^...)` as its items; a `|` whose every branch opens with `^` as `^` first)
        re.compile(group)
        return True
    except Exception:  # (not a group the parser reads alone: no split)
        return False


def _look_rx(group: str, first: bool, disk: dict | None = None, learnt: dict | None = None) -> re.Pattern | None:
    """`group` compiled as the matcher runs it, where it is a zero-width look that captures nothing (_is_look); None where
    it is not. The verdict is read back from `disk` (index_cache, under a key of its own, in the index's own shape:
    [[], False, [], verdict, False]) or found now and kept in `learnt`, as _learn_head keeps a head pattern's groups: a
    short explain reads ~40 looks, and parsing them all again in every process cost ~0.15 s."""
    key = "\0look:" + ("^" if first else "") + group
    v = None if disk is None else disk.get(key)
    if not (isinstance(v, list) and len(v) == 5 and v[0] == [] and v[1] is False and v[2] == [] and v[4] is False
            and isinstance(v[3], bool)):
        v = [[], False, [], _is_look(group, first), False]
    if learnt is not None:
        learnt[key] = v
    if not v[3]:
        return None
    try:
        return index_cache.compiled(group, re.IGNORECASE | re.MULTILINE, rewrite=bounded)
    except re.error:
        return None


def _head_split(pattern: str, disk: dict | None = None, learnt: dict | None = None
                ) -> tuple[bool, tuple[tuple[str, re.Pattern], ...], re.Pattern] | None:
    """A `head` pattern as (anchored, looks, rest): `[\\A(?:[ \\t]*\\n)*]` (anchored), then top-level zero-width groups
    that capture nothing (looks: each group's text and compiled form; the first opens with `^`), then the rest (compiled
    as the matcher compiles a pattern, less the look at its first characters, which a match at one place does not need).
    The pattern matches at q exactly where every look holds at q and the rest matches at q (a look takes no characters
    and has nothing to try again). None where the pattern has no such shape: it is run whole."""
    anchored = pattern.startswith(_BLANKS)
    i = len(_BLANKS) if anchored else 0
    leads: list[tuple[str, re.Pattern]] = []
    # the looks' texts, as a run before this one found them (index_cache, under a key of its own): finding where each
    # group ends is a walk over its characters (~1 ms a look, ~0.13 s of a short explain); believed where they are
    # consecutive groups at the pattern's start, each found a look (its verdict, _look_rx)
    key = "\0split:" + pattern
    v = None if disk is None else disk.get(key)
    if isinstance(v, list) and len(v) == 5 and v[0] == [] and v[1] is False and v[3] is None and v[4] is False \
            and isinstance(v[2], list) and v[2] and all(isinstance(g, str) and g.startswith("(") for g in v[2]) \
            and pattern.startswith("".join(v[2]), i):
        for group in v[2]:
            rx = _look_rx(group, not leads, disk, learnt)
            if rx is None:
                break
            leads.append((group, rx))
            i += len(group)
        else:
            if learnt is not None:
                learnt[key] = v
            return _split_rest(pattern, anchored, leads, i)
        i = len(_BLANKS) if anchored else 0  # (a look that is none: found again below)
        leads = []
    while pattern.startswith("(", i):
        # what can open no look is neither walked for its end nor parsed: the pattern's long body (walking it cost ~0.15 s
        # of a short explain). None of these openings holds a `)`, so the group that opens at i begins with it too
        if not (pattern.startswith("(?:^", i) if not leads
                else pattern.startswith(_LOOKS, i) or pattern.startswith(_LOOKS, i + 3) and pattern.startswith("(?:", i)):
            break
        j = _group_end(pattern, i)
        if j == -1 or (j < len(pattern) and pattern[j] in "*+?{"):
            break
        group = pattern[i:j]
        rx = _look_rx(group, not leads, disk, learnt)
        if rx is None:
            break
        leads.append((group, rx))
        i = j
    if leads and learnt is not None:
        learnt[key] = [[], False, [g for g, _ in leads], None, False]
    return _split_rest(pattern, anchored, leads, i)


def _split_rest(pattern: str, anchored: bool, leads: list[tuple[str, re.Pattern]], i: int
                ) -> tuple[bool, tuple[tuple[str, re.Pattern], ...], re.Pattern] | None:
    """_head_split's answer, the looks found: the rest of `pattern` from i, compiled (None where there is none)."""
    if not leads or i >= len(pattern):
        return None
    try:
        rest = index_cache.compiled(pattern[i:], re.IGNORECASE | re.MULTILINE, rewrite=bounded)
    except re.error:
        return None
    return anchored, tuple(leads), rest


def _named_first(pattern: str, split: tuple | None) -> tuple | None:
    """A head pattern's split (_head_split) with its rest's named look (_named_look), where it has one, tried right after
    the first look (the line's, LINE), unless one of its looks is that one already."""
    if split is None:
        return None
    anchored, leads, rest = split
    named = _named_look(pattern, (len(_BLANKS) if anchored else 0) + sum(len(g) for g, _ in leads))
    if named is None or any(named[0] == g for g, _ in leads):
        return split
    return anchored, (leads[0], named, *leads[1:]), rest


_NOT_ALONE = re.compile(r"\\[1-9]|\(\?P=|\(\?\(|\(\?[aiLmsux]+\)")  # (back-references, global flags: no part alone)


def _named_look(pattern: str, i: int) -> tuple[str, re.Pattern] | None:
    """Where the rest of a head pattern (from i, past its looks) opens with `[^\\n]*?(?:G)` (prose.toml's `[^\\n]*?(?:<B>)`:
    the backend the line names), the look `(?=[^\\n]*?(?:G))` and its compiled form: it holds wherever the rest matches,
    so it is tried first after the line's (LINE), as _head_finds tries every look (helper ci41d, session 41). Most
    lines of a head name no backend, and the looks for a failure's words (`(?=[^\\n]*(?:<FAIL>))`, NUMBERS, SLOW: each a
    search of the line for ~50 ways) were tried on each of them, for each prose pattern's own words; this look is one
    text for the ~20 patterns that end so, so it is tried once per line and read by all of them. The looks hold at the
    same places in any order (each takes no characters, and none captures), so the spans are the same."""
    if not pattern.startswith("[^\\n]*?(?:", i):
        return None
    j = _group_end(pattern, i + 7)
    if j == -1 or (j < len(pattern) and pattern[j] in "?*{"):
        return None
    group = pattern[i + 7:j]
    if _NOT_ALONE.search(group):
        return None
    look = "(?=[^\\n]*?" + group + ")"
    try:
        return look, index_cache.compiled(look, re.IGNORECASE | re.MULTILINE, rewrite=bounded)
    except re.error:
        return None


_HEADS_READ = [0]  # the heads this process read anew (_Index.head_spans), by every index
_LOOK_VERDICTS: dict[str, dict[str, bool]] = {}  # a line's text -> each line_local look's verdict at its start (LOOK_LINES)
_LOOK_CHARS = [0]  # (the characters of the lines kept there)


def _line_verdicts(text: str, q: int) -> dict[str, bool]:
    """The looks' verdicts kept for the line of `text` that starts at q (an empty dict where there are none yet)."""
    e = text.find("\n", q)
    line = text[q:] if e == -1 else text[q:e]
    kept = _LOOK_VERDICTS.get(line)
    if kept is None:
        if len(_LOOK_VERDICTS) >= LOOK_LINES or _LOOK_CHARS[0] + len(line) > LOOK_LINE_CHARS:
            _LOOK_VERDICTS.clear()
            _LOOK_CHARS[0] = 0
        kept = _LOOK_VERDICTS[line] = {}
        _LOOK_CHARS[0] += len(line)
    return kept


def _index(ids: frozenset[str] | None, probes: tuple[tuple[str, str], ...] = ()) -> _Index:
    """The index for these entries and probes, built once (again when the entries change: a test
    that adds one)."""
    known = entries()
    return _cached_index(ids, probes, tuple(map(id, known.values())))


@lru_cache(maxsize=8)
def _cached_index(ids, probes, _entries_fingerprint) -> _Index:
    return _Index(ids, probes)


# ---- reading the input in blocks -------------------------------------------------------------------

def _chunks(source) -> Iterator[bytes]:
    """The input as UTF-8 bytes, in pieces: a str, bytes, a binary or text stream, or an iterable of
    bytes. A UTF-16 file (Windows PowerShell's `>` writes one) is re-encoded."""
    if isinstance(source, str):
        data = source.encode("utf-8", "surrogatepass")
        for i in range(0, len(data), BLOCK):
            yield data[i:i + BLOCK]
        return
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        pieces: Iterable[bytes] = (data[i:i + BLOCK] for i in range(0, len(data), BLOCK))
    elif hasattr(source, "read"):
        stream = getattr(source, "buffer", source)
        first = stream.read(BLOCK)
        if isinstance(first, str):  # a text stream without a buffer (io.StringIO)
            yield first.encode("utf-8", "surrogatepass")
            while len(first) == BLOCK and (first := stream.read(BLOCK)):
                yield first.encode("utf-8", "surrogatepass")
            return

        def rest(piece=first):
            # A buffered read(n) gathers raw reads until it has n bytes or one returns nothing, so a
            # short piece is the end of the input. A terminal's Ctrl-D is such an end but not a
            # lasting one: reading again would wait for another paste.
            yield piece
            while len(piece) == BLOCK and (piece := stream.read(BLOCK)):
                yield piece
        pieces = rest()
    else:
        pieces = iter(source)
    pieces = iter(pieces)
    head = next(pieces, b"")
    opener = _compressed(head)
    if opener is not None:  # a rotated log kept compressed (train.log.gz): its text, as zcat would give it (nu41)
        yield from _chunks(_Decompressed(opener, chain([head], pieces)))
        return
    if head[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        decoder = codecs.getincrementaldecoder("utf-16")("replace")
        yield decoder.decode(head).encode("utf-8")
        for piece in pieces:
            yield decoder.decode(piece).encode("utf-8")
        yield decoder.decode(b"", final=True).encode("utf-8")
        return
    if head.startswith(codecs.BOM_UTF8):
        head = head[len(codecs.BOM_UTF8):]
    yield head
    yield from pieces


def _compressed(head: bytes):
    """The stdlib reader of a gzip, bzip2 or xz stream (a log kept compressed, `explain train.log.gz` or `explain - <
    train.log.xz`), by its magic bytes; None for anything else."""
    if head[:2] == b"\x1f\x8b":
        import gzip
        return lambda f: gzip.GzipFile(fileobj=f)
    if re.match(rb"BZh[1-9]1AY&SY", head[:10]):
        import bz2
        return bz2.BZ2File
    if head[:6] == b"\xfd7zXZ\x00":
        import lzma
        return lzma.LZMAFile
    return None


class _Decompressed:
    """The text of a compressed stream, read(n) as a file is (full pieces until the end); a damaged or cut archive
    ends the text where its readable part ends, as `zcat` prints what it could read."""

    def __init__(self, opener, pieces: Iterator[bytes]):
        import io

        class Raw(io.RawIOBase):
            def __init__(self):
                self.rest = b""

            def readable(self):
                return True

            def readinto(self, buf):
                while not self.rest:
                    self.rest = next(pieces, None)
                    if self.rest is None:
                        self.rest = b""
                        return 0
                n = min(len(buf), len(self.rest))
                buf[:n], self.rest = self.rest[:n], self.rest[n:]
                return n

        self.inner = opener(io.BufferedReader(Raw()))
        self.done = False

    def read(self, n: int) -> bytes:
        if self.done:
            return b""
        out = bytearray()
        try:
            while len(out) < n:
                got = self.inner.read1(n - len(out))  # (read1: what a cut stream held is kept)
                if not got:
                    break
                out += got
        except (OSError, EOFError, ValueError):  # gzip.BadGzipFile, lzma.LZMAError (an OSError), a cut stream's EOFError
            self.done = True
            return bytes(out)
        if len(out) < n:
            self.done = True
        return bytes(out)


@dataclass
class _Block:
    data: bytes  # whole lines (the last one may lack its end), colours stripped, \r\n as \n
    first_line: int  # 1-based number of its first line
    hot: list[tuple[int, frozenset[int]]]  # (line index in the block, patterns) worth a look
    starts: list[int] | None = None  # byte offset of each line (only for blocks with hot lines)
    # the groups of wide patterns its lines hold (_Index.present): each line's shape (only where a line holds one),
    # the groups held by some line, and (learnt when asked) group -> the lines holding it
    shapes: list[bytes] | None = None
    held: dict[bytes, frozenset[int]] = field(default_factory=dict)
    group_set: frozenset[int] = frozenset()
    groups: dict[int, list[int]] = field(default_factory=dict)

    end_line: int = 0  # the number of the line after its last one
    # the input's first block: line index -> the time prefix LINE_PREFIX stripped from that line of the head (head())
    head_times: dict[int, bytes] | None = None
    # (line index, lines added after it) where a JSON or repr string was decoded onto lines of its own (_escaped_texts)
    added: tuple[tuple[int, int], ...] = ()

    def __post_init__(self):
        self.end_line = self.first_line + self.data.count(b"\n") + (0 if self.data.endswith(b"\n") else 1)

    def lines_with(self, gid: int) -> list[int]:
        """The lines (indices) whose shape holds group `gid` of a wide pattern, in order."""
        at = self.groups.get(gid)
        if at is None:
            having = {s for s, g in self.held.items() if gid in g}
            at = self.groups[gid] = [i for i, s in enumerate(self.shapes or ()) if s in having] if having else []
        return at

    def line_starts(self) -> list[int]:
        """Byte offset of each line (computed once, only for blocks with hot lines)."""
        if self.starts is None:
            # C loops: split, len, one more for each line end, sum (each line starts past the ones before and their ends)
            self.starts = list(accumulate(map((1).__add__, map(len, self.data.split(b"\n"))), initial=0))
            self.starts.pop()  # (the end of the last piece)
            if self.data.endswith(b"\n") and len(self.starts) > 1:
                self.starts.pop()  # the empty "line" after the last line end
        return self.starts


def _line_ends(pieces: Iterator[bytes]) -> Iterator[bytes]:
    """The pieces with carriage returns as line ends where the input has no other line end (an old Mac's file, a
    Windows tool's or a terminal capture's without LF): decided on its first BLOCK bytes, which then hold `\r` and no
    `\n`, so every `\r` (and every `\r\n` after) is a line end, counted as an editor counts it. An input with `\n` in
    its first block keeps its lone `\r`s as progress-bar redraws (last_states)."""
    head: list[bytes] = []
    size = 0
    for piece in pieces:
        if not piece:
            continue
        head.append(piece)
        size += len(piece)
        if b"\n" in piece:
            yield from head
            yield from pieces
            return
        if size >= BLOCK:
            break
    if not any(b"\r" in h for h in head):
        yield from head
        yield from pieces
        return
    held = b""
    for piece in chain(head, pieces):
        piece = held + piece
        held = b"\r" if piece.endswith(b"\r") else b""  # its `\n` may open the next piece: one line end, not two
        if held:
            piece = piece[:-1]
        yield piece.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    if held:
        yield b"\n"


def _blocks(source, index: _Index) -> Iterator[_Block]:
    """The input as blocks of whole lines (about BLOCK bytes each; a line longer than LONG_LINE is cut, its parts
    keeping its number), each made ready to search (_make_block) and numbered from the input's first line."""
    line = 1
    carry = b""
    for piece in _line_ends(_chunks(source)):
        if not piece:
            continue
        carry += piece
        if len(carry) < BLOCK:
            continue
        cut = carry.rfind(b"\n") + 1
        if cut == 0 and len(carry) < LONG_LINE:
            continue
        data, carry = (carry[:cut], carry[cut:]) if cut else (carry, b"")
        block = _make_block(data, line, index)
        # a line cut in two (a log without line ends): its second part keeps the number
        line = block.end_line - (0 if block.data.endswith(b"\n") else 1)
        yield block
    if carry:
        yield _make_block(carry, line, index)


def last_states(data: bytes) -> bytes:
    """Each line rewritten in place with carriage returns (a progress bar's every state, as a file captures tqdm: a
    long run puts megabytes on one line) as a terminal shows it: what its last carriage return left, not counting
    returns at its end. Line ends are kept, so line numbers stay real; linear in the data."""
    out, pos = [], 0
    i = data.find(b"\r")
    while i != -1:
        start = data.rfind(b"\n", 0, i) + 1
        end = data.find(b"\n", i)
        if end == -1:
            end = len(data)
        line = data[start:end].rstrip(b"\r")
        out += (data[pos:start], line[line.rfind(b"\r") + 1:])
        pos = end
        i = data.find(b"\r", end)
    out.append(data[pos:])
    return b"".join(out)


# A console's hard wrap (helper ex68, session 10; benchmarks/explain_robustness.py wrap120): a terminal copied as it shows a
# log cuts every line longer than its width into pieces of exactly that many columns, so a message or a frame's path
# stands on two lines and no pattern finds it. The width is told from the text itself: the longest line (in characters,
# HARD_WRAP_MIN to HARD_WRAP_MAX) when two lines or more have it, or one has it and it is a usual console width; nothing is longer
# in a hard-wrapped text, and a word-wrapped paragraph's lines mostly fall a few columns short of it (HARD_WRAP_SLACK).
# Each line of that width is joined with the line after it (a piece continues at its first column), unless that line
# starts as a new one (a traceback's frame or header, an exception's name, a time, an indent, a bracket, a box's edge),
# repeats it, or starts as it does (a log's lines of one length), or the line is a table's or a box's row (`|...|`,
# `+---+`, rich's `│ ... │`). The joined line stands where the last piece stood and the earlier pieces' lines stay
# empty, so every line keeps its number and a frame's line stays above its code. Looked for only when the block's
# longest line is in range (a log whose lines run longer is not hard-wrapped).
HARD_WRAP_MIN, HARD_WRAP_MAX = 80, 300  # columns
_HARD_WRAP_WIDTHS = frozenset({80, 100, 120, 132, 140, 150, 160, 180, 200, 220, 240, 250})
_HARD_WRAP_NEW = _R.compile(rb"[ \t]*(?:File \"|Traceback \(|During handling|The above exception)|[ \t]{2}|[\w.]+(?:Error|Exception"
                       rb"|Warning|Interrupt|Exit)\b:?|\d{4}-\d\d-\d\d|\d\d:\d\d:\d\d|[\[(<#>|+]|[-=*]{2}|[-*] |\xe2[\x94\x95]|$")
_BOX_ROW = _R.compile(rb"[ \t]*(?:[|+]|\xe2[\x94\x95][\x80-\xbf])[^\n]*(?:[|+]|\xe2[\x94\x95][\x80-\xbf])[ \t]*\Z")
HARD_WRAP_PIECES = 64  # pieces of one line joined at most
# a console's copy is a screen's scrollback, not a log file: a block larger than this is not looked at (the lead, session 10:
# on benchmarks/explain_50mb.py the look cost 15% of the scan, 1.87 -> 2.0 s, for a shape no 50 MB file has)
HARD_WRAP_BYTES = 2_000_000
HARD_WRAP_SLACK = 8  # columns short of the width where a word-wrapped paragraph's lines end


def _console_unwrapped(data: bytes) -> bytes | None:
    """`data` with a console's hard-wrapped lines joined (see HARD_WRAP_MIN above), or None when it shows no hard wrap."""
    rows = data.split(b"\n")
    cols = list(map(len, rows))
    if max(cols) > 4 * HARD_WRAP_MAX:
        return None
    if not data.isascii():
        cols = [n if n < HARD_WRAP_MIN or r.isascii() else len(r.decode("utf-8", "ignore")) for n, r in zip(cols, rows)]
    width = max(cols)
    count = cols.count(width)
    if not HARD_WRAP_MIN <= width <= HARD_WRAP_MAX or (count < 2 and width not in _HARD_WRAP_WIDTHS):
        return None
    # an editor's or an author's word wrap: its lines end at a word, so most of them fall a few columns short of the width
    # (a hard wrap's cut pieces all have it exactly)
    band = sum(cols.count(n) for n in range(width - HARD_WRAP_SLACK, width))
    if band >= 2 and band >= count:
        return None
    joined = False
    i, last = 0, len(rows) - 1
    while i < last:
        try:
            i = cols.index(width, i, last)
        except ValueError:
            break
        row = rows[i]
        if _BOX_ROW.match(row):  # a table's or a box's row (nvidia-smi, rich's traceback): drawn to its width
            i += 1
            continue
        lead = row[:8].translate(_NO_DIGITS)
        j = i
        while (j < last and j - i < HARD_WRAP_PIECES and cols[j] == width and rows[j + 1] != rows[j]
               and not _HARD_WRAP_NEW.match(rows[j + 1]) and not rows[j + 1][:8].translate(_NO_DIGITS) == lead):
            j += 1
        if j > i:
            rows[j] = b"".join(rows[i:j + 1])
            rows[i:j] = [b""] * (j - i)
            joined = True
        i = j + 1
    return b"\n".join(rows) if joined else None


# A Windows path as a Python repr, a JSON dump or an exception's args print it (`'C:\\Users\\me\\site-packages\\xformers'`,
# torch's `[WinError 126] ... Error loading "C:\\...\\c10.dll"`): each doubled backslash between a path's characters read as
# one, so the entries' path separators read it (helper ex68, session 10; benchmarks/explain_robustness.py winrepr). A line's
# number stays, and so does an escape after a space or a quote (`"\\n`) and a UNC path's leading pair.
_DOUBLED_SEP = _R.compile(rb"(?<=[\w.~$)(:-])\\\\(?=[\w.~$( -])")


# The dress a log gets between a terminal and a report (helper ex140, session 23; benchmarks/explain_decorations.py tqdm,
# cp1252, rich, rich-cp1252, lineno, lineno-bar, htmlpre; benchmarks/results/explain-decorations-s23.md). Each is read through
# here, before the line prefixes, and every line keeps its number:
# - a progress bar's last state with the next text glued to it (tqdm writes no line end before an exception's traceback:
#   ` 5%|▌   | 10/200 [00:05<01:35,  2.00it/s]Traceback (most recent call last):`): the bar is cut, the text stays;
# - a line of UTF-8 read as Windows' cp1252 (a Western Windows console or editor: `│` as `â”‚`, `“` as `â€œ`): the line
#   is read back as the UTF-8 it was, where every character of it has a cp1252 byte (a byte cp1252 leaves undefined as
#   the control character of its value) and those bytes are valid UTF-8 (a real `café` is not: left alone);
# - rich's panel around a plain log (`╭───╮`, `│ line   │` rows, `╰───╯`: rich.Panel, a rich console's log in a box): its rows
#   are read as the lines inside and its edges as empty lines. A rich traceback's panel is left whole, its frames and code
#   in their bars, as triage.toml's rich patterns read it: a run of rows whose top edge names the traceback or that holds a
#   frame (`/x.py:12 in f`) or rich's marker of the raising line (`❱`). A table's rows (a bar inside) stay too;
# - a paste with line numbers (`  12 | code`, `  12  code`, a pastebin's or an editor's view): two lines or more numbered
#   one after another have their numbers cut;
# - a web page's closing `</code></pre>` at a line's end (its opening tags are LINE_PREFIX's).
# A paste, not a log file: looked for in blocks of PASTE_BYTES at most (as the console's hard wrap, HARD_WRAP_BYTES), each
# behind a one-byte test where it can be.
PASTE_BYTES = 2_000_000
_BAR_GLUED = _R.compile(rb"[^\n]{0,80}?\d{1,3}%\|[^|\n]{0,60}\|[^\n\[]{0,40}\[[^\]\n]{0,120}\]")
# where a bar's state ends with text after it (a literal first: found at C speed in a training log's every redraw)
_BAR_ENDS_GLUED = (_R.compile(rb"it/s\](?=\S)"), _R.compile(rb"s/it\](?=\S)"))
_CP1252_BYTE = {ch: b for b in range(256) for ch in (bytes([b]).decode("cp1252", "ignore") or chr(b),)}
_MOJIBAKE_LINE = _R.compile(rb"^[^\n]*\xc3[\x82-\x83\xa2-\xaf][\xc2-\xe2][^\n]*$", re.M)
_BOX_ROW_LINE = _R.compile(rb"[ \t]*\xe2\x94\x82 ?([^\n]*?)[ \t]*\xe2\x94\x82[ \t]*")
_BOX_EDGE = _R.compile(rb"[ \t]*\xe2\x95[\xad\xb0](?:\xe2\x94\x80|[^\n\xe2])*\xe2\x95[\xae\xaf][ \t]*")
_RICH_TRACEBACK_ROW = _R.compile(rb"\xe2\x9d\xb1|\.pyx?:\d+ in\b|[ \t]\xe2\x94\x82[ \t]")
_NUMBERED = _R.compile(rb"^[ \t]*(\d{1,5})(?:[ \t]?(?:\||\xe2\x94\x82)(?:[ \t]|$)| {2}|\t|$)", re.M)
_PRE_END = _R.compile(rb"(?:</code>)?</pre>[ \t]*$", re.M)


def _unmojibaked(m: re.Match) -> bytes:
    line = m.group()
    try:
        raw = bytes(_CP1252_BYTE[c] for c in line.decode("utf-8"))
        raw.decode("utf-8")
    except (KeyError, UnicodeDecodeError):
        return line
    return raw


def _unboxed(data: bytes) -> bytes:
    rows = data.split(b"\n")
    out = list(rows)
    i, n = 0, len(rows)
    while i < n:
        if _BOX_ROW_LINE.fullmatch(rows[i]) is None:
            i += 1
            continue
        j = i
        while j < n and _BOX_ROW_LINE.fullmatch(rows[j]) is not None:
            j += 1
        top = i - 1 if i and _BOX_EDGE.fullmatch(rows[i - 1]) else None
        inner = [_BOX_ROW_LINE.fullmatch(r).group(1) for r in rows[i:j]]
        if not (top is not None and b"Traceback" in rows[top]) and not any(map(_RICH_TRACEBACK_ROW.search, inner)):
            out[i:j] = inner
            if top is not None:
                out[top] = b""
            if j < n and _BOX_EDGE.fullmatch(rows[j]):
                out[j] = b""
        i = j
    return b"\n".join(out)


def _unnumbered(data: bytes) -> bytes:
    found, line, at = [], 0, 0  # (the line of each match counted on from the last one: a count from the top is quadratic)
    for m in _NUMBERED.finditer(data):
        line += data.count(b"\n", at, m.start())
        at = m.start()
        found.append((line, int(m.group(1)), m.end() - m.start()))
    runs, run = [], []
    for f in found:
        if run and (f[0] != run[-1][0] + 1 or f[1] != run[-1][1] + 1):
            runs.append(run)
            run = []
        run.append(f)
    runs.append(run)
    cut = {line: width for run in runs if len(run) >= 2 for line, _, width in run}
    if not cut:
        return data
    rows = data.split(b"\n")
    return b"\n".join(r[cut[k]:] if k in cut else r for k, r in enumerate(rows))


def _without_spans(data: bytes, cuts) -> bytes:
    """`data` without the spans (start, end) of `cuts`; a span that begins inside one cut before it is passed over."""
    if not cuts:
        return data
    out, last = [], 0
    for start, end in sorted(cuts):
        if start >= last:
            out.append(data[last:start])
            last = end
    out.append(data[last:])
    return b"".join(out)


def _bars_unglued(data: bytes) -> bytes:
    cuts = []
    for rx in _BAR_ENDS_GLUED:
        for m in rx.finditer(data):
            start = data.rfind(b"\n", 0, m.start()) + 1
            if (bar := _BAR_GLUED.match(data, start, m.end())) is not None and bar.end() == m.end():
                cuts.append((start, m.end()))
    return _without_spans(data, cuts)


def _pasted_dress(data: bytes) -> bytes:
    if b"%|" in data:
        data = _bars_unglued(data)
    if len(data) > PASTE_BYTES:
        return data
    if b"\xc3" in data:
        data = _MOJIBAKE_LINE.sub(_unmojibaked, data)
    if b"\xe2\x94\x82" in data:
        data = _unboxed(data)
    if _NUMBERED.search(data) is not None:
        data = _unnumbered(data)
    if b"</pre>" in data:
        data = _PRE_END.sub(b"", data)
    return data


# A log copied from a web page's Markdown source (helper ex131, session 22; benchmarks/explain_decorations.py mdescape,
# backticks): an editor escapes Markdown's characters (`flash\_attn\_2\_cuda`, `\[rank0\]`), and a comment quotes a log
# line by line as inline code (`` `RuntimeError: ...` ``). A line whose every backslash escapes an ASCII punctuation character,
# and which holds an escaped `_`, `*` or `[` and no bare `_`, is read unescaped (a Windows path has a backslash before a letter
# and is left alone; so is a Python repr's doubled one beside a bare `_`); a line that is one span of inline code is read
# without its backticks. Lines keep their numbers.
_MD_ESCAPED_LINE = _R.compile(rb"^(?:[^\\_\n]|\\[!-/:-@\[-`{-~])*\\[_*\[](?:[^\\_\n]|\\[!-/:-@\[-`{-~])*$", re.M)
_MD_ESCAPE = _R.compile(rb"\\([!-/:-@\[-`{-~])")
_INLINE_CODE_LINE = _R.compile(rb"^((?:> ?)?)`([^`\n]+)`[ \t]*$", re.M)


def _markdown_source(data: bytes) -> bytes:
    if b"\\_" in data or b"\\*" in data or b"\\[" in data:
        data = _MD_ESCAPED_LINE.sub(lambda m: _MD_ESCAPE.sub(rb"\1", m.group()), data)
    if b"`" in data:
        data = _INLINE_CODE_LINE.sub(rb"\1\2", data)
    return data


# An error's text inside a string of a JSON document or a Python repr (helper ex131, session 22;
# benchmarks/explain_decorations.py json, dictrepr): an API's or a job's status `{"error": "Traceback ...\n  File ..."}`, a
# dict printed with an exception's repr in it (`'error': "RuntimeError('...')"`): one line, its line ends and quotes escaped.
# A string value on such a line that holds a traceback (two escaped line ends or more and an error's words) or starts with
# an exception's name is read on lines of its own with its escapes (`\n`, `\t`, `\r`, `\"`, `\'`, `\\`, JSON's `\u2502`) as
# the characters they stand for, and an exception's repr (`RuntimeError('msg')`) as Python prints the exception
# (`RuntimeError: msg`); so is a string of lines under a failure's key (_FAILURE_KEY), whatever its words (helper ex149,
# session 25: a job's status around a report, `{"status": "failed", "error": "<title>\\n\\n<body>"}`, is read as the report; the
# record's own line is no prose, prose.toml LINE). The patterns and attribution count the lines it adds as lines of the text;
# explain shows every finding on its line of the input (_Block.added, Scan.input_line: a decoded string's on the line that holds
# it; review rev22). Looked for only on a line with an escaped line end or a quote before a name ending in `Error`.
_ESCAPED_TEXT_WORDS = (b"Traceback (most recent call last):", b"Error: ", b"Exception: ", b"Error(", b"error: ", b'File \\"',
                       b'File "')
# a string that stands as a value (after `:`, `=`, `,` or an opening bracket: a key's, an argument's, a list's), not a quote in prose
_STRING = _R.compile(rb"""(?:(?<=[:=,\[({])|(?<=[:=,\[({] ))(?:"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)')""")
_STRING_ERROR = _R.compile(rb"Traceback \(most recent call last\)|[A-Z][\w.]*(?:Error|Exception)(?:: |\()")
_TEXT_ESCAPE = _R.compile(rb"\\([nrt\"'\\]|u[0-9a-fA-F]{4})")
_TEXT_ESCAPES = {b"n": b"\n", b"r": b"", b"t": b"\t", b'"': b'"', b"'": b"'", b"\\": b"\\"}
_EXCEPTION_REPR = _R.compile(rb"""([A-Z][\w.]*(?:Error|Exception|Warning))\((?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'),?\)\s*\Z""")
_QUOTED_NAME = _R.compile(rb"""["'][\w.]*Error(?:: |\()""")
# the key or argument a one-line exception's string stands under for it to be the failure (`"error": "RuntimeError: ..."`,
# `detail=`, `exc_info`): not a status's field that names an optional package's absence (round 97's unrelated
# Comfy-Org/ComfyUI#12162: `'unavailable_reason': "ImportError: No module named 'triton'"`)
_ERROR_KEY = _R.compile(rb"""(?i)(?:err\w*|exc\w*|exception|traceback|fail\w*|detail|message|msg|stderr)["']?[ \t]*[:=][ \t]*\Z""")
# of those, the keys that say a failure: a string of lines under one is the failure's text; under a message's or a detail's key only
# a text of three lines or more is (`"msg": "step done\nnext"` is a log's record; helper ex149)
_RECORD_OPENS = (b'{"', b"{'")
_FAILURE_KEY = _R.compile(rb"""(?i)(?:err\w*|exc\w*|exception|traceback|fail\w*|stderr)["']?[ \t]*[:=][ \t]*\Z""")


def _unescaped(m: re.Match) -> bytes:
    e = m.group(1)
    return _TEXT_ESCAPES[e] if len(e) == 1 else chr(int(e[1:], 16)).encode("utf-8", "replace")


def _decoded_string(m: re.Match) -> bytes:
    body = m.group(1) if m.group(1) is not None else m.group(2)
    key = max(0, m.start() - 48)  # where the key it stands under is looked for
    if body.count(b"\\n") >= 2 and any(w in body for w in _ESCAPED_TEXT_WORDS):
        pass  # a traceback or a log in a string: read whatever holds it
    elif ((_STRING_ERROR.match(body) or body.count(b"\\n") >= 2) and _ERROR_KEY.search(m.string, key, m.start())
          or (b"\\n" in body or b" " in body) and _FAILURE_KEY.search(m.string, key, m.start())):
        pass  # an error's text under the key that says so: an exception, or words (a report, a log naming no error; one line too:
        # `{"status": "failed", "error": "sageattention fails on RTX 2080: ..."}`, review rev25, whose record line is no prose)
    else:
        return m.group()
    text = _TEXT_ESCAPE.sub(_unescaped, body)
    if (r := _EXCEPTION_REPR.match(text)) is not None:
        inner = r.group(2) if r.group(2) is not None else r.group(3)
        text = r.group(1) + b": " + _TEXT_ESCAPE.sub(_unescaped, inner)
    return b"\n" + text + b"\n"


def _escaped_texts(data: bytes) -> bytes:
    """`data` with the error strings of its JSON and repr lines on lines of their own, decoded. A line is looked at where it holds an escaped line end (only if `data` holds a backslash at all) or a quote
    before a name ending in `Error` (one bytes.find each: a 2-byte search is ~10 times slower than one of 1 byte)."""
    return _escaped_texts_added(data)[0]


def _escaped_texts_added(data: bytes) -> tuple[bytes, tuple[tuple[int, int], ...]]:
    """_escaped_texts's text, and the lines it adds: (0-based index in the decoded text of a line whose strings were
    decoded, how many lines its decoding added after it), for explain to give every line the number it has in the input
    (Scan.input_line; review rev22: a finding after such a line was shown some lines below the input's end)."""
    starts = set()
    words = (b"\\n", b"Error") if b"\\" in data else (b"Error",)
    if len(data) <= PASTE_BYTES and b"{" in data:
        words += _RECORD_OPENS  # a record's one-line error string in words (in a paste only: two finds of two bytes)
    for word in words:
        at = data.find(word)
        while at >= 0:
            line = data.rfind(b"\n", 0, at) + 1
            if word == b"\\n" or word in _RECORD_OPENS or _QUOTED_NAME.search(data, max(line, at - 120), at + len(word) + 2):
                starts.add(line)
            at = data.find(b"\n", at)
            at = -1 if at < 0 else data.find(word, at)
    if not starts:
        return data, ()
    out, last, added, counted, index = [], 0, [], 0, 0
    for line in sorted(starts):
        end = data.find(b"\n", line)
        end = len(data) if end < 0 else end
        decoded = _STRING.sub(_decoded_string, data[line:end])
        index += data.count(b"\n", counted, line)  # (the line's index in the input block, then in the decoded text)
        counted = line
        if decoded.count(b"\n"):
            added.append((index, decoded.count(b"\n")))
            index += decoded.count(b"\n")
        out += (data[last:line], decoded)
        last = end
    out.append(data[last:])
    return b"".join(out), tuple(added)


def _make_block(data: bytes, first_line: int, index: _Index) -> _Block:
    """A block as the patterns read it, with its hot lines: colours (ANSI escapes and their caret notation) and
    Windows line ends gone, each progress bar's redraws as its last state, launchers' and loggers' line prefixes
    stripped, HTML escapes and curly quotes as the characters they stand for, IPython's frames in Python's form, a web
    page's Markdown escapes and inline code read through (_markdown_source), a JSON or repr string's error decoded onto lines
    of its own (_escaped_texts); then each line's shape looked up in the prefilter (a long line's where the patterns read
    it). Every line keeps its number; the lines a decoded string adds are numbered after it (_escaped_texts: Scan.input_line
    gives back the input's numbers).
    Each look for a string of two bytes or more is made only where a byte of it is in the block at all (a search for one
    byte is ~50 times faster than for two: six such looks were ~0.15 s of a 50 MB log that holds none of them)."""
    if b"\x1b" in data:
        data = ANSI_BYTES.sub(b"", data)
    if b"^" in data and (b"^[[" in data or b"^M" in data):
        data = CARET_BYTES.sub(b"", data)
    if b"\r" in data and b"\r\n" in data:
        data = data.replace(b"\r\n", b"\n")
    if b"\r" in data:
        data = last_states(data)
    data = _pasted_dress(data)
    if b"\\" in data or b"`" in data:
        data = _markdown_source(data)
    added: tuple[tuple[int, int], ...] = ()
    if b'"' in data or b"'" in data:
        data, added = _escaped_texts_added(data)
    raw = data
    while True:  # twice at most: again on the raw lines with a console's hard wrap joined (_console_unwrapped)
        first = LINE_PREFIX.match(data)
        head_times = _head_times(data) if first_line == 1 else None
        data = _AFTER_LINE_END.sub(b"\n", data[first.end():] if first else data)
        data = _quoted_error_leads(data)
        if len(data) <= PASTE_BYTES:  # a report's dress, looked for in a paste only (nine finds: 0.2 s of a 50 MB log's CPU)
            data = _native_error_leads(data)
        if b"&" in data:
            data = HTML_ENTITY.sub(lambda m: _HTML_CHARS[m.group()], data)
        if b"\\" in data and b"\\\\" in data:  # a Windows path as a Python repr prints it (`C:\\Users\\x`), read as the path (_DOUBLED_SEP)
            data = _DOUBLED_SEP.sub(rb"\\", data)
        if b"\x80" in data and b"\xe2\x80" in data:  # a forum's or an editor's curly quotes, read as the quotes they stand for
            data = data.replace(b"\xe2\x80\x98", b"'").replace(b"\xe2\x80\x99", b"'") \
                .replace(b"\xe2\x80\x9c", b'"').replace(b"\xe2\x80\x9d", b'"')
        if b">" in data and b"> " in data and (b"---> " in data or b"--> " in data):
            data = _python_frames(data)
        shapes = data.translate(_SHAPE).split(b"\n")
        if data.endswith(b"\n"):
            shapes.pop()
        longest = max(map(len, shapes)) if shapes else 0
        # a hard-wrapped text's lines (their prefixes stripped) are no longer than a console's width
        if raw is None or len(raw) > HARD_WRAP_BYTES or not HARD_WRAP_MIN // 2 <= longest <= 4 * HARD_WRAP_MAX \
                or (joined := _console_unwrapped(raw)) is None:
            break
        data, raw = joined, None
    if longest > 2 * LINE_READ:  # a long line's needles where the patterns read it
        shapes = [_read_of_line(s) for s in shapes]
    distinct = set(shapes)
    hot = index.hot(shapes, distinct)
    if index.always:
        every, held_at = frozenset(index.always), dict(hot)  # (the dict once: built per line, a quadratic pass)
        hot = [(i, every | held_at.get(i, frozenset())) for i in range(len(shapes))]
    present = index.present
    held = {s: g for s in distinct if (g := present[s])}
    if not held:
        return _Block(data, first_line, hot, head_times=head_times, added=added)
    return _Block(data, first_line, hot, shapes=shapes, held=held, group_set=frozenset().union(*held.values()),
                  head_times=head_times, added=added)


# A time or date at the start of a launcher's or logger's prefix ("2025-11-02 09:14:03 WARNING ", "2025-11-02T09:14:03.123Z ")
_PREFIX_TIME = _R.compile(rb"\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d|\[?\d\d:\d\d:\d\d")


def _head_times(data: bytes) -> dict[int, bytes] | None:
    """The time prefixes LINE_PREFIX strips from the input's first HEAD_MAX_LINES lines (line index -> the prefix from its time
    on). A report's head reads a pasted program's line by its prefix (prose.toml PROGRAM, LINE): `[09:14:03] WARNING ...` keeps
    its time, as LINE_PREFIX leaves a time alone; `2025-11-02 09:14:03 WARNING ...` and an ISO time with its zone lose theirs
    there, and head() gives it back (helper ex61, session 9)."""
    out = {}
    at = 0
    for i in range(HEAD_MAX_LINES):
        m = LINE_PREFIX.match(data, at)
        if m and m.end() > at and (t := _PREFIX_TIME.search(data, at, m.end())):
            out[i] = data[t.start():m.end()]
        j = data.find(b"\n", at, at + HEAD_LINE_BYTES + 1)
        if j == -1:
            break
        at = j + 1
    return out or None


# ---- the search ------------------------------------------------------------------------------------

@dataclass
class _Candidate:
    entry: Entry
    best: int = 0  # the specificity of its most specific pattern that hit
    patterns: set = field(default_factory=set)  # which of its patterns hit
    position: int = -1
    first_line: int = 0
    evidence: str = ""
    starts: set[int] = field(default_factory=set)  # the lines where a hit begins: how many times it shows
    lines: set[int] = field(default_factory=set)  # the first and last line of each hit: what it claims
    # a catch-all's later hits, line -> (position, evidence): where it is reported when its first line is explained
    later: dict[int, tuple[int, str]] = field(default_factory=dict)

    @property
    def score(self) -> float:
        return self.best + 2 * (len(self.patterns) - 1)

    @property
    def count(self) -> int:
        return len(self.starts)


class Lines:
    """The lines of the input explain needs beyond the matches (attribution looks around each
    entry's first hit): a list-like view, 0-based like a list of the input's lines, "" elsewhere."""

    def __init__(self, context: dict[int, str] | None = None, count: int = 0):
        self.context = context if context is not None else {}
        self.count = count

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, i: int) -> str:
        return self.context.get(i + 1, "")

    def __iter__(self):
        # (without it Python iterates by index until IndexError, which __getitem__ never raises: a loop over a one-line input
        # never ended, session 42)
        return (self[i] for i in range(self.count))


@dataclass
class Scan:
    """What one pass over an input found."""
    found: list[Match]  # ranked (see the module docstring), every one of them
    lines: Lines  # the input's lines around each first hit, and how many lines it has
    size: int = 0  # bytes read
    blank: bool = True  # nothing but white space in it
    probed: dict[str, list[tuple[int, dict]]] = field(default_factory=dict)  # probe name -> [(line, groups)]
    # (line, lines added after it) of each line whose JSON or repr string was decoded onto lines of its own
    # (_escaped_texts), numbered as the lines above are: the matches' lines count them, the input does not
    added: list[tuple[int, int]] = field(default_factory=list)
    # its first bytes are no text: control characters no log holds (not NUL, which pads a log a crash cut) make more
    # than BINARY_SHARE of them, after a gzip / bzip2 / xz stream is opened (looks_binary; nu41 row 8)
    binary: bool = False

    def input_line(self, n: int) -> int:
        """The number in the input of line `n` as the matches number it: a decoded string's lines are its line's."""
        shift = 0
        for line, k in self.added:
            if n <= line:
                break
            if n <= line + k:
                return line - shift
            shift += k
        return n - shift


def _line_of(nl: list[int], pos: int) -> int:
    """0-based line (within a region) of character `pos`, given the region's newline positions."""
    return bisect.bisect_right(nl, pos - 1) if pos else 0


class _Scanner:
    def __init__(self, index: _Index):
        self.index = index
        self.cands: dict[int, _Candidate] = {}
        self.hits = [0] * len(index.patterns)
        self.tags = 0
        self.context: dict[int, str] = {}
        self.head_end = HEAD_LINES  # the last line of the input's head (set by head())
        self.form_end = 0  # the last line of an issue form's head (_form_head), where the input is one
        self.form_setup: frozenset[int] = frozenset()  # and the lines of its environment and boilerplate sections
        self.probed: dict[str, list[tuple[int, dict]]] = {}

    def head(self, first: _Block) -> None:
        """Run the `head` entries' patterns once, over the input's first HEAD_LINES lines."""
        if not self.index.head or first.first_line != 1:
            return
        z = lines = said = 0
        # the input's first HEAD_LINES lines that say something, within HEAD_MAX_LINES lines (blank lines, METRIC_ROW and ENV_ROW
        # lines are no sentences)
        while said < HEAD_LINES and lines < HEAD_MAX_LINES:
            j = first.data.find(b"\n", z, z + HEAD_TITLE_BYTES + 1)
            if j == -1:
                if len(first.data) - z <= HEAD_TITLE_BYTES:
                    z = len(first.data)
                    lines += 1
                break  # the lines from a long one on are not read as a report's head
            said += (bool(first.data[z:j].strip()) and not METRIC_ROW.match(first.data, z, j)
                     and not ENV_ROW.match(first.data, z, j))
            lines += 1
            z = j + 1
        self.head_end = lines
        form = _form_head(first.data) if z else None
        if z and lines >= HEAD_MAX_LINES and said < HEAD_LINES and form is None:
            # (an issue form's head is read past its scaffolding below, its environment blanked: never the raw lines)
            self._wide_head(first, z, lines, said)
        if form is not None:  # an issue form: what its environment lists is no failure (_form_head, _region)
            self.form_setup = form[0]
        if z and first.head_times:  # a pasted program's line keeps its time prefix where the head reads it (_head_times)
            rows = first.data[:z].split(b"\n")
            view = b"\n".join(first.head_times.get(i, b"") + row for i, row in enumerate(rows))
            self._region(view, 0, len(view), 1, frozenset(self.index.head), first)
        elif z:
            view = first.data[:z]
            self._region(first.data, 0, z, 1, frozenset(self.index.head), first)
        if z and (joined := _wrapped_head(view)) is not None:
            # the head read once more with its hard-wrapped sentences joined (each on its first line, the next left
            # blank, so every line keeps its number); attribution reads the lines as they are
            self._keep_context(view, 0, 1)
            self._region(joined, 0, len(joined), 1, frozenset(self.index.head), first)
        if form is not None:
            # and the form's head past its scaffolding (_form_head): read to its last line, its blanked lines by no entry
            view, self.form_end = form[1:]
            self._keep_context(first.data, 0, 1)  # attribution reads the lines as they are
            self._region(view, 0, len(view), 1, frozenset(self.index.head), first)
            if (lead := _FORM_LEAD.match(view)) is not None and lead.end() < len(view):
                # a form heading over the first sentence ("### Describe the bug" / "**Describe the bug**" / "## 问题描述", then
                # "Flash attention 2 is not supported on the V100."): the heading is the form's, no title; the patterns that
                # read a report's title (`\A`) read the first line that says something as the input's start (helper ex166)
                self._region(view, lead.end(), len(view), view.count(b"\n", 0, lead.end()) + 1, self.index.titled, first,
                             title=True)
            if (joined := _wrapped_head(view)) is not None:
                self._region(joined, 0, len(joined), 1, frozenset(self.index.head), first)

    def _wide_head(self, first: _Block, z: int, lines: int, said: int) -> None:
        """The head read on by the HEAD_WIDE entries (above HEAD_WIDE_LINES): from the head's end `z` (line `lines`, `said`
        sentences in it) to its HEAD_LINES-th sentence, within HEAD_WIDE_LINES lines; the lines from a long one on are not read."""
        end, n = z, lines
        while said < HEAD_LINES and n < HEAD_WIDE_LINES:
            j = first.data.find(b"\n", end, end + HEAD_TITLE_BYTES + 1)
            if j == -1:
                break
            said += (bool(first.data[end:j].strip()) and not METRIC_ROW.match(first.data, end, j)
                     and not ENV_ROW.match(first.data, end, j))
            n += 1
            end = j + 1
        if end == z:
            return
        wide = frozenset(k for k in self.index.head if self.index.patterns[k][0].id in HEAD_WIDE)
        self.head_end = n  # (a head entry's hit past head_end is dropped: _region)
        try:
            self._region(first.data, 0, end, 1, wide, first)
        finally:
            self.head_end = lines

    def block(self, prev: _Block | None, cur: _Block, nxt: _Block | None) -> None:
        """Search the lines around cur's hot lines (and the hot lines of its neighbours that reach
        into it); keep the hits that begin in cur."""
        if prev is None:
            self.head(cur)
        parts = [b for b in (prev, cur, nxt) if b is not None]
        offset, base = {}, 0
        for b in parts:
            offset[id(b)] = base
            base += len(b.data)
        lo, hi = offset[id(cur)], offset[id(cur)] + len(cur.data)
        wide = self.index.wide
        wide_factors = self.index.wide_factors
        possible: dict[int, bool] = {}  # a wide pattern: does each of its groups lie in one of the blocks at all?

        def held(gid: int, w_lo: int, w_hi: int) -> bool:  # does a line within [w_lo, w_hi) hold group gid?
            for b in parts:
                if gid not in b.group_set:
                    continue
                off = offset[id(b)]
                if off >= w_hi or off + len(b.data) <= w_lo:
                    continue
                at = b.lines_with(gid)
                starts = b.line_starts()
                i_lo, i_hi = bisect.bisect_left(starts, w_lo - off), bisect.bisect_left(starts, w_hi - off)
                j = bisect.bisect_left(at, i_lo)
                if j < len(at) and at[j] < i_hi:
                    return True
            return False

        def may_match(p: int) -> bool:  # each of p's groups in one of the blocks
            if p not in possible:
                possible[p] = all(any(gid in b.group_set for b in parts) for gid in wide_factors.get(p, ()))
            return possible[p]

        def can_match(p: int, own: frozenset[int], w_lo: int, w_hi: int) -> bool:  # each of p's groups in its window
            return may_match(p) and all(gid in own or held(gid, w_lo, w_hi) for gid in wide_factors.get(p, ()))
        windows = []
        joined: list[bytes] = []

        def buf_of(parts: list[_Block]) -> bytes:  # the three blocks' bytes, joined once
            if not joined:
                joined.append(b"".join(b.data for b in parts))
            return joined[0]

        for b in parts:
            if not b.hot:
                continue
            starts = b.line_starts()
            off = offset[id(b)]
            for i, pats in b.hot:
                a = off + starts[i]
                z = off + (starts[i + 1] if i + 1 < len(starts) else len(b.data))
                pats = frozenset(p for p in pats if p == _ID or self.hits[p] < MAX_HITS)
                if not pats:
                    continue
                far = pats & wide
                if far:  # patterns that may reach across lines: the window around the line
                    if z + SPAN >= lo and a - SPAN <= hi:
                        # the window stays (the region's extent is what a lookaround of the others reads, as before),
                        # searched by the patterns whose other groups lie within it
                        w_lo, w_hi = _widen(buf_of(parts), a, z)
                        own = b.held.get(b.shapes[i], frozenset()) if b.shapes else frozenset()  # the line's own
                        windows.append((w_lo, w_hi, frozenset(p for p in far if can_match(p, own, w_lo, w_hi))))
                if pats - far and lo <= a < hi:  # the rest match on this line alone
                    windows.append((a, z, pats - far))
        if not windows:
            return
        buf = buf_of(parts)
        first_line = parts[0].first_line
        regions: list[list] = []
        for a, z, pats in sorted(windows, key=lambda w: w[0]):
            if regions and a < regions[-1][1]:
                regions[-1][1] = max(regions[-1][1], z)
                regions[-1][2] = regions[-1][2] | pats
            else:
                regions.append([a, z, pats])
        # lines near each other (GLUE bytes apart at most) that only line_local patterns search: one text (a pattern hot
        # on every line of a log that repeats a line naming a backend is then run once per block, not once per line;
        # the lines between, of this block, hold no needle of theirs, so they find nothing there)
        is_local = self.index.is_local
        glued: list[list] = []
        for r in regions:
            if glued and 0 <= r[0] - glued[-1][1] <= GLUE and all(map(is_local, glued[-1][2])) \
                    and all(map(is_local, r[2])):
                glued[-1][1] = r[1]
                glued[-1][2] = glued[-1][2] | r[2]
            else:
                glued.append(r)
        regions = glued
        at, line = 0, first_line
        for a, z, pats in regions:  # in order: count the line ends between one region and the next
            line += buf.count(b"\n", at, a)
            at = a
            if pats:
                self._region(buf, a, z, line, pats, cur)

    def _region(self, buf: bytes, a: int, z: int, line0: int, pats: frozenset[int], cur: _Block, title: bool = False) -> None:
        """Run the patterns `pats` over buf[a:z] (whole lines, the first of them line `line0`; a long line read as
        _read_of_line says) and record each hit that begins in `cur`: an entry's (_hit), a probe's, or an id tag's. `title`:
        buf[a:z] opens with the report's title though line0 is not 1 (an issue form's, past its headings)."""
        data = buf[a:z]
        if z - a > 2 * LINE_READ:
            data = _read_of_long_lines(data)
        text = data.decode("utf-8", "replace")
        nl = [m.start() for m in re.finditer("\n", text)]
        own_lo, own_hi = cur.first_line, cur.end_line
        index = self.index
        kinds: dict[bytes | None, tuple | None] = {}  # (a digit table ->) the region's lines by kind (_kinds)
        # a long region's literal groups, each looked for once (text_gate): a pattern whose literal the text lacks is not run
        # (what each group said, the text's distinct lines folded, the text folded)
        gate: list | None = [{}, None, None] if len(text) >= GATE_CHARS else None
        sentences: list | None = None  # [_sentence_runs], when first needed
        for p in sorted(pats):
            if p == _ID:
                self._tags(buf, a, text, nl, line0, own_lo, own_hi)
                continue
            e, pattern = index.patterns[p]
            if line0 != 1 and not title and pattern.startswith("\\A"):
                continue  # `\A` is the input's start (a report's title), not the start of a window around a line
            spans = None
            if p in index.head_gate:  # a report's head: its matches, kept; none where it lacks a literal the pattern needs
                spans = index.head_spans(text, p)
                if spans is None:
                    continue
            rx = index.rx(p)
            short = None  # a sentence's pattern (body): the runs of lines short enough to be sentences, where some are not
            if e is not None and e.body and spans is None:
                if sentences is None:
                    sentences = [_sentence_runs(text, nl)]
                short = sentences[0]
            if spans is None and e is not None and (len(nl) >= KIND_LINES or len(text) >= KIND_CHARS) and index.is_local(p):
                table = index.digit_table(p)
                key = table if short is None else (table, HEAD_LINE_BYTES)
                if key not in kinds:
                    kinds[key] = _kinds(data, text, nl, table, None if short is None else HEAD_LINE_BYTES)
                if kinds[key]:
                    spans = _spans_by_kind(rx, text, nl, kinds[key])
                elif len(nl) >= BLIND_LINES and (blind := digit_blind(pattern)) is not None:  # too many kinds for its digits
                    if _NO_DIGITS not in kinds:
                        kinds[_NO_DIGITS] = _kinds(data, text, nl, _NO_DIGITS)
                    if kinds[_NO_DIGITS] and not blind.search(kinds[_NO_DIGITS][2]):
                        continue  # not even with any digits anywhere: nothing here
            if spans is None and gate is not None and not self._gated(gate, text, p):
                continue  # (a pattern read by kind reads a few lines: its look costs less than the gate's)
            if spans is None and short is not None:
                spans = (m.span() for x, y in short for m in rx.finditer(text, x, y))
            for m in (rx.finditer(text) if spans is None else spans):
                if self.hits[p] >= MAX_HITS:
                    break
                m_start, m_end = (m.start(), m.end()) if spans is None else m
                start = line0 + _line_of(nl, m_start)
                if not own_lo <= start < own_hi:
                    continue
                if e is not None and e.head and start > self.head_end and start > self.form_end:
                    break
                if e is not None and e.head and start in self.form_setup:
                    continue  # a form's environment: the setup, not the failure
                if e is not None and e.body and start <= self.head_end:
                    continue  # the head's lines are the `head` entries' to read
                self.hits[p] += 1
                if e is None:
                    self.probed.setdefault(index.probe_names[p], []).append((start, m.groupdict()))
                    continue
                end = line0 + _line_of(nl, max(m_start, m_end - 1))
                self._hit(e, _specificity(pattern), p, start, end, m_start, text, nl, line0, buf, a)

    def _gated(self, gate: list, text: str, p: int) -> bool:
        """Does `text` hold one alternative of each of pattern p's literal groups (_Index.text_gate)? `gate` keeps, for this
        text, what each group said and the text folded (its distinct lines, and where a literal holds a line end, all of it:
        each made when first needed)."""
        held = gate[0]
        groups = self.index._head_group_list
        for g in self.index.text_gate(p):
            v = held.get(g)
            if v is None:
                if any("\n" in x for x in groups[g]):  # a literal across a line end: looked for in the text as it is
                    if gate[2] is None:
                        gate[2] = _fold(text)
                    folded = gate[2]
                else:  # one within a line: in the text's distinct lines (_distinct_text)
                    if gate[1] is None:
                        gate[1] = _fold(_distinct_text(text))
                    folded = gate[1]
                v = held[g] = any(x in folded for x in groups[g])
            if not v:
                return False
        return True

    def _tags(self, buf, a, text, nl, line0, own_lo, own_hi) -> None:
        """Record attn-doctor's own finding ids in the region (`[some.id]`, `"id": "some.id"`) as hits of their entries."""
        known, ids = self.index.known, self.index.ids
        for m in ID_TAG.finditer(text):
            eid = m.group(1) or m.group(2)
            if eid not in known or (ids is not None and eid not in ids) or self.tags >= 10 * MAX_HITS:
                continue
            start = line0 + _line_of(nl, m.start())
            if not own_lo <= start < own_hi:
                continue
            self.tags += 1
            end = line0 + _line_of(nl, max(m.start(), m.end() - 1))
            self._hit(known[eid], ID_TAG_SCORE, ("id", eid), start, end, m.start(), text, nl, line0, buf, a)

    def _hit(self, e: Entry, spec: int, key, start: int, end: int, pos: int, text: str, nl: list[int],
             line0: int, buf: bytes, a: int) -> None:
        """Count one hit of `e` (pattern `key`, specificity `spec`) on lines start..end. Its earliest hit sets where the
        entry is reported (position, line, the evidence line: a last resort's the exception line under its frame) and
        keeps the lines around it (attribution reads them); a catch-all remembers its later lines too (_rank may report
        it on one of them)."""
        c = self.cands.get(id(e))  # by object: an entry and its weak copy (frames) are two candidates
        if c is None:
            c = self.cands[id(e)] = _Candidate(e)
        c.best = max(c.best, spec)
        c.patterns.add(key)
        c.starts.add(start)
        c.lines.update((start, end))
        k = start - line0  # the hit's line within the region
        ls = nl[k - 1] + 1 if k else 0
        position = (start << 24) + min(pos - ls, (1 << 24) - 1)
        if e.generic and not e.fallback and c.position != -1 and start != c.first_line and start not in c.later \
                and len(c.later) < MAX_LATER:
            # a catch-all's other lines: it may stand for one of them alone (_rank), read there
            le = nl[k] if k < len(nl) else len(text)
            c.later[start] = (position, text[ls:le].strip()[:300])
            self._keep_context(buf, _line_start(buf, a, k), start)
        if c.position == -1 or position < c.position:
            if e.generic and not e.fallback and c.position != -1 and c.first_line not in c.later \
                    and len(c.later) < MAX_LATER:
                c.later[c.first_line] = (c.position, c.evidence)
            c.position, c.first_line = position, start
            le = nl[k] if k < len(nl) else len(text)
            seg_a = text.rfind("\r", ls, pos) + 1 or ls
            seg_z = text.find("\r", pos, le)
            c.evidence = text[seg_a:le if seg_z == -1 else seg_z].strip()[:300]
            if e.fallback and end > start:  # a frame then its exception: the exception line is what was raised
                ke = end - line0
                la = nl[ke - 1] + 1 if ke else 0
                c.evidence = text[la:nl[ke] if ke < len(nl) else len(text)].strip()[:300] or c.evidence
                c.first_line = end
            self._keep_context(buf, _line_start(buf, a, k), start)

    def _keep_context(self, buf: bytes, at: int, line: int) -> None:
        """Keep CONTEXT_LINES lines either side of `line` (which starts at byte `at` of buf)."""
        if line in self.context and line + 1 in self.context and line - 1 in self.context:
            return
        a = at
        for _ in range(CONTEXT_LINES):
            if a <= 0:
                break
            a = buf.rfind(b"\n", 0, a - 1) + 1
        z = at
        for _ in range(CONTEXT_LINES + 1):
            j = buf.find(b"\n", z)
            if j == -1:
                z = len(buf)
                break
            z = j + 1
        first = line - buf.count(b"\n", a, at)
        for k, raw in enumerate(buf[a:z].split(b"\n")):
            self.context.setdefault(first + k, raw[:4 * CONTEXT_CHARS].decode("utf-8", "replace")[:CONTEXT_CHARS])


# A region this long (characters) is searched only by the patterns whose literal groups (text_gate) it holds: on a log of long
# lines that name a backend (nvcc's command lines of a source build, JSON records, a minified stack) the prefilter's needles and
# line shapes (digits and a-f written alike: `bf16` is `0000`) hold on every line, and each pattern read megabytes for nothing
# (benchmarks/explain_longlines.py, results/explain-longlines-s28.md); a shorter one costs its patterns less than the look
GATE_CHARS = 4_096
GLUE = 2_048  # bytes between two regions that only line_local patterns search, read with them as one (_Scanner.block)
_NO_DIGITS = bytes.maketrans(b"123456789", b"000000000")
BLIND_LINES = 2_000  # and one of this many by a digit-reading pattern's digit_blind copy (built when first needed)
KIND_LINES = 64  # a region of this many lines or more is searched by the kinds of its lines (_kinds)
# or of this many characters (a few dozen lines of a minified stack, 32 KB each: each pattern read them all, 3 s of 5 MB)
KIND_CHARS = 65_536


def _sentence_runs(text: str, nl: list[int]) -> list[tuple[int, int]] | None:
    """(start, end) in `text` of each run of its lines no longer than HEAD_LINE_BYTES characters, or None where no line is
    longer: a sentence's pattern (a `body` entry's: prose.said) reads those only. A longer line is no sentence (an nvcc
    command, a JSON record), and each of the pattern's line-wide looks read it whole (1 s of a 5 MB build log of 16 KB lines,
    benchmarks/explain_longlines.py)."""
    if len(text) <= HEAD_LINE_BYTES:
        return None
    runs: list[tuple[int, int]] = []
    at, cut = 0, False
    for end in chain(nl, (len(text),)):
        start = at
        at = end + 1
        if end - start > HEAD_LINE_BYTES:
            cut = True
            continue
        if runs and runs[-1][1] + 1 == start:
            runs[-1] = (runs[-1][0], end)
        else:
            runs.append((start, end))
    return runs if cut else None


def _distinct_text(text: str) -> str:
    """`text`'s distinct lines, each once, in the order they first come, joined by line ends: what holds a string without a
    line end holds it where `text` does. A log that repeats a line (a minified stack joined onto lines of 32 KB, a warning
    each step) is read once per line it holds, not once per time it prints it (_Scanner._gated)."""
    rows = text.split("\n")
    distinct = dict.fromkeys(rows)
    return text if len(distinct) == len(rows) else "\n".join(distinct)


def _kinds(data: bytes, text: str, nl: list[int], table: bytes | None, longest: int | None = None):
    """The lines of a region by kind, for a pattern that reads each line alone (line_local) and cannot tell apart the
    digits `table` writes alike (digit_table): (each line's kind, the first line of each kind, the text of those
    lines joined, where each starts in it), or None where most lines are of kinds of their own. A log that repeats a
    line naming a backend (a warning each step, with the step's numbers) holds a few kinds of lines; the pattern then
    reads one line of each kind, and its matches there stand for every line of that kind."""
    if not table:
        keys: list = data.split(b"\n")
    else:
        rows = data.split(b"\n")
        distinct = dict.fromkeys(rows)
        if 2 * len(distinct) <= len(rows):  # a log that repeats its lines: each distinct line's key made once
            made = dict(zip(distinct, b"\n".join(distinct).translate(table).split(b"\n")))
            keys = [made[r] for r in rows]
        else:
            keys = data.translate(table).split(b"\n")
    starts = [0] + [i + 1 for i in nl]
    ends = nl + [len(text)]
    if longest is not None:  # a line longer than `longest` characters is of no kind: not read
        keys = [None if ends[j] - starts[j] > longest else k for j, k in enumerate(keys)]
    first: dict[bytes, int] = {}
    for j, k in enumerate(keys):
        if k not in first and k is not None:
            first[k] = j
    if 2 * len(first) > len(keys):
        return None
    reps = list(first.values())
    joined = "\n".join(text[starts[j]:ends[j]] for j in reps)
    at = list(accumulate((ends[j] - starts[j] + 1 for j in reps[:-1]), initial=0))
    return keys, reps, joined, at, starts


def _spans_by_kind(rx: re.Pattern, text: str, nl: list[int], kinds) -> Iterator[tuple[int, int]]:
    """(start, end) in the region's text of each match of `rx` (a line_local pattern), in order: found on one line of
    each kind (_kinds) and repeated on every line of that kind."""
    keys, reps, joined, at, starts = kinds
    found: dict[bytes, list[tuple[int, int]]] = {}
    for m in rx.finditer(joined):
        r = bisect.bisect_right(at, m.start()) - 1
        found.setdefault(keys[reps[r]], []).append((m.start() - at[r], m.end() - at[r]))
    if not found:
        return
    for j, k in enumerate(keys):
        offs = found.get(k)
        if offs:
            s = starts[j]
            for x, y in offs:
                yield s + x, s + y


def _read_of_line(line: bytes) -> bytes:
    """What the patterns (and the prefilter's needles) read of one line (without its end): all of it, or of a line longer
    than 2 * LINE_READ bytes (a JSON dump or a log flattened onto one line) its first and last LINE_READ bytes, joined by
    LINE_GAP + 1 NULs that no in-line gap of a pattern reaches across."""
    if len(line) <= 2 * LINE_READ:
        return line
    return line[:LINE_READ] + _ELIDED + line[-LINE_READ:]


def _read_of_long_lines(data: bytes) -> bytes:
    """`data` with each line as the patterns read it (_read_of_line): the middle of a long line left out. The line keeps
    its number."""
    out, at, i, n = [], 0, 0, len(data)
    while i < n:
        j = data.find(b"\n", i)
        end = n if j == -1 else j
        if end - i > 2 * LINE_READ:
            out += (data[at:i], _read_of_line(data[i:end]))
            at = end
        i = end + 1
    return b"".join(out + [data[at:]]) if out else data


# helper ex65 (session 10): a report's first sentence hard-wrapped over two lines (an editor's or a mail client's 72-80
# columns; "When I enable sage attention in the KSampler the whole generation" over "fails with a black image."): the head
# entries read each line alone, so the backend and the failure fall on two lines. Joined where the first line is prose (not
# indented, no fence), ends without a stop (nor a colon: what follows it is pasted) and is long or ends in a word that cannot
# end a sentence, the next goes on in lower case, and the two name a backend. Only the head's few lines are read this way
# (benchmarks/explain_50mb.py, explain_repeated_lines.py: a long log's cost is unchanged).
_WRAP_FIRST = _R.compile(
    rb"(?![ \t]|```|~~~|#)[^\n]*[^\s.!?:;\x22'`\]})>|\\](?<!\xe3\x80\x82)(?<!\xef\xbc\x81)(?<!\xef\xbc\x9f)(?<!\xef\xbc\x9a)(?<!\xef\xbc\x9b)[ \t]*\Z")
_WRAP_OPEN_END = _R.compile(
    rb"(?i:\b(?:the|a|an|and|or|but|with|when|whenever|while|to|of|in|on|for|is|are|was|were|that|which|my|our|if|because|"
    rb"after|before|from|by|at|as|using|into|than|then|it|this|get|gets|got|getting|keeps?|still|always|also|not)[ \t]*\Z)")
# (not a command or a code line the report pastes under its title: those start in lower case too)
_WRAP_NEXT = _R.compile(rb"(?!(?:pip3?|python[\d.]*|conda|mamba|uv|git|cd|export|sudo|apt(?:-get)?|bash|sh|set|nvcc|cmake|ninja|make|"
                        rb"import|from|def|class|return|print|torch|https?)\b)[a-z]")
_WRAP_NAMES = _R.compile(
    rb"(?i:flash[-_ ]?att|xformers?|sage[-_ ]?att|sageattn|flex[-_ ]?att|scaled_dot_product|\bsdpa\b|\bfa[-_ ]?[234]\b|"
    rb"flash_attn|spargeattn)")
WRAP_MIN = 60  # characters: a first line this long that ends without a stop is a wrapped sentence, not a title


def _wrapped_head(data: bytes) -> bytes | None:
    """The head `data` with each hard-wrapped sentence's two lines joined onto the first (the second left empty: every line
    keeps its number), or None where no two lines are one sentence."""
    rows = data.split(b"\n")
    joined = False
    k = 0
    while k + 1 < len(rows):
        a, b = rows[k].rstrip(b"\r"), rows[k + 1].rstrip(b"\r")
        if (b and _WRAP_NEXT.match(b) and _WRAP_FIRST.match(a)
                and (len(a.rstrip()) >= WRAP_MIN or _WRAP_OPEN_END.search(a))
                and (_WRAP_NAMES.search(a) or _WRAP_NAMES.search(b))):
            rows[k], rows[k + 1] = a.rstrip() + b" " + b.strip(), b""
            joined = True
            k += 2
        else:
            k += 1
    return b"\n".join(rows) if joined else None


# helper ex143 (session 24): a report pasted from an issue form (GitHub's issue forms and the older Markdown templates of the
# trainers, apps and backends: "### Describe the bug", "**To Reproduce**", "### System Info", "### 问题描述 | Description", a
# "- [x] I have searched the existing issues" checklist) opens with scaffolding, not sentences: the headings, the checklist and a
# System Info / environment section (a `pip list`, `collect_env`, the trainer's env dump) fill the head's few lines, and the first
# sentence of "Describe the bug" stands past them. Where a form heading stands among the head's lines, the head entries read the
# form's head as well: its headings, checklists, comments, fenced blocks and the sections whose heading is an environment or the
# template's own boilerplate (checklist, expected behaviour, ...) left blank (every line keeps its number), up to HEAD_LINES
# lines that say something within FORM_MAX_LINES. What a form's environment lists is the setup, never the failure: a backend
# named there claims nothing.
FORM_MAX_LINES = 60
_FORM_HEADING = _R.compile(
    rb"[ \t]{0,3}(?:#{1,6}[ \t]+(?P<h>[^\n]*?)[ \t#]*|\*\*(?P<b>[^*\n]{2,80}?)[ \t]*:?[ \t]*\*\*[ \t]*:?[ \t]*)\r?\Z")
_FORM_SCAFFOLD = _R.compile(rb"[ \t]*(?:[-*+][ \t]+\[[ xX]\]|<!--|-->)")
_FORM_FENCE = _R.compile(rb"[ \t]*(?:```|~~~)")
# the headings of sections that hold no failure: the environment, and the template's boilerplate (matched at the heading's start,
# an emoji or a number before it skipped; a bilingual heading "环境信息 | Environment" by either half)
_FORM_SETUP = _R.compile(
    rb"(?i:(?:^|\|)[^\w|]*(?:\d+[.)][ \t]*)?(?:system[ \t]+info|(?:your[ \t]+)?(?:current[ \t]+)?environment|env\b|versions?\b|"
    rb"platform|hardware|software|os\b|operating[ \t]+system|installed[ \t]+packages|pip[ \t]+(?:list|freeze)|collect_env|"
    rb"dependencies|packages?\b|gpu\b|python[ \t]+version|torch[ \t]+version|cuda[ \t]+version|checklist|reminder|"
    rb"prerequisites|before[ \t]+submitting|search[ \t]+before|is[ \t]+there[ \t]+an[ \t]+existing|who[ \t]+can[ \t]+help|"
    rb"information\b|tasks?\b|expected|what[ \t]+should[ \t]+have[ \t]+happened|what[ \t]+browsers?|custom[ \t]+node[ \t]+testing|"
    rb"contributing|code[ \t]+of[ \t]+conduct|"
    rb"\xe7\x8e\xaf\xe5\xa2\x83|\xe7\xb3\xbb\xe7\xbb\x9f\xe4\xbf\xa1\xe6\x81\xaf|\xe7\x89\x88\xe6\x9c\xac|"
    rb"\xe6\x9c\x9f\xe6\x9c\x9b|\xe9\xa2\x84\xe6\x9c\x9f|\xe7\x92\xb0\xe5\xa2\x83|\xed\x99\x98\xea\xb2\xbd))")


# the sections a form describes the failure in (a heading of one of these or of _FORM_SETUP among the head's lines is a form's:
# not a pasted script's `# comment`, nor a README's `# Title`)
_FORM_SAID = _R.compile(
    rb"(?i:(?:^|\|)[^\w|]*(?:\d+[.)][ \t]*)?(?:describe|description|(?:the[ \t]+)?bug\b|to[ \t]+reproduce|reproduc|steps|"
    rb"what[ \t]+happened|(?:the[ \t]+)?problem|issue\b|current[ \t]+behavio|actual[ \t]+behavio|observed|logs?\b|"
    rb"error|"
    rb"\xe9\x97\xae\xe9\xa2\x98|\xe6\x8f\x8f\xe8\xbf\xb0|\xe5\xa4\x8d\xe7\x8e\xb0|\xe5\xbd\x93\xe5\x89\x8d|"
    rb"\xe3\x83\x90\xe3\x82\xb0|\xe5\x95\x8f\xe9\xa1\x8c|\xe5\x86\x8d\xe7\x8f\xbe|\xeb\xac\xb8\xec\xa0\x9c))")


# the label a template puts before the title ("[Bug]: ", "[Usage] ", "Bug: "): the form's, not the writer's word of failure
_FORM_LABEL = _R.compile(
    rb"(?i:\A[ \t]*(?:\[(?:bug(?:[ -]?report)?|usage|questions?|feature(?:[ -]?request)?|help(?:[ -]wanted)?|misc|docs?|"
    rb"documentation|installation|performance|rfc|discussion|enhancement)\][ \t]*:?|(?:bug|question)[ \t]*:)[ \t]*)")


# the blank lines a form's head opens with where _form_head blanked its headings and scaffolding
_FORM_LEAD = _R.compile(rb"(?:[ \t\r]*\n)+")


def _form_title(row: bytes) -> bytes | None:
    """The text of a form heading on `row`, or None."""
    m = _FORM_HEADING.match(row)
    return None if m is None else (m.group("h") or m.group("b") or b"").strip()


def _form_head(data: bytes) -> tuple[frozenset[int], bytes, int] | None:
    """An issue form's head: (the numbers of the lines its environment and boilerplate sections hold, the form's head past its
    scaffolding: the lines from the input's start with the scaffolding blank and the title's template label cut, and their
    count), or None where no form heading stands among the head's first HEAD_MAX_LINES lines. Every line keeps its number."""
    rows = data[:FORM_MAX_LINES * HEAD_LINE_BYTES].split(b"\n", FORM_MAX_LINES)[:FORM_MAX_LINES]
    if not any(t is not None and (_FORM_SAID.match(t) or _FORM_SETUP.match(t))
               for t in map(_form_title, rows[:HEAD_MAX_LINES])):
        return None
    out, said, setup, fence, held = [], 0, False, False, set()
    for k, row in enumerate(rows):
        title = None if fence else _form_title(row)
        if title is not None:
            setup = bool(_FORM_SETUP.match(title))
        elif setup:
            held.add(k + 1)
        edge = _FORM_FENCE.match(row) is not None
        fence ^= edge
        if title is not None or fence or edge or setup or _FORM_SCAFFOLD.match(row):
            row = b""
        elif said >= HEAD_LINES or len(row) > HEAD_LINE_BYTES:
            break
        elif not said:
            row = _FORM_LABEL.sub(b"", row, count=1)
        said += bool(row.strip())
        out.append(row)
    while out and not out[-1].strip():
        out.pop()
    return frozenset(held), b"\n".join(out), len(out)


def _line_start(buf: bytes, a: int, k: int) -> int:
    """The byte offset in buf of the k-th line after the line that starts at a. Counted in bytes, not by re-encoding the
    decoded text: an invalid UTF-8 byte decodes to U+FFFD, three bytes long, and the offset would drift."""
    for _ in range(k):
        a = buf.find(b"\n", a) + 1
    return a


def _widen(buf: bytes, a: int, z: int) -> tuple[int, int]:
    """The window around the line [a, z): SPAN bytes and SPAN_LINES lines either side, whole lines."""
    lo = a
    for _ in range(SPAN_LINES):
        if lo <= 0:
            break
        lo = buf.rfind(b"\n", 0, lo - 1) + 1
    lo = min(lo, max(0, a - SPAN))
    lo = buf.rfind(b"\n", 0, lo) + 1 if lo > 0 else 0
    hi = z
    for _ in range(SPAN_LINES):
        j = buf.find(b"\n", hi)
        if j == -1:
            return lo, len(buf)
        hi = j + 1
    hi = max(hi, min(len(buf), z + SPAN))
    j = buf.find(b"\n", hi)
    return lo, len(buf) if j == -1 else j + 1


BINARY_HEAD = 8192  # bytes of the input's first block looks_binary reads
BINARY_SHARE = 0.05  # random bytes hold ~10% such characters; a log, a terminal capture, a UTF-16 text none
_CONTROL = bytes(b for b in range(32) if b not in b"\x00\t\n\x0b\x0c\r\x08\x1b") + b"\x7f"


def looks_binary(head: bytes) -> bool:
    """Is this the start of a binary file (an image, an archive of a kind not read, random data), not a log? Control
    characters that text never holds make more than BINARY_SHARE of it (NUL is not counted: a crash pads a log with
    NULs, and UTF-16 text is half NULs)."""
    if not head:
        return False
    return len(head) - len(head.translate(None, _CONTROL)) > BINARY_SHARE * len(head)


def scan(source, *, ids: set[str] | None = None, probes: tuple[tuple[str, str], ...] = ()) -> Scan:
    """Read `source` (a str, bytes, a stream or an iterable of bytes) to its end and find every
    known problem in it, ranked (see the module docstring). `probes` ((name, pattern) pairs) are
    searched with the same prefilter; their hits come back in Scan.probed."""
    index = _index(frozenset(ids) if ids is not None else None, tuple(probes))
    scanner = _Scanner(index)
    prev = cur = None
    size = 0
    last_line = 0
    blank = True
    added: list[tuple[int, int]] = []
    binary = False
    for block in _blocks(source, index):
        if not size:
            binary = looks_binary(block.data[:BINARY_HEAD])
        size += len(block.data)
        added += [(block.first_line + i, k) for i, k in block.added]
        blank = blank and not block.data.strip()
        last_line = block.end_line - 1
        if cur is not None:
            scanner.block(prev, cur, block)
        prev, cur = cur, block
    if cur is not None:
        scanner.block(prev, cur, None)
    index.keep()
    lines = Lines(scanner.context, last_line)
    found = _past_optional_probes(_rank(_without_optional_probes(list(scanner.cands.values()), lines)), lines)
    return Scan(found, lines, size, blank, scanner.probed, added, binary)


def _without_optional_probes(cands: list[_Candidate], lines: Lines) -> list[_Candidate]:
    """The candidates less those seen only inside a library's optional import probe (attribution.toml [optional_probe]:
    xformers' "A matching Triton is not available" over its `import triton` traceback), before ranking, so that they
    explain no line nor hide what a report says about it (round 32)."""
    from . import attribution

    return [_past_handled_probe(c, lines) for c in cands
            if not (c.starts and all(attribution.in_optional_probe(c.entry, lines, n) for n in c.starts))]


def _past_handled_probe(c: _Candidate, lines: Lines) -> _Candidate:
    """A candidate first seen at an import error the program handled by importing another backend (attribution/
    in_handled_probe) and seen again further on, placed at that later line, so that it ranks where the failure is, not
    before the fallback's own error (helper ex58). Only where the later line's position is known (a catch-all's `later`)."""
    from . import attribution

    if not attribution.in_handled_probe(c.entry, lines, c.first_line):
        return c
    rest = sorted(n for n in c.starts if not attribution.in_handled_probe(c.entry, lines, n))
    if not rest or rest[0] not in c.later:
        return c
    position, evidence = c.later[rest[0]]
    return replace(c, position=position, first_line=rest[0], evidence=evidence, starts=set(rest),
                               lines={n for n in c.lines if not attribution.in_handled_probe(c.entry, lines, n)})


def _past_optional_probes(found: list[Match], lines: Lines) -> list[Match]:
    """The ranked matches, each first seen inside an optional import probe moved to its next line that is in none (its
    evidence that line's), or left out when it has none: a probe's lines explain nothing (_without_optional_probes)."""
    from . import attribution

    out = []
    for m in found:
        if attribution.in_optional_probe(m.entry, lines, m.line):
            n = next((n for n in m.lines if not attribution.in_optional_probe(m.entry, lines, n)), None)
            if n is None:
                continue
            m = replace(m, line=n, evidence=lines[n - 1].strip()[:300])
        out.append(m)
    return out


NEAR = 10  # lines: how far from a catch-all's line a specific cause still explains it (one traceback)


TRACEBACK_SPAN = 300  # lines: how far below a frame its traceback's error line may stand (a deep stack)


def _near(lines: list[int], n: int, below: int = NEAR) -> bool:
    """Is a line of `lines` within NEAR lines above line `n`, or `below` lines under it?"""
    i = bisect.bisect_left(lines, n - NEAR)
    return i < len(lines) and lines[i] <= n + below


# helper ex147 (session 25; round 136m: turboderp-org/exllamav2#480, "How can I use the exl2 model without flash attention." read
# by fa2.missing on line 3 above "RuntimeError: FlashAttention only supports Ampere GPUs or newer." on line 9): a question the
# writer asks, opened by the words that ask how or whether to do something ("how do I / can I ...", "is it possible / is there a
# way to ...", "can I ...", 怎么 / 如何 / 能否, どうすれば, как мне / можно ли), is what they want to know, not what failed; where
# another reading's line states the failure, that one ranks first, wherever each stands. Not a statement with a question mark
# ("Flash Attention is not installed?", "... results in numeric instability, I think?": round 54m predibase/lorax#595, round 13a
# huggingface/diffusers#2234) nor a statement before the question ("FlashAttention不支持V100显卡，有解决的方法么？", round 15
# Wan-Video/Wan2.1#46): those state the failure. Nor a question that quotes the error itself ("Why do I get RuntimeError: ...?").
QUESTION = _R.compile(r"^\W*(?:how\s+(?:do|does|can|could|should|would|to)\b|(?:is|are)\s+there\s+(?:a|any)\s+(?:way|option|workaround)\b|"
                      r"is\s+it\s+possible\b|(?:can|could|should|may)\s+(?:I|we|you|one)\b|any\s+(?:way|idea|ideas|tips?)\b)|"
                      r"^\W*(?:怎么|怎样|如何|能否|能不能|是否可以|有没有办法|どうすれば|как\s+(?:мне|можно)|можно\s+ли)", re.IGNORECASE)
RAISED = _R.compile(r"(?<![\w.])(?-i:[A-Za-z_][\w.]*(?:Error|Exception|Warning)):[ \t]\S|\bNo module named\b|\bundefined symbol\b|"
                    r"\bcannot import name\b|\bDLL load failed\b")


# helper ex154 (session 27; round 154m: IgorAherne/trellis-stable-projectorz#55, "i tried to find out what the problem is using chatgpt
# had no luck there but it seems to be that Blackwell ... is not supported with FlashAttention" read by backend.unsupported-gpu above
# the log's own "CUDA error (.../xformers/third_party/flash-attention/hopper/flash_fwd_launch_template.h:188): invalid argument"): a
# line that gives a guess at the cause as it appears to the writer ("it seems (to be) that", "seems like") or as a chatbot gave it
# ("ChatGPT says", "asked Claude") is, like a question, not what failed: where another reading's line states or shows the failure,
# that one ranks first. Not the writer's own hedged statement ("results in numeric instability of some kind, I think?", round 13a
# huggingface/diffusers#2234: it states what they saw), nor a guess that quotes the error itself ("it seems to be this: RuntimeError: ...").
# A chatbot by a verb of asking or answering only: "deepseek-ai/DeepSeek-R1", "gemini-2.0" are model names a log prints.
GUESS = _R.compile(r"\b(?:it\s+seems\s+(?:to\s+be\s+)?(?:that|like)\b|seems\s+like\b|"
                   r"(?:asked|asking|using|used|according\s+to)\s+(?:chat\s?gpt|gpt-?\d\w*|claude|gemini|copilot|deepseek)\b|"
                   r"(?:chat\s?gpt|claude|gemini|copilot|deepseek)\s+(?:says?|said|told|thinks?|suggest\w*|claims?|answered|replied)\b)",
                   re.IGNORECASE)


def _asks(evidence: str) -> bool:
    """Is this line a question the writer asks, or a guess at the cause, with no error of its own quoted on it?"""
    return bool(QUESTION.search(evidence) or GUESS.search(evidence)) and not RAISED.search(evidence)


def _report_where_unexplained(c: _Candidate, causes: list[int]) -> None:
    """A catch-all kept for a line no specific cause explains is reported on the first such line, not on an earlier
    line a specific entry explains (import.failed's `No module named 'xformers'` is xformers.not-installed's on line 1;
    the catch-all stands for an unexplained line further down, and is ranked by that line, after the specific one)."""
    if not _near(causes, c.first_line):
        return
    for n in sorted(c.starts):
        if n != c.first_line and n in c.later and not _near(causes, n):
            c.position, c.evidence = c.later[n]
            c.first_line = n
            return


# helper ex176 (session 30; round 109m: d8ahazard/sd_dreambooth_extension#1094, "ModuleNotFoundError: import of xformers halted;
# None in sys.modules" read by import.blocked-in-sys-modules and by the catch-all import.failed, which ranked first because its
# match starts at "ModuleNotFoundError" and the specific one's further along the line): a catch-all is kept on a line whose
# specific reading is no cause (a warning, a symptom: they explain no error line, so a failure nobody names is not hidden),
# and then ranked by where its match starts, which on a shared line is only the column. Two readings of one line: the
# specific one says what the catch-all says and why, so the catch-all ranks after every finding but the notes.
# (Carry: round 160m's first measurement, Dao-AILab/flash-attention#250, import.failed above fa2.extension-missing on
# "ModuleNotFoundError: No module named 'dropout_layer_norm' ...", benchmarks/results/explain-ranking-s30.md.)


def _note(e: Entry, why: set[str]) -> bool:
    """Does this entry rank with the notes, last (an info entry that cannot be a failure's cause and is no found entry's
    reason where nothing found is a cause)?"""
    return e.severity == "info" and not e.can_cause and e.id not in why


def order_keys(found: list, line=lambda c: c.first_line) -> dict[int, tuple]:
    """The final order's sort key of each finding kept (_rank's last step; benchmarks/explain_ranking.py names the
    component that decided an order from it): `found`: candidates or Matches, `line` the 1-based line each first shows on.
    Errors and warnings by where they first occur (a check's severity says little about which log
    line was fatal: a driver warning is often the cause of the error after it), a symptom after every
    cause found (it is printed because something else failed first); notes last. A warning found
    beside a symptom counts as its cause too: installers print their summary ("× Failed to build
    `flash-attn`", pip's "Building wheel ... error") above the build output whose warning (no ninja,
    no nvcc) says why, so by position alone the symptom would come first."""
    has_cause = any((c.entry.can_cause or c.entry.severity == "warning") and not c.entry.symptom
                    and not c.entry.fallback for c in found)
    # A message that reports another entry's failure (`explained_by`: xformers' "No operator found" and the
    # extension-load failure it lists as its reason) follows that entry wherever each stands, as a symptom does: a user
    # pastes the error first and `python -m xformers.info`'s warning, which says why, under it (round 79).
    ids = {c.entry.id for c in found if not c.entry.fallback}
    follows = {id(c) for c in found if any(i in ids for i in c.entry.explained_by)}
    # A note that a found entry names as its reason (`explained_by`: the build's final error and a title's "the build
    # fails" explained by flash-attn's "no prebuilt wheel for this torch", a title's "SDPA falls back" by a torch built
    # without the flash kernel) is the root cause where nothing found is a cause: it ranks as one, before what it explains,
    # not last with the notes (helper ex123, session 21: a root cause before its symptoms).
    why = {i for c in found for i in c.entry.explained_by} if not has_cause else set()
    # A last resort after every known cause, wherever it stands; among last resorts, what a report's title says
    # in words (head, prose.toml) after what its lines show (whose code raised, a frame of the failing call).
    # A question's reading after a reading of a line that states the failure (QUESTION above), within its tier.
    asks = {id(c) for c in found if _asks(c.evidence)} if len(found) > 1 else set()
    # A catch-all that reads the first line of a specific entry's reading (not a note's) says less about that line than the
    # specific one: it ranks after every finding that is not a note, wherever on the line its match starts (helper ex176, above _note).
    read = {line(c) for c in found if not c.entry.generic and not _note(c.entry, why)}
    same_line = {id(c) for c in found if c.entry.generic and not c.entry.fallback and line(c) in read}
    return {id(c): (_note(c.entry, why), c.entry.fallback, c.entry.fallback and (c.entry.head or c.entry.body),
                     id(c) in same_line, (has_cause and c.entry.symptom) or id(c) in follows, id(c) in asks,
                     c.position, -c.score, c.entry.id) for c in found}


def _rank(cands: list[_Candidate]) -> list[Match]:
    """Which candidates are reported, and in what order (the module docstring says why). Kept, tier by tier: the
    specific entries, most specific first, each unless every line of it is claimed already; then the catch-alls, the last
    resorts and the weak readings (frames), each only where a line of it has nothing kept before it explaining it nearby.
    Ordered by where each first shows, except that symptoms follow every cause, last resorts follow both, and notes come
    last."""
    # Specific beats generic: the most specific entry claims its lines first.
    # A symptom (a trainer's or an app's fallback warning that quotes the import error: "failed to import flash_attn:
    # <loader error>, falling back to sdpa") does not claim its line from the cause quoted on it: both stay, the cause
    # first (round 32: the root cause must rank first).
    claimed: set[int] = set()
    by_symptom: set[int] = set()
    kept = []
    for c in sorted(cands, key=lambda c: (c.entry.generic, -c.score, c.position, c.entry.id)):
        if c.entry.generic:
            break
        if c.lines and c.lines <= (claimed | by_symptom if c.entry.symptom else claimed):
            continue
        if c.entry.symptom:
            by_symptom |= c.lines
        else:
            claimed |= c.lines
        kept.append(c)
    # A catch-all, line by line: it stays for any line of its that no specific cause explains nearby
    # (a wrapper such as BackendCompilerFailed sits a line or two from the error it wraps). A note or a
    # printed warning elsewhere explains no error line.
    # Then the last resort (knowledge/triage.toml: whose code raised, which backend an error names), far
    # from every line anything kept before it explains (a note on that line explains it too: the last
    # resort says no known cause matches).
    # Last, weak evidence (an entry's `frames`: a frame of the failing call, the message cut off or unknown), far
    # from every line anything kept explains except what a report's title says in words (head).
    taken: set[int] = set()
    weak: list[int] = []  # the lines of the weak readings kept
    for rank, tier in ((1, [c for c in cands if c.entry.generic and not c.entry.fallback]),
                       (2, [c for c in cands if c.entry.fallback and not c.entry.weak_copy]),
                       (3, [c for c in cands if c.entry.weak_copy])):
        causes = sorted({n for c in kept if (c.entry.can_cause or rank > 1) and not (rank == 3 and c.entry.head)
                         for n in c.lines})
        for c in sorted(tier, key=lambda c: (c.entry.order, -c.score, c.position, c.entry.id)):
            below = TRACEBACK_SPAN if rank == 3 else NEAR  # a frame: anything explained down its traceback explains it
            if c.lines and (c.lines <= taken or all(_near(causes, n, below) for n in c.lines)):
                continue
            if any(k.entry.id == c.entry.id for k in kept):  # a weak copy whose entry was found already
                continue
            if rank == 3 and any(_near(weak, n) for n in c.lines):  # one weak reading per traceback: the first
                continue
            taken |= c.lines
            if rank == 1:
                _report_where_unexplained(c, causes)
            kept.append(c)
            if rank == 3:
                weak = sorted(set(weak) | c.lines)
    # Then the final order (order_keys: by where each first shows, symptoms after causes, last resorts after both, notes last).
    keys = order_keys(kept)
    kept.sort(key=lambda c: keys[id(c)])
    return [Match(c.entry, c.score, c.evidence, c.position, c.first_line, c.count, sorted(c.lines)[:10])
            for c in kept]


def match(text, *, limit: int | None = None, ids: set[str] | None = None) -> list[Match]:
    """The entries that explain `text` (a str, bytes or a stream), best first."""
    found = scan(text if text is not None else "", ids=ids).found
    return found[:limit] if limit else found


def _first_cause(found: list[Match]) -> Match | None:
    """The first match that can be a failure's cause, a specific one before a catch-all."""
    causes = [m for m in found if m.entry.can_cause]
    return next((m for m in causes if not m.entry.generic),
                next((m for m in causes if not m.entry.fallback), causes[0] if causes else None))


def best(text: str, ids: set[str] | None = None) -> Match | None:
    """The entry that explains a failure whose text is `text`: only an entry that can be a failure's
    cause (never a note or a warning a working run prints: Entry.can_cause), a specific one before a
    catch-all, the earliest in the text first."""
    return _first_cause(match(text, ids=ids))


def cause(primary: str, noise: str = "", backend: str | None = None) -> Match | None:
    """Why a run failed. `primary` is the failure's own text (the exception and its traceback),
    `noise` what the run printed besides (warnings, stderr). A specific entry in the exception wins,
    then a specific one in the noise, then a catch-all in either. From the noise only an entry about
    this backend, or about none, may stand: another backend's warning is not this one's cause.

    explain's attribution rules apply (knowledge/attribution.toml): a `needs_backend` catch-all stands only where no
    other library is named near it (the run is `backend`'s own: a log that names nothing is its log; without a
    `backend`, only where an attention library is named near it), and an entry of the noise is this backend's or none's
    by the backend the log names near it, except the `[never]` entries, which keep their own."""
    # never the last resort (triage.toml): a check's own generic finding (import.failed, smoke.case-error)
    # says the same with its fix
    mine = _claimed(noise, backend, own_text=False) if noise.strip() else []
    own = _claimed(primary, backend, own_text=True) if primary.strip() else []
    specific = [m for m in own + mine if not m.entry.generic]
    return _first_cause(specific) or _first_cause(own + mine)


def _claimed(text: str, backend: str | None, own_text: bool) -> list[Match]:
    """The matches of `text` that may stand as `backend`'s failure (see cause())."""
    from . import attribution, sdpa_reasons  # (attribution imports this package's loader; imported here, not at the top)

    # torch's SDPA warnings are the "No available kernel" error's reasons only where the run shows SDPA raised; where it
    # shows SDPA going on (WARN_FOR_UNFUSED_KERNELS' notes, an app's catch-and-retry) they are a note, as explain reads them
    s = scan(text, probes=sdpa_reasons.PROBES)
    out = []
    for m in sdpa_reasons.settle(s.found, s.probed):
        e = m.entry
        if e.fallback:
            continue
        own = attribution.backend_of(e)
        if not attribution.claimed_for(e, own, s.lines, m.line, backend):
            continue
        if not own_text and attribution.attribute(e, own, s.lines, m.line)[0] not in (None, backend):
            continue  # another backend's message in the noise (or a catch-all the log gives to another backend)
        out.append(m)
    return out


_R.save()  # (the patterns compiled above, kept for the next run: index_cache.module_pack)
