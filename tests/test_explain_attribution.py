"""`explain` names the backend a failure belongs to: the backend whose library the log names nearest
to the error line (attn_doctor/knowledge/attribution/), with that backend's wording. Texts here are
variants written for these tests (other paths, versions, symbols and languages than the knowledge
examples and the real corpus); each says what it varies."""

import io
import json
import re
import sys

import pytest

from attn_doctor.cli import main
from attn_doctor.explain import match
from attn_doctor.knowledge import attribution, entries, template_fields

TB = "Traceback (most recent call last):\n"


def top(text):
    found = match(text)
    assert found, f"nothing matched: {text!r}"
    return found[0]


# ---- one mechanism, every backend ------------------------------------------------------------------

@pytest.mark.parametrize("text,entry,backend", [
    # undefined symbol: the .so on the error line names the backend (other Python versions, symbols, layouts)
    ("ImportError: /home/a/miniforge3/envs/x/lib/python3.12/site-packages/flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so: "
     "undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE",
     "import.undefined-symbol", "fa2"),
    ("ImportError: /opt/venv/lib/python3.10/site-packages/flash_attn_3/_C.abi3.so: undefined symbol: _ZN3c1013MessageLoggerC1EPKciib",
     "import.undefined-symbol", "fa3"),
    ("ImportError: /usr/lib/python3/dist-packages/sageattention/_qattn_sm90.cpython-311-x86_64-linux-gnu.so: undefined symbol: _ZN2at4_ops4view4callE",
     "import.undefined-symbol", "sage"),
    ("OSError: /root/.local/lib/python3.9/site-packages/xformers/_C.so: undefined symbol: cudaGetDriverEntryPointByVersion",
     "import.undefined-symbol", "xformers"),
    # GLIBC / GLIBCXX raised for a backend's extension ("required by" names it)
    ("ImportError: /lib64/libstdc++.so.6: version `GLIBCXX_3.4.29' not found (required by /srv/env/lib/python3.11/site-packages/sageattention/_fused.so)",
     "import.glibc", "sage"),
    # a CUDA library missing for a backend's extension, named by the frame above the error
    (TB + '  File "/venv/lib/python3.12/site-packages/flash_attn_interface.py", line 9, in <module>\n'
     "    import flash_attn_3._C\nImportError: libcudart.so.12: cannot open shared object file: No such file or directory",
     "import.cuda-lib-missing", "fa3"),
    # Windows DLL loads (another language's system message; FA2 and xformers module names)
    ("ImportError: DLL load failed while importing flash_attn_2_cuda: Не найден указанный модуль.", "import.dll-load-failed", "fa2"),
    ("ImportError: DLL load failed while importing _C_flashattention: The specified procedure could not be found.",
     "import.dll-load-failed", "xformers"),
    # "no kernel image" from a backend's kernel call, named by the traceback
    (TB + '  File "/usr/local/lib/python3.11/dist-packages/flash_attn/flash_attn_interface.py", line 96, in _flash_attn_forward\n'
     "    out, q, k, v, out_padded, softmax_lse, S_dmask, rng_state = flash_attn_cuda.fwd(\n"
     "RuntimeError: CUDA error: no kernel image is available for execution on the device", "gpu.arch-not-in-torch", "fa2"),
    (TB + '  File "C:\\venv\\Lib\\site-packages\\sageattention\\core.py", line 212, in sageattn_qk_int8_pv_fp16_cuda\n'
     "    _qattn_sm80.qk_int8_sv_f16_accum_f32_attn(q_int8, k_int8, v, o, q_scale, k_scale, 1, _is_caual, _qk_quant_gran, sm_scale, _return_lse)\n"
     "RuntimeError: CUDA error: no kernel image is available for execution on the device", "gpu.arch-not-in-torch", "sage"),
    # arch messages that name their backend in the message
    ("RuntimeError: FlashAttention only supports Hopper GPUs or newer.", "backend.unsupported-gpu", "fa3"),
    ("RuntimeError: FlashAttention only supports Ampere GPUs or newer.", "backend.unsupported-gpu", "fa2"),
    # a build log names the package after the compiler error
    ("/usr/local/cuda/bin/nvcc -c csrc/kernels/x.cu\nnvcc error   : 'cicc' died due to signal 9 (Kill signal)\n"
     "ninja: build stopped: subcommand failed.\n  ERROR: Failed building wheel for sageattention", "build.oom", "sage"),
    ("      RuntimeError: Cannot find CUDA_HOME. CUDA must be available to build the package.\n"
     "      [end of output]\n  ERROR: Failed building wheel for sageattention", "build.no-nvcc", "sage"),
    # q/k/v dtype: the message's own format says whose check it is (C++ SDPA vs Python flex)
    ("RuntimeError: Expected query, key, and value to have the same dtype, but got query.dtype: c10::BFloat16 key.dtype: float "
     "and value.dtype: float instead.", "attn.qkv-dtype", "sdpa"),
    ("ValueError: Expected query, key, and value to have the same dtype, but got query.dtype: torch.float32, key.dtype: torch.bfloat16, "
     "and value.dtype: torch.bfloat16 instead.", "attn.qkv-dtype", "flex"),
    # a flex score_mod in half precision (the template's comment names flex)
    ("ValueError: Expected dtype ['fp32', 'fp64'] but got bf16\n\nThe above exception was the direct cause of the following exception:\n\n"
     "triton.compiler.errors.CompilationError: at 61:12:\n    # ~~~~~~~~~~~~~~~~~~~ Apply mask modification  ~~~~~~~~~~~~~~",
     "triton.math-dtype", "flex"),
])
def test_generic_failures_get_the_backend_the_log_names(text, entry, backend):
    m = top(text)
    assert (m.entry.id, m.backend) == (entry, backend)


def test_attributed_wording_names_the_backend():
    """The FA2 undefined symbol gets FA2's reinstall, not the generic `<package>` line."""
    m = top("ImportError: /venv/lib/python3.11/site-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: "
            "undefined symbol: _ZN3c104cuda9SetDeviceEi")
    assert "FlashAttention 2" in m.title and "flash-attn" in m.fix and "<package>" not in m.fix
    assert m.named_by and "flash_attn_2_cuda" in m.named_by.text
    s = top("ImportError: /x/site-packages/sageattention/_qattn_sm89.so: undefined symbol: _ZN3c10x")
    assert "SageAttention" in s.title and "SageAttention" in s.fix


def test_unnamed_failure_keeps_the_generic_wording():
    m = top("ImportError: /opt/lib/libfoo.so: undefined symbol: _ZN3foo3barEv")
    assert m.backend is None and m.named_by is None
    assert m.title == m.entry.headline and m.fix == m.entry.plain_fix


# ---- how "nearest" is decided -----------------------------------------------------------------------

def test_a_library_file_beats_a_name_on_the_same_line():
    # the venv is called .venv-fa3, the extension is FA2's
    m = top("ImportError: /w/.venv-fa3/lib/python3.11/site-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: undefined symbol: ncclCommRegister")
    assert m.backend == "fa2"


def test_the_deepest_frame_names_the_backend():
    # xformers calls into its bundled flash-attention: the frame nearest the error is xformers'
    text = (TB + '  File "/app/model.py", line 40, in forward\n    out = flash_attn_func(q, k, v)\n'
            '  File "/venv/lib/python3.10/site-packages/xformers/ops/fmha/flash.py", line 88, in _flash_fwd\n'
            "    torch.ops.xformers_flash.flash_fwd(\n"
            "RuntimeError: CUDA error: no kernel image is available for execution on the device")
    assert top(text).backend == "xformers"


def test_an_error_is_not_given_the_backend_of_an_earlier_traceback():
    first = ("Traceback (most recent call last):\n  File \"/venv/lib/python3.11/site-packages/flash_attn/__init__.py\", line 3\n"
             "ImportError: /venv/lib/python3.11/site-packages/flash_attn_2_cuda.so: undefined symbol: _ZN3c104cuda9SetDeviceEi\n")
    second = ("Traceback (most recent call last):\n  File \"/app/train.py\", line 9, in <module>\n    import mylib\n"
              "OSError: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found (required by /app/mylib/_ext.so)\n")
    found = {m.entry.id: m.backend for m in match(first + second)}
    # the second is mylib's own loader error (its "required by" names no attention library): not fa2's,
    # and since issue 23 not claimed at all ([required_by] in attribution.toml)
    assert found == {"import.undefined-symbol": "fa2"}
    assert {m.entry.id: m.backend for m in match(second.replace("/app/mylib/_ext.so", "/app/flash_attn_2_cuda.so"))} == {
        "import.glibc": "fa2"}


def test_torch_own_message_names_no_backend():
    text = ("  File \"/venv/lib/python3.12/site-packages/xformers/__init__.py\", line 12, in <module>\n"
            "UserWarning: NVIDIA GeForce RTX 5080 with CUDA capability sm_120 is not compatible with the current PyTorch installation.")
    assert top(text).backend is None


def test_entries_of_a_backend_change_only_to_the_backends_that_share_their_messages():
    # FA2's dtype check raised from FA3's hopper build is FA3's (they share flash_api.cpp)...
    text = (TB + '  File "/src/flash-attention/hopper/flash_attn_interface.py", line 71, in _flash_attn_forward\n'
            "RuntimeError: FlashAttention only supports fp16, bf16, and fp8_e4m3 data type")
    assert (top(text).entry.id, top(text).backend) == ("fa2.dtype", "fa3")
    # ... but an FA4 assert stays FA4's whatever calls it
    text = ('  File "/venv/lib/python3.12/site-packages/xformers/ops/fmha/cute.py", line 12, in apply\n'
            "AssertionError: inputs must be float16 or bfloat16")
    assert top(text).backend == "cute"


def test_a_serving_engines_selector_line_names_no_backend():
    m = top("INFO 01-02 03:04:05 selector.py:77] Cannot use FlashAttention-2 backend for head size 80.")
    # the entry is the reason's (helper ex124: vllm.head-size, as round 7a labels this line); the backend stays none of ours
    assert (m.entry.id, m.backend) == ("vllm.head-size", None)
    m = top("INFO 01-02 03:04:05 selector.py:77] Cannot use FlashAttention-2 backend for Volta and Turing GPUs.")
    assert (m.entry.id, m.backend) == ("vllm.backend-fallback", None)


def test_vllm_fa_version_check_is_the_version_it_checks():
    assert top("ERROR [fa_utils.py:273] Cannot use FA version 2 is not supported due to FA3 is only supported on devices "
               "with compute capability >= 8 excluding 8.6 and 8.9").backend == "fa2"
    assert top("WARNING Cannot use FA version 3 is not supported due to FA3 is only supported on Hopper").backend == "fa3"


def test_another_librarys_triton_kernel_is_not_claimed():
    oor = ("triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 98304, Hardware limit: 65536. "
           "Reducing block sizes or `num_stages` may help.")
    custom = (TB + '  File "/proj/kernels/layernorm.py", line 51, in forward\n    _ln_fwd[grid](x, w, y, N)\n'
              '  File "/venv/lib/python3.11/site-packages/triton/runtime/jit.py", line 345, in <lambda>\n' + oor)
    assert match(custom) == []
    flex = (TB + '  File "/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py", line 1320, in flex_attention\n'
            '  File "/venv/lib/python3.11/site-packages/triton/runtime/jit.py", line 345, in <lambda>\n' + oor)
    assert (top(flex).entry.id, top(flex).backend) == ("flex.shared-memory", "flex")
    assert top(oor).entry.id == "flex.shared-memory"  # a bare message: nothing says whose kernel it was


def test_catch_alls_are_claimed_only_near_a_backend():
    """A ninja build that failed, a CUDA kernel fault, a missing torch API are anybody's: claimed only
    when a backend's library is named near them (here DeepSpeed's and a user's code are not ours)."""
    deepspeed = ('  File "/venv/lib/python3.10/site-packages/deepspeed/ops/op_builder/builder.py", line 512, in jit_load\n'
                 "subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit status 1.")
    user = ('  File "/home/u/proj/ops/scatter.py", line 40, in forward\n'
            "RuntimeError: CUDA error: an illegal memory access was encountered")
    assert match(deepspeed) == [] and match(user) == []
    ours = ('  File "/venv/lib/python3.10/site-packages/flash_attn/bert_padding.py", line 110, in unpad_input\n'
            "RuntimeError: CUDA error: an illegal memory access was encountered")
    assert (top(ours).entry.id, top(ours).backend) == ("cuda.kernel-fault", "fa2")
    build = ("      subprocess.CalledProcessError: Command '['ninja', '-v', '-j', '8']' returned non-zero exit status 1.\n"
             "      [end of output]\n  ERROR: Failed building wheel for xformers")
    assert (top(build).entry.id, top(build).backend) == ("build.compile-failed", "xformers")
    # an Inductor failure is any torch.compile's; it is FlexAttention's when flex is named near it
    inductor = "torch._inductor.exc.InductorError: SubprocException"
    assert match(inductor) == []
    flex = ('  File "/venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py", line 1410, in flex_attention\n'
            + inductor)
    assert (top(flex).entry.id, top(flex).backend) == ("flex.compile-failed", "flex")


def test_several_errors_in_one_log_each_get_their_own_backend():
    noise = "".join(f"steps: {i}/1600 loss=0.09\n" for i in range(3000))
    log = (noise + "ImportError: DLL load failed while importing _qattn_sm89: The specified module could not be found.\n"
           + noise + TB + '  File "/venv/lib/python3.11/site-packages/torch/nn/functional.py", line 5096, in scaled_dot_product_attention\n'
           "RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED\n" + noise)
    found = [(m.entry.id, m.backend) for m in match(log)]
    assert found == [("import.dll-load-failed", "sage"), ("sdpa.cudnn-execution", "sdpa")]


# ---- the new families: variants of my own beside the entries' examples ---------------------------

@pytest.mark.parametrize("text,entry", [
    ("RuntimeError: Error: accessing tensor output of CUDAGraphs that has been overwritten by a subsequent run. Stack trace: "
     "File \"/srv/gen.py\", line 31, in decode_step", "compile.cudagraph-overwritten"),
    ("torch._inductor.exc.InductorError: LoweringException: NotImplementedError: Unsupported for now if query, key, value are "
     "the same buffer.\n  target: flex_attention_backward", "flex.same-buffer"),
    ("  File \"/w/model.py\", line 22, in build_mask\n    bm = create_block_mask(doc_mask, 4, 16, 131072, 131072)\n"
     "  File \"/w/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py\", line 870, in create_block_mask\n"
     "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 256.00 GiB.", "flex.block-mask-oom"),
    ("  File \"/w/venv/lib/python3.11/site-packages/torch/_inductor/runtime/triton_heuristics.py\", line 1300, in run\n"
     "RuntimeError: Triton Error [CUDA]: invalid argument", "triton.launch-invalid-argument"),
    ("  File \"/venv/lib/python3.10/site-packages/flash_attn/ops/triton/rotary.py\", line 8, in <module>\n"
     "AttributeError: module 'torch.library' has no attribute 'triton_op'", "torch.api-missing"),
    ("Error running sage attention: CUDA error: an illegal memory access was encountered, using pytorch attention instead",
     "sage.runtime-fallback"),
    ("Exception: No Attn Installed!", "trainer.no-attention-backend"),
    ("LoweringException: NoValidChoicesError: No choices to select, please consider adding ATEN into max_autotune_gemm_backends config",
     "compile.no-valid-choices"),
    ("[rank3]: OSError: [Errno 116] Stale file handle: '/lustre/home/u/.triton/cache/K3JX/flash_fwd.cubin'", "cache.shared-fs"),
    ("ImportError: /scratch/torchinductor_root/triton/2/f00d/cuda_utils.cpython-312-x86_64-linux-gnu.so: undefined symbol: cuTensorMapEncodeTiled",
     "cache.stale"),
    ("ptxas /tmp/tmpa8.ptx, line 9; fatal   : Unsupported .version 9.0; current version is '8.8'", "triton.ptxas-old"),
    ("RuntimeError: Triton Error [CUDA]: device kernel image is invalid", "triton.invalid-image"),
    ("ptxas /tmp/t.ptx, line 120; error   : Feature '.bf16' requires .target sm_80 or higher", "triton.ptx-feature-arch"),
    ("u  811  3.0 12.1 /usr/bin/python3 -m torch._inductor.compile_worker.__main__ --pickler=x --workers=128", "compile.workers"),
    ("nvcc fatal   : Unsupported gpu architecture 'compute_103a'", "build.nvcc-arch"),
    ("ptxas error   : Instruction 'tcgen05.alloc' not supported on .target 'sm_120a'", "build.arch-instructions"),
    ("      RuntimeError: Ninja is required to load C++ extensions (pip install ninja to get it)", "build.no-ninja"),
    ("csrc/qattn/attn_cuda_sm90.h:3:10: fatal error: cuda_bf16.h: No such file or directory", "build.no-nvcc"),
    ("hopper/flash_fwd_launch_template.h:9:10: fatal error: cutlass/cluster_launch.hpp: No such file or directory", "build.submodule-missing"),
    ("RuntimeError: Function 'ScaledDotProductFlashAttentionBackward0' returned nan values in its 2th output.", "sdpa.backward-nan"),
    ("RuntimeError: derivative for aten::_scaled_dot_product_cudnn_attention_backward is not implemented", "sdpa.double-backward"),
    ("RuntimeError: Expected mha_graph->execute(handle, variant_pack, workspace.data_ptr()).is_good() to be true, but got false.",
     "sdpa.cudnn-execution"),
    ("ValueError: Query/Key/Value should all be on the same device", "attn.qkv-device"),
    ("TypeError: flash_attn_varlen_func() got an unexpected keyword argument 'window_size'", "attn.api-mismatch"),
    # (round 15: with "(unknown location)" the package is an empty namespace, import.shadowed-package; an installed release that
    # lacks the name says its __init__.py)
    ("ImportError: cannot import name 'sageattn_qk_int8_pv_fp16_triton' from 'sageattention' (/venv/lib/python3.11/site-packages/sageattention/__init__.py)", "sage.api-mismatch"),
    ("ImportError: Requires Flash-Attention version >=2.7.1,<=2.8.2 but got 2.8.3.post1.", "xformers.flash-version"),
    ("Installing collected packages: torch, xformers\n  Attempting uninstall: torch\n    Found existing installation: torch 2.8.0+cu128\n"
     "    Uninstalling torch-2.8.0+cu128:", "xformers.replaced-torch"),
    ("`fa2F@2.8.3` is not supported because:\n    requires a GPU with compute capability >= 8.0", "xformers.gpu-too-old"),
    ("`cutlassF-pt` is not supported because:\n    query.shape[-1] % 8 != 0", "xformers.unsupported-inputs"),
    ("AssertionError: Only SM 10.x and 12.x are supported", "cute.arch"),
    ("ValueError: Unsupported head_dim: 320", "sage.head-dim"),
    ("AssertionError: SM80 kernel is not available. make sure you GPUs with compute capability 8.0 or higher.", "sage.arch-kernel"),
    ("RuntimeError: FlashAttention backward for head dim 224 with/without dropout requires A100/A800 or H100/H800", "fa2.bwd-head-dim-gpu"),
    ("RuntimeError: Expected is_sm75 || is_sm8x to be true, but got false.", "fa2.arch-check"),
    ("    out, lse, _ = flash_attn_varlen_func(\nValueError: not enough values to unpack (expected 3, got 1)", "attn.return-value"),
    ("ValueError: GemmaForCausalLM does not support Flash Attention 2.0 yet. Please request to add support", "transformers.attn-impl-unsupported"),
    ("ImportError: cannot import name 'MistralFlashAttention2' from 'transformers.models.mistral.modeling_mistral'",
     "transformers.attention-class-removed"),
    ("UserWarning: MistralModel is using MistralSdpaAttention, but `torch.nn.functional.scaled_dot_product_attention` does not "
     "support `output_attentions=True`.", "transformers.sdpa-output-attentions"),
    ("RuntimeError: Tensors allocated with expandable_segments:True cannot be shared between processes.", "alloc.expandable-conflict"),
    ("ERROR: Cannot use FlashInfer backend because the flashinfer package is not found.", "vllm.backend-fallback"),
    ("RuntimeError: cuDNN Frontend error: [cudnn_frontend] Error: No execution plans support the graph.", "sdpa.cudnn"),
    ("RuntimeError: USE_MEM_EFF_ATTENTION was not enabled for build.", "sdpa.no-flash-build"),
])
def test_new_entries_match_variants_of_their_failure(text, entry):
    assert top(text).entry.id == entry


# ---- the data is complete --------------------------------------------------------------------------

def test_every_wording_renders_for_every_backend():
    r = attribution.rules()
    known = entries()
    for entry_id, by in r.wording.items():
        assert entry_id in known, f"wording for an unknown entry {entry_id}"
        for backend in [b for b in r.words if b in by or "any" in by]:
            title, fix = attribution.wording(known[entry_id], backend)
            for s in (title, fix):
                assert s and not re.search(r"\{\w+\}", s), (entry_id, backend, s)
            assert fix.count("   # ") <= 1 and fix.count("MAX_JOBS=") <= 1, (entry_id, backend, fix)  # one command, one comment
    for backend, words in r.words.items():
        assert backend in {"sdpa", "flex", "fa2", "fa3", "cute", "sage", "xformers"}
        assert {"name", "package", "reinstall", "build", "archs", "windows"} <= set(words)
    assert set(r.never) <= set(known) and set(r.kernel_only) <= set(known)


def test_json_and_text_name_the_backend(monkeypatch, capsys):
    text = ("Traceback (most recent call last):\n  File \"/venv/lib/python3.10/site-packages/flash_attn/__init__.py\", line 3, in <module>\n"
            "ImportError: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.32' not found "
            "(required by /venv/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so)\n")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode()), encoding="utf-8"))
    assert main(["explain", "--json", "-"]) == 0
    doc = json.loads(capsys.readouterr().out)
    (m,) = doc["matches"]
    assert m["id"] == "import.glibc" and m["backend"] == "fa2"
    assert m["backend_from"]["line"] == 3 and "flash_attn_2_cuda" in m["backend_from"]["text"]
    assert "FlashAttention 2" in m["title"] and "flash-attn" in m["fix"]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode()), encoding="utf-8"))
    assert main(["explain", "-"]) == 0
    out = capsys.readouterr().out
    assert "import.glibc  (error, backend fa2)" in out
    assert "backend: fa2, named on line 3:" in out
