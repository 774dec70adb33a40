"""Variants for helper ex75 (session 11): unrelated logs that name an attention backend in passing (fixtures/errors/round75).

Every case was written by hand (2026-11-29): other programs, messages, wordings and languages than the fixtures. The near
misses assert what must NOT be claimed; the positives say a real failure of a backend in the same neighbourhood and must stay
claimed, with the backend.

Mechanisms (knowledge file: rule):
  notice   attribution.toml [optional_notice] + attribution.optional_notice (explain._attribute): a notice that an optional
           speed-up is off while the run goes on ("some optimizations will not be enabled", "please install it for better
           performance", "to get higher efficiency", "Proceeding without it") is no failure: the last resorts (triage.*,
           prose.*) claim neither its line nor an error elsewhere that only the notice names a backend for
  sage     attribution.toml [[not_a_report.shadow]] (bare "Sage"): the capitalised word alone, in an input with nothing of an
           attention user's world, is another product's name (SageTV's client and server, Sage accounting); the sentence
           readers claim nothing
  advisory flash_attn.toml fa2.model-not-on-gpu: transformers' advisory retold in a writer's words is still that note
  quoted   frameworks.toml app.attention-libraries-absent: an app's start-up notice ("Flash Attn is not installed!") quoted
           in a sentence is that note, not a failure to import
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids, tb

LAST_RESORTS = ("triage.", "prose.")
PROSE = {"prose.gpu", "prose.compile", "prose.build", "prose.import", "prose.ignored", "prose.numbers", "prose.crash",
         "prose.slow", "prose.fails", "prose.said", "attn.nan-output", "attn.kernel-hang", "attn.wrong-output"}


def _claims(text: str) -> list[str]:
    """The problems explain reports that are not notes (an info entry that is never a failure's cause)."""
    from attn_doctor.explain import match

    return [m.entry.id for m in match(text) if not (m.entry.severity == "info" and not m.entry.can_cause)]


# notice: near misses (an optional speed-up said to be off; the failure, if any, is another library's)
@pytest.mark.parametrize("text", [
    "[xformers] WARNING: some optimizations will not be enabled (triton 3.2 not found)\nLoading pipeline components...",
    "Warning: import flash_attn rotary fail, please install FlashAttention rotary to get higher efficiency\n"
    "Loading checkpoint shards: 100%|██████████| 4/4\n"
    + tb(("/srv/app/run.py", 41, "<module>", "model.load_state_dict(sd)"),
         error="KeyError: 'model.layers.31.mlp.gate_proj.weight'"),
    "flash-attn is not available, please install it for better performance.\n"
    + tb(("/home/u/chat/cli.py", 12, "main", "tok = AutoTokenizer.from_pretrained(path)"),
         error="ValueError: Tokenizer class Baichuan2Tokenizer does not exist or is not currently imported."),
    "警告：未检测到 flash_attn，安装后可以获得更高的效率\n"
    + tb(("D:\\llm\\web_demo.py", 88, "predict", "out = model.generate(**inputs)"),
         error="RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"),
    "No module 'xformers'. Proceeding without it.\n"
    + tb(("/content/webui/modules/ui.py", 310, "create_ui", "gr.Blocks(analytics_enabled=False)"),
         error="TypeError: Blocks.__init__() got an unexpected keyword argument 'analytics_enabled'"),
])
def test_optional_speedup_notice_claims_nothing(text):
    found = [i for i in _ids(text) if i.startswith(LAST_RESORTS)]
    assert found == [], _ids(text)


# notice: positives (a backend's own failure beside such a notice, or the notice a specific entry explains)
def test_backend_error_beside_a_notice_stays():
    text = "\n".join([
        "A matching Triton is not available, some optimizations will not be enabled",
        tb(("/opt/venv/lib/python3.11/site-packages/xformers/ops/fmha/__init__.py", 306, "_memory_efficient_attention_forward",
            "op = _dispatch_fw(inp, False)"),
           ("/opt/venv/lib/python3.11/site-packages/xformers/ops/fmha/dispatch.py", 63, "_run_priority_list",
            "raise NotImplementedError(msg)"),
           error="NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:"),
    ])
    assert _top(text)[1] == "xformers", _ids(text)


def test_ampere_check_beside_a_notice_stays():
    text = ("flash_attn rotary not found, install it for better performance\n"
            + tb(("/usr/local/lib/python3.10/dist-packages/flash_attn/flash_attn_interface.py", 91, "_flash_attn_forward",
                  "out, softmax_lse, S_dmask, rng_state = flash_attn_cuda.fwd("),
                 error="RuntimeError: FlashAttention only supports Ampere GPUs or newer."))
    assert _top(text)[1] == "fa2", _ids(text)


def test_an_engines_fallback_line_is_still_its_entry():
    text = ("INFO 05-19 10:02:11 selector.py:81] Cannot use FlashAttention-2 backend because the flash_attn package is not "
            "found. Please install it for better performance.\nINFO 05-19 10:02:11 selector.py:51] Using XFormers backend.")
    found = _ids(text)
    assert found and not [i for i in found if i.startswith(LAST_RESORTS)], found  # vllm.backend-fallback: the engine's own entry


def test_an_error_that_names_the_backend_itself_stays():
    text = ("Warning: some optimizations will not be enabled\n"
            "[rank0]: ValueError: sageattn_varlen got cu_seqlens of the wrong length on this card")
    assert _top(text)[1] == "sage", _ids(text)


# sage: near misses (another product called Sage, nothing of attention in the input)
@pytest.mark.parametrize("text", [
    "Sage Intacct import fails with a timeout after the update\n\nThe nightly sync job stops at 40% and the log shows a 504.",
    "Bug: Sage Server stops recording after the update\n\nThe tuner is found, but scheduled shows are never written to disk.",
    "Upgrade to Sage X3 fails on Windows Server 2022\n\nThe installer rolls back at the database step.",
    "Playback stutters with Sage\n\nOnly HD channels, on the living-room extender; the desktop player is fine.",
])
def test_bare_sage_of_another_product_is_not_claimed(text):
    assert not PROSE & set(_ids(text)), _ids(text)


# sage: positives (the same word with an attention user's context somewhere in the input)
@pytest.mark.parametrize("text", [
    "Sage fails on my RTX 5090 with black images",
    "Sage crashes after the update\n\nComfyUI 0.3.40, Wan 2.1 i2v workflow, the error comes at the first step.",
    "With Sage it fails on the second run\n\nThe KSampler stops at 0% every time after the first image.",
])
def test_bare_sage_with_attention_context_stays(text):
    assert _top(text)[1] == "sage", _ids(text)


# advisory: near miss (the advisory retold; the run failed of something else)
def test_retold_model_not_on_gpu_advisory_is_a_note():
    text = ("# FlashAttention error\n\nI get a warning that I'm trying to use Flash Attention 2 with a model not initialized on "
            "GPU. Later the job is killed for host memory, which I think is unrelated.")
    assert "fa2.model-not-on-gpu" in _ids(text), _ids(text)
    assert _claims(text) == [], _ids(text)


def test_flash_attention_error_with_its_check_stays():
    text = "# FlashAttention error\n\nRuntimeError: FlashAttention only supports Ampere GPUs or newer."
    assert _top(text)[1] == "fa2", _ids(text)


# quoted: near miss (an app's start-up notice quoted in a question) and positive (a failure to import said in words)
def test_quoted_startup_notice_is_a_note():
    text = 'At start-up I see "Flash Attn is not installed!" and "Sage Attn is not installed!", how do I add them?'
    assert "app.attention-libraries-absent" in _ids(text), _ids(text)
    assert _claims(text) == [], _ids(text)


def test_failure_to_import_in_words_stays():
    text = "I installed flash-attn 2.8.3 but the app still says flash_attn cannot be imported"
    assert _top(text)[1] == "fa2", _ids(text)
