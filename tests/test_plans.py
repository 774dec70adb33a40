"""Install plans (attn_doctor/plans) from saved facts for a spread of stacks.

WHAT IS FAKED: every machine below is tests/fakefacts.gpu_box() (the faked healthy H200) with its torch
version / CUDA / C++ ABI, Python, GPUs, nvcc, cores and memory replaced as each test says; nothing is
probed. The expected wheel names were worked out by hand from flash-attention's publish.yml matrices and
setup.py's get_wheel_url() (knowledge/installs/fa2.toml says where each matrix was read), the xformers
releases from the wheels' METADATA / cpp_lib.json (installs/xformers.toml).
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

import fakefacts as ff
from attn_doctor import plans
from attn_doctor.checks import Context
from attn_doctor.facts.packages import FA2_TAG
from attn_doctor.plans import archlist
from attn_doctor.report import evaluate

GIB = 1024 ** 3
URL = "https://github.com/Dao-AILab/flash-attention/releases/download/"


def machine(torch="2.11.0+cu130", cuda="13.0", abi=True, py="3.12.3", gpus=(("NVIDIA H100 80GB HBM3", (9, 0)),),
            cores=16, mem_gib=128, nvcc=("/usr/local/cuda/bin/nvcc", "13.0"), more_nvcc=()):
    """FAKES one machine: the torch probe's version / CUDA / cxx11_abi / Python, the GPUs, the nvcc a build
    would use (and other nvccs found), the CPU cores and total memory."""
    f = ff.gpu_box()
    ff.set_torch(f, torch, cuda=cuda, cxx11_abi=abi)
    f["torch"]["probe"]["python"] = py
    ff.set_gpus(f, list(gpus))
    f["system"]["cpu"] = {"count": cores, "usable": cores, "cgroup_limit": None}
    f["system"]["memory"] = {"total_bytes": int(mem_gib * GIB), "available_bytes": None, "cgroup_limit_bytes": None}
    f["system"]["ninja"] = "/venv/bin/ninja"
    for n in ("packaging", "setuptools", "wheel"):
        f["packages"]["versions"][n] = "1"
    found = [ff.nvcc_entry(p, v) for p, v in ([nvcc] if nvcc else []) + list(more_nvcc)]
    f["nvcc"] = {"found": found, "build_choice": nvcc[0] if nvcc else None}
    return f


def route(plan, kind):
    return next((r for r in plan.routes if r.kind == kind), None)


# ---- FA2: the prebuilt wheel when a release's matrix covers the stack --------------------------

@pytest.mark.parametrize("stack, wheel, evidence", [
    # torch 2.8, CUDA 12.8, cp312, ABI TRUE: v2.8.3.post1's own release run built it
    (dict(torch="2.8.0+cu128", cuda="12.8"), "v2.8.3.post1/flash_attn-2.8.3.post1+cu12torch2.8cxx11abiTRUE-cp312-cp312-linux_x86_64.whl", "tag-workflow"),
    # ABI FALSE and Python 3.13 on torch 2.6 (CUDA 12.4): still in post1's matrix
    (dict(torch="2.6.0+cu124", cuda="12.4", abi=False, py="3.13.1"), "v2.8.3.post1/flash_attn-2.8.3.post1+cu12torch2.6cxx11abiFALSE-cp313-cp313-linux_x86_64.whl", "tag-workflow"),
    # torch 2.10 + CUDA 13.0: only v2.8.3's later build has it (seen in users' logs)
    (dict(torch="2.10.0+cu130", cuda="13.0"), "v2.8.3/flash_attn-2.8.3+cu13torch2.10cxx11abiTRUE-cp312-cp312-linux_x86_64.whl", "seen"),
    # torch 2.9 + CUDA 13 on Python 3.11: in that build's matrix, not seen: said so
    (dict(torch="2.9.1+cu130", cuda="13.0", py="3.11.9"), "v2.8.3/flash_attn-2.8.3+cu13torch2.9cxx11abiTRUE-cp311-cp311-linux_x86_64.whl", "unconfirmed"),
    # CUDA 11.8: the newest release with CUDA 11 wheels is 2.7.3
    (dict(torch="2.4.0+cu118", cuda="11.8", abi=False, py="3.10.14", gpus=(("NVIDIA A100-SXM4-80GB", (8, 0)),)),
     "v2.7.3/flash_attn-2.7.3+cu11torch2.4cxx11abiFALSE-cp310-cp310-linux_x86_64.whl", "tag-workflow"),
    # an RTX 4090 (sm89) on torch 2.7.1+cu126, Python 3.10
    (dict(torch="2.7.1+cu126", cuda="12.6", py="3.10.12", gpus=(("NVIDIA GeForce RTX 4090", (8, 9)),)),
     "v2.8.3.post1/flash_attn-2.8.3.post1+cu12torch2.7cxx11abiTRUE-cp310-cp310-linux_x86_64.whl", "tag-workflow"),
])
def test_fa2_prebuilt_wheel(stack, wheel, evidence):
    p = plans.make("fa2", machine(**stack))
    first = p.routes[0]
    assert first.kind == "wheel"
    assert first.url == URL + wheel
    assert first.params["evidence"] == evidence
    assert first.commands == [f"pip install {URL + wheel}"]
    assert route(p, "source") is not None, "the source build stays as the fallback"
    # the doctor's own tag parser reads back the stack the wheel was chosen for
    tag = FA2_TAG.search(wheel)
    assert tag and tag.group("torch") == re.match(r"(\d+\.\d+)", stack["torch"]).group(1)
    assert (tag.group("abi") == "TRUE") == stack.get("abi", True)
    if evidence == "unconfirmed":
        assert "404" in first.title


@pytest.mark.parametrize("stack, why", [
    (dict(), "torch 2.11"),  # the H100: no release builds for torch 2.11
    (dict(torch="2.10.0+cu128", cuda="12.8"), "torch 2.10 + CUDA 12"),  # v2.8.3's torch 2.10 wheels are cu13 only
    (dict(torch="2.4.0+cu121", cuda="12.1", py="3.13.0"), "Python 3.13"),  # torch 2.4 had no Python 3.13
    (dict(torch="2.13.0+cu130", cuda="13.0", py="3.13.0"), "torch 2.13"),
])
def test_fa2_no_wheel_then_bounded_source_build(stack, why):
    p = plans.make("fa2", machine(**stack))
    assert p.routes[0].kind == "source"
    assert any("no release's build matrix covers" in r and why in r for r in p.refusals), p.refusals
    assert "pip install flash-attn==2.8.3.post2 --no-build-isolation" in p.routes[0].commands[-1]


def test_fa2_on_the_h100_is_a_bounded_source_build():
    """The brief's H100: 16 cores, 128 GiB, one sm90, nvcc 13.0 at /usr/local/cuda."""
    p = plans.make("fa2", machine())
    src = p.routes[0]
    assert src.params["max_jobs"] == 14  # 128 GiB / 9 GiB per job, under 16 cores / 1 thread
    assert src.params["nvcc_threads"] == 1 and src.params["archs"] == "90"
    assert src.params["cuda_home"] is None and src.params["nvcc_ok"]
    assert src.commands[-1] == ("MAX_JOBS=14 NVCC_THREADS=1 FLASH_ATTN_CUDA_ARCHS=90 "
                                "pip install flash-attn==2.8.3.post2 --no-build-isolation --no-cache-dir")
    # the wheel setup.py would guess is known to be absent (a user's log), and the plan says so
    assert any("no v2.8.3.post1 wheel +cu13torch2.11cxx11abiTRUE-cp312" in r for r in p.refusals)
    lo, hi = src.params["minutes"]
    assert 1 <= lo < hi <= 60
    assert "9 GiB per job" in p.text() and "setup.py" in p.text()


@pytest.mark.parametrize("mem_gib, cores, archs_gpus, jobs, threads", [
    (16, 8, (("RTX 3090", (8, 6)),), 1, 1),  # little memory: one job
    (32, 64, (("A100", (8, 0)),), 3, 1),  # memory bounds it, not the 64 cores
    (512, 8, (("H100", (9, 0)),), 8, 1),  # plenty of memory: the cores bound it
    (512, 16, (("A100", (8, 0)), ("H100", (9, 0)), ("B200", (10, 0)), ("RTX 5090", (12, 0))), 4, 4),  # 4 archs: 4 threads a job
])
def test_fa2_max_jobs_from_memory_and_cores(mem_gib, cores, archs_gpus, jobs, threads):
    f = machine(torch="2.11.0+cu130", mem_gib=mem_gib, cores=cores, gpus=archs_gpus)
    src = route(plans.make("fa2", f), "source")
    assert (src.params["max_jobs"], src.params["nvcc_threads"]) == (jobs, threads)
    assert f"MAX_JOBS={jobs} " in src.commands[-1]


def test_fa2_memory_is_the_container_limit_when_lower():
    f = machine(mem_gib=512)
    f["system"]["memory"].update(available_bytes=400 * GIB, cgroup_limit_bytes=20 * GIB)
    src = route(plans.make("fa2", f), "source")
    assert src.params["max_jobs"] == 2 and "container limit" in src.notes[0]


def test_fa2_arch_list_covers_every_gpu_and_warns_about_an_old_nvcc():
    """sm86 + sm89 run the sm_80 kernels; sm120 needs nvcc 12.8, and the build would use 12.4."""
    f = machine(torch="2.8.0+cu128", cuda="12.8", gpus=(("RTX 3090", (8, 6)), ("RTX 4090", (8, 9)), ("RTX 5090", (12, 0))),
                nvcc=("/usr/local/cuda-12.4/bin/nvcc", "12.4"))
    src = route(plans.make("fa2", f), "source")
    assert src.params["archs"] == "80;120"
    assert any("older than 12.8" in n and "sm_120" in n and "RTX 5090" in n for n in src.notes)


def test_fa2_points_the_build_at_an_nvcc_that_matches_torch():
    f = machine(nvcc=("/usr/local/cuda-12.4/bin/nvcc", "12.4"), more_nvcc=(("/usr/local/cuda-13.0/bin/nvcc", "13.0"),))
    src = route(plans.make("fa2", f), "source")
    assert src.params["cuda_home"] == "/usr/local/cuda-13.0"
    assert src.commands[-1].startswith("CUDA_HOME=/usr/local/cuda-13.0 MAX_JOBS=")


def test_fa2_without_a_matching_nvcc_the_build_is_not_pasteable():
    f = machine(nvcc=("/usr/local/cuda-12.4/bin/nvcc", "12.4"))
    src = route(plans.make("fa2", f), "source")
    assert not src.params["nvcc_ok"]
    assert all(c.startswith("# ") for c in src.commands)
    assert any("install the CUDA 13.0 toolkit" in n for n in src.notes)


def test_fa2_missing_build_requirements_are_installed_first():
    f = machine()
    f["system"]["ninja"] = None
    del f["packages"]["versions"]["wheel"]
    src = route(plans.make("fa2", f), "source")
    assert src.commands[0].startswith("pip install ninja wheel ")
    assert src.params["missing"] == ["ninja", "wheel"]


def test_fa2_refused_below_sm80():
    p = plans.make("fa2", machine(torch="2.9.1+cu128", cuda="12.8", gpus=(("Tesla T4", (7, 5)),)))
    assert p.routes == [] and "needs sm80" in p.refusals[0] and "sdpa" in p.refusals[0]


def test_abi_unknown_is_assumed_from_the_torch_version():
    f = machine(torch="2.8.0+cu128", cuda="12.8")
    del f["torch"]["probe"]["cxx11_abi"]
    p = plans.make("fa2", f)
    assert "cxx11abiTRUE" in p.routes[0].url and "(assumed)" in p.stack


@pytest.mark.parametrize("facts_edit, words", [
    (lambda f: f.update(torch={}), "torch is not installed"),
    (lambda f: ff.set_torch(f, "2.9.1+cpu", cuda=None), "CPU-only build"),
])
def test_no_cuda_torch_no_plan(facts_edit, words):
    f = machine()
    facts_edit(f)
    for name in plans.PLANNED:
        p = plans.make(name, f)
        assert p.routes == [] and words in p.refusals[0]


# ---- FA3 ----------------------------------------------------------------------------------------

def test_fa3_on_sm90_is_the_hopper_build_without_sm80():
    p = plans.make("fa3", machine())
    src = p.routes[0]
    assert src.kind == "source" and src.params["disable_sm80"]
    assert "cd flash-attention/hopper" in src.commands[0]
    # one arch (sm_90a) a file: NVCC_THREADS=1 and MAX_JOBS bounded by 128 GiB / 9 GiB, not by 16 cores / 2
    assert "FLASH_ATTENTION_DISABLE_SM80=TRUE" in src.commands[1] and "MAX_JOBS=14 NVCC_THREADS=1 " in src.commands[1]
    # the time is for the 233 sources setup.py compiles with SM80 off, and the reduced build is offered
    assert src.params["files"] == 233 and src.params["reduced_files"] == 10
    assert src.params["reduced_minutes"][1] < src.params["minutes"][0]
    assert any("FLASH_ATTENTION_DISABLE_HDIM96=TRUE" in n and "10 files" in n for n in src.notes)
    assert p.routes[1].kind == "instead" and "cute" in p.routes[1].title


def test_fa3_on_cuda_12_4_downloads_its_own_nvcc():
    src = plans.make("fa3", machine(torch="2.6.0+cu124", cuda="12.4", nvcc=("/usr/local/cuda/bin/nvcc", "12.4"))).routes[0]
    assert any("needs internet" in n for n in src.notes)


@pytest.mark.parametrize("gpus, instead", [
    ((("B200", (10, 0)),), "cute"),
    ((("A100", (8, 0)),), "fa2"),
    ((("RTX 5090", (12, 0)),), "fa2"),
    ((("Tesla T4", (7, 5)),), "sdpa"),
])
def test_fa3_elsewhere_says_what_to_use_instead(gpus, instead):
    p = plans.make("fa3", machine(gpus=gpus))
    assert [r.kind for r in p.routes] == ["instead"]
    assert p.routes[0].title.startswith(f"use instead: {instead}")
    assert "sm90" in p.refusals[0]


def test_fa3_refused_on_cuda_11():
    p = plans.make("fa3", machine(torch="2.4.0+cu118", cuda="11.8"))
    assert "CUDA >= 12.3" in p.refusals[0]


# ---- FA4 ----------------------------------------------------------------------------------------

def test_cute_cu13_takes_the_cu13_libs():
    p = plans.make("cute", machine())
    # a pre-release floor for FA4 alone: never --pre, which lets every dependency be a pre-release
    assert p.routes[0].commands == ["pip install 'flash-attn-4[cu13]>=4.0.0b36' 'quack-kernels>=0.5.3' "
                                    "'nvidia-cutlass-dsl[cu13]>=4.6.2'   # nvidia-cutlass-dsl-libs-cu13 for torch's CUDA 13"]


def test_cute_cu12_and_forward_only_on_ampere():
    p = plans.make("cute", machine(torch="2.8.0+cu128", cuda="12.8", gpus=(("A100", (8, 0)),)))
    assert p.routes[0].commands[0].startswith("pip install 'flash-attn-4>=4.0.0b36' 'quack-kernels>=0.5.3' 'nvidia-cutlass-dsl>=4.6.2'")
    assert any("backward needs sm90+" in n for n in p.routes[0].notes)


@pytest.mark.parametrize("stack, words", [
    (dict(torch="2.4.0+cu118", cuda="11.8"), "CUDA 12 and 13 only"),
    (dict(gpus=(("Tesla T4", (7, 5)),)), "sm80-sm12x"),
    (dict(py="3.9.18"), "Python >=3.10"),
])
def test_cute_refusals(stack, words):
    p = plans.make("cute", machine(**stack))
    assert p.routes == [] and words in p.refusals[0]


# ---- xformers -----------------------------------------------------------------------------------

@pytest.mark.parametrize("stack, cmd", [
    (dict(torch="2.10.0+cu130", cuda="13.0"), "pip install xformers==0.0.35   # the cu130 build: from PyTorch's wheel index for cu130 (pip --index-url) if pip's index lacks it"),
    (dict(torch="2.10.0+cu128", cuda="12.8"), "pip install xformers==0.0.35"),
    (dict(torch="2.9.1+cu126", cuda="12.6", py="3.10.1"), "pip install xformers==0.0.33.post2   # the cu126 build: from PyTorch's wheel index for cu126 (pip --index-url) if pip's index lacks it"),
    (dict(torch="2.9.0+cu128", cuda="12.8"), "pip install xformers==0.0.33.post1"),
    (dict(torch="2.4.1+cu121", cuda="12.1", abi=False), "pip install xformers==0.0.28.post1"),
    (dict(torch="2.7.1+cu118", cuda="11.8"), "pip install xformers==0.0.31.post1   # the cu118 build: from PyTorch's wheel index for cu118 (pip --index-url) if pip's index lacks it"),
])
def test_xformers_release_built_for_this_torch(stack, cmd):
    p = plans.make("xformers", machine(**stack))
    assert p.routes[0].kind == "pip" and p.routes[0].commands == [cmd]


def test_xformers_none_for_torch_2_11_yet():
    p = plans.make("xformers", machine())
    assert "no xformers release is built for torch 2.11.0" in p.refusals[0] and "0.0.35" in p.refusals[0]
    assert p.routes[0].kind == "instead" and "sdpa" in p.routes[0].title
    assert p.short == "no xformers release for torch 2.11.0 yet; use sdpa"
    assert route(p, "source").commands[0].startswith('TORCH_CUDA_ARCH_LIST="9.0" MAX_JOBS=14 ')


def test_xformers_cuda_flavour_not_built():
    p = plans.make("xformers", machine(torch="2.8.0+cu130", cuda="13.0"))
    assert "cu126, cu128, cu129, not cu130" in p.refusals[0]


def test_xformers_python_too_new_for_an_old_release():
    p = plans.make("xformers", machine(torch="2.6.0+cu124", cuda="12.4", py="3.13.0"))
    assert "cp39 to cp312 only" in p.refusals[0]


# ---- SageAttention ------------------------------------------------------------------------------

def test_sage_pypi_first_then_the_2x_build():
    p = plans.make("sage", machine())
    assert [r.kind for r in p.routes] == ["pip", "source"]
    assert p.routes[0].commands == ["pip install sageattention==1.0.6"]
    src = p.routes[1]
    assert src.params["nvcc_ok"] and src.params["archs"] == "9.0"
    assert 'TORCH_CUDA_ARCH_LIST="9.0" EXT_PARALLEL=1 MAX_JOBS=14 pip install .' in src.commands[1]
    assert any("needs CUDA >= 12.3: ok" in n for n in src.notes)


def test_sage_2x_needs_cuda_12_8_on_blackwell():
    f = machine(torch="2.7.1+cu126", cuda="12.6", gpus=(("RTX 5090", (12, 0)),), nvcc=("/usr/local/cuda/bin/nvcc", "12.6"))
    src = route(plans.make("sage", f), "source")
    assert not src.params["nvcc_ok"] and all(c.startswith("# ") for c in src.commands)
    assert any("needs CUDA >= 12.8" in n and "too old" in n for n in src.notes)


def test_sage_2x_has_no_kernels_for_turing():
    p = plans.make("sage", machine(gpus=(("Tesla T4", (7, 5)),)))
    assert [r.kind for r in p.routes] == ["pip"] and "not GPU 0 (Tesla T4, sm75)" in p.refusals[0]


# ---- where plans show ---------------------------------------------------------------------------

def test_backends_table_and_required_finding_carry_the_plan():
    f = machine()
    report = evaluate(f, Context(required=["fa2"]), {})
    from attn_doctor.checks.backends import statuses

    rows = statuses(f, Context(required=["fa2"]))
    # 73 files x 1 arch x 4-7 CPU-min / 14 streams (the measured 5.2 lies inside)
    assert rows["fa2"]["reason"] == "not installed (no prebuilt wheel: source build ~21-33 min; plan: attn-doctor fix -r fa2)"
    assert rows["cute"]["reason"] == "not installed (pip install 'flash-attn-4[cu13]>=4.0.0b36')"
    assert report.backends["cute"]["reason"] == "not installed (/venv/bin/python -m pip install 'flash-attn-4[cu13]>=4.0.0b36')"
    req = next(x for x in report.findings if x.id == "require.not-ok")
    assert req.params["plan"] == plans.text("fa2", f)
    assert req.fix.startswith("attn-doctor fix --require fa2   #")
    # check's text report prints the whole plan under the finding, unindented, as fix --require does
    import io

    from attn_doctor.render import text as rtext

    buf = io.StringIO()
    rtext.render(report, rtext.make_console(file=buf, width=80))
    assert "\n" + plans.text("fa2", f) + "\n" in buf.getvalue()


def test_fix_require_prints_the_plan(tmp_path):
    import json

    from attn_doctor.render import json as rjson

    report = evaluate(machine(), Context(required=["fa2"]), {"require": ["fa2"]})
    path = tmp_path / "h100.json"
    path.write_text(rjson.dumps(report))
    out = subprocess.run([sys.executable, "-m", "attn_doctor", "fix", "--from", str(path), "--require", "fa2"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    # the block is printed unindented, in lines that continue with a backslash: it pastes whole
    assert ("\nMAX_JOBS=14 NVCC_THREADS=1 FLASH_ATTN_CUDA_ARCHS=90 /venv/bin/python -m pip \\\n"
            "  install flash-attn==2.8.3.post2 --no-build-isolation --no-cache-dir\n") in out.stdout
    assert all(len(ln) <= 80 for ln in out.stdout.splitlines() if len(ln.split()) > 1 and not ln.lstrip().startswith("paste"))
    assert json.loads(path.read_text())["facts"]["system"]["memory"]["total_bytes"] == 128 * GIB


def test_every_plan_renders_without_leftover_params_on_many_stacks():
    stacks = [dict(), dict(torch="2.4.0+cu118", cuda="11.8", abi=False, py="3.10.0", gpus=(("A10", (8, 6)),)),
              dict(torch="2.9.1+cu130", cuda="13.0", gpus=(("B200", (10, 0)), ("H100", (9, 0)))),
              dict(torch="2.7.1+cu128", cuda="12.8", py="3.13.0", gpus=(("RTX 5090", (12, 0)),), mem_gib=8, cores=4),
              dict(nvcc=None)]
    for st in stacks:
        for name in plans.PLANNED:
            p = plans.make(name, machine(**st))
            text = p.text()
            assert not re.search(r"\{[a-z_]+\}", text), text
            assert p.short and p.read == "2026-11-23"


def test_every_install_data_file_says_when_and_where_it_was_read():
    for name in ("fa2", "fa3", "cute", "xformers", "sage"):
        d = plans.data(name)
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", d["read"]) and d["source"]


# ---- the arch list in the environment -----------------------------------------------------------

@pytest.mark.parametrize("raw, cap, covered", [
    ("8.0", (9, 0), False), ("8.0+PTX", (9, 0), True), ("9.0a", (9, 0), True), ("9.0a", (10, 0), False),
    ("8.0;8.6", (8, 9), True), ("8.0 8.6", (8, 6), True), ("sm_90", (9, 0), True), ("Ampere", (8, 9), True),
    ("7.5", (8, 0), False), ("10.0;12.0", (12, 1), True), ("12.0", (10, 0), False),
])
def test_torch_arch_list_coverage(raw, cap, covered):
    entries, _ = archlist.torch_entries(raw)
    assert archlist.torch_covers(entries, cap) is covered


def test_arch_lists_that_cannot_be_judged_or_leave_nothing_out():
    assert archlist.missing("TORCH_CUDA_ARCH_LIST", "foo;bar", [(9, 0)]) is None
    assert archlist.missing("FLASH_ATTN_CUDA_ARCHS", "80;86", [(8, 6)]) == ([], "80;86")
    assert archlist.missing("FLASH_ATTN_CUDA_ARCHS", "80;86", [(9, 0), (10, 0)]) == ([(9, 0), (10, 0)], "80;86;90;100")


@pytest.mark.parametrize("env, n", [
    (dict(TORCH_CUDA_ARCH_LIST="8.0"), 1), (dict(TORCH_CUDA_ARCH_LIST="8.0;9.0"), 0),
    (dict(TORCH_CUDA_ARCH_LIST="7.0+PTX"), 0), (dict(FLASH_ATTN_CUDA_ARCHS="80"), 1),
    (dict(FLASH_ATTN_CUDA_ARCHS="90", TORCH_CUDA_ARCH_LIST="Ampere;Hopper"), 0),
    (dict(FLASH_ATTN_CUDA_ARCHS="80", TORCH_CUDA_ARCH_LIST="8.6"), 2),
])
def test_arch_list_finding(env, n):
    f = ff.set_env(machine(), **env)
    got = [x for x in evaluate(f, Context(), {}).findings if x.id == "build.arch-list-leaves-out-gpu"]
    assert len(got) == n
    for x in got:
        assert "H100" in x.title and "sm90" in x.title and x.fix.startswith("export ")


def test_fa2_plan_warns_that_it_overwrites_fa4():
    f = machine()
    ff.add_dist(f, "flash-attn-4", "4.0.0b36")
    p = plans.make("fa2", f)
    assert any("flash-attn-4 4.0.0b36 is installed here" in r and "cute.shadowed-by-fa2" in r for r in p.refusals)
    assert not any("flash-attn-4" in r for r in plans.make("fa2", machine()).refusals)


def test_xformers_built_for_another_torch_gets_the_plan_as_its_fix():
    f = machine(torch="2.10.0+cu130", cuda="13.0")
    ff.install(f, "xformers", "xformers", "0.0.33.post2")
    f["packages"]["xformers_build"] = {"torch": "2.9.1+cu128", "cuda": 1208, "python": "3.10.19", "arch_list": None}
    got = next(x for x in evaluate(f, Context(), {}).findings if x.id == "xformers.built-for-other-torch")
    assert got.fix == ("/venv/bin/python -m pip install --force-reinstall --no-deps xformers==0.0.35   # the cu130 "
                       "build: from PyTorch's wheel index for cu130 (pip --index-url) if pip's index lacks it")


def test_h100_plans_match_the_fixture():
    """fixtures/plans/h100.txt is every plan for the brief's H100 (see its README): kept in step."""
    from pathlib import Path

    want = (Path(__file__).resolve().parents[1] / "fixtures" / "plans" / "h100.txt").read_text()
    f = machine()
    assert "\n\n".join(plans.make(n, f).text() for n in plans.PLANNED) + "\n" == want


def test_a_required_fa2_built_for_another_torch_gets_the_plan():
    """flash-attn from the +cu12torch2.6cxx11abiFALSE wheel on torch 2.11 fails to import (undefined symbol)."""
    f = machine()
    ff.install(f, "fa2", "flash-attn", "2.8.3", probe=ff.failed_import(
        "ImportError", "/venv/lib/python3.12/site-packages/flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so: "
        "undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationESs"))
    f["packages"]["stack"]["flash-attn"]["build_tag"] = {"cuda": "12", "torch": "2.6", "cxx11abi": False}
    report = evaluate(f, Context(required=["fa2"]), {})
    req = next(x for x in report.findings if x.id == "require.not-ok")
    assert req.params["plan"] == plans.text("fa2", f)
    assert req.fix.startswith("attn-doctor fix --require fa2   #")
    # broken for another reason: the import's own finding gives the fix, not a reinstall plan
    del f["packages"]["stack"]["flash-attn"]["build_tag"]
    req = next(x for x in evaluate(f, Context(required=["fa2"]), {}).findings if x.id == "require.not-ok")
    assert req.fix.startswith("attn-doctor check --backend fa2")


@pytest.mark.parametrize("entry", ["build.oom", "build.isolation", "build.cuda-too-old", "fa2.missing"])
def test_explain_build_failures_point_to_the_plan(entry):
    from attn_doctor import knowledge

    assert "attn-doctor fix --require fa2" in knowledge.get(entry).fix


def test_resources_from_proc_and_cgroup(monkeypatch):
    """FAKES /proc/meminfo and the cgroup v2 files system.resources() reads."""
    from attn_doctor.facts import system

    files = {"/proc/meminfo": "MemTotal:       131072000 kB\nMemFree: 1 kB\nMemAvailable:   125829120 kB\n",
             "/sys/fs/cgroup/memory.max": "68719476736\n", "/sys/fs/cgroup/cpu.max": "800000 100000\n"}
    monkeypatch.setattr(system, "_read", lambda p: files.get(p))
    r = system.resources()
    assert r["memory"] == {"total_bytes": 131072000 * 1024, "available_bytes": 125829120 * 1024,
                           "cgroup_limit_bytes": 64 * GIB}
    assert r["cpu"]["cgroup_limit"] == 8.0
    files["/sys/fs/cgroup/memory.max"] = "max\n"
    files["/sys/fs/cgroup/cpu.max"] = "max 100000\n"
    r = system.resources()
    assert r["memory"]["cgroup_limit_bytes"] is None and r["cpu"]["cgroup_limit"] is None
    f = machine()
    f["system"].update(r, cpu={"count": 64, "usable": 64, "cgroup_limit": 8.0})
    s = plans.stack(f)
    assert (s.cores, s.mem_bytes, s.mem_basis) == (8, 125829120 * 1024, "available")


def test_a_report_saved_before_cores_and_memory_were_recorded():
    """REAL: the H100 report of fixtures/gpu/h100-final (collected before system.cpu/memory existed)."""
    import json
    from pathlib import Path

    facts = json.loads((Path(__file__).resolve().parents[1] / "fixtures/gpu/h100-final/reports/good.json").read_text())["facts"]
    src = route(plans.make("fa2", facts), "source")
    assert src.params["max_jobs"] == 2 and src.params["archs"] == "90"
    assert any("memory unknown (2 assumed)" in n for n in src.notes)
    assert plans.make("cute", facts).routes[0].params["extra"] == "[cu13]"


def test_the_arch_lists_are_recorded_from_the_environment():
    from attn_doctor.facts.system import env_snapshot

    snap = env_snapshot({"FLASH_ATTN_CUDA_ARCHS": "80", "TORCH_CUDA_ARCH_LIST": "8.0", "NVCC_THREADS": "2", "UNRELATED": "x"})
    assert snap == {"FLASH_ATTN_CUDA_ARCHS": "80", "TORCH_CUDA_ARCH_LIST": "8.0", "NVCC_THREADS": "2"}


@pytest.mark.parametrize("stack, name, reason", [
    (dict(), "sage", "not installed (pip install sageattention==1.0.6: Triton, forward only)"),
    (dict(), "fa3", "not installed (source build from flash-attention/hopper; plan: attn-doctor fix -r fa3)"),
    (dict(gpus=(("A100", (8, 0)),)), "fa3", "not installed (FA3 is sm90-only: use fa2)"),
    (dict(torch="2.10.0+cu128", cuda="12.8"), "xformers", "not installed (pip install xformers==0.0.35)"),
    (dict(torch="2.10.0+cu130", cuda="13.0"), "xformers",
     "not installed (xformers 0.0.35 from PyTorch's cu130 index; plan: attn-doctor fix -r xformers)"),
    (dict(torch="2.8.0+cu128", cuda="12.8"), "fa2", "not installed (prebuilt wheel v2.8.3.post1 fits; plan: attn-doctor fix -r fa2)"),
])
def test_the_backends_table_reason(stack, name, reason):
    from attn_doctor.checks.backends import statuses

    assert statuses(machine(**stack), Context())[name]["reason"] == reason


def test_an_arch_list_with_semicolons_is_quoted_for_the_shell():
    f = machine(gpus=(("A100", (8, 0)), ("H100", (9, 0))))
    src = route(plans.make("fa2", f), "source")
    assert 'FLASH_ATTN_CUDA_ARCHS="80;90" pip install' in " ".join(src.commands)
    p = plans.make("fa2", machine(gpus=()))
    assert 'FLASH_ATTN_CUDA_ARCHS="80;90;100;120"' in p.text()
    assert plans.make("fa3", machine(gpus=())).refusals == ["FA3 (hopper/) is for sm90 GPUs, and no GPU was seen here"]


def test_the_table_reason_is_the_plan_of_these_facts_whatever_was_asked_before():
    """plans.short keeps each Stack's answer (helper ci39a, session 39): asked again, it answers what make() answers for
    those facts; asked for facts that differ in one field the plans read (torch, CUDA, ABI, Python, GPUs, nvcc, cores,
    what is installed), that plan's answer, never the one kept for another machine; with statuses' `read` memo too."""
    stacks = [dict(), dict(torch="2.10.0+cu130"), dict(cuda="12.8", torch="2.10.0+cu128"), dict(abi=False),
              dict(py="3.10.0"), dict(gpus=(("A100", (8, 0)),)), dict(nvcc=None), dict(cores=4)]
    boxes = [machine(**st) for st in stacks]
    fa4 = machine()
    ff.add_dist(fa4, "flash-attn-4", "4.0.0b36")
    boxes.append(fa4)
    for f in boxes + boxes[::-1]:  # (the second pass answers from what the first kept)
        read: dict = {}
        for name in plans.PLANNED:
            want = plans.make(name, f).short
            assert plans.short(name, f) == want and plans.short(name, f, read) == want, (name, f["torch"]["probe"])
    shorts = {tuple(plans.make(n, f).short for n in plans.PLANNED) for f in boxes}
    assert len(shorts) >= 5  # (the machines differ where the plans look)
