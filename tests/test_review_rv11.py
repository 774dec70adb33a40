"""Helper rv11 (session 9, closing-review items): variants and near misses, every text written by hand (2026-11-28).

1. checkout   knowledge/checkout.py, called from explain._attribute: a build entry's fix (attribution.toml's {build} and
              {reinstall} words) rebuilds the folder the log builds the backend from, as the log gives it, not a release
              from the index.
2. sdpa        knowledge/sdpa_reasons.py (explain._attribute), smoke.toml sdpa.math-fallback (widened), sdpa.toml sdpa.no-kernel
              (narrowed): torch's WARN_FOR_UNFUSED_KERNELS diagnostics ("Flash/Efficient attention can't be used because:") and
              an app's catch-and-retry are a note that SDPA ran on another kernel; where the input shows the "No available
              kernel" error raised (or select_sdp_backend's "... kernel not used because:" headers, printed only before it
              raises), every reason is the error's.
"""

from __future__ import annotations

import shlex

import pytest

from attn_doctor.explain import match
from explain_top import ids
from attn_doctor.knowledge import checkout


def fix_of(text: str, entry: str) -> str:
    found = [m for m in match(text) if m.entry.id == entry]
    assert found, f"{entry} not found in: {[m.entry.id for m in match(text)]}"
    return found[0].fix


ISOLATION = "  Getting requirements to build {kind} ... error\n  error: subprocess-exited-with-error\n" \
            "      ModuleNotFoundError: No module named 'torch'\n"
OOM = "c++: fatal error: Killed signal terminated program cc1plus\nninja: build stopped: subcommand failed.\n"


# ---- 1. checkout: the folder the log builds, rebuilt ---------------------------------------------------------------

@pytest.mark.parametrize("text,entry,command", [
    # pip's editable install of a flash-attention checkout (pip names the folder as a file: URL)
    ("$ pip install -e .\nObtaining file:///home/u/src/flash-attention\n  Installing build dependencies ... done\n"
     + ISOLATION.format(kind="editable"), "build.isolation",
     "python -m pip install -e /home/u/src/flash-attention --no-build-isolation"),
    # Windows: PowerShell's prompt, pip's file:///C:/ URL
    ("(venv) PS C:\\Users\\me\\src\\flash-attention> pip install .\nProcessing c:\\users\\me\\src\\flash-attention\n"
     + ISOLATION.format(kind="wheel"), "build.isolation",
     "python -m pip install 'c:\\users\\me\\src\\flash-attention' --no-build-isolation"),
    ("Obtaining file:///C:/Users/me/src/flash-attention\n" + ISOLATION.format(kind="editable"), "build.isolation",
     "python -m pip install -e C:/Users/me/src/flash-attention --no-build-isolation"),
    # a path with spaces (pip prints it bare; a file: URL quotes it as %20)
    ("Processing /home/u/my src/SageAttention\n" + ISOLATION.format(kind="wheel"), "build.isolation",
     "python -m pip install '/home/u/my src/SageAttention' --no-build-isolation"),
    ("Obtaining file:///home/u/my%20src/flash-attention\n" + ISOLATION.format(kind="editable"), "build.isolation",
     "python -m pip install -e '/home/u/my src/flash-attention' --no-build-isolation"),
    # uv pip: its own line names the project and the folder
    ("$ uv pip install -e .\n  × Failed to build `flash-attn @ file:///home/u/src/flash-attention`\n"
     "  ╰─▶ Call to `setuptools.build_meta.build_editable` failed (exit status: 1)\n      [stderr]\n"
     "      ModuleNotFoundError: No module named 'torch'\n", "build.isolation",
     "python -m pip install -e /home/u/src/flash-attention --no-build-isolation"),
    # pip wheel in a folder reached by cd after a bash prompt: a wheel again, into the same folder's dist/
    ("u@box:~/src$ cd xformers && python -m pip wheel . -w dist --no-deps\nProcessing /home/u/src/xformers\n"
     "  Building wheel for xformers (setup.py) ... error\n" + OOM, "build.oom",
     "python -m pip wheel --no-deps /home/u/src/xformers --no-build-isolation -w ~/src/xformers/dist"),
    # python setup.py install in FA3's folder (the folder the cd names)
    ("$ cd flash-attention/hopper && python setup.py install\nrunning build_ext\nbuilding 'flash_attn_3_cuda' extension\n"
     + OOM, "build.oom", "python -m pip install flash-attention/hopper --no-build-isolation"),
    # setup.py develop, its traceback frame naming the checkout
    ("$ python setup.py develop\nTraceback (most recent call last):\n  File \"/home/u/src/flash-attention/setup.py\", "
     "line 22, in <module>\n    from torch.utils.cpp_extension import BuildExtension\nModuleNotFoundError: No module named "
     "'torch'\n", "build.isolation", "python -m pip install -e /home/u/src/flash-attention --no-build-isolation"),
    # a folder that names no backend: pip says it builds flash_attn (editable), setuptools that it builds flash_attn_2_cuda
    ("$ pip install -e .\nObtaining file:///home/u/code/fa-fork\nBuilding wheels for collected packages: flash_attn\n"
     "  Building editable for flash_attn (pyproject.toml) ... error\n" + OOM, "build.oom",
     "python -m pip install -e /home/u/code/fa-fork --no-build-isolation"),
    ("$ python setup.py install\nrunning build_ext\nbuilding 'flash_attn_2_cuda' extension\n" + OOM, "build.oom",
     "python -m pip install . --no-build-isolation"),
    # pip's editable line, then the same folder's setup.py frame in Windows spelling: still editable
    ("Obtaining file:///D:/work/SageAttention\n  Installing build dependencies ... done\n  Getting requirements to build "
     "editable ... error\n  error: subprocess-exited-with-error\n      Traceback (most recent call last):\n        File "
     "\"D:\\work\\SageAttention\\setup.py\", line 54, in <module>\n      ModuleNotFoundError: No module named 'torch'\n",
     "build.isolation", "python -m pip install -e 'D:\\work\\SageAttention' --no-build-isolation"),
    # a Dockerfile's RUN line under BuildKit, its extras kept
    ("#9 [5/7] RUN cd /workspace/flash-attention && MAX_JOBS=4 pip install '.[dev]'\n" + ISOLATION.format(kind="wheel"),
     "build.isolation", "python -m pip install '/workspace/flash-attention[dev]' --no-build-isolation"),
])
def test_a_build_from_a_local_folder_is_rebuilt_from_that_folder(text, entry, command):
    fix = fix_of(text, entry)
    assert command in fix
    assert "pip install flash-attn" not in fix and "git+https" not in fix and "git clone" not in fix
    assert shlex.split(fix.split("   # ")[0])  # it parses as shell words


def test_an_import_failure_after_a_local_build_reinstalls_that_folder():
    text = ("Processing /home/u/src/flash-attention\nSuccessfully installed flash-attn-2.8.3\n"
            "ImportError: /home/u/.venv/lib/python3.11/site-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: "
            "undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE\n")
    fix = fix_of(text, "import.undefined-symbol")
    assert fix.startswith("python -m pip install --force-reinstall --no-deps /home/u/src/flash-attention --no-build-isolation")


@pytest.mark.parametrize("text,entry,kept", [
    # the user's own project built from a folder; flash-attn comes from the index: its build stays the index's
    ("$ pip install -e .\nObtaining file:///home/u/LLaVA\nCollecting flash-attn\n  Downloading flash_attn-2.5.8.tar.gz\n"
     "  Preparing metadata (setup.py) ... error\n      ModuleNotFoundError: No module named 'torch'\n", "build.isolation",
     "pip install flash-attn --no-build-isolation"),
    # pip's temporary copy of an sdist from the index is no folder of the user's
    ("Collecting flash-attn\n  Downloading flash_attn-2.8.3.tar.gz (8.4 MB)\n  Preparing metadata (setup.py) ... error\n"
     "  Traceback (most recent call last):\n    File \"/tmp/pip-install-abc123/flash-attn_0f1e2d3c/setup.py\", line 19, "
     "in <module>\n      import torch\n  ModuleNotFoundError: No module named 'torch'\n", "build.isolation",
     "pip install flash-attn --no-build-isolation"),
    # a site-packages path is an installed package, not a checkout
    ("Processing /home/u/.venv/lib/python3.11/site-packages/flash_attn\n" + ISOLATION.format(kind="wheel"),
     "build.isolation", "pip install flash-attn --no-build-isolation"),
    # a wheel file is installed, not built
    ("Processing ./flash_attn-2.8.3+cu12torch2.7cxx11abiFALSE-cp311-cp311-linux_x86_64.whl\nImportError: /home/u/.venv/lib/"
     "python3.11/site-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: undefined symbol: _ZN3c105ErrorC2ENS_14Sour"
     "ceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE\n", "import.undefined-symbol",
     "pip install --force-reinstall --no-deps --no-cache-dir flash-attn --no-build-isolation"),
    # a program's own "Processing" line over a data file that names the library is no source
    ("Processing /data/flash_attn_eval/sample_001.png\nCollecting flash-attn\n  Building wheel for flash-attn (setup.py) ... "
     "error\n" + OOM, "build.oom", "pip install flash-attn --no-build-isolation"),
    # a registry name and a git URL on the command line are no local folders
    ("$ pip install flash-attn --no-build-isolation\n" + OOM + "  Building wheel for flash-attn (setup.py) ... error\n",
     "build.oom", "pip install flash-attn --no-build-isolation"),
    # another backend's folder: SageAttention's checkout says nothing of the flash-attn build that failed
    ("Processing /home/u/src/SageAttention\nCollecting flash-attn\n  Building wheel for flash-attn (setup.py) ... error\n" + OOM,
     "build.oom", "pip install flash-attn --no-build-isolation"),
])
def test_no_local_folder_of_the_backend_keeps_the_index_build(text, entry, kept):
    fix = fix_of(text, entry)
    assert kept in fix
    assert "/home/u/" not in fix and "/tmp/pip-install" not in fix and "LLaVA" not in fix


@pytest.mark.parametrize("cmd,expected", [
    ("pip install -e .", [(".", True, False)]),
    ("python -m pip install -r requirements.txt -e ./flash-attention flash-attn", [("./flash-attention", True, False)]),
    ("uv pip install --python .venv/bin/python ../xformers", [("../xformers", False, False)]),
    ("pip wheel --no-deps -w /tmp/wheels ~/src/flash-attention", [("~/src/flash-attention", False, True)]),
    ("pip install file:///opt/src/SageAttention", [("/opt/src/SageAttention", False, False)]),
    ("C:\\src>pip install -e SageAttention\\", [("C:\\src\\SageAttention\\", True, False)]),
    ("pip install flash-attn==2.8.3 --no-build-isolation", []),
    ("pip install git+https://github.com/Dao-AILab/flash-attention.git#subdirectory=hopper", []),
    ("pip install --find-links ./wheels --constraint ./c.txt xformers", []),
    ("pip install ./dist/xformers-0.0.32-cp312-cp312-win_amd64.whl", []),
    ("then pip install the package again", []),
])
def test_command_lines_name_their_local_folders(cmd, expected):
    got = [(s.path, s.editable, s.wheel) for s in checkout.pip_sources(cmd, 1)]
    assert got == expected


@pytest.mark.parametrize("path,shell", [
    ("/home/u/src/flash-attention", "/home/u/src/flash-attention"),
    ("~/src/flash-attention", "~/src/flash-attention"),
    ("~/my src/x", "~/'my src/x'"),
    ("C:\\src\\x", "'C:\\src\\x'"),
    ("/tmp/a'b", "'/tmp/a'\"'\"'b'"),
])
def test_paths_are_quoted_for_the_shell_with_home_left_to_it(path, shell):
    assert checkout.quoted(path) == shell


# ---- 2. sdpa: the reasons SDPA printed, and whether it went on --------------------------------------------------------

WENT_ON = [
    # WARN_FOR_UNFUSED_KERNELS over a causal_lower_right bias: the dtype reason, then training goes on
    "/home/u/proj/model.py:41: UserWarning: Flash attention can't be used because:\n  out = F.scaled_dot_product_attention("
    "q, k, v, attn_mask=causal_lower_right(l_q, l_kv))\n/home/u/proj/model.py:41: UserWarning: Expected query, key and value"
    " to all be of dtype: {Half, BFloat16}. Got Query dtype: float, Key dtype: float, and Value dtype: float instead. "
    "(Triggered internally at /pytorch/aten/src/ATen/native/transformers/cuda/sdp_utils.cpp:112.)\nepoch 1 step 10 loss 2.31",
    # Windows, the memory-efficient kernel's head-dim reason (WARN_FOR_UNFUSED_KERNELS prints both kernels)
    "C:\\work\\gpt\\attn.py:88: UserWarning: Efficient attention can't be used because:\n  y = self.attend(q, k, v)\n"
    "C:\\work\\gpt\\attn.py:88: UserWarning: Mem efficient attention requires last dimension of inputs to be divisible by 8."
    " Got Query.size(-1): 20, Key.size(-1): 20, Value.size(-1): 20 instead.\nC:\\work\\gpt\\attn.py:88: UserWarning: Flash "
    "attention can't be used because:\nC:\\work\\gpt\\attn.py:88: UserWarning: Flash attention requires q,k,v to have the "
    "same last dimension and to be less than or equal to 256. Got Query.size(-1): 20",
    # SAM 2 catches the error and calls SDPA again with every kernel: select_sdp_backend's headers, then its own fallback
    "/opt/sam2/sam2/modeling/sam/transformer.py:270: UserWarning: Memory efficient kernel not used because: (Triggered "
    "internally at /pytorch/aten/src/ATen/native/transformers/cuda/sdp_utils.cpp:883.)\n/opt/sam2/sam2/modeling/sam/"
    "transformer.py:270: UserWarning: Flash attention kernel not used because: (Triggered internally at /pytorch/aten/src/"
    "ATen/native/transformers/cuda/sdp_utils.cpp:885.)\n/opt/sam2/sam2/modeling/sam/transformer.py:270: UserWarning: Flash "
    "attention only supports gpu architectures in the range [sm80, sm121]. Attempting to run on a sm 7.5 gpu.\n/opt/sam2/"
    "sam2/modeling/sam/transformer.py:270: UserWarning: Flash Attention kernel failed due to: No available kernel. Aborting "
    "execution.\nFalling back to all available kernels for scaled_dot_product_attention (which may have a slower speed).\n"
    "  out = F.scaled_dot_product_attention(q, k, v, dropout_p=dropout_p)\nframe 12/300 done",
]


@pytest.mark.parametrize("text", WENT_ON)
def test_sdpa_reasons_where_sdpa_went_on_are_a_note(text):
    found = ids(text)
    assert found[:1] == ["sdpa.math-fallback"]
    assert "sdpa.no-kernel" not in found


RAISED = [
    # the same diagnostics, then the error: every reason is the error's
    "/home/u/proj/model.py:41: UserWarning: Flash attention can't be used because:\n/home/u/proj/model.py:41: UserWarning: "
    "Expected query, key and value to all be of dtype: {Half, BFloat16}. Got Query dtype: float, Key dtype: float, and Value "
    "dtype: float instead.\n/home/u/proj/model.py:41: UserWarning: Memory efficient kernel not used because:\n"
    "RuntimeError: No available kernel. Aborting execution.",
    # select_sdp_backend's headers alone (a cut log): torch prints them only before it raises
    "/app/vit.py:9: UserWarning: Memory efficient kernel not used because: (Triggered internally at ../aten/src/ATen/native/"
    "transformers/hip/sdp_utils.cpp:779.)\n/app/vit.py:9: UserWarning: Flash attention kernel not used because: (Triggered "
    "internally at ../aten/src/ATen/native/transformers/hip/sdp_utils.cpp:781.)",
    # an app's fallback, and the retry fails too (math was disabled): the error again, torch's old two-space wording
    "UserWarning: Flash Attention kernel failed due to: No available kernel.  Aborting execution.\nFalling back to all "
    "available kernels for scaled_dot_product_attention (which may have a slower speed).\nTraceback (most recent call last):\n"
    "  File \"/opt/app/run.py\", line 9, in <module>\nRuntimeError: No available kernel.  Aborting execution.",
]


@pytest.mark.parametrize("text", RAISED)
def test_sdpa_reasons_where_sdpa_raised_are_the_errors(text):
    found = ids(text)
    assert found[:1] == ["sdpa.no-kernel"]
    assert "sdpa.math-fallback" not in found


@pytest.mark.parametrize("text", [
    # another library's fallback and another kernel's failure: none of SDPA's
    "Falling back to all available kernels for the fused matmul (which may have a slower speed).",
    "UserWarning: Triton kernel failed due to: out of resources: shared memory, Required: 262144, Hardware limit: 232448",
    # the switch itself in a script, not what it printed
    "torch.nn.attention.WARN_FOR_UNFUSED_KERNELS = True  # helps debug why the kernel failed to run",
])
def test_sdpa_reasons_near_misses(text):
    found = ids(text)
    assert "sdpa.math-fallback" not in found and "sdpa.no-kernel" not in found


# ---- 4. fix lines: nothing that works is removed or moved ---------------------------------------------------------------

from attn_doctor import advice  # noqa: E402
from attn_doctor.knowledge import entries  # noqa: E402


def _sit(installed: dict, working: set) -> advice.Situation:
    return advice.Situation(installed=installed, working=working, torch="2.11.0+cu130", gpus=1, cpu_torch=False)


@pytest.mark.parametrize("line,fa2", [
    ("pip uninstall -y flash-attn && attn-doctor fix --require fa2", "2.8.3"),  # fa2.wheel-mismatch's fix
    ("python -m pip uninstall flash_attn", "2.7.4.post1"),
    ("MAX_JOBS=4 pip uninstall -y flash-attn", None),  # the version unknown: assumed to list the shared files
])
def test_uninstalling_flash_attn_beside_a_working_fa4_is_a_harm(line, fa2):
    installed = {"flash-attn-4": "4.0.0b36", **({"flash-attn": fa2} if fa2 else {})}
    said = advice.harms(line, _sit(installed, {"cute", "sdpa"}))
    assert any("flash-attn-4's flash_attn/cute" in h for h in said)


@pytest.mark.parametrize("line,working", [
    ("pip uninstall -y flash-attn", {"sdpa"}),  # no FA4 that works here
    ("pip uninstall -y flash-attn-3", {"cute"}),  # another package
    ("pip show flash-attn", {"cute"}),
])
def test_no_fa4_harm_where_none_is_done(line, working):
    said = advice.harms(line, _sit({"flash-attn": "2.8.3", "flash-attn-4": "4.0.0b36"}, working))
    assert not any("flash-attn-4's flash_attn/cute" in h for h in said)


@pytest.mark.parametrize("entry,gone", [
    ("config.axolotl-fa4-swap", "pip uninstall flash-attn-4"),  # FA4 is what trains
    ("xformers.flash-version", "or uninstall flash-attn"),  # flash-attn itself works
    ("triton.ptxas-arch", "--upgrade torch"),  # an unpinned torch upgrade under compiled backends
])
def test_fix_lines_that_removed_or_moved_what_works_say_otherwise_now(entry, gone):
    e = entries()[entry]
    assert gone not in (e.fix or "") and gone not in (e.plain_fix or "")
