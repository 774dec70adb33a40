"""The claims attribution refuses: a catch-all with no backend near it (needs_backend, unclaimed, claimed_for), a
backend-less match whose nearest library is no attention backend (foreign), an input that is no report of a failure
(not_a_report, the question form, document_kind, no_failure_document), a backend cleared by a sentence (_exonerated) or
that is another program's own attention (_shadowed), a program's own printed line (program_printed), an optional
speed-up's notice (optional_notice) or a title that retells it (_notice_retold), a described fallback (described_fallback), a
traceback that ends in an interrupt (interrupted), a report that quotes another library's failure under a sentence naming
a backend in passing (_other_failure_quoted), and a sentence that gives a limit as the reason for a choice, a failure reported
after it (limit_as_reason: context, not the report).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterator

from .. import Entry
from .shapes import _traceback, Attribution, CHAINED, CONTINUATION, EXCEPTION_LINE, FRAME, TRACEBACK_START, WINDOW
from .tables import _document_rules, _toml, rules
from .sentences import _subject_of_match, FA_FAMILY, first_named, HEALTHY
from .naming import _file_named
from .search import _nearest_for, _program_line, nearest
from .probes import another_dsl_kernel
from .. import index_cache
_R = index_cache.module_pack(__name__)  # this module's patterns: re.compile through the compiled-pattern cache


def foreign(entry: Entry, own: str | None, lines: list[str], line: int) -> bool:
    """Is this a backend-less match whose nearest naming line is a non-attention library's (see the
    "foreign" [[library]] in attribution.toml)? Then it is that library's failure, not attention's."""
    if own is not None:
        return False
    found = nearest(lines, line)
    return found is not None and found.backend == "foreign" and _subject_of_match(entry, lines, line, found) is None


# helper ex91 (session 14): a traceback whose exception is an interrupt (Ctrl-C, an exit) stopped the run wherever it
# happened to be, often inside an attention call; the frames it passes through say nothing failed there.
_INTERRUPT = _R.compile(r"^(?:[\w.]*\.)?(?:KeyboardInterrupt|SystemExit)\b")
_TB_LINE = _R.compile(r"^(?:[ \t]|Traceback \(most recent call last\)|$)")


def interrupted(entry: Entry, lines: list[str], line: int) -> bool:
    """Is this a reading from traceback frames (an entry's weak copy) whose traceback ends in KeyboardInterrupt or
    SystemExit? The first unindented line below the frame is the traceback's exception."""
    if not entry.weak_copy or not 0 < line <= len(lines):
        return False
    for k in range(line, min(len(lines), line + 400)):
        if not _TB_LINE.match(lines[k]):
            return bool(_INTERRUPT.match(lines[k]))
    return False


def needs_backend(entry: Entry) -> bool:
    """Is this a catch-all that is claimed only when the log names a backend near it?"""
    return entry.id in rules().needs_backend


def unclaimed(entry: Entry, own: str | None, lines: list[str], line: int) -> bool:
    """Is this a needs_backend catch-all with no attention backend named near it (so it is somebody
    else's failure)? For the `own_or_frames` ones (an Inductor failure compiles whatever the model
    is) another backend counts only where a traceback frame names it, not a sentence above the error."""
    r = rules()
    if entry.id not in r.needs_backend:
        return False
    if not_a_report(entry, lines, line):
        return True
    if entry.fallback and _other_failure_quoted(lines, _not_a_report_rules()[1]):
        return True  # a last resort (triage.*: an error line given the backend a title names) over another's quoted failure
    if _self_evident(entry, lines, line):
        return False  # its own line shows attention's scale or a training step (train.oom), no name needed (ex42u)
    if _attention_in_block(entry, lines, line):
        return False  # attention said in words in the failing line's own block ("so we use eager attention" over an OOM, ex42u)
    if _bare_paste(entry, lines):
        return False  # the error pasted alone: the user's own job, nothing shows another program's (session 42)
    if _shadowed_match(entry, lines, line):
        return True
    if entry.head and 0 < line <= len(lines) and first_named(lines[line - 1]):
        return False
    if fault_located_elsewhere(entry, lines, line):
        return True  # the message names the source file its kernel faulted in, no attention library's (ex35u)
    found = _nearest_for(entry, lines, line)
    if _subject_of_match(entry, lines, line, found) is not None:
        return False
    if found is None or found.backend == "foreign":
        return True
    if found.backend == "cute" and another_dsl_kernel(lines, line):
        return True  # the CuTe DSL named for another program's kernel (a GEMM), nothing of FA4 near it ([dsl_kernel], ex120)
    if found.backend == "other":  # an attention library outside the seven: its kernel faults, not its prose
        return entry.id not in r.other_counts
    if entry.id in r.own_or_frames and found.backend != own:
        return not FRAME.search(lines[found.line - 1])
    return False


@lru_cache(maxsize=1)
def _self_evident_rules() -> dict[str, re.Pattern]:
    """[needs_backend] self_evident: entry id -> what its own line shows that only attention does (helper ex42u)."""
    return {k: re.compile(v) for k, v in _toml().get("needs_backend", {}).get("self_evident", {}).items()}


def _self_evident(entry: Entry, lines: list[str], line: int) -> bool:
    """Does this needs_backend match's own line show what only an attention call (or a training step) does: a TiB-sized
    allocation, a training step's frame, for train.oom ([needs_backend] self_evident)?"""
    rx = _self_evident_rules().get(entry.id)
    return rx is not None and 0 < line <= len(lines) and rx.search(lines[line - 1]) is not None


def _attention_in_block(entry: Entry, lines: list[str], line: int) -> bool:
    """Is this an [needs_backend] attention_block entry whose failing line's own block (_near_block) says attention in words
    (ATTENTION_WORDS: "eager attention", a backend, an attention module)? (helper ex42u)"""
    return (entry.id in _toml().get("needs_backend", {}).get("attention_block", ()) and 0 < line <= len(lines)
            and ATTENTION_WORDS.search(_near_block(lines, line)) is not None)


@lru_cache(maxsize=1)
def _bare_paste_rules() -> tuple[frozenset[str], re.Pattern]:
    """[needs_backend] bare_paste (entry ids) and bare_paste_lines (the words of those messages' own lines)."""
    t = _toml().get("needs_backend", {})
    return frozenset(t.get("bare_paste", ())), re.compile(t.get("bare_paste_lines", r"\A\b\Z"), re.IGNORECASE)


def _bare_paste(entry: Entry, lines: list[str]) -> bool:
    """Is this an [needs_backend] bare_paste entry and the input the error alone (6 lines at most, 3 of them not blank,
    each the message's own words: bare_paste_lines), with nothing around it to show whose failure it is?"""
    ids, own = _bare_paste_rules()
    if entry.id not in ids or len(lines) > 6:
        return False
    said = [x for x in lines if x.strip()]
    return len(said) <= 3 and all(own.search(x) for x in said)


_Shadow = tuple[frozenset[str], re.Pattern, re.Pattern, "re.Pattern | None"]


@lru_cache(maxsize=1)
def _not_a_report_rules() -> tuple[frozenset[str], int, tuple[re.Pattern, ...], tuple[_Shadow, ...]]:
    """[not_a_report] in attribution.toml (helper ex62): (ids, window, feature-form marks, (backends, program, own, near)
    shadows); `near` (helper ex156): the program's words that count only in the failing line's own block (_near_block)."""
    t = _toml().get("not_a_report", {})
    shadows = tuple((frozenset(x["backends"]), re.compile(x["program"], re.MULTILINE), re.compile(x["own"], re.MULTILINE),
                     re.compile(x["near"], re.MULTILINE) if x.get("near") else None)
                    for x in t.get("shadow", ()))
    return (frozenset(t.get("ids", ())), int(t.get("window", 400)), tuple(re.compile(p) for p in t.get("feature_form", ())),
            shadows)


def not_a_report(entry: Entry, lines: list[str], line: int) -> bool:
    """Is this sentence-reading catch-all in an input that is no report of a backend's failure ([not_a_report]): a
    feature-request form, or a program whose own feature carries the backend's name (llama.cpp's flash attention, SageTV)
    with nothing of the PyTorch library in the input? (helper ex62; tests/test_explain_variants_ex62.py)"""
    ids, window, forms, shadows = _not_a_report_rules()
    if entry.id not in ids or not 0 < line <= len(lines):
        return False
    text = "\n".join(lines[j] for j in range(min(len(lines), window)))
    if any(rx.search(text) for rx in forms):
        return True
    if _asks_in_question_form(lines, line):
        return True
    if _other_failure_quoted(lines, window):
        return True
    block = None
    if not any(prog.search(text) for _, prog, _, _ in shadows):
        block = _near_block(lines, line)
        if not any(near is not None and near.search(block) for _, _, _, near in shadows):
            return False
    return _program_shadows(_named_at(entry, lines, line), text, lines, line, shadows, block)


def _named_at(entry: Entry, lines: list[str], line: int) -> str | None:
    """The backend the failing line (1-based) names, else the one named nearest it (_nearest_for), as not_a_report reads it."""
    named = first_named(lines[line - 1])
    if named is None:
        found = _nearest_for(entry, lines, line)
        named = found.backend if found is not None else None
    return named


def _program_shadows(named: str | None, text: str, lines: list[str], line: int, shadows: tuple[_Shadow, ...],
                     block: str | None = None) -> bool:
    """Does a [[not_a_report.shadow]] of `named` hold in `text` (the input's window): its program's words there, or its `near`
    words in the failing line's own block (_near_block; `block` if already cut), and none of the library's own words?"""
    for backends, prog, own, near in shadows:
        if named not in backends or own.search(text):
            continue
        if prog.search(text):
            return True
        if near is not None:
            block = _near_block(lines, line) if block is None else block
            if near.search(block):
                return True
    return False


@lru_cache(maxsize=1)
def _engine_rows() -> tuple[tuple[tuple[str, re.Pattern], ...], re.Pattern | None]:
    """[[engine_flash]] in attribution.toml (helper ex156): ((entry id, the engine's words), in order; [engine_flash_not])."""
    t = _toml()
    unless = t.get("engine_flash_not", {}).get("pattern")
    return (tuple((x["entry"], re.compile(x["when"], re.MULTILINE)) for x in t.get("engine_flash", ())),
            re.compile(unless, re.MULTILINE) if unless else None)


def engine_worded(entry: Entry, lines: list[str], line: int) -> str | None:
    """The entry that words another engine's own flash attention (knowledge/engines.toml) for a sentence reader's match that a
    [[not_a_report.shadow]] of the FlashAttention names refuses, where flash attention is what it reads (named on its line, else
    nearest it, as not_a_report reads it): the first
    [[engine_flash]] row whose words the input holds; None where no shadow refuses it, the line names no FlashAttention, the
    input is a feature request or a report of speed ([engine_flash_not]), or no row's words are there (helper ex156)."""
    ids, window, forms, shadows = _not_a_report_rules()
    if entry.id not in ids or not 0 < line <= len(lines):
        return None
    named = _named_at(entry, lines, line)  # (a title over the sentence that names it: "Ollama with OLLAMA_FLASH_ATTENTION=1 ...")
    if named == "other":  # (the engine itself read as an attention library of its own, [[library]] "other": "llama-server -fa
        # on gives garbled output" over "flash attention breaks the output"): the FlashAttention the input names
        named = next((b for j in range(min(len(lines), window)) if (b := first_named(lines[j])) in FA_FAMILY), None)
    if named not in FA_FAMILY:
        return None
    text = "\n".join(lines[j] for j in range(min(len(lines), window)))
    rows, unless = _engine_rows()
    if any(rx.search(text) for rx in forms) or unless is not None and unless.search(text):
        return None
    if not _program_shadows(named, text, lines, line, shadows):
        return None
    return _nearest_row(rows, lines, line, window)


def _nearest_row(rows, lines: list[str], line: int, window: int) -> str | None:
    """The [[engine_flash]] row for a failing line (1-based): its words on that line or above it (the report's title, the
    command run) before words only below it (an aside: "With ollama the same model works fine" under a llama.cpp report,
    review rev27); of those, a program built on llama.cpp (every row but the last, the family's own words, which such a
    program's log prints too: "LM Studio ... runtime: llama.cpp") before the last; then the nearest, then the first."""
    at, last = line - 1, len(rows) - 1
    best = None
    for order, (eid, rx) in enumerate(rows):
        hits = [j for j in range(min(len(lines), window)) if rx.search(lines[j])]
        if hits:
            key = min((j > at, order == last, abs(j - at), order) for j in hits)
            best = min(best, (key, eid)) if best else (key, eid)
    return best[1] if best else None


# helper ex156 (review rev26's finding): the weak words of a program's world (a Vulkan device, a ggml quant type, a GGUF file)
# are said of other things too ("my games run on Vulkan", "I used to run Q4_K_M models on this box"): they name the program
# only in the failing line's own block -- its line and the lines run together with it (no blank line between: a title over its
# body, a log's or traceback's frames), at most _NEAR_SPAN lines either side -- not in a paragraph of their own.
_NEAR_SPAN = 3


def _near_block(lines: list[str], line: int) -> str:
    """The failing line (1-based) and the non-blank lines run together with it, at most _NEAR_SPAN either side."""
    at = lo = hi = line - 1
    while lo > 0 and at - lo < _NEAR_SPAN and lines[lo - 1].strip():
        lo -= 1
    while hi + 1 < len(lines) and hi - at < _NEAR_SPAN and lines[hi + 1].strip():
        hi += 1
    return "\n".join(lines[j] for j in range(lo, hi + 1))


# helper ex120 (session 20; unrelated logs of rounds 22 and 32: derrian-distro/LoRA_Easy_Training_Scripts#341, an installer's
# FileNotFoundError under its notice "50 series GPU doesn't have xformers support!"; kijai/ComfyUI-MMAudio#1, a corrupt checkpoint's
# PytorchStreamReader error under "now i am running xformers ... and still some errors pop up"): a report that quotes its failure
# -- a traceback of two or more frames and its exception line, or ComfyUI's error report -- where none of it names attention (no
# backend, no attention module or function) is that code's failure: a sentence naming a backend in passing is no reading of it.
# Not where the exception is one any kernel may raise and only the sentence says whose (a CUDA fault, NaN, out of memory, a
# compiler's error: the frames of an asynchronous fault are the caller's; a dtype, shape or head-dim refusal of inputs an
# attention call may have been handed), nor where any quoted traceback names attention.
ATTENTION_WORDS = _R.compile(r"(?i)attn|attention|xformers|\bsage|sageattn|flash|sdpa|\bsdp_|\bflex|cutlass|\bcute|\bfmha|triton|inductor|"
                             r"\bmha\b|scaled_dot_product")
KERNEL_FAULT = _R.compile(r"(?i)cuda|cublas|cudnn|\bhip\b|illegal|device-side|\bnan\b|\binf\b|out of memory|\boom\b|"
                          r"kernel|segmentation|core dumped|\bptx|compil|\bgpu\b|no module named|undefined symbol|dll load|"
                          r"dtype|scalar type|\bhalf\b|bfloat16|float16|\bfp16\b|\bbf16\b|shape|dimension|\bquery\b|head_?dim|"
                          r"seq_?len|softmax")
_RANK = _R.compile(r"^\[rank\d+\]:[ ]?")
_REPORT_MESSAGE = _R.compile(r"^\W*Exception Message\W*:")
_REPORT_TYPE = _R.compile(r"^\W*(?:Exception Type|Node Type)\W*:")


def _other_failure_quoted(lines: list[str], window: int) -> bool:
    """Does the input quote a failure of code that is no attention library's, and no failure of one (see above)?"""
    n = min(len(lines), window)
    other = False
    j = 0
    while j < n:
        text = lines[j]
        if _REPORT_MESSAGE.match(text):  # ComfyUI's "## Error Details": its node and exception type above the message
            head = [lines[k] for k in range(max(0, j - 4), j + 1)]
            if any(ATTENTION_WORDS.search(t) for t in head) or KERNEL_FAULT.search(text) \
                    or not any(_REPORT_TYPE.match(t) for t in head):
                return False
            other = True
        if not (FRAME.search(text) or TRACEBACK_START.search(text)):
            j += 1
            continue
        frames, k, block = 0, j, []
        while k < n:  # the traceback: its frames and code lines, up to its exception line (or its cut)
            t = _RANK.sub("", lines[k])  # torchrun's "[rank3]: " before every line of a rank's traceback
            if FRAME.search(t):
                frames += 1
            elif EXCEPTION_LINE.match(t) and not t.startswith((" ", "\t")):
                break
            elif not (t.startswith((" ", "\t")) or TRACEBACK_START.search(t) or CHAINED.search(t)):
                break
            block.append(t)
            k += 1
        said = []  # the exception's message: its line and the lines that continue it (up to a blank line)
        if k < n and EXCEPTION_LINE.match(lines[k]):
            said = [_RANK.sub("", lines[m]) for m in range(k, min(n, k + 1 + CONTINUATION))]
            said = said[:next((i for i, t in enumerate(said) if not t.strip()), len(said))]
        if any(ATTENTION_WORDS.search(t) for t in block + said):
            return False
        if said and frames >= 2 and not any(KERNEL_FAULT.search(t) for t in said):
            other = True
        j = k + 1
    return other


@lru_cache(maxsize=1)
def _question_rules() -> tuple[tuple[re.Pattern, ...], int, re.Pattern] | None:
    """[not_a_report.question] in attribution.toml (helper ex72): (question-form marks, head lines, ambiguous words)."""
    q = _toml().get("not_a_report", {}).get("question")
    if not q:
        return None
    return tuple(re.compile(p) for p in q["forms"]), int(q.get("head", 20)), re.compile(q["ambiguous"])


def _asks_in_question_form(lines: list[str], line: int) -> bool:
    """Is the match's line one whose only word of failure means "question" as well (问题), in a report filed with a question
    form that quotes no failure? (helper ex72; [not_a_report.question])"""
    q, d = _question_rules(), _document_rules()
    if q is None or not d:
        return False
    forms, head, ambiguous = q
    text = lines[line - 1]
    if not ambiguous.search(text) or d["failing"].search(ambiguous.sub(" ", text)):
        return False
    top = "\n".join(lines[j] for j in range(min(len(lines), head)))
    if not any(rx.search(top) for rx in forms):
        return False
    kept = "\n".join(_known_lines(lines, d["window"]))
    return not any(rx.search(kept) for rx in d["quoted"])


@lru_cache(maxsize=1)
def _every_shadows() -> tuple[tuple[frozenset[str], re.Pattern, re.Pattern], ...]:
    """The [[not_a_report.shadow]]s with `every = true` (helper ex67): another program's own attention, for every entry."""
    t = _toml().get("not_a_report", {})
    return tuple((frozenset(x["backends"]), re.compile(x["program"], re.MULTILINE), re.compile(x["own"], re.MULTILINE))
                 for x in t.get("shadow", ()) if x.get("every"))


# helper ex67: a sentence that clears a backend ("xformers was fine all along", "SDPA is not the problem", "flash attention was
# never the culprit"): that backend, named elsewhere in the input (an environment line "I have xformers 0.0.29"), is not the
# failing one (attribute, _shadowed_match). The clause's subject must name it (first_named).
# Helper ex145 (session 25; round 142m: AUTOMATIC1111/stable-diffusion-webui#2034, "Launch webui with --force-enable-xformers
# (other parameters are irrelevant, ...)"): a clause that opens inside parentheses has its own subject; a parenthesis closed
# before the verb stays part of the subject ("xformers (0.0.28) is not the problem").
# Helper ex156 (review rev26's finding): a backend the writer says is no option ("The T4 can't run bf16 so FA2 is not an option; my
# error is a dtype mismatch") was ruled out before the failure: the error the report goes on to is not that backend's.
EXONERATED = _R.compile(r"(?P<subj>(?:[^.;!?()\n]|\([^()\n]*\)){1,60}?)\b(?:(?:was|were|is|are|has been)[ \t]+(?:(?:fine|ok|okay|innocent)[ \t]+all[ \t]+along|"
                        r"not[ \t]+(?:the[ \t]+)?(?:problem|issue|cause|culprit)|never[ \t]+the[ \t]+(?:problem|issue|cause|culprit))|"
                        r"(?P<option>(?:was|were|is|are)(?:[ \t]+not|n[’']t)[ \t]+an?[ \t]+option|(?:was|were|is|are)[ \t]+no[ \t]+(?:longer[ \t]+an[ \t]+)?option))\b",
                        re.IGNORECASE)


# helper ex120 (round 92 unrelated: kijai/ComfyUI-Hunyuan3DWrapper#58, the maintainer's "These nodes do not use xformers, so
# that's unrelated"): a sentence that says the code does not use the backend, and that the message is unrelated (or the backend
# itself is unrelated, irrelevant, harmless), clears it too
UNRELATED = _R.compile(r"(?i)\b(?:unrelated|not related|irrelevant|nothing to do with)\b")
UNUSED = _R.compile(r"(?i)\b(?:do|does|did)(?:[ \t]+not|n[’']t)[ \t]+(?:even[ \t]+)?(?:use|need|require|call|load|import|depend[ \t]+on)"
                    r"[ \t]+(?P<subj>[^.;:!?,\n]{1,40})")
CLEARED = _R.compile(r"(?i)(?P<subj>(?:[^.;!?,()\n]|\([^()\n]*\)){1,60}?)\b(?:is|are|was|were|seems?|looks?)[ \t]+(?:(?:completely|totally|probably|likely|"
                     r"just|entirely)[ \t]+)?(?:unrelated|not related|irrelevant|harmless)\b")


# helper ex135 (round 129m unrelated: Sarania/blissful-tuner#19, "it still occurs for me with unaffected versions or even
# xformers"): a failure said to persist even with a backend swapped in is not that backend's; not one version of a backend
# against another ("still happens even with flash-attn 2.7.4": the same backend upgraded may still be the failing one)
PERSISTS = _R.compile(r"(?i)\b(?:still|also)[ \t]+(?:occurs?|occurred|happens?|happened|persists?|persisted|appears?|shows?[ \t]+up)\b"
                      r"[^.;!?\n]{0,80}?\beven[ \t]+(?:with[ \t]+|using[ \t]+|on[ \t]+|in[ \t]+|under[ \t]+)?(?:the[ \t]+)?"
                      r"(?P<subj>[^.;:!?,()\n]{1,30}?)(?=[ \t]*(?:[.;:!?,()\n]|$|\b(?:too|as[ \t]+well|instead)\b))")
# helper ex156 (review rev26's finding): a limit stated as the reason for a choice ("flash-attn doesn't support my 2080 Ti so we
# switched to xformers; now the training runs out of memory", "Our V100s cannot run flash-attn 2, so we use sdpa"): the backend
# said not to run there was replaced before the failure the report goes on to, so that failure is not its. The subject must say
# the backend cannot run or is not supported (not that it failed or crashed: "FA2 crashed so I switched to sdpa" may be the
# report), and what the writer chose must be another attention (another backend, eager, math).
SWITCHED = _R.compile(r"(?i)(?P<subj>[^.;!?\n]{1,80}?\b(?:can(?:not|[’']t)|(?:does|do)(?:n[’']t|[ \t]+not)|won[’']t)[ \t]+(?:run|support|use|handle)\b"
                      r"[^.;!?\n]{0,60}?|[^.;!?\n]{1,80}?\b(?:is|are)(?:[ \t]+not|n[’']t)[ \t]+supported\b[^.;!?\n]{0,60}?)"
                      r",?[ \t]+(?:so|therefore|hence|which[ \t]+is[ \t]+why)[ \t]+(?:I|we)(?:[’']ve|[ \t]+have)?[ \t]+"
                      r"(?:use|used|am[ \t]+using|are[ \t]+using|switched|went|fell[ \t]+back|moved|chose|picked)[ \t]+"
                      r"(?:to[ \t]+|back[ \t]+to[ \t]+|with[ \t]+|for[ \t]+)?(?P<other>[^.;!?,\n]{1,40})")
_PLAIN_ATTENTION = _R.compile(r"(?i)\b(?:eager|math|vanilla|naive|default|sdpa|scaled_dot_product_attention|(?:py)?torch[’']?s?[ \t]+(?:own[ \t]+)?attention)\b")
_VERSIONED = _R.compile(r"[ \t=]v?\d|\d\.\d")  # "flash-attn 2.7.4", "xformers==0.0.28": a version of the backend, not a swap to it
# rev23: nor the same backend reinstalled, upgraded or rebuilt ("still happens even after reinstalling flash-attn", "even with the
# latest xformers", "even with a fresh build of sageattention"): the backend named is still the one that runs, and may be the failing
# one (explain dropped a NaN report's fa2 claim on "The NaN loss still happens even after reinstalling flash-attn")
_SAME_BACKEND = _R.compile(r"(?i)\b(?:re-?install\w*|upgrad\w*|updat\w*|downgrad\w*|re-?buil\w*|re-?compil\w*|compil\w*|built|"
                           r"builds?|latest|newest|newer|older|fresh\w*|nightly|versions?|releases?|wheels?|source|commits?)\b")


def _exonerated(backend: str, lines: list[str], line: int = 0) -> bool:
    """Does a sentence of the input say `backend` was not the failing one (EXONERATED; UNUSED beside UNRELATED, CLEARED;
    PERSISTS)? A backend only ruled out by a choice (EXONERATED's "is not an option", SWITCHED) stays where the failing line
    (1-based `line`), another line than the choice's, names it itself: "FlashAttention only supports Ampere GPUs or newer"
    under "on a T4, FA2 is no option" is that backend refusing, whatever was chosen (review rev27)."""
    _, window, _, _ = _not_a_report_rules()
    # (the failing line names it, or its traceback's innermost frame in a backend's file is that backend's: review rev29)
    own_failure = 0 < line <= len(lines) and backend in (first_named(lines[line - 1]), _raised_in(lines, line - 1))
    cleared: set[tuple[str, bool]] = set()  # (a line, whether it is another than the failing one) found to say nothing here
    for j in range(min(len(lines), window)):
        text = lines[j]
        other = own_failure and j != line - 1
        if (text, other) in cleared:
            continue  # a line the input repeats (a warning each step, a stack joined onto long lines): read once
        if "even" in text.lower() and any(first_named(m.group("subj")) == backend and not _VERSIONED.search(text, m.start("subj"),
                                                                                                          m.end("subj") + 3)
                                          and not _SAME_BACKEND.search(m.group("subj"))
                                          for m in PERSISTS.finditer(text)):
            return True
        if UNRELATED.search(text) or "harmless" in text.lower():
            said = [m.group("subj") for m in UNUSED.finditer(text)] if UNRELATED.search(text) else []
            if any(first_named(subj) == backend for subj in said + [m.group("subj") for m in CLEARED.finditer(text)]):
                return True
        low = text.lower()
        if " so " in low and not other and any(first_named(m.group("subj")) == backend and (_PLAIN_ATTENTION.search(m.group("other"))
                                                                              or first_named(m.group("other")) not in (None, backend))
                                 for m in SWITCHED.finditer(text)):
            return True
        followed = not other and any(first_named(text[x0:x1]) == backend and first_named(text[y0:y1]) != backend
                                     for _, _, (x0, x1), (y0, y1) in _reasons(text))
        if followed and (_limit_followed(lines, j + 1) or (None, "ruled_out", None))[1] not in ("ruled_out", "turned_on"):
            # the same, in the words [limit_as_reason] reads: other languages, the choice opening the next sentence; only where
            # a failure is reported after it, else the limit is the report (rev28: "Наши V100 не поддерживают flash-attn 2,
            # поэтому мы используем sdpa." read nothing, dropped as a shadowed catch-all; main read backend.unsupported-gpu)
            return True
        if ("all along" in low or " not " in low or "never" in low or "option" in low) \
                and any(first_named(m.group("subj")) == backend and not (other and m.group("option"))
                        for m in EXONERATED.finditer(text)):
            return True
        if not followed:  # (what follows a limit is read from the lines after it: another line's answer may differ)
            cleared.add((text, other))
    return False


def _shadowed(backend: str, lines: list[str]) -> bool:
    """Is `backend`, named in this input, another program's own attention (rten, ONNX Runtime, TensorRT, candle's kernels, MLX,
    MindSpore, kernl, Pallas, Paddle's built-in flash attention) with nothing of the PyTorch library in the input?"""
    shadows = _every_shadows()
    if not shadows:
        return False
    _, window, _, _ = _not_a_report_rules()
    return backend in _shadows_in("\n".join(lines[j] for j in range(min(len(lines), window))))


@lru_cache(maxsize=4)
def _shadows_in(text: str) -> frozenset[str]:
    """The backends that `text` (an input's first lines) shows as another program's own attention (_shadowed): found once per
    input, which unclaimed and attribute both ask for each catch-all (0.1 s each on 300 KB of long lines, helper ex167)."""
    return frozenset(b for backends, prog, own in _every_shadows() if prog.search(text) and not own.search(text)
                     for b in backends)


def _shadowed_match(entry: Entry, lines: list[str], line: int) -> bool:
    """A [needs_backend] catch-all whose backend near it is another program's own attention (_shadowed): its failure, not one of
    the seven's (helper ex67; TensorRT's "fused MHA (flash attention)" over its engine build, candle's Metal sdpa)."""
    if not 0 < line <= len(lines):
        return False
    named = first_named(_past_reasons(lines[line - 1]))  # not the backend a limit given as a reason names (ex161)
    if named is None:
        found = _nearest_for(entry, lines, line)
        named = found.backend if found is not None else None
    return named is not None and (_shadowed(named, lines) or _exonerated(named, lines))


@lru_cache(maxsize=1)
def _fallback_rules() -> tuple[frozenset[str], re.Pattern, re.Pattern, re.Pattern, re.Pattern] | None:
    """[described_fallback] in attribution.toml (helper ex67), compiled."""
    d = _toml().get("described_fallback")
    return (frozenset(d["ids"]), re.compile(d["condition"]), re.compile(d["then"]), re.compile(d["message"]),
            re.compile(d["failed"])) if d else None


@lru_cache(maxsize=1)
def _notice_rules() -> tuple[tuple[str, ...], re.Pattern, re.Pattern | None] | None:
    """[optional_notice] in attribution.toml (helper ex75), compiled."""
    d = _toml().get("optional_notice")
    return (tuple(d["prefixes"]), re.compile(d["notice"]),
            re.compile(d["module_notice"]) if d.get("module_notice") else None) if d else None


def program_printed(entry: Entry, lines: list[str], line: int) -> bool:
    """Is this a reading of a report's words in prose (a `head` entry: prose.*) whose line is a program's banner or log line
    that says no failure (_program_line)? A log pasted from its start has no title: its first line is what the program
    selected (helper ex93)."""
    return entry.head and 0 < line <= len(lines) and (_program_line(lines[line - 1]) or _import_probe(lines, line))


# round 110 (helper ex110; kohya-ss/musubi-tuner#747): a program's own probe of an optional backend, printed as a pair of lines
# ("Trying to import sageattention" / "Failed to import sageattention") while the run goes on with another backend: the second
# line is the program's log, no report's title
_PROBE_TRY = _R.compile(r"^[ \t]*(?:INFO:?[ \t]*)?Try(?:ing)?[ \t]+to[ \t]+import[ \t]+[`'\"]?(\w+(?:\.\w+)*)[`'\"]?[ \t]*\.{0,3}[ \t]*$", re.I)
_PROBE_FAILED = r"^[ \t]*(?:WARNING:?[ \t]*|INFO:?[ \t]*)?Failed[ \t]+to[ \t]+import[ \t]+[`'\"]?{}[`'\"]?\b"


def _import_probe(lines: list[str], line: int) -> bool:
    m = _PROBE_TRY.match(lines[line - 2]) if line >= 2 else None
    return bool(m) and re.match(_PROBE_FAILED.format(re.escape(m.group(1))), lines[line - 1], re.I) is not None


def optional_notice(entry: Entry, lines: list[str], line: int, named_by: Attribution | None = None) -> bool:
    """Is a last resort's match (triage.*, prose.*) a notice that an optional speed-up is off while the run goes on ("some
    optimizations will not be enabled", "please install it for better performance"), or an error whose backend only such a
    notice names? Then it claims nothing ([optional_notice], helper ex75)."""
    r = _notice_rules()
    if r is None or not entry.id.startswith(r[0]):
        return False
    at = [line] + ([named_by.line] if named_by is not None else [])
    if any(0 < n <= len(lines) and r[1].search(lines[n - 1]) for n in at):
        return True
    if r[2] is not None and any(_module_notice(r[2], lines, n) for n in at):
        return True
    return entry.id == RETELLS and _notice_retold(lines, line)


def _module_notice(rx: re.Pattern, lines: list[str], n: int) -> bool:
    """Is line `n` (1-based) a library's module notice ([optional_notice] module_notice: DINOv2's "xFormers not available")
    behind a logger's prefix, or one of two such lines within NOTICE_REACH lines of each other, as the library's modules
    print it one after another at import (helper rev28)?"""
    m = rx.search(lines[n - 1]) if 0 < n <= len(lines) else None
    if m is None:
        return False
    return bool(m.group("prefix")) or any(j != n - 1 and rx.search(lines[j])
                                          for j in range(max(0, n - 1 - NOTICE_REACH), min(len(lines), n + NOTICE_REACH)))


NOTICE_REACH = 5


# the notice that a program goes on without the backend itself ("No module 'xformers'. Proceeding without it"), not without an
# optional part of it (xformers' "A matching Triton is not available, some optimizations will not be enabled" is xformers' own
# matter: round 24m labels a post about it xformers)
RETELLS = "prose.import"  # the reading that says only what such a notice says: the backend is absent (not "fails with it")
GOES_ON_WITHOUT = _R.compile(r"(?i)\b(?:proceed|process|continu|runn?)ing without (?:it|them|this)\b")


def _notice_retold(lines: list[str], line: int) -> bool:
    """Is the match's line a report's title or sentence naming a backend the input's notice says it goes on without, on
    another line (a title "No module xformers and black image" over "No module 'xformers'. Processing without it")? The
    notice retold (helper ex120; round 12 unrelated: AUTOMATIC1111/stable-diffusion-webui#5211)."""
    if not 0 < line <= len(lines):
        return False
    named = first_named(lines[line - 1])
    if named is None:
        return False
    _, window, _, _ = _not_a_report_rules()
    return any(j != line - 1 and GOES_ON_WITHOUT.search(lines[j]) and first_named(lines[j]) == named
               for j in range(min(len(lines), window)))


def described_fallback(entry: Entry, lines: list[str], line: int) -> bool:
    """Is the match's line a sentence that says what a program does WHEN a backend is absent ("falls back to FA2 when
    `flash_attn_interface` cannot be imported"), no message of an exception or a warning? ([described_fallback], helper ex67)"""
    r = _fallback_rules()
    if r is None or entry.id not in r[0] or not 0 < line <= len(lines):
        return False
    text = lines[line - 1]
    _, condition, then, message, failed = r
    return bool(condition.search(text) and then.search(text) and not message.search(text) and not failed.search(text))


@lru_cache(maxsize=1)
def _reason_rules() -> tuple[re.Pattern, re.Pattern, re.Pattern, int, re.Pattern | None, re.Pattern | None] | None:
    """[limit_as_reason] in attribution.toml (helper ex161), compiled: (limit, choice, follows, window, negated, template)."""
    d = _toml().get("limit_as_reason")
    return (re.compile(d["limit"]), re.compile(d["choice"]), re.compile(d["follows"]), int(d.get("window", 40)),
            re.compile(d["negated"]) if d.get("negated") else None,
            re.compile(d["template"], re.M) if d.get("template") else None) if d else None


@lru_cache(maxsize=1)
def _choice_first_rules() -> tuple[re.Pattern, re.Pattern, re.Pattern] | None:
    """[limit_as_reason] uses / because / because_after (helper ex166), compiled: the choice said first, its reason after it."""
    d = _toml().get("limit_as_reason") or {}
    return (re.compile(d["uses"]), re.compile(d["because"]), re.compile(d["because_after"])) if "uses" in d else None


# one sentence of a line: up to a stop that ends it (not "2.5", "torch.compile": a stop before a word character goes on)
_SENTENCE_OF_LINE = _R.compile(r"(?:[^.;!?。；！？\n]|[.;!?](?=\w))+(?:[.;!?。；！？]+|$)")


def _reasons(text: str) -> Iterator[tuple[int, int, tuple[int, int], tuple[int, int]]]:
    """Each span of `text` (one line) that gives a limit as the reason for the writer's choice, whether or not a failure
    follows: (start, end, the limit's side, the choice's side: where the backend ruled out and the one chosen are named).
    Not a question; the choice in the same sentence as the limit or opening the next ([limit_as_reason], helper ex161), or
    said first with the limit as its reason after it ("We use sdpa because our V100 can't run FA2", "用 sdpa，因为 V100 不支持
    flash-attn", "sdpaを使っています。V100ではFA2が使えないからです。": _choice_first, helper ex166)."""
    r = _reason_rules()
    if r is None or not r[0].search(text):
        return
    limit, choice = r[0], r[1]
    sentences = [(m.start(), m.end()) for m in _SENTENCE_OF_LINE.finditer(text) if m.end() > m.start()]
    for i, (a, z) in enumerate(sentences):
        said = text[a:z]
        said_limit = limit.search(said)
        if said_limit is None or said.rstrip().endswith(("?", "？")):
            continue
        chose = choice.search(text, a, z)
        first = None if chose is not None and chose.start() >= a + said_limit.end() else \
            _choice_first(text, sentences, i, a + said_limit.start(), a + said_limit.end())
        if first is not None:
            yield first
            continue
        if chose is None:
            if i + 1 == len(sentences):
                continue
            b, z = sentences[i + 1]
            b += len(text[b:z]) - len(text[b:z].lstrip())
            chose = choice.match(text, b, z)
            if chose is None or text[b:z].rstrip().endswith(("?", "？")):
                continue
        yield a, z, (a, chose.start()), (chose.start(), z)


def _choice_first(text: str, sentences: list[tuple[int, int]], i: int, lo: int, hi: int
                  ) -> tuple[int, int, tuple[int, int], tuple[int, int]] | None:
    """The choice said before its reason, the limit at text[lo:hi] in sentence `i` (helper ex166): a word that gives a reason
    (`because`: because / since / as / 因为 / 由于 / потому что / porque / parce que / weil ...) before the limit in its sentence,
    and the writer's choice of an attention (`uses`: "we use sdpa", "用 sdpa", "sdpaを使って") before that word in the sentence, or
    in the sentence before where the limit's sentence opens with that word or ends in one that gives it (`because_after`:
    からです / ためです / 때문입니다)."""
    r = _choice_first_rules()
    if r is None:
        return None
    uses, because, because_after = r
    a, z = sentences[i]
    for word in because.finditer(text, a, lo):
        if lo - word.end() > 60 or any(c in text[word.end():lo] for c in ",;:，；："):
            continue  # the word gives the reason for something else ("as a test, ..."), not this limit
        chosen = _last(uses, text, a, word.start())  # the choice nearest the word
        if chosen is not None:
            return a, z, (word.end(), z), (chosen.start(), chosen.end())
        if not text[a:word.start()].strip() and i > 0:
            break  # the sentence opens with the word: the choice is the sentence's before
        return None
    else:
        if not (i > 0 and because_after.search(text, hi, z)):
            return None
    if i == 0:
        return None
    b, _ = sentences[i - 1]
    chosen = _last(uses, text, b, a)
    if chosen is None or text[b:a].rstrip().endswith(("?", "？")):
        return None
    return b, z, (a, z), (chosen.start(), chosen.end())


def _last(rx: re.Pattern, text: str, a: int, z: int) -> re.Match | None:
    """The last match of `rx` in text[a:z], else None."""
    found = None
    for found in rx.finditer(text, a, z):
        pass
    return found


def _past_reasons(text: str) -> str:
    """`text` (one line) with each span that gives a limit as the reason for a choice (_reasons) blanked: what the line says
    besides that context ("We can't use FA2 on our T4s, that's why we switched to xformers. Now xformers gives black images")."""
    for a, z, _, _ in list(_reasons(text)):
        text = text[:a] + " " * (z - a) + text[z:]
    return text


_QUOTED_ERROR = _R.compile(r"(?m)^[ \t]*Traceback \(most recent call last\)|^[ \t]*[\w.]*(?:Error|Exception)\b[ \t]*:")


def limit_as_reason(lines: list[str], line: int) -> tuple[int, int] | None:
    """The span of line `line` (1-based) that gives a limit as the reason for the writer's choice ("Our V100s cannot run
    flash-attn 2, so we use sdpa;", _reasons), where a failure is reported after it (in the rest of the line or the
    `window` lines below), else None ([limit_as_reason], helper ex161). Not a failure word its words deny ("works without
    errors", "no crash": `negated`, read before it on its line), and not where the first failure reported is the ruled-out
    backend's own (its line names the backend the limit names: "... so I use sdpa. With flash_attention_2 it fails"): the
    limit is then the report (helper rev28); nor the chosen backend's own in words, no exception quoted below ("... so we use
    xformers. But xformers also fails on it"): the limit is then that backend's report too (helper rev28b)."""
    found = _limit_followed(lines, line)
    return found[0] if found is not None and found[1] == "other" else None


def context_only(entry: Entry, lines: list[str], line: int):
    """For a catch-all (a generic entry) matched on 1-based `line`: a test of another line's number, true where that line names
    a backend only as context, so the nearest-line search goes on past it (search._nearest_for; helper ex174 moved both tests
    there from after attribution, where the line was lent and then the match taken back), else None:
    - a line that states a limit as the reason for the writer's choice, an unrelated failure reported after it
      (limit_as_reason: "I use flash-attn 2 because sdpa is not supported on my ROCm card." over a traceback that names no
      backend and ends in a KeyError): the choice is context, not the failure's own sentence, line or traceback
      (explain-policies-s28.md; helper ex169, ex166's leftover);
    - for a last resort (a generic fallback: triage.*, prose.*) on an exception line whose traceback names none, a line above
      that traceback that says no failure ("I use flash-attn 2 on my card.", "Running Wan 2.1 with sage attention", "Using
      xformers 0.0.28"): the writer's setup (helper ex171). A line that says a failure ([not_a_report.document] failing,
      [limit_as_reason] follows: "flash-attn 2 crashes on my card") is the writer's summary of it and still lends. A specific
      generic entry keeps it: a kernel fault's backend is the one the run selected (a flag, a variable, a title:
      tests/data/explain_attribution_s6.toml), where a KeyError's is nobody's."""
    if not entry.generic or not 0 < line <= len(lines):
        return None
    start = _passing_start(entry, lines, line)

    def skip(n: int) -> bool:
        if start is not None and n - 1 < start and _says_no_failure(lines[n - 1]):
            return True
        return limit_as_reason(lines, n) is not None
    return skip


def _passing_start(entry: Entry, lines: list[str], line: int) -> int | None:
    """The index of the traceback's first line above a last resort's exception line `line` (1-based), else None."""
    if not entry.fallback or not EXCEPTION_LINE.match(lines[line - 1]):
        return None
    up = _traceback(lines, line - 1)
    return up[-1] if up and TRACEBACK_START.search(lines[up[-1]]) else None


def _says_no_failure(said: str) -> bool:
    d, r = _document_rules(), _reason_rules()
    return not ((d and d["failing"].search(said)) or (r is not None and r[2].search(said)))


def chosen_failing(lines: list[str], line: int) -> str | None:
    """The backend the writer chose over the one a limit on line `line` rules out, where the first failure reported after the
    limit is that chosen backend's own ("V100不支持flash-attn 2，所以改用xformers。但是xformers也报错了。"), else None: the
    match is that backend's report, whichever backend the line's library rules name first (helper ex166; rev28b's English
    form read it by the rules' order, the Chinese one read none)."""
    found = _limit_followed(lines, line)
    return found[2] if found is not None and found[1] == "chosen" else None


def turned_on(lines: list[str], line: int) -> str | None:
    """The backend a limit on line `line` rules out, where the writer turns it on between the limit and the first failure reported
    after it, and that failure names no backend ("We use sdpa because our V100 can't run FA2. When I enable it anyway:" over a bare
    "no kernel image"; [limit_as_reason] turned_on), else None: the backend turned on is the one ruled out (the chosen one already
    runs), so the failure is that backend's and the limit its report (helper ex174; review rev29 left "it" undecided)."""
    found = _limit_followed(lines, line)
    return found[2] if found is not None and found[1] == "turned_on" else None


@lru_cache(maxsize=1)
def _turned_on_rule() -> re.Pattern | None:
    """[limit_as_reason] turned_on (helper ex174), compiled."""
    d = _toml().get("limit_as_reason") or {}
    return re.compile(d["turned_on"], re.M) if "turned_on" in d else None


def _turned_on_then_failed(after: str, failure: int) -> bool:
    """Does `after` turn the backend on ([limit_as_reason] turned_on) before offset `failure`, the failure reported first, with
    no word between the last such turning on and the failure that says it then worked ("When I enable it, it works fine.
    Unrelated, the tokenizer fails:": the failure is not the one turned on; review rev30)?"""
    on = _turned_on_rule()
    last = None if on is None else next(reversed(list(on.finditer(after, 0, failure))), None)
    return last is not None and not HEALTHY.search(after, last.end(), failure)


def _limit_followed(lines: list[str], line: int) -> tuple[tuple[int, int], str, str | None] | None:
    """(the span limit_as_reason reads, whose failure is reported first after it: 'ruled_out', 'chosen', 'turned_on' or 'other',
    the backend chosen; for 'turned_on' the backend ruled out), else None."""
    r = _reason_rules()
    if r is None or not 0 < line <= len(lines):
        return None
    text = lines[line - 1]
    for a, z, (x0, x1), (y0, y1) in _reasons(text):
        after = text[z:] + "\n" + "\n".join(lines[k] for k in range(line, min(len(lines), line + r[3])))
        ruled_out = first_named(text[x0:x1])
        chosen = first_named(text[y0:y1]) if not _QUOTED_ERROR.search(after) else None  # a quoted exception: its own entry
        for m in r[2].finditer(after):
            start = after.rfind("\n", 0, m.start()) + 1
            if r[4] is not None and r[4].search(after, start, m.start()):
                continue
            end = after.find("\n", m.end())
            named = first_named(after[start:len(after) if end < 0 else end])
            if named is None:  # a traceback from here: its innermost frame in a backend's file says whose failure it is (rev29)
                named = _raised_in(after.split("\n"), after.count("\n", 0, start))
            if named is None and r[5] is not None and r[5].match(after, start):
                continue  # an issue template's own line, no backend named on it (rev28b)
            if named is not None and named == ruled_out:
                break
            if named is None and ruled_out is not None and _turned_on_then_failed(after, m.start()):
                return (a, z), "turned_on", ruled_out  # "When I enable it anyway:" over a bare error: the ruled-out one's (ex174)
            return (a, z), "chosen" if named is not None and named == chosen else "other", chosen
    return None


def _raised_in(rows: list[str], k: int) -> str | None:
    """The backend whose file the innermost such frame names, of the traceback that rows[k] opens, leads into or ends (its
    header, a frame, the writer's line right above it, its exception line), else None (review rev29: "..., so we use sdpa.
    When I enable it anyway:" over a traceback through flash_attn/ ending in "no kernel image" is FA2 failing, though the
    exception line names no backend)."""
    end = k
    while not EXCEPTION_LINE.match(rows[end]):
        end += 1
        if end == len(rows) or end - k > WINDOW or rows[end].strip() and not (
                TRACEBACK_START.search(rows[end]) or FRAME.search(rows[end]) or rows[end][:1].isspace()
                or EXCEPTION_LINE.match(rows[end])):
            return None  # no traceback follows: the failure is said in words
    for j in _traceback(rows, end):  # up from the exception line, nearest frame first
        if FRAME.search(rows[j]) and (named := _file_named(rows[j])) is not None:
            return named[0]
    return None


def document_kind(lines: list[str]) -> str | None:
    """What kind of document other than a failure report this input is ('document': release notes, a feature request's form, an
    answered question, docs), by [not_a_report.document]; None for anything else (helper ex67)."""
    d = _document_rules()
    if not d:
        return None
    head = "\n".join(lines[j] for j in range(min(len(lines), d["head"])))
    for rx in d["marks"]:
        for m in rx.finditer(head):
            start = head.rfind("\n", 0, m.start()) + 1
            end = head.find("\n", m.end())
            rest = head[start:m.start()] + " " + head[m.end():end if end >= 0 else len(head)]  # the mark's line without the mark
            if not d["failing"].search(rest):
                return "document"
    return None


def no_failure_document(lines: list[str]) -> bool:
    """Is this input a document that names backends without a failure of them -- release notes, a feature request's form, an
    answered question, docs (document_kind) -- that quotes no failure (an exception line, a
    traceback, a tool's error line)? Then nothing in it is claimed (explain._attribute; helper ex67)."""
    d = _document_rules()
    if not d or document_kind(lines) is None:
        return False
    text = "\n".join(_known_lines(lines, d["window"]))
    return not any(rx.search(text) for rx in d["quoted"])


def _known_lines(lines, window: int) -> list[str]:
    """The input's first `window` lines that explain kept (knowledge.match.Lines keeps the lines around each match; a list is
    the whole input)."""
    context = getattr(lines, "context", None)
    if context is not None:
        return [context[k] for k in sorted(context) if k <= window]
    return [lines[j] for j in range(min(len(lines), window))]


def claimed_for(entry: Entry, own: str | None, lines: list[str], line: int, backend: str | None) -> bool:
    """May this match stand in a check of `backend` (knowledge.match.cause)? A `needs_backend` catch-all with no library
    named near it is the checked run's own when the check names the backend that ran (its log names nothing else);
    named near a library that is no attention backend's, or with no backend known at all, it is claimed as explain
    claims it (unclaimed)."""
    if entry.id not in rules().needs_backend:
        return True
    if backend is not None and 0 < line <= len(lines) and _nearest_for(entry, lines, line) is None:
        return True
    return not unclaimed(entry, own, lines, line)


_R.save()  # (the patterns compiled above, kept for the next run: index_cache.module_pack)


# helper ex35u (session 35; the unrelated logs of the training rounds, benchmarks/results/explain-unrelated-s35.md): a note -- an
# entry that says what a program printed at start-up or as advice, never why a run failed (severity info, can_cause false:
# "Xformers is not installed!", transformers' "Flash Attention 2.0 ... model not initialized on GPU", torch's "not compiled with
# flash attention") -- in an input that quotes another failure whose message and frames name no attention library (a
# tokenizer's ValueError, ComfyUI's failed validation) is that program's printing beside somebody else's failure: no finding.
# The note stays where no failure is quoted, where it is the input's first line (a title: the report is about the note, round
# 85m rsxdalv/TTS-WebUI#350 "Torch was not compiled with flash attention" over an asyncio error), or where the failure names
# attention (the note may be its context). [note_beside_failure] in attribution.toml.
@lru_cache(maxsize=1)
def _note_rules() -> tuple[frozenset[str], frozenset[str], re.Pattern | None, re.Pattern | None] | None:
    d = _toml().get("note_beside_failure")
    if not d:
        return None
    return (frozenset(d.get("severities", ("info",))), frozenset(d.get("ids", ())),
            re.compile(d["failure"]) if d.get("failure") else None, re.compile(d["printed"]) if d.get("printed") else None)


def _is_note(entry: Entry, r) -> bool:
    return entry.id in r[1] or (entry.severity in r[0] and not entry.can_cause)


def _failure_names_attention(lines: list[str], j: int) -> bool:
    """Does the failure on 0-based line `j` (its message with the lines that continue it, and the frames of its traceback
    above) name an attention library?"""
    said = [_RANK.sub("", lines[m]) for m in range(j, min(len(lines), j + 1 + CONTINUATION))]
    said = said[:next((i for i, t in enumerate(said) if i and not t.strip()), len(said))]
    if any(ATTENTION_WORDS.search(t) for t in said):
        return True
    prev = _RANK.sub("", lines[j - 1]) if j else ""
    above = _traceback(lines, j + 1) if FRAME.search(prev) or prev.startswith((" ", "\t")) else []
    return any(ATTENTION_WORDS.search(lines[k]) for k in above if FRAME.search(lines[k]) or TRACEBACK_START.search(lines[k]))


def note_beside_failure(entry: Entry, lines: list[str], hits: list[int]) -> bool:
    """Is this a note (see above) read from lines `hits` (1-based, its first line first) of an input that quotes, within WINDOW
    lines of it, another failure naming no attention library, and no failure that names one?"""
    r = _note_rules()
    if r is None or not _is_note(entry, r):
        return False
    own = {n - 1 for n in hits}
    top = min(hits) if hits else 0
    if 0 < top <= WINDOW and not any(lines[j].strip() for j in range(top - 1)) \
            and not (r[3] is not None and r[3].search(lines[top - 1])):
        return False  # the note is the input's first line, not in a program's print: a report's title, what it is about
    other = False
    at = hits[0] if hits else 0
    for j in range(max(0, at - 1 - WINDOW), min(len(lines), at + WINDOW)):  # the lines kept around it (Lines: "" elsewhere)
        text = lines[j]
        if j in own or not text:
            continue
        if not (EXCEPTION_LINE.match(_RANK.sub("", text)) or (r[2] is not None and r[2].search(text))):
            continue
        if _failure_names_attention(lines, j):
            return False
        other = True
    return other


# helper ex35u (session 35; round 184m unrelated: d8ahazard/sd_dreambooth_extension#915, "Error an illegal memory access was
# encountered at line 184 in file C:\\bnb\\wt2\\csrc\\ops.cu" under a config that says "attention": "xformers"): a kernel
# fault whose message says where the kernel is -- the CUDA source file it faulted in -- is that file's library's; a backend
# named near it in prose or a config is no reading of it. Where the path names attention (FlashInfer's attention/prefill.cuh,
# xformers' mem_eff_attention/*.cu) the catch-all stays as before. [fault_located] in attribution.toml.
@lru_cache(maxsize=1)
def _fault_rules() -> tuple[frozenset[str], re.Pattern] | None:
    d = _toml().get("fault_located")
    return (frozenset(d["ids"]), re.compile(d["location"])) if d else None


def fault_located_elsewhere(entry: Entry, lines: list[str], line: int) -> bool:
    """Does the match's line (or a line continuing its message) locate the fault in a CUDA source file whose path names no
    attention library ([fault_located])?"""
    r = _fault_rules()
    if r is None or entry.id not in r[0] or not 0 < line <= len(lines):
        return False
    for k in range(line - 1, min(len(lines), line + CONTINUATION)):
        if k > line - 1 and not lines[k].strip():
            break
        m = r[1].search(lines[k])
        if m is not None:
            return not ATTENTION_WORDS.search(m.group("path"))
    return False
