"""Which backend an error in a log belongs to: the backend whose library the log names nearest to
the error line.

A generic entry (an undefined symbol, a GLIBC or DLL load failure, "no kernel image", a build that
ran out of memory) says what went wrong but not whose it is; the traceback does: the library file
that raised it, the module that failed to load, the package being built. The rules that name a
backend, the entries they may re-attribute and the wording an attributed entry takes are data, in
attribution.toml beside this module.

How the nearest naming line is found, for an error on line L:
1. line L itself and the lines that continue its message (up to the next blank line, at most 3);
2. then up the log from L: the deepest frames of its traceback first (a traceback lists the frame
   that raised last), stopping at the traceback's start unless a chained exception continues it;
   2b. above that traceback's start, the lines that set up the run ([setup]: its command line and flags, a variable,
   an install, an import, an app's selection line such as "Using sage attention"), nearest first, back to an
   earlier error (session 6, ex37: tests/data/explain_attribution_s6.toml);
3. then down the log (a build log names the package after the compiler error: "Failed building
   wheel for flash-attn").
4. last, the input's first TITLE_LINES lines, when the error is within the window of them: a pasted
   issue's title or the user's sentence above a traceback of their own frames.
Within a window of WINDOW lines either way, so a second error far from the first is not given the
first one's backend. A name several backends define (`shared` in attribution.toml: FA2, FA3 and
FA4 all have flash_attn_varlen_func) names a backend only when steps 1 and 2 find no other: the
line above an FA3 call that says "FlashAttention v3" decides, not the function's name.

The same search decides two things about claiming a match at all: catch-alls (a failed ninja
build, a CUDA kernel fault, an Inductor failure) are claimed only when a backend is named near them
(`needs_backend`), and Triton-kernel errors are not claimed when their traceback shows only another
library's kernel (`foreign_kernel`): those are somebody else's failures, and explain stays silent.
Attention kernels outside the seven (FlashInfer's, a serving engine's own Triton attention: backend
"other") claim only the runtime faults in `other_counts`, with no backend (round 7b).

Lines that list what is installed ([inventory]: collect_env's "[pip3] ...", pip freeze, "xformers version: ...") are
no evidence for another line's error; a line that names backends only in clauses saying they work names them weakly.

Lines in which a program announces what it selected or found (vLLM's "Using Flash Attention backend",
ComfyUI's "Using sage attention", transformers' Flash Attention 2.0 advisories: [announcement]) are not
evidence in steps 1 and 3: a title's error over a log is not given the backend a selector line below it
names. Up the error's own traceback (step 2) they still count.

Where each part lives (this package re-exports every name, so `attribution.X` stays the way to reach it):
  shapes.py     the window sizes, traceback, frame, pytest and exception lines; Attribution
  tables.py     attribution.toml loaded (rules()), the first rule on a line, BACKENDS and NOT_SEVEN
  sentences.py  what names no failing backend (_scrub), a sentence's subject (first_named), its clauses
  naming.py     what one line names to the search (_named, backend_named, _file_named, names_on)
  search.py     the nearest naming line (nearest: the line, up, the set-up lines, down, the title); banner
  refusals.py   claims refused: unclaimed, foreign, not a report, no failure document, shadowed, interrupted, a limit
                given as the reason for a choice (limit_as_reason); context_only: the lines the nearest-line search
                passes for a catch-all (a choice's reason, a line above a backend-free traceback that says no failure);
                turned_on: the ruled-out backend the writer turns on after the limit ("When I enable it anyway:")
  probes.py     another's failure: optional and handled import probes, loader errors, optimizers, foreign kernels
  evidence.py   evidence, specialize and generalize rows (attribution_evidence.toml): the entry that says it
  decide.py     attribute(), backend_of(), wording(): the backend a match is given and its words

Where a question is decided, for instance:
  a backend named by a report's title       search.nearest() step 4 (TITLE_LINES; an entry's title_sentence rule takes
                                            its first sentence), unless the title is a program's line (search._program_line);
                                            [[evidence_backend]] rows with title = true: decide._attribute()
  an entry's own line naming its backend     [[evidence_backend]] rows (when: the line or the next; unless: within WINDOW
                                            lines of it, leaving the row out): decide._attribute()
  a clause saying a backend works, a list   sentences._scrub() and the *_removed helpers beside it
  a catch-all with no backend near it       refusals.unclaimed() ([needs_backend] in attribution.toml)
  an import probe, an optimizer's OOM       probes.in_optional_probe(), in_handled_probe(), raised_by_optimizer(),
                                           grid_limit_elsewhere()
  the entry's words for the backend         decide.wording(); a better entry: evidence.specialized(), generalized()
  a comparison's reference, a cause         sentences._replaced_removed (COMPARED_TO: "against", "matched SDPA"), _effect_removed
                                            ("A causes B to fail": B) (helper ex119)
  a backend's words raised through a vendor  evidence.vendor_library ([[vendor_library]]: AITER's MHA, Moore Threads' mate; none
  library's own API                         of the seven, the library named, its platform's fix; helper ex144)
  a kernel name two libraries share         decide._torch_flash_subject (FlashAttention / torch's flash kernel), _torch_kernel_subject
                                            (xformers' CUTLASS kernel names / torch's memory-efficient SDPA, helper ex119)
  a FlashAttention version said in words    decide._module_called: the one FlashAttention module the code near it calls or imports
  over code calling another's module        (FA3's flash_attn_interface under "flash attention 2") decides (helper ex184)
"""

from __future__ import annotations

from .shapes import (
    _first_lines, _traceback, Attribution, CHAINED, CONTINUATION, EXCEPTION_LINE, FRAME, IMPORT_CODE, PYTEST_E,
    PYTEST_LOCATION, PYTEST_NODE, TITLE_LINES, TRACEBACK_START, WARNING_LINE, WINDOW,
)
from .tables import (
    _document_rules, _dsl_kernel, _evidence_backends, _first_rule, _grouped, _optional_probe, _Rules,
    _selected_after, _specializations, _toml, _with_absent_notice, BACKENDS, HERE, NOT_SEVEN, rules,
)
from .sentences import (
    _advice_removed, _choices_removed, _class_of_other_module_removed, _contrast_removed, _cure_to_avoid_removed, _effect_removed,
    _cure_when_absent_removed, _cured_removed, _examples_removed, _healthy_blanked, _healthy_removed, _list_removed,
    _main_clause, _persisted_removed, _replaced_removed, _scrub, _selection, _subject_of_match, ABSENT_BANNER,
    ABSENT_WORDS, ADVICE, BRACED_CHOICES, CHANGED, CHANGED_TO_AVOID, CLAUSE_BREAK, COMPARED_TO, COMPARED_WORDS, COMPARING, CONFIG_OFF,
    EFFECT, EFFECT_FAILURE,
    CONTRAST_BREAK, CURE_WHEN_ABSENT, CURE_WORDS, CURED, DINOV2_NOTICE, ELLIPTIC_NOT, ETC, EXAMPLES, EXCEPTION_TYPE,
    FA_FAMILY, FAILED, FAILURE_STATED, FALLBACK_TO, first_named, HEALTHY, IMPORT_FROM, LIST_ITEM, LISTED_CHOICES,
    NOT_ADVICE, NOT_WITH, OFFER, OPENING_CLAUSE, OPTIONS, OTHER_PROGRAM, PATCHED, PERSISTED, PROPOSAL,
    PROSE_EXAMPLES, REPLACED, SENTENCE, SPANS, SWITCHED_OFF, SWITCHED_OFF_FLAG, SWITCHED_TO, THREAD_LINK, TRIED,
    UNHEALTHY, VERSION,
)
from .naming import _file_named, _named, backend_named, names_on
from .search import (
    _banner_rules, _beside_bare_error, _block_around, _block_next, _called, _cut_traceback, _nearest_for,
    _other_package_step, _program_line, _setup_above, banner, CAPTION_LINES, FENCE, GAP_LINES, nearest, PIP_STEP,
    PIP_STEP_FAILED, POINTS_ABOVE, SPAN_LINES,
)
from .refusals import (
    _asks_in_question_form, _every_shadows, _exonerated, _fallback_rules, _INTERRUPT, _known_lines,
    _not_a_report_rules, _notice_rules, _question_rules, _shadowed, _shadowed_match, _TB_LINE, claimed_for, context_only,
    described_fallback, document_kind, engine_worded, EXONERATED, foreign, interrupted, limit_as_reason, needs_backend,
    no_failure_document, not_a_report, note_beside_failure, optional_notice, program_printed, turned_on, unclaimed,
)
from .probes import (
    _same_loader_error, _traced_probe, another_dsl_kernel, foreign_kernel, grid_limit_elsewhere, HANDLED, in_handled_probe,
    in_optional_probe, LOADER_VERSION, OOM_LINE, raised_by_optimizer, REQUIRED_BY, required_by_other, STACK_LIB,
)
from .evidence import (
    _beneath_other_backend, _beside_other_kernel, _evidence_rules, _fallback_backend, _near, _own_where_shown,
    _says_in_words, generalized, specialized, vendor_library,
)
from .decide import (
    _attribute, _attributed, _import_chain_only, _module_called, _torch_flash_subject, _torch_kernel_subject, attribute, backend_of, FA_PACKAGE,
    FA_MODULE_CODE, line_variant, TORCH_FLASH, TORCH_SDPA, wording, XFORMERS_KERNEL, XFORMERS_PACKAGE,
)
