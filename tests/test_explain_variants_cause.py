"""Variants for the cause audit (issue 23, helper ex34; benchmarks/results/cause-audit-2026-11-28.md): texts whose backend
explain named right but whose cause it named wrong, so that the fix it printed was another failure's.

Every case was written by hand (2026-11-28) from the mechanism, NOT copied from a real thread: another path, version,
symbol, wrapper or wording. Each positive case asserts the entry (and backend) explain reports first; the near misses
beside each mechanism assert what must NOT be reported.

Mechanisms (module or knowledge file: entry):
  catch-all-line  knowledge/match.py _rank: a catch-all kept for a line no specific cause explains is reported on that
                  line, after the specific entry that explains its first line (import.failed below xformers.not-installed)
  launch-macro    (unchanged) "no kernel image" out of a backend's own launch macro stays gpu.arch-not-in-torch in the
                  backend's words (attribution.toml [wording]); the audit widened two labels to it instead
  fa3-elsewhere   attention.toml attn.kernel-launch-error: FA3 (Hopper-only) said to be run on another GPU, over the
                  CUDA error it ends in
  cu-seqlens      flash_attn.toml varlen.cu-seqlens (not fa2.input-shape): "cu_seqlens_q must have shape (batch_size + 1)"
  nvcc-v          builds.toml build.no-nvcc: a setup.py traceback through its `nvcc -V` call under CUDA_HOME (and
                  build.isolation no longer guesses an isolated build over it)
  monitor-black   attention.toml attn.wrong-output: a monitor or the computer going black during generation is no output
  specialize      attribution.toml [[specialize]]: a backend-neutral entry said by the backend's own entry once the log
                  names that backend: Triton out of shared memory under flex (flex.shared-memory), NaN gradients out of
                  SDPA (sdpa.backward-nan), "does not compile" said of FlexAttention (flex.compile-failed)
  new entries     (b) causes no entry described, written from their threads: flex.dispatch-mode-unsupported (flex.toml),
                  sdpa.mps-large-attention (sdpa.toml), sage.fused-dtype-dispatch (sage.toml),
                  transformers.flex-blockmask-as-tensor (frameworks.toml)
  wordings        the specific entries' own failures in other words: build.cuda-too-old ("CUDA 11 and above"),
                  xformers.no-operator (0.0.1x's AttentionOpDispatch), fa2.api-renamed (FA2 names asked of flash-attn 1.x),
                  sdpa.op-not-on-device (baddbmm in Half on CPU under SDPA), attn.kernel-launch-error (the grid-limit title
                  with xformers), app.backend-selection-ignored ("using X despite selecting Y")
"""

from __future__ import annotations

import pytest

from explain_top import first as _first, ids as _ids, tb


# catch-all-line
@pytest.mark.parametrize("missing, later", [
    ("ModuleNotFoundError: No module named 'xformers'",
     "ImportError: xformers is required for --mem_eff_attn; see the install notes"),
    ("ModuleNotFoundError: No module named 'sageattention'",
     "ImportError: sageattention extension failed to initialise (see log above)"),
])
def test_a_catch_all_is_reported_where_no_specific_cause_explains_it(missing, later):
    text = "\n".join([missing] + [f"step {i}: loading shard" for i in range(15)] + [later])
    ids = _ids(text)
    assert ids[0] in ("xformers.not-installed", "sage.not-installed"), ids
    assert "import.failed" in ids  # still reported, for its own line


def test_a_catch_all_whose_first_line_nothing_explains_stays_first():
    """Near miss: the catch-all's first line is not explained by a specific entry: it is reported there, first."""
    text = ("ImportError: cannot import name 'fused_rotary' from 'flash_attn.ops' (/opt/venv/lib/python3.11/site-packages/"
            "flash_attn/ops/__init__.py)\n" + "\n".join(f"retry {i}" for i in range(15))
            + "\nModuleNotFoundError: No module named 'xformers'")
    assert _ids(text)[0] == "import.failed"


# launch-macro (kept as it was: gpu.arch-not-in-torch in the backend's words, tests/test_explain_field.py)
def test_no_kernel_image_from_a_backends_launch_macro_is_read_in_the_backends_words():
    """"no kernel image" out of xformers' bundled FA3 launch macro stays gpu.arch-not-in-torch, attributed to xformers, whose
    wording says xformers has no kernel for this GPU (the cause audit widened two labels to it rather than change it)."""
    from attn_doctor.explain import match
    text = ("CUDA error (/tmp/pip-build/xformers/third_party/flash-attention/hopper/flash_bwd_launch_template.h:92): no kernel "
            "image is available for execution on the device")
    m = match(text)[0]
    assert (m.entry.id, m.backend) == ("gpu.arch-not-in-torch", "xformers") and m.title.startswith("xformers")


# fa3-elsewhere
@pytest.mark.parametrize("text", [
    "Running flash_attn_3 on a B200 (sm_100) fails at once: torch.AcceleratorError: CUDA error: unspecified launch failure",
    "FlashAttention-3 on my RTX 5090, built from hopper/, then\n\n`RuntimeError: CUDA error: unspecified launch failure`",
    "FA3's Hopper-only entry points are reached on an L40S and fail at launch with CUDA error: unspecified launch failure",
])
def test_fa3_run_on_another_gpu_fails_at_launch(text):
    assert _first(text)[0] == "attn.kernel-launch-error"


def test_fa2_with_the_same_launch_failure_is_not_fa3s_hopper_path():
    """Near misses: FA2 (no Hopper-only path) with the same words stays a CUDA fault; FA2's own flash_attn_interface.py
    frame with "no kernel image" stays gpu.arch-not-in-torch in FA2's words."""
    assert _first("flash-attn 2.7.4 on a B200: RuntimeError: CUDA error: unspecified launch failure")[0] == "cuda.kernel-fault"
    text = tb(("/usr/local/lib/python3.11/dist-packages/flash_attn/flash_attn_interface.py", 96, "_flash_attn_forward",
               "out, softmax_lse, S_dmask, rng_state = flash_attn_gpu.fwd("),
              error="RuntimeError: CUDA error: no kernel image is available for execution on the device")
    assert _first(text) == ("gpu.arch-not-in-torch", "fa2")


# cu-seqlens
@pytest.mark.parametrize("text", [
    "RuntimeError: cu_seqlens_k must have shape (batch_size + 1)",
    "qwen2-vl 训练报错 RuntimeError: cu_seqlens_q must have shape (batch_size + 1)",
    tb(("/opt/conda/lib/python3.10/site-packages/flash_attn/flash_attn_interface.py", 85, "_flash_attn_varlen_forward",
        "out, softmax_lse, S_dmask, rng_state = flash_attn_cuda.varlen_fwd("),
       error="RuntimeError: cu_seqlens_q must have shape (batch_size + 1)"),
])
def test_cu_seqlens_of_the_wrong_length_is_varlen_cu_seqlens(text):
    assert _first(text) == ("varlen.cu-seqlens", "fa2")


def test_a_tensor_of_the_wrong_shape_stays_fa2_input_shape():
    """Near miss: q/k/v's own CHECK_SHAPE is the layout (fa2.input-shape), not the prefix sums."""
    assert _first("RuntimeError: q must have shape (batch_size, seqlen_q, num_heads, head_size_og)")[0] == "fa2.input-shape"


# nvcc-v
@pytest.mark.parametrize("setup, call", [
    ("/tmp/pip-install-k2/flash-attn_77/setup.py", '    raw_output = subprocess.check_output([cuda_dir + "/bin/nvcc", "-V"], universal_newlines=True)'),
    ("C:\\Users\\me\\AppData\\Local\\Temp\\pip-install-9q\\block-sparse-attn_1\\setup.py",
     "    raw_output = subprocess.check_output([cuda_dir + '/bin/nvcc', '-V'], universal_newlines=True)"),
])
def test_a_setup_traceback_through_nvcc_v_is_no_nvcc(setup, call):
    text = ("Collecting flash-attn==2.6.3\n  Downloading flash_attn-2.6.3.tar.gz (2.6 MB)\n  Preparing metadata (setup.py) ... error\n"
            "  error: subprocess-exited-with-error\n      Traceback (most recent call last):\n"
            f'        File "{setup}", line 160, in <module>\n'
            "          _, bare_metal_version = get_cuda_bare_metal_version(CUDA_HOME)\n"
            f'        File "{setup}", line 83, in get_cuda_bare_metal_version\n      {call}')
    assert _first(text)[0] == "build.no-nvcc"


def test_a_metadata_error_with_no_output_is_still_the_isolated_build():
    """Near miss: pip's metadata step failing with nothing under it: build.isolation's guess stands."""
    text = ("Collecting flash-attn\n  Downloading flash_attn-2.8.3.tar.gz (8.4 MB)\n"
            "  Preparing metadata (setup.py) ... error\n  error: subprocess-exited-with-error")
    assert _first(text)[0] == "build.isolation"


# monitor-black
@pytest.mark.parametrize("text", [
    "sage attention on: mid-generation my monitor gets a black screen and the PC needs a hard reset",
    "generating with xformers, display turns to black screen after a minute (fans loud, process alive)",
])
def test_a_monitor_going_black_is_no_black_output(text):
    assert "attn.wrong-output" not in _ids(text)


def test_black_images_generated_with_a_backend_stay_wrong_output():
    """Near miss: the output itself black."""
    assert _first("generating with --use-sage-attention gives black images on Qwen-Image")[0] == "attn.wrong-output"


# specialize
@pytest.mark.parametrize("text", [
    "compiled flex_attention on a 4090 fails at head_dim 256: looks like a triton kernel OOM (works at head_dim 64)",
    "torchtune packed=True with FlexAttention on L40S: triton.runtime.errors.OutOfResources in the compiled block",
])
def test_triton_out_of_shared_memory_under_flex_is_flex_shared_memory(text):
    assert _first(text) == ("flex.shared-memory", "flex")


def test_triton_out_of_shared_memory_in_another_kernel_is_not_flex():
    """Near miss: a Triton kernel of its own (no flex named) stays the generic Triton entry (or nobody's)."""
    text = tb(("/srv/app/kernels/fused_norm.py", 88, "forward", "_layer_norm_fwd_kernel[grid](x, y, w, b, N, eps)"),
              error="triton.runtime.errors.OutOfResources: out of resource: shared memory")
    assert _first(text)[0] != "flex.shared-memory"


@pytest.mark.parametrize("text", [
    "[XPU] NaN gradients after F.scaled_dot_product_attention with is_causal=True",
    "torch.nn.functional.scaled_dot_product_attention's memory-efficient kernel gives nan grads in loss.backward() on bf16",
])
def test_nan_gradients_out_of_sdpa_are_sdpa_backward_nan(text):
    assert _first(text) == ("sdpa.backward-nan", "sdpa")


def test_nan_in_sdpas_forward_stays_nan_output():
    """Near miss: NaN out of SDPA's forward (no gradients said) is not sdpa.backward-nan: the generic NaN entry, or, where
    the text names fully masked rows, attn.fully-masked-rows (helper ex45: the specific mechanism, pytorch/pytorch#103963)."""
    assert _first("scaled_dot_product_attention returns NaN outputs for fully masked rows in fp16")[0] == "attn.fully-masked-rows"
    assert _first("scaled_dot_product_attention returns NaN outputs for long rows in fp16")[0] == "attn.nan-output"


@pytest.mark.parametrize("text", [
    "create_block_mask with my flex_attention document mask compiles fine on the nightly but it does not compile on torch 2.5.1",
    "flex attention does not compile under torch 2.6 with dynamic=True (error below)",
])
def test_does_not_compile_said_of_flex_is_torch_compile(text):
    assert _first(text) == ("flex.compile-failed", "flex")


def test_does_not_compile_said_of_a_source_build_stays_a_build():
    """Near miss: flash-attn's own source build."""
    assert _first("flash-attn 2.8.3 does not compile on Windows with CUDA 12.8 (nvcc errors below)")[0] != "flex.compile-failed"


# ---- pattern gaps: the specific entry's own failure in another wording -------------------------------------------------------

# build.cuda-too-old: the major alone
@pytest.mark.parametrize("text", [
    "      RuntimeError: FlashAttention is only supported on CUDA 11 and above",
    "pip install flash_attn fails: FlashAttention is only supported on CUDA 12 and above. Note: make sure nvcc has a supported version",
])
def test_flash_attention_cuda_major_too_old(text):
    assert _first(text)[0] == "build.cuda-too-old"


def test_flash_attention_on_cuda_said_in_passing_is_not_a_build():
    """Near miss: a sentence about FlashAttention and CUDA with no version refusal."""
    assert _first("FlashAttention is supported on CUDA and ROCm, see the README")[0] != "build.cuda-too-old"


# xformers.no-operator: xformers 0.0.1x's words
@pytest.mark.parametrize("text", [
    "NotImplementedError: No operator found for this attention: AttentionOpDispatch(dtype=torch.float16, device=device(type='cpu'), "
    "k=64, has_dropout=False, attn_bias_type=<class 'NoneType'>, kv_len=4096, q_len=4096)",
    "LoRA training on the CPU says \"No operator found for this attention: {self}\" and stops",
])
def test_old_xformers_dispatcher_refusal_is_no_operator(text):
    assert _first(text) == ("xformers.no-operator", "xformers")


def test_a_dispatch_of_another_library_is_not_xformers():
    """Near miss: "No operator found" of another dispatcher (an ONNX runtime kernel registry)."""
    assert _first("onnxruntime: No operator found for this node: GroupQueryAttention(com.microsoft)")[0] != "xformers.no-operator"


# fa2.api-renamed: FA2's functions at the top of a flash-attn 1.x
@pytest.mark.parametrize("text", [
    "AttributeError: module 'flash_attn' has no attribute 'flash_attn_varlen_qkvpacked_func'",
    "    out = flash_attn.flash_attn_kvpacked_func(q, kv)\nAttributeError: module \"flash_attn\" has no attribute \"flash_attn_kvpacked_func\"",
])
def test_fa2_names_missing_from_the_package_are_the_fa1_api(text):
    assert _first(text) == ("fa2.api-renamed", "fa2")


def test_another_attribute_of_flash_attn_is_not_the_fa1_api():
    """Near misses: an attribute that is no FA2 function (a version probe), and flash_attn_func itself missing (a flash_attn
    folder with no FA2 in it: import.namespace-package)."""
    assert _first("AttributeError: module 'flash_attn' has no attribute '__version__'")[0] != "fa2.api-renamed"
    assert _first("AttributeError: module 'flash_attn' has no attribute 'flash_attn_func'")[0] == "import.namespace-package"


# sdpa.op-not-on-device: SDPA's math path on CPU in float16
@pytest.mark.parametrize("text", [
    "attn = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)\n"
    "RuntimeError: \"baddbmm_with_gemm\" not implemented for 'Half'",
    "from torch.nn.functional import scaled_dot_product_attention as sdpa\n...\n  File \"run.py\", line 9, in <module>\n"
    "    y = sdpa(q, k, v)\nRuntimeError: \"bmm\" not implemented for 'Half'",
])
def test_sdpa_math_on_cpu_half_is_not_on_that_device(text):
    assert _first(text) == ("sdpa.op-not-on-device", "sdpa")


def test_baddbmm_half_on_cpu_without_sdpa_is_not_sdpas():
    """Near miss: the same op refused in a model's own matmul attention, SDPA named nowhere."""
    text = "scores = torch.baddbmm(bias, q, k.transpose(1, 2))\nRuntimeError: \"baddbmm_with_gemm\" not implemented for 'Half'"
    assert _first(text)[0] != "sdpa.op-not-on-device"


# attn.kernel-launch-error: the grid limit retold, the error first
@pytest.mark.parametrize("text", [
    "CUDA error: invalid configuration argument when using XFormersAttnProcessor with 64 frames",
    "[Bug] CUDA error: invalid configuration argument in memory_efficient_attention at batch 96",
])
def test_grid_limit_title_with_xformers_is_a_launch_error(text):
    assert _first(text) == ("attn.kernel-launch-error", "xformers")


def test_invalid_configuration_without_an_attention_backend_is_not_claimed():
    """Near miss: the same CUDA error in a conv layer, no attention library named."""
    assert "attn.kernel-launch-error" not in _ids("CUDA error: invalid configuration argument in conv3d for this video size")


# app.backend-selection-ignored: "using X despite selecting Y"
@pytest.mark.parametrize("text", [
    "Using old sageattention despite setting attention_mode = 'sageattn_3'",
    "the node runs sdpa even though I selected flash_attn_3 as attention_mode",
])
def test_a_backend_run_despite_another_selection_is_the_selection_ignored(text):
    assert _first(text)[0] == "app.backend-selection-ignored"


def test_a_backend_chosen_for_a_reason_is_not_a_selection_ignored():
    """Near miss: the user's own choice said with "despite" (no selection overridden)."""
    assert _first("I am using sdpa despite its speed; memory is what matters here")[0] != "app.backend-selection-ignored"


# ---- (b) new entries for causes no entry described ----------------------------------------------------------------------------

# flex.dispatch-mode-unsupported
@pytest.mark.parametrize("text", [
    "NotImplementedError: There was no rule registered for HOP flex_attention and mode <torch.utils.flop_counter._FlopCounterMode object>",
    tb(("/srv/titan/torchtitan/models/attention.py", 88, "forward", "return flex_attention(q, k, v, block_mask=self.block_mask)"),
       error="NotImplementedError: There was no rule registered for HOP flex_attention_backward and mode CommDebugMode"),
])
def test_flex_under_a_dispatch_mode_without_its_rule(text):
    assert _first(text) == ("flex.dispatch-mode-unsupported", "flex")


def test_another_hop_without_a_rule_is_not_flex():
    """Near miss: the same message for another higher-order op."""
    assert _first("NotImplementedError: There was no rule registered for HOP while_loop and mode FakeTensorMode")[0] \
        != "flex.dispatch-mode-unsupported"


# sdpa.mps-large-attention
@pytest.mark.parametrize("text", [
    "out = torch.nn.functional.scaled_dot_product_attention(q, k, v)  # 24 heads x 32768 tokens on an M2 Max\n"
    "/AppleInternal/Library/BuildRoots/y/MPSCore/Types/MPSNDArray.mm:829: failed assertion `Error: total bytes of NDArray > 2**32'",
    "Regional prompts on my M3: \"Placeholder shape mismatches (expected 1 x 10 x 16384 x 64, got 1 x 10 x 4096 x 64)\"; chunking "
    "scaled_dot_product_attention in the attention processor fixes it",
])
def test_sdpa_score_matrix_over_mps_limit(text):
    assert _first(text) == ("sdpa.mps-large-attention", "sdpa")


def test_an_mps_array_limit_without_attention_is_not_sdpas():
    """Near miss: the same MPS limit hit by a convolution, attention named nowhere."""
    text = ("vae.decode(latents) on mps\n/AppleInternal/Library/BuildRoots/y/MPSCore/Types/MPSNDArray.mm:829: failed assertion "
            "`Error: total bytes of NDArray > 2**32'")
    assert _first(text)[0] != "sdpa.mps-large-attention"


# sage.fused-dtype-dispatch
@pytest.mark.parametrize("text", [
    "RuntimeError: void transpose_pad_permute_cuda(at::Tensor, at::Tensor, long long) failed to dispatch data type BFloat16",
    "Wan2GP: 'void mean_scale_fuse_quant_cuda(at::Tensor, at::Tensor, at::Tensor, at::Tensor, long long, float, long long) "
    "failed to dispatch data type Half'",
])
def test_sage_fused_op_without_the_dtype(text):
    assert _first(text) == ("sage.fused-dtype-dispatch", "sage")


def test_comfyuis_fallback_around_the_same_error_stays_the_fallback():
    """Near miss: ComfyUI caught it and ran PyTorch attention instead (sage.runtime-fallback's line)."""
    text = ("Error running sage attention: void quant_per_warp_int8_cuda(at::Tensor, at::Tensor, at::Tensor, long long, long long, "
            "long long) failed to dispatch data type BFloat16, using pytorch attention instead.")
    assert _first(text)[0] == "sage.runtime-fallback"


# transformers.flex-blockmask-as-tensor
@pytest.mark.parametrize("text", [
    tb(("/opt/venv/lib/python3.11/site-packages/transformers/models/gemma2/modeling_gemma2.py", 612, "_update_causal_mask",
        "if attention_mask is not None and attention_mask.dim() == 4:"),
       error="AttributeError: 'BlockMask' object has no attribute 'dim'"),
    "model = AutoModelForCausalLM.from_pretrained(name, attn_implementation=\"flex_attention\")  # TypeError: 'BlockMask' object is not subscriptable",
])
def test_a_blockmask_handled_as_a_tensor(text):
    assert _first(text)[0] == "transformers.flex-blockmask-as-tensor"


def test_a_blockmask_attribute_that_exists_is_not_this():
    """Near miss: a BlockMask used as one (its own attribute, printed in a log line)."""
    assert "transformers.flex-blockmask-as-tensor" not in _ids("block_mask.shape=(1, 1, 4096, 4096) sparsity=87.5%")


# fa2.generation-right-padding: said by a trainer's report
@pytest.mark.parametrize("text", [
    "GRPO with attn_implementation=\"flash_attention_2\" breaks: generation runs with the cache and padding_side=\"right\" from the tokenizer",
    "FA2 + use_cache=True in eval generation, tokenizer.padding_side = 'right' -> error",
])
def test_fa2_generation_with_right_padding_retold(text):
    assert _first(text)[0] == "fa2.generation-right-padding"


def test_right_padding_for_training_without_generation_is_not_this():
    """Near miss: FA2 training with right padding (no cache, no generation): fine."""
    assert _first("training with flash_attention_2 and padding_side='right' works after the fix")[0] != "fa2.generation-right-padding"


# the words of flex.no-triton under SageAttention (attribution.toml [wording]): SageAttention's dependency, not FlexAttention's
@pytest.mark.parametrize("text", [
    "Can't import SageAttention: No module named 'triton'",
    "ComfyUI portable, --use-sage-attention: ModuleNotFoundError: No module named 'triton' (sageattention 1.0.6)",
])
def test_triton_missing_under_sage_says_sage_needs_it(text):
    from attn_doctor.explain import match
    m = match(text)[0]
    assert m.backend == "sage" and "SageAttention" in m.title and "FlexAttention" not in m.title


def test_triton_missing_under_flex_keeps_flex_words():
    """Near miss: under flex the words stay FlexAttention's."""
    from attn_doctor.explain import match
    m = match("flex_attention: ModuleNotFoundError: No module named 'triton'")[0]
    assert m.backend == "flex" and "FlexAttention" in m.title
