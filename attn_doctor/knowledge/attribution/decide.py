"""The public decision: attribute() (the backend a matched error is given, and the line that named it: an entry's
[[evidence_backend]] rows, a sentence's first-named backend, the subject of the match, else the search's nearest naming
line as [takes_over] allows; a backend that is another program's attention or that the writer clears stays unnamed, and
a shared FlashAttention name that torch's own flash kernel explains is SDPA), backend_of() (an entry's own backend, else
its id's namespace), wording() (the title and fix an attributed entry takes for that backend) and line_variant() (an
entry's level and words on a line the program goes on after).
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from .. import Entry, render, template_fields
from .shapes import _first_lines, Attribution, FRAME, IMPORT_CODE, WINDOW, window_lines
from .tables import _toml, BACKENDS, rules
from .sentences import _main_clause, _selection, _subject_of_match, FA_FAMILY, first_named
from .naming import _file_named, _named, names_on
from .search import _nearest_for
from .refusals import _exonerated, _shadowed, chosen_failing, turned_on
from .probes import another_dsl_kernel
from .evidence import _fallback_backend, _near, _own_where_shown
from .. import index_cache
_R = index_cache.module_pack(__name__)  # this module's patterns: re.compile through the compiled-pattern cache


def backend_of(entry: Entry) -> str | None:
    """The entry's backend, else the one its id's namespace names (`fa2.missing`): explain's and cause()'s `own`."""
    prefix = entry.id.split(".", 1)[0]
    return entry.backend or (prefix if prefix in BACKENDS else None)


def _import_chain_only(lines: list[str], named: int, line: int) -> bool:
    """Is 1-based `named` a frame (or its code line) of a chain of module-level imports that runs down to the error at
    `line`? A backend whose package only imports the library that breaks ("from sageattention import sageattn" ->
    sageattention/core.py `import triton` -> Triton's own ImportError: round 32, leomaxwell973/Triton-3.3.0...#6) carries
    the import; it ran nothing (session 7, ex48; tests/test_explain_variants_ex48.py). A frame that calls something
    (FlexAttention's `flex_attention`, a function's body) still names its backend."""
    i = named - 1
    if not 0 <= i < len(lines) or named == line:
        return False
    if not FRAME.search(lines[i]):
        i -= 1
        if i < 0 or not FRAME.search(lines[i]):
            return False
    frames, k = [], i  # this frame and every deeper one, to the traceback's end (or the error's line)
    while k < len(lines) and k != line - 1 and (FRAME.search(lines[k]) or lines[k][:1].isspace()):
        if FRAME.search(lines[k]):
            frames.append(k)
        k += 1
    return bool(frames) and all(lines[k].rstrip().endswith("in <module>") and k + 1 < len(lines)
                                and IMPORT_CODE.search(lines[k + 1]) for k in frames)


# helper ex66 (session 10; benchmarks/results/explain-wrong-backend-s10.md class S): "Flash Attention" with no version is a name
# FlashAttention's packages share with PyTorch's own flash kernel. Where the text around it shows PyTorch's flash kernel by its own
# API or message (torch.backends.cuda.can_use_flash_attention, enable_flash_sdp, SDPBackend.FLASH_ATTENTION, "Torch was not compiled
# with flash attention", "Flash attention kernel not used because", "PyTorch's built-in flash attention") and names no
# FlashAttention package precisely (flash_attn, flash-attn, FlashAttention-2, a file of theirs), the shared name is SDPA's flash
# kernel: a runebook page on can_use_flash_attention titled "Flash Attention ... 작동하지 않을 때" is about SDPA
TORCH_FLASH = _R.compile(r"\bcan_use_flash_attention\b|\benable_flash_sdp\b|\bflash_sdp_enabled\b|\bSDPBackend\.FLASH_ATTENTION\b|"
                         r"\b_scaled_dot_product_flash_attention\w*|\bpytorch_flash::|\bat::native::_flash_attention_|"
                         r"\bTorch was not compiled with flash attention\b|\bFlash attention kernel not used\b|"
                         r"\b(?:py)?torch(?:[’']s)?[ \t]+(?:(?:built-?in|native|own|internal)[ \t]+)?flash[ -]?attention\b|"
                         r"\bsdp_kernel\([^)\n]*enable_flash|"
                         # helper ex107 (session 17; benchmarks/explain_generic.py, "generic matched, another backend"): torch's flash
                         # kernel by more of its own names and as reports word it: Windows wheels print "1Torch was not compiled
                         # with flash attention" (a digit glued on: no \b before Torch); the ATen ops (aten::_flash_attention_forward,
                         # at::_efficient_attention_backward, torch.ops.aten._flash_attention_forward, and a test id's mangled
                         # ..._aten__flash_attention_forward_xpu_float16); torch said to be compiled or
                         # built without it ("Pytorch doesn't compile with Flash Attention"); SDPA's own refusal "No available
                         # kernel"; and a line that makes SDPA the owner of the flash kernel ("torch SDPA automatically uses a flash
                         # attention algorithm", "the flash attention backend of SDPA", "flash attn sdpa backend", "SDPA's flash
                         # kernel", "flash attention in the implementation of torch.nn.functional.scaled_dot_product_attention"),
                         # not a line that sets the two against each other ("flash attention instead of SDPA")
                         r"(?<![A-Za-z_])Torch was not compiled with flash attention\b|"
                         r"(?<![A-Za-z0-9])(?:aten|at)(?:::|\.|_)_(?:flash_attention|efficient_attention|scaled_dot_product)_\w+|"
                         r"\b(?:py)?torch\b(?:[^\n.]|\.(?=\w)){0,30}?\b(?:(?:was|is|were|isn['’]?t|wasn['’]?t|doesn['’]?t|does[ \t]+not|did[ \t]+not|"
                         r"didn['’]?t|not)[ \t]+)?(?:compiled?|buil[dt])[ \t]+with(?:out)?[ \t]+flash[ -]?att(?:ention|n)\b|"
                         r"\bNo available kernel(?:\.|[ \t]+for\b)|"
                         r"(?:\bSDPA\b|\bscaled_dot_product_attention\b)(?:['’]s)?[ \t]+(?:\w+[ \t]+){0,2}?(?:uses?|using|dispatch(?:es)?[ \t]+to|"
                         r"selects?|picks?|chooses?|routes?[ \t]+to)[ \t]+(?:the[ \t]+|a[ \t]+|its[ \t]+)?(?:\w+[ \t]+)?flash[ -]?att(?:ention|n)\b|"
                         r"(?:\bSDPA\b|\bscaled_dot_product_attention\b)(?:['’]s)?[ \t]+flash(?:[ -]?att(?:ention|n))?[ \t]+(?:backend|kernel|path)\b|"
                         r"\bflash[ -]?att(?:ention|n)?[ \t]+(?:sdpa|sdp)[ \t]+(?:backend|kernel)\b|"
                         r"\bflash[ -]?att(?:ention|n)\b(?![^\n]{0,60}?\b(?:instead|rather)[ \t]+(?:of|than)\b)[^\n]{0,60}?\b(?:in|of|inside|within)[ \t]+"
                         r"(?:the[ \t]+)?(?:(?:implementation|backends?|kernels?)[ \t]+of[ \t]+)?[\"'`]?(?:torch\.nn\.functional\.|F\.|(?:py)?torch['’]s[ \t]+)?"
                         r"(?:scaled_dot_product_attention\b|SDPA\b)|"
                         # helper ex168 (session 29; benchmarks/results/explain-recurring-s29.md: "sdpa -> fa2", the one wrong-backend
                         # pair at the first measurement of seven blind rounds): torch's own attention function called built-in ("the
                         # inbuilt function scaled_dot_product_attention is not working", "PyTorch's native SDPA op"), not set against
                         # another ("instead of the built-in ..."); and lucidrains' Attend module, copied into x-transformers and many
                         # model repositories, whose `flash` switch calls F.scaled_dot_product_attention (x-transformers
                         # x_transformers/attend.py at 944c2bec: `flash = False` in Attend.__init__, the flash_attn method's
                         # F.scaled_dot_product_attention, the assert "in order to use flash attention, you must be using pytorch 2.0 or
                         # above"; x-transformers passes `attn_flash` to it): the switch, its assert and that file are SDPA's flash kernel
                         r"(?<!instead of )(?<!instead of the )(?<!rather than )(?<!rather than the )(?<!than the )(?<!than )(?<!compared to )(?<!versus )"
                         r"(?<!compared to the )(?<!versus the )(?<!vs )(?<!vs the )(?<!vs\. )(?<!not )(?<!not the )"
                         r"\b(?:(?:py)?torch['’]s[ \t]+)?(?:in-?built|built-?in|native)[ \t]+(?:(?:function|op|operator|kernel|api)[ \t]+)?"
                         r"[\[`'\"]?(?:torch\.nn\.functional\.|F\.)?(?:scaled_dot_product_attention\b|SDPA\b)(?:\]\([^)\s]{0,300}\))?"
                         # review rev29: only where that function is the one said to fail, in its own clause (no stop, comma, colon
                         # or other attention between: "it is the native SDPA op that breaks"), not where the text sets it
                         # against flash attention in other words ("I replaced the built-in SDPA with flash attention and it
                         # crashes", "Unlike the native SDPA, flash attention crashes", "The built-in SDPA works fine; ...")
                         r"(?:(?![ \t]+(?:with|to|and|but|for|by)\b)(?!\bflash)(?:[^\n.,;:!?]|[.:](?=\S))){0,60}?"
                         r"\b(?:crash\w*|break\w*|broke|fail\w*|falls?[ \t]+back|errors?|is[ \t]+not[ \t]+working|(?:does|do|did)(?:n['’]t|[ \t]+not)[ \t]+work|"
                         r"not[ \t]+working|hangs?|segfault\w*|raises?|throws?|gives?[ \t]+NaN|returns?[ \t]+NaN|NaNs?)\b|"
                         r"\bin order to use flash attention, you must be using pytorch 2\.0 or above\b|"
                         r"\battn_flash\b|\bx_transformers[/\\.]attend\b", re.IGNORECASE)


# a FlashAttention package or its sources spelled out (flash_attn, flash-attn, flash-attention, FlashAttention-2, FA3, hopper/): the
# text is about a package, whatever torch's flash kernel says beside it
FA_PACKAGE = _R.compile(r"flash[-_]?attn|flash[-_]attention|flash[ _-]?attention[ _-]?v?[234](?![0-9A-Za-z_])|(?<![0-9A-Za-z_])FA-?[234](?![0-9A-Za-z_])|"
                        r"(?<![\w.-])hopper[/\\]|\bflash_(?:fwd|bwd)_", re.IGNORECASE)


def _torch_flash_subject(lines: list[str], line: int, named_line: int) -> bool:
    """Does the text within WINDOW of 1-based `line` show PyTorch's flash kernel (TORCH_FLASH) and no FlashAttention package
    (FA_PACKAGE, outside torch's own names), while `named_line` names the FlashAttention family only by a shared name?"""
    if not (0 < named_line <= len(lines)):
        return False
    text = lines[named_line - 1]
    if _named(text) not in {(b, True) for b in FA_FAMILY} and not (
            TORCH_FLASH.search(text) and not FA_PACKAGE.search(TORCH_FLASH.sub(" ", text))):
        # (helper ex107) or the naming line itself makes torch's SDPA the flash kernel's owner ("a logic error about the flash
        # attention ... in the implementation of torch.nn.functional.scaled_dot_product_attention"), which also names SDPA
        return False
    window = window_lines(lines, line)
    if not any(TORCH_FLASH.search(t) for t in window):
        return False
    return not any(FA_PACKAGE.search(TORCH_FLASH.sub(" ", t)) for t in {*window, lines[named_line - 1]})


# helper ex119 (session 20; round 82 pytorch/pytorch#134208: "FATAL: kernel `fmha_cutlassF_f32_aligned_32x128_gmem_sm80` is for
# sm80-sm90" in a report on torch's scaled_dot_product_attention under ZLUDA): torch's memory-efficient SDPA kernel is xformers'
# CUTLASS kernel vendored with its names (aten/src/ATen/native/transformers/cuda/mem_eff_attention: fmha_cutlassF_*, cutlassF,
# cutlassB). Such a name is xformers' only where the text shows xformers itself; where it shows SDPA and no xformers, it is SDPA's
XFORMERS_KERNEL = _R.compile(r"(?<![A-Za-z])fmha_cutlass[FB]?_\w+|\bcutlass[FB]\b")
XFORMERS_PACKAGE = _R.compile(r"\bxformers?\b|\bmemory_efficient_attention\b|(?-i:\bXFORMERS_[A-Z])|\bxFormers\b", re.IGNORECASE)
TORCH_SDPA = _R.compile(r"\bscaled[_ ]dot[_ ]product[_ ]attention\b|\bSDPA\b|\bsdp_kernel\b|\bSDPBackend\b|"
                        r"\b(?:enable_)?mem(?:ory)?_?eff(?:icient)?_sdp\b|(?<![A-Za-z0-9])(?:aten|at)(?:::|\.|_)_(?:scaled_dot_product_)?"
                        r"efficient_attention\w*", re.IGNORECASE)


def _torch_kernel_subject(lines: list[str], line: int, named_line: int) -> bool:
    """Does the line that named xformers name it only by a kernel torch's SDPA shares (XFORMERS_KERNEL), with SDPA shown and
    xformers itself not shown within WINDOW of 1-based `line`?"""
    if not 0 < named_line <= len(lines) or not XFORMERS_KERNEL.search(lines[named_line - 1]):
        return False
    window = [XFORMERS_KERNEL.sub(" ", t) for t in window_lines(lines, line)]
    named = XFORMERS_KERNEL.sub(" ", lines[named_line - 1])
    return any(TORCH_SDPA.search(t) for t in window) and not any(XFORMERS_PACKAGE.search(t) for t in window + [named])


# helper ex184 (session 32; round 184m deepbeepmeep/Wan2GP#167: "change cu_seqlens_kv to cu_seqlens_k for it to work with latest
# flash attention 2" over `x = flash_attn_interface.flash_attn_varlen_func(...)`, FA3's top-level module): writers say "flash
# attention 2" of any FlashAttention, while the module their code calls or imports is exact. FA2 is the flash_attn package
# (not its cute/ subpackage: FA4), FA3 hopper/'s top-level flash_attn_interface (hopper.flash_attn_interface from a checkout) and
# flash_attn_3, FA4 flash_attn.cute. Only code counts: a call through the module or an import statement, not a sentence that
# names the module ("flash_attn_interface is not installed, so I use flash attention 2"), nor a build log's extension name
# (round 31 Dao-AILab/flash-attention#1549: "building 'flash_attn_2_cuda' extension" under a title asking for FA3 on sm_120, a
# user building FA2's main branch for FA3: what they ask for is FA3)
FA_MODULE_CODE = {
    "fa3": _R.compile(r"(?<![\w.])(?:hopper\.)?flash_attn_interface\.\w+[ \t]*\(|\bflash_attn_3(?:\.\w+)*\.\w+[ \t]*\(|"
                      r"^[ \t]*(?:import[ \t]+(?:hopper\.)?flash_attn_interface\b|from[ \t]+(?:hopper\.)?flash_attn_interface[ \t]+import\b|"
                      r"import[ \t]+flash_attn_3\b|from[ \t]+flash_attn_3(?:\.\w+)*[ \t]+import\b)|"
                      r"\bFile \"[^\"\n]*(?:[/\\]hopper[/\\][^\"\n]*|[/\\]flash_attn_3\w*[/\\][^\"\n]*|(?:site|dist)-packages[/\\]flash_attn_interface\.py)\"",
                      re.MULTILINE),
    "fa2": _R.compile(r"(?<![\w.])flash_attn\.(?!cute\b)\w+(?:\.\w+)*[ \t]*\(|"
                      r"^[ \t]*(?:from[ \t]+flash_attn(?:\.(?!cute\b)\w+)*[ \t]+import\b|import[ \t]+flash_attn(?:\.(?!cute\b)\w+)*[ \t]*(?:$|\bas\b))|"
                      r"\bFile \"[^\"\n]*[/\\]flash_attn[/\\](?!cute[/\\])[^\"\n]*\"",
                      re.MULTILINE),
    "cute": _R.compile(r"\bflash_attn\.cute\b|^[ \t]*from[ \t]+flash_attn[ \t]+import[ \t]+cute\b|\bFile \"[^\"\n]*[/\\]flash_attn[/\\]cute[/\\]",
                       re.MULTILINE),    # helper ex42b (session 42; round 203m vllm-project/vllm#485: "Flash Attention V2" over `self.attn_op =
    # xops.fmha.flash.FwOp()`): xformers' own flash operators (xformers/ops/fmha/flash.py's FwOp/BwOp, which run the FA2 it
    # bundles or finds) are xformers', as 49 of 50 training labels of texts showing them hold: the code calls xformers
    "xformers": _R.compile(r"\bfmha\.flash3?\.(?:FwOp|BwOp)\b|^[ \t]*from[ \t]+xformers\.ops\.fmha(?:\.flash3?)?[ \t]+import[ \t]+[^\n]*\bflash3?\b",
                           re.MULTILINE),
}
# a FlashAttention file or folder on the naming line: that is no naming in words
FA_SOURCE_PATH = _R.compile(r"[/\\](?:flash_attn\w*|hopper|flash-attention)(?:[/\\]|\.py\b)", re.IGNORECASE)
# the module itself missing: its import is no evidence of what ran
MODULE_ABSENT = _R.compile(r"\bNo module named\b|\bModuleNotFoundError\b|\bImportError\b|\bcannot import name\b", re.IGNORECASE)


def _module_called(lines: list[str], line: int, backend: str, named_line: int) -> tuple[str, int] | None:
    """(the FlashAttention backend, its 1-based line) whose module the code within WINDOW of 1-based `line` calls or imports,
    where that is the one FlashAttention module the code shows and not `backend`, which the naming line `named_line` gave in
    words (no module code on it, no FlashAttention file or folder): the module decides over the words (helper ex184)."""
    if backend not in FA_FAMILY or not (0 < named_line <= len(lines)):
        return None
    text = lines[named_line - 1]
    if FA_SOURCE_PATH.search(text) or any(rx.search(text) for rx in FA_MODULE_CODE.values()):
        return None
    found: dict[str, int] = {}
    for n in range(max(1, line - WINDOW), min(len(lines), line + WINDOW) + 1):
        t = lines[n - 1]
        if MODULE_ABSENT.search(t):
            return None
        for b, rx in FA_MODULE_CODE.items():
            if b not in found and rx.search(t):
                found[b] = n
    if len(found) != 1:
        return None
    (module, at), = found.items()
    return (module, at) if module != backend else None


@lru_cache(maxsize=1)
def _torch_flash_shared() -> tuple[frozenset[str], tuple[re.Pattern, ...]]:
    """[torch_flash_shared] in attribution.toml (helper ex42b): the FA2 entries whose message torch's vendored flash kernel
    raises in the same words, and the lines that show torch's route to that kernel."""
    t = _toml().get("torch_flash_shared", {})
    return frozenset(t.get("ids", ())), tuple(_R.compile(p) for p in t.get("route", ()))


def _torch_flash_raised(entry: Entry, lines: list[str], line: int) -> int | None:
    """The 1-based line that shows torch's own flash kernel (or its route) within WINDOW of 1-based `line`, where `entry` is
    one whose message that kernel shares and no FlashAttention package is named there; else None (helper ex42b)."""
    ids, route = _torch_flash_shared()
    if entry.id not in ids or not 0 < line <= len(lines):
        return None
    shown = None
    for n in range(max(1, line - WINDOW), min(len(lines), line + WINDOW) + 1):
        t = lines[n - 1]
        torch_names = TORCH_FLASH.search(t) or any(rx.search(t) for rx in route)
        rest = TORCH_FLASH.sub(" ", t)
        for rx in route:
            rest = rx.sub(" ", rest)
        if FA_PACKAGE.search(rest):
            return None
        if torch_names and shown is None:
            shown = n
    return shown


def attribute(entry: Entry, own: str | None, lines: list[str], line: int) -> tuple[str | None, Attribution | None]:
    """(the backend of this match, the line that named it when it was inferred from the log): _attributed, with a shared
    FlashAttention name read as PyTorch's flash kernel where the text shows that kernel and no package (_torch_flash_subject,
    helper ex66), and xformers' CUTLASS kernel names as SDPA's where the text shows SDPA and no xformers (_torch_kernel_subject,
    helper ex119)."""
    own = _own_where_shown(entry, own, lines, line)  # helper ex86
    backend, named = _attributed(entry, own, lines, line)
    if backend == own and own in FA_FAMILY and (at := _torch_flash_raised(entry, lines, line)) is not None:
        return "sdpa", Attribution("sdpa", at, lines[at - 1].strip()[:300])  # torch's vendored FA2 checks (helper ex42b)
    if backend in FA_FAMILY and backend != own and named is not None and _torch_flash_subject(lines, line, named.line):
        return "sdpa", Attribution("sdpa", named.line, named.text)
    if backend == "xformers" and backend != own and named is not None and _torch_kernel_subject(lines, line, named.line):
        return "sdpa", Attribution("sdpa", named.line, named.text)  # helper ex119
    if backend != own and named is not None and (called := _module_called(lines, line, backend, named.line)) is not None:
        return called[0], Attribution(called[0], called[1], lines[called[1] - 1].strip()[:300])  # helper ex184
    return backend, named


def _attributed(entry: Entry, own: str | None, lines: list[str], line: int) -> tuple[str | None, Attribution | None]:
    """(the backend of this match, the line that named it when it was inferred from the log). A backend inferred from words
    that are another program's own attention (a [[not_a_report.shadow]] with `every`) or that the writer clears stays unnamed
    (helper ex67)."""
    backend, named_by = _attribute(entry, own, lines, line)
    if own is None and named_by is not None and named_by.line != line and (on := turned_on(lines, named_by.line)) is not None:
        return on, Attribution(on, named_by.line, named_by.text)  # the backend the writer turned on after a limit (helper ex174)
    if backend is not None and backend != own and (_shadowed(backend, lines) or _exonerated(backend, lines, line)):
        chosen = chosen_failing(lines, line) if own is None else None
        if chosen is not None and chosen != backend:  # the backend chosen over the ruled-out one fails in turn (ex166)
            return chosen, Attribution(chosen, line, lines[line - 1].strip()[:300])
        return own, None
    return backend, named_by


def _attribute(entry: Entry, own: str | None, lines: list[str], line: int) -> tuple[str | None, Attribution | None]:
    """(the backend of this match, the line that named it when it was inferred from the log), from the rules alone."""
    r = rules()
    if entry.id in r.evidence_backend and 0 < line <= len(lines):
        # the entry's own evidence (its line, and the line under it) names whose integration it is ([[evidence_backend]])
        for b, when, title, unless in r.evidence_backend[entry.id]:
            if title and _first_lines(lines, 2)[:1] != [line - 1] or title and len(_first_lines(lines, 2)) < 2:
                continue  # only as a report's title: its first line, over a body (a line pasted alone is the notice as printed)
            if unless is not None and any(unless.search(t) for t in window_lines(lines, line)):
                continue  # another library that prints the same message is named near it (the row's `unless`, rev20)
            for n in (line, line + 1)[:len(lines) - line + 1]:
                if when.search(lines[n - 1]):
                    if b == "none":  # the evidence names a program's own class, no backend of the seven (helper ex80)
                        return None, None
                    return b, Attribution(b, n, lines[n - 1].strip()[:300])
    if entry.id in r.never:
        return own, None
    if r.dsl_kernel[0] and entry.id.startswith(r.dsl_kernel[0]) and another_dsl_kernel(lines, line):
        return None, None  # the CuTe DSL compiling another program's kernel, not FA4's ([dsl_kernel])
    if (entry.head or entry.id in r.first_named) and 0 < line <= len(lines):
        b = first_named(_main_clause(_selection(entry, lines[line - 1])))  # a sentence: the backend its main clause names first
        if b is not None:
            return b, Attribution(b, line, lines[line - 1].strip()[:300])
    found = _nearest_for(entry, lines, line)
    if (subject := _subject_of_match(entry, lines, line, found)) is not None and own in (None, subject):
        return subject, Attribution(subject, line, lines[line - 1].strip()[:300])
    if entry.id in r.own_if_named and (found is None or found.backend in ("foreign", "other")
                                       or _import_chain_only(lines, found.line, line)):
        return None, None  # no backend of the seven named near it: not the entry's own backend's failure ([own_if_named])
    if found is None and own is None and 0 < line <= len(lines):
        return _fallback_backend(entry, lines, line)  # the failing import's module, where nothing near names one (ex86)
    if found is None or found.backend in (own, "foreign", "other"):
        return own, None
    if own is None or own in r.takes_over.get(found.backend, ()) or found.backend in r.entry_takes_over.get(entry.id, ()):
        if own is not None and found.line != line and own in names_on(found.text) and _file_named(found.text) is None \
                and not (found.line >= 2 and FRAME.search(lines[found.line - 2])):
            # a sentence that names the entry's own backend too, by name ("head_dim=512 in FlashAttention (FA2 and/or FA3/FA4)"
            # over FA2's own message, Dao-AILab/flash-attention#2427), is no evidence that another backend raised it; a file
            # (hopper/flash_api.cpp, a frame's path) still is (session 7, ex43)
            return own, None
        return found.backend, found
    return own, None


@lru_cache(maxsize=1)
def _line_variants() -> dict[str, tuple[re.Pattern | None, re.Pattern | None, dict]]:
    """[[line_variant]] in attribution.toml (rev21b): entry id -> (the lines it is for, the lines near it that call for it
    (helper ex144), the severity / title / cause / fix there)."""
    return {row["entry"]: (re.compile(row["when"]) if "when" in row else None, re.compile(row["near"]) if "near" in row else None,
                           {k: row[k] for k in ("severity", "title", "cause", "fix") if k in row})
            for row in _toml().get("line_variant", ())}


def line_variant(entry: Entry, lines: list[str], hits: list[int]) -> Entry:
    """`entry` with the severity and words of its [[line_variant]] row where every line it matched (1-based `hits`) is one
    the row is for (`when`: a fallback the program logs and goes on after), or where a line within WINDOW of one of them, or
    the text's title, says what the row is for (`near`: flash_attn shown installed, helper ex144), else `entry` as it is."""
    row = _line_variants().get(entry.id)
    if row is None or not hits or not all(0 < n <= len(lines) for n in hits):
        return entry
    when, near, words = row
    if when is not None and not all(when.search(lines[n - 1]) for n in hits):
        return entry
    if near is not None and not any(near.search(lines[j]) for j in sorted(set().union(*(_near(lines, n) for n in hits)))):
        return entry
    return replace(entry, **words)


def wording(entry: Entry, backend: str | None) -> tuple[str | None, str | None]:
    """(title, fix) of `entry` for a known `backend`; None where the entry's own words stand."""
    if backend is None:
        return None, None
    r = rules()
    by = r.wording.get(entry.id, {})
    w = by.get(backend) or by.get("any")
    words = dict(r.words.get(backend, {}), backend=backend)
    if w:
        return render(w.get("title"), words) if w.get("title") else None, render(w.get("fix"), words) if w.get("fix") else None
    # an entry templated over the backend's words only (import.* take {title}, {dist})
    params = dict(words, title=words.get("name", backend), dist=words.get("package", backend))
    title = render(entry.title, params) if template_fields(entry.title) and template_fields(entry.title) <= set(params) else None
    fix = render(entry.fix, params) if template_fields(entry.fix) and template_fields(entry.fix) <= set(params) else None
    return title, fix


_R.save()  # (the patterns compiled above, kept for the next run: index_cache.module_pack)
