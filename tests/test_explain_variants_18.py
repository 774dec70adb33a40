"""Variants for the mechanisms round 12 (fixtures/errors/round12/, training material since 2026-11-28, helper ex18)
taught explain. No real text is a case here: each is written by hand from the mechanism, with other paths, versions,
GPUs, wrappers and wordings; the near misses say what must NOT be claimed.

  compile-failed   torch.utils.cpp_extension's "Error compiling objects for extension" (builds.toml build.compile-failed);
                   FA2's kernels by their mangled names in a build log (attribution.toml, fa2's files)
  absent-output    a backend named as absent ("No module 'xformers'") made no black output (attn.wrong-output)
  replaced-torch   xformers installed, then torch says the driver is too old (xformers.toml xformers.replaced-torch)
  nan-loss         a NaN loss or NaN gradients said on a line that names the backend (attention.toml attn.nan-output)
  mlx              MLX's "[scaled_dot_product_attention] ..." errors are no PyTorch SDPA's (attribution.toml "none" files,
                   attribution/ first_named)
  name-guard       NameError for a guarded module (`xformers`, `flash_attn`, `sageattention`) (attn.import-guard)
  xf-available     diffusers' training scripts: "xformers is not available. Make sure it is installed correctly"
                   (xformers.not-installed)
  bwd-head-dim     the FastChat/LLaVA monkey patches' "only supported on A100 or H100 GPU ... head dim > 64 backward"
                   warning (flash_attn.toml fa2.bwd-head-dim-gpu)
  ptxas-failed     Triton's "`ptxas` failed with error code N" with no ptxas message (triton.toml triton.ptxas-failed)
  dropout          a backend without attention dropout (attention.toml attn.dropout-unsupported)
  sdpa-listed      the lower-case `sdpa` listed with transformers' other attn_implementation values is SDPA
                   (attribution.toml, sdpa's names)
  onnx             the ONNX exporter has no conversion for an attention op (attention.toml attn.onnx-export-unsupported)
  bad-results      bad results with the backend on, no convergence until it is removed, unexpected zero output
                   (attention.toml attn.wrong-output)
  captured-grad    FlexAttention before torch 2.6 without gradients for captured score_mod tensors
                   (flex.toml flex.captured-buffer-grad)
  drops-rotary     diffusers' generic processor ignores the model's rotary embedding
                   (frameworks.toml diffusers.processor-drops-rotary)
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids, tb


# --- compile-failed ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ("  Building wheel for flash-attn (setup.py) ... \n"
     "  File \"/tmp/pip-install-k2/flash-attn_9f8e/setup.py\", line 311, in <module>\n"
     "  File \"/home/u/.venv/lib/python3.11/site-packages/torch/utils/cpp_extension.py\", line 2110, in _run_ninja_build\n"
     "    raise RuntimeError(message) from e\n"
     "RuntimeError: Error compiling objects for extension", "fa2"),
    ("  File \"C:\\\\src\\\\xformers\\\\setup.py\", line 540, in <module>\n"
     "  File \"C:\\\\Python310\\\\lib\\\\site-packages\\\\torch\\\\utils\\\\cpp_extension.py\", line 1909, in _run_ninja_build\n"
     "    raise RuntimeError(message) from e\n"
     "RuntimeError: Error compiling objects for extension", "xformers"),
    ("    ptxas info    : Compiling entry function '_ZN5flash25flash_bwd_dot_do_o_kernelILb1E22Flash_bwd_kernel_traits' "
     "for 'sm_86'\n    ptxas info    : Used 64 registers, 560 bytes cmem[0]\nRuntimeError: Error compiling objects for "
     "extension", "fa2"),
    ("sageattention build: RuntimeError: Error compiling objects for extension (setup.py bdist_wheel, CUDA 12.8)", "sage"),
])
def test_cpp_extension_compile_failure_is_the_build_of_the_backend_named(text, backend):
    assert _top(text) == ("build.compile-failed", backend)


def test_another_extensions_compile_failure_is_not_claimed():
    text = ("  File \"/opt/apex/setup.py\", line 880, in <module>\n"
            "  File \"/usr/lib/python3/dist-packages/torch/utils/cpp_extension.py\", line 2104, in _run_ninja_build\n"
            "RuntimeError: Error compiling objects for extension")
    assert "build.compile-failed" not in _ids(text)


def test_sdpas_vendored_kernel_by_its_mangled_name_is_not_fa2():
    from attn_doctor.knowledge.attribution import backend_named
    assert backend_named("ptxas info    : Compiling entry function '_Z16flash_fwd_kernelI23Flash_fwd_kernel_traits' for 'sm_80'") == "fa2"
    assert backend_named("ptxas info    : Compiling entry function '_ZN13pytorch_flash16flash_fwd_kernelI23Flash_fwd_kernel_traits' for 'sm_80'") != "fa2"


# --- absent-output ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "No module 'xformers' and black images",
    "[Bug]: No module \"xformers\" then black image on every generation",
    "No module named 'xformers' -> black images",
    "without xformers the images are black",
])
def test_a_backend_named_as_absent_made_no_black_output(text):
    assert "attn.wrong-output" not in _ids(text)


@pytest.mark.parametrize("text,backend", [
    ("xformers gives black images on an RTX 3060", "xformers"),
    ("Sage Attention produces noisy output on sm90", "sage"),
])
def test_a_backend_named_as_running_still_owns_its_black_output(text, backend):
    assert _top(text) == ("attn.wrong-output", backend)


# --- replaced-torch ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "When I install xformers manually, the script stops and tells me that my GPU driver is too old.",
    # (on one line with torch's own message, cuda.driver-too-old explains that line: the install must be a line above it)
    "After upgrading xformers to 0.0.28 the webui stops at start-up:\nUserWarning: CUDA initialization: The NVIDIA driver "
    "on your system is too old (found version 11080).",
    ("C:\\sd> venv\\Scripts\\pip install xformers\nSuccessfully installed torch-2.5.1 xformers-0.0.28.post3\n"
     "C:\\sd> webui-user.bat\nRuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please "
     "update your GPU driver"),
    "installed the latest xformers in the ComfyUI venv; now ComfyUI says the CUDA driver is too old",
])
def test_installing_xformers_then_a_driver_too_old_is_the_torch_it_brought(text):
    assert _top(text) == ("xformers.replaced-torch", "xformers")


def test_a_driver_too_old_without_an_xformers_install_is_the_drivers():
    assert _top("RuntimeError: The NVIDIA driver on your system is too old (found version 11040).")[0] != "xformers.replaced-torch"
    assert "xformers.replaced-torch" not in _ids("I installed xformers 0.0.29 and my driver is 550, which is fine")


# --- nan-loss ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ("Since I switched to xformers 0.0.16 the loss becomes nan after 300 steps", "xformers"),
    ("with --enable_xformers_memory_efficient_attention the gradients of the UNet are all NaN", "xformers"),
    ("flash_attn_varlen_func backward: gradients were nan on an H100 with bf16", "fa2"),
    ("FlexAttention with a score_mod: loss=nan from the first step", "flex"),
    ("用 sageattention 训练 LoRA 时 loss is nan", "sage"),
])
def test_a_nan_loss_said_with_the_backend(text, backend):
    assert _top(text) == ("attn.nan-output", backend)


@pytest.mark.parametrize("text", [
    "Steps:  15%|#5        | 120/800 [01:10<06:40, 1.70it/s, loss=nan, lr=1e-05]",
    "epoch 3: loss is nan, grad_norm inf",
    "the gradients are nan in the text encoder (eager attention)",
])
def test_a_nan_loss_naming_no_backend_is_not_claimed(text):
    assert "attn.nan-output" not in _ids(text)


# --- mlx --------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "apple silicon: ValueError: [scaled_dot_product_attention] mismatching batch dimension for input with shape (2,16,300,64).",
    "ValueError: [scaled_dot_product_attention] query, keys and values must have the same dtype",
    tb(("/Users/me/venv/lib/python3.12/site-packages/mlx_lm/models/base.py", 111, "scaled_dot_product_attention",
        "return mx.fast.scaled_dot_product_attention("),
       error="ValueError: [scaled_dot_product_attention] the head dimension of the query must match the keys'"),
])
def test_mlx_fused_attention_is_not_pytorch_sdpa(text):
    assert _top(text)[1] != "sdpa"


def test_pytorchs_own_sdpa_message_is_still_sdpa():
    assert _top("RuntimeError: scaled_dot_product_attention fails with head_dim 80 on this GPU")[1] == "sdpa"


# --- name-guard -------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ("[Bug]: NameError: name 'xformers' is not defined", "xformers"),
    (tb(("/srv/ComfyUI/custom_nodes/some-node/sgm/modules/attention.py", 402, "forward",
         "out = xformers.ops.memory_efficient_attention(q, k, v, attn_bias=None, op=self.attention_op)"),
        error="NameError: name 'xformers' is not defined"), "xformers"),
    (tb(("/home/u/proj/model/attn.py", 58, "forward", "out = flash_attn.flash_attn_func(q, k, v, causal=True)"),
        error="NameError: name 'flash_attn' is not defined"), "fa2"),
    ("Error occurred when executing Sampler: name 'sageattention' is not defined", "sage"),
])
def test_a_guarded_module_left_unbound(text, backend):
    assert _top(text) == ("attn.import-guard", backend)


@pytest.mark.parametrize("text", [
    "NameError: name 'torch' is not defined",
    "NameError: name 'xformers_available' is not defined",
])
def test_other_names_are_not_the_attention_guard(text):
    assert "attn.import-guard" not in _ids(text)


# --- xf-available -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "ValueError: xformers is not available. Make sure it is installed correctly",
    tb(("/workspace/diffusers/examples/dreambooth/train_dreambooth_lora.py", 873, "main",
        'raise ValueError("xformers is not available. Make sure it is installed correctly")'),
       error="ValueError: xformers is not available. Make sure it is installed correctly"),
    "[rank0]: ValueError: xformers is not available.  Make sure it is installed correctly",
])
def test_diffusers_scripts_xformers_check(text):
    assert _top(text) == ("xformers.not-installed", "xformers")


def test_another_packages_check_is_not_xformers():
    assert "xformers.not-installed" not in _ids("ValueError: bitsandbytes is not available. Make sure it is installed correctly")


# --- bwd-head-dim -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "/opt/FastChat/fastchat/train/llama_flash_attn_monkey_patch.py:104: UserWarning: Flash attention is only supported on "
    "A100 or H100 GPU during training due to head dim > 64 backward.ref: https://github.com/HazyResearch/flash-attention/issues/190",
    "D:\\llava\\train\\llama2_flash_attn_monkey_patch.py:95: UserWarning: Flash attention is only supported on A100 or H100 "
    "GPUs during training due to head dim > 64 backward.",
    "warnings: FlashAttention is only supported on A100 or H100 GPU during training due to head dim > 64 backward",
])
def test_the_monkey_patches_warning_of_the_backward_head_dim_limit(text):
    assert _top(text) == ("fa2.bwd-head-dim-gpu", "fa2")


def test_a_sentence_about_a100_support_without_the_head_dim_is_not_it():
    assert "fa2.bwd-head-dim-gpu" not in _ids("Flash attention is only supported on A100 or H100 GPU in our cluster")


# --- ptxas-failed -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ("`ptxas` failed with error code 4294967295 `ptxas` stderr:\n" + tb(
        ("E:\\AI\\python_embeded\\Lib\\site-packages\\sageattention\\quant_per_block.py", 63, "per_block_int8",
         "quant_per_block_int8_kernel[grid]("),
        ("E:\\AI\\python_embeded\\Lib\\site-packages\\triton\\backends\\nvidia\\compiler.py", 312, "make_cubin",
         "raise RuntimeError(f'`ptxas` failed with error code {e.returncode}: \\n{log}')"),
        error="RuntimeError: `ptxas` failed with error code 4294967295:"), "sage"),
    (tb(("/srv/venv/lib/python3.11/site-packages/torch/_inductor/runtime/triton_heuristics.py", 540, "_precompile_config",
         "binary = triton.compile(*compile_args, **compile_kwargs)"),
        ("/srv/venv/lib/python3.11/site-packages/triton/backends/nvidia/compiler.py", 420, "make_cubin",
         "raise PTXASError(f\"{error}\\n\""),
        error="triton.runtime.errors.PTXASError: `ptxas` failed with error code -1"), None),
    ("triton.runtime.errors.PTXASError: `ptxas` failed with error code 4294967295 `ptxas` stderr:\n\nRepro command: "
     "C:\\Users\\李雷\\AppData\\Local\\Temp\\ptxas.exe -lineinfo -v --gpu-name sm_89 tmpa1b2.ptx", None),
])
def test_a_ptxas_that_exited_without_a_message(text, backend):
    assert _top(text) == ("triton.ptxas-failed", backend)


def test_ptxas_own_message_names_the_cause_first():
    text = ("ptxas C:\\Users\\me\\AppData\\Local\\Temp\\tmpumohz431.ptx, line 387; error   : Feature '.bf16' requires .target "
            "sm_80 or higher\n!!! Exception during processing !!! `ptxas` failed with error code 4294967295")
    assert _top(text)[0] == "triton.ptx-feature-arch"


def test_another_librarys_triton_kernel_is_not_claimed():
    text = tb(("D:\\unsloth\\unsloth\\kernels\\rms_layernorm.py", 144, "forward", "fx[(n_rows,)]("),
              ("D:\\envs\\cuda\\Lib\\site-packages\\triton\\backends\\nvidia\\compiler.py", 309, "make_cubin",
               "raise RuntimeError(f'`ptxas` failed with error code {e.returncode}: \\n{log}')"),
              error="RuntimeError: `ptxas` failed with error code 4294967295:")
    assert "triton.ptxas-failed" not in _ids(text)


# --- dropout ----------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ("ValueError: `dropout_p` > 0 is not yet supported for flash-attn 3.", "fa3"),
    ("ValueError: `dropout_p` is not yet supported for Sage attention.", "sage"),
    ("ValueError: `flex_attention` does not support `dropout`. Please use it with inference only (`model.eval()`)", "flex"),
    ("FA3 doesn't have dropout, so attention_dropout=0.1 in the config is silently ignored", "fa3"),
    ("flash_attn_interface gives different dropout masks in the forward and backward", "fa3"),
    ("SageAttention 不 support dropout? -- SageAttention does not support attention dropout", "sage"),
])
def test_a_backend_without_attention_dropout(text, backend):
    assert _top(text) == ("attn.dropout-unsupported", backend)


@pytest.mark.parametrize("text", [
    "dropout is not supported",  # no backend named
    "The model does not have dropout layers, training with flash_attn_func",
    "does flex_attention support dropout?",  # a question, not a statement that it does not
    # one API's or configuration's limit of a backend that has dropout
    "NotImplementedError: dropout is not supported on the non-autograd API of xformers.ops.fmha",
    "cuDNN SDPA: s_q not a multiple of 64 with padding/dropout is not supported with cudnn version 9.0.0",
])
def test_dropout_near_misses(text):
    assert "attn.dropout-unsupported" not in _ids(text)


# --- sdpa-listed ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ("Using sdpa and flash_attention_2 error", "sdpa"),
    ("'sdpa' / 'flash_attention_2' both fail to load Whisper large-v3", "sdpa"),
    ("flash_attention_2 and sdpa error on Qwen2-Audio", "fa2"),  # the one named first
])
def test_the_attn_implementation_values_listed_together(text, backend):
    assert _top(text)[1] == backend


def test_sdpa_listed_with_eager_names_sdpa():
    from attn_doctor.knowledge.attribution import backend_named
    assert backend_named("sdpa or eager: both crash with Gemma 3 on transformers 4.51") == "sdpa"
    assert backend_named("attn_implementation: `sdpa` or `eager`, the same error") == "sdpa"


def test_a_lower_case_sdpa_alone_is_still_no_backend_named():
    from attn_doctor.knowledge.attribution import backend_named
    assert backend_named("pip install sdpa-utils and run") is None
    assert backend_named("the sdpa config key is ignored") is None


# --- onnx -------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ("torch.onnx.errors.UnsupportedOperatorError: Exporting the operator 'aten::scaled_dot_product_attention' to ONNX "
     "opset version 13 is not supported. Please feel free to request support", "sdpa"),
    ("UnsupportedOperatorError: Exporting the operator 'flash_attn::_flash_attn_forward' to ONNX opset version 17 is not "
     "supported.", "fa2"),
    ("UnsupportedOperatorError: Exporting the operator 'xformers::efficient_attention_forward_cutlass' to ONNX opset "
     "version 16 is not supported.", "xformers"),
    ("torch.onnx._internal.exporter.OnnxExporterError: Unsupported FX nodes: {'call_function': "
     "['aten._scaled_dot_product_efficient_attention.default']}.", "sdpa"),
])
def test_the_onnx_exporter_without_a_conversion_for_attention(text, backend):
    assert _top(text) == ("attn.onnx-export-unsupported", backend)


@pytest.mark.parametrize("text", [
    "UnsupportedOperatorError: Exporting the operator 'aten::grid_sampler' to ONNX opset version 11 is not supported.",
    "torch.onnx._internal.exporter.OnnxExporterError: Unsupported FX nodes: {'call_function': ['aten.unfold.default']}.",
])
def test_other_ops_the_exporter_lacks_are_not_attention(text):
    assert "attn.onnx-export-unsupported" not in _ids(text)


# --- bad-results ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ("Textual inversion: I get bad results when xformers is enabled (RTX 3080, built from source)", "xformers"),
    ("wrong outputs using flash_attn 2.5.6 on a T4 (Colab), sdpa is fine", "fa2"),
    ("The detector did not converge on Windows. After uninstalling flash_attn, it trained normally with SDPA", "fa2"),
    ("训练 LoRA: the loss won't converge\nwithout sageattention (disabling --use-sage-attention) it converges", "sage"),
    ("flex_attention with a sliding-window block mask: unexpected zero output rows for the first tokens", "flex"),
])
def test_bad_results_with_the_backend_on(text, backend):
    assert _top(text) == ("attn.wrong-output", backend)


@pytest.mark.parametrize("text", [
    "bad results when xformers is disabled",
    "the model did not converge, even without flash_attn",
    "Without module 'xformers' (maybe) leads to the poor result, while with module 'xformers' the code ran failed.",
    "bad images with LoRA rank 4 on SD 1.5",
])
def test_bad_results_near_misses(text):
    assert "attn.wrong-output" not in _ids(text)


# --- captured-grad ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "AssertionError: Captured buffers that require grad are not yet supported.",
    tb(("/home/u/envs/t25/lib/python3.10/site-packages/torch/_higher_order_ops/flex_attention.py", 684, "forward",
        'assert not any(buf.requires_grad for buf in score_mod_other_buffers), "Captured buffers that require grad are not yet supported."'),
       error="AssertionError: Captured buffers that require grad are not yet supported."),
    "[rank1]: torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n[rank1]: AssertionError: Captured buffers "
    "that require grad are not yet supported.",
    "learnable ALiBi slopes in a score_mod -> Captured buffers that require grad are not supported (torch 2.5.1)",
])
def test_flex_without_gradients_for_captured_buffers(text):
    assert _top(text) == ("flex.captured-buffer-grad", "flex")


def test_a_captured_buffer_without_grad_is_not_it():
    assert "flex.captured-buffer-grad" not in _ids("score_mod captures a bias buffer (requires_grad=False); flex_attention runs fine")


# --- drops-rotary -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ("cross_attention_kwargs ['freqs_cis'] are not expected by XFormersAttnProcessor and will be ignored.", "xformers"),
    ("2025-09-01 10:00:01 WARNING cross_attention_kwargs ['image_rotary_emb'] are not expected by XFormersAttnProcessor "
     "and will be ignored.", "xformers"),
    ("cross_attention_kwargs ['image_rotary_emb', 'attention_mask'] are not expected by AttnProcessor2_0 and will be ignored.",
     "sdpa"),
])
def test_a_generic_processor_drops_the_rotary_embedding(text, backend):
    assert _top(text) == ("diffusers.processor-drops-rotary", backend)


@pytest.mark.parametrize("text", [
    "cross_attention_kwargs ['scale'] are not expected by AttnProcessor2_0 and will be ignored.",  # a LoRA scale: harmless
    "cross_attention_kwargs ['freqs_cis'] are not expected by AttnProcessor and will be ignored.",  # no backend named
])
def test_processor_warning_near_misses(text):
    assert "diffusers.processor-drops-rotary" not in _ids(text)
