"""Variants for the mechanisms helper ex42 (session 7, 2026-11-28, issue 23) found behind in-sample texts explain did not
match (benchmarks/results/residual-unmatched-s7.md). No real text is a case here: each is written by hand from the
mechanism, with other GPUs, versions, paths, wrappers and wordings; the near misses say what must NOT be read so.

  shfl       an old Triton's LLVM that cannot select the warp-shuffle intrinsic for this GPU's PTX target
  ima        an illegal memory access in other words, or at a title's end after the kernel's part
  grid       CUDA's grid-limit error with the attention backend named further up the log
  aotriton   a ROCm torch built without AOTriton: no flash SDPA
  mask       an attn_mask dtype problem said in a title
  smem       a Triton kernel out of shared memory said in words
  coldcomp   torch.compile / FlexAttention's cold compile taking minutes, said in a title
  maxjobs    the number of parallel build jobs decides whether a build works
  msvc       an MSVC newer than the toolkit's headers, said in words
  te         TransformerEngine with neither its flash nor its fused attention, said in a title; the backend stays none
  xinfo      xformers.info listing its FlashAttention operators unavailable
  fa2name    FA2 named as "flash-attention2", "flash-attention 2", "flash-attn-cuda"
"""

from __future__ import annotations

import pytest

from explain_top import first as _first, first_cause as _top, ids as _ids


# -- shfl -----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.shfl.sync.idx.i32\nAborted (core dumped)",
    "python main.py --use-sage-attention\n[W] GTX 1080 Ti\nLLVM ERROR: Cannot select: intrinsic %llvm.nvvm.shfl.sync.down.f32",
    "Triton 3.1 on an RTX 5070: LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.shfl.sync.bfly.i32",
])
def test_old_triton_cannot_select_the_shuffle_intrinsic(text):
    assert "triton.unknown-arch" in _ids(text)


def test_a_reduction_intrinsic_on_a_current_triton_is_not_an_arch_problem():
    # triton-lang/triton#7517: redux.sync.fmax failing on Triton's main branch is a compiler bug, no arch's
    assert "triton.unknown-arch" not in _ids("LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.redux.sync.fmax")


# -- ima -----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text,backend", [
    ("flash-attn 2.6.3 accesses memory illegally in the backward pass when seqlen_k is 1", "fa2"),
    ("xformers: memory_efficient_attention reads memory illegally with a BlockDiagonalMask of 1-token blocks", "xformers"),
    ("[FA3] paged illegal memory access for page_size 1 on H100", "fa3"),
])
def test_an_illegal_access_in_other_words(text, backend):
    assert _top(text) == ("cuda.kernel-fault", backend)


@pytest.mark.parametrize("text", [
    "my own CUDA kernel accesses memory illegally when N is odd",  # no attention library named: another program's fault
    "The loader reads the memory-mapped file; illegal memory access was not seen",  # no 'kernel part' before it
])
def test_a_fault_no_attention_library_is_named_near_stays_silent(text):
    assert "cuda.kernel-fault" not in _ids(text)


# -- grid ----------------------------------------------------------------------------------------------------------
def test_grid_limit_error_far_below_the_backend_announcement():
    log = "\n".join([
        "Using xformers attention in VAE",
        "Using xformers attention in VAE",
        "model weight dtype torch.float16, manual cast: None",
        "Requested to load SDXLClipModel",
        "loaded completely 9.5 1560.8 True",
        "Requested to load SDXL",
        "loaded completely 9.5 4897.0 True",
        "  0%|          | 0/25 [00:00<?, ?it/s]",
        "!!! Exception during processing !!! CUDA error: invalid configuration argument",
        "CUDA kernel errors might be asynchronously reported at some other API call",
    ])
    assert _top(log) == ("attn.kernel-launch-error", "xformers")


def test_grid_limit_error_under_a_sage_patch():
    log = "\n".join([
        "Patching comfy attention to use sageattn",
        "got prompt",
        "Requested to load WanTEModel",
        "loaded partially 5000.0 4999.9 0",
        "Requested to load WAN21",
        "  0%|          | 0/20 [00:00<?, ?it/s]",
        "RuntimeError: CUDA error: invalid configuration argument",
    ])
    assert _top(log) == ("attn.kernel-launch-error", "sage")


def test_grid_limit_error_with_no_attention_library_stays_silent():
    log = "\n".join([
        "Loading detector weights",
        "  File \"/opt/venv/lib/python3.11/site-packages/torchvision/ops/boxes.py\", line 41, in nms",
        "    return torch.ops.torchvision.nms(boxes, scores, iou_threshold)",
        "RuntimeError: CUDA error: invalid configuration argument",
    ])
    assert "attn.kernel-launch-error" not in _ids(log)


# -- aotriton ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "ROCm 6.4 nightly wheels for Windows are built without AOTriton, so SDPA never takes its flash path on gfx1201",
    "torch 2.9 on gfx1151: aotriton is not built for this GPU and scaled_dot_product_attention falls back to math",
    "Our pytorch build without the aotriton kernels makes can_use_flash_attention() lie",
])
def test_rocm_torch_without_aotriton(text):
    assert _top(text) == ("sdpa.built-without-flash", "sdpa")


def test_aotriton_present_is_no_finding():
    assert "sdpa.built-without-flash" not in _ids("aotriton 0.10b is bundled with torch 2.9 for ROCm and SDPA's flash path runs")


# -- mask ----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "attn_mask dtype mismatch when calling F.scaled_dot_product_attention with fp16 queries",
    "[Bug] attn_mask data type error in the cross-attention block",
    "解码器里 attn_mask 的数据类型不对，报错",
])
def test_mask_dtype_problem_said_in_a_title(text):
    assert _top(text) == ("sdpa.mask-dtype", "sdpa")


@pytest.mark.parametrize("text", [
    "attn_mask dtype: torch.bool, shape (1, 1, 77, 77)",  # a listing, no problem said
    "my_attn_mask dtype error in the tokenizer",  # another name that ends in attn_mask
])
def test_mask_dtype_listing_is_not_the_problem(text):
    assert "sdpa.mask-dtype" not in _ids(text)


# -- smem ----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "Looking at the log, the kernel ran out of shared memory on the RTX 3060 (BLOCK_M=128).",
    "Triton's kernel runs out of shared memory with head_dim 256 on sm86",
])
def test_a_kernel_out_of_shared_memory_said_in_words(text):
    assert "triton.out-of-resources" in _ids(text)


def test_an_allocator_out_of_memory_is_not_shared_memory():
    assert "triton.out-of-resources" not in _ids("the caching allocator ran out of memory during the backward")


# -- coldcomp ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text,backend", [
    ("flex_attention with a sliding-window score_mod: very long compile time at seq_len 32768", "flex"),
    ("create_block_mask under torch.compile has pathological cold compile time for document masks", "flex"),
])
def test_a_cold_compile_said_in_a_title(text, backend):
    assert _top(text) == ("compile.first-call-slow", backend)


def test_a_source_build_taking_long_is_not_torch_compile():
    assert "compile.first-call-slow" not in _ids("flash-attn from source: very long compile time with MAX_JOBS=4")


# -- maxjobs -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text,backend", [
    ("`MAX_JOBS` breaks the build of flash-attn above 8 on a 32 GB box", "fa2"),
    ("MAX_JOBS affects compilation of xformers (works with 4, fails with 32)", "xformers"),
])
def test_parallel_jobs_decide_whether_the_build_works(text, backend):
    assert _top(text) == ("build.oom", backend)


def test_max_jobs_that_only_speeds_up_is_no_failure():
    assert "build.oom" not in _ids("MAX_JOBS speeds up the build of flash-attn a lot")


# -- msvc ----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text,backend", [
    ("Your MSVC 14.44 is too new for CUDA 12.4: nvcc's host_config.h stops the flash-attn build", "fa2"),
    ("Building sageattention: Visual Studio 2026 ships an MSVC newer than what the HIP Clang headers expect", "sage"),
])
def test_msvc_newer_than_the_toolkit_said_in_words(text, backend):
    assert _top(text) == ("build.msvc-unsupported", backend)


def test_msvc_newer_than_another_msvc_is_nothing():
    assert "build.msvc-unsupported" not in _ids("Building xformers: MSVC 14.44 is newer than 14.38 on this runner")


# -- te ------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "No flash or fused attention for head_dim 256 with sliding window in TE 2.8",
    "[PyTorch] no FlashAttention and FusedAttention for MLA with THD layout",
    "No flash and fused attention for Qwen3 (TE 2.9)\n"
    "DEBUG:DotProductAttention:Running with config={'flash_attn_version': '2.7.4', 'flash_attn_3_version': '3.0.0'}",
])
def test_te_without_its_fused_backends_said_in_a_title(text):
    assert _top(text) == ("te.no-backend", None)


def test_no_flash_attention_installed_is_not_te():
    assert "te.no-backend" not in _ids("No flash attention installed, using the fused kernels")


# -- xinfo ---------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "xFormers 0.0.27\nmemory_efficient_attention.cutlassF:               available\n"
    "memory_efficient_attention.flshattF@v2.5.6:        unavailable\nmemory_efficient_attention.flshattB@v2.5.6:        unavailable",
    "Why are fa2F and fa2B unavailable in the xformers 0.0.28 wheel on Windows?",
    "memory_efficient_attention.fa3F@0.0.0 shows unavailable on my H100",
])
def test_xformers_info_flash_operators_unavailable(text):
    assert ("xformers.flash-ops-unavailable", "xformers") in [(m.entry.id, m.backend) for m in __import__(
        "attn_doctor.explain", fromlist=["match"]).match(text)]


@pytest.mark.parametrize("text", [
    "memory_efficient_attention.cutlassF:               unavailable",  # not a flash operator (the extension did not load)
    "memory_efficient_attention.fa2F@v2.5.7-pt:         available",
])
def test_xformers_info_other_rows_are_not_this(text):
    assert "xformers.flash-ops-unavailable" not in _ids(text)


def test_xformers_info_is_a_note_after_the_cause():
    text = ("xFormers was built for:\n    PyTorch 2.0.0+cu118 with CUDA 1108 (you have 1.13.1+cu117)\n"
            "memory_efficient_attention.cutlassF:               unavailable\n"
            "memory_efficient_attention.flshattF:               unavailable")
    found = _ids(text)
    assert found and found[0] != "xformers.flash-ops-unavailable"


# -- fa2name -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "Unable to use flash-attention2 for qwen2-vl training",
    "I can't get flash-attention 2 to work on my 3090.",
    "here is the complete error, looks like something with flash-attn-cuda. worked fine yesterday",
])
def test_fa2_by_its_hyphenated_names(text):
    assert _first(text)[1] == "fa2"


def test_flash_attention_3_is_not_fa2():
    assert _first("Unable to use flash-attention 3 on my H100.")[1] != "fa2"


# -- titlebuild: the title names the backend, the first sentence says its build fails -----------------------------
@pytest.mark.parametrize("text,backend", [
    ("How do I use SageAttention on Windows?\n\nI can't get the build to work with python 3.12 and CUDA 12.8.", "sage"),
    ("xformers for torch 2.8?\nMy pip install fails with a compiler error on Ubuntu 24.04.", "xformers"),
])
def test_title_names_the_backend_sentence_says_the_build_fails(text, backend):
    assert _first(text) == ("prose.build", backend)


@pytest.mark.parametrize("text", [
    "How do I use SageAttention on Windows?\n\nI could build it fine with python 3.12 and CUDA 12.8.",  # no failure said
    "xformers for torch 2.8?\nMy torch.compile run fails with a graph break in the UNet.",  # torch.compile, not a build
    "Will flash attention support Blackwell GPUs?\n\nI just install it and it doesn't seem to complain on my 5060 Ti.",  # the title is a GPU question
])
def test_title_then_sentence_near_misses(text):
    assert "prose.build" not in _ids(text)


# -- maskkeys: the expand message alone, a (B, 1, L, S') mask to (B, H, L, S) scores ---------------------------------
@pytest.mark.parametrize("text", [
    "RuntimeError: The expanded size of the tensor (1030) must match the existing size (1024) at non-singleton dimension 3.  "
    "Target sizes: [2, 32, 6, 1030].  Tensor sizes: [2, 1, 6, 1024]",
    "The expanded size of the tensor (77) must match the existing size (64) at non-singleton dimension 3.\n"
    "Target sizes: [4, 8, 77, 77]\nTensor sizes: [4, 1, 77, 64]",
])
def test_a_mask_built_for_another_key_length(text):
    assert _top(text) == ("sdpa.mask-size-mismatch", "sdpa")


@pytest.mark.parametrize("text", [
    # an image tensor: three dimensions, nothing of (batch, heads, L, S)
    "RuntimeError: The expanded size of the tensor (654) must match the existing size (675) at non-singleton dimension 2.  "
    "Target sizes: [1, 3, 654, 900].  Tensor sizes: [3, 675, 900].",
    # another query length as well: not a mask of this call's L
    "RuntimeError: The expanded size of the tensor (10) must match the existing size (12) at non-singleton dimension 3.  "
    "Target sizes: [1, 4, 1, 10].  Tensor sizes: [1, 1, 12, 12]",
])
def test_other_expands_are_not_an_attention_mask(text):
    assert "sdpa.mask-size-mismatch" not in _ids(text)


# -- te-kernel: a kernel fault in TransformerEngine's own attention is an attention kernel's, with no backend of the seven
@pytest.mark.parametrize("text", [
    "[Bug] FusedAttention backward with THD layout: CUDA error: an illegal memory access was encountered (H100)",
    "DotProductAttention with window_size=(127, 0) and GQA hits an illegal memory access in the cuDNN backward",
])
def test_a_fault_in_transformer_engine_attention(text):
    assert _top(text) == ("cuda.kernel-fault", None)


def test_a_fault_in_a_fused_layer_norm_is_not_attention():
    assert "cuda.kernel-fault" not in _ids("fused layer norm backward: CUDA error: an illegal memory access was encountered")


# -- x86only: no wheel for ARM, said as the backend being x86-only ---------------------------------------------------
@pytest.mark.parametrize("text,backend", [
    ("xformers is x86_64-only: no wheel for our GH200 (aarch64)", "xformers"),
    ("flash-attn-2 is x86-only, so pip on the Jetson builds it from source", "fa2"),
])
def test_backend_x86_only(text, backend):
    assert _top(text) == ("install.no-distribution", backend)


def test_x86_only_said_of_another_package():
    assert "install.no-distribution" not in _ids("decord is x86_64-only; flash-attn installed fine on the GH200")


def test_flash_attn_2_by_its_hyphenated_name():
    assert _first("Unable to use flash-attn-2 on my RTX 3090 for training.")[1] == "fa2"


# -- pyssize: Triton's launcher built without PY_SSIZE_T_CLEAN, under an attention backend's kernel --------------------
@pytest.mark.parametrize("text,backend", [
    ("Error running sage attention: PY_SSIZE_T_CLEAN macro must be defined for '#' formats, using pytorch attention instead.",
     "sage"),
    ("Sage Attention install on 5090 PY_SSIZE_T_CLEAN", "sage"),
    ("flex_attention under torch.compile on Python 3.12:\nSystemError: PY_SSIZE_T_CLEAN macro must be defined for '#' formats",
     "flex"),
])
def test_triton_launcher_without_py_ssize_t_clean(text, backend):
    assert _top(text) == ("triton.launcher-py-ssize-clean", backend)


def test_the_launcher_error_of_another_programs_kernel_stays_silent():
    text = ("  File \"/venv/lib/python3.12/site-packages/vllm/model_executor/layers/fused_moe/fused_moe.py\", line 88, in invoke\n"
            "    fused_moe_kernel[grid](\n"
            "SystemError: PY_SSIZE_T_CLEAN macro must be defined for '#' formats")
    assert "triton.launcher-py-ssize-clean" not in _ids(text)


# -- fa4tests: flash-attention's FA4 test files name FA4 ---------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "[Sm90,Bwd] Fix paged illegal memory access\n\nRunning pytest tests/cute/test_flash_attn.py -k paged crashes with it.",
    "pytest tests/cute/test_flash_attn_combine.py::test_combine[128]\nRuntimeError: CUDA error: an illegal memory access was encountered",
])
def test_fa4_test_files_name_fa4(text):
    assert _top(text) == ("cuda.kernel-fault", "cute")


def test_cutlass_own_cute_tests_are_not_fa4():
    text = "test/unit/cute/ampere/cp_async.cu fails\nCUDA error: an illegal memory access was encountered"
    assert _top(text)[1] != "cute"


# -- head: the blank line under a pasted title is no sentence ----------------------------------------------------------
def test_a_sentence_on_line_six_after_the_titles_blank_line():
    text = ("please pin flash-attn to 2.7.3\n\nThanks for the project.\nI tried a few things to fix it.\nHere is what I found.\n"
            "flash-attn 2.8.0 or newer breaks the inference.")
    assert _first(text) == ("prose.fails", "fa2")


def test_two_blank_lines_do_not_stretch_the_head():
    text = ("please pin flash-attn to 2.7.3\n\nThanks for the project.\n\nI tried a few things.\nHere is what I found.\n"
            "flash-attn 2.8.0 or newer breaks the inference.")
    assert "prose.fails" not in _ids(text)


def test_five_sentences_are_still_the_head():
    text = "\n".join(["step 1 loss 2.0"] * 5 + ["flash attention crashes on my GPU"])
    assert _ids(text) == []


def test_a_flash_attn_version_is_not_fa2s_name():
    # "flash-attn 2.8.3" is the shared package's version, not FA2 named: the sentence names what was tried, not what failed
    text = ("sageattention crashes on RTX 5090 with illegal memory access\n"
            "torch.AcceleratorError: CUDA error: an illegal memory access was encountered\n"
            "I also tried flash-attn 2.8.3 from pip, same thing.")
    assert _top(text)[1] == "sage"


# -- sagescale: q/k scales made for another kernel's tile sizes ---------------------------------------------------------
@pytest.mark.parametrize("text", [
    "RuntimeError: Tensor key_scale must have shape (batch_size, num_kv_heads, div_ceil(kv_len, CTA_K) * (CTA_K / WARP_K))",
    "spas_sage2_attn_meansim_cuda on H20:\nRuntimeError: Tensor query_scale must have shape (batch_size, num_qo_heads, "
    "div_ceil(qo_len, CTA_Q) * (CTA_Q / WARP_Q))",
])
def test_sage_scales_for_another_kernel(text):
    assert _top(text) == ("sage.scale-shape", "sage")


def test_another_librarys_scale_shape_check_is_not_sage():
    assert "sage.scale-shape" not in _ids("RuntimeError: Tensor input_scale must have shape (num_tokens, 1)")


# -- headassert: a kernel's dispatch assert listing the head sizes it has ----------------------------------------------
@pytest.mark.parametrize("text,backend", [
    ("Does flashinfer support head_size = 576 for Ampere GPUs?\nError: assert(head_size == 128 || head_size == 256);", None),
    ("xformers decoder: assert(head_dim == 64 || head_dim == 128) failed", "xformers"),
])
def test_a_head_size_assert(text, backend):
    assert _top(text) == ("attn.head-dim-unsupported", backend)


@pytest.mark.parametrize("text", [
    "assert(head_size == 128 || head_size == 256);",  # no attention library named near it: anybody's kernel
    "flashinfer sampling: assert(vocab_size == 32000 || vocab_size == 128256)",  # not a head size
])
def test_head_size_assert_near_misses(text):
    assert "attn.head-dim-unsupported" not in _ids(text)


def test_flashinfer_sampling_is_not_its_attention():
    assert _first("flashinfer top_p sampling kernel: CUDA error: an illegal memory access was encountered")[0] is None


# -- tritonport: a model's bundled copy of the old Triton FlashAttention is no listed backend's ---------------------------
@pytest.mark.parametrize("model,call", [
    ("/srv/dnabert/bert_layers.py", "attention = flash_attn_qkvpacked_func(qkv, bias)"),
    ("/opt/mosaic_bert/src/bert_layers.py", "attention = flash_attn_qkvpacked_func(qkv, attn_bias, causal)"),
])
def test_bundled_triton_flash_attention_copy_is_no_backend(model, call):
    text = (f"  File \"{model}\", line 181, in forward\n    {call}\n"
            f"  File \"{model.rsplit('/', 1)[0]}/flash_attn_triton.py\", line 826, in _flash_attn_forward\n"
            "    _fwd_kernel[grid](")
    assert _top(text) == ("triton.kernel-version-drift", None)


def test_flash_attn_2s_own_triton_file_and_call_stay_fa2():
    text = ("  File \"/app/model.py\", line 50, in forward\n    out = flash_attn_qkvpacked_func(qkv, 0.0, causal=True)\n"
            "  File \"/home/u/.local/lib/python3.10/site-packages/flash_attn/flash_attn_triton.py\", line 826, in _flash_attn_forward\n"
            "    _fwd_kernel[grid](")
    assert _top(text) == ("triton.kernel-version-drift", "fa2")


# -- oldtriton: code written for an older Triton, said in words --------------------------------------------------------
@pytest.mark.parametrize("text", [
    "The node's attention kernel was written for an older Triton (2.1) and does not compile on 3.3",
    "Looks like this repo is coded for an earlier version of Triton; torch 2.7 brings Triton 3.3.",
])
def test_code_written_for_an_older_triton(text):
    assert "triton.kernel-version-drift" in _ids(text)


def test_written_for_triton_without_another_release_is_nothing():
    assert "triton.kernel-version-drift" not in _ids("This kernel is written for Triton and runs on every GPU we have.")
