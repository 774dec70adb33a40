"""Every finding id a check can emit, made to fire from faked facts (see tests/fakefacts.py).

One scenario per row: a builder that changes one thing on a healthy faked H200 box (its docstring
says what it fakes), the Context the user would pass, and the severity and backend expected.
`test_every_entry_has_a_scenario` turns CI red when a knowledge entry has no row here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pytest

import fakefacts as ff
from each_case import each
from scan_once import scans_once
from attn_doctor import knowledge

LEFTOVER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")  # a template param nobody filled in
PROBE_FRAME = '  File "<attn-doctor import probe>", line 1, in <module>\n'


@dataclass
class Scenario:
    id: str
    build: Callable[[], dict]
    severity: str
    backend: str | None
    ctx: dict = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.build.__name__


SCENARIOS: list[Scenario] = []


def scenario(id: str, severity: str, backend: str | None = None, **ctx):
    def deco(fn):
        assert fn.__doc__, f"{fn.__name__}: say what the scenario fakes"
        SCENARIOS.append(Scenario(id, fn, severity, backend, ctx))
        return fn
    return deco


# ----------------------------------------------------------------------------------------------
# platform
# ----------------------------------------------------------------------------------------------

@scenario("torch.missing", "error")
def torch_not_installed():
    """No torch metadata; the torch probe's `import torch` raised ModuleNotFoundError."""
    f = ff.gpu_box()
    f["packages"]["stack"].pop("torch")
    f["packages"]["versions"].pop("torch")
    f["torch"] = {"dist": None, "run": ff.run_ok(0.1), "probe": {
        "import_ok": False, "warnings": [],
        "import_error": ff.error("ModuleNotFoundError", "No module named 'torch'", name="torch")}}
    return f


@scenario("torch.import-failed", "error")
def torch_import_raises():
    """torch 2.11 is installed but `import torch` raises an error no knowledge entry names."""
    f = ff.gpu_box()
    f["torch"]["probe"] = {"import_ok": False, "warnings": [], "import_error": ff.error(
        "ImportError", "cannot import name 'Tensor' from partially initialized module 'torch'",
        '  File "/venv/lib/python3.12/site-packages/torch/__init__.py", line 1480, in <module>\n')}
    return f


@scenario("import.undefined-symbol", "error")
def torch_import_undefined_symbol():
    """`import torch` fails with an undefined symbol (matched by the import-failure patterns)."""
    f = ff.gpu_box()
    f["torch"]["probe"] = {"import_ok": False, "warnings": [], "import_error": ff.error(
        "ImportError", "/venv/lib/python3.12/site-packages/torch/lib/libtorch_cuda.so: undefined symbol: "
        "ncclCommWindowRegister",
        '  File "/venv/lib/python3.12/site-packages/torch/__init__.py", line 407, in <module>\n'
        "    from torch._C import *  # noqa: F403\n")}
    return f


@scenario("torch.import-crashed", "error")
def torch_import_segfaults():
    """The torch probe child was killed by SIGSEGV before answering."""
    f = ff.gpu_box()
    f["torch"]["probe"] = None
    f["torch"]["run"] = ff.crashed_run(stderr="Fatal Python error: Segmentation fault\n")
    return f


@scenario("torch.import-hang", "error")
def torch_import_hangs():
    """The torch probe child never answered and was killed at the timeout."""
    f = ff.gpu_box()
    f["torch"]["probe"] = None
    f["torch"]["run"] = ff.hung_run()
    return f


@scenario("torch.cpu-build", "error")
def cpu_torch_on_gpu_machine():
    """nvidia-smi lists an H200 but torch is 2.11.0+cpu (no CUDA)."""
    f = ff.gpu_box()
    ff.set_torch(f, "2.11.0+cpu", cuda=None, triton=None)
    ff.set_gpus(f, [("NVIDIA H200", (9, 0))], torch_sees=False)
    return f


@scenario("torch.cpu-build", "warning")
def cpu_torch_on_cpu_machine():
    """REAL: the dev VM's collected facts (CPU torch, no GPU) - nothing faked."""
    return ff.cpu_box()


@scenario("gpu.none", "warning")
def cuda_torch_no_gpu():
    """CUDA torch, no nvidia-smi GPUs, torch.cuda.is_available() False."""
    f = ff.gpu_box()
    ff.set_gpus(f, [])
    return f


@scenario("gpu.smi-failed", "warning")
def smi_fails():
    """nvidia-smi exists but failed; torch sees no GPU."""
    f = ff.gpu_box()
    ff.set_gpus(f, [])
    f["driver"]["error"] = "Failed to initialize NVML: Driver/library version mismatch"
    return f


@scenario("gpu.hidden-by-env", "error")
def cuda_visible_devices_empty():
    """nvidia-smi lists 8 H200s, CUDA_VISIBLE_DEVICES='' and torch sees none."""
    f = ff.gpu_box()
    ff.set_gpus(f, [("NVIDIA H200", (9, 0))] * 8, torch_sees=False)
    ff.set_env(f, CUDA_VISIBLE_DEVICES="")
    return f


@scenario("gpu.cuda-init-failed", "error")
def cuda_init_fails():
    """nvidia-smi lists a GPU, torch's CUDA init warned with error 804 and sees none."""
    f = ff.gpu_box()
    ff.set_gpus(f, [("NVIDIA H200", (9, 0))], torch_sees=False)
    f["torch"]["probe"]["warnings"] = [
        "CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions "
        "before calling NumCudaDevices() that might have already set an error? Error 804: forward "
        "compatibility was attempted on non supported HW (Triggered internally at /pytorch/c10/cuda/CUDAFunctions.cpp:119.)"]
    return f


@scenario("cuda.driver-too-old", "error")
def driver_too_old():
    """torch cu130 on a driver that supports CUDA 12.8; torch's CUDA init warned and sees no GPU."""
    f = ff.gpu_box()
    ff.set_gpus(f, [("NVIDIA H100 80GB HBM3", (9, 0))], torch_sees=False, driver="570.86.15", driver_cuda="12.8")
    f["torch"]["probe"]["warnings"] = [
        "CUDA initialization: The NVIDIA driver on your system is too old (found version 12080). Please update "
        "your GPU driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx"]
    return f


@scenario("cuda.driver-minor-older", "info")
def driver_minor_older():
    """torch cu128 (CUDA 12.8) on a driver that reports CUDA 12.4."""
    f = ff.gpu_box()
    ff.set_torch(f, "2.11.0+cu128", cuda="12.8")
    ff.set_gpus(f, [("NVIDIA H100 80GB HBM3", (9, 0))], driver="550.54.15", driver_cuda="12.4")
    f["nvcc"]["found"][0]["version"] = "12.8"
    return f


@scenario("gpu.arch-not-in-torch", "error")
def blackwell_on_old_torch():
    """An RTX 5090 (sm120) with a torch whose arch list ends at sm_90."""
    f = ff.gpu_box()
    ff.set_torch(f, "2.6.0+cu124", cuda="12.4")
    ff.set_gpus(f, [("NVIDIA GeForce RTX 5090", (12, 0))], arch_list=["sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"])
    f["nvcc"]["found"][0]["version"] = "12.4"
    return f


# ----------------------------------------------------------------------------------------------
# backends: import failures (classified by the knowledge patterns)
# ----------------------------------------------------------------------------------------------

@scenario("import.failed", "error", "xformers")
def xformers_import_generic_error():
    """xformers 0.0.35 installed; its import raises an error no entry names."""
    f = ff.gpu_box()
    ff.install(f, "xformers", "xformers", "0.0.35", probe=ff.failed_import(
        "ImportError", "cannot import name 'memory_efficient_attention' from 'xformers.ops' "
        "(/venv/lib/python3.12/site-packages/xformers/ops/__init__.py)", PROBE_FRAME))
    return f


@scenario("import.crashed", "error", "sage")
def sage_import_segfaults():
    """sageattention 1.0.6 installed; its import probe was killed by SIGSEGV."""
    f = ff.gpu_box()
    ff.install(f, "sage", "sageattention", "1.0.6", run=ff.crashed_run())
    return f


@scenario("import.hang", "error", "fa2")
def fa2_import_hangs():
    """flash-attn 2.8.3 installed; its import probe was killed at the 180 s timeout."""
    f = ff.gpu_box()
    ff.install(f, "fa2", "flash-attn", "2.8.3", run=ff.hung_run())
    return f


@scenario("import.undefined-symbol", "error", "fa2")
def fa2_undefined_symbol():
    """flash-attn 2.8.3 wheel tagged for torch 2.6 (from its direct_url) fails with an undefined c10 symbol."""
    f = ff.gpu_box()
    ff.install(f, "fa2", "flash-attn", "2.8.3", probe=ff.failed_import(
        "ImportError", "/venv/lib/python3.12/site-packages/flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so: "
        "undefined symbol: _ZN3c104cuda9SetDeviceEi",
        PROBE_FRAME + '  File "/venv/lib/python3.12/site-packages/flash_attn/__init__.py", line 3, in <module>\n'
        "    from flash_attn.flash_attn_interface import (\n"
        '  File "/venv/lib/python3.12/site-packages/flash_attn/flash_attn_interface.py", line 15, in <module>\n'
        "    import flash_attn_2_cuda as flash_attn_gpu\n"))
    f["packages"]["stack"]["flash-attn"]["build_tag"] = {"cuda": "12", "torch": "2.11", "cxx11abi": True}
    return f


@scenario("import.glibc", "error", "fa2")
def fa2_glibc_too_old():
    """flash-attn's extension needs GLIBC_2.32 on an older system."""
    f = ff.gpu_box()
    ff.install(f, "fa2", "flash-attn", "2.8.3", probe=ff.failed_import(
        "ImportError", "/lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.32' not found (required by "
        "/venv/lib/python3.12/site-packages/flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so)", PROBE_FRAME))
    return f


@scenario("import.cuda-lib-missing", "error", "fa3")
def fa3_cudart_missing():
    """flash_attn_3 built for CUDA 12 asks for libcudart.so.12 beside a CUDA 13 torch."""
    f = ff.gpu_box()
    ff.install(f, "fa3", "flash_attn_3", "3.0.0b1", probe=ff.failed_import(
        "ImportError", "libcudart.so.12: cannot open shared object file: No such file or directory",
        PROBE_FRAME + '  File "/venv/lib/python3.12/site-packages/flash_attn_interface.py", line 9, in <module>\n'
        "    import flash_attn_3._C\n"))
    return f


@scenario("import.libcuda-missing", "error", "sage")
def sage_libcuda_missing():
    """sageattention's Triton cannot find the driver library libcuda.so.1 (a container without the driver)."""
    f = ff.gpu_box()
    ff.install(f, "sage", "sageattention", "1.0.6", probe=ff.failed_import(
        "RuntimeError", "Failed to find libcuda.so: libcuda.so.1: cannot open shared object file: No such file or directory",
        PROBE_FRAME + '  File "/venv/lib/python3.12/site-packages/triton/backends/nvidia/driver.py", line 35, in libcuda_dirs\n'))
    return f


@scenario("cute.dsl-pth-not-processed", "error", "cute")
def cute_pip_target():
    """flash-attn-4 + nvidia-cutlass-dsl installed with pip --target /deps (not a site dir); the cute
    import probe fails with No module named 'cutlass'."""
    f = ff.gpu_box()
    ff.install(f, "cute", "flash-attn-4", "4.0.0b36", module_path="/deps/flash_attn/cute", probe=ff.failed_import(
        "ModuleNotFoundError", "No module named 'cutlass'",
        PROBE_FRAME + '  File "/deps/flash_attn/cute/interface.py", line 14, in <module>\n    import cutlass\n',
        name="cutlass"))
    f["packages"]["cutlass"] = {"installed": True, "location": "/deps", "pth_file": "/deps/nvidia_cutlass_dsl_packages.pth",
                                "location_is_site_dir": False, "dsl_packages": "/deps/nvidia_cutlass_dsl/dsl_packages",
                                "cutlass_on_path": False}
    for name, v in (("nvidia-cutlass-dsl", "4.8.1"), ("nvidia-cutlass-dsl-libs-base", "4.8.1"),
                    ("nvidia-cutlass-dsl-libs-cu13", "4.8.1"), ("quack-kernels", "0.6.5"), ("einops", "0.8.1"),
                    ("typing-extensions", "4.15.0"), ("apache-tvm-ffi", "0.1.15.post2"), ("torch-c-dlpack-ext", "0.1.5")):
        ff.add_dist(f, name, v, location="/deps")
    return f


@scenario("xformers.fa4-namespace", "error", "xformers")
def xformers_beside_fa4():
    """xformers 0.0.35 beside flash-attn-4 (flash_attn/ has no __init__.py); xformers' import fails
    with No module named 'flash_attn.flash_attn_interface' (the H200 traceback of FACTS.md)."""
    f = ff.gpu_box()
    ff.install(f, "xformers", "xformers", "0.0.35", probe=ff.failed_import(
        "ModuleNotFoundError", "No module named 'flash_attn.flash_attn_interface'",
        PROBE_FRAME + '  File "/venv/lib/python3.12/site-packages/xformers/ops/fmha/flash.py", line 59, in <module>\n'
        "    import flash_attn.flash_attn_interface\n", name="flash_attn.flash_attn_interface"))
    f["packages"]["flash_attn"] = {"copies": [{"path": f"{ff.SITE}/flash_attn", "has_init": False, "has_cute": True,
                                               "has_fa2_interface": False}], "cute_owners": {"flash-attn-4": 60}}
    ff.add_dist(f, "flash-attn-4", "4.0.0b36", requires=[])
    return f


@scenario("cute.shadowed-by-fa2", "error", "cute")
def fa2_and_fa4_share_cute_dir():
    """flash-attn 2.8.3 installed after flash-attn-4 4.0.0b36: the files both list under flash_attn/cute/ are FA2's."""
    f = ff.gpu_box()
    ff.add_dist(f, "flash-attn", "2.8.3", requires=[])
    ff.add_dist(f, "flash-attn-4", "4.0.0b36", requires=[])
    f["packages"]["flash_attn"] = {"copies": [{"path": f"{ff.SITE}/flash_attn", "has_init": True, "has_cute": True,
                                               "has_fa2_interface": True}],
                                   "cute_owners": {"flash-attn": 30, "flash-attn-4": 60},
                                   # FA2 installed last (order A on the H100): the 20 shared files are its copy
                                   "cute_shared": {"flash-attn-4": 0, "flash-attn": 20, "neither": 0, "missing": 0},
                                   "fa4_missing": {"count": 0, "of": 60, "example": None}}
    return f


@scenario("cute.shares-files-with-fa2", "info", "cute")
def fa4_installed_after_fa2():
    """FA2 2.8.3 then flash-attn-4 4.0.0b36 (order B on the H100): the 20 shared files are FA4's now."""
    f = fa2_and_fa4_share_cute_dir()
    f["packages"]["flash_attn"].update(cute_shared={"flash-attn-4": 20, "flash-attn": 0, "neither": 0, "missing": 0},
                                       fa4_missing={"count": 0, "of": 60, "example": None})
    return f


@scenario("cute.files-missing", "error", "cute")
def fa2_uninstalled_under_fa4():
    """`pip uninstall flash-attn` after both were installed: FA4's metadata stays, 20 of its files are gone."""
    f = fa2_and_fa4_share_cute_dir()
    f["packages"]["stack"].pop("flash-attn", None)
    f["packages"]["versions"].pop("flash-attn", None)
    f["packages"]["flash_attn"] = {"copies": [], "cute_owners": {"flash-attn-4": 60},
                                   "fa4_missing": {"count": 20, "of": 60, "example": "flash_attn/cute/__init__.py"}}
    return f


@scenario("sdpa.fa4-route-mismatch", "info", "cute")
def sdpa_fa4_route_mismatch():
    """torch 2.11's _fa4.py unpacks two values, flash-attn-4 4.0.0b36's _flash_attn_fwd returns five (the H100, hold 3)."""
    f = ff.gpu_box()
    ff.install(f, "cute", "flash-attn-4", "4.0.0b36")
    f["packages"]["fa4_route"] = {"torch_file": f"{ff.SITE}/torch/nn/attention/_fa4.py", "torch_unpacks": 2,
                                  "fa4_file": f"{ff.SITE}/flash_attn/cute/interface.py", "fa4_returns": [5]}
    return f


@scenario("cute.stale-fa2-cute", "error", "cute")
def only_fa2_cute():
    """flash-attn 2.8.3 (with its old flash_attn/cute/) and no flash-attn-4."""
    f = ff.gpu_box()
    ff.add_dist(f, "flash-attn", "2.8.3", requires=[])
    f["packages"]["flash_attn"] = {"copies": [{"path": f"{ff.SITE}/flash_attn", "has_init": True, "has_cute": True,
                                               "has_fa2_interface": True}], "cute_owners": {"flash-attn": 30}}
    return f


@scenario("backend.unsupported-gpu", "warning", "fa2")
def fa2_on_t4():
    """flash-attn 2.8.3 imports fine on a Tesla T4 (sm75); FA2 needs sm80."""
    f = ff.gpu_box()
    ff.set_gpus(f, [("Tesla T4", (7, 5))])
    ff.install(f, "fa2", "flash-attn", "2.8.3")
    return f


@scenario("backend.unsupported-gpu", "error", "fa2", required=["fa2"])
def fa2_required_on_t4():
    """As fa2_on_t4, with --require fa2: unusable and required is an error."""
    return fa2_on_t4()


@scenario("backend.no-backward-on-gpu", "warning", "cute")
def fa4_on_a100():
    """flash-attn-4 imports on an A100 (sm80): forward runs, backward needs sm90."""
    f = ff.gpu_box()
    ff.set_gpus(f, [("NVIDIA A100-SXM4-80GB", (8, 0))])
    ff.install(f, "cute", "flash-attn-4", "4.0.0b36")
    ff.add_dist(f, "flash-attn-4", "4.0.0b36", requires=[])
    f["caches"][-1].update(enabled=True, enabled_raw="1")
    return f


@scenario("backend.some-gpus", "info", "cute")
def fa4_on_h200_and_t4():
    """A mixed node: an H200 (sm90) and a T4 (sm75); flash-attn-4 imports, and its forward needs sm80+."""
    f = ff.gpu_box()
    ff.set_gpus(f, [("NVIDIA H200", (9, 0)), ("Tesla T4", (7, 5))])
    ff.install(f, "cute", "flash-attn-4", "4.0.0b36")
    ff.add_dist(f, "flash-attn-4", "4.0.0b36", requires=[])
    f["caches"][-1].update(enabled=True, enabled_raw="1")
    return f


@scenario("require.not-ok", "error", "fa3", required=["fa3"])
def require_missing_fa3():
    """--require fa3 on the healthy box, which has no FA3."""
    return ff.gpu_box()


# ----------------------------------------------------------------------------------------------
# flex
# ----------------------------------------------------------------------------------------------

@scenario("flex.torch-too-old", "error", "flex", required=["flex"])
def flex_on_torch_24():
    """torch 2.4.1+cu121 (no flex_attention module) and --require flex."""
    f = ff.gpu_box()
    ff.set_torch(f, "2.4.1+cu121", cuda="12.1", requires=[], triton="3.0.0")
    ff.set_gpus(f, [("NVIDIA H200", (9, 0))])
    f["torch"]["probe"]["flex"] = {"ok": False, "error": ff.error(
        "ModuleNotFoundError", "No module named 'torch.nn.attention.flex_attention'", name="torch.nn.attention.flex_attention")}
    f["nvcc"]["found"][0]["version"] = "12.1"
    return f


@scenario("flex.no-triton", "error", "flex")
def flex_no_triton():
    """CUDA torch on an H200, `import triton` raised ModuleNotFoundError (pip --no-deps install)."""
    f = ff.gpu_box()
    ff.set_torch(f, "2.11.0+cu130", cuda="13.0", triton=None)
    ff.set_gpus(f, [("NVIDIA H200", (9, 0))])
    return f


@scenario("flex.no-triton", "warning", "flex")
def flex_no_triton_no_gpu():
    """As flex_no_triton, on a machine without a GPU (an image build step): a warning only."""
    f = flex_no_triton()
    ff.set_gpus(f, [])
    return f


@scenario("flex.triton-broken", "error", "flex")
def flex_triton_broken():
    """`import triton` raised ImportError (a triton built for another torch)."""
    f = ff.gpu_box()
    f["torch"]["probe"]["triton"] = {"ok": False, "missing": False, "error": ff.error(
        "ImportError", "cannot import name 'knobs' from 'triton' (/venv/lib/python3.12/site-packages/triton/__init__.py)")}
    return f


@scenario("flex.no-cc", "error", "flex")
def flex_no_compiler():
    """No CC set and no clang, gcc or cc on PATH."""
    f = ff.gpu_box()
    f["host_cc"] = {"from": None, "name": None, "path": None}
    return f


@scenario("flex.cc-not-found", "error", "flex")
def flex_cc_missing():
    """CC=gcc-13, which is not on PATH."""
    f = ff.gpu_box()
    ff.set_env(f, CC="gcc-13")
    f["host_cc"] = {"from": "CC", "name": "gcc-13", "path": None}
    return f


# ----------------------------------------------------------------------------------------------
# nvcc
# ----------------------------------------------------------------------------------------------

@scenario("nvcc.none", "info")
def no_nvcc():
    """No nvcc anywhere (a runtime image) with CUDA torch."""
    f = ff.gpu_box()
    f["nvcc"] = {"found": [], "build_choice": None}
    return f


@scenario("nvcc.major-mismatch", "warning")
def nvcc_12_torch_13():
    """The nvcc a source build would use is 12.4; torch is cu130; no CUDA 13 nvcc anywhere."""
    f = ff.gpu_box()
    f["nvcc"] = {"found": [ff.nvcc_entry("/usr/local/cuda-12.4/bin/nvcc", "12.4", "$CUDA_HOME")],
                 "build_choice": "/usr/local/cuda-12.4/bin/nvcc"}
    ff.set_env(f, CUDA_HOME="/usr/local/cuda-12.4")
    return f


@scenario("nvcc.minor-mismatch", "info")
def nvcc_124_torch_128():
    """torch cu128 (CUDA 12.8); the nvcc on PATH is 12.4."""
    f = ff.gpu_box()
    ff.set_torch(f, "2.11.0+cu128", cuda="12.8")
    ff.set_gpus(f, [("NVIDIA H200", (9, 0))], driver_cuda="12.8")
    f["nvcc"] = {"found": [ff.nvcc_entry("/usr/local/cuda-12.4/bin/nvcc", "12.4")],
                 "build_choice": "/usr/local/cuda-12.4/bin/nvcc"}
    return f


@scenario("nvcc.cuda-home-no-nvcc", "warning")
def cuda_home_without_nvcc():
    """CUDA_HOME=/opt/cuda, which has no bin/nvcc."""
    f = ff.gpu_box()
    ff.set_env(f, CUDA_HOME="/opt/cuda")
    f["nvcc"]["found"].insert(0, ff.nvcc_entry("/opt/cuda/bin/nvcc", None, "$CUDA_HOME", "absent", "no such file"))
    f["nvcc"]["build_choice"] = "/opt/cuda/bin/nvcc"
    return f


@scenario("nvcc.hang", "warning")
def nvcc_hangs():
    """The nvcc on PATH (the one builds use) did not answer --version within 15 s."""
    f = ff.gpu_box()
    f["nvcc"]["found"][0].update(version=None, kind="hang", error="no answer to --version within 15 s")
    return f


@scenario("nvcc.hang", "info")
def nvcc_hangs_not_used():
    """A hanging nvcc that is not the one builds use: only a note."""
    f = ff.gpu_box()
    f["nvcc"]["found"].append(ff.nvcc_entry("/opt/wrapper/bin/nvcc", None, "PATH", "hang",
                                            "no answer to --version within 15 s"))
    return f


@scenario("nvcc.garbage", "warning")
def nvcc_prints_garbage():
    """The nvcc builds use printed no 'release X.Y' line."""
    f = ff.gpu_box()
    f["nvcc"]["found"][0].update(version=None, kind="garbage", error="exit 0; printed 'hello'")
    return f


@scenario("nvcc.not-executable", "warning")
def nvcc_not_executable():
    """The nvcc builds use has no execute permission."""
    f = ff.gpu_box()
    f["nvcc"]["found"][0].update(version=None, kind="not-executable", error="not executable")
    return f


@scenario("build.arch-list-leaves-out-gpu", "warning")
def arch_list_leaves_out_the_gpu():
    """TORCH_CUDA_ARCH_LIST=8.0 exported on the H200 (sm90): seen for real on the H100, where it gave no finding."""
    return ff.set_env(ff.gpu_box(), TORCH_CUDA_ARCH_LIST="8.0")


# ----------------------------------------------------------------------------------------------
# allocator (the real failure texts are in FACTS.md; test_allocator.py tests the parser itself)
# ----------------------------------------------------------------------------------------------

def _alloc(**env):
    f = ff.gpu_box()
    return ff.set_env(f, **env)


@scenario("alloc.unknown-key", "error")
def alloc_bogus_key():
    """PYTORCH_ALLOC_CONF=bogus_key:1."""
    return _alloc(PYTORCH_ALLOC_CONF="bogus_key:1")


@scenario("alloc.bool-case", "error")
def alloc_lower_true():
    """PYTORCH_CUDA_ALLOC_CONF=expandable_segments:true."""
    return _alloc(PYTORCH_CUDA_ALLOC_CONF="expandable_segments:true")


@scenario("alloc.bad-value", "error")
def alloc_small_split():
    """PYTORCH_ALLOC_CONF=max_split_size_mb:10."""
    return _alloc(PYTORCH_ALLOC_CONF="max_split_size_mb:10")


@scenario("alloc.syntax", "error")
def alloc_no_value():
    """PYTORCH_ALLOC_CONF=expandable_segments (no ':value')."""
    return _alloc(PYTORCH_ALLOC_CONF="expandable_segments")


@scenario("alloc.both-set", "warning")
def alloc_both():
    """Both PYTORCH_CUDA_ALLOC_CONF and PYTORCH_ALLOC_CONF set."""
    return _alloc(PYTORCH_CUDA_ALLOC_CONF="expandable_segments:True", PYTORCH_ALLOC_CONF="max_split_size_mb:128")


@scenario("alloc.new-name-unreliable", "warning")
def alloc_new_name_old_torch():
    """Only PYTORCH_ALLOC_CONF, on torch 2.9.1+cu128."""
    f = _alloc(PYTORCH_ALLOC_CONF="expandable_segments:True")
    ff.set_torch(f, "2.9.1+cu128", cuda="12.8")
    ff.set_gpus(f, [("NVIDIA H200", (9, 0))])
    f["nvcc"]["found"][0]["version"] = "12.8"
    return f


@scenario("alloc.old-name", "info")
def alloc_old_name():
    """Only PYTORCH_CUDA_ALLOC_CONF, on torch 2.11."""
    return _alloc(PYTORCH_CUDA_ALLOC_CONF="expandable_segments:True")


@scenario("alloc.async-ignores-options", "warning")
def alloc_async_with_native_keys():
    """backend:cudaMallocAsync together with max_split_size_mb (only the native allocator reads it)."""
    return _alloc(PYTORCH_ALLOC_CONF="backend:cudaMallocAsync,max_split_size_mb:128")


@scenario("alloc.async-cudagraphs", "error", compile_mode="reduce-overhead")
def alloc_async_reduce_overhead():
    """backend:cudaMallocAsync and --compile-mode reduce-overhead."""
    return _alloc(PYTORCH_ALLOC_CONF="backend:cudaMallocAsync")


@scenario("alloc.async-cudagraphs", "warning")
def alloc_async_mode_unknown():
    """backend:cudaMallocAsync, compile mode not given: a warning."""
    return _alloc(PYTORCH_ALLOC_CONF="backend:cudaMallocAsync")


# ----------------------------------------------------------------------------------------------
# caches
# ----------------------------------------------------------------------------------------------

@scenario("cache.volatile", "warning")
def inductor_cache_in_tmp():
    """TORCHINDUCTOR_CACHE_DIR unset: it resolves to /tmp/torchinductor_user."""
    f = ff.gpu_box()
    del f["env"]["TORCHINDUCTOR_CACHE_DIR"]
    ff.get_cache(f, "inductor").update(path="/tmp/torchinductor_user", set=False, under_tmp=True)
    return f


@scenario("cache.volatile", "warning")
def inductor_cache_on_tmpfs():
    """TORCHINDUCTOR_CACHE_DIR on a tmpfs mount."""
    f = ff.gpu_box()
    ff.get_cache(f, "inductor").update(path="/dev/shm/inductor", fs_type="tmpfs", mount="/dev/shm")
    return f


@scenario("cache.unwritable", "error")
def inductor_cache_unwritable():
    """The Inductor cache dir exists but is not writable (created by root in a shared image)."""
    f = ff.gpu_box()
    ff.get_cache(f, "inductor").update(writable=False)
    return f


@scenario("cache.not-a-directory", "error")
def inductor_cache_is_file():
    """A regular file sits where the Inductor cache dir should be."""
    f = ff.gpu_box()
    ff.get_cache(f, "inductor").update(exists=True, is_dir=False, writable=False)
    return f


@scenario("cache.uncreatable", "error")
def inductor_cache_uncreatable():
    """The Inductor cache dir does not exist and its parent is not writable."""
    f = ff.gpu_box()
    c = ff.get_cache(f, "inductor")
    c.update(exists=False, is_dir=False, creatable=False, nearest_existing="/home/user/.cache")
    c.pop("writable")
    return f


@scenario("cache.low-space", "warning")
def inductor_cache_low_space():
    """The Inductor cache's filesystem has 1 GiB free."""
    f = ff.gpu_box()
    ff.get_cache(f, "inductor")["free_bytes"] = 1 * ff.GIB
    return f


def _with_fa4(**env):
    f = ff.gpu_box()
    ff.install(f, "cute", "flash-attn-4", "4.0.0b36")
    ff.add_dist(f, "flash-attn-4", "4.0.0b36", requires=[])
    ff.set_env(f, **env)
    return f


@scenario("cache.fa4-disabled", "warning", "cute")
def fa4_cache_off():
    """flash-attn-4 imports; FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED unset."""
    return _with_fa4()


@scenario("cache.fa4-enable-value", "warning", "cute")
def fa4_cache_enabled_true():
    """FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED=true (FA4 wants exactly 1)."""
    f = _with_fa4(FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED="true")
    ff.get_cache(f, "fa4").update(enabled=False, enabled_raw="true")
    return f


@scenario("cache.cute-dsl-dir-misread", "info", "cute")
def cute_dsl_cache_dir_set():
    """CUTE_DSL_CACHE_DIR set (the CuTE guide's advice), FA4's own cache off."""
    f = _with_fa4(CUTE_DSL_CACHE_DIR="/home/user/.cache/cute")
    ff.get_cache(f, "cute-dsl").update(path="/home/user/.cache/cute", set=True, under_tmp=False, exists=True,
                                       is_dir=True, writable=True)
    return f


@scenario("cache.fa4-no-user", "error", "cute")
def fa4_cache_no_user():
    """FA4's cache on, its dir not set, and getpass.getuser() raised KeyError (uid 1001 not in passwd)."""
    f = _with_fa4(FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED="1")
    ff.get_cache(f, "fa4").update(enabled=True, enabled_raw="1", under_tmp=False, path="/tmp/uid_1001/fa4")
    ff.get_cache(f, "cute-dsl").update(under_tmp=False)
    f["system"].update(user=None, uid=1001, user_error="KeyError: 'getpwuid(): uid not found: 1001'")
    return f


# ----------------------------------------------------------------------------------------------
# versions (Requires-Dist lines are the real wheels', see fakefacts.REQUIRES)
# ----------------------------------------------------------------------------------------------

def _fa4_stack(f, cutlass="4.8.1", quack="0.6.5"):
    ff.install(f, "cute", "flash-attn-4", "4.0.0b36")
    ff.get_cache(f, "fa4").update(enabled=True, enabled_raw="1")
    ff.set_env(f, FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED="1")
    for name, v in (("nvidia-cutlass-dsl", cutlass), ("nvidia-cutlass-dsl-libs-base", cutlass),
                    ("nvidia-cutlass-dsl-libs-cu13", cutlass), ("quack-kernels", quack), ("einops", "0.8.1"),
                    ("typing-extensions", "4.15.0"), ("apache-tvm-ffi", "0.1.15.post2"),
                    ("torch-c-dlpack-ext", "0.1.5")):
        ff.add_dist(f, name, v, requires=None if (name, v) in ff.REQUIRES else [])
    return f


def test_real_fa4_stack_is_clean():
    """The FA4 stack the H200 ran (4.0.0b36, quack 0.6.5, cutlass-dsl 4.8.1 + libs-cu13) has no
    version findings: the scenarios below fire because of what they change."""
    r = ff.check(_fa4_stack(ff.gpu_box()))
    assert [f.id for f in r.findings if f.section == "versions"] == []
    assert r.backends["cute"]["status"] == "ok"


@scenario("versions.conflict", "error")
def fa4_with_old_cutlass():
    """flash-attn-4 4.0.0b36 (needs nvidia-cutlass-dsl>=4.6.2) beside nvidia-cutlass-dsl 4.3.4."""
    f = _fa4_stack(ff.gpu_box(), cutlass="4.3.4")
    return f


@scenario("versions.requirement-missing", "error")
def fa4_without_einops():
    """flash-attn-4 4.0.0b36 installed with --no-deps: einops is missing."""
    f = _fa4_stack(ff.gpu_box())
    del f["packages"]["stack"]["einops"]
    del f["packages"]["versions"]["einops"]
    return f


@scenario("versions.requirement-missing", "warning")
def torch_dep_missing():
    """torch's own requirement sympy is missing: a warning (not part of the attention stack)."""
    f = ff.gpu_box()
    del f["packages"]["versions"]["sympy"]
    return f


@scenario("versions.needs-other-torch", "error")
def xformers_needs_newer_torch():
    """xformers 0.0.35 (Requires-Dist torch>=2.10) beside torch 2.9.1."""
    f = ff.gpu_box()
    ff.set_torch(f, "2.9.1+cu128", cuda="12.8")
    ff.set_gpus(f, [("NVIDIA H200", (9, 0))])
    f["nvcc"]["found"][0]["version"] = "12.8"
    ff.install(f, "xformers", "xformers", "0.0.35")
    ff.add_dist(f, "numpy", "2.3.4")
    return f


@scenario("versions.metadata-unreadable", "warning")
def corrupt_metadata():
    """quack-kernels' METADATA could not be parsed."""
    f = ff.gpu_box()
    d = ff.add_dist(f, "quack-kernels", "0.6.5", requires=[])
    d.update(name=None, version=None, error="KeyError: 'Version'")  # what read_dist() records
    return f


@scenario("versions.duplicate", "warning")
def duplicate_triton():
    """triton 3.6.0 in the venv and triton 3.4.0 in /deps (PYTHONPATH)."""
    f = ff.gpu_box()
    f["packages"]["duplicates"] = {"triton": [{"location": ff.SITE, "version": "3.6.0"},
                                              {"location": "/deps", "version": "3.4.0"}]}
    return f


@scenario("cute.quack-guide-pin", "error", "cute")
def quack_guide_pin():
    """The CuTE guide's quack-kernels==0.2.4 beside flash-attn-4 4.0.0b36 (real Requires-Dist of both)."""
    f = _fa4_stack(ff.gpu_box(), quack="0.2.4")
    return f


@scenario("cute.cutlass-libs-cuda", "warning", "cute")
def cutlass_libs_cu12_only():
    """nvidia-cutlass-dsl 4.8.1 with -libs-cu12 only, under a CUDA 13 torch."""
    f = _fa4_stack(ff.gpu_box())
    del f["packages"]["stack"]["nvidia-cutlass-dsl-libs-cu13"]
    del f["packages"]["versions"]["nvidia-cutlass-dsl-libs-cu13"]
    ff.add_dist(f, "nvidia-cutlass-dsl-libs-cu12", "4.8.1", requires=[])
    return f


@scenario("fa2.wheel-mismatch", "error", "fa2")
def fa2_wheel_for_torch_26():
    """flash-attn 2.8.3 from the wheel tagged +cu12torch2.6cxx11abiFALSE, on torch 2.11 (cxx11abi TRUE)."""
    f = ff.gpu_box()
    ff.install(f, "fa2", "flash-attn", "2.8.3")
    f["packages"]["stack"]["flash-attn"].update(
        direct_url="https://github.com/Dao-AILab/flash-attention/releases/download/v2.8.3/"
                   "flash_attn-2.8.3+cu12torch2.6cxx11abiFALSE-cp312-cp312-linux_x86_64.whl",
        build_tag={"cuda": "12", "torch": "2.6", "cxx11abi": False})
    return f


@scenario("xformers.built-for-other-torch", "error", "xformers")
def xformers_built_for_210():
    """xformers 0.0.35's cpp_lib.json says torch 2.10.0+cu128; torch is 2.11.0+cu130 (FACTS.md)."""
    f = ff.gpu_box()
    ff.install(f, "xformers", "xformers", "0.0.35", probe=ff.ok_import(warnings=[
        "UserWarning: WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
        "    PyTorch 2.10.0+cu128 with CUDA 1208 (you have 2.11.0+cu130)"]))
    ff.add_dist(f, "numpy", "2.3.4")
    f["packages"]["xformers_build"] = {"torch": "2.10.0+cu128", "cuda": 1208, "python": "3.10.19",
                                       "arch_list": "7.5 8.0+PTX 8.0 9.0a"}
    return f


@scenario("xformers.built-for-other-cuda", "warning", "xformers")
def xformers_built_for_cu128():
    """xformers built for torch 2.11.0+cu128; torch is 2.11.0+cu130."""
    f = ff.gpu_box()
    ff.install(f, "xformers", "xformers", "0.0.35")
    ff.add_dist(f, "numpy", "2.3.4")
    f["packages"]["xformers_build"] = {"torch": "2.11.0+cu128", "cuda": 1208, "python": "3.12.3", "arch_list": None}
    return f


# ----------------------------------------------------------------------------------------------
# smoke tests (records built by fakefacts.add_smoke through the real smoke_record(); failing cases
# get their problem wording from the child's own classify_numbers)
# ----------------------------------------------------------------------------------------------

def _smoke(f, backend, cap=(9, 0), broken=None, **plan_kw):
    """Every planned case of `backend` passes, except `broken` {case index: finished case or error}."""
    plan = ff.smoke_plan(backend, cap, **plan_kw)
    cases = [(broken or {}).get(i) or ff.smoke_case(c) for i, c in enumerate(plan)]
    return plan, ff.add_smoke(f, backend, cases)


def _fa4_cache_at_home(f):
    """FA4's disk cache moved off /tmp, as cache.volatile asks: FLASH_ATTENTION_CUTE_DSL_CACHE_DIR set."""
    d = "/home/user/.cache/flash_attention_cute_dsl"
    ff.set_env(f, FLASH_ATTENTION_CUTE_DSL_CACHE_DIR=d)
    ff.get_cache(f, "fa4").update(path=d, set=True, under_tmp=False, exists=True, is_dir=True, writable=True,
                                  readable=True, nearest_existing=d)
    return f


def test_healthy_smoke_has_no_findings():
    """FAKES a healthy smoke run of sdpa, flex, cute and fa3 on the healthy H200: no finding, every status
    ok. So each smoke scenario below fires because of the one case or run it breaks."""
    f = _fa4_cache_at_home(_fa4_stack(ff.gpu_box()))
    ff.install(f, "fa3", "flash_attn_3", "3.0.0b1")
    for name in ("sdpa", "flex", "cute", "fa3"):
        _smoke(f, name)
    f["smoke"]["devices"]["0"]["cute"]["cache_check"] = {"first_seconds": 0.4, "ok": True, "wall_seconds": 5.1}
    r = ff.check(f)
    assert r.findings == []
    assert {n: r.backends[n]["status"] for n in ("sdpa", "flex", "cute", "fa3")} == dict.fromkeys(
        ("sdpa", "flex", "cute", "fa3"), "ok")


@scenario("smoke.hang", "error", "cute")
def fa4_smoke_hangs():
    """flash-attn-4 imports; its smoke child never finished its first case (a cold JIT) and was killed at
    the 180 s timeout: no case result, no final line, stuck_in names the case."""
    f = _fa4_stack(ff.gpu_box())
    plan = ff.smoke_plan("cute")
    ff.add_smoke(f, "cute", [], planned=[c["name"] for c in plan], run=ff.hung_run(), stuck_in=plan[0]["name"])
    return f


@scenario("smoke.crashed", "error", "sage")
def sage_smoke_segfaults():
    """sageattention 1.0.6 imports; its smoke child died of SIGSEGV in the first case, printing only
    Python's faulthandler lines."""
    f = ff.gpu_box()
    ff.install(f, "sage", "sageattention", "1.0.6")
    plan = ff.smoke_plan("sage")
    ff.add_smoke(f, "sage", [], planned=[c["name"] for c in plan], stuck_in=plan[0]["name"], run=ff.crashed_run(
        stderr="Fatal Python error: Segmentation fault\n\nCurrent thread 0x00007f3b2c1ff740 (most recent call first):\n"
               '  File "/venv/lib/python3.12/site-packages/sageattention/core.py", line 133 in sageattn\n'))
    return f


@scenario("xformers.no-operator", "error", "xformers")
def xformers_case_has_no_operator():
    """xformers 0.0.35 imports; every memory_efficient_attention call raises NotImplementedError (no
    operator for the inputs). The knowledge entry for that error needs no params, so the smoke check
    names it, not smoke.case-error. The first case's error is faked."""
    f = ff.gpu_box()
    ff.install(f, "xformers", "xformers", "0.0.35")
    ff.add_dist(f, "numpy", "2.3.4")
    plan = ff.smoke_plan("xformers")
    _smoke(f, "xformers", broken={0: ff.smoke_case_error(
        plan[0], "NotImplementedError", "No operator found for `memory_efficient_attention_forward` with inputs:\n"
        "     query       : shape=(2, 256, 8, 128) (torch.bfloat16)\n"
        "`fa3F@0.0.0` is not supported because:\n    operator wasn't built - see `python -m xformers.info` for more info")})
    return f


@scenario("smoke.case-error", "error", "xformers")
def xformers_case_error_nobody_names():
    """xformers 0.0.35 imports; the first case's memory_efficient_attention call raises xformers' own
    ValueError (as an adapter bug would cause), an error no knowledge entry names: the case error is
    shown as it is. FAKED: the case's error. (Its dtype ValueError is named now: attn.qkv-dtype; its shape ValueError,
    "Incompatible shapes for attention inputs", too since session 8: xformers.unsupported-inputs, from fmha's source.)"""
    f = ff.gpu_box()
    ff.install(f, "xformers", "xformers", "0.0.35")
    ff.add_dist(f, "numpy", "2.3.4")
    plan = ff.smoke_plan("xformers")
    _smoke(f, "xformers", broken={0: ff.smoke_case_error(
        plan[0], "ValueError", "Unexpected layout of the adapter's inputs:\n  query.shape: (1, 256, 8, 64)\n"
        "  key.shape  : (1, 256, 4, 64)\n  value.shape: (1, 256, 4, 64)\nHINT: the adapter passed 3 tensors where the call "
        "takes a tuple of 4")})
    return f


@scenario("smoke.case-error", "error", "fa3")
def fa3_adapter_load_fails():
    """flash_attn_3 imports, but loading its entry point in the smoke child raised AttributeError (the
    child's final line: stage load, no case run)."""
    f = ff.gpu_box()
    ff.install(f, "fa3", "flash_attn_3", "3.0.0b1")
    plan = ff.smoke_plan("fa3")
    ff.add_smoke(f, "fa3", [], planned=[c["name"] for c in plan], final={
        "pid": 4242, "torch_seconds": 3.6, "gpu": "NVIDIA H200", "capability": [9, 0], "stage": "load",
        "error": ff.error("AttributeError", "module 'flash_attn_interface' has no attribute 'flash_attn_func'")})
    return f


@scenario("smoke.known-error", "error", "flex")
def flex_inductor_subdir_not_writable():
    """FlexAttention's first compile raised PermissionError inside the Inductor cache: the cache's top
    directory is writable (the caches check is quiet) but a triton/ subdirectory left by a root run is
    not. The matched entry (cache.unwritable) needs the cache's name and path, which a smoke case does
    not have, so the generic known-error finding names it."""
    f = ff.gpu_box()
    plan = ff.smoke_plan("flex")
    _smoke(f, "flex", broken={0: ff.smoke_case_error(
        plan[0], "PermissionError", "[Errno 13] Permission denied: '/home/user/.cache/torchinductor/triton/0/tmpk2v9x1'",
        '  File "/venv/lib/python3.12/site-packages/torch/_inductor/runtime/triton_heuristics.py", line 1288, in '
        "_precompile_config\n")})
    return f


@scenario("smoke.wrong-result", "error", "cute")
def fa4_wrong_output():
    """flash-attn-4's output in the first case is far from the float64 reference (rel err 0.31), and its
    gradient with it: the forward is reported, not the gradient that follows from it."""
    f = _fa4_stack(ff.gpu_box())
    plan = ff.smoke_plan("cute")
    _smoke(f, "cute", broken={0: ff.smoke_case(plan[0], rel_err=0.31, row_err=0.9, bwd={"rel_err": 0.4})})
    return f


@scenario("smoke.wrong-grad", "error", "fa3")
def fa3_wrong_gradient():
    """flash_attn_3's forward is right but its dq in the first case is off (rel err 0.4)."""
    f = ff.gpu_box()
    ff.install(f, "fa3", "flash_attn_3", "3.0.0b1")
    plan = ff.smoke_plan("fa3")
    _smoke(f, "fa3", broken={0: ff.smoke_case(plan[0], bwd={"rel_err": 0.4, "row_err": 0.9})})
    return f


@scenario("smoke.nan", "error", "sage")
def sage_nan_output():
    """sageattention returns 512 NaN/inf values in its fp16 d64 case (unwritten output)."""
    f = ff.gpu_box()
    ff.install(f, "sage", "sageattention", "1.0.6")
    plan = ff.smoke_plan("sage")
    i = next(i for i, c in enumerate(plan) if c["dtype"] == "float16")
    _smoke(f, "sage", broken={i: ff.smoke_case(plan[i], nonfinite=512, rel_err=None, row_err=None)})
    return f


@scenario("smoke.inputs-changed", "warning", "sage")
def sage_changes_k_in_place():
    """FAKED from the H200 run (fixtures/gpu/h200-s16-final): sageattention 1.0.6 passes every case against the float64
    reference, but its dense cases' k differs after the call (`k -= km`): a warning, the backend stays ok."""
    f = ff.gpu_box()
    ff.install(f, "sage", "sageattention", "1.0.6")
    plan = ff.smoke_plan("sage")
    _smoke(f, "sage", broken={i: ff.smoke_case(c, inputs_changed=["k"]) for i, c in enumerate(plan)
                              if c["kind"] == "dense"})
    return f


@scenario("smoke.varlen-leak", "error", "fa2")
def fa2_varlen_padding_leaks():
    """flash-attn 2.8.3's varlen case: changing the padding rows changed valid outputs by 0.9."""
    f = ff.gpu_box()
    ff.install(f, "fa2", "flash-attn", "2.8.3")
    plan = ff.smoke_plan("fa2")
    i = next(i for i, c in enumerate(plan) if c["kind"] == "varlen")
    _smoke(f, "fa2", broken={i: ff.smoke_case(plan[i], padding_change=0.9)})
    return f


@scenario("smoke.not-built", "warning", "fa2")
def fa2_reduced_build_without_d64():
    """FAKES a reduced flash-attn build (head dims 128 only, scripts/gpu/fa2_reduce.py): its fp16 d64 case is
    refused with the build's own sentence, every other case passes."""
    f = ff.gpu_box()
    ff.install(f, "fa2", "flash-attn", "2.8.3.post2+sm90.hdim128")
    plan = ff.smoke_plan("fa2")
    i = next(i for i, c in enumerate(plan) if c["head_dim"] == 64 and c["kind"] == "dense")
    msg = "This flash attention build does not support head dim 64: it was built with the kernels of head dims 128 only"
    gone = {"name": plan[i]["name"], "ok": False, "not_built": True, "skipped": f"not in this build: {msg}",
            "error": {"type": "RuntimeError", "message": msg, "traceback": ""}}
    _smoke(f, "fa2", broken={i: gone})
    return f


@scenario("smoke.oom", "error", "sdpa")
def sdpa_out_of_memory():
    """Another process holds all but 3 MiB of the H200: SDPA's first case runs out of memory."""
    f = ff.gpu_box()
    plan = ff.smoke_plan("sdpa")
    _smoke(f, "sdpa", broken={0: ff.smoke_case_error(
        plan[0], "OutOfMemoryError", "CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity "
        "of 139.81 GiB of which 3.06 MiB is free. Process 31337 has 139.79 GiB memory in use.")})
    return f


@scenario("flex.shared-memory", "error", "flex")
def flex_d256_on_rtx_4090():
    """FlexAttention on an RTX 4090 (sm89, 100 KB of shared memory per block) with head dim 256 (a config
    asked for it): Inductor finds no Triton config that fits."""
    f = ff.gpu_box()
    ff.set_gpus(f, [("NVIDIA GeForce RTX 4090", (8, 9))])
    plan = ff.smoke_plan("flex", (8, 9), head_dims=[256])
    _smoke(f, "flex", (8, 9), head_dims=[256], broken={0: ff.smoke_case_error(
        plan[0], "InductorError", "RuntimeError: No valid triton configs. OutOfResources: out of resource: shared "
        "memory, Required: 147456, Hardware limit: 101376. Reducing block sizes or `num_stages` may help.")})
    return f


@scenario("sdpa.math-fallback", "warning", "sdpa")
def sdpa_bf16_on_t4_runs_math():
    """A Tesla T4 (sm75): no fused SDPA kernel takes bf16 there, so the sdpa-kernels bf16 case records
    each fused kernel's refusal and math as SDPA's default pick."""
    f = ff.gpu_box()
    ff.set_gpus(f, [("Tesla T4", (7, 5))])
    plan = ff.smoke_plan("sdpa", (7, 5))
    i = next(i for i, c in enumerate(plan) if c["kind"] == "sdpa-kernels" and c["dtype"] == "bfloat16")
    refused = {"ok": False, "refused": "No available kernel. Aborting execution."}
    case = ff.smoke_case(plan[i], default="math", kernels={
        "flash_attention": refused, "efficient_attention": refused, "cudnn_attention": refused,
        "math": {"rel_err": 1.6e-3, "row_err": 9.2e-3, "nonfinite": 0, "ok": True}})
    _smoke(f, "sdpa", (7, 5), broken={i: case})
    return f


@scenario("cache.fa4-miss", "warning", "cute")
def fa4_cache_not_reused():
    """FA4's disk cache on (FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED=1); the smoke run compiled its first
    kernel, and a second process still took 3.9 s for the same call (cache_check)."""
    f = _fa4_cache_at_home(_fa4_stack(ff.gpu_box()))
    _smoke(f, "cute")
    f["smoke"]["devices"]["0"]["cute"]["cache_check"] = {"first_seconds": 3.9, "ok": True, "wall_seconds": 14.2}
    return f


@scenario("import.known-error", "error", "cute")
def fa4_import_fails_on_invisible_quack():
    """flash-attn-4's import fails with the AttributeError the H100 recorded for quack-kernels 0.2.4
    (fault-quack.json, 2026-11-22), but that quack comes from a source checkout on PYTHONPATH with no
    dist-info, so the versions check cannot name it: the import finding points at the entry instead."""
    f = _fa4_stack(ff.gpu_box())
    for d in ("stack", "versions"):
        del f["packages"][d]["quack-kernels"]
    f["imports"]["cute"]["probe"] = ff.failed_import(
        "AttributeError", "module 'cutlass._mlir.dialects.nvvm' has no attribute 'RoundingModeKind'",
        PROBE_FRAME + '  File "/venv/lib/python3.12/site-packages/flash_attn/cute/__init__.py", line 10, in <module>\n'
        "    from .interface import (\n"
        '  File "/venv/lib/python3.12/site-packages/flash_attn/cute/interface.py", line 19, in <module>\n'
        "    from quack.compile_utils import make_fake_tensor as fake_tensor\n"
        '  File "/src/quack/quack/utils.py", line 16, in <module>\n'
        "    fma_packed_f32x2 = partial(cute.arch.fma_packed_f32x2, rnd=nvvm.RoundingModeKind.RN)\n",
        name="RoundingModeKind")
    return f


# ----------------------------------------------------------------------------------------------
# trainer configs (check --config): Context.config is the dict attn_doctor.configs reads; the Context
# is built as cli.check builds it (the config's backends required, its compile mode)
# ----------------------------------------------------------------------------------------------

CONFIGS = Path(__file__).resolve().parents[1] / "fixtures" / "configs"


def _ctx(cfg: dict) -> dict:
    return dict(config=cfg, required=list(cfg["required"]), compile_mode=cfg["compile_mode"])


def fixture_config(name: str) -> dict:
    """The Context for `check --config fixtures/configs/<name>` (hand-written fixtures, see their README)."""
    from attn_doctor import configs

    return _ctx(configs.load(str(CONFIGS / name)))


def inline_config(trainer: str, filename: str, text: str) -> dict:
    """The Context for a config written here: `text` read by that trainer's own reader, as configs.load()
    reads a file named `filename` (detection skipped; nothing is read from disk)."""
    import importlib

    from attn_doctor import configs

    cfg = importlib.import_module(f"attn_doctor.configs.{trainer}").parse(f"/job/{filename}", text)
    cfg["path"] = f"/job/{filename}"
    return _ctx(configs.finish(cfg))


def loaded_config(filename: str, text: str) -> dict:
    """The Context for a launch file written here and read by configs.load() as `check --config` reads it (detection
    included), from a folder that is gone afterwards."""
    import tempfile

    from attn_doctor import configs

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / filename
        path.write_text(text, encoding="utf-8")
        cfg = configs.load(str(path))
    cfg["path"] = f"/job/{filename}"
    return _ctx(cfg)


@scenario("config.simpletuner-unknown-backend", "error",
          **inline_config("simpletuner", "config.json", '{"model_family": "flux", "attention_mechanism": "flash_attn_2"}'))
def simpletuner_misspelled_mechanism():
    """SimpleTuner config.json with attention_mechanism=flash_attn_2 (its name is flash-attn-2)."""
    return ff.gpu_box()


@scenario("config.musubi-unknown-flag", "error", **fixture_config("musubi-hv-typos-cmd.txt"))
def musubi_hyphenated_flag():
    """A saved musubi-tuner command line with the CuTE guide's --flash-attn (fixture musubi-hv-typos-cmd.txt)."""
    return ff.gpu_box()


@scenario("config.musubi-unknown-key", "error",
          **inline_config("musubi", "train.toml", '[model]\ndit = "/m/dit.safetensors"\n[attn]\nflash-attn = true\n'))
def musubi_hyphenated_toml_key():
    """A musubi-tuner TOML with `flash-attn = true` (the option is flash_attn)."""
    return ff.gpu_box()


@scenario("config.diffusers-unknown-backend", "error")
def diffusers_env_misspelled():
    """No --config; DIFFUSERS_ATTN_BACKEND=flash3 in the doctor's environment (diffusers' name is _flash_3)."""
    return ff.set_env(ff.gpu_box(), DIFFUSERS_ATTN_BACKEND="flash3")


@scenario("config.musubi-sage-training", "error", "sage", **fixture_config("musubi-sage.toml"))
def musubi_trains_with_sage():
    """musubi-tuner TOML with sage_attn = true (fixture musubi-sage.toml); sageattention 1.0.6 imports."""
    f = ff.gpu_box()
    ff.install(f, "sage", "sageattention", "1.0.6")
    return f


@scenario("config.simpletuner-sage-training", "error", "sage", **fixture_config("simpletuner-sage/config.env"))
def simpletuner_trains_with_sage():
    """SimpleTuner config.env with sageattention_usage=training (fixture simpletuner-sage)."""
    f = ff.gpu_box()
    ff.install(f, "sage", "sageattention", "1.0.6")
    return f


@scenario("config.mask-dropped", "warning", "sage", **fixture_config("simpletuner-sage/config.env"))
def simpletuner_sage_drops_mask():
    """As simpletuner_trains_with_sage: train_batch_size 4, and SimpleTuner's sage wrapper drops attn_mask."""
    return simpletuner_trains_with_sage()


@scenario("config.simpletuner-sage-inference", "info", "sage",
          **inline_config("simpletuner", "config.json", '{"model_family": "flux", "attention_mechanism": "sageattention"}'))
def simpletuner_sage_for_validation():
    """SimpleTuner config.json with attention_mechanism=sageattention and the default usage (inference)."""
    f = ff.gpu_box()
    ff.install(f, "sage", "sageattention", "1.0.6")
    return f


@scenario("config.flex-uncompiled", "warning", "flex", **fixture_config("simpletuner-flex/config.json"))
def simpletuner_flex_without_compile():
    """SimpleTuner config.json with attention_mechanism=flex and dynamo_backend unset (fixture simpletuner-flex)."""
    return ff.gpu_box()


@scenario("config.flex-uncompiled", "info", "flex")
def diffusers_env_flex():
    """No --config; DIFFUSERS_ATTN_BACKEND=flex in the environment, which cannot say whether the model is
    compiled: a note only."""
    return ff.set_env(ff.gpu_box(), DIFFUSERS_ATTN_BACKEND="flex")


@scenario("config.mask-refused", "warning", "fa3", **fixture_config("simpletuner-wan-fa3/config.toml"))
def simpletuner_fa3_batch_2():
    """SimpleTuner config.toml with attention_mechanism=flash-attn-3 at train_batch_size 2 (fixture
    simpletuner-wan-fa3); flash_attn_3 imports."""
    f = ff.gpu_box()
    ff.install(f, "fa3", "flash_attn_3", "3.0.0b1")
    return f


@scenario("config.xformers-no-split", "warning", "xformers", **fixture_config("musubi-hv-typos-cmd.txt"))
def musubi_xformers_without_split():
    """The musubi-hv-typos-cmd.txt command line passes --xformers and no --split_attn; xformers imports."""
    f = ff.gpu_box()
    ff.install(f, "xformers", "xformers", "0.0.35")
    ff.add_dist(f, "numpy", "2.3.4")
    return f


@scenario("config.attention-dtype-unsupported", "error", "fa2",
          **inline_config("musubi", "zimage.toml", '[model]\ndit = "/m/z_image.safetensors"\nnetwork_module = '
                          '"networks.lora_zimage"\nmixed_precision = "no"\nflash_attn = true\n'))
def musubi_zimage_float32_flash():
    """A musubi-tuner Z-Image TOML with flash_attn = true and mixed_precision = "no" (the DiT then runs in float32);
    flash-attn 2.8.3 imports."""
    f = ff.gpu_box()
    ff.install(f, "fa2", "flash-attn", "2.8.3")
    return f


@scenario("config.backend-no-effect", "warning", **fixture_config("simpletuner-sdxl/config.json"))
def simpletuner_sdxl_with_flex():
    """SimpleTuner config.json for model_family=sdxl (a UNet) with a dispatcher backend (fixture simpletuner-sdxl)."""
    return ff.gpu_box()


@scenario("config.hub-kernel", "info",
          **inline_config("simpletuner", "config.toml",
                          'model_family = "flux"\nattention_mechanism = "flash-attn-4-hub"\ntrain_batch_size = 1\n'))
def simpletuner_hub_fa4_with_kernels():
    """SimpleTuner config.toml with attention_mechanism=flash-attn-4-hub; the kernels package 0.12.3 is installed."""
    f = ff.gpu_box()
    ff.add_dist(f, "kernels", "0.12.3", requires=[])
    return f


@scenario("config.hub-kernels-missing", "error", **fixture_config("diffusers-flash4.env"))
def diffusers_hub_fa4_without_kernels():
    """DIFFUSERS_ATTN_BACKEND=flash_4_hub (fixture diffusers-flash4.env) and no kernels package."""
    return ff.gpu_box()


@scenario("config.backend-not-checked", "info",
          **inline_config("simpletuner", "config.json", '{"model_family": "flux", "attention_mechanism": "sla"}'))
def simpletuner_sla():
    """SimpleTuner config.json with attention_mechanism=sla, a backend attn-doctor has no check for."""
    return ff.gpu_box()


@scenario("config.backend-not-checked", "info",
          **inline_config("diffusers", "serve.env", "export DIFFUSERS_ATTN_BACKEND=_native_npu\n"))
def diffusers_npu():
    """An env file with DIFFUSERS_ATTN_BACKEND=_native_npu (Ascend NPUs), on the H200 box."""
    return ff.gpu_box()


@scenario("config.musubi-no-backend", "error",
          **inline_config("musubi", "run.sh", "python wan_train_network.py --task t2v-1.3B --dit x.safetensors "
                                              "--mixed_precision fp16\n"))
def musubi_command_line_without_backend():
    """A musubi-tuner command line with no attention flag and no --config_file: sure to fail."""
    return ff.gpu_box()


@scenario("config.musubi-no-backend", "warning",
          **inline_config("musubi", "train.toml", '[model]\ndit = "/m/dit.safetensors"\n[training]\nlearning_rate = 2e-4\n'))
def musubi_toml_without_backend():
    """A musubi-tuner TOML with no attention key: the command that runs it may add one, so a warning."""
    return ff.gpu_box()


@scenario("config.launches-differ", "info",
          **loaded_config("sweep.sh", "#!/bin/bash\nfor mp in fp16 bf16; do\n  accelerate launch --mixed_precision $mp "
                                      "train_dreambooth_flux.py --pretrained_model_name_or_path=m --instance_data_dir=d "
                                      "--output_dir=out --instance_prompt=p\ndone | tee train.log\n"))
def diffusers_launch_loop_over_two_precisions():
    """A launch script that runs the same diffusers example once with fp16 and once with bf16 (a `for` loop)."""
    return ff.gpu_box()


@scenario("config.settings-at-launch", "info",
          **loaded_config("train.py", "import argparse\nimport yaml\nfrom transformers import AutoModelForCausalLM, "
                                      "TrainingArguments, Trainer\np = argparse.ArgumentParser()\n"
                                      "p.add_argument('--config', required=True)\nopts = p.parse_args()\n"
                                      "with open(opts.config) as f:\n    cfg = yaml.safe_load(f)\n"
                                      "model = AutoModelForCausalLM.from_pretrained(cfg['model'])\n"
                                      "Trainer(model=model, args=TrainingArguments(output_dir='out')).train()\n"))
def transformers_script_with_settings_named_at_launch():
    """A transformers script whose settings YAML comes from a required --config option, with no default."""
    return ff.gpu_box()


@scenario("config.conditional-backend", "info",
          **inline_config("musubi", "run.sh", 'args=(--task t2v-1.3B --dit x.safetensors --mixed_precision bf16)\n'
                                              '[[ "$USE_XFORMERS" == true ]] && args+=(--xformers)\n'
                                              'accelerate launch wan_train_network.py "${args[@]}" --sdpa\n'))
def musubi_flag_under_caller_condition():
    """A musubi-tuner launch script that passes --sdpa and adds --xformers only when the caller sets USE_XFORMERS."""
    return ff.gpu_box()


@scenario("config.musubi-several-backends", "warning",
          **inline_config("musubi", "run.sh", "accelerate launch hv_train_network.py --dit x.pt --flash_attn "
                                              "--xformers --split_attn --mixed_precision bf16\n"))
def musubi_two_backends():
    """A musubi-tuner command line with both --flash_attn and --xformers; both import."""
    f = ff.gpu_box()
    ff.install(f, "fa2", "flash-attn", "2.8.3")
    ff.install(f, "xformers", "xformers", "0.0.35")
    ff.add_dist(f, "numpy", "2.3.4")
    return f


@scenario("config.simpletuner-xformers-sm90", "error", "xformers",
          **inline_config("simpletuner", "config.json", '{"model_family": "flux", "attention_mechanism": "xformers"}'))
def simpletuner_xformers_on_h200():
    """SimpleTuner config.json with attention_mechanism=xformers on the H200 (sm90); xformers imports."""
    f = ff.gpu_box()
    ff.install(f, "xformers", "xformers", "0.0.35")
    ff.add_dist(f, "numpy", "2.3.4")
    return f


@scenario("config.sdscripts-unknown-option", "error",
          **inline_config("sd_scripts", "run.sh", "accelerate launch sdxl_train_network.py --flash_attn "
                                                  "--mixed_precision bf16 --train_batch_size 2\n"))
def sdscripts_musubi_flag():
    """An sd-scripts command line with musubi-tuner's --flash_attn (sd-scripts has --sdpa/--xformers/--mem_eff_attn)."""
    return ff.gpu_box()


@scenario("config.sdscripts-no-attention", "warning",
          **inline_config("sd_scripts", "run.sh", "accelerate launch sdxl_train_network.py --mixed_precision bf16 "
                                                  "--network_module networks.lora\n"))
def sdscripts_sdxl_plain_attention():
    """An sd-scripts SDXL command line with none of --sdpa, --xformers, --mem_eff_attn."""
    return ff.gpu_box()


@scenario("config.axolotl-unknown-attn", "error",
          **inline_config("axolotl", "qlora.yml", "base_model: Qwen/Qwen3-8B\nattn_implementation: flash\n"))
def axolotl_short_form():
    """An axolotl YAML with attn_implementation: flash (refused: the name is flash_attention_2)."""
    return ff.gpu_box()


@scenario("config.transformers-unknown-attn", "error",
          **inline_config("hf_transformers", "sft.yaml", "model_name_or_path: Qwen/Qwen3-0.6B\n"
                                                         "attn_implementation: flash_attn_2\n"))
def trl_misspelled_attn_implementation():
    """A TRL CLI config with attn_implementation: flash_attn_2 (transformers' name is flash_attention_2)."""
    return ff.gpu_box()


@scenario("config.llamafactory-unknown-attn", "error",
          **inline_config("llamafactory", "sft.yaml", "model_name_or_path: Qwen/Qwen3-4B\nstage: sft\n"
                                                      "flash_attn: flash_attention_2\n"))
def llamafactory_hf_name_in_v0():
    """A LLaMA-Factory (v0) YAML with flash_attn: flash_attention_2 (its values are auto/disabled/sdpa/fa2/fa3)."""
    return ff.gpu_box()


@scenario("config.onetrainer-unknown-attn", "warning",
          **inline_config("onetrainer", "config.json", '{"model_type": "FLUX_DEV_1", "attention_mechanism": "FLASH_ATTN"}'))
def onetrainer_unknown_mechanism():
    """A OneTrainer config JSON with attention_mechanism FLASH_ATTN (its values: SDP, FLASH, CUDNN, FLEX): dropped."""
    return ff.gpu_box()


@scenario("config.packing-contamination", "warning",
          **inline_config("axolotl", "lora.yml", "base_model: NousResearch/Llama-3.2-1B\nsample_packing: true\n"))
def axolotl_packing_without_backend():
    """An axolotl YAML with sample_packing: true and no attn_implementation."""
    return ff.gpu_box()


@scenario("config.backend-off-on-gpu", "info",
          **inline_config("torchtune", "lora.yaml", "model:\n  _component_: torchtune.models.llama3_2.lora_llama3_2_1b\n"
                          "dataset:\n  _component_: torchtune.datasets.alpaca_dataset\n  packed: True\ndtype: fp32\n"))
def torchtune_packed_on_a_v100():
    """A torchtune recipe with dataset.packed: True on a Tesla V100 (sm70), below torchtune's FlexAttention gate."""
    f = ff.gpu_box()
    ff.set_gpus(f, [("Tesla V100-SXM2-32GB", (7, 0))])
    return f


# a TRL script that leaves bf16 / fp16 to the GPU's bf16 probe (checks/trainer.py _dtype_by_gpu resolves it with the GPUs)
_GPU_DECIDES = ("import torch\nfrom transformers import AutoModelForCausalLM\nfrom trl import SFTConfig, SFTTrainer\n"
                "model = AutoModelForCausalLM.from_pretrained('org/m', attn_implementation='sdpa')\n"
                "args = SFTConfig(output_dir='o', bf16=torch.cuda.is_bf16_supported({arg}), "
                "fp16=not torch.cuda.is_bf16_supported({arg}))\nSFTTrainer(model=model, args=args).train()\n")


@scenario("config.dtype-by-gpu", "info", **inline_config("hf_transformers", "sft.py", _GPU_DECIDES.format(arg="")))
def gpu_decided_dtype_on_an_h200():
    """A TRL script with bf16=torch.cuda.is_bf16_supported() on the H200 (sm90): bfloat16 there."""
    return ff.gpu_box()


@scenario("config.dtype-by-gpu-unresolved", "info",
          **inline_config("hf_transformers", "sft.py", _GPU_DECIDES.format(arg="")))
def gpu_decided_dtype_without_a_gpu():
    """The same script checked on the CPU machine: no GPU to resolve it with."""
    return ff.cpu_box()


@scenario("config.dtype-by-gpu-emulated", "warning",
          **inline_config("hf_transformers", "sft.py", _GPU_DECIDES.format(arg="")))
def gpu_decided_dtype_on_a_t4():
    """The same script on a Tesla T4 (sm75) with torch 2.11: torch's probe counts emulated bfloat16 there."""
    f = ff.gpu_box()
    ff.set_gpus(f, [("Tesla T4", (7, 5))])
    return f


@scenario("config.dtype-by-gpu-differs", "warning",
          **inline_config("hf_transformers", "sft.py", _GPU_DECIDES.format(arg="including_emulation=False")))
def gpu_decided_dtype_on_a_mixed_node():
    """The probe without emulation on a node of a Tesla T4 (sm75) and an A100 (sm80): float16 on one, bfloat16 on the
    other."""
    f = ff.gpu_box()
    ff.set_gpus(f, [("Tesla T4", (7, 5)), ("NVIDIA A100-SXM4-80GB", (8, 0))])
    return f


# a script that loads its model with no dtype and no autocast, the transformers release not shown (checks/trainer.py
# _dtype_by_release resolves it with the transformers of the environment checked: cfg126)
_RELEASE_DECIDES = ("from transformers import AutoModelForCausalLM, Trainer, TrainingArguments\n"
                    "model = AutoModelForCausalLM.from_pretrained('org/m', attn_implementation='sdpa')\n"
                    "Trainer(model=model, args=TrainingArguments(output_dir='o')).train()\n")


@scenario("config.dtype-by-release", "info", **inline_config("hf_transformers", "train.py", _RELEASE_DECIDES))
def release_decided_dtype_under_transformers_4():
    """That script on the H200 box with transformers 4.57.1 installed: float32 weights, no autocast."""
    f = ff.gpu_box()
    ff.add_dist(f, "transformers", "4.57.1")
    return f


@scenario("config.dtype-by-release-unresolved", "info",
          **inline_config("hf_transformers", "train.py", _RELEASE_DECIDES))
def release_decided_dtype_without_transformers():
    """The same script checked where no transformers is installed: the release is not known here."""
    return ff.gpu_box()


@scenario("config.unknown-key", "error",
          **inline_config("llamafactory", "sft.yaml", "model_name_or_path: Qwen/Qwen2.5-7B\nstage: sft\ndo_train: true\n"
                          "finetuning_type: lora\ndataset: alpaca_en_demo\ntemplate: qwen\nflash_atn: fa2\n"))
def llamafactory_misspelt_key():
    """A LLaMA-Factory YAML with flash_atn (its key is flash_attn), on the healthy H200 box."""
    return ff.gpu_box()


@scenario("config.axolotl-fa4-swap", "info", "cute",
          **inline_config("axolotl", "qwen3.yml", "base_model: Qwen/Qwen3-8B\nattn_implementation: flash_attention_2\n"))
def axolotl_fa2_on_h200_with_fa4():
    """An axolotl YAML asking flash_attention_2 on the H200 (sm90); flash-attn 2.8.3 and flash-attn-4 4.0.0b36 import."""
    f = ff.gpu_box()
    ff.install(f, "fa2", "flash-attn", "2.8.3")
    ff.install(f, "cute", "flash-attn-4", "4.0.0b36")
    return f


@scenario("config.compile-mode-unknown", "error",
          **inline_config("ai_toolkit", "job.yaml", "job: extension\nconfig:\n  process:\n    - type: sd_trainer\n"
                                                    "      model:\n        arch: flux\n        compile: true\n"
                                                    "        compile_mode: fastest\n"))
def ai_toolkit_fastest_compile_mode():
    """An ai-toolkit job file with compile: true and compile_mode: fastest (its UI's choice; torch has no such mode)."""
    return ff.gpu_box()


@scenario("config.unknown-option", "error",
          **inline_config("sd_scripts", "run.sh", "accelerate launch train_network.py --sdpa --sage_atn "
                                                  "--mixed_precision bf16\n"))
def sdscripts_misspelt_option():
    """An sd-scripts command line with --sage_atn, which no release of train_network.py's parser has (issue 24)."""
    return ff.gpu_box()


@scenario("config.ambiguous-option", "error",
          **inline_config("musubi", "run.sh", "accelerate launch wan_train_network.py --task t2v-14B --flash "
                                              "--mixed_precision bf16\n"))
def musubi_ambiguous_abbreviation():
    """A musubi-tuner command line with --flash, which starts both --flash_attn and --flash3 (issue 24)."""
    return ff.gpu_box()


@scenario("config.simpletuner-use-xformers-removed", "warning",
          **inline_config("simpletuner", "config.env", 'MODEL_FAMILY="sdxl"\nMODEL_TYPE="lora"\nUSE_XFORMERS=true\n'))
def simpletuner_use_xformers_env():
    """A SimpleTuner config.env of the env_file.py era with USE_XFORMERS=true; xformers imports."""
    f = ff.gpu_box()
    ff.install(f, "xformers", "xformers", "0.0.35")
    ff.add_dist(f, "numpy", "2.3.4")
    return f


@scenario("config.msswift-packing-needs-flash", "error",
          **inline_config("ms_swift", "sft.sh", "NPROC_PER_NODE=2 swift sft --model Qwen/Qwen2.5-7B-Instruct "
                                                "--train_type lora --packing true --torch_dtype bfloat16\n"))
def msswift_packing_without_flash():
    """An ms-swift command line with --packing true and no --attn_impl (ms-swift refuses it, issue 24)."""
    return ff.gpu_box()


@scenario("config.sage-training", "error", "sage",
          **inline_config("axolotl", "lora.yml", "base_model: NousResearch/Llama-3.2-1B\nattn_implementation: sage\n"))
def axolotl_trains_with_sage():
    """An axolotl YAML with attn_implementation: sage; sageattention 1.0.6 imports."""
    f = ff.gpu_box()
    ff.install(f, "sage", "sageattention", "1.0.6")
    return f


# ----------------------------------------------------------------------------------------------
# settings that slow a job down or switch a backend off (issue 22; tests/test_settings.py has the rest)
# ----------------------------------------------------------------------------------------------

def _setting_scenario(row: dict):
    from test_settings import ON

    def build():
        return ff.set_env(ff.gpu_box(), **{row["var"]: ON[row["read"]]})
    build.__name__ = f"setting_{row['var'].lower()}"
    build.__doc__ = f"{row['var']} set to a value its reader takes as on, on the healthy box."
    return build


def _register_settings():
    from attn_doctor.checks.settings import table

    done = set()
    for row in table():
        if row["entry"] not in done:  # one scenario per entry (two variables may share one)
            done.add(row["entry"])
            SCENARIOS.append(Scenario(row["entry"], _setting_scenario(row), knowledge.get(row["entry"]).severity, None))


_register_settings()


@scenario("setting.compile-disabled", "error", required=["flex"])
def compile_disabled_flex_required():
    """TORCH_COMPILE_DISABLE=1 while the job requires flex: Flex cannot run fused."""
    return ff.set_env(ff.gpu_box(), TORCH_COMPILE_DISABLE="1")


@scenario("smoke.setting", "error", "flex")
def flex_smoke_fails_under_triton_interpret():
    """TRITON_INTERPRET=1, and every Flex smoke case raised."""
    f = ff.set_env(ff.gpu_box(), TRITON_INTERPRET="1")
    ff.add_smoke(f, "flex", [ff.smoke_case_error(c, "RuntimeError", "Triton interpreter: unsupported op")
                             for c in ff.smoke_plan("flex")])
    return f


@scenario("flex.not-compiled", "warning", "flex")
def flex_passes_without_a_graph():
    """Flex's smoke cases passed, and the child says torch.compile generated no graph; no setting is set."""
    f = ff.gpu_box()
    final = {"pid": 1, "torch_seconds": 3.6, "gpu": "NVIDIA H200", "capability": [9, 0], "load_seconds": 0.4,
             "stage": "done", "after": {"graphs": 0, "frames": 0, "recompiles": 0, "mask_builds": 2}}
    ff.add_smoke(f, "flex", [ff.smoke_case(c) for c in ff.smoke_plan("flex")], final=final)
    return f


# ----------------------------------------------------------------------------------------------
# GPU health (issue 22; tests/test_gpu_health.py reads the fixtures through both readers)
# ----------------------------------------------------------------------------------------------

def _health(case: str, **changes) -> dict:
    from test_gpu_health import box, smi_health

    h = smi_health(case)
    g = h["gpus"][0]
    for key, value in changes.items():
        if isinstance(value, dict) and isinstance(g.get(key), dict):
            g[key].update(value)
        else:
            g[key] = value
    return box(h)


def _gpu_scenario(fid: str, severity: str, case: str, doc: str, **changes):
    def build():
        return _health(case, **changes)
    build.__name__ = "health_" + fid.split(".", 1)[1].replace("-", "_")
    build.__doc__ = doc
    SCENARIOS.append(Scenario(fid, build, severity, None))


_gpu_scenario("gpu.memory-held", "warning", "busy", "nvidia-smi: pid 4242 holds 70 GiB of the H100 (fixtures/gpu_health/busy).")
_gpu_scenario("gpu.busy", "warning", "busy", "nvidia-smi: the H100 is 100% busy before the doctor's kernels.")
_gpu_scenario("gpu.clocks-slowdown", "warning", "throttled", "event mask 0x68: HW slowdown and HW thermal slowdown.")
_gpu_scenario("gpu.thermal", "warning", "throttled", "event mask 0x68 includes SW thermal slowdown (0x20), 87 C.")
_gpu_scenario("gpu.power-capped", "warning", "throttled", "power limit 400 W of a 700 W default.")
_gpu_scenario("gpu.pcie-slot", "warning", "throttled", "the system caps the link at gen 4 of the GPU's gen 5.")
_gpu_scenario("gpu.pcie-narrow", "warning", "busy", "x8 of x16 while 100% busy.", pcie={"width": 8})
_gpu_scenario("gpu.ecc-uncorrected", "error", "ecc", "2 volatile uncorrectable ECC errors.")
_gpu_scenario("gpu.retired-pending", "warning", "healthy", "pages pending retirement (a pre-A100 GPU's report).",
              retired_pending=True)
_gpu_scenario("gpu.remap-pending", "warning", "ecc", "a row remap pending a reset.")
_gpu_scenario("gpu.remap-failed", "error", "ecc", "the row remapper has failed (no spare rows).",
              remapped={"pending": False, "failure": True})
_gpu_scenario("gpu.mig", "info", "mig", "MIG mode enabled (nvidia-smi: slices not listed).")
_gpu_scenario("gpu.mig-pending", "warning", "healthy", "MIG off, enabled at the next reset.",
              mig={"current": False, "pending": True, "instances": None})
_gpu_scenario("gpu.compute-prohibited", "error", "healthy", "compute mode Prohibited.", compute_mode="prohibited")
_gpu_scenario("gpu.compute-exclusive", "warning", "ecc", "compute mode Exclusive_Process.")


@scenario("smoke.slow", "warning", "sdpa")
def sdpa_timed_case_slow_with_launch_blocking():
    """An H100 whose SDPA timed case took 0.9 ms (the reference is 0.35 ms), with CUDA_LAUNCH_BLOCKING=1."""
    from test_throughput import h100

    return h100("sdpa", 0.0009, CUDA_LAUNCH_BLOCKING="1")


@scenario("cache.moved", "info")
def inductor_cache_moved_by_env_sh():
    """TORCHINDUCTOR_CACHE_DIR set (as env.sh does) to an empty directory; the default one under /tmp is filled."""
    f = ff.gpu_box()
    c = ff.get_cache(f, "inductor")
    c.update(set=True, filled=False, default_path="/tmp/torchinductor_user", default_filled=True)
    return f


# ----------------------------------------------------------------------------------------------
# the doctor itself
# ----------------------------------------------------------------------------------------------

@scenario("doctor.check-crashed", "warning")
def check_crashes_on_odd_facts():
    """A hand-edited saved report: a cache entry without its 'name' (the caches check raises KeyError)."""
    f = ff.gpu_box()
    f["caches"].append({"path": "/x"})
    return f


# ----------------------------------------------------------------------------------------------
# the tests
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda s: f"{s.id}:{s.name}")
def test_scenario_fires(sc: Scenario):
    report = ff.check(sc.build(), **sc.ctx)
    hits = [f for f in report.findings if f.id == sc.id]
    assert hits, f"{sc.id} did not fire; got {[f.id for f in report.findings]}"
    f = hits[0]
    assert f.severity == sc.severity
    assert f.backend == sc.backend
    entry = knowledge.get(sc.id)
    assert f.section == entry.section
    for text in (f.title, f.fix):
        assert text, f"{sc.id}: empty title or fix"
        assert not LEFTOVER.search(text), f"{sc.id}: unfilled template param in {text!r}"
        assert not re.search(r"\bNone\b", text), f"{sc.id}: a missing value rendered as None: {text!r}"
    if sc.id != "doctor.check-crashed":
        assert not [x for x in report.findings if x.id == "doctor.check-crashed"], \
            [x.detail for x in report.findings if x.id == "doctor.check-crashed"]
    # The exit code follows the severities (and --require).
    failing = any(x.severity == "error" for x in report.findings) or any(
        report.backends[n]["status"] != "ok" for n in report.required)
    assert report.exit_code == (1 if failing else 0)


def test_a_multi_line_smoke_error_is_named_by_its_first_line():
    """A ValueError that puts its gist first and the shapes on the lines after it (xformers' own do): the finding and
    the backend's status quote the gist, not 'value.shape: (1, 256, 4, 64)'."""
    report = ff.check(xformers_case_error_nobody_names())
    f = next(x for x in report.findings if x.id == "smoke.case-error")
    assert "ValueError: Unexpected layout of the adapter's inputs:" in f.title
    assert "Unexpected layout of the adapter's inputs" in report.backends["xformers"]["reason"]
    assert "value.shape" not in f.title


def test_healthy_gpu_box_has_no_findings():
    """The base every scenario starts from is clean, so each finding comes from the scenario."""
    report = ff.check(ff.gpu_box())
    assert report.findings == []
    assert report.exit_code == 0
    assert report.backends["sdpa"]["status"] == report.backends["flex"]["status"] == "ok"


def test_every_entry_has_a_scenario():
    """A knowledge entry that a check can emit (not explain_only) must fire in a scenario above."""
    covered = {s.id for s in SCENARIOS}
    # fleet.* entries come from merging reports, not from one machine's checks:
    # tests/test_fleet.py::test_every_fleet_entry_fires_and_renders_fully fires every one of them;
    # trace.* entries come from a traced job: tests/test_trace.py::test_every_trace_entry_fires_and_renders_fully.
    missing = sorted(e.id for e in knowledge.entries().values()
                     if not e.explain_only and e.section not in ("fleet", "trace") and e.id not in covered)
    assert missing == [], f"knowledge entries with no scenario in tests/test_findings.py: {missing}"
    unknown = sorted(covered - set(knowledge.entries()))
    assert unknown == []


def test_every_id_in_the_checks_is_in_knowledge():
    """Ids named literally in attn_doctor/checks/*.py exist in knowledge (a typo is a crash at run time)."""
    src = Path(knowledge.__file__).parents[1] / "checks"
    ids = set()
    for p in src.glob("*.py"):
        ids |= set(re.findall(r'finding\(\s*"([a-z0-9.-]+)"', p.read_text()))
    ids |= {f"nvcc.{k}" for k in ("hang", "garbage", "not-executable")}  # built as f"nvcc.{kind}"
    assert ids, "no finding ids found: the grep is wrong"
    assert sorted(ids - set(knowledge.entries())) == []
    assert sorted(i for i in ids if knowledge.get(i).explain_only) == [], "a check emits an explain_only entry"


def test_examples_are_recognised_as_their_entry():
    """Each entry's example error text is matched by its patterns, and `explain` would pick it first;
    as a failure's text, it names the entry as the cause when the entry can be one, and never a note."""
    with scans_once():  # (best scans again the text match just scanned: tests/scan_once.py)
        each(((e.id, (e,)) for e in knowledge.entries().values() if e.examples), _examples_are_recognised_as_their_entry)


def _examples_are_recognised_as_their_entry(entry):
    from attn_doctor.knowledge.match import best, match

    for ex in entry.examples:
        found = match(ex)
        ids = [m.entry.id for m in found]
        # a symptom whose example quotes the error that caused it is found after that cause, which ranks first (round 32,
        # knowledge/match.py _rank; the one check of it since session 34: tests/test_knowledge.py said it again, ci34b)
        # (round 79: likewise a message an entry it names `explained_by` explains, where the example shows that entry too)
        quoted_cause = (entry.symptom or any(i in ids for i in entry.explained_by)) and entry.id in ids[1:]
        assert found and (found[0].entry.id == entry.id or quoted_cause), (ex, ids)
        cause = best(ex)
        if entry.can_cause:
            assert cause and (cause.entry.id == entry.id or quoted_cause and cause.entry.id == ids[0]), \
                (ex, cause and cause.entry.id)
        else:
            assert cause is None or cause.entry.can_cause, (ex, cause.entry.id)


def test_entries_are_well_formed():
    for e in knowledge.entries().values():
        assert e.title.strip().endswith((".", "?")), e.id
        assert "\n" not in e.title, e.id
        assert e.fix or e.explain_only, f"{e.id} has no fix"
        for text in (e.title, e.fix):  # a literal brace must be doubled, or str.format reads it as a param
            bad = [p for p in knowledge.template_fields(text) if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", p)]
            assert bad == [], f"{e.id}: {bad}"
        if e.examples:
            assert e.patterns or e.frames, e.id  # examples exercise the patterns, or the frames (weak evidence)


# ----------------------------------------------------------------------------------------------
# whatever a failing import prints, the finding it gets renders completely
# ----------------------------------------------------------------------------------------------

ALL_EXAMPLES = [(e.id, ex) for e in knowledge.entries().values() for ex in e.examples]

# the matcher's answers to the failure texts below, each text scanned once in this process (tests/scan_once.py): an
# entry's first example under every backend, and the same traceback as torch's own import error
_SCANS: dict = {}


IMPORTING = ("cute", "fa2", "fa3", "sage", "xformers")


def _import_cases() -> list:
    """What fills a finding's title and fix is the entry, the captures of the example's text and the backend: each
    entry's first example under every backend, each other example under one, in turn (every example x every backend,
    16,000 whole checks, was a third of CI's time on its 2 cores, session 32)."""
    cases, seen = [], set()
    for n, (eid, text) in enumerate(ALL_EXAMPLES):
        for backend in (IMPORTING if eid not in seen else (IMPORTING[n % len(IMPORTING)],)):
            cases.append(pytest.param(backend, eid, text, id=f"{backend}-{eid}#{n}"))
        seen.add(eid)
    return cases


def test_the_import_cases_cover_every_example_and_every_entry_with_every_backend():
    cases = [c.values for c in _import_cases()]
    assert {(s, t) for _, s, t in cases} == set(ALL_EXAMPLES)
    by_entry = {}
    for backend, eid, _ in cases:
        by_entry.setdefault(eid, set()).add(backend)
    assert by_entry and all(b == set(IMPORTING) for b in by_entry.values())


def test_any_import_error_text_renders():
    """FAKES: `backend` installed, its import probe failed and printed a knowledge example's error text.
    Whatever entry the matcher picks, its title and fix are fully filled in. (One test over the ~5,000 cases:
    tests/each_case.py says why.)"""
    with scans_once(_SCANS):
        each(((c.id, c.values) for c in _import_cases()), _import_error_text_renders)


def _import_error_text_renders(backend, source, text):
    f = ff.gpu_box()
    dist = {"cute": "flash-attn-4", "fa2": "flash-attn", "fa3": "flash_attn_3", "sage": "sageattention",
            "xformers": "xformers"}[backend]
    ff.install(f, backend, dist, "1.0", probe=ff.failed_import("ImportError", text.splitlines()[-1], text + "\n"))
    report = ff.check(f)
    mine = [x for x in report.findings if x.backend == backend and x.severity == "error"]
    assert mine, [x.id for x in report.findings]
    for x in report.findings:
        for s in (x.title, x.fix):
            assert not LEFTOVER.search(s or ""), f"{x.id} (from {source}'s example): {s!r}"
    assert report.backends[backend]["status"] == "broken"


def _one_of_two(which: int) -> list:
    """Each entry's first example in both of the two tests below, each other example in one of them, in turn (as
    _import_cases: 6,430 whole checks were 3 minutes of CI's CPU, session 32)."""
    seen, out = set(), []
    for n, (eid, text) in enumerate(ALL_EXAMPLES):
        if eid not in seen or n % 2 == which:
            out.append(pytest.param(eid, text, id=f"{eid}#{n}"))
        seen.add(eid)
    return out


def _rendered(report) -> list:
    return [(x.id, x.severity, x.backend, x.title, x.fix, x.detail, sorted(x.params.items(), key=str))
            for x in report.findings] + [report.exit_code, sorted((n, b.get("status"), b.get("reason"))
                                                                  for n, b in report.backends.items())]


def test_a_scan_read_again_is_the_same():
    """tests/scan_once.py hands a check the matcher's earlier answer to a text it scanned already: that answer is what a
    fresh scan gives, after the checks read it, and a check on it renders what a check without it renders. On the first
    example of every 40th entry, each under another backend in turn, with torch's deprecation note in the probe's
    warnings and the text again in its stderr (so that the noise's scan is read again too): three whole checks each."""
    from attn_doctor.knowledge import match as m

    def seen(scan):
        return [(x.entry.id, x.score, x.evidence, x.position, x.line, x.count, list(x.lines)) for x in scan.found], \
            dict(scan.lines.context), scan.lines.count, scan.size, scan.blank, scan.probed, scan.added

    firsts = {}
    for eid, text in ALL_EXAMPLES:
        firsts.setdefault(eid, text)
    cases = [(IMPORTING[n % len(IMPORTING)], text) for n, text in enumerate(list(firsts.values())[::40])]
    assert len(cases) >= 10
    for backend, text in cases:
        def build():
            f = ff.gpu_box()
            ff.install(f, backend, "flash-attn", "1.0", probe=ff.failed_import(
                "ImportError", text.splitlines()[-1], text + "\n", warnings=[DEPRECATION_NOTE]),
                run=dict(ff.run_ok(), stderr_tail="\n" + text + "\n"))
            return f
        plain = _rendered(ff.check(build()))
        with scans_once() as memo:
            first = _rendered(ff.check(build()))
            again = _rendered(ff.check(build()))  # every scan of this check answered from the memo
        assert memo and plain == first == again, (backend, text[:80])
        for (source, ids, probes, _), kept in memo.items():
            assert seen(kept) == seen(m.scan(source, ids=ids, probes=probes)), (backend, source[:80])


# torch's words when PYTORCH_CUDA_ALLOC_CONF is set (tests/test_failure_kept.py): a note beside a failure's text
DEPRECATION_NOTE = ("/venv/lib/python3.12/site-packages/torch/cuda/__init__.py:63: UserWarning: PYTORCH_CUDA_ALLOC_CONF is "
                    "deprecated, use PYTORCH_ALLOC_CONF instead (Triggered internally at "
                    "/pytorch/c10/cuda/CUDAAllocatorConfig.cpp:35.)")


def test_the_two_halves_cover_every_example_and_every_entry_twice():
    a, b = ([tuple(c.values) for c in _one_of_two(w)] for w in (0, 1))
    assert set(a) | set(b) == set(ALL_EXAMPLES)
    firsts = {}
    for eid, text in ALL_EXAMPLES:
        firsts.setdefault(eid, text)
    assert set(firsts.items()) <= set(a) & set(b)


def test_any_torch_import_error_text_renders():
    """FAKES: `import torch` raised, with a knowledge example's error text as its traceback."""
    with scans_once(_SCANS):
        each(((c.id, c.values) for c in _one_of_two(0)), _torch_import_error_text_renders)


def _torch_import_error_text_renders(source, text):
    f = ff.gpu_box()
    f["torch"]["probe"] = {"import_ok": False, "warnings": [],
                           "import_error": ff.error("ImportError", text.splitlines()[-1], text + "\n")}
    report = ff.check(f)
    assert report.exit_code == 1
    for x in report.findings:
        for s in (x.title, x.fix):
            assert not LEFTOVER.search(s or ""), f"{x.id} (from {source}'s example): {s!r}"


def test_any_cuda_init_warning_renders():
    """FAKES: nvidia-smi sees an H200, torch's CUDA init failed and warned with an example's text."""
    each(((c.id, c.values) for c in _one_of_two(1)), _cuda_init_warning_renders)


def _cuda_init_warning_renders(source, text):
    f = ff.gpu_box()
    ff.set_gpus(f, [("NVIDIA H200", (9, 0))], torch_sees=False)
    f["torch"]["probe"]["warnings"] = [text]
    report = ff.check(f)
    assert report.exit_code == 1
    for x in report.findings:
        for s in (x.title, x.fix):
            assert not LEFTOVER.search(s or ""), f"{x.id} (from {source}'s example): {s!r}"


def test_a_failed_import_is_an_error_whatever_entry_names_it(monkeypatch):
    """FAKES a warning-level knowledge entry that can be a failure's cause (`fails = true`, as for a
    raised "FlashAttention only supports Ampere GPUs") whose pattern matches a failed import's text:
    the import still failed, so the finding is an error and the run exits 1."""
    from attn_doctor.knowledge import Entry

    monkeypatch.setitem(knowledge.entries(), "test.warning-cause", Entry(
        id="test.warning-cause", title="{error} is a known quirk.", severity="warning", section="backends",
        fix="pip install --upgrade torch", patterns=("QUIRK-7731",), fails=True))
    f = ff.gpu_box()
    ff.install(f, "sage", "sageattention", "1.0.6", probe=ff.failed_import("RuntimeError", "QUIRK-7731 happened"))
    r = ff.check(f)
    assert [(x.id, x.severity) for x in r.findings if x.backend == "sage"] == [("test.warning-cause", "error")]
    assert r.exit_code == 1

    f = ff.gpu_box()
    f["torch"]["probe"] = {"import_ok": False, "warnings": [],
                           "import_error": ff.error("RuntimeError", "QUIRK-7731 happened")}
    r = ff.check(f)
    assert [(x.id, x.severity) for x in r.findings] == [("test.warning-cause", "error")]
    assert r.exit_code == 1

    f = ff.gpu_box()
    ff.set_gpus(f, [("NVIDIA H200", (9, 0))], torch_sees=False)
    f["torch"]["probe"]["warnings"] = ["QUIRK-7731 happened in cudaGetDeviceCount"]
    r = ff.check(f)
    assert ("test.warning-cause", "error") in [(x.id, x.severity) for x in r.findings]
    assert r.exit_code == 1


def test_unprobed_backend_is_skipped_not_failed():
    """FAKES a report collected with --backend sdpa on a box with flash-attn-4 installed (so cute's
    import was never probed), re-evaluated with `check --from` and no --backend: cute is skipped,
    and no import failure is invented for it."""
    f = ff.gpu_box()
    ff.install(f, "cute", "flash-attn-4", "4.0.0b36")
    del f["imports"]["cute"]["probe"], f["imports"]["cute"]["run"]
    f["probed_backends"] = ["sdpa"]
    r = ff.check(f)
    assert r.backends["cute"]["status"] == "skipped"
    assert [x.id for x in r.findings if x.backend == "cute" and x.section == "backends"] == []


@pytest.mark.parametrize("probe_name", ["matched", "unmatched", "cutlass"])
def test_evidence_is_the_exception_not_the_last_warning(probe_name):
    """FAKES a failed import whose probe also recorded an unrelated warning (torch's NumPy warning on
    this CPU VM): the finding's `detail` (shown as 'seen:') is the exception line."""
    numpy_warning = ("UserWarning: Failed to initialize NumPy: No module named 'numpy' (Triggered internally "
                     "at /__w/pytorch/pytorch/torch/csrc/utils/tensor_numpy.cpp:84.)")
    f = cute_pip_target() if probe_name == "cutlass" else ff.gpu_box()
    if probe_name == "cutlass":
        f["imports"]["cute"]["probe"]["warnings"] = [numpy_warning]
        backend, line = "cute", "ModuleNotFoundError: No module named 'cutlass'"
    else:
        message = ("libcudart.so.12: cannot open shared object file: No such file or directory" if probe_name == "matched"
                   else "cannot import name 'sageattn' from 'sageattention.core'")
        ff.install(f, "sage", "sageattention", "1.0.6",
                   probe=ff.failed_import("ImportError", message, PROBE_FRAME, warnings=[numpy_warning]))
        backend, line = "sage", f"ImportError: {message}"
    (hit,) = [x for x in ff.check(f).findings if x.backend == backend and x.section == "backends"]
    assert hit.detail == line


def test_unprobed_xformers_beside_fa4_names_the_namespace_not_a_probe():
    """FAKES xformers and flash-attn-4 installed, xformers' import not probed (report collected with
    --backend cute): the namespace collision is still reported, with its cause, not a probe error."""
    f = ff.gpu_box()
    ff.install(f, "xformers", "xformers", "0.0.35")
    del f["imports"]["xformers"]["probe"], f["imports"]["xformers"]["run"]
    ff.add_dist(f, "numpy", "2.3.4")
    ff.add_dist(f, "flash-attn-4", "4.0.0b36", requires=[])
    f["packages"]["flash_attn"] = {"copies": [{"path": f"{ff.SITE}/flash_attn", "has_init": False, "has_cute": True,
                                               "has_fa2_interface": False}], "cute_owners": {"flash-attn-4": 60}}
    (hit,) = [x for x in ff.check(f).findings if x.id == "xformers.fa4-namespace"]
    assert "namespace package" in hit.title and "probe" not in hit.title


# ----------------------------------------------------------------------------------------------
# a setting tied to the failure it causes (issue 11's H100 truths; tests/test_h100_truths.py)
# ----------------------------------------------------------------------------------------------

def proc_inductor_cache(f: dict, path: str = "/proc/attn-cache") -> dict:
    """FAKES TORCHINDUCTOR_CACHE_DIR set to a path under /proc, as facts/caches.py resolved it on the
    H100 (run as root, 2026-11-22): it does not exist, root's access() calls /proc writable (so
    `creatable` is True), and statvfs gives 0 bytes free on the proc filesystem."""
    ff.set_env(f, TORCHINDUCTOR_CACHE_DIR=path)
    c = ff.get_cache(f, "inductor")
    c.update(path=path, set=True, exists=False, is_dir=False, creatable=True, create_error=None,
             nearest_existing="/proc", free_bytes=0, fs_type="proc", mount="/proc", under_tmp=False)
    c.pop("writable", None)
    c.pop("readable", None)
    ff.get_cache(f, "triton").update(path=path + "/triton", exists=False, is_dir=False, creatable=True,
                                     nearest_existing="/proc", free_bytes=0, fs_type="proc", mount="/proc")
    return f


@scenario("import.cache-dir", "error", "cute")
def fa4_import_fails_on_proc_inductor_cache():
    """TORCHINDUCTOR_CACHE_DIR=/proc/attn-cache (proc_inductor_cache) and flash-attn-4's import fails
    making it, as on the H100: FileNotFoundError naming the path (FAKED frames: torch's cache_dir())."""
    f = proc_inductor_cache(_fa4_stack(ff.gpu_box()))
    f["imports"]["cute"]["probe"] = ff.failed_import(
        "FileNotFoundError", "[Errno 2] No such file or directory: '/proc/attn-cache'",
        PROBE_FRAME + '  File "/venv/lib/python3.12/site-packages/torch/_inductor/runtime/cache_dir_utils.py", '
        "line 23, in cache_dir\n    os.makedirs(sanitized_dir_path, exist_ok=True)\n")
    return f


@scenario("smoke.refusal-crashed", "warning", "fa3")
def fa3_segfaults_on_fp32_after_its_kernels_pass():
    """As measured on the H100 (2026-11-25, fixtures/gpu/h100-issue25/hold1/config-wan-fa3.json): FA3
    built from hopper/ passed its bf16/fp16 forward, backward and varlen cases, then the child died
    with SIGSEGV in the fp32 refusal case, planned last. FAKED: the cases and the run, shaped as that
    record. A warning, and fa3 stays ok: its kernels are right for the dtypes it takes."""
    f = ff.gpu_box()
    ff.install(f, "fa3", "flash_attn_3", "3.0.0+sm90.reduced")
    plan = ff.smoke_plan("fa3")
    assert plan[-1]["name"].startswith("refusal")
    cases = [ff.smoke_case(c) for c in plan[:-1]]
    ff.add_smoke(f, "fa3", cases, planned=[c["name"] for c in plan], final={},
                 run=ff.crashed_run("SIGSEGV", 11), stuck_in=plan[-1]["name"])
    return f


@scenario("python.not-executable", "error")
def interpreter_cannot_be_run():
    """Report row 19: the interpreter under check cannot be started by this user (a venv whose python
    links into /root/.pyenv, run as nobody): every probe ends with the start error. FAKED: the torch
    probe's run, as proc.run records a PermissionError from exec."""
    f = ff.gpu_box()
    f["system"]["user"] = "nobody"
    f["torch"]["probe"] = None
    f["torch"]["run"] = dict(ff.run_ok(0.0), returncode=None,
                             start_error="PermissionError: [Errno 13] Permission denied: '/venv/bin/python'")
    return f


@scenario("import.dep-missing", "error", "cute")
def fa4_without_cutlass_dsl():
    """Report row 10: flash-attn-4 installed with --no-deps, nvidia-cutlass-dsl not installed at all;
    `import flash_attn.cute` raises ModuleNotFoundError for cutlass. Not a .pth problem
    (cute.dsl-pth-not-processed needs the DSL installed). FAKED: the probe's answer."""
    f = ff.gpu_box()
    ff.install(f, "cute", "flash-attn-4", "4.0.0b36", probe=ff.failed_import(
        "ModuleNotFoundError", "No module named 'cutlass'", name="cutlass"))
    return f


@scenario("import.dep-missing", "error", "sage")
def sage_without_triton_on_cpu_torch():
    """Report row 9: a CPU-only torch (no triton) with sageattention 1.0.6 beside it; sage's import
    raises ModuleNotFoundError for triton. A sage finding, not FlexAttention's. FAKED."""
    f = ff.gpu_box()
    ff.set_torch(f, "2.13.0+cpu", cuda=None, triton=None)
    ff.set_gpus(f, [])
    ff.install(f, "sage", "sageattention", "1.0.6", probe=ff.failed_import(
        "ModuleNotFoundError", "No module named 'triton'", name="triton"))
    return f


@scenario("smoke.cache-dir", "error", "flex")
def flex_smoke_fails_on_a_cache_path_that_is_a_file():
    """Report row 8: TORCHINDUCTOR_CACHE_DIR names a regular file; flex imports, and its first compiled
    case raises FileExistsError naming that path, while the child's stderr ends with a NumPy warning
    (the noise the old `seen:` line showed). FAKED: the cache facts (a file where the directory goes,
    as facts/caches.py reads one) and the case's error and frames."""
    f = ff.gpu_box()
    path = "/tmp/afile"
    ff.set_env(f, TORCHINDUCTOR_CACHE_DIR=path)
    ff.get_cache(f, "inductor").update(path=path, set=True, exists=True, is_dir=False, writable=False,
                                       under_tmp=True)
    plan = ff.smoke_plan("flex")
    _smoke(f, "flex", broken={0: ff.smoke_case_error(
        plan[0], "FileExistsError", f"[Errno 17] File exists: '{path}'",
        '  File "/venv/lib/python3.12/site-packages/torch/_inductor/runtime/cache_dir_utils.py", line 23, in cache_dir\n'
        "    os.makedirs(sanitized_dir_path, exist_ok=True)\n")})
    res = f["smoke"]["devices"]["0"]["flex"]
    res["run"]["stderr_tail"] = 'UserWarning: Failed to initialize NumPy: _ARRAY_API not found\n  cpu = _conversion_method_template(device=torch.device("cpu"))\n'
    return f


def alloc_abort(f: dict, var: str = "PYTORCH_ALLOC_CONF", value: str = "garbage") -> dict:
    """FAKES a CUDA torch 2.13 whose import was killed by SIGABRT with an unparsable allocator setting
    set (the abort seen on CUDA builds of 2.13, issue 11); the backend probes, which import torch
    first, died the same way. The stderr is C++'s terminate message, as an uncaught c10::Error prints it."""
    ff.set_torch(f, "2.13.0+cu130", cuda="13.0")
    ff.set_env(f, **{var: value})
    f["torch"]["probe"] = {}
    f["torch"]["run"] = ff.crashed_run("SIGABRT", 6, stderr="terminate called after throwing an instance of "
                                       "'c10::Error'\n  what():  CachingAllocator option parse failed\nAborted (core dumped)\n")
    for name, info in f["imports"].items():
        if info.get("installed"):
            info.update(probe=None, run=ff.crashed_run("SIGABRT", 6))
    return f


@scenario("torch.import-crashed-alloc", "error")
def torch_aborts_on_garbage_alloc_conf():
    """PYTORCH_ALLOC_CONF=garbage and `import torch` aborted (alloc_abort), sageattention installed."""
    f = ff.gpu_box()
    ff.install(f, "sage", "sageattention", "1.0.6")
    return alloc_abort(f)


def test_a_backend_whose_kernels_cannot_load_reports_the_cause_not_its_failed_runs():
    """FAKES xformers 0.0.35 built for torch 2.10 beside torch 2.11 (as measured on the H100,
    fixtures/gpu/h100-issue25/hold3/xformers-pypi.txt) whose first smoke case failed with "No operator
    found": xformers.built-for-other-torch is a `stops_backend` entry, so the failed run is its symptom
    and is not a second finding. The same failed run without the version finding is reported, and
    another backend's failed run beside it is kept."""
    no_op = "No operator found for `memory_efficient_attention_forward` with inputs:\n     query       : shape=(2, 256, 8, 128)"

    def box(built: str):
        f = xformers_built_for_210()
        f["packages"]["xformers_build"]["torch"] = built
        plan = ff.smoke_plan("xformers")
        _smoke(f, "xformers", broken={0: ff.smoke_case_error(plan[0], "NotImplementedError", no_op)})
        plan = ff.smoke_plan("sdpa")
        _smoke(f, "sdpa", broken={0: ff.smoke_case_error(plan[0], "RuntimeError", "CUDA error: an illegal memory access was encountered")})
        return f

    ids = lambda r: {(x.id, x.backend) for x in r.findings}
    stopped = ff.check(box("2.10.0+cu128"))
    assert knowledge.get("xformers.built-for-other-torch").stops_backend
    assert ("xformers.built-for-other-torch", "xformers") in ids(stopped)
    assert [x.id for x in stopped.findings if x.backend == "xformers"] == ["xformers.built-for-other-torch"]
    assert any(b == "sdpa" for _, b in ids(stopped))  # another backend's failure stays
    loads = ff.check(box("2.11.0+cu130"))  # built for this torch: the failed run is the problem
    assert ("xformers.no-operator", "xformers") in ids(loads)
