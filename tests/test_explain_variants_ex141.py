"""Variants for helper ex141 (session 24): the misses of round 136m (fixtures/errors/round136m, gathered blind by ex136m in
session 23, measured three times by the lead, training material since this helper read it).

Every case was written by hand (2026-11-30): other models, versions, paths, symbols, apps and wordings than the fixtures. The
positives name what explain must report first (entry, backend; None: any backend); the near misses what it must not claim; no
pattern written or widened here matches an unrelated log of any training round (the measure-only sets are never read).

Mechanisms (knowledge file: rule; the round 136m text it came from):
  wheel     versions.toml fa2.wheel-mismatch: the wheel's build said in words: flash-attn built against another torch, a
            compatibility issue / mismatch between flash-attn and torch, a failure due to their versions (character-ai/Ovi#17,
            numz/ComfyUI-SeedVR2_VideoUpscaler#3)
  wrongout  attention.toml attn.wrong-output: distortion, flicker, visual artifacts in generated media said before the backend
            that makes them (thu-ml/SageAttention#186, #367)
  getimp    flash_attn.toml fa2.missing: the get_imports patch that drops flash_attn from remote code's imports
            (kijai/ComfyUI-Florence2#134)
  tgi       backends.toml backend.unsupported-gpu, attribution.toml FA2 names: text-generation-inference's flash-attention import
            guard, "GPU with CUDA capability 7 0 is not supported" (huggingface/text-generation-inference#983)
  sm80zh    backends.toml backend.unsupported-gpu: the sm80 floor said in Chinese (算力 below 8.0) (QwenLM/Qwen#1349)
  vllmfa    triage.toml triage.raised-in-fa2 / -fa3: vLLM's fork of flash-attention (vllm/vllm_flash_attn/) is FA2's unless the code
            line calls its FA3 build (QwenLM/Qwen#1349)
  moved     frameworks.toml transformers.helper-moved, imports.toml import.cut-at-backend-import: a paste cut at remote code's
            import, by name, of a helper transformers moved or removed (baichuan-inc/Baichuan-M1-14B#3)
  autograd  compile.toml compile.backend-untraceable: Dynamo's speculate_subgraph unable to trace an attention library's
            autograd.Function (Dao-AILab/flash-attention#596)
  rcflag    frameworks.toml transformers.remote-code-attn-flag: a remote-code class's attention flags or metadata said in words, the
            model falling back to eager / SDPA (NVIDIA-NeMo/Megatron-Bridge#4257)
"""

from __future__ import annotations

import pytest

from explain_top import assert_patterns_match_no_unrelated_log, first, ids, tb


REMOTE = "/root/.cache/huggingface/modules/transformers_modules/acme/Foo-13B/0123abcd/modeling_foo.py"
VLLM_FA = "/opt/venv/lib/python3.11/site-packages/vllm/vllm_flash_attn/flash_attn_interface.py"
SPECULATE = ("[2024-05-02 09:14:11,201] [2/0] torch._dynamo.variables.higher_order_ops: [WARNING] speculate_subgraph: while "
             "introspecting the user-defined autograd.Function, we were unable to trace function `trampoline_autograd_bwd` into a "
             "single graph. This means that Dynamo was unable to prove safety for this API and will fall back to eager-mode "
             "PyTorch, which could lead to a slowdown.")


@pytest.mark.parametrize("text, want", [
    # wheel
    ("ImportError on startup\n\nYour flash_attn 2.6.3 was built against another torch than the 2.5.1 in this venv; rebuild it.",
     ("fa2.wheel-mismatch", "fa2")),
    ("Seems like a version mismatch between flash-attn and PyTorch here, nothing in our code.", ("fa2.wheel-mismatch", "fa2")),
    ("The crash on load is caused by your flash-attn and torch versions (pick the wheel for torch 2.7).",
     ("fa2.wheel-mismatch", "fa2")),
    # wrongout
    ("Strong distortion in generated images with xformers enabled on a 2080 Ti", ("attn.wrong-output", "xformers")),
    ("[Bug] Flickering in the generated video when using sageattn_qk_int8_pv_fp16_triton", ("attn.wrong-output", "sage")),
    # getimp
    ("Loader node fails\n\n    def patched_get_imports(filename):\n        result = get_imports(filename)\n"
     "        if 'flash_attn' in result:\n            result.remove('flash_attn')\n        return result",
     ("fa2.missing", "fa2")),
    # tgi
    ("2024-01-09T08:00:01.000000Z ERROR text_generation_launcher: Error when initializing model\n"
     "ImportError: GPU with CUDA capability 7 5 is not supported for Flash Attention V2", ("backend.unsupported-gpu", "fa2")),
    ("GPU with CUDA capability 6 0 is not supported", ("backend.unsupported-gpu", "fa2")),
    # sm80zh
    ("flash_attn 是否不支持低于 8.0 算力的显卡？我的 2080Ti 一直报错", ("backend.unsupported-gpu", "fa2")),
    ("V100 的算力低於 8.0，flash-attn 不支援", ("backend.unsupported-gpu", "fa2")),
    # vllmfa
    (tb(("/opt/venv/lib/python3.11/site-packages/vllm/attention/backends/flash_attn.py", 712, "forward",
         "flash_attn_varlen_func("),
        (VLLM_FA, 233, "flash_attn_varlen_func", "out, softmax_lse = torch.ops._vllm_fa2_C.varlen_fwd("),
        error="RuntimeError: a message no rule knows"), ("triage.raised-in-fa2", "fa2")),
    (tb((VLLM_FA, 241, "flash_attn_varlen_func", "out, softmax_lse, _, _ = torch.ops._vllm_fa3_C.fwd("),
        error="RuntimeError: a message no rule knows"), ("triage.raised-in-fa3", "fa3")),
    # moved
    (tb(("/srv/app/serve.py", 14, "<module>", "model = AutoModel.from_pretrained(path, trust_remote_code=True)"),
        (REMOTE, 31, "<module>", "from transformers.modeling_flash_attention_utils import flash_attn_supports_top_left_mask")),
     ("transformers.helper-moved", None)),
    (tb(("/srv/app/serve.py", 14, "<module>", "model = AutoModel.from_pretrained(path, trust_remote_code=True)"),
        (REMOTE, 12, "<module>", "from transformers.utils import is_flash_attn_available, logging")),
     ("transformers.helper-moved", None)),
    # autograd
    ("torch.compile with flash_attn_varlen_func prints this every step:\n" + SPECULATE, ("compile.backend-untraceable", "fa2")),
    # rcflag
    ("fix: set the attention flags on the remote SigLIP class so Qwen-Omni's audio tower loads flash_attention_2 rather than "
     "defaulting to eager", ("transformers.remote-code-attn-flag", None)),
    ("The remote-code model class metadata is missing, so transformers 5.2 falls back to sdpa for the vision encoder",
     ("transformers.remote-code-attn-flag", None)),
])
def test_round136m_variants(text, want):
    got = first(text)
    assert got[0] == want[0] and (want[1] is None or got[1] == want[1]), (text, ids(text), got)


@pytest.mark.parametrize("text, must_not", [
    # wheel: a question; the wheel said to be built for the torch installed
    ("Is flash-attn compatible with torch 2.6?", "fa2.wheel-mismatch"),
    ("flash-attn 2.7.4 was built for torch 2.6 and that is exactly the torch I have", "fa2.wheel-mismatch"),
    # wrongout: no distortion; the backend turned off; artifacts of a build, not of an image
    ("No distortion in the generated video with sageattention, looks great", "attn.wrong-output"),
    ("Generated video flickers even with sageattention disabled", "attn.wrong-output"),
    ("Build artifacts are uploaded when using flash-attn in CI", "attn.wrong-output"),
    # getimp: another import dropped
    ("def fixed_get_imports(filename):\n    imports = get_imports(filename)\n    imports.remove('einops')\n    return imports",
     "fa2.missing"),
    # tgi: the capability said supported
    ("GPU with CUDA capability 8 0 is supported for Flash Attention V2", "backend.unsupported-gpu"),
    # sm80zh: above the floor
    ("算力高于 8.0 的显卡都支持 flash-attn", "backend.unsupported-gpu"),
    # moved: the current helper (its import fails only where flash_attn's does)
    (tb(("/srv/app/serve.py", 14, "<module>", "model = AutoModel.from_pretrained(path, trust_remote_code=True)"),
        (REMOTE, 31, "<module>", "from transformers.modeling_flash_attention_utils import _flash_attention_forward")),
     "transformers.helper-moved"),
    # autograd: no attention library named
    ("my custom autograd.Function under torch.compile:\n" + SPECULATE, "compile.backend-untraceable"),
    # rcflag: a fallback with no remote class's flags named; the user's own switch to eager
    ("The model falls back to eager attention because flash-attn is not installed", "transformers.remote-code-attn-flag"),
    ("I changed the remote config to use eager instead of sdpa and it works", "transformers.remote-code-attn-flag"),
])
def test_round136m_near_misses(text, must_not):
    assert must_not not in ids(text), ids(text)


def test_round136m_vllm_fork_is_not_fa3():
    text = tb((VLLM_FA, 233, "flash_attn_varlen_func", "out, softmax_lse = torch.ops._vllm_fa2_C.varlen_fwd("),
              error="RuntimeError: a message no rule knows")
    assert "triage.raised-in-fa3" not in ids(text), ids(text)


def test_round136m_cut_at_helper_import_is_not_the_backend_import():
    text = tb(("/srv/app/serve.py", 14, "<module>", "model = AutoModel.from_pretrained(path, trust_remote_code=True)"),
              (REMOTE, 31, "<module>", "from transformers.modeling_flash_attention_utils import _flash_supports_window_size, \\"))
    assert ids(text)[:1] == ["transformers.helper-moved"], ids(text)


# Each pattern written or widened here, found by a piece of its text, matches no unrelated log of any training round on its own
# (before ranking and attribution decide anything).
PIECES = {
    "fa2.wheel-mismatch": ("(?:built|compiled|linked)[ \\t]+(?:against", "(?:compatibility|version|ABI)[ \\t]+(?:issue",
                           "(?:due[ \\t]+to|caused[ \\t]+by"),
    "attn.wrong-output": "distort(?:ion|ions|ed)|flicker",
    "fa2.missing": "get_imports",
    "backend.unsupported-gpu": ("GPU with (?:CUDA|compute) capability", "算力"),
    "transformers.helper-moved": "(?:modeling_flash_attention_utils|utils(?:\\.import_utils)?)",
    "compile.backend-untraceable": "introspecting the user-defined autograd",
    "triage.raised-in-fa2": "vllm_flash_attn",
    "triage.raised-in-fa3": "vllm_flash_attn",
    "transformers.remote-code-attn-flag": ("(?:metadata|flags?|attributes?)", "(?:missing|not[ \\t]+(?:set"),
}


def test_round136m_patterns_match_no_unrelated_log():
    assert_patterns_match_no_unrelated_log(PIECES)
