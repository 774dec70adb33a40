"""Variants for what the fourth session of 2026-11-28 (issue 23) taught explain to read through, from the content and
launcher rewrites of benchmarks/explain_robustness.py (no real text was their source: each case is written by hand from
the mechanism, with other paths, versions and wordings; near misses say what must NOT be stripped or claimed).

  launchers  multi-node launchers' and services' line prefixes (knowledge/match.py LINE_PREFIX): mpirun --tag-output,
             srun --label, pdsh's and DeepSpeed's multi-node runner, kubectl logs --prefix, journalctl
  quotes     curly quotes (a forum's or an editor's) read as the straight quotes error messages print
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids
from attn_doctor.explain import match

ERR = ("Traceback (most recent call last):\n  File \"/srv/job/train.py\", line 12, in <module>\n    out = model(x)\n"
       "  File \"/opt/venv/lib/python3.12/site-packages/flash_attn/flash_attn_interface.py\", line 96, in "
       "_flash_attn_forward\n    out, softmax_lse, S_dmask, rng_state = flash_attn_gpu.fwd(\n"
       "RuntimeError: the launch went wrong somewhere")


def _each(prefix: str, text: str = ERR) -> str:
    return "\n".join(prefix + line for line in text.splitlines())


@pytest.mark.parametrize("prefix", [
    "[1,0]<stderr>:", "[12,3]<stdout>: ", "0: ", "17: ", "worker-1: ", "gpu-node07: ", "10.0.4.21: ",
    "[pod/sft-run-0/trainer] ", "Mar  3 21:04:11 a100-box python3[90211]: ",
    "Nov 28 07:20:34 node-3 train.sh[4411]: ", "[pod/x-0/main] [rank1]: ",
])
def test_a_launchers_prefix_is_read_through(prefix):
    assert _top(_each(prefix)) == _top(ERR) == ("triage.raised-in-fa2", "fa2")


def test_a_prefixed_line_keeps_its_number():
    from attn_doctor.explain import match
    text = "\n".join("worker-0: step %d loss 1.0" % i for i in range(25)) + "\n" + _each("worker-0: ")
    found = [m for m in match(text) if m.entry.id == "triage.raised-in-fa2"]
    assert found and found[0].line == 25 + len(ERR.splitlines())


@pytest.mark.parametrize("line,rest", [
    # stripped: the launcher's part only
    (b"[3,1]<stderr>:RuntimeError: x", b"RuntimeError: x"),
    (b"2: ImportError: y", b"ImportError: y"),
    (b"node12: Traceback (most recent call last):", b"Traceback (most recent call last):"),
    (b"[pod/a-1/c] ValueError: z", b"ValueError: z"),
    # kept: a word before a colon is no host; a number with no space after it is no task number; a list of steps
    (b"Error: flash_attn failed", b"Error: flash_attn failed"),
    (b"warning: unused variable", b"warning: unused variable"),
    (b"12:00:01 started", b"12:00:01 started"),
    (b"node: command not found", b"node: command not found"),
])
def test_what_the_prefix_strips(line, rest):
    from attn_doctor.knowledge.match import LINE_PREFIX
    m = LINE_PREFIX.match(line)
    assert line[m.end() if m else 0:] == rest


@pytest.mark.parametrize("text,entry", [
    ("ModuleNotFoundError: No module named \u2018flash_attn\u2019", "fa2.missing"),
    ("ImportError: cannot import name \u2018flash_attn_func\u2019 from \u2018flash_attn.cute\u2019 "
     "(/opt/py/lib/python3.13/site-packages/flash_attn/cute/__init__.py)", "cute.import-name"),
    ("ModuleNotFoundError: No module named \u201csageattention\u201d", "sage.not-installed"),
])
def test_curly_quotes_are_read_as_straight_ones(text, entry):
    straight = text.translate(str.maketrans("\u2018\u2019\u201c\u201d", "''\"\""))
    assert _top(text)[0] == _top(straight)[0] == entry


def test_curly_quotes_keep_the_line_number():
    from attn_doctor.explain import match
    text = "\u2018a\u2019 \u201cb\u201d\n" * 30 + "ModuleNotFoundError: No module named \u2018flash_attn\u2019\n"
    found = [m for m in match(text) if m.entry.id == "fa2.missing"]
    assert found and found[0].line == 31


def test_a_prose_list_number_claims_nothing():
    assert "prose.fails" not in _ids("1: set up the venv\n2: pip install torch\n3: run the notebook")


# title: a report's title says what kind of failure in words and names no backend; its first sentence names the backend
# (knowledge/prose.toml's second pattern of each entry; attribution.toml title_sentence)
@pytest.mark.parametrize("text,entry,backend", [
    ("Install keeps failing on Ubuntu 24.04\n\nRunning pip install sageattention==2.2.0 --no-build-isolation with CUDA 12.8.",
     "prose.build", "sage"),
    ("安装失败\n\n我用 pip 安装 xformers 0.0.29，torch 2.6。", "prose.build", "xformers"),
    ("Doesn't run on my 3060\n\nFlashAttention 2 was installed from the prebuilt wheel for cu124.", "prose.gpu", "fa2"),
    ("Outputs are all black\n\nWith flex attention and a sliding-window block mask.", "prose.numbers", "flex"),
    ("Process killed with a core dump\n\nHappens when xformers is selected in the settings.", "prose.crash", "xformers"),
    ("Stopped working after the update\n\n\nSageAttention 1.0.6 in the portable ComfyUI.", "prose.fails", "sage"),
])
def test_a_title_takes_its_first_sentences_backend(text, entry, backend):
    assert _top(text) == (entry, backend)


@pytest.mark.parametrize("text", [
    # the first sentence names no backend
    "Build error on Ubuntu 24.04\n\nRunning pip install apex with CUDA 12.8.",
    # the backend is two sentences down, not the first
    "Build error on Ubuntu 24.04\n\nRunning pip install apex.\n\nI also have xformers installed.",
    # what follows the title is a log line, not a sentence (indented, or a logger's)
    "Build error\n    building 'flash_attn_2_cuda' extension",
    # a log's first line is no title: a warning line of a program, then a list naming a backend
    "No broken requirements found.\nflash-attn 2.8.3\nxformers 0.0.30",
    # a program's line under the title, not a user's sentence (no first person, no stop)
    "Training crashes with CUDA OOM when block swap is on\n\nTrying to import sageattention\nSuccessfully imported sageattention",
    "Build fails on the cluster\n\nLoading flash-attn 2.7.4 extension from the cache dir",
    # an exception line or a tool's `error:` first is a program's line, not a title, whatever sentence follows
    "ValueError: Template qwen3 does not exist.\nInstalling flash-attn 2.8.3 from the cache",
    "error: could not build wheels\n\nI ran pip install sageattention in the venv.",
])
def test_a_title_without_a_sentence_naming_a_backend_claims_nothing(text):
    assert not [i for i in _ids(text) if i.startswith("prose.")]


def test_a_title_over_a_sentence_is_read_only_at_the_inputs_start():
    text = "step 1 loss 0.3\n" * 10 + "Build error on Ubuntu\n\npip install flash-attn failed."
    assert "prose.build" not in _ids(text[:-len("pip install flash-attn failed.")] + "Running the trainer with flash-attn.")


# xformers.torch-is-cpu: xformers' load warning over the CPU torch it found names xformers as what fails, and the CPU
# torch as why (knowledge/versions.toml)
@pytest.mark.parametrize("text", [
    "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
    "    PyTorch 2.6.0+cu126 with CUDA 1206 (you have 2.6.0+cpu)\n    Python  3.12.8 (you have 3.12.8)\n"
    "  Please reinstall xformers (see https://github.com/facebookresearch/xformers#installing-xformers)",
    "xFormers cannot load C++/CUDA extensions. xFormers was built for:\r\n   PyTorch 2.4.1+cu118 with CUDA 1108 "
    "(you have 2.4.1+cpu)",
    "[rank0]: WARNING[XFORMERS]: xFormers can\u2019t load C++/CUDA extensions. xFormers was built for:\n"
    "[rank0]:     PyTorch 2.8.0+cu129 with CUDA 1209 (you have 2.8.0+cpu)",
])
def test_xformers_over_a_cpu_torch(text):
    assert _top(text) == ("xformers.torch-is-cpu", "xformers")


@pytest.mark.parametrize("text,entry", [
    # a CUDA torch of another release: xformers built for another torch, as before
    ("WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
     "    PyTorch 2.5.1+cu124 with CUDA 1204 (you have 2.6.0+cu124)", "xformers.built-for-other-torch"),
    # the +cpu line alone, the warning's head cut: torch's CPU build, naming no backend
    ("    PyTorch 2.1.0+cu121 with CUDA 1201 (you have 2.1.0+cpu)", "torch.cpu-build"),
])
def test_xformers_near_a_cpu_torch_near_misses(text, entry):
    assert _top(text)[0] == entry


@pytest.mark.parametrize("text,backend", [
    ("TypeError: fwd_kvcache(): incompatible function arguments. The following argument types are supported:\n"
     "    1. (arg0: torch.Tensor, arg1: torch.Tensor) -> list[torch.Tensor]", "fa2"),
    ("    return flash_attn_cuda.varlen_bwd(\nTypeError: varlen_bwd(): incompatible function arguments.", "fa2"),
])
def test_pybinds_signature_error_names_flash_attn_2s_functions(text, backend):
    assert _top(text)[1] == backend


def test_another_extensions_signature_error_names_no_backend():
    assert _top("TypeError: fused_rms_norm(): incompatible function arguments. The following argument types are "
                "supported:\n    1. (arg0: torch.Tensor) -> torch.Tensor")[1] is None


# build.isolation said in one sentence: the build first, then the missing torch quoted (builds.toml)
@pytest.mark.parametrize("text,backend", [
    ("seems like built Flash Attention3, but got ModuleNotFoundError: No module named 'torch'", "fa3"),
    ("Compiling xformers 0.0.29 from source fails: No module named `torch`", "xformers"),
    ("building sageattention in the ComfyUI venv -> ModuleNotFoundError: No module named \"torch\"", "sage"),
])
def test_a_build_sentence_with_torch_missing_is_build_isolation(text, backend):
    assert _top(text) == ("build.isolation", backend)


@pytest.mark.parametrize("text", [
    "I built my app with flash-attn and now: No module named 'torchvision'",
    "after building the image with xformers: No module named 'torch._dynamo'",
])
def test_another_module_after_a_build_is_not_build_isolation(text):
    assert "build.isolation" not in _ids(text)


# a frame's file names its backend before a name in its code line does (knowledge/attribution/ nearest)
@pytest.mark.parametrize("text,backend", [
    ('Traceback (most recent call last):\n  File "/opt/src/flash-attention/hopper/flash_attn_interface.py", line 9, in '
     '<module>\n    import my_fa_fork_cuda as flash_attn_cuda\nModuleNotFoundError: No module named \'my_fa_fork_cuda\'',
     "fa3"),
    ('Traceback (most recent call last):\n  File "C:\\py\\Lib\\site-packages\\sageattention\\core.py", line 21, in '
     '<module>\n    from flash_attn import flash_attn_func as fallback\nImportError: DLL load failed while importing '
     '_qattn: The specified module could not be found.', "sage"),
])
def test_a_frames_file_before_its_code_lines_name(text, backend):
    assert _top(text)[1] == backend


def test_a_code_line_under_torchs_frame_still_names_what_it_calls():
    text = ('Traceback (most recent call last):\n  File "/venv/lib/python3.12/site-packages/torch/nn/modules/module.py", '
            'line 1751, in _call_impl\n    return flash_attn_varlen_func(q, k, v, cu, cu, 128, 128)\n'
            'RuntimeError: CUDA error: an illegal memory access was encountered')
    assert _top(text)[1] == "fa2"


# Inductor's FlexAttention kernels by their template parameters (attribution.toml flex names)
@pytest.mark.parametrize("text", [
    '  File "/tmp/torchinductor_me/ab/cab12.py", line 400, in <module>\n'
    "    meta0 = {'ROWS_GUARANTEED_SAFE': False, 'PRESCALE_QK': False, 'OUTPUT_LOGSUMEXP': True, 'BLOCK_M': 128}\n"
    "NameError: name 's0' is not defined",
    "triton.compiler.errors.CompilationError: at 12:4: def triton_tem_fused_0(arg_Q, arg_K, arg_V, out_ptr0):\n"
    "    GQA_SHARED_HEADS : tl.constexpr = 4\n    SPARSE_KV_BLOCK_SIZE : tl.constexpr = 128\nout of resource: shared memory",
])
def test_inductors_flex_kernels_by_their_template_parameters(text):
    assert _top(text)[1] == "flex"


# "No module named 'flash_attn.flash_attn_interface'": under xformers' frame it is xformers taking FA4's namespace
# (whose fix removes xformers); anywhere else it is flash_attn importing as a namespace or a leftover (knowledge/
# backends.toml xformers.fa4-namespace, imports.toml import.namespace-package)
@pytest.mark.parametrize("text,entry,backend", [
    ('  File "/srv/venv/lib/python3.12/site-packages/xformers/ops/fmha/flash.py", line 70, in <module>\n'
     '    from flash_attn.flash_attn_interface import _flash_attn_forward\n'
     "ModuleNotFoundError: No module named 'flash_attn.flash_attn_interface'", "xformers.fa4-namespace", "xformers"),
    ("(EngineCore_DP0 pid=9) ERROR 03-02 10:00:00 [core.py:700] ModuleNotFoundError: No module named "
     "'flash_attn.flash_attn_interface'", "import.namespace-package", "fa2"),
    ('  File "/work/models/modeling_qwen.py", line 40, in <module>\n    from flash_attn.bert_padding import pad_input\n'
     "ModuleNotFoundError: No module named 'flash_attn.bert_padding'", "import.namespace-package", "fa2"),
])
def test_flash_attn_interface_missing(text, entry, backend):
    assert _top(text) == (entry, backend)


def test_a_plain_module_named_flash_attn_is_not_a_namespace():
    text = "ModuleNotFoundError: No module named 'flash_attn.flash_attn_interface'; 'flash_attn' is not a package"
    assert "import.namespace-package" not in _ids(text) and "xformers.fa4-namespace" not in _ids(text)


def test_a_title_only_pattern_reads_the_inputs_first_line_not_a_windows():
    """`\\A` in a pattern is the input's start (knowledge/match.py): a window searched around a line further down a long
    log starts wherever 16 KB above that line falls, and a sentence there is no report's title (backends.toml's
    pre-Ampere sentences, prose.toml's titles)."""
    line = "step 000 loss 0.5000 lr 1e-5 " + "." * 34 + "\n"  # 64 bytes
    head = line * 600
    sent = "V100 does not support flash attn, inference fails here!\n"
    pad = ""
    while len(head + sent + pad) < len(head) + 16384 + 10:  # a line that names a backend 16 KB below the sentence
        pad += line
    text = head + sent + pad + "flash_attn 2.7.4 loaded ok\n" + line * 20
    # policy: lead, session 26: the prose layer's reading of that sentence anywhere (prose.gpu) is now that GPU refused too
    # (backend.unsupported-gpu, attribution.toml [[specialize]]), so the title-only pattern is read alone (ids=)
    only = {"backend.unsupported-gpu"}
    assert "backend.unsupported-gpu" not in [m.entry.id for m in match(text, ids=only)]
    assert "backend.unsupported-gpu" in [m.entry.id for m in match(sent + pad, ids=only)]  # the same sentence as the input's first line


# the review of 2026-11-28: lines of ordinary logs that a widened pattern claimed with a backend named elsewhere, and
# advice that could not apply (each returned nothing, or a better entry, before the widenings)
@pytest.mark.parametrize("text,absent", [
    ("Using flash_attention_2 for the model\nStep 100: loss=nan, lr=1e-4", "attn.nan-output"),
    ("Using flash_attention_2\nWarning: this tokenizer does not support dropout in BPE merges", "attn.dropout-unsupported"),
    ("Using SDPA.\ntorch.compile: graph break in user code at train.py:120", "compile.backend-untraceable"),
    ("RuntimeError: `ptxas` failed with error code 137 while compiling flash attention kernel in /home/u/fa_triton.py",
     "triton.ptxas-failed"),
    ("WARNING: xFormers wasn't built with CUDA support; torch.cuda.is_available() is False on this Mac (MPS)",
     "xformers.not-compiled"),
    ("mask = create_block_mask(causal, None, None, 1024, 1024)\n" + "step 1 loss 0.5\n" * 80
     + "IndexError: index 7 is out of bounds for dimension 0 with size 7", "flex.mask-mod-index-out-of-range"),
])
def test_review_near_misses(text, absent):
    assert absent not in _ids(text)


@pytest.mark.parametrize("text,entry,backend", [
    ("loss=nan after 200 steps with sageattention 2.1.1 on the 4090", "attn.nan-output", "sage"),
    ("ring-flash-attn not support dropout", "attn.dropout-unsupported", "fa2"),
    ("torch.compile graph break in the flash_attention_2 path of Qwen2 (fullgraph=True fails)",
     "compile.backend-untraceable", "fa2"),
    ("triton.runtime.errors.PTXASError: `ptxas` failed with error code 4294967295 `ptxas` stderr:",
     "triton.ptxas-failed", None),
])
def test_review_still_read(text, entry, backend):
    assert _top(text) == (entry, backend)


def test_a_hostname_like_line_prefix_is_linear():
    """The multi-node prefix's host form is bounded (review of 2026-11-28: two unbounded [\\w-]* around a repeating
    keyword made one long line quadratic): a line of 'gpu' repeated is not a prefix, whatever its length."""
    from attn_doctor.knowledge.match import LINE_PREFIX
    assert "{0,40}" in LINE_PREFIX.pattern.decode() and LINE_PREFIX.match(b"gpu" * 2000) is None
