"""Variants for helper ex200b (session 39): two of the leftovers of round 200m (fixtures/errors/round200m, its "Read by ex200"
section), fixed by mechanism.

Every case was written by hand (2026-12-03): other models, backends, wordings and layouts than the fixtures. The positives name
what explain must report first (entry, backend; entry None: any entry, the backend is what is tested); the near misses what it
must not claim (None: nothing at all).

Mechanisms (knowledge file: rule; the round 200m text it came from):
  wrapper   prose.toml's shared backend macro B: optimum's BetterTransformer wrappers named after SDPA
            (<model>_wrapped_scaled_dot_product; attribution.toml already names them SDPA's) name the backend in a title
            (huggingface/optimum#983, "Error in gpt_neo_wrapped_scaled_dot_product after upgrading to optimum==1.8.2")
  slowerr   prose.toml prose.slow: a title that says the slowness without a backend reads the backend from a line below it,
            but not from a line that announces an error of its own ("I will get this error:", "raises an exception"): that
            line is another failure's sentence, prose.fails' (meta-llama/llama-models#370, "Super slow inference using eager
            attention ..." over "If I use `flex_attention` when loading the model I will get this error:"). A line that says
            no error was printed still names the slow title's backend.
"""

from __future__ import annotations

from each_case import each
from explain_top import first, ids

POSITIVES = [
    # wrapper
    ("wrapper-gpt2", "Error in gpt2_wrapped_scaled_dot_product after upgrading to optimum==1.9.0", ("prose.fails", "sdpa")),
    ("wrapper-codegen", "codegen_wrapped_scaled_dot_product fails with padded batches since optimum 1.8", ("prose.fails", "sdpa")),
    ("wrapper-gptj-error-word", "RuntimeError in gptj_wrapped_scaled_dot_product with BetterTransformer", ("prose.fails", "sdpa")),
    ("wrapper-bigcode-crash", "gpt_bigcode_wrapped_scaled_dot_product crashes with a segfault on the A10G", (None, "sdpa")),
    # slowerr: the line that announces an error is prose.fails'
    ("slowerr-form-flex", "Super slow inference using eager attention with Llama-3-70B\n\n### Error\n\n"
     "If I use `flex_attention` when loading the model I will get this error:", ("prose.fails", "flex")),
    ("slowerr-raises-fa2", "Training got very slow on the A100\n\nSwitching to flash_attention_2 raises an exception:",
     ("prose.fails", "fa2")),
    ("slowerr-eager-xformers", "Super slow inference using eager attention with Llama-3-70B\n\n"
     "If I use `xformers` when loading the model I will get this error:", ("prose.fails", "xformers")),
    ("slowerr-math-sage", "Sampling is really slow with the math kernel\n\nwhen I switch to sageattention it throws an error",
     ("prose.fails", "sage")),
    ("slowerr-sage-now", "Inference became slow after the update\n\nwith sage attention i get this error now", ("prose.fails", "sage")),
    # slowerr: a line that names the backend and no error stays the slow title's
    ("slow-kept-fa2", "Inference got very slow after the update\n\nI use flash_attention_2 on an A100", ("prose.slow", "fa2")),
    ("slow-kept-no-error", "Generation is much slower than expected\n\nxformers is enabled and no error is printed",
     ("prose.slow", "xformers")),
]

NEAR_MISSES = [
    # wrapper: the op's bare name, or another function whose name only holds the wrapper's
    ("wrapper-bare-op", "Error in scaled_dot_product after upgrading to optimum==1.8.2", None),
    ("wrapper-longer-name", "Error in gpt_neo_wrapped_scaled_dot_product_helper after the upgrade", None),
    # slowerr: the slow title does not take the backend from a line announcing an error
    ("slowerr-traceback", "Very slow generation after the upgrade\n\nWith flex_attention I see a traceback when loading:", "prose.slow"),
]


def _positive(text, want):
    entry, backend = want
    got = first(text)
    assert (entry is None or got[0] == entry) and got[1] == backend, (got, ids(text))


def _near_miss(text, must_not):
    found = ids(text)
    assert (not found) if must_not is None else must_not not in found, found


def test_round200m_leftover_variants():
    each(((name, (text, want)) for name, text, want in POSITIVES), _positive)


def test_round200m_leftover_near_misses():
    each(((name, (text, must_not)) for name, text, must_not in NEAR_MISSES), _near_miss)
