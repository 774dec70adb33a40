"""Synthetic Facts, to drive the checks directly through `report.evaluate(facts, Context(...))`.

WHAT IS FAKED: everything in a dict built here. No probe runs, nothing is imported, no file is read
except the captured fixture. The *shape* of every dict is the shape `attn_doctor.facts.collect()`
returned on the 2-core CPU dev VM (fixtures/cpu/check-no-smoke.json, captured 2026-11-22); the
*values* of `gpu_box()` describe the H200 of /work/shared/FACTS.md (torch 2.11.0+cu130, triton
3.6.0, driver 580.159.04 / CUDA 13.0, nvcc 13.0) as its probes would have reported them.

Each helper below says, in its docstring, which probe's answer it stands in for. A test that uses
them states the situation it fakes; the checks see nothing but this dict.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from attn_doctor.checks import Context
from attn_doctor.report import evaluate

ROOT = Path(__file__).resolve().parents[1]
CPU_FIXTURE = ROOT / "fixtures" / "cpu" / "check-no-smoke.json"
SITE = "/venv/lib/python3.12/site-packages"  # the faked venv every faked package sits in
GIB = 1024 ** 3

# Requires-Dist lines copied verbatim from the real wheels' METADATA (unpacked in /tmp/wh on the
# dev VM, 2026-11): flash_attn_4-4.0.0b36, quack_kernels-0.2.4, quack_kernels-0.6.5,
# nvidia_cutlass_dsl-4.8.1, xformers-0.0.35.
REQUIRES = {
    ("flash-attn-4", "4.0.0b36"): [
        "nvidia-cutlass-dsl>=4.6.2", "torch", "einops", "typing_extensions",
        "apache-tvm-ffi<0.2,>=0.1.11", "torch-c-dlpack-ext", "quack-kernels>=0.5.3",
        'nvidia-cutlass-dsl[cu13]>=4.6.2; extra == "cu13"', 'pytest; extra == "dev"',
        'pytest-xdist; extra == "dev"', 'ruff; extra == "dev"',
    ],
    ("quack-kernels", "0.2.4"): [
        "nvidia-cutlass-dsl<4.4.0,>=4.3.4", "torch", "apache-tvm-ffi<0.2,>=0.1.6", "torch-c-dlpack-ext",
        'pre-commit; extra == "dev"', 'ruff; extra == "dev"',
    ],
    ("quack-kernels", "0.6.5"): [
        "nvidia-cutlass-dsl>=4.7", "torch", "apache-tvm-ffi<0.2,>=0.1.6", "torch-c-dlpack-ext", "einops",
        'nvidia-cutlass-dsl[cu13]>=4.7; extra == "cu13"', 'nvidia-matmul-heuristics; extra == "heuristics"',
        'jax; extra == "jax"', 'jax-tvm-ffi; extra == "jax"', 'pandas; extra == "bench"', 'tyro; extra == "bench"',
        'pre-commit; extra == "dev"', 'pytest; extra == "dev"', 'pytest-xdist; extra == "dev"', 'ruff; extra == "dev"',
    ],
    ("nvidia-cutlass-dsl", "4.8.1"): [
        "nvidia-cutlass-dsl-libs-base==4.8.1", "nvidia-cutlass-dsl-libs-cu12==4.8.1",
        'nvidia-cutlass-dsl-libs-cu13==4.8.1; extra == "cu13"', 'nvidia-cutlass-dsl-libs-qnx-cu12==4.8.1; extra == "qnx"',
        'nvidia-cutlass-dsl-libs-qnx-cu13==4.8.1; extra == "qnx-cu13"',
    ],
    ("xformers", "0.0.35"): ["torch>=2.10", "numpy"],
}


# --------------------------------------------------------------------------------------------
# Whole machines
# --------------------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _cpu_fixture() -> str:
    """The fixture's text, read once (the property tests build ~30,000 boxes: each read and deep copy cost ~2 ms)."""
    return CPU_FIXTURE.read_text()


def cpu_box() -> dict:
    """REAL, not faked: the facts collected on the 2-core CPU dev VM (torch 2.13.0+cpu, no GPU)."""
    return json.loads(_cpu_fixture())["facts"]  # (a fresh parse: new objects each call, no copy needed)


def gpu_box() -> dict:
    """FAKED: a healthy one-H200 machine, as collect() would describe it: torch 2.11.0+cu130 imports
    and sees the GPU, triton 3.6.0, gcc, nvcc 13.0 at /usr/local/cuda, caches on a persistent ext4
    disk under $HOME, no allocator settings, no backend besides torch installed. It has no findings
    (tests assert that), so any finding a scenario gets comes from what the scenario changed."""
    return json.loads(_gpu_json())  # (a fresh parse: new objects each call, no copy needed)


@lru_cache(maxsize=1)
def _gpu_json() -> str:
    """The box _gpu_box builds, as JSON, built once: parsing its ~6 KB costs half of building it anew from the ~12 KB
    fixture (the property tests build ~10,000 boxes, tests/test_findings.py; helper ci39a). Its round trip must give
    back the very same values and types (no tuple, no key that is not a str), or this refuses."""
    f = _gpu_box()
    text = json.dumps(f)
    if not _same(json.loads(text), f):
        raise AssertionError("fakefacts.gpu_box: a value JSON does not keep as it is (a tuple, a non-str key, a float "
                             "nan): make it a list / str, or build the box anew each call")
    return text


def _same(a, b) -> bool:
    """Equal, and of the same types all the way down (1 == 1.0 == True, [1] != (1,) for JSON)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(map(_same, a, b))
    return a == b


def _gpu_box() -> dict:
    f = cpu_box()  # the real shape; every value that matters is replaced below
    f["system"].update(python="3.12.3", python_executable="/venv/bin/python", user="user", uid=1000,
                       user_error=None, hostname="h200-box", in_venv=True)
    f["env"] = {"HOME": "/home/user", "PATH": "/venv/bin:/usr/local/cuda/bin:/usr/bin:/bin",
                "TORCHINDUCTOR_CACHE_DIR": "/home/user/.cache/torchinductor"}
    f["packages"] = {"sys_path": [SITE], "site_dirs": [SITE], "stack": {}, "versions": {}, "duplicates": {},
                     "flash_attn": {"copies": [], "cute_owners": {}}, "cutlass": {"installed": False},
                     "xformers_build": None}
    set_torch(f, "2.11.0+cu130", cuda="13.0")
    set_gpus(f, [("NVIDIA H200", (9, 0))])
    f["nvcc"] = {"found": [nvcc_entry("/usr/local/cuda/bin/nvcc", "13.0", "PATH")],
                 "build_choice": "/usr/local/cuda/bin/nvcc"}
    f["host_cc"] = {"from": "PATH", "name": "gcc", "path": "/usr/bin/gcc"}
    f["imports"] = {n: {"installed": False, "dist": None, "version": None, "module_path": None}
                    for n in ("cute", "fa2", "fa3", "sage", "xformers")}
    f["caches"] = [
        cache("inductor", "TORCHINDUCTOR_CACHE_DIR", "/home/user/.cache/torchinductor", set=True),
        cache("triton", "TRITON_CACHE_DIR", "/home/user/.cache/torchinductor/triton"),
        cache("triton-direct", "TRITON_CACHE_DIR", "/home/user/.triton/cache"),
        cache("cute-dsl", "CUTE_DSL_CACHE_DIR", "/tmp/user/cutlass_python_cache", under_tmp=True, exists=False),
        dict(cache("fa4", "FLASH_ATTENTION_CUTE_DSL_CACHE_DIR", "/tmp/user/flash_attention_cute_dsl_cache",
                   under_tmp=True, exists=False), enabled=False, enabled_raw=None),
    ]
    return f


# --------------------------------------------------------------------------------------------
# Pieces (each replaces one collector's answer)
# --------------------------------------------------------------------------------------------

def set_torch(f: dict, version: str, cuda: str | None = None, requires: list[str] | None = None,
              triton: str | None = "3.6.0", cxx11_abi: bool = True) -> dict:
    """FAKES torch's metadata (packages.stack['torch']) and the torch probe's answer: `import torch`
    worked, torch.version.cuda is `cuda` (None: a CPU build), and triton `triton` imports (None:
    triton is not installed). The CUDA runtime is left unavailable until set_gpus()."""
    if requires is None:
        requires = ["filelock", "typing-extensions>=4.10.0", "sympy>=1.13.3", "networkx>=2.5.1", "jinja2",
                    "fsspec>=0.8.5", 'triton==3.6.0; platform_system == "Linux"']
    dist = {"path": f"{SITE}/torch-{version}.dist-info", "location": SITE, "name": "torch", "version": version,
            "requires": requires, "installer": "pip"}
    probe = {"import_ok": True, "import_seconds": 1.9, "version": version, "cuda": cuda, "hip": None,
             "git": "0" * 40, "debug": False, "cxx11_abi": cxx11_abi, "sdpa": True, "flex": {"ok": True},
             "cuda_runtime": {"available": False, "device_count": 0, "devices": []}, "warnings": []}
    if triton:
        probe["triton"] = {"ok": True, "version": triton}
    else:
        probe["triton"] = {"ok": False, "missing": True, "error": error(
            "ModuleNotFoundError", "No module named 'triton'",
            '  File "/venv/lib/python3.12/site-packages/attn_doctor/facts/torch_probe.py", line 75, in probe\n'
            "    import triton\n")}
    f["torch"] = {"dist": dist, "probe": probe, "run": run_ok()}
    f["packages"]["stack"]["torch"] = dist
    for name, v in (("filelock", "3.20.0"), ("typing-extensions", "4.15.0"), ("sympy", "1.14.0"),
                    ("networkx", "3.5"), ("jinja2", "3.1.6"), ("fsspec", "2025.9.0"), ("torch", version)):
        f["packages"]["versions"][name] = v
    if triton:
        add_dist(f, "triton", triton)
    else:
        f["packages"]["stack"].pop("triton", None)
        f["packages"]["versions"].pop("triton", None)
    return f


def set_gpus(f: dict, gpus: list[tuple[str, tuple[int, int]]], torch_sees: bool = True,
             arch_list: list[str] | None = None, driver: str = "580.159.04", driver_cuda: str = "13.0") -> dict:
    """FAKES nvidia-smi's GPU list (facts['driver']) and, when `torch_sees`, torch.cuda's device list
    in the torch probe. `gpus` is [(name, capability)]."""
    smi = [{"index": i, "name": n, "capability": list(cap), "memory_mib": 143771, "driver": driver,
            "uuid": f"GPU-0000000{i}-1111-2222-3333-444444444444", "pci": f"00000000:{19 + i:02X}:00.0"}
           for i, (n, cap) in enumerate(gpus)]
    f["driver"] = {"nvidia_smi": "/usr/bin/nvidia-smi", "gpus": smi, "driver": driver if gpus else None,
                   "driver_cuda": driver_cuda if gpus else None, "error": None}
    rt = f["torch"]["probe"]["cuda_runtime"]
    if torch_sees and gpus:
        rt.update(available=True, device_count=len(gpus), cudnn=91300,
                  arch_list=arch_list or ["sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"],
                  devices=[{"index": g["index"], "name": g["name"], "capability": g["capability"],
                            "memory_mib": g["memory_mib"], "sms": 132, "uuid": g["uuid"]} for g in smi])
    else:
        rt.update(available=False, device_count=0, devices=[])
        rt.pop("arch_list", None)
    return f


def add_dist(f: dict, name: str, version: str, requires: list[str] | None = None,
             location: str = SITE, **extra) -> dict:
    """FAKES one installed distribution's metadata (what packages.read_dist() reads from its
    *.dist-info). `requires` defaults to the real Requires-Dist of that release when REQUIRES has it."""
    if requires is None:
        requires = REQUIRES.get((name, version), [])
    d = {"path": f"{location}/{name.replace('-', '_')}-{version}.dist-info", "location": location,
         "name": name, "version": version, "requires": list(requires), "installer": "pip", **extra}
    f["packages"]["stack"][name] = d
    f["packages"]["versions"][name] = version
    return d


def install(f: dict, backend: str, dist: str, version: str, probe: dict | None = None,
            run: dict | None = None, module_path: str | None = None) -> dict:
    """FAKES a backend found on disk (facts.installed_backends) and its import probe's answer.
    `probe`/`run` default to a clean import; pass failed_import(), crashed_run(), hung_run()."""
    add_dist(f, dist, version)
    entry = {"installed": True, "dist": dist, "version": version,
             "module_path": module_path or f"{SITE}/{backend}/__init__.py",
             "probe": probe if probe is not None else ok_import(),
             "run": run or run_ok()}
    if run is not None and probe is None and (run.get("timed_out") or run.get("signal")):
        entry["probe"] = None  # a child that died or was killed prints no answer
    f["imports"][backend] = entry
    return entry


def ok_import(warnings: list[str] | None = None) -> dict:
    """FAKES the import probe's answer when torch and the backend both imported."""
    return {"ok": True, "torch_seconds": 1.9, "seconds": 0.4, "warnings": list(warnings or [])}


def error(type_: str, message: str, frames: str = "", name: str | None = None) -> dict:
    """An exception as the probes record it (_err in smoke/child.py import_stage)."""
    tb = "Traceback (most recent call last):\n" + frames + f"{type_}: {message}\n"
    return {"type": type_, "message": message, "traceback": tb, "name": name}


def failed_import(type_: str, message: str, frames: str = "", name: str | None = None,
                  warnings: list[str] | None = None) -> dict:
    """FAKES the import probe's answer when torch imported and the backend's import raised."""
    return {"ok": False, "torch_seconds": 1.9, "stage": "backend", "error": error(type_, message, frames, name),
            "seconds": 0.3, "warnings": list(warnings or [])}


def run_ok(seconds: float = 2.5) -> dict:
    """FAKES proc.run's summary of a child that answered and exited 0."""
    return {"returncode": 0, "signal": None, "timed_out": False, "seconds": seconds, "start_error": None,
            "output_bytes": 900, "stderr_tail": "", "stdout_tail": ""}


def crashed_run(sig: str = "SIGSEGV", num: int = 11, stderr: str = "") -> dict:
    """FAKES a child killed by a signal before it printed its answer."""
    return dict(run_ok(), returncode=-num, signal=sig, stderr_tail=stderr, stdout_tail="")


def hung_run(seconds: float = 180.0) -> dict:
    """FAKES a child that proc.run killed at the timeout."""
    return dict(run_ok(seconds), returncode=-9, signal=None, timed_out=True)


def nvcc_entry(path: str, version: str | None, source: str = "PATH", kind: str | None = None,
               err: str | None = None) -> dict:
    """FAKES one `nvcc --version` probe (facts/nvcc.py probe())."""
    return {"path": path, "source": source, "version": version, "error": err, "kind": kind}


def cache(name: str, var: str, path: str, set: bool = False, exists: bool = True, is_dir: bool | None = None,
          writable: bool = True, free: int = 500 * GIB, fs: str = "ext4", under_tmp: bool = False) -> dict:
    """FAKES one compile cache as facts/caches.py resolves and inspects it."""
    is_dir = exists if is_dir is None else is_dir
    c = {"name": name, "var": var, "path": path, "set": set, "used_by": f"{name} kernels", "exists": exists,
         "is_dir": is_dir, "nearest_existing": path if exists else path.rsplit("/", 1)[0],
         "free_bytes": free, "fs_type": fs, "mount": "/", "under_tmp": under_tmp}
    if is_dir:
        c.update(writable=writable, readable=True)
    elif exists:
        c["writable"] = False
    else:
        c["creatable"] = True
    return c


def get_cache(f: dict, name: str) -> dict:
    return next(c for c in f["caches"] if c["name"] == name)


def set_env(f: dict, **env: str) -> dict:
    """FAKES environment variables as system.env_snapshot() records them."""
    f["env"].update(env)
    return f


# --------------------------------------------------------------------------------------------
# Smoke tests (facts["smoke"]). The shapes are the smoke child's, as the H100 run of 2026-11-22
# recorded them (torch 2.11.0+cu130, flash-attn-4 4.0.0b36, sageattention 1.0.6); the values are faked.
# --------------------------------------------------------------------------------------------

def smoke_plan(backend: str, cap: tuple[int, int] | None = (9, 0), **kw) -> list[dict]:
    """The cases the real planner (attn_doctor/smoke/plan.py) gives `backend` on a GPU of `cap`."""
    from attn_doctor.smoke.plan import plan

    return plan(backend, cap, **kw)[0]


def smoke_case(case: dict, bwd: dict | None = None, **measured) -> dict:
    """FAKES one finished case as the smoke child emits it: errors a tenth of the case's tolerances
    unless `measured` (and `bwd`, for the backward) say otherwise. ok and problems then come from the
    child's own classify_numbers, so a failing case carries the child's real problem wording."""
    from attn_doctor.smoke.child import classify_numbers

    if case["kind"] == "refusal":
        res = {"refused": True, "refusal": "AssertionError: inputs must be float16, bfloat16, fp8 e4m3fn, or fp8 e5m2"}
    elif case["kind"] == "sdpa-kernels":
        ok = {"rel_err": case["tol"] / 10, "row_err": case["row_tol"] / 10, "nonfinite": 0, "ok": True}
        res = {"kernels": {k: dict(ok) for k in ("flash_attention", "efficient_attention", "cudnn_attention", "math")},
               "default": "cudnn_attention"}
    else:
        res = {"first_seconds": 1.3, "rel_err": case["tol"] / 10, "row_err": case["row_tol"] / 10, "nonfinite": 0,
               "seconds": 0.0005, "compile_seconds": 1.3}
        if case["kind"] == "varlen":
            res.update(padding_change=0.0, isolation_change=0.0)
        else:
            res["deterministic_fwd"] = True
        if case.get("backward"):
            res["bwd"] = {"rel_err": case["tol"] / 10, "row_err": case["row_tol"] / 10, "nonfinite": 0, "grad": "dq",
                          "seconds": 0.0014, "first_seconds": 5.2, "compile_seconds": 5.2, **(bwd or {})}
    res.update(measured)
    classify_numbers(case, res)
    return dict(res, name=case["name"], wall=6.6)


def smoke_case_error(case: dict, type_: str, message: str, frames: str = "") -> dict:
    """FAKES a case whose kernel call raised (the child records the exception and goes on)."""
    return {"ok": False, "error": error(type_, message, frames), "name": case["name"], "wall": 0.4}


def add_smoke(f: dict, backend: str, cases: list[dict], key: str = "0", planned: list[str] | None = None,
              run: dict | None = None, final: dict | None = None, stuck_in: str | None = None, **extra) -> dict:
    """FAKES one smoke child's result for `backend` on torch device `key` ("cpu" or an index), made into
    a record by the real attn_doctor.smoke.smoke_record(). `final` is the child's last line (None: it
    printed none, as when it was killed); by default it finished. `extra` (cache_check) is merged in."""
    from attn_doctor.smoke import smoke_record

    if key == "cpu":
        info, device = {}, "cpu"
    else:
        g = f["torch"]["probe"]["cuda_runtime"]["devices"][int(key)]
        info, device = {"gpu": g["name"], "capability": g["capability"]}, f"cuda:{key}"
    if final is None and not (run and (run.get("timed_out") or run.get("signal"))):
        final = {"pid": 4242, "torch_seconds": 3.6, **info, "load_seconds": 0.4, "stage": "done"}
    run = run or run_ok(round(sum(c.get("wall", 0) for c in cases) + 4.0, 3))
    r = {"import": {"ok": True}, "planned": planned if planned is not None else [c["name"] for c in cases],
         "notes": [], "cases": cases, "stuck_in": stuck_in, "final": final, "wall_seconds": run["seconds"],
         "device": device, "run": run}
    rec = dict(smoke_record(r), **extra)
    f.setdefault("smoke", {"level": "standard", "devices": {}})["devices"].setdefault(key, {})[backend] = rec
    return rec


def check(f: dict, **ctx):
    """Evaluate the faked facts as `attn-doctor check --no-smoke` would (same Context)."""
    return evaluate(f, Context(**ctx))
