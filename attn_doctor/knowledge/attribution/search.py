"""The nearest-naming-line search (nearest(), steps 1-4 of the package docstring): the error line and its
continuation, up its traceback (a cut traceback, the set-up lines above it, the frame a bare error stands for: a caption,
a pointer above, the reproducer's fenced block), down the log (not past another package's pip step), and last the
input's title lines (a report's title names its backend here, unless the title is a program's banner or log line:
banner(), _program_line()). _nearest_for() runs it as an entry's [needs_backend] rules say.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .. import Entry, toml_data
from .shapes import (
    _first_lines, _traceback, Attribution, CONTINUATION, EXCEPTION_LINE, FALL_BACK, FRAME, IMPORT_CODE, PYTEST_E,
    PYTEST_LOCATION, SWITCH_TO, TITLE_LINES, TRACEBACK_START, USED_VERBS, WINDOW,
)
from .tables import _document_rules, _first_rule, NOT_SEVEN, rules
from .naming import _file_named, _named
from .. import index_cache
_R = index_cache.module_pack(__name__)  # this module's patterns: re.compile through the compiled-pattern cache


def _nearest_for(entry: Entry, lines: list[str], line: int) -> Attribution | None:
    """nearest() as this entry's rules ([needs_backend] past_traceback, in_traceback, title_sentence) say to look, past the
    lines that are only context for a catch-all (refusals.context_only: a limit given as the reason for a choice, a line
    above a backend-free traceback that says no failure; helper ex174)."""
    from .refusals import context_only  # (refusals reads this module)

    r = rules()
    return nearest(lines, line, past_traceback=entry.id in r.past_traceback, down=entry.id not in r.in_traceback,
                   title=entry.id in r.title_sentence, beside=entry.id not in r.own_line_only,
                   skip=context_only(entry, lines, line))


def _cut_traceback(lines: list[str], start: int) -> bool:
    """Is the traceback starting at `start` cut before an exception line of its own (the paste ends inside
    it)? Then it is the traceback of the error above it (a report's title over its cut traceback, round 14:
    yaolinli/TimeChat-Online#29), and its frames are that error's evidence."""
    if len(lines) - start > WINDOW:
        return False  # the input goes on past what attribution keeps of it: not a paste that ends inside this traceback
    return not any(TRACEBACK_START.search(lines[k]) or EXCEPTION_LINE.search(lines[k]) for k in range(start + 1, len(lines)))


def _setup_above(lines: list[str], start: int, i: int) -> list[int]:
    """The lines that set up the run ([setup] in attribution.toml) above the traceback that starts at `start` (the
    error on line index `i`), nearest first, back to an earlier error or traceback, within WINDOW of the error."""
    if not TRACEBACK_START.search(lines[start]):
        return []  # the search up was not stopped by a traceback's start: it read these lines already
    setup = rules().setup
    out = []
    for j in range(start - 1, max(-1, i - WINDOW), -1):
        if TRACEBACK_START.search(lines[j]) or EXCEPTION_LINE.search(lines[j]):
            break  # an earlier error's: what set it up is not this one's
        if any(rx.search(lines[j]) for rx in setup):
            out.append(j)
    return out


# helper ex57 (session 9; tests/test_explain_variants_ex57.py): an error with no frame of its own is still told where it came from:
# - a caption right above it ("Library Compilation Error (SageAttention):" over "RuntimeError: CUDA 12.8 or higher is required ...",
#   kairos-agi/kairos#26), a fence between them at most;
# - a pointer in its own words to what stands above its traceback ("See root cause above": vLLM's engine, over a CUDA error in
#   xformers' bundled FA3, nvidia-cosmos/cosmos-reason1#65);
# - the code that ran: the calls above it in its own fenced block (a kernel call quoted over its error), and the fenced block right
#   above or below it, a few short sentences between at most ("This code raises", "# Reproducing code"): the user's reproducer
#   that calls flash_attn_func / create_block_mask / scaled_dot_product_attention (Dao-AILab/flash-attention#1812,
#   meta-pytorch/attention-gym#68, pytorch/pytorch#154197). Only a call names the backend there, never an import or a version
#   print (`print(flash_attn.__version__)`), an install line or a package list.
FENCE = _R.compile(r"^\s*(?:>\s*)?(?:```|~~~)")
POINTS_ABOVE = _R.compile(r"\bsee (?:the )?root cause above\b|\blook up to see its traceback\b|"
                          r"\bsee (?:the )?(?:error|errors|traceback|log|logs|output) above\b", re.IGNORECASE)
CAPTION_LINES = 1  # lines between a caption and its error (a fence)
GAP_LINES = 3  # sentences between a reproducer's block and the error
SPAN_LINES = 10  # lines (blank ones too) between them, at most


@lru_cache(maxsize=4096)
def _called(line: str) -> bool:
    """Does this code line call a backend's function (a backend's name right before an opening parenthesis)?"""
    if IMPORT_CODE.search(line) or FRAME.search(line):
        return False
    return any(m for _, rx in rules().seven for m in rx.finditer(line) if re.match(r"\s*\(", line[m.end():]))


def _block_around(lines: list[str], i: int) -> tuple[int, int] | None:
    """(opening fence, closing fence) of the fenced block that holds line index i, else None."""
    fences = [k for k in range(max(0, i - WINDOW), i) if FENCE.match(lines[k])]
    if len(fences) % 2 == 0:
        return None
    end = next((k for k in range(i + 1, min(len(lines), i + WINDOW)) if FENCE.match(lines[k])), None)
    return (fences[-1], end) if end is not None else None


def _block_next(lines: list[str], k: int, step: int) -> range | None:
    """The lines of the fenced block whose near fence is the first fence from index k on in direction `step`, with at most
    GAP_LINES sentences (and SPAN_LINES lines) between, else None."""
    said = 0
    for n, j in enumerate(range(k, -1 if step < 0 else len(lines), step)):
        if n > SPAN_LINES:
            return None
        t = lines[j]
        if FENCE.match(t):
            far = next((x for x in range(j + step, -1 if step < 0 else len(lines), step) if FENCE.match(lines[x])), None)
            if far is None or abs(far - j) > WINDOW:
                return None
            lo, hi = sorted((j, far))
            return range(lo + 1, hi)
        if not t.strip():
            continue
        said += 1
        if said > GAP_LINES or EXCEPTION_LINE.search(t) or TRACEBACK_START.search(t) or FRAME.search(t):
            return None  # another error between: the block is that one's
    return None


def _beside_bare_error(lines: list[str], i: int, start: int | None) -> list[int]:
    """Line indexes that stand for the frame of an error on index i that has none (see above), nearest first."""
    out: list[int] = []
    for j in range(i - 1, max(-1, i - 2 - CAPTION_LINES), -1):  # a caption
        t = lines[j].rstrip()
        if FENCE.match(t):
            continue
        if t.endswith((":", "：")) and len(t) <= 160 and not FRAME.search(t) and not EXCEPTION_LINE.search(t):
            out.append(j)
        break
    if start is not None and POINTS_ABOVE.search(lines[i]):  # "see root cause above": the lines above its traceback
        said = 0
        for j in range(start - 1, max(-1, start - 1 - SPAN_LINES), -1):
            if lines[j].strip() and not FENCE.match(lines[j]):
                out.append(j)
                said += 1
                if said == GAP_LINES:
                    break
    own = _block_around(lines, i)
    calls: list[int] = []
    if own is not None:
        calls += [j for j in range(i - 1, own[0], -1) if _called(lines[j])]
    above = _block_next(lines, (own[0] if own else i) - 1, -1)
    below = _block_next(lines, (own[1] if own else i) + 1, 1)
    for block in (above, below):
        if block is not None:
            calls += [j for j in reversed(block) if _called(lines[j])]
    return out + [j for j in calls if j not in out]


# helper ex180 (session 32; round 105m: QwenLM/Qwen3#670, a maintainer's "There are other options worth trying:" over "1. using a
# fused kernel implementation, e.g., pytorch sdpa ... or flash_attention_v2" under an fp16 NaN): the items of a list that a line
# offers as things to try (options, alternatives, workarounds, "you can try:") name cures, not the backend that failed; the
# search down the log passes over them. Not a list of what the writer tried ("I tried these options:"), nor steps to reproduce
OFFER = _R.compile(r"(?:\bworth[ \t]+(?:a[ \t]+)?try(?:ing)?|\byou[ \t]+(?:can|could|may|might|should)[ \t]+(?:also[ \t]+)?try|"
                   r"\b(?:other|possible|some|a[ \t]+few|more)[ \t]+(?:options|alternatives|workarounds|solutions|fixes|things[ \t]+to[ \t]+try)|"
                   r"^[^\w\n]*(?:workarounds?|alternatives|suggestions|possible[ \t]+fix(?:es)?|things[ \t]+to[ \t]+try))\b[^\n]{0,30}?[:：][ \t]*$",
                   re.IGNORECASE)
LIST_ITEM = _R.compile(r"^[ \t]*(?:\d{1,2}[.)]|[-*•])[ \t]+\S")


def _offered_item(lines: list[str], j: int) -> bool:
    """Is 0-based line `j` an item of a list under a line that offers its items as things to try (OFFER)?"""
    k = j
    while k >= 0 and LIST_ITEM.match(lines[k]):
        k -= 1
    return k < j and k >= 0 and bool(OFFER.search(lines[k])) and not re.search(r"\btried\b", lines[k], re.IGNORECASE)


def nearest(lines: list[str], line: int, past_traceback: bool = False, down: bool = True,
            title: bool = False, beside: bool = True, skip=None) -> Attribution | None:
    """The backend named nearest to 1-based `line` of `lines` (see the module docstring).
    `past_traceback`: go on up past the traceback's start (a failed build's CalledProcessError
    follows the compiler output that names the package being built). `down=False`: not down the log
    past the message's own continuation. `beside=False` (with down=False): not what stands beside an error that has no
    frame of its own (_beside_bare_error). `skip`: a test of a 1-based line number, other than `line`, whose naming is no
    evidence for this error (the search goes on past it)."""
    i = line - 1
    if not 0 <= i < len(lines):
        return None
    order = [i]
    announced = rules().announcements
    # a traceback's `raise` line quoted as the error: the exception's own message is the line under it (round 23:
    # transformers' `raise ImportError(f"{preface} the package flash_attn ...")` over "ImportError: FlashAttention2 has been
    # toggled on ...", hear-t1/EasyR1#21), which names the backend before a sentence above it does
    raised = re.match(r"\s*raise \w", lines[i]) is not None
    # a message that ends in a colon goes on on the next line, indented or not ("... because of the following error (look up to
    # see its traceback):" over "Requires Flash-Attention version ...", xorbitsai/inference#3909; helper ex57)
    colon = lines[i].rstrip().endswith((":", "："))
    for j in range(i + 1, min(len(lines), i + 1 + CONTINUATION)):  # the message's own continuation
        if not lines[j].strip() or not (down or raised or lines[j][:1].isspace() or colon and j == i + 1):
            break  # (down=False: only indented lines continue it; the next log line is another step's)
        if not any(rx.search(lines[j]) for rx in announced):  # round 7b: a banner under a title continues nothing
            order.append(j)
    # pytest's report puts the place that raised under the E-lines ("src/pkg/attention.py:93: RuntimeError"): that frame's file
    # (helper ex57; huggingface/trl#6265's transformers/integrations/sdpa_attention.py)
    for j in range(i + 1, min(len(lines), i + 1 + CONTINUATION)):
        if PYTEST_LOCATION.match(lines[j]):
            if j not in order:
                order.append(j)
            break
        if lines[j].strip() and not PYTEST_E.match(lines[j]):
            break
    if past_traceback:
        order += range(i - 1, max(-1, i - 1 - WINDOW), -1)
    else:
        up_lines = _traceback(lines, i)  # up the traceback, deepest frame first
        if not down:  # only the innermost frame of a real traceback, not whatever lines stand above
            start = up_lines[-1] if up_lines and TRACEBACK_START.search(lines[up_lines[-1]]) else None
            real = start is not None
            inner = next((k for k, j in enumerate(up_lines) if FRAME.search(lines[j])), None)
            # a paste cut above its first frames (no "Traceback" line): a frame right over the error (its code and carets
            # between) is still the innermost frame (helper ex50, session 8)
            real = real or inner is not None and inner <= 3
            up_lines = up_lines[:inner + 1] if real and inner is not None else []
            if beside and (inner is None or not real):
                up_lines += _beside_bare_error(lines, i, start)  # no frame of its own: what stands for one (helper ex57)
        order += up_lines
        if down and up_lines:
            order += _setup_above(lines, up_lines[-1], i)
    up = len(order)
    seen = set(order)
    for j in range(i + 1, min(len(lines), i + 1 + WINDOW) if down else i + 1):  # then down (build logs)
        if TRACEBACK_START.search(lines[j]) and not _cut_traceback(lines, j):
            break
        if j not in seen and not any(rx.search(lines[j]) for rx in announced) \
                and not (LIST_ITEM.match(lines[j]) and _offered_item(lines, j)):  # round 7b: a selector's line is no evidence
            order.append(j)  # (nor an offered option: helper ex180)
    # last, the input's first lines when the error is near them: a pasted issue's title or the user's
    # sentence above a traceback that names no library ("flash-attn crashes on B200" over a
    # traceback of the user's own frames). Round 5b (variant stress); tests/test_explain_variants_b.py
    # Only above the error's own traceback, never across an earlier one (whose frames name its own error's backend).
    if title and i < TITLE_LINES and not FRAME.search(lines[i]):
        # the error is the report's title: its first sentence (the next line that is not blank) says what it is about
        # (round 11: "NaN Gradient Issue with Gemma2 Model Training" over "... gradients become NaN ... with flash-attn")
        seen.update(order)
        order += [j for j in _first_lines(lines, TITLE_LINES) if j not in seen and not FRAME.search(lines[j])
                  and not _program_line(lines[j])]
    if 0 < i <= WINDOW + TITLE_LINES:
        seen.update(order)
        starts = [k for k in range(i) if TRACEBACK_START.search(lines[k])]
        if len(starts) <= 1:
            top = starts[0] if starts else i
            order += [j for j in range(min(TITLE_LINES, top)) if j not in seen and i - j <= WINDOW
                      and not FRAME.search(lines[j]) and not _program_line(lines[j])]
    step = _other_package_step(lines, i)
    if step is not None:  # the error is another package's pip step: nothing above that step's first line is its evidence
        up = sum(1 for j in order[:up] if j >= step)
        order = [j for j in order if j >= step]
    weak = None  # the first line that names a backend only by a shared name
    inventory = rules().inventory
    for k, j in enumerate(order):
        if k == up and weak is not None:
            break  # the message and its traceback named no backend more precisely
        named = _named(lines[j])
        if named is not None and j > 0 and FRAME.search(lines[j - 1]) and lines[j][:1].isspace():
            # a frame's code line: the frame's file names its backend before a name in the code does (FA3's
            # hopper/flash_attn_interface.py importing its extension as `flash_attn_cuda`, an FA2 name)
            named = _file_named(lines[j - 1]) or named
        if j < i:  # a notice above the error naming what ran in another's place (ex35b)
            r = _replacement_named(lines[j])
            if r is not None and (weak is None or weak.backend == r) and not (skip is not None and skip(j + 1)):
                return Attribution(r, j + 1, lines[j].strip()[:300])
        if named is None:
            continue
        b, shared = named
        if skip is not None and j != i and skip(j + 1):
            continue  # context only for this error (a choice's reason, a setup line that says no failure: helper ex174)
        if j != i and b not in NOT_SEVEN and any(rx.search(lines[j]) for rx in inventory):
            continue  # a list of what is installed names no failing backend (session 6, ex37)
        if b == "none":  # torch's own message: nothing to attribute
            return None
        if shared:
            weak = weak or Attribution(b, j + 1, lines[j].strip()[:300])
            continue
        return Attribution(b, j + 1, lines[j].strip()[:300])
    return weak


# ex35b (session 35, issue 23): a notice above the error that says which backend runs in another's place ("FlashAttention-3 is not
# supported on this GPU, using FlashAttention-2 instead", "xformers not available, falling back to PyTorch SDPA", "flash_attn not
# found, using sageattn instead") says what ran when the error below it came: the error is the replacement's, not the absent
# one's (sentences.USED_INSTEAD and FALLBACK_TO blank the replacement, so that the notice's own line is about the absent backend,
# as fa2.not-available-fallback says). Only above the error (its traceback, the set-up lines, the input's first lines; not a line
# below it, nor the error's own line), and only where the error's own lines name no backend, or only by a name the replacement shares ("FlashAttention only supports
# Ampere GPUs or newer" under "using FlashAttention-2 instead"): an error that names the absent backend stays its own.
# (rv36: the words are shapes' FALL_BACK, SWITCH_TO and USED_VERBS, shared with shapes.WARNING_LINE and sentences.USED_INSTEAD)
_AFTER_ABSENCE = "|".join(SWITCH_TO + (r"defaulting[ \t]+to",))
REPLACED_BY = _R.compile(r"(?:\b(?:" + "|".join(USED_VERBS) + r")[ \t]+(?:the[ \t]+)?"
                         r"(?P<a>[^\s,;:.!?()]+(?:[ \t]+[^\s,;:.!?()]+){0,2}?)[ \t]+instead\b(?![ \t]+of\b)|"
                         + FALL_BACK + r"(?:to|on)[ \t]+(?:the[ \t]+)?(?P<b>[^\s,;:!?()]+(?:[ \t]+[^\s,;:!?()]+){0,2})|"
                         # ("Sage attention not available, using flash attention 2": the replacement after the absence's comma)
                         r"(?<=[,;:])[ \t]*(?:(?:will|now|so)[ \t]+)?(?:" + _AFTER_ABSENCE + r")[ \t]+(?:the[ \t]+)?"
                         r"(?P<c>[^\s,;:.!?()]+(?:[ \t]+[^\s,;:.!?()]+){0,2}))",
                         re.IGNORECASE)
ABSENT_BEFORE = _R.compile(r"\b(?:not|no|unavailable|missing|absent|cannot|can't|could ?n[o']t|unable|failed|fails|disabl\w*|unsupported)\b",
                           re.IGNORECASE)


@lru_cache(maxsize=1024)
def _replacement_named(line: str) -> str | None:
    """The backend of the seven that a notice on this line says runs in place of another it says absent or unusable (REPLACED_BY
    after ABSENT_BEFORE in the same sentence), else None."""
    low = line.lower()
    if not any(w in low for w in ("instead", "back", "using", "use ", "switching", "default")):
        return None
    for m in REPLACED_BY.finditer(line):
        if not ABSENT_BEFORE.search(line[max(0, m.start() - 120):m.start()]):
            continue
        obj = (m.group("a") or m.group("b") or m.group("c") or "").strip(" .`'\"")
        hit = _first_rule(obj)
        if hit is not None and hit[0] not in NOT_SEVEN:
            return hit[0]
    return None


@lru_cache(maxsize=1)
def _banner_rules() -> tuple[tuple[re.Pattern, ...], re.Pattern]:
    """knowledge/attribution.toml [banner] (helper ex93), compiled: a program's log-line and start-up-line shapes, and the words
    of a line that warns."""
    d = toml_data("attribution.toml")["banner"]
    return tuple(re.compile(p) for p in d["lines"]), re.compile(d["warns"])


def banner(line: str) -> bool:
    """Is `line` a program's log line or start-up line ([banner] in attribution.toml) that warns of nothing?"""
    shapes, warns = _banner_rules()
    return any(rx.search(line) for rx in shapes) and not warns.search(line)


def _program_line(line: str) -> bool:
    """Is this first line of the input a program's banner or log line that says no failure, no report's title (helper ex93;
    knowledge/attribution.toml [banner], attribution.toml [announcement])?"""
    if any(rx.search(line) for rx in rules().announcements):
        return True
    d = _document_rules()
    return banner(line) and not (d and d["failing"].search(line))


# pip's line that starts one package's steps, and a step's failure below it (helper ex61, session 9): pip collecting flash-attn
# fine, then failing on mamba-ssm's metadata ("Collecting mamba-ssm" ... "Preparing metadata (setup.py) ... error" ... "OSError:
# CUDA_HOME environment variable is not set"): the error is mamba-ssm's, and the flash-attn lines above name nothing of it
PIP_STEP = _R.compile(r"^\s*(?:Collecting|Processing|Obtaining|Building wheel for|Running setup\.py (?:install|develop) for)\s+\S")
PIP_STEP_FAILED = _R.compile(r"\.\.\.\s*error\b|did not run successfully|\blines of output\]")


def _other_package_step(lines: list[str], i: int) -> int | None:
    """Index of the pip line that starts the steps of a package naming no backend, when the error on line index `i` stands in
    that package's failed step (a step's failure between them, within WINDOW); None otherwise."""
    failed = False
    for j in range(i, max(-1, i - WINDOW), -1):
        line = lines[j]
        if not failed and PIP_STEP_FAILED.search(line):
            failed = True
        if PIP_STEP.match(line):
            if failed and j != i and _named(line) is None:
                return j
            return None
    return None


_R.save()  # (the patterns compiled above, kept for the next run: index_cache.module_pack)
