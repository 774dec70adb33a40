"""Variants for the generic layer's mechanisms of session 8's helper ex50 (issue 23: what answers a text no rule was
written from; benchmarks/explain_generic.py, benchmarks/results/explain-generic-*-misses.md). Every text was written by
hand from the mechanism, NOT copied from a thread: other backends, GPUs, apps, versions and wordings. Near misses beside
each say what must NOT happen.

  words      prose.toml FAIL / IMPORT / NUMBERS: a loader's or Python's error idiom said as a title ("has no attribute",
             "is not defined", "undefined symbol", "no such operator", "can not"), an install that replaces torch, a
             backend "unavailable", noisy output, a loss that differs, quality that degrades
  said       prose.said: a report's own first-person sentence past its head that says a backend fails for the writer
             (Entry.body: read past the head only, ranked with the head's prose)
  cut        attribution.nearest: a traceback pasted without its "Traceback" line still has an innermost frame (the frame
             right over the error), whose code names the backend of triage.error-names-backend
  healthy    attribution.HEALTHY: "working properly/fine with X" is a clause that says X works
"""

from __future__ import annotations

import pytest

from attn_doctor.explain import match
from attn_doctor.knowledge import entries

from explain_top import first

GENERIC = {e.id for e in entries().values() if e.generic or e.fallback or (e.frames and not e.patterns)}


def generic_first(text: str) -> tuple[str | None, str | None]:
    """(entry id, backend) of the first problem the generic layer alone reports (benchmarks/explain_generic.py)."""
    found = match(text, ids=GENERIC)
    return (found[0].entry.id, found[0].backend) if found else (None, None)


# a report's head: a title and four lines of setup, so that what follows is its body (knowledge/match.py HEAD_LINES)
HEAD = "Video node question\n\nWindows 11, portable build.\nRTX 4070, driver 566.\nPython 3.12.\nDefault workflow.\n\n"


# ---- words ----------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,want", [
    ("module 'sageattention.core' has no attribute 'sageattn_qk_int8_pv_fp8_cuda_sm90'", ("prose.fails", "sage")),
    ("name 'flash_attn_varlen_qkvpacked_func' is not defined in the video loader", ("prose.fails", "fa2")),
    ("flash_attn_3 undefined symbol after the torch 2.9 upgrade", ("prose.fails", "fa3")),
    ("No such operator xformers::fmha_cutlassF in the Colab notebook", ("prose.fails", "xformers")),
    ("Sage attention can not run the int8 kernel on my card", ("prose.fails", "sage")),
    ("Trouble getting sageattention to run with Wan 2.2", ("prose.fails", "sage")),
    ("Strange results with FlexAttention and a sliding window mask", ("prose.fails", "flex")),
    ("pip install xformers keeps replacing torch 2.5.1 with 2.4.0", ("prose.build", "xformers")),
    ("installing sageattention from the wheel uninstalls my torch 2.7", ("prose.build", "sage")),
    ("xformers memory efficient attention unavailable after the driver update", ("prose.import", "xformers")),
    ("SageAttention produces noise on long prompts", ("prose.numbers", "sage")),
    ("xformers gives noisy images at 1024px on SDXL", ("prose.numbers", "xformers")),
    ("With flash-attn 2 the result is just noise", ("prose.numbers", "fa2")),
    ("Much higher loss with flash attention 2 on Llama 3 finetune", ("prose.numbers", "fa2")),
    ("Training loss differs between sdpa and flash_attention_2", ("prose.numbers", "sdpa")),
    ("Quality degradation with sage attention on Wan 2.2", ("prose.numbers", "sage")),
    ("Flex attention lowers the eval accuracy compared to eager", ("prose.numbers", "flex")),
    ("sageattention wasn't built with CUDA 12.8 support", ("prose.fails", "sage")),
    ("The new default to xformers makes it impossible to generate anything", ("prose.fails", "xformers")),
    ("My xformers was not compiled with the T4's arch", ("prose.gpu", "xformers")),  # a GPU named: the GPU's entry
])
def test_words_generic(text, want):
    assert generic_first(text) == want


@pytest.mark.parametrize("text", [
    "Does pip install xformers overwrite my torch?",  # a question, not a report that it did
    "Noise schedule comparison with sageattention and sdpa",  # noise is the sampler's word here, not an output
    "Pinned my environment so installing xformers no longer replaces it",  # nothing replaced torch
    "Loss curves with flash attention 2 and SDPA are identical",
    "It is impossible to say whether flash attention or sdpa is faster here",  # nothing fails
    # transformers' load-time advisory about a dtype, as a title: a notice every load prints, no report of a failure
    "Flash Attention 2.0 only supports torch.float16 and torch.bfloat16 dtypes, but the current dype in LlamaForCausalLM "
    "is torch.float32.",
    # xformers.info's listing: an operator "unavailable" on this build is a fact the listing states, no report's words
    "memory_efficient_attention.fa3F:                   unavailable\nmemory_efficient_attention.cutlassF:               available",
])
def test_words_near_misses(text):
    assert generic_first(text) == (None, None)


# ---- said -----------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    (HEAD + "When I switch the loader to sageattention the sampler stops with an error at the first step.", "sage"),
    (HEAD + "Since yesterday my xformers fails to load and the UI falls back to pytorch attention.", "xformers"),
    (HEAD + "I tried flash attention 2.7.4 in the same venv and it crashes the whole process.", "fa2"),
    (HEAD + "Ahora cuando uso sageattention me sale un error en el KSampler.", "sage"),
    (HEAD + "我用了 flash attention 之后一直报错。", "fa2"),
    (HEAD + "Everything else is fine.\nBut we get a crash with flex attention after 200 steps.", "flex"),
    # a story: no issue before, the failure now (the denial is of the past)
    (HEAD + "Never had an issue until the update. Now I always get an error with sageattention.", "sage"),
])
def test_said(text, backend):
    assert first(text) == ("prose.said", backend)
    assert generic_first(text) == ("prose.said", backend)


@pytest.mark.parametrize("text", [
    HEAD + "I installed flash-attn 2.7.4 and it did not produce any error.",  # its own denial
    HEAD + "We shall use xformers instead, which does not have any performance hits!",  # a program's notice, denied
    HEAD + "- my env: torch 2.5.1, xformers 0.0.28, sageattention 2.1.1",  # an environment listing: no failure
    HEAD + "xformers==0.0.28.post3\nflash-attn==2.7.4.post1\nsageattention==2.2.0",  # a pip freeze
    HEAD + "INFO: I am using xformers attention for the VAE.",  # a working log line
    HEAD + "I have seen no issues with sage attention so far.",  # no failure
    HEAD + "It fails with an error.\nThe machine has flash attention installed.",  # the failure and the backend apart
    HEAD + "The log says flash attention failed to load.",  # nobody speaks: not the writer's sentence

])
def test_said_near_misses(text):
    assert first(text) == (None, None)


def test_said_not_an_apps_notice():
    # the app's notice that it goes on without the library, retold by the writer: the app runs (round 12's unrelated A1111
    # report); the notice's own entry may read it, prose.said does not
    text = HEAD + 'When I run it, it gives me the message " No module "xformers". Processing without it "'
    assert "prose.said" not in [m.entry.id for m in match(text)]


def test_said_not_on_the_head():
    # a report's head is the head entries' (prose.fails), not prose.said's
    text = "Problem report\n\nI get an error with sageattention at every step."
    assert first(text) == ("prose.fails", "sage")
    assert "prose.said" not in [m.entry.id for m in match(text)]


def test_said_ranks_after_the_head():
    # the head's sentence is what the report is about; the body's sentence comes after it
    text = "sageattention crashes at every step\n\nWindows 11.\nPortable build.\nDriver 576.\nPython 3.12.\n\n" \
           "Later I also saw flash attention fail with an error in the same workflow."
    assert [m.entry.id for m in match(text)][:2] == ["prose.crash", "prose.said"]


# ---- cut ------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ('Video model fails at step 1\n\n  File "/srv/vid/blocks.py", line 88, in forward\n'
     "    out = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)\n"
     "RuntimeError: attn_bias stride is not something the kernel takes", "sdpa"),
    ('Here is the log:\n  File "C:\\ComfyUI\\custom_nodes\\wan\\attention.py", line 41, in attn\n'
     "    x = sageattn(q, k, v, tensor_layout='NHD')\n"
     "    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
     "TypeError: a new argument nobody wrote a rule for", "sage"),
    ('Fine-tuning Qwen stops\n\n  File "/opt/app/.venv/lib/python3.11/site-packages/transformers/integrations/sdpa_attention.py", line 96, in sdpa_attention_forward\n'
     "    attn_output = torch.nn.functional.scaled_dot_product_attention(\n"
     "RuntimeError: a check of the inputs that no rule knows", "sdpa"),
])
def test_cut_traceback(text, backend):
    assert generic_first(text) == ("triage.error-names-backend", backend)


@pytest.mark.parametrize("text", [
    # the frame that calls the backend is an outer one: the innermost frame (the user's loss) raised after it returned
    ("Training stops at step 3\n\n"
     '  File "/srv/train.py", line 12, in step\n    out = F.scaled_dot_product_attention(q, k, v)\n'
     '  File "/srv/train.py", line 30, in loss_fn\n    return ce(out.view(-1, v), y)\n'
     "RuntimeError: shape '[-1, 50257]' is invalid for input of size 1000"),
    # a frame that calls the backend, then the writer's lines, then a bare error: no frame right over the error
    ("Checkpoint loading stops\n\n"
     '  File "/srv/vid/blocks.py", line 88, in forward\n    out = F.scaled_dot_product_attention(q, k, v)\n'
     "That was yesterday's run.\nToday it trained for an hour.\nThen the loader ran.\n"
     "ValueError: checkpoint key missing"),
])
def test_cut_traceback_near_misses(text):
    assert generic_first(text) == (None, None)


# ---- healthy --------------------------------------------------------------------------------------------------------

def test_working_properly_is_healthy():
    text = HEAD + "It's working properly when sdpa is selected, but when I select xformers I get this error."
    assert first(text) == ("prose.said", "xformers")
    # the healthy one named first (rv10: the case above passes without HEALTHY's "working properly"; this one does not)
    text = HEAD + "xformers is working properly for me, but I get this error when I select sageattention."
    assert first(text) == ("prose.said", "sage")
    # still unhealthy when the clause says it is not
    text = HEAD + "My sageattention is not working properly since the update and I get an error."
    assert first(text) == ("prose.said", "sage")


# ---- is_flash_attn_available ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "NameError: name 'is_flash_attn_available' is not defined. Did you mean: 'is_flash_attn_2_available'?",
    "Loading the remote code fails\n\nAttributeError: module 'transformers.utils' has no attribute "
    "'is_flash_attn_2_available' in this build",
])
def test_availability_check_names_fa2(text):
    assert generic_first(text)[1] == "fa2"


def test_availability_check_called_is_no_failure():
    assert generic_first("print(is_flash_attn_2_available())\nFalse") == (None, None)
