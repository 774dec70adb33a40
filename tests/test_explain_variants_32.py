"""Variants for round 32 (issue 23, helper ex32): the diffusion UIs' and trainers' trackers (ComfyUI and its nodes,
Forge, FramePack, SD.Next, InvokeAI, kohya, musubi-tuner, ai-toolkit, diffusers), whose texts (fixtures/errors/round32/)
main's rules missed.

Every case was written by hand for this round (2026-11-28) from the mechanism, NOT copied from a real thread:
another app, path, version, symbol, wrapper or wording. Each positive case asserts the entry and the backend of
the first problem that can be a failure's cause; the near misses beside each mechanism assert what must NOT be
claimed.

Mechanisms (knowledge file or module: entry):
  fallback-root  match.py _rank: a symptom (a trainer's or app's fallback warning that quotes the import error on its
                 own line: "failed to import flash_attn: <loader error>, falling back to sdpa") no longer claims that line
                 from the cause it quotes: the cause is kept and ranks first
  fallback-verb  flash_attn.toml fa2.not-available-fallback: the verb first ("Failed to import flash_attn: ImportError(...).
                 Using SDPA."); backends.toml import.glibc: the loader error's repr with an escaped quote (\\' not found)
  glibc-title    attribution/ required_by_other: a title or sentence that repeats the loader error without its
                 "(required by X)" takes X from the error's own line nearby (a scipy or dlib extension is not attention's)
  triton-probe   attribution.toml [optional_probe] (explain.py): xformers' optional `import triton` probe ("A matching
                 Triton is not available, some optimizations will not be enabled" over its traceback) is a notice
  triton-pin     wheels.toml install.no-distribution: triton on Windows (a path, python_embeded or a win_amd64 tag near the
                 line), whose PyPI wheels are Linux-only (a node pinning triton==2.0.0); a bare line stays unclaimed
  attrs-dataclass env.toml flex.triton-broken: Inductor's runtime/hints.py reading AttrsDescriptor as a dataclass, a Triton
                 of another release ("must be called with a dataclass type or instance")
  launcher-frame triton.toml triton.launcher-build frames: a traceback cut in Triton's driver while it compiles the
                 cuda_utils launcher from driver.c
  varlen-compile compile.toml compile.backend-untraceable, attribution.toml (fa2/sage names "Flash varlen", "Sage varlen",
                 [first_named]): a backend's varlen call said not to work with torch.compile
  xf-torchvision xformers.toml xformers.replaced-torch: a pip install of xformers (not --no-deps), then "it updated torch
                 but not torchvision"
  win-sdpa-probe sdpa.toml sdpa.built-without-flash: torch.backends.cuda.is_flash_attention_available() said to be false
  xf-op-words    xformers.toml xformers.no-operator: memory_efficient_attention_forward said in words to be unavailable
  build-if       builds.toml build.compile-failed: "if the source build fails" is a condition, not a report
  black-content  attention.toml attn.wrong-output: "... is black and contains no content"
  xf-forward     attention.toml attn.api-mismatch: a trainer's own forward_xformers() called with an argument it lacks
  sdnext-cuda    versions.toml xformers.built-for-other-cuda: SD.Next's "Likely incompatible Cuda with: xformers==..."
                 where installed and required torch differ only in their +cuXXX
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids, tb


# fallback-root
@pytest.mark.parametrize("text,top", [
    ("WARNING: could not import flash_attn (/opt/conda/lib/libstdc++.so.6: version `GLIBCXX_3.4.30' not found), "
     "falling back to eager attention", ("import.glibc", "fa2")),
    ("[trainer] flash-attn failed to import: /lib64/libc.so.6: version `GLIBC_2.34' not found, using sdpa",
     ("import.glibc", "fa2")),
])
def test_fallback_warning_quoting_the_import_error_ranks_the_cause_first(text, top):
    assert _top(text) == top
    assert _ids(text)[0] == top[0]


def test_fallback_warning_alone_stays_the_fallback():
    assert _top("WARNING: flash_attn not installed, falling back to eager attention") == ("fa2.not-available-fallback", "fa2")


# fallback-verb
@pytest.mark.parametrize("text,top", [
    ("2026-02-03 09:14:55 | WARNING | Could not import flash_attn: ImportError('/usr/lib64/libstdc++.so.6: version "
     "`GLIBCXX_3.4.29\\' not found'). Using SDPA.", ("import.glibc", "fa2")),
    ("Unable to load flash-attn, switching to sdpa", ("fa2.not-available-fallback", "fa2")),
    ("Failed to import flash_attn; using torch attention instead", ("fa2.not-available-fallback", "fa2")),
])
def test_fallback_with_the_verb_first(text, top):
    assert _top(text) == top


@pytest.mark.parametrize("text", [
    "Failed to import flash_attn because CUDA out of memory, using sdpa",  # an OOM is the run's memory
    "I could not import the dataset, using a local copy",
])
def test_fallback_with_the_verb_first_near_misses(text):
    assert "fa2.not-available-fallback" not in _ids(text)


# glibc-title
def test_loader_error_in_a_title_takes_who_needed_it_from_its_own_line():
    text = ("version `GLIBCXX_3.4.29' not found when starting the UI\n\nrunning `python launch.py`:\n"
            "ImportError: /usr/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.29' not found (required by "
            "/home/u/venv/lib/python3.10/site-packages/dlib/_dlib_pybind11.cpython-310-x86_64-linux-gnu.so)")
    assert _ids(text) == []


def test_loader_error_in_a_title_of_an_attention_library_stays_claimed():
    text = ("version `GLIBCXX_3.4.32' not found after installing sageattention\n\n"
            "ImportError: /home/u/miniconda3/lib/libstdc++.so.6: version `GLIBCXX_3.4.32' not found (required by "
            "/home/u/miniconda3/lib/python3.12/site-packages/sageattention/_fused.cpython-312-x86_64-linux-gnu.so)")
    assert _top(text) == ("import.glibc", "sage")


# triton-probe
def test_xformers_optional_triton_probe_is_a_notice():
    text = ("A matching Triton is not available, some optimizations will not be enabled\n"
            + tb(("D:\\sd\\venv\\Lib\\site-packages\\xformers\\__init__.py", 55, "_is_triton_available", "import triton  # noqa"),
                 error="ModuleNotFoundError: No module named 'triton'")
            + "\nTraceback (most recent call last):\n  File \"D:\\sd\\train.py\", line 12, in <module>\n"
              "    import bitsandbytes\nModuleNotFoundError: No module named 'bitsandbytes'")
    assert "flex.no-triton" not in _ids(text)


def test_triton_missing_for_torch_compile_stays_claimed_after_the_probe():
    text = ("A matching Triton is not available, some optimizations will not be enabled\n"
            "ModuleNotFoundError: No module named 'triton'\n"
            + "\n".join(f"step {i}: loading weights" for i in range(12)) + "\n"
            + tb(("D:\\sd\\venv\\Lib\\site-packages\\torch\\_inductor\\runtime\\triton_heuristics.py", 40, "<module>",
                  "import triton"), error="ModuleNotFoundError: No module named 'triton'"))
    assert "flex.no-triton" in _ids(text)


# triton-pin
@pytest.mark.parametrize("text", [
    "(venv) C:\\Users\\me\\kohya> pip install -r requirements.txt\n"
    "ERROR: Could not find a version that satisfies the requirement triton==2.1.0 (from versions: none)",
    "Installing requirements for ComfyUI-SomeNode (Windows portable)\n[!] ERROR: No matching distribution found for triton>=2.0",
])
def test_triton_pin_with_no_distribution_on_windows(text):
    assert _top(text) == ("install.no-distribution", None)


@pytest.mark.parametrize("text", [
    "ERROR: No matching distribution found for triton==3.0.0",  # no platform said: any platform's, not claimed
    "C:\\sd> pip install -r req.txt\nERROR: No matching distribution found for triton-windows==9.9.9",  # another distribution
    "ERROR: No matching distribution found for tritonclient==2.41",
])
def test_triton_pin_near_misses(text):
    assert "install.no-distribution" not in _ids(text)


# attrs-dataclass
def test_inductor_reads_attrs_descriptor_of_another_triton():
    text = tb(("/opt/app/venv/lib/python3.11/site-packages/torch/_inductor/runtime/hints.py", 36, "<module>",
               "attr_desc_fields = {f.name for f in fields(AttrsDescriptor)}"),
              ("/usr/lib/python3.11/dataclasses.py", 1246, "fields",
               "raise TypeError('must be called with a dataclass type or instance') from None"),
              error="TypeError: must be called with a dataclass type or instance")
    # session 7 (ex43): Inductor's own import, no backend named: no backend (kijai/ComfyUI-WanVideoWrapper#513 is labelled none)
    assert _top(text) == ("flex.triton-broken", None)


def test_a_dataclass_error_elsewhere_is_not_triton():
    text = tb(("/app/config.py", 20, "load", "names = {f.name for f in fields(Settings)}"),
              error="TypeError: must be called with a dataclass type or instance")
    assert "flex.triton-broken" not in _ids(text)


# launcher-frame
def test_traceback_cut_in_the_launcher_build():
    text = tb(("/srv/venv/lib/python3.12/site-packages/triton/runtime/driver.py", 8, "_create_driver", "return actives[0]()"),
              ("/srv/venv/lib/python3.12/site-packages/triton/backends/nvidia/driver.py", 94, "__init__",
               'mod = compile_module_from_src(Path(os.path.join(dirname, "driver.c")).read_text(), "cuda_utils")'))
    assert _top(text) == ("triton.launcher-build", None)


def test_launcher_frame_under_its_own_error_is_that_error():
    text = tb(("/srv/venv/lib/python3.12/site-packages/triton/backends/nvidia/driver.py", 94, "__init__",
               'mod = compile_module_from_src(Path(os.path.join(dirname, "driver.c")).read_text(), "cuda_utils")'),
              error="RuntimeError: Failed to find C compiler. Please specify via CC environment variable.")
    # helper ex77 (session 11): flex.no-cc is [own_if_named] since round 77; Triton's own driver frame names no backend
    assert _top(text) == ("flex.no-cc", None)


# varlen-compile
@pytest.mark.parametrize("text,top", [
    ("Sage varlen fails to compile under torch.compile in my Wan pipeline", ("compile.backend-untraceable", "sage")),
    ("flash varlen doesn't work with torch.compile (fullgraph)", ("compile.backend-untraceable", "fa2")),
])
def test_varlen_call_said_not_to_compile(text, top):
    assert _top(text) == top


@pytest.mark.parametrize("text", [
    "varlen batching does not work with torch.compile",  # no backend named
    "flash varlen works with torch.compile now, thanks",
])
def test_varlen_near_misses(text):
    assert "compile.backend-untraceable" not in _ids(text)


# xf-torchvision
def test_xformers_install_replaced_torch_but_not_torchvision():
    text = ("I ran\n`venv\\Scripts\\python.exe -m pip install -U xformers`\nand now the UI does not start (screenshot)\n\n"
            "That command upgraded your torch but not torchaudio or torchvision, reinstall them from the cu124 index")
    assert _top(text) == ("xformers.replaced-torch", "xformers")


def test_xformers_no_deps_install_keeps_torch():
    text = ("I ran `python -m pip install xformers --no-deps`\nerror (screenshot)\n"
            "something updated your torch but not torchvision")
    assert "xformers.replaced-torch" not in _ids(text)


# win-sdpa-probe
@pytest.mark.parametrize("text", [
    "print(torch.backends.cuda.is_flash_attention_available()) returns False on the Windows cu128 wheel",
    "`is_flash_attention_available()` is False here, so SDPA uses the efficient kernel",
])
def test_sdpa_flash_probe_false(text):
    assert "sdpa.built-without-flash" in _ids(text)


def test_sdpa_flash_probe_true_is_no_finding():
    assert "sdpa.built-without-flash" not in _ids("torch.backends.cuda.is_flash_attention_available() is True on Linux")


# xf-op-words
@pytest.mark.parametrize("text", [
    "On my Arc GPU `memory_efficient_attention_backward` is not available, training stops",
    "memory_efficient_attention_forward wasn't built into this xformers wheel",
])
def test_xformers_operator_unavailable_in_words(text):
    assert _top(text) == ("xformers.no-operator", "xformers")


def test_xformers_operator_available_is_no_finding():
    assert "xformers.no-operator" not in _ids("memory_efficient_attention_forward is available: cutlassF")


# build-if
@pytest.mark.parametrize("text", [
    "# fall back to the prebuilt wheel if the source build fails\npip install xformers --index-url $TORCH_INDEX/cu128",
    "Use the prebuilt sageattention wheel in case the build fails on your machine.",
])
def test_a_condition_is_no_failed_build(text):
    assert "build.compile-failed" not in _ids(text)


def test_a_failed_build_said_so_stays():
    assert _top("the sageattention build fails with MSVC 14.44") == ("build.compile-failed", "sage")


# black-content
def test_black_output_without_content():
    text = "With xformers enabled the output image is black and has no content."
    assert _top(text) == ("attn.wrong-output", "xformers")


def test_black_and_white_is_no_wrong_output():
    assert "attn.wrong-output" not in _ids("With xformers enabled the output image is black and white, as the prompt asked")


# xf-forward
def test_trainer_own_xformers_forward_called_with_another_signature():
    text = tb(("/home/u/trainer/library/original_unet.py", 560, "forward",
               "return self.forward_xformers(hidden_states, context, mask)"),
              error="TypeError: forward_xformers() got an unexpected keyword argument 'cross_attention_kwargs'")
    assert _top(text) == ("attn.api-mismatch", "xformers")


def test_other_function_with_an_unexpected_argument_is_not_attention():
    assert "attn.api-mismatch" not in _ids("TypeError: load_config_file() got an unexpected keyword argument 'path'")


# sdnext-cuda
def test_sdnext_xformers_for_another_cuda_build():
    text = ("12:01:02-123456 WARNING  Likely incompatible Cuda with: xformers==0.0.28.post3 installed: torch==2.5.1+cu124 "
            "required: torch==2.5.1+cu121 - build xformers manually or downgrade torch")
    assert _top(text) == ("xformers.built-for-other-cuda", "xformers")


def test_sdnext_xformers_for_another_torch_release_is_not_the_cuda_build():
    text = ("WARNING  Likely incompatible Cuda with: xformers==0.0.28.post3 installed: torch==2.6.0+cu124 "
            "required: torch==2.5.1+cu124 - build xformers manually or downgrade torch")
    assert "xformers.built-for-other-cuda" not in _ids(text)
