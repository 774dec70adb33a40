"""Review of session 29's change (helper rev29): readings the merged helpers' rules gave that a maintainer would call wrong,
each a variant written here (none is a fixture's), failing on main as merged and passing after rev29's mends; near misses
beside them keep what the rules were written for."""

from __future__ import annotations

import pytest

from tests.test_review_rev28 import _read

_NO_KERNEL = "RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
_FA_FRAMES = ('  File "/venv/lib/python3.10/site-packages/flash_attn/flash_attn_interface.py", line 90, in _flash_attn_forward\n'
              "    out, q, k, v, out_padded, softmax_lse, S_dmask, rng_state = flash_attn_cuda.fwd(\n")
_TOKENIZER_FRAMES = ('  File "/venv/lib/python3.10/site-packages/transformers/tokenization_utils_base.py", line 2013, in '
                     "from_pretrained\n    raise EnvironmentError(\n")


# 1. A limit given as the reason for a choice (ex161: "..., so we use sdpa"; ex166: "We use sdpa because ...") is context only
# where the failure reported after it is not the ruled-out backend's. A traceback whose innermost backend frame is the
# ruled-out backend's file (flash_attn/) is that backend failing, though its exception line names none: the limit is the
# report (refusals._limit_followed read the exception line alone, "other", and dropped the backend: gpu.arch-not-in-torch
# with none, i.e. "torch lacks this GPU's arch" for a V100 that torch supports).
@pytest.mark.parametrize("lead", [
    "We use sdpa because our V100 can't run FA2. When I enable it anyway:\n",
    "Our V100 can't run FA2, so we use sdpa. When I enable it anyway:\n",
    "用 sdpa，因为 V100 不支持 flash-attn。强行开启的话：\n",
    "Мы используем sdpa, потому что наши V100 не поддерживают flash-attn 2. Если включить его:\n",
])
def test_the_ruled_out_backends_own_frames_after_the_limit_keep_it(lead):
    got = _read(lead + "Traceback (most recent call last):\n" + _FA_FRAMES + _NO_KERNEL)
    assert got[:1] and got[0][1] == "fa2", got


# near miss: another library's frames after the limit (ex161 / ex166's rule holds: the limit is context)
@pytest.mark.parametrize("lead", [
    "We use sdpa because our V100 can't run FA2. Loading fails:\n",
    "Our V100 can't run FA2, so we use sdpa. Loading fails:\n",
])
def test_another_librarys_frames_after_the_limit_leave_it_context(lead):
    got = _read(lead + "Traceback (most recent call last):\n" + _TOKENIZER_FRAMES + "OSError: tokenizer.json not found\n")
    assert not any(b == "fa2" for _, b in got), got


# near miss: the chosen backend's own frames after the limit are the chosen backend's failure (and no limit of the ruled-out one)
@pytest.mark.parametrize("lead", [
    "We use xformers because our V100 can't run FA2. It fails at the first step:\n",
    "Our V100 can't run FA2, so we use xformers. It fails at the first step:\n",
])
def test_the_chosen_backends_frames_after_the_limit_are_its_failure(lead):
    frames = ('  File "/venv/lib/python3.10/site-packages/xformers/ops/fmha/__init__.py", line 306, in '
              "_memory_efficient_attention_forward\n    out, *_ = op.apply(inp, needs_gradient=False)\n")
    got = _read(lead + "Traceback (most recent call last):\n" + frames + _NO_KERNEL)
    assert got[:1] and got[0][1] == "xformers", got


# 2. ex168's built-in rule (decide.TORCH_FLASH): torch's built-in / native SDPA named anywhere within 80 lines made an unversioned
# "flash attention" SDPA's flash kernel, also where the text sets the built-in function against flash attention in words other than
# the rule's few lookbehinds ("instead of", "than", "versus"): the writer's flash attention (the package) read as torch's. The
# built-in function counts only where it is the one said to fail, in its own clause.
_A6000 = "Flash attention crashes on my A6000\n\n"


@pytest.mark.parametrize("body, backend", [
    ("I replaced the built-in scaled_dot_product_attention with flash attention and it crashes in the backward pass.", "fa2"),
    ("Switching from the built-in SDPA to flash attention, it crashes in the backward pass.", "fa2"),
    ("Unlike the native SDPA, flash attention crashes in the backward pass.", "fa2"),
    ("The built-in SDPA works fine; flash attention crashes in the backward pass.", "fa2"),
    ("With the native SDPA everything is fine. Flash attention crashes in the backward pass.", "fa2"),
    ("PyTorch's native SDPA op was our baseline. Flash attention crashes in the backward pass.", "fa2"),
    # near misses (ex168's own texts are in tests/test_explain_variants_ex168.py): the built-in function the one that fails
    ("As far as I can tell it is the native SDPA op of PyTorch 2.4 that breaks here.", "sdpa"),
    ("It is PyTorch's inbuilt F.scaled_dot_product_attention that crashes with head_dim 256.", "sdpa"),
    ("The built-in SDPA crashes with head_dim 256 when flash attention is picked.", "sdpa"),
])
def test_the_builtin_sdpa_is_flash_attentions_subject_only_where_said_to_fail(body, backend):
    got = _read(_A6000 + body)
    assert got[:1] and got[0][1] == backend, got


# 3. ex166's cuda.cudnn-version-mismatch on ROCm: torch runs the same check over MIOpen there (torch/backends/cudnn/__init__.py
# _init(), `not _cudnn.is_cuda`: a strict check) and says "cuDNN" all the same (xuhuisheng/rocm-gfx803#13: "compiled against
# (2, 15, 0) but linked against (2, 16, 0)", MIOpen 2.15 of ROCm 5.0). The fix printed told that ROCm user to install the
# nvidia-cudnn wheel torch requires: the MIOpen versions are ROCm's evidence, and the fix on ROCm names MIOpen and no CUDA wheel.
def _first_fix(text: str) -> tuple[str, str]:
    from attn_doctor.explain import match

    found = match(text)
    assert found, text
    return found[0].entry.id, found[0].fix or ""


@pytest.mark.parametrize("text", [
    "RuntimeError: cuDNN version incompatibility: PyTorch was compiled against (2, 15, 0) but linked against (2, 16, 0)\n",
    "  File \"/home/u/venv/lib/python3.10/site-packages/torch/backends/cudnn/__init__.py\", line 97, in _init\n"
    "    raise RuntimeError(base_error_msg)\nRuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (3, 1, 0) "
    "but found runtime version (3, 0, 0). PyTorch already comes bundled with cuDNN. One option to resolving this error is to ensure "
    "PyTorch can find the bundled cuDNN. \n",
])
def test_torchs_cudnn_check_over_miopen_prints_no_cuda_fix(text):
    entry, fix = _first_fix(text)
    assert entry == "cuda.cudnn-version-mismatch" and "MIOpen" in fix and "nvidia-cudnn" not in fix.replace(
        "no nvidia-cudnn", ""), fix


# near misses: cuDNN's own versions (5 and up) keep the CUDA fix (the requirement of the env's torch)
@pytest.mark.parametrize("text", [
    "RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (9, 1, 0) but found runtime version (8, 9, 2).\n",
    "RuntimeError: cuDNN version incompatibility: PyTorch was compiled against 7102 but linked against 7005\n",
])
def test_torchs_cudnn_check_over_cudnn_keeps_the_cuda_fix(text):
    entry, fix = _first_fix(text)
    assert entry == "cuda.cudnn-version-mismatch" and "nvidia-cudnn" in fix and "MIOpen" not in fix, fix


# 4. Every Python file of the project compiles without a warning (session 28's knowledge/__init__.py docstring and
# tests/test_explain_long_lines.py's held `\\w` / `\\s` in plain strings: "invalid escape sequence", a SyntaxWarning from
# Python 3.12 on, an error in a later release). tests/data holds inputs (a notebook's cells), not the project's code.
def test_every_python_file_compiles_without_a_warning():
    import warnings
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    bad = []
    for folder in ("attn_doctor", "benchmarks", "scripts", "tests"):
        for p in sorted((root / folder).rglob("*.py")):
            if (root / "tests" / "data") in p.parents:
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                try:
                    compile(p.read_text(encoding="utf-8"), str(p), "exec")
                except (SyntaxError, Warning) as e:
                    bad.append(f"{p.relative_to(root)}: {e}")
    assert not bad, bad


# 5. attribution's PROSE_EXAMPLES ("such as a, b, c etc.") let an item start with the blanks after the comma: on a list with no
# closing "etc." every comma doubled the ways the engine tried (25 items: a minute on one line; 40 would never end). ex167's
# guard reads knowledge patterns only, and its `nested` shape takes the comma as ending each iteration. Run apart, with a
# deadline: a list of 60 items must be read at once.
@pytest.mark.parametrize("lead", ["flash-attn crashes with models such as ", "It fails on GPUs like ",
                                  "other backends such as "])
def test_a_long_list_in_prose_is_read_in_linear_time(lead):
    import subprocess
    import sys
    from pathlib import Path

    code = ("from attn_doctor.knowledge.attribution import sentences as S; import sys; "
            "S.PROSE_EXAMPLES.search(sys.argv[1]); S._scrub(sys.argv[1])")
    text = lead + ", ".join(f"model-{i} v{i}" for i in range(60)) + " (see the table)"
    done = subprocess.run([sys.executable, "-c", code, text], cwd=Path(__file__).resolve().parents[1], timeout=60,
                          capture_output=True)
    assert done.returncode == 0, done.stderr[-2000:]


# 6. ex164's xformers.no-cuda read of an xformers source build into a macosx build folder (chameleon#40): pip prints a build's own
# output (the copying lines) only where it fails, or under -v; a verbose log that goes on to build and install xformers on the Mac
# read "xformers was asked for but this torch sees no CUDA GPU" first, over a failure of something else.
_MAC_COPY = ("  copying xformers/ops/fmha/cutlass.py -> build/lib.macosx-14.0-arm64-cpython-311/xformers/ops/fmha\n"
             "  copying xformers/ops/fmha/flash.py -> build/lib.macosx-14.0-arm64-cpython-311/xformers/ops/fmha\n"
             "  running build_ext\n")


@pytest.mark.parametrize("done", [
    "  Created wheel for xformers: filename=xformers-0.0.28-cp311-cp311-macosx_14_0_arm64.whl size=3120000\n"
    "Successfully built xformers\nInstalling collected packages: xformers\nSuccessfully installed xformers-0.0.28\n",
    "Successfully installed gradio-4.44.0 xformers-0.0.28.post1\n",
    "  Running setup.py install for xformers ... done\n",
])
def test_a_mac_build_of_xformers_that_finished_is_not_its_failure(done):
    text = ("$ pip install -v -r requirements.txt\n" + _MAC_COPY + done + "$ python app.py\nTraceback (most recent call last):\n"
            '  File "app.py", line 3, in <module>\n    import sentencepiece\nModuleNotFoundError: No module named \'sentencepiece\'\n')
    assert not any(e == "xformers.no-cuda" for e, _ in _read(text)), _read(text)


# near misses: the copying lines alone (a log cut before its error, as chameleon#40's) and a build that fails after them
@pytest.mark.parametrize("tail", ["", "  error: command '/usr/bin/clang++' failed with exit code 1\n"
                                      "ERROR: Failed building wheel for xformers\nFailed to build xformers\n"])
def test_a_mac_build_of_xformers_that_did_not_finish_is_read(tail):
    got = _read("Issue during setup - xformers\n\n" + _MAC_COPY + tail)
    assert any(e == "xformers.no-cuda" for e, _ in got), got


# 7. ex166's install.abi3-wheel fix said pip refuses a cpXY-abi3 wheel "only on an older Python or another OS / CPU": pip's tags
# (pypa/packaging tags.py _abi3_applies, `not threading`; abi3 in cpython_tags only) give none to a free-threaded CPython nor PyPy
def test_the_abi3_fix_names_the_pythons_that_take_no_abi3_wheel():
    from attn_doctor.knowledge import entries

    fix = entries()["install.abi3-wheel"].fix
    assert "free-threaded" in fix and "PyPy" in fix and "only on an older Python" not in fix, fix
