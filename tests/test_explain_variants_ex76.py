"""Variants for helper ex76 (session 11): mechanisms from the misses of round 76 (fixtures/errors/round76/: issue 23's
named classes from LLM frameworks' and trainers' trackers; its README says which text each comes from).

Every case was written by hand (2026-11-29): other paths, versions, model names, wrappers and wordings than the fixtures;
each positive case asserts the entry (and backend) of the first problem; the near misses assert what must NOT be claimed.

Mechanisms (file: entry or rule):
  attention-classes    frameworks.toml transformers.attention-class-removed (widened): the per-model table of attention
                       classes (LLAMA_ATTENTION_CLASSES, ...) that went with them in transformers 4.48 (AnswerDotAI/fsdp_qlora#77)
  op-schema            attention.toml attn.api-mismatch (widened): a backend extension's registered op whose name says nothing of
                       attention (_vllm_fa2_C::varlen_fwd) called with more arguments than the loaded build declares
                       (Dao-AILab/flash-attention#1798, fixed there)
  te-thd-nan           frameworks.toml te.fused-attn-cudnn (widened): TransformerEngine's fused attention giving NaN with its THD /
                       BSHD layouts (cuDNN SDPA backward workspace bug on Hopper, fixed in cuDNN 9.18: NVIDIA/TransformerEngine#2186)
  glibc-words          backends.toml import.glibc (widened): a library said to require GLIBC_x / GLIBCXX_x / CXXABI_x in words
  wheel-words          builds.toml build.prebuilt-wheel-missing (widened, a note): wheels only up to an older torch, or the install
                       falling back to a source build (h2oai/h2o-llmstudio#1096)
  fa-v1-feature        flash_attn.toml fa2.too-old-for-feature (widened): flash-attention v1 used with window_size / softcap
                       (huggingface/text-generation-inference#2408)
  torch-no-flash       sdpa.toml sdpa.built-without-flash (widened): "PyTorch is not compiled/built with Flash (or mem efficient)
                       attention" (pytorch/pytorch#130717)
  abi-words            backends.toml import.undefined-symbol (widened): an ABI incompatibility "leading to undefined symbols"
  helper-wrapped       frameworks.toml transformers.helper-moved (widened): the removal said in a paragraph wrapped over lines
                       (zhuzilin/ring-flash-attention#88)
  attribution          attribution/ THREAD_LINK: a permalink to a line of another project's source (blob/<sha>/...) names no
                       failing backend; FALLBACK_TO: "fallback to X", "fallback 到 X", "回退到 X": X ran instead;
                       attribution.toml (library "none" files): vLLM's own vllm/_C extension and SGLang's sgl_kernel common_ops are
                       the engine's, whatever backend a package list names near them (vllm-project/vllm#15592, #13608, #3528)
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids


# attention-classes
@pytest.mark.parametrize("text", [
    "ImportError: cannot import name 'MISTRAL_ATTENTION_CLASSES' from 'transformers.models.mistral.modeling_mistral' "
    "(/home/u/.venv/lib/python3.12/site-packages/transformers/models/mistral/modeling_mistral.py)",
    "  from transformers.models.qwen2.modeling_qwen2 import QWEN2_ATTENTION_CLASSES\n"
    "ImportError: cannot import name 'QWEN2_ATTENTION_CLASSES' from 'transformers.models.qwen2.modeling_qwen2'",
    "AttributeError: module 'transformers.models.llama.modeling_llama' has no attribute 'LLAMA_ATTENTION_CLASSES'",
    "ImportError: cannot import name `GEMMA_ATTENTION_CLASSES`",
])
def test_attention_classes_table_removed(text):
    assert _top(text) == ("transformers.attention-class-removed", None)


def test_attention_classes_of_own_module_not_transformers():
    # a model's own remote code defines its table: nothing transformers removed
    assert "transformers.attention-class-removed" not in _ids(
        "ImportError: cannot import name 'PHI_ATTENTION_CLASSES' from 'modeling_phi_custom' (/srv/models/phi/modeling_phi_custom.py)")


# op-schema
@pytest.mark.parametrize("text,backend", [
    ("RuntimeError: _vllm_fa2_C::varlen_fwd() expected at most 19 argument(s) but received 23 argument(s). "
     "Declaration: _vllm_fa2_C::varlen_fwd(Tensor q, Tensor k, Tensor v) -> Tensor[]", "fa2"),
    ("torch.AcceleratorError: _vllm_fa2_C::fwd_kvcache() expected at most 24 argument(s) but received 25 argument(s)", "fa2"),
    ("RuntimeError: flash_attn_3::fwd() expected at most 31 argument(s) but received 33 argument(s). Declaration: flash_attn_3::fwd(...)", "fa3"),
])
def test_backend_op_schema_mismatch(text, backend):
    assert _top(text) == ("attn.api-mismatch", backend)


def test_non_attention_op_schema_not_claimed():
    assert "attn.api-mismatch" not in _ids(
        "RuntimeError: _C::rms_norm() expected at most 4 argument(s) but received 5 argument(s). Declaration: _C::rms_norm(Tensor out)")


# te-thd-nan
@pytest.mark.parametrize("text", [
    "Megatron training with TE FusedAttention, qkv_format THD and cp_size=4 gives nan loss after the first step on H200",
    "Fused attention with BSHD inputs + context parallelism produces NaNs in dK/dV (TransformerEngine 2.5, cuDNN 9.10)",
    "With qkv_format=thd our packed-sequence run hits inf values in the backward of FusedAttention",
])
def test_te_fused_attention_layout_nan(text):
    assert _top(text) == ("te.fused-attn-cudnn", None)


def test_fused_attention_nan_without_te_layout_not_te():
    assert "te.fused-attn-cudnn" not in _ids("fused attention in my own CUDA kernel gives NaN when the sequence is empty")


# glibc-words
@pytest.mark.parametrize("text,backend", [
    ("flash-attn 2.8.3's prebuilt wheel requires GLIBC_2.32, but our cluster runs CentOS 8 (glibc 2.28)", "fa2"),
    ("xformers 0.0.33 needs GLIBCXX_3.4.32, newer than the libstdc++ in the conda env", "xformers"),
    ("the sageattention wheel was built against CXXABI_1.3.15 so it will not load on Ubuntu 20.04", "sage"),
])
def test_glibc_requirement_in_words(text, backend):
    assert _top(text) == ("import.glibc", backend)


def test_glibc_version_reported_is_not_a_requirement():
    assert "import.glibc" not in _ids("ldd --version prints ldd (Ubuntu GLIBC 2.35-0ubuntu3.8) 2.35 on the training node")


# wheel-words (a note: why a source build ran)
@pytest.mark.parametrize("text,backend", [
    ("flash-attn ships cu130 wheels only up to torch 2.10, and we are on torch 2.11", "fa2"),
    ("since the xformers install falls back to a source build on aarch64, the Docker build takes 40 minutes", "xformers"),
])
def test_wheel_stops_short_in_words(text, backend):
    assert _ids(text)[:1] == ["build.prebuilt-wheel-missing"]


def test_fallback_to_source_without_backend_not_claimed():
    assert "build.prebuilt-wheel-missing" not in _ids("numpy falls back to a source build on Python 3.14 because no wheel exists yet")


# fa-v1-feature
@pytest.mark.parametrize("text", [
    "flash attention v1 is used with window_size_left=4096 on the T4 path, which the v1 kernels cannot do",
    "Mistral on TGI: flash-attn 1.0.9 called with softcap raises instead of a clear error",
])
def test_flash_attention_v1_with_v2_feature(text):
    assert _top(text) == ("fa2.too-old-for-feature", "fa2")


def test_flash_attention_v2_with_window_is_not_v1():
    assert "fa2.too-old-for-feature" not in _ids("flash attention 2.7 is used with window_size=(256, 0) and runs fine")


# torch-no-flash (a note)
@pytest.mark.parametrize("text", [
    "When PyTorch was not built with flash attention (our ROCm wheel), torch.backends.cuda.flash_sdp_enabled() still says True",
    "pytorch is not compiled with Flash or mem efficient attention on this Windows box",
])
def test_torch_built_without_flash_in_words(text):
    assert _ids(text)[:1] == ["sdpa.built-without-flash"]


# abi-words
def test_abi_words_undefined_symbols():
    assert _top("flash-attn 2.8.3 has an ABI incompatibility with torch 2.9, giving undefined symbols at import") == (
        "import.undefined-symbol", "fa2")


def test_abi_words_without_symbols_not_undefined_symbol():
    assert "import.undefined-symbol" not in _ids("the new C++ ABI flag changes the struct layout but builds fine")


# helper-wrapped
def test_helper_removed_paragraph_wrapped():
    text = ("This PR stops importing `_flash_supports_window_size` from\n"
            "`transformers.modeling_flash_attention_utils`, since it was renamed\n"
            "in transformers 4.54 (flash attention refactor).")
    assert _top(text)[0] == "transformers.helper-moved"


# attribution: a permalink to another project's source names no failing backend
def test_permalink_to_other_source_names_no_backend():
    text = ("When PyTorch is not compiled with Flash attention, flash_sdp_enabled() should say False; see the caller at "
            "https://github.com/facebookresearch/xformers/blob/0a1b2c3d4e5f60718293a4b5c6d7e8f901234567/xformers/ops/fmha/torch_attention_compat.py#L60")
    assert _top(text) == ("sdpa.built-without-flash", "sdpa")


# attribution: "fallback to X" / "fallback 到 X" names what ran instead
@pytest.mark.parametrize("text", [
    "在训练器里选择 flash 时，程序直接 fallback 到 xformers：\n"
    "attn_mode='flash' requested but flash-attn is not available, falling back to 'xformers'",
    "选择 flash 后日志显示回退到 sdpa\n[WARN] flash_attn is not available, falling back to sdpa",
    "The trainer does a silent fallback to xformers here:\n"
    "attn_mode='flash' requested but flash-attn is not available, falling back to 'xformers'",
])
def test_fallback_target_is_not_the_failing_backend(text):
    assert _top(text)[1] == "fa2"


# attribution: a serving engine's own compiled extension is the engine's
@pytest.mark.parametrize("text,entry", [
    ("Required-by: compressed-tensors, flash-attn, vllm, xformers\n"
     "ImportError: /opt/venv/lib/python3.11/site-packages/vllm/_C.abi3.so: undefined symbol: _ZN3c1017SymbolicShapeMeta18init_is_contiguousEv",
     "import.undefined-symbol"),
    ("pip install xformers==0.0.28 fixed the other box\n"
     "ImportError: /usr/lib64/libc.so.6: version `GLIBC_2.34' not found (required by /data/envs/serve/lib/python3.12/site-packages/vllm/_moe_C.abi3.so)",
     "import.glibc"),
    ("ImportError: /root/.venv/lib/python3.10/site-packages/sgl_kernel/sm100/common_ops.abi3.so: undefined symbol: _ZN3c104cuda9SetDeviceEab",
     "import.undefined-symbol"),
])
def test_engine_own_extension_is_no_backend(text, entry):
    assert _top(text) == (entry, None)


def test_vllm_flash_attn_fork_stays_fa2():
    assert _top("ImportError: /usr/local/lib/python3.12/dist-packages/vllm/vllm_flash_attn/_vllm_fa2_C.abi3.so: "
                "undefined symbol: _ZN3c104cuda9SetDeviceEi") == ("import.undefined-symbol", "fa2")
