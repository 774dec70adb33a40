"""Variants for helper ex202 (session 41): the misses of round 202m (fixtures/errors/round202m, gathered blind by ex202m in
session 40, measured three times by the lead, training material since 94c0551c).

Every case was written by hand (2026-12-03): other backends, GPUs, versions, paths and wordings than the fixtures. The
positives name what explain must report first (entry, backend); the near misses what it must not claim (None: nothing at
all); no pattern written here matches an unrelated log of any training round on its own (the measure-only sets are never read).

Mechanisms (knowledge file: rule; the round 202m text it came from):
  jitload     imports.toml torch.attention-api-too-old: TorchScript's "Unknown builtin op: aten::scaled_dot_product_attention"
              where Python's torch.jit.load (or a torch 1.x) loads the model (YuliangXiu/ECON#134); a converter's stays
              attn.onnx-export-unsupported (pnnx/pnnx#79, round 122m)
  llvm        triton.toml triton.pass-failed: an assertion of the LLVM Triton bundles (~/.triton/llvm/...) aborting the compile
              (pytorch/pytorch#139621)
  lds         triton.toml triton.out-of-resources: "66,560 bytes of shared memory (LDS), exceeding the ... limit", the count
              with thousands separators (flagos-ai/FlagGems#4286)
  vision      flash_attn.toml fa2.not-available-fallback: vLLM's vision encoders "... so we use xformers backend instead. You
              can run `pip install flash-attn` ..." (vllm-project/vllm#18324)
  export      attention.toml attn.onnx-export-unsupported: a backend switched off to export to ONNX / TensorRT, in words
              (sunsmarterjie/yolov12#132)
  rejects     flash_attn.toml fa2.head-dim: flash-attn "rejects head_dim=512" (Dao-AILab/flash-attention#2581)
  rdna        accelerators.toml fa2.rocm-ck-gpu-unsupported: "N errors generated when compiling for gfx1201" in a flash-attn
              (CK) build (Dao-AILab/flash-attention#2588)
  hopper      backends.toml backend.unsupported-gpu: FA3 "only working on hopper", "hardware specific to Hopper"
              (Dao-AILab/flash-attention#1049)
  paged       flash_attn.toml fa2.paged-kv: "block_size must match kBlockN", "smaller block sizes than 256" under a paged /
              blocked KV cache (Dao-AILab/flash-attention#678)
  painful     builds.toml build.prebuilt-wheel-missing: a backend's source build said in Chinese to be too slow or painful
              (SandAI-org/MAGI-1#65)
  hardassert  attention.toml attn.import-guard: the code "hard-asserts flash_attn availability" (SkyworkAI/Matrix-Game#67)
  namespace   frameworks.toml app.unknown-backend-name: "'Namespace' object has no attribute 'sdpa'", the app's parser lacks
              its own attention option (deepbeepmeep/YuEGP#4)
  flag        frameworks.toml app.backend-selection-ignored: a backend that "cannot be applied by passing the --flag when ..."
              (NVIDIA/Megatron-LM#1259); an error "while applying cross attention optimization" (AUTOMATIC1111/stable-diffusion-webui#10605)
  rocmexp     sdpa.toml sdpa.rocm-experimental: "gfx1100 is moved back to experimental", "TORCH_ROCM_AOTRITON_ENABLE_EXPERIMENTAL=1
              ... to enable aotriton" (ROCm/TheRock#1315)
  zeros       attention.toml attn.wrong-output: an attention call that "returns an all-zero output", "zero SDPA output"
              (ROCm/aotriton#210); "using flash attention on pvc return bad result" (intel/ipex-llm#10427)
  cudnnslow   sdpa.toml sdpa.cudnn-slower: "FlashAttention is faster ..." with cuDNN's SDPA named (sgl-project/sglang#30090)
  maskmod     sdpa.toml sdpa.mask-inverted: a mask_mod that "should return True if the position should be included", doubted
              (tilde-research/nsa-release#3)
  fallback    frameworks.toml app.fallback-attention-broken: "use_flash_attention=False 的时候，报错了" (IEIT-Yuan/Yuan-2.0#94)
  sageguard   sage.toml sage.inputs: SageAttention skipped "for unsupported masks, devices, dtypes, shapes, head counts"
              (kijai/ComfyUI-KJNodes#684)
  trace       compile.toml compile.backend-untraceable: a varlen call's max_seqlen "converted to Python scalar leading to an
              incorrect trace" (Dao-AILab/flash-attention#701, which names no backend: explain stays silent there)
"""

from __future__ import annotations

from each_case import each
from explain_top import assert_patterns_match_no_unrelated_log, first, ids

WRONG = "attn.wrong-output"
SELECT = "app.backend-selection-ignored"

POSITIVES = [
    # jitload
    ("jitload-title", "Unknown builtin op: aten::scaled_dot_product_attention when loading the exported DINOv2 (torch 1.12.1, Windows)",
     ("torch.attention-api-too-old", "sdpa")),
    ("jitload-traceback", "Traceback (most recent call last):\n  File \"run.py\", line 12, in <module>\n    net = torch.jit.load('depth_anything.pt')\n"
     "  File \"C:\\envs\\da\\lib\\site-packages\\torch\\jit\\_serialization.py\", line 162, in load\n"
     "    cpp_module = torch._C.import_ir_module(cu, str(f), map_location, _extra_files)\nRuntimeError: \n"
     "Unknown builtin op: aten::scaled_dot_product_attention.\nHere are some suggestions: \n\taten::_scaled_dot_product_attention",
     ("torch.attention-api-too-old", "sdpa")),
    # llvm
    ("llvm-flex", "test_flex_attention.py -k test_causal_float16 on MI210\npython: /home/runner/.triton/llvm/llvm-4017f04e-almalinux-x64/include/llvm/ADT/ArrayRef.h:257: "
     "const T& llvm::ArrayRef<T>::operator[](size_t) const [with T = long int]: Assertion `Index < Length && \"Invalid index!\"' failed.\nAborted (core dumped)",
     ("triton.pass-failed", "flex")),
    # lds
    ("lds-comma", "flash_attn_varlen_func in the Triton port asks for 81,920 bytes of shared memory, exceeding the 65,536 available on the MI50",
     ("triton.out-of-resources", "fa2")),
    # vision
    ("vision-sdpa", "INFO [vision.py:90] Current `vllm-flash-attn` has a bug inside vision module, so we use TORCH_SDPA backend instead. "
     "You can run `pip install flash-attn` to use flash-attention backend.", ("fa2.not-available-fallback", "fa2")),
    # export
    ("export-disable", "Do I have to remove xformers when exporting the UNet to TensorRT?", ("attn.onnx-export-unsupported", "xformers")),
    ("export-without", "We exported the detector to ONNX without flash-attn and mAP is the same", ("attn.onnx-export-unsupported", "fa2")),
    # rejects
    ("rejects-fa2", "FlashAttention 2 rejects head_dim 288 for our model, even on the H100", ("fa2.head-dim", "fa2")),
    # rdna
    ("rdna-gfx1101", "Building flash-attn 2.7.4 (CK backend) on an RX 7800 XT\nerror: invalid operand for instruction\n"
     "        v_cmp_u_f32 vcc, v3, v3\n4 errors generated when compiling for gfx1101.", ("fa2.rocm-ck-gpu-unsupported", "fa2")),
    # hopper
    ("hopper-fa3", "FA3 is only supported on H100, so on the L40S you stay on FA2", ("backend.unsupported-gpu", "fa3")),
    ("hopper-specific", "flash_attn_3 is specific to Hopper; my 4090 cannot run it", ("backend.unsupported-gpu", "fa3")),
    # paged
    ("paged-kblockn", "flash_attn_with_kvcache: the page size must be a multiple of kBlockN, so 16-token pages are refused",
     ("fa2.paged-kv", "fa2")),
    ("paged-smaller", "Paged KV support for flash_attn_with_kvcache landed in 2.5.0.\n\nAre smaller page sizes than 256 planned?",
     ("fa2.paged-kv", "fa2")),
    # painful
    ("painful-flash", "flash_attn 2.8.3 for cu128\n源码编译太慢了，有没有编译好的包", ("build.prebuilt-wheel-missing", "fa2")),
    # hardassert
    ("hardassert-sage", "The node hard-asserts sageattention is installed, so the whole pack fails to load on the Mac",
     ("attn.import-guard", "sage")),
    # namespace
    ("namespace-flash", "    if args.use_flash_attn:\nAttributeError: 'Namespace' object has no attribute 'use_flash_attn'",
     ("app.unknown-backend-name", "fa2")),
    # flag
    ("flag-sage", "SageAttention cannot be enabled by setting --use-sage-attention when --fast-fp16 is also given", (SELECT, "sage")),
    ("flag-impl", "flash attention could not be used by passing --attn-impl flash when the model is loaded in 8-bit", (SELECT, "fa2")),
    ("flag-indexerror", "KeyError while applying cross attention optimization at startup (--opt-sdp-no-mem-attention)", (SELECT, "sdpa")),
    # rocmexp
    ("rocmexp-moved", "AOTriton 0.10 release notes: gfx1201 was moved back to experimental.", ("sdpa.rocm-experimental", "sdpa")),
    ("rocmexp-env", "Set TORCH_ROCM_AOTRITON_ENABLE_EXPERIMENTAL=1 before launch to enable AOTriton on the 7900 GRE", ("sdpa.rocm-experimental", "sdpa")),
    # zeros
    ("zeros-xformers", "memory_efficient_attention on the P40 returns an all-zero output when the batch is 1", (WRONG, "xformers")),
    ("zeros-title", "[Bug] zero attention output with flash_attn_func on gfx90a", (WRONG, "fa2")),
    ("bad-result", "Llama-3 using sdpa on the Arc B580 returns wrong results after the first token", (WRONG, "sdpa")),
    # cudnnslow
    ("cudnnslow-words", "cuDNN SDPA on our B200 nodes: FlashAttention is still faster at seq 4096", ("sdpa.cudnn-slower", "sdpa")),
    # maskmod
    ("maskmod-future", "create_block_mask(sliding, ...): the mask_mod should return True if the pair is kept, so this one lets tokens peek at the future",
     ("sdpa.mask-inverted", "sdpa")),
    # fallback
    ("fallback-xformers", "xformers=false 时会报错，开着就正常", ("app.fallback-attention-broken", "xformers")),
    # sageguard
    ("sageguard-dtypes", "The patch now skips unsupported dtypes, head dims, masks and layouts instead of calling SageAttention",
     ("sage.inputs", "sage")),
    # trace
    ("trace-varlen", "flash_attn_varlen_func takes max_seqlen as an int: under torch.jit.trace it is converted to a constant, giving an incorrect trace",
     ("compile.backend-untraceable", "fa2")),
]

NEAR_MISSES = [
    # jitload: a converter built on an older libtorch is no Python torch too old; the private op missing is another message
    ("jitload-pnnx", "./pnnx model.pt inputshape=[1,3,224,224]\nterminate called after throwing an instance of 'torch::jit::ErrorReport'\n  what():\n"
     "Unknown builtin op: aten::scaled_dot_product_attention.", "torch.attention-api-too-old"),
    ("jitload-other-op", "torch.jit.load('m.pt')\nUnknown builtin op: aten::_upsample_bilinear2d_aa.", "torch.attention-api-too-old"),
    # llvm: an assertion outside Triton's LLVM; Triton's LLVM named without an assertion
    ("llvm-own", "python: /usr/include/llvm/ADT/SmallVector.h:291: Assertion `idx < size()' failed.", "triton.pass-failed"),
    ("llvm-path", "downloading /root/.triton/llvm/llvm-b5cc222d-ubuntu-x64 (took 40 s)", "triton.pass-failed"),
    # lds: within the limit
    ("lds-within", "the kernel uses 49,152 bytes of shared memory, well inside the budget", None),
    # vision: the fork is used
    ("vision-used", "Using vllm-flash-attn backend for the vision encoder", "fa2.not-available-fallback"),
    # export: switched off for another reason; an export that names no backend switched off
    ("export-training", "disable flash_attention when training on the V100", "attn.onnx-export-unsupported"),
    ("export-installed", "the model exports to ONNX without xformers installed, fine", "attn.onnx-export-unsupported"),
    # rejects: a head dim within the limit
    ("rejects-small", "flash_attn_func rejects head_dim=96? no, it takes it fine", "fa2.head-dim"),
    # rdna: a CDNA target; another library's RDNA build
    ("rdna-cdna", "flash-attn build log\n2 errors generated when compiling for gfx942.", "fa2.rocm-ck-gpu-unsupported"),
    ("rdna-other", "building bitsandbytes for ROCm\n5 errors generated when compiling for gfx1100.", "fa2.rocm-ck-gpu-unsupported"),
    # hopper: FA2 said to work on Ampere; FA3 said to work beyond Hopper
    ("hopper-fa2", "FA2 is already performant on Ampere class chips", "backend.unsupported-gpu"),
    ("hopper-now", "FA3 now works on Ampere, Ada and Hopper", "backend.unsupported-gpu"),
    # paged: a block size of another kernel
    ("paged-triton", "Triton autotune: try smaller block sizes than 256 for the matmul", "fa2.paged-kv"),
    # painful: the build said to be fine
    ("painful-fine", "flash-attn 编译成功了，不慢", "build.prebuilt-wheel-missing"),
    # hardassert: a guard that does not assert
    ("hardassert-soft", "the code softly checks whether flash_attn is importable and falls back", "attn.import-guard"),
    # namespace: an option of no attention library
    ("namespace-other", "AttributeError: 'Namespace' object has no attribute 'seed'", None),
    # flag: a flag that works
    ("flag-works", "flash attention can be enabled by passing --use-flash-attn", SELECT),
    ("flag-applied", "applying cross attention optimization (Doggettx)", SELECT),
    # rocmexp: promoted, not moved back
    ("rocmexp-promoted", "gfx1100 is moved out of experimental in AOTriton 0.11", "sdpa.rocm-experimental"),
    # zeros: zeros that are no attention output; a bad result without a backend in use
    ("zeros-pad", "the collator returns an all-zero attention mask for padded rows", WRONG),
    ("bad-no-backend", "the tokenizer returns bad results for Chinese", None),
    # cudnnslow: FlashAttention faster than something else
    ("cudnnslow-xformers", "FlashAttention is faster than xformers on the 4090", "sdpa.cudnn-slower"),
    # maskmod: the convention stated, nothing doubted
    ("maskmod-doc", "In FlexAttention the mask_mod should return True if the position should be included.", "sdpa.mask-inverted"),
    # fallback: switched off without an error
    ("fallback-ok", "use_flash_attention=False 的时候也能正常推理", "app.fallback-attention-broken"),
    # sageguard: no SageAttention
    ("sageguard-other", "skip unsupported dtypes, shapes for the ONNX exporter", "sage.inputs"),
    # trace: a constant that is fine
    ("trace-fine", "max_seqlen is converted to a Python int before the call, the trace is correct", "compile.backend-untraceable"),
]


def _positive(text, want):
    entry, backend = want
    got = first(text)
    assert got[0] == entry and got[1] == backend, (got, ids(text))


def _near_miss(text, must_not):
    found = ids(text)
    assert (not found) if must_not is None else must_not not in found, found


def test_round202m_variants():
    each(((name, (text, want)) for name, text, want in POSITIVES), _positive)


def test_round202m_near_misses():
    each(((name, (text, must_not)) for name, text, must_not in NEAR_MISSES), _near_miss)


# Each pattern written here, found by a piece of its text, matches no unrelated log of any training round on its own (before
# ranking and attribution decide anything).
PIECES = {
    "torch.attention-api-too-old": "aten::scaled_dot_product_attention\\b",
    "triton.pass-failed": "\\.triton[\\\\/]llvm",
    "triton.out-of-resources": "(?:,\\d{3})+",
    "fa2.not-available-fallback": "so we use",
    "attn.onnx-export-unsupported": ("(?:disabl\\w*|turn", "\\bwithout[ \\t]+(?:the"),
    "fa2.head-dim": "(?:rejects?|rejected",
    "fa2.rocm-ck-gpu-unsupported": "errors? generated when compiling",
    "backend.unsupported-gpu": "(?:hardware[ \\t]+)?specific",
    "fa2.paged-kv": ("kBlockN", "than 256"),
    "build.prebuilt-wheel-missing": "编译安装",
    "attn.import-guard": "\\bhard[- ]?",
    "app.unknown-backend-name": "Namespace",
    SELECT: ("(?:passing|setting", "cross[ \\t_-]?attention[ \\t]+optimi"),
    "sdpa.rocm-experimental": ("back(?:ed)?[ \\t]+to[ \\t]+experimental", "(?:re-?)?enable"),
    WRONG: ("all[- ]zeros?[ \\t]+(?:outputs?", "zero[ \\t]+(?:SDPA", "(?:an?[ \\t]+)?(?:bad|wrong|garbage"),
    "sdpa.cudnn-slower": "(?:still[ \\t]+)?faster",
    "sdpa.mask-inverted": "should return True (?:if",
    "app.fallback-attention-broken": "(?:的?时候|时)",
    "sage.inputs": "head[ \\t]+(?:counts?|dims?)|layouts?",
    "compile.backend-untraceable": "max_seqlen",
}


def test_round202m_patterns_match_no_unrelated_log():
    assert_patterns_match_no_unrelated_log(PIECES)
