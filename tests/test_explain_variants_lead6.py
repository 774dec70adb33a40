"""Variants for the mechanisms the lead added in the sixth session (2026-11-28, issue 23) from training rounds
10, 11 and 13a/13b's misses. Every case was written by hand from the mechanism, NOT copied from a real thread:
other paths, versions, GPUs and wordings. Near misses beside each assert what must NOT be claimed.

  te-none    frameworks.toml te.no-backend: TransformerEngine's DotProductAttention finds no backend for the inputs
  sdpa-last  triage.toml triage.through-backend (frames): a traceback whose innermost frame calls torch's SDPA and
             whose error line is cut
  ninja      (tried and removed after review) a ninja compile step of a backend's sources as weak evidence of a failed
             build: a verbose (-v) log of a build that worked shows the same steps, further above its "Successfully
             installed" than a pattern can look; a step line alone claims no failed build
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids, tb

SDPA = "out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)"


@pytest.mark.parametrize("text,entry,backend", [
    # te-none
    ("ValueError: No dot product attention backend is available for the provided inputs. Please run with "
     "NVTE_DEBUG=1 NVTE_DEBUG_LEVEL=2 for more details.", "te.no-backend", None),
    ('  File "/usr/local/lib/python3.12/dist-packages/transformer_engine/pytorch/attention/dot_product_attention/'
     'dot_product_attention.py", line 1302, in forward\n    raise ValueError("No dot product attention backend is '
     'available for the provided inputs")', "te.no-backend", None),
    ("[NeMo E 2026-03-02] Exception: No dot product attention support for the provided inputs!", "te.no-backend",
     None),
    # sdpa-last
    (tb(("/home/u/proj/net/attn.py", 51, "forward", SDPA)) + "\n", "triage.through-backend", "sdpa"),
    (tb(("C:\\sd\\modules\\sd_hijack_optimizations.py", 640, "sdp_attnblock_forward",
         "out = torch.nn.functional.scaled_dot_product_attention(q, k, v, dropout_p=0.0, is_causal=False)")),
     "triage.through-backend", "sdpa"),
    (tb(("/app/blocks.py", 12, "forward", "hidden = self.block(hidden)"), ("/app/attn.py", 40, "__call__", SDPA))
     + "\n" + "^" * 40 + "\n\nI only changed the resolution to 1536.", "triage.through-backend", "sdpa"),
])
def test_mechanism(text, entry, backend):
    assert _top(text) == (entry, backend)


@pytest.mark.parametrize("text,absent", [
    # te-none: TransformerEngine's debug line listing which backends are available is no failure
    ("DEBUG:DotProductAttention:Available backends = {FlashAttention=False, FusedAttention=True, "
     "UnfusedDotProductAttention=True}", "te.no-backend"),
    # sdpa-last: SDPA is not the innermost frame (something patched it: the deeper frame's backend or nothing)
    (tb(("/app/m.py", 10, "forward", SDPA), ("/app/n.py", 3, "g", "y = h(x)")), "triage.through-backend"),
    # ninja: a step line alone, a verbose build that worked, then an unrelated failure; a C++ step of another extension
    ("  [3/48] /opt/cuda/bin/nvcc -c /home/me/SageAttention/csrc/qattn/qk_int_sv_f16_cuda_sm80.cu -o build/q.o",
     "build.compile-failed"),
    ("".join("  [%d/100] /usr/local/cuda/bin/nvcc -c /tmp/pip-install-x/flash-attn_1/csrc/flash_attn/src/"
             "flash_fwd_hdim64_bf16_sm80_%d.cu -o x%d.o %s\n" % (i, i, i, "-I/usr/include " * 200) for i in range(1, 101))
     + "Successfully installed flash-attn-2.8.3\n" + tb(("train.py", 3, "<module>", "import wandb"),
                                                       error="ModuleNotFoundError: No module named 'wandb'"),
     "build.compile-failed"),
    ("  [84/85] /usr/local/cuda/bin/nvcc -c /tmp/pip-install-x/flash-attn_1/csrc/flash_attn/src/"
     "flash_fwd_hdim64_bf16_sm80.cu -o x.o\n  [85/85] c++ -shared x.o -o flash_attn_2_cuda.so\n"
     "Successfully built flash-attn\nInstalling collected packages: flash-attn\nSuccessfully installed "
     "flash-attn-2.8.3\n" + tb(("train.py", 3, "<module>", "import wandb"),
                               error="ModuleNotFoundError: No module named 'wandb'"), "build.compile-failed"),
    ("  [3/10] /usr/local/cuda/bin/nvcc -c /src/mylayers/csrc/fused_rmsnorm.cu -o build/fused_rmsnorm.o",
     "build.compile-failed"),
])
def test_near_miss(text, absent):
    assert absent not in _ids(text)


def test_sdpa_last_frame_gives_way_to_the_error_below_it():
    text = tb(("/app/m.py", 10, "forward", SDPA),
              error="torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 GiB")
    assert "triage.through-backend" not in _ids(text)


# prefixes: what launchers, loggers and quoting put before each line (knowledge/match.py LINE_PREFIX) and HTML's
# escapes (HTML_ENTITY) are read through, the line keeping its number
# read by the traceback's shape (the innermost frame, its indented code, the exception at the line's start): a
# prefix on every line hides that shape unless it is stripped
ERR = ("Traceback (most recent call last):\n  File \"/w/train.py\", line 9, in <module>\n    out = model(x)\n"
       "  File \"/venv/lib/python3.11/site-packages/flash_attn/flash_attn_interface.py\", line 91, in _flash_attn_forward\n"
       "    out, softmax_lse, S_dmask, rng_state = flash_attn_gpu.fwd(\n"
       "RuntimeError: something went sideways in the kernel launcher")


def _each(prefix: str, text: str = ERR) -> str:
    return "\n".join(prefix + line for line in text.splitlines())


@pytest.mark.parametrize("prefix", [
    "[rank3]: ", "[default0]:", "(RayTrainWorker pid=20411, ip=10.0.3.7) ", "(EngineCore_DP0 pid=546) ",
    "trainer-1  | ", "comfyui_1 | ", "ERROR 03-01 12:00:01 [core.py:708] ",
    "2026-03-01 12:00:01,123 - ERROR - ", "[2026-03-01 12:00:01,123] [ERROR] ", "2026-03-01T12:00:01.1234567Z ",
    "E0301 12:00:01.123456  1234 worker.cc:88] ", "> ", "> > ", "[rank0]: (Worker pid=7) ",
])
def test_line_prefixes_are_read_through(prefix):
    assert _top(_each(prefix)) == ("triage.raised-in-fa2", "fa2")


def test_html_escapes_are_read_as_characters():
    text = ("ImportError: cannot import name &#39;flash_attn_func&#39; from &#39;flash_attn.cute&#39; "
            "(/venv/lib/python3.12/site-packages/flash_attn/cute/__init__.py)")
    assert _top(text) == _top(text.replace("&#39;", "'")) == ("cute.import-name", "cute")


def test_a_prefixed_line_keeps_its_number():
    from attn_doctor.explain import match
    text = "\n".join(["[rank0]: step %d loss 1.0" % i for i in range(40)]) + "\n" + _each("[rank0]: ")
    found = [m for m in match(text) if m.entry.id == "triage.raised-in-fa2"]
    assert found and found[0].line == 40 + len(ERR.splitlines())


@pytest.mark.parametrize("text,absent", [
    # an INFO line keeps its prefix: loguru's notice that an optional library is absent is no failure
    ("2026-03-02 16:29:35.779 | INFO     | app.ops.attn.sage_attn:<module>:25 - sageattn3 not found, please "
     "install sageattention first", "sage.not-installed"),
    # a time alone before a line: a log's line, not a report's title for prose to read
    ("2025-06-01 10:00:00 xformers failed to load", "prose.fails"),
    # `a-1 | ` needs the compose service's number and the bar: a table row is no prefix
    ("| flash-attn | 2.8.3 | failed to import |", "fa2.missing"),
])
def test_prefix_near_miss(text, absent):
    assert absent not in _ids(text)


# languages: prose's failure, build and import words in the languages users write titles in (knowledge/prose.toml)
@pytest.mark.parametrize("text,entry,backend", [
    ("xformers 无法使用", "prose.fails", "xformers"),
    ("开启flash attention后loss为nan", "prose.numbers", "fa2"),
    ("xformersが読み込めない", "prose.import", "xformers"),
    ("flash attention 설치 실패", "prose.build", "fa2"),
    ("xformers 오류가 발생합니다", "prose.fails", "xformers"),
    ("erro ao instalar xformers", "prose.build", "xformers"),
    ("error al instalar flash-attn en Windows", "prose.build", "fa2"),
    ("SageAttention funktioniert nicht", "prose.fails", "sage"),
    ("flash-attn Installation fehlgeschlagen", "prose.build", "fa2"),
    ("échec de l'installation de flash-attn", "prose.build", "fa2"),
    ("xformers 版本不兼容", "prose.fails", "xformers"),
])
def test_language(text, entry, backend):
    assert _top(text) == (entry, backend)


@pytest.mark.parametrize("text", [
    "flash attention 安装教程", "xformers 安装成功了，速度很快", "SageAttention funktioniert super auf der 4090",
    "flash-attn Installation erfolgreich", "sageattention nano banana workflow", "xformers 설치 방법",
    "como instalar flash-attn no Windows", "установка flash-attn: инструкция", "Financial model with flash attention",
])
def test_language_near_miss(text):
    assert _top(text) == (None, None)


# transformers' load-time FA2 dtype advisory is printed by healthy runs: no cause; its ValueError and FA2's own error are
ADVISORY = ("Flash Attention 2.0 only supports torch.float16 and torch.bfloat16 dtypes, but the current dype in "
            "Qwen2ForCausalLM is torch.float32. You should run training or inference using Automatic Mixed-Precision "
            "via the `with torch.autocast(device_type='torch_device'):` decorator, or load the model with the "
            "`torch_dtype` argument.")


def test_fa2_dtype_advisory_is_no_cause():
    assert "fa2.dtype" not in _ids(ADVISORY)
    assert "fa2.dtype" not in _ids("(WorkerDict pid=4411) " + ADVISORY + "\nKeyError: 'reward_model'")
    # it is a note: what the advisory means, never the failure's cause
    from attn_doctor.explain import match
    found = match(ADVISORY)
    assert [m.entry.id for m in found] == ["fa2.dtype-advisory"] and not found[0].entry.can_cause


@pytest.mark.parametrize("text", [
    "ValueError: Flash Attention 2.0 only supports torch.float16 and torch.bfloat16 dtypes. You passed torch.float32, "
    "this might lead to unexpected behaviour.",
    "RuntimeError: FlashAttention only support fp16 and bf16 data type",
    "flash attention 2 only supports fp16 and bf16 — my Gemma run crashes in fp32",
])
def test_fa2_dtype_errors_still_are(text):
    assert _top(text) == ("fa2.dtype", "fa2")


# a clause saying a backend works names the one that fails elsewhere in the sentence (attribution/ HEALTHY)
@pytest.mark.parametrize("text,backend", [
    ("With attn_implementation='sdpa' training is fine; with 'flash_attention_2' loss is nan", "fa2"),
    ("sdpa works but flash_attention_2 crashes with an illegal memory access", "fa2"),
    ("xformers runs fine, sageattention gives black images on the 5090", "sage"),
    ("FA2 没问题，FA3 报错", "fa3"),
    # (review: a module name's dot and a parenthesis break no clause)
    ("flash_attn.cute works fine, but xformers crashes on the 5090", "xformers"),
    ("FA4 (flash_attn.cute) works fine, but xformers crashes", "xformers"),
])
def test_healthy_clause_names_no_failing_backend(text, backend):
    assert _top(text)[1] == backend


@pytest.mark.parametrize("text,backend", [
    ("FA2 worked in 2.6 but fails in 2.7", "fa2"),          # no other backend: the sentence is about FA2
    ("xformers no longer works after the torch update", "xformers"),
    ("Fine-tuning Llama with flash-attn, loss is nan", "fa2"),  # fine-tuning is no health
    ("Fine tuning Qwen with flash_attention_2, loss is nan", "fa2"),
    # (review: the backend switched off is the conjunction's nearest, not the one switched on before it)
    ("if I use flash attention 2 the loss is nan when xformers is turned off", "fa2"),
    ("SageAttention doesn't work, sdpa is slow", "sage"),
])
def test_healthy_clause_near_miss(text, backend):
    assert _top(text)[1] == backend


# an opening clause of time or cause names what came before; the main clause what fails (attribution/ OPENING_CLAUSE)
@pytest.mark.parametrize("text,backend", [
    ("After installing xformers, flash attention 2 is no longer detected", "fa2"),
    ("Since updating flash-attn to 2.8.3, xformers fails to import", "xformers"),
    ("When I enable sage attention, the flex attention path crashes", "flex"),
    # near misses: no backend in the main clause, or no opening clause
    ("After installing xformers, ComfyUI fails to start", "xformers"),
    ("xformers fails after installing flash-attn 2.8", "xformers"),
])
def test_opening_clause(text, backend):
    assert _top(text)[1] == backend


# IPython's and Jupyter's tracebacks (Colab) are read as Python's (knowledge/match.py _python_frames): rewriting the
# training rounds' tracebacks into IPython's two forms left 85 and 86 of 91 right; now 90 each
IPY_OLD = ("---------------------------------------------------------------------------\n"
           "RuntimeError                              Traceback (most recent call last)\n"
           "<ipython-input-7-3f2a> in <cell line: 4>()\n      2 x = torch.randn(1, 8, 128, 64)\n----> 4 y = model(x)\n\n"
           "/usr/local/lib/python3.10/dist-packages/flash_attn/flash_attn_interface.py in _flash_attn_forward(q, k, v)\n"
           "     89     q, k, v = [maybe_contiguous(x) for x in (q, k, v)]\n"
           "---> 90     out, softmax_lse, S_dmask, rng_state = flash_attn_gpu.fwd(\n"
           "     91         q, k, v, None, alibi_slopes, dropout_p,\n\n"
           "RuntimeError: something went sideways in the kernel launcher")
IPY_NEW = ("---------------------------------------------------------------------------\n"
           "RuntimeError                              Traceback (most recent call last)\n"
           "Cell In[7], line 4\n      2 x = torch.randn(1, 8, 128, 64)\n----> 4 y = model(x)\n\n"
           "File /usr/local/lib/python3.11/site-packages/flash_attn/flash_attn_interface.py:90, in _flash_attn_forward(q, k, v)\n"
           "     89     q, k, v = [maybe_contiguous(x) for x in (q, k, v)]\n"
           "---> 90     out, softmax_lse, S_dmask, rng_state = flash_attn_gpu.fwd(\n"
           "     91         q, k, v, None, alibi_slopes, dropout_p,\n\n"
           "RuntimeError: something went sideways in the kernel launcher")


@pytest.mark.parametrize("text", [IPY_OLD, IPY_NEW])
def test_ipython_tracebacks(text):
    # IPython's context lines around the arrow stand between the frame and the exception, so the traceback reads as
    # one whose error names its backend's frame, not one raised in it: the backend is what is asked
    entry, backend = _top(text)
    assert backend == "fa2" and entry in ("triage.raised-in-fa2", "triage.error-names-backend")


def test_ipython_frame_cut_before_its_error_is_weak_evidence():
    cut = IPY_NEW.rsplit("\n\nRuntimeError", 1)[0]
    assert _top(cut) == ("triage.through-backend", "fa2")


def test_an_arrow_in_prose_is_no_frame():
    assert _ids("install flash-attn ---> 2 errors, see log") == _ids("install flash-attn, 2 errors, see log")


@pytest.mark.parametrize("code,backend", [
    ("out = flash_attn_varlen_func(q, k, v, cu_seqlens, cu_seqlens, max_len, max_len, causal=True)", "fa2"),
    ("hidden = xformers.ops.memory_efficient_attention(q, k, v, attn_bias=bias)", "xformers"),
    ("x = sageattn(q, k, v, tensor_layout='HND', is_causal=False)", "sage"),
    ("out = flex_attention(q, k, v, block_mask=self.block_mask)", "flex"),
])
def test_cut_at_a_backends_entry_point(code, backend):
    assert _top(tb(("/srv/model/attention.py", 77, "forward", code)) + "\n") == ("triage.through-backend", backend)


# Triton's launcher build on Windows (triton-windows: MSVC's cl.exe or its TinyCC) and Windows' localised
# "'cl' is not recognized" (knowledge/triton.toml triton.launcher-build, builds.toml build.msvc-env)
@pytest.mark.parametrize("text,entry", [
    ("subprocess.CalledProcessError: Command '['C:\\\\VS\\\\VC\\\\Tools\\\\MSVC\\\\14.43.34808\\\\bin\\\\Hostx64\\\\x64\\\\cl.exe', "
     "'C:\\\\Users\\\\a\\\\AppData\\\\Local\\\\Temp\\\\tmp7k2\\\\cuda_utils.c', '/nologo', '/O2', '/LD', '/wd4819']' returned "
     "non-zero exit status 2.", "triton.launcher-build"),
    ('  File "D:\\ComfyUI\\python_embeded\\Lib\\site-packages\\triton\\runtime\\build.py", line 62, in _build\n'
     "    ret = subprocess.check_call(cc_cmd)\n  File \"subprocess.py\", line 408, in check_call\n"
     "FileNotFoundError: [WinError 2] 系统找不到指定的文件。", "triton.launcher-build"),
    ("'cl' は、内部コマンドまたは外部コマンド、\n操作可能なプログラムまたはバッチ ファイルとして認識されていません。\n"
     "error: command 'C:\\\\CUDA\\\\v12.6\\\\bin\\\\nvcc.exe' failed with exit code 1\nFailed building wheel for flash-attn",
     "build.msvc-env"),
    ("'cl' no se reconoce como un comando interno o externo,\nprograma o archivo por lotes ejecutable.\n"
     "  ERROR: Failed building wheel for xformers", "build.msvc-env"),
])
def test_windows_compilers(text, entry):
    assert _top(text)[0] == entry


@pytest.mark.parametrize("text", [
    "subprocess.CalledProcessError: Command '['gcc', 'src/main.c', '-o', 'app']' returned non-zero exit status 1.",
    '  File "/app/tools/build.py", line 12, in _build\n    run(cmd)\nFileNotFoundError: [Errno 2] No such file or '
    "directory: 'make'",
])
def test_windows_compilers_near_miss(text):
    assert "triton.launcher-build" not in _ids(text)


def test_a_table_row_keeps_its_first_column():
    # review: docker compose's `worker   | ` prefix (no index) is not a table's first column
    from attn_doctor.knowledge.match import _make_block, _index
    row = b"sdpa     | ok      | 4/4 passed\nxformers | error   | import failed: undefined symbol\n"
    assert _make_block(row, 1, _index(None, ())).data == row
    assert _make_block(b"worker      | RuntimeError: boom\n", 1, _index(None, ())).data == b"RuntimeError: boom\n"


def test_a_logging_info_prefix_is_read_through_on_a_tracebacks_lines_only():
    info = "2026-03-01 12:00:01,123 - INFO - "
    assert _top(_each(info)) == ("triage.raised-in-fa2", "fa2")
    # a notice at INFO keeps its prefix (entries tell a notice from a failure by its level)
    from attn_doctor.knowledge.match import _make_block, _index
    notice = (info + "sageattention not found, falling back to sdpa\n").encode()
    assert _make_block(notice, 1, _index(None, ())).data == notice
