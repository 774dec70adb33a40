"""`explain` on the mechanisms of knowledge/field6a.toml and the patterns and attribution rules widened
with them (issue 23, round 4a: new texts from the backends' own trackers, fixtures/errors/round4a/,
captured 2026-11-25 by the ex4a helper). Every case is a variant written here (other paths, versions,
GPUs, symbols, backends and wordings than the real texts and the entries' examples), so a rule fitted
to one sample fails; the near misses (another library's failure, the same words without the
mechanism) must stay silent or keep their own entry.
"""

from __future__ import annotations

import pytest

from attn_doctor.explain import match


def top(text):
    found = match(text)
    return (found[0].entry.id, found[0].backend) if found else (None, None)


def ids(text):
    return [m.entry.id for m in match(text)]


# ---- an attention op's schema refuses an argument's type (tensor where it takes int) ----------------

@pytest.mark.parametrize("text,backend", [
    ("RuntimeError: flash_attn::_flash_attn_varlen_backward() Expected a value of type 'int' for argument "
     "'max_seqlen_k' but instead found type 'Tensor'.", "fa2"),
    ("torch._dynamo.exc.TorchRuntimeError: Failed running call_function sageattention.qk_int8(...):\n"
     "sageattention::qk_int8_sv_f16_accum_f32_attn() Expected a value of type 'float' for argument 'sm_scale' "
     "but instead found type 'FakeTensor'.", "sage"),
])
def test_an_attention_op_refusing_an_argument_type_names_the_schema_mismatch(text, backend):
    assert top(text) == ("attn.op-arg-type", backend)


def test_another_ops_schema_error_is_not_attentions():
    text = "RuntimeError: torchvision::nms() Expected a value of type 'float' for argument 'iou_threshold' but instead found type 'Tensor'."
    assert "attn.op-arg-type" not in ids(text)


# ---- torch.compile cannot trace into the backend's call ---------------------------------------------

@pytest.mark.parametrize("text,backend", [
    ("/venv/lib/python3.11/site-packages/torch/_dynamo/variables/functions.py:1598: UserWarning: Dynamo does not "
     "know how to trace the builtin `flash_attn_3_cuda.PyCapsule.fwd.` This function is either a Python builtin "
     "(e.g. _warnings.warn) or a third-party C/C++ Python extension (perhaps created with pybind).", "fa3"),
    ("UserWarning: Graph break due to unsupported builtin xformers._C_flashattention.PyCapsule.fwd. This function "
     "is either a Python builtin or a third-party C/C++ Python extension.", "xformers"),
    ("  File \"/srv/venv/lib/python3.12/site-packages/flash_attn/cute/utils.py\", line 31, in is_fake_mode\n"
     "    return active_fake_mode() is not None\n"
     "torch._dynamo.exc.Unsupported: Attempted to call function marked as skipped", "cute"),
])
def test_an_untraceable_backend_call_is_named(text, backend):
    assert top(text) == ("compile.backend-untraceable", backend)


@pytest.mark.parametrize("text", [
    "UserWarning: Dynamo does not know how to trace the builtin `cv2.resize.` This function is either a Python builtin",
    "  File \"/app/augment.py\", line 12, in jitter\n    np.random.seed(seed)\n"
    "torch._dynamo.exc.Unsupported: Attempted to call function marked as skipped",
])
def test_other_libraries_graph_breaks_are_not_claimed(text):
    assert "compile.backend-untraceable" not in ids(text)


# ---- the extension's C++ standard is older than torch's headers need ----------------------------------

@pytest.mark.parametrize("text,backend", [
    ("FAILED: /tmp/pip-install-7x/sageattention_0a1b2c3d4e/build/temp.linux-x86_64-cpython-312/csrc/qattn/pybind_sm90.o\n"
     "In file included from /venv/lib/python3.12/site-packages/torch/include/torch/extension.h:5,\n"
     "/venv/lib/python3.12/site-packages/torch/include/ATen/ATen.h:4:2: error: #error C++20 or later compatible compiler is required to use ATen.",
     "sage"),
    ("C:\\src\\xformers\\third_party\\flash-attention\\csrc\\flash_attn\\flash_api.cpp: "
     "C:\\venv\\Lib\\site-packages\\torch\\include\\ATen/ATen.h(4): fatal error C1189: #error:  C++17 or later compatible compiler is required to use ATen.",
     "xformers"),
])
def test_an_old_cxx_standard_against_new_torch_headers(text, backend):
    assert top(text) == ("build.cxx-standard", backend)


def test_another_projects_cxx_standard_error_is_not_claimed():
    text = ("/tmp/pip-install-1/torchvision_5d/torchvision/csrc/ops/nms.cpp:1:\n"
            "/venv/lib/python3.12/site-packages/torch/include/ATen/ATen.h:4:2: error: #error C++20 or later compatible compiler is required to use ATen.")
    assert "build.cxx-standard" not in ids(text)


# ---- no prebuilt wheel: the note that explains why a source build ran --------------------------------

def test_no_prebuilt_wheel_is_a_note_ranked_after_the_builds_cause():
    log = ("  Guessing wheel URL:  https://github.com/Dao-AILab/flash-attention/releases/download/v2.7.4.post1/"
           "flash_attn-2.7.4.post1+cu12torch2.6cxx11abiFALSE-cp313-cp313-win_amd64.whl\n"
           "  Precompiled wheel not found. Building from source...\n  running build_ext\n"
           "  building 'flash_attn_2_cuda' extension\n"
           "  UserWarning: Attempted to use ninja as the BuildExtension backend but we could not find ninja.. Falling back to using the slow distutils backend.\n")
    found = match(log)
    assert [m.entry.id for m in found][-1] == "build.prebuilt-wheel-missing"
    assert found[0].entry.id == "build.no-ninja" and found[-1].backend == "fa2"


def test_a_copied_setup_py_of_another_project_is_not_claimed():
    log = ("  Guessing wheel URL:  https://github.com/Dao-AILab/causal-conv1d/releases/download/v1.5.0.post8/"
           "causal_conv1d-1.5.0.post8+cu12torch2.6cxx11abiFALSE-cp311-cp311-linux_x86_64.whl\n"
           "  Precompiled wheel not found. Building from source...\n")
    assert "build.prebuilt-wheel-missing" not in ids(log)


# ---- the CUTLASS memory-efficient kernel has no variant for the GPU ---------------------------------

def test_cutlass_no_kernel_is_named_with_its_library():
    text = ("  File \"/opt/venv/lib/python3.10/site-packages/xformers/ops/fmha/cutlass.py\", line 446, in apply_bw\n"
            "    grads = cls.OPERATOR(\nRuntimeError: cutlassB: no kernel found to launch!")
    assert top(text) == ("attn.cutlass-no-kernel", "xformers")


def test_cutlass_no_kernel_under_sdpa_is_sdpas():
    # torch's memory-efficient SDPA kernel (copied from xformers) prints the same message
    text = ("  File \"/venv/lib/python3.12/site-packages/torch/nn/functional.py\", line 5440, in scaled_dot_product_attention\n"
            "    return torch._C._nn.scaled_dot_product_attention(q, k, v)\nRuntimeError: cutlassF: no kernel found to launch!")
    assert top(text) == ("attn.cutlass-no-kernel", "sdpa")


# ---- widened entries: CuTe DSL failures, prose drift, xformers operators, builds, Triton, faults ----

@pytest.mark.parametrize("text", [
    "ValueError: expects the layout of `sQ` and the shape of the tiled copy to be weakly congruent",
    "  File \"/usr/local/lib/python3.12/dist-packages/flash_attn/cute/flash_fwd_sm100.py\", line 1411, in softmax_loop\n"
    "    tStS = thr_mma.partition_C(sS)\nValueError: Operation creation failed",
])
def test_cute_dsl_compile_failures_are_named(text):
    assert top(text) == ("cute.dsl-error", "cute")


def test_an_mlir_op_failure_elsewhere_is_not_cute():
    text = ("  File \"/usr/lib/python3/dist-packages/jax/_src/interpreters/mlir.py\", line 2210, in lower\n"
            "ValueError: Operation creation failed")
    assert "cute.dsl-error" not in ids(text)


def test_fa4_dsl_mismatch_in_prose_is_drift():
    assert top("flash_attn.cute fails to compile with nvidia-cutlass-dsl 4.7.0 (cute.arch.fmin is gone)") == ("cute.dsl-drift", "cute")
    assert "cute.dsl-drift" not in ids("FA4 works fine with nvidia-cutlass-dsl 4.4.1 on our B200s")


def test_xformers_operator_without_quotes():
    assert top("!!! Exception during processing !!! Could not run xformers::efficient_attention_forward_cutlass") == \
        ("xformers.not-compiled", "xformers")


def test_an_attention_sdist_failing_at_its_metadata_step_is_build_isolation():
    text = ("Collecting flash-attn==2.7.4.post1\n  Downloading flash_attn-2.7.4.post1.tar.gz (6.0 MB)\n"
            "  Preparing metadata (setup.py) ... error\n  error: subprocess-exited-with-error")
    assert top(text) == ("build.isolation", "fa2")
    other = "Collecting mmcv==2.1.0\n  Downloading mmcv-2.1.0.tar.gz (471 kB)\n  Preparing metadata (setup.py) ... error"
    assert "build.isolation" not in ids(other)


def test_a_metadata_step_failing_with_its_own_exception_keeps_that_cause():
    # found on the fresh texts (flash-attention#597): the widened build.isolation pattern claimed a
    # metadata step whose log goes on to name another cause; it now stands only where none follows
    text = ("Collecting flash-attn\n  Using cached flash_attn-2.6.3.tar.gz (2.6 MB)\n  Preparing metadata (setup.py) ... error\n"
            "  error: subprocess-exited-with-error\n      Traceback (most recent call last):\n"
            "        File \"/tmp/pip-install-9q/flash-attn_77aa01bc92d14e0f/setup.py\", line 140, in <module>\n"
            "          raise_if_cuda_home_none(\"flash_attn\")\n"
            "      RuntimeError: flash_attn was requested, but nvcc was not found.  Are you sure your environment has nvcc available?")
    assert "build.isolation" not in ids(text)
    assert top(text)[0] in ("nvcc.none", "build.no-nvcc")  # the missing nvcc, whichever entry names it


def test_windows_enoent_past_max_path_in_pip_temp():
    text = ("OSError: [Errno 2] No such file or directory:\n'C:\\\\Users\\\\someone\\\\AppData\\\\Local\\\\Temp\\\\pip-install-q8w2\\\\"
            "sageattention_3f2e1d\\\\csrc\\\\qattn\\\\instantiations_sm89\\\\"
            "qk_int_sv_f8_accum_f32_attn_inst_buf_fuse_v_scale_fuse_v_mean_headdim128_causal_return_lse.cu'")
    assert top(text) == ("build.windows-path-too-long", "sage")
    short = "OSError: [Errno 2] No such file or directory: 'C:\\\\Temp\\\\pip-install-x1\\\\setup.cfg'"
    assert "build.windows-path-too-long" not in ids(short)


def test_nvcc_arch_without_its_prefix():
    assert top("CMake Error: CUDA compile failed: Unsupported gpu architecture 'compute_103a'")[0] == "build.nvcc-arch"


def test_triton_pipeline_failure_names_only_triton_passes():
    assert top("Pipeline failed while executing [`TritonGPUAccelerateMatmul` on 'builtin.module' operation]")[0] == "triton.pass-failed"
    assert "triton.pass-failed" not in ids("Pipeline failed while executing [`ConvertFuncToLLVMPass` on 'builtin.module' operation]")


@pytest.mark.parametrize("text,backend", [
    ("=========     Host Frame:pytorch_flash::mha_bwd(at::Tensor const&) in /src/pytorch/aten/src/ATen/native/"
     "transformers/cuda/flash_attn/flash_api.cpp:901 [0x1c2e3f4]", "sdpa"),
    ("========= Invalid __global__ write of size 4 bytes\n=========     at fmha_cutlassF_f16_aligned_64x64_rf_sm80+0x3f0", "xformers"),
    ("sageattn_varlen crashes with an illegal memory access when the batch holds an empty sequence", "sage"),
])
def test_kernel_faults_from_sanitizer_reports_and_prose(text, backend):
    assert top(text) == ("cuda.kernel-fault", backend)


def test_an_illegal_memory_access_in_prose_without_a_backend_is_not_claimed():
    assert "cuda.kernel-fault" not in ids("my custom CUDA kernel hits an illegal memory access when N > 4096")


@pytest.mark.parametrize("text", [
    "Every time I install xformers it uninstalls torch 2.8.0+cu128 and puts back a CPU build",
    "Collecting torch==2.5.1 (from xformers==0.0.29.post1)",
])
def test_xformers_replacing_torch_in_prose_and_pip(text):
    assert top(text) == ("xformers.replaced-torch", "xformers")


def test_xformers_pin_without_a_replacement_is_not_replaced_torch():
    assert "xformers.replaced-torch" not in ids("xformers 0.0.32 is built for torch 2.8")


def test_an_abort_said_with_the_backends_function():
    assert top("Windows fatal exception: access violation in xformers memory_efficient_attention on an RTX 5070") == \
        ("attn.native-crash", "xformers")


# ---- head-dim lists (added after the fresh texts were measured: fixtures/errors/round4a/fresh) --------

def test_a_head_size_list_names_the_unsupported_head_dim():
    text = ("  File \"/opt/fa3/flash_attn_interface.py\", line 88, in _flash_attn_forward\n"
            "    out, softmax_lse, *rest = flash_attn_3_cuda.fwd(\nRuntimeError: Only support head size 64 and 128 for now")
    assert top(text) == ("attn.head-dim-unsupported", "fa3")
    assert "attn.head-dim-unsupported" not in ids("ValueError: only support batch size 1, 2 and 4 for now")


def test_an_unsupported_head_dim_said_in_prose():
    assert top("It's because sageattention 1.0.6 does not support head dim 72, use 64 or 128")[0] == "attn.head-dim-unsupported"
    assert "attn.head-dim-unsupported" not in ids("this GPU does not support bf16")
