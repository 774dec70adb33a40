"""Variants for helper ex198 (session 36): the misses of round 198m (fixtures/errors/round198m, gathered blind by ex198m in
session 35, measured three times by the lead, training material since this helper read it).

Every case was written by hand (2026-12-02): other models, versions, paths, apps and wordings than the fixtures, Chinese where
prose carries the rule. The positives name what explain must report first (entry, backend; None: any backend); the near misses
what it must not claim (None: nothing at all); no pattern written or widened here matches an unrelated log of any training round
(the measure-only sets are never read).

Mechanisms (knowledge file: rule; the round 198m text it came from):
  perf        prose.toml PERF (prose.slow): "no speed/performance advantage|benefit", "didn't improve the <two words> performance",
              "速度都一样", "<速度|显存|训练时间> ... 没有明显的变化" (facebookresearch/xformers#955, hiyouga/LlamaFactory#1283,
              shibing624/MedicalGPT#329); FAIL's 问题 not after 加速/速度/性能 ("the speed-up question") nor as a line's leading label
  submodule   builds.toml build.submodule-missing: git's failed submodule checkout, pip's failed `git submodule update`, ninja's
              missing source of the attention library's tree, the same in words (ROCm/xformers#33, facebookresearch/xformers#543,
              #1341)
  cargo       builds.toml build.oom: the bare "Killed" over a Rust build script's nvcc failure (EndlessReform/fish-speech.rs#33)
  pinswap     xformers.toml xformers.replaced-torch: pip said to remove torch for xformers' pin; torch upgraded together with
              xformers; both pinned beforehand and overwritten (facebookresearch/audiocraft#566, unslothai/unsloth#1150)
  resolver    versions.toml versions.conflict: pip's "The conflict is caused by:" listing, an attention package's torch== against
              another's torch range (unslothai/unsloth#1136)
  bt          attribution.toml [never]: optimum's BetterTransformer refusal stays SDPA's beside another library's table
              (huggingface/optimum#1659)
  outattn     frameworks.toml transformers.sdpa-output-attentions: attentions said to differ between a fused implementation
              and eager (huggingface/transformers#33417)
  samecall    attention.toml attn.layout-mismatch: SDPA and a (batch, seqlen, heads, dim) function called on the same q, k, v
              and compared (Dao-AILab/flash-attention#383)
  which3      flash_attn.toml fa3.import-name: is this build FA2 or FA3, how to tell FA3 is used (Dao-AILab/flash-attention#1646)
  rounding    attention.toml attn.backend-rounding: a backend against its reference implementation, an eager attention class
              against its fused sibling (pytorch/pytorch#119188, huggingface/transformers#27050)
  oddresult   attention.toml attn.wrong-output: an unexpected or strange result with a backend's function
              (Dao-AILab/flash-attention#702)
  foreign     attribution.toml "foreign" [[library]]: causal-conv1d's and mamba's modules by their own names, NATTEN's own
              kernels (round 198m unrelated: state-spaces/mamba#28, 2kpr/ComfyUI-PMRF#7)
"""

from __future__ import annotations

from each_case import each
from explain_top import assert_patterns_match_no_unrelated_log, first, ids

POSITIVES = [
    ("perf-advantage", "No speed advantage from flash-attn on my 3090 with Llama-3-8B", ("prose.slow", "fa2")),
    ("perf-advantage-sage", "there is no real performance benefit with sageattention for SDXL", ("prose.slow", "sage")),
    ("perf-improve-words", "Building xformers myself didn't improve the video sampling performance at all", ("prose.slow", "xformers")),
    ("perf-zh-same", "装了 sageattention 之后，生成速度也一样，没有区别", ("prose.slow", "sage")),
    ("perf-zh-nochange", "开了 xformers 训练时间好像没有什么明显的变化", ("prose.slow", "xformers")),
    ("perf-zh-question-title", "加速问题\n\n开启 flash_attn 以后推理速度都一样", ("prose.slow", "fa2")),
    ("submodule-checkout", "pip install -v git+https://github.com/Dao-AILab/flash-attention.git\n  fatal: Unable to checkout '9f2c1b7d3e4a' in submodule path 'csrc/cutlass'", ("build.submodule-missing", "fa2")),
    ("submodule-recurse", "Building sageattention from git:\nfatal: Failed to recurse into submodule path 'third_party/cutlass'", ("build.submodule-missing", "sage")),
    ("submodule-pip", "pip install git+https://github.com/facebookresearch/xformers.git\n  × git submodule update --init --recursive -q did not run successfully.\n  │ exit code: 128", ("build.submodule-missing", "xformers")),
    ("submodule-ninja", "ninja: error: '/src/xformers/xformers/csrc/swiglu/swiglu_op.cpp', needed by '/src/xformers/build/temp.linux-x86_64-cpython-312/xformers/csrc/swiglu/swiglu_op.o', missing and no known rule to make it", ("build.submodule-missing", "xformers")),
    ("submodule-words", "The flash-attention build on Windows fails due to uninitialized submodules", ("build.submodule-missing", "fa2")),
    ("cargo-killed", "cargo build --release --features cuda,flash-attn\nKilled\n  thread 'main' panicked at /home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/bindgen_cuda-0.1.5/src/lib.rs:262:21:\n  nvcc error while executing compiling: \"nvcc\" \"--gpu-architecture=sm_90\" \"-c\"", ("build.oom", None)),
    ("pinswap-remove", "The new xformers wheel pins torch 2.7.1, so pip removes the torch 2.5.1+cu121 that ComfyUI was using", ("xformers.replaced-torch", "xformers")),
    ("pinswap-upgraded", "Running pip install -e . I saw that torch was upgraded to 2.6.0 and xformers to 0.0.29.post2", ("xformers.replaced-torch", "xformers")),
    ("pinswap-overwritten", "I pinned xformers==0.0.23.post1 and torch==2.1.2 first, but they got overwritten when I installed the notebook's requirements", ("xformers.replaced-torch", "xformers")),
    ("resolver-fa", "ERROR: Cannot install -r requirements.txt (line 4) and -r requirements.txt (line 9) because these package versions have conflicting dependencies.\n\nThe conflict is caused by:\n    flash-attn 2.5.9 depends on torch==2.3.0\n    my-model-lib 1.2.0 depends on torch>=2.4", ("versions.conflict", "fa2")),
    ("resolver-reversed", "The conflict is caused by:\n    vllm 0.7.2 depends on torch>=2.5.1\n    xformers 0.0.27 depends on torch==2.3.1", ("versions.conflict", "xformers")),
    ("bt-sdpa", "Whisper-large ValueError: Transformers now supports natively BetterTransformer optimizations\n\n### System Info\nxFormers 0.0.23.post1\nmemory_efficient_attention.cutlassF:               available\nmemory_efficient_attention.flshattF@v2.3.2:        available", ("transformers.bettertransformer-redundant", "sdpa")),
    ("outattn-sdpa", "Llama with output_attentions=True returns mismatched attention maps between sdpa and eager", ("transformers.sdpa-output-attentions", None)),
    ("samecall", "ref = F.scaled_dot_product_attention(q, k, v, is_causal=True)\nout = flash_attn_func(q, k, v, causal=True)\nprint(torch.allclose(ref, out))  # False, the outputs differ", ("attn.layout-mismatch", None)),
    ("samecall-xf", "y = memory_efficient_attention(query, key, value)\nz = torch.nn.functional.scaled_dot_product_attention(query, key, value)\nassert torch.allclose(y, z, atol=1e-3), 'not equal'", ("attn.layout-mismatch", None)),
    ("which3", "Built from source on an H200 -- is this flash attention 2 or 3? I'm not sure", ("fa3.import-name", "fa3")),
    ("which3-verify", "How can I verify that FA3 is actually used by vLLM on my H100?", ("fa3.import-name", "fa3")),
    ("rounding-ref", "xformers memory_efficient_attention: inconsistent results between the reference implementation and the CUDA kernel", ("attn.backend-rounding", "xformers")),
    ("rounding-classes", "Difference between Qwen2Attention and Qwen2FlashAttention2 outputs in bf16", ("attn.backend-rounding", "fa2")),
    ("oddresult", "Strange output from sageattn on Wan 2.1 with the 480p model", ("attn.wrong-output", "sage")),
]

NEAR_MISSES = [
    ("perf-advantage-has", "flash-attn has a clear speed advantage on my 3090", "prose.slow"),
    ("perf-zh-fast", "开启 flash_attn 之后速度快了很多，效果很好", "prose.slow"),
    ("submodule-ok", "Submodule path 'csrc/cutlass': checked out 'afa1772203677c5118fcd82537a9c8fefbcc7008'\nBuilding wheel for flash-attn (setup.py) ... done", "build.submodule-missing"),
    ("submodule-other", "ninja: error: '/src/myproj/src/render.cpp', needed by 'build/render.o', missing and no known rule to make it", "build.submodule-missing"),
    ("cargo-noerror", "Killed\n\nthe job was cancelled by the scheduler after 2 hours", "build.oom"),
    ("pinswap-removed-xf", "xformers: removed it and now I'm using pytorch attention, works fine", "xformers.replaced-torch"),
    ("resolver-ok", "The conflict is caused by:\n    peft 0.7.1 depends on torch>=1.13.0\n    accelerate 0.34.1 depends on torch>=1.10.0", "versions.conflict"),
    ("which3-docs", "This model supports FlashAttention 2 or 3 out of the box.", "fa3.import-name"),
    ("which3-install", "How to install flash attention 3 on H100", "fa3.import-name"),
    ("samecall-noc", "out = F.scaled_dot_product_attention(q, k, v)\nout2 = flash_attn_func(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2))\nprint('done')", "attn.layout-mismatch"),
    ("samecall-scale", "ref = F.scaled_dot_product_attention(q, k, v, scale=0.125)\nout = flash_attn_func(q, k, v, softmax_scale=1.0)\nassert torch.allclose(ref, out)", "attn.layout-mismatch"),
    ("rounding-same", "No difference between LlamaAttention and LlamaFlashAttention2 outputs after the fix", "attn.backend-rounding"),
    ("oddresult-expected", "Expected output with flash_attn_func matches the reference", "attn.wrong-output"),
    ("foreign-mamba", "ImportError: /env/lib/python3.11/site-packages/selective_scan_cuda.cpython-311-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi", None),
    ("foreign-natten", "NATTEN failure: CUDA runtime error: no kernel image is available for execution on the device", None),
    ("foreign-conv1d", "ImportError: causal_conv1d_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZNK3c105Error4whatEv", None),
]


def _positive(text, want):
    entry, backend = want
    got = first(text)
    assert got[0] == entry and (backend is None or got[1] == backend), got


def _near_miss(text, must_not):
    found = ids(text)
    assert (not found) if must_not is None else must_not not in found, found


def test_round198m_variants():
    each(((name, (text, want)) for name, text, want in POSITIVES), _positive)


def test_round198m_near_misses():
    each(((name, (text, must_not)) for name, text, must_not in NEAR_MISSES), _near_miss)


def test_round198m_natten_flex_stays_flex():
    """NATTEN named alone is no foreign library: its Flex backend's refusal stays FlexAttention's."""
    text = 'v0.21 on CPU: "Cannot run NATTEN with Flex Attention; we only support 32 <= head dims <= 512"'
    assert first(text) == ("attn.head-dim-unsupported", "flex"), ids(text)


# Each pattern written or widened here, found by a piece of its text, matches no unrelated log of any training round on its own
# (before ranking and attribution decide anything).
PIECES = {
    "build.submodule-missing": ("submodule path", "did not run successfully", "no known rule to make it", "un-?initiali",
                                "(?:initiali[sz]ed|checked"),
    "build.oom": "nvcc error while executing",
    "xformers.replaced-torch": ("(?:remove[sd]?|uninstall", "(?:upgraded|downgraded|replaced|bumped|overwritten)",
                                "(?:overwritten|replaced|upgraded)"),
    "versions.conflict": "depends on torch==",
    "transformers.sdpa-output-attentions": "(?:and|vs\\.?)[ \\t]+[`'\"]?eager",
    "attn.layout-mismatch": "(?:\\n[ \\t]*)?(?:q|query|xq)",
    "fa3.import-name": ("[ \\t]+or[ \\t]+(?:flash", "(?:know|tell|check|verify|confirm|see)"),
    "attn.backend-rounding": ("reference(?:[ \\t]+(?:implementation", "(?:FlashAttention2?|SdpaAttention|FlexAttention)"),
    "attn.wrong-output": "(?:unexpect(?:ed)?|strange",
}


def test_round198m_patterns_match_no_unrelated_log():
    assert_patterns_match_no_unrelated_log(PIECES)
