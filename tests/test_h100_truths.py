"""Issue 11's three truths seen on the H100 (torch 2.11, FA4 stack), at the checks' level:

1. TORCHINDUCTOR_CACHE_DIR=/proc/attn-cache made `import flash_attn.cute` fail with FileNotFoundError;
   the report must tie the cache directory to the import failure (import.cache-dir), with the fix,
   and not warn about the free space of a directory that cannot exist.
2. CUDA_VISIBLE_DEVICES hiding every GPU: backends that only run on a GPU are not `ok`.
3. An allocator setting torch cannot parse, and `import torch` killed by SIGABRT (CUDA builds of
   torch 2.13): the crash names the setting as its likely cause (torch.import-crashed-alloc).

The machines are faked with tests/fakefacts.py (each builder says what it fakes); case 1 also runs
the real cache collector on this machine's /proc.
"""

from __future__ import annotations

import os

import pytest

import fakefacts as ff
import test_findings as tf
from attn_doctor.facts import caches as cache_facts

# ---- 1. a cache directory that cannot be created breaks an import ---------------------------------


def _cute_fails(f: dict, type_: str, message: str) -> dict:
    """FAKES flash-attn-4's import probe raising `type_: message` (torch's cache_dir() frame)."""
    f["imports"]["cute"]["probe"] = ff.failed_import(type_, message, tf.PROBE_FRAME + (
        '  File "/venv/lib/python3.12/site-packages/torch/_inductor/runtime/cache_dir_utils.py", line 23, in cache_dir\n'))
    return f


def _ids(report, backend=None):
    return [x.id for x in report.findings if backend is None or x.backend == backend]


def test_proc_cache_dir_is_why_fa4_does_not_import():
    r = ff.check(tf.fa4_import_fails_on_proc_inductor_cache())
    (hit,) = [x for x in r.findings if x.backend == "cute"]
    assert hit.id == "import.cache-dir" and hit.severity == "error"
    assert "TORCHINDUCTOR_CACHE_DIR is /proc/attn-cache, which cannot be created" in hit.title
    assert "does not import" in hit.title and "FileNotFoundError" in hit.title
    assert hit.fix.startswith('export TORCHINDUCTOR_CACHE_DIR="$HOME/.cache/torchinductor"')
    ids = _ids(r)
    assert "cache.uncreatable" in ids  # the setting itself, for torch.compile too
    assert "cache.low-space" not in ids and "import.failed" not in ids  # no "0.0 GiB free on /proc"
    assert r.backends["cute"]["status"] == "broken" and r.exit_code == 1


@pytest.mark.parametrize("path,fs,type_,named", [
    ("/sys/fs/attn-cache", "sysfs", "PermissionError", "[Errno 1] Operation not permitted: '/sys/fs/attn-cache/fxgraph'"),
    ("/proc/self/ic/", "proc", "FileNotFoundError", "[Errno 2] No such file or directory: '/proc/self/ic'"),
    ("/dev/cache", "devtmpfs", "OSError", "[Errno 30] Read-only file system: \"/dev/cache/triton/0\""),
])
def test_other_pseudo_filesystems_and_paths(path, fs, type_, named):
    """The same mechanism with other pseudo-filesystems, error types, subpaths and quoting."""
    f = tf.proc_inductor_cache(tf._fa4_stack(ff.gpu_box()), path)
    ff.get_cache(f, "inductor").update(fs_type=fs, nearest_existing=path.split("/")[1] and "/" + path.split("/")[1])
    r = ff.check(_cute_fails(f, type_, named))
    assert _ids(r, "cute") == ["import.cache-dir"]
    assert "cache.low-space" not in _ids(r)


def test_a_file_in_the_way_and_an_unwritable_dir_tie_too():
    """Not only pseudo-filesystems: a regular file where the directory should be (NotADirectoryError)
    and a directory this user cannot write (PermissionError) name the same cause."""
    f = tf._fa4_stack(ff.gpu_box())
    ff.get_cache(f, "inductor").update(exists=True, is_dir=False, writable=False)
    r = ff.check(_cute_fails(f, "NotADirectoryError",
                             "[Errno 20] Not a directory: '/home/user/.cache/torchinductor/fxgraph'"))
    (hit,) = [x for x in r.findings if x.backend == "cute"]
    assert hit.id == "import.cache-dir" and "is not a directory" in hit.title
    f = tf._fa4_stack(ff.gpu_box())
    ff.get_cache(f, "inductor").update(writable=False)
    r = ff.check(_cute_fails(f, "PermissionError", "[Errno 13] Permission denied: '/home/user/.cache/torchinductor'"))
    assert _ids(r, "cute") == ["import.cache-dir"]


@pytest.mark.parametrize("message", [
    "[Errno 2] No such file or directory: '/proc/attn-cache2'",  # another path that starts the same
    "[Errno 2] No such file or directory: '/opt/models/tokenizer.json'",  # another path altogether
])
def test_an_error_that_names_another_path_is_not_the_caches(message):
    f = _cute_fails(tf.proc_inductor_cache(tf._fa4_stack(ff.gpu_box())), "FileNotFoundError", message)
    assert _ids(ff.check(f), "cute") == ["import.failed"]


def test_a_usable_cache_named_in_an_error_is_not_blamed():
    """FileNotFoundError under a cache directory that is fine (a file the backend looked for) is not
    the cache's fault."""
    f = _cute_fails(tf._fa4_stack(ff.gpu_box()), "FileNotFoundError",
                    "[Errno 2] No such file or directory: '/home/user/.cache/torchinductor/fxgraph/x.json'")
    assert "import.cache-dir" not in _ids(ff.check(f))


def test_real_collector_on_this_machines_proc():
    """REAL, not faked: facts/caches.py resolves TORCHINDUCTOR_CACHE_DIR=/proc/attn-cache on this
    machine (its /proc, its mount table, whatever user runs the tests): the check says it cannot be
    created, and says nothing of free space."""
    if not os.path.isdir("/proc/self") or os.path.exists("/proc/attn-cache"):
        pytest.skip("no proc filesystem here")
    f = ff.gpu_box()
    f["caches"] = cache_facts.collect({"TORCHINDUCTOR_CACHE_DIR": "/proc/attn-cache", "HOME": "/home/user"}, "user")
    (c,) = [c for c in f["caches"] if c["name"] == "inductor"]
    assert c["fs_type"] == "proc" and not c["exists"]
    ids = _ids(ff.check(f))
    assert "cache.uncreatable" in ids and "cache.low-space" not in ids


# ---- 2. no visible GPU: GPU-only backends cannot run --------------------------------------------

GPU_ONLY = {"cute": ("flash-attn-4", "4.0.0b36"), "fa2": ("flash-attn", "2.8.3"), "fa3": ("flash_attn_3", "3.0.0b1"),
            "sage": ("sageattention", "1.0.6"), "xformers": ("xformers", "0.0.35")}


def _every_backend(f: dict) -> dict:
    """FAKES every backend installed and importing cleanly (an H100 with the whole stack)."""
    for name, (dist, version) in GPU_ONLY.items():
        ff.install(f, name, dist, version)
    return f


def test_hidden_gpus_leave_no_gpu_backend_ok():
    """FAKES the H100 run: nvidia-smi lists the GPU, CUDA_VISIBLE_DEVICES='' and torch sees none."""
    f = _every_backend(ff.gpu_box())
    ff.set_gpus(f, [("NVIDIA H100 80GB HBM3", (9, 0))], torch_sees=False)
    ff.set_env(f, CUDA_VISIBLE_DEVICES="")
    r = ff.check(f)
    assert "gpu.hidden-by-env" in _ids(r)
    for name in GPU_ONLY:
        row = r.backends[name]
        assert row["status"] == "unsupported", (name, row)
        assert row["reason"] == "cannot run: no visible GPU (CUDA_VISIBLE_DEVICES='' hides all 1 GPU(s))"
    assert {r.backends[n]["status"] for n in ("sdpa", "flex")} == {"ok"}  # they run on the CPU
    assert r.exit_code == 1


@pytest.mark.parametrize("cvd", ["-1", "7", "GPU-deadbeef"])
def test_other_values_that_hide_every_gpu(cvd):
    f = _every_backend(ff.gpu_box())
    ff.set_gpus(f, [("NVIDIA H100 80GB HBM3", (9, 0))] * 2, torch_sees=False)
    ff.set_env(f, CUDA_VISIBLE_DEVICES=cvd)
    r = ff.check(f, required=["cute"])
    assert r.backends["cute"]["status"] == "unsupported" and "hides all 2 GPU(s)" in r.backends["cute"]["reason"]
    assert ("require.not-ok", "cute") in [(x.id, x.backend) for x in r.findings]


def test_cuda_that_cannot_start_is_the_same_for_the_backends():
    """FAKES nvidia-smi listing a GPU and torch's CUDA init failing (error 804): no GPU backend is ok."""
    f = _every_backend(tf.cuda_init_fails())
    r = ff.check(f)
    assert {r.backends[n]["status"] for n in GPU_ONLY} == {"unsupported"}
    assert "torch cannot start CUDA" in r.backends["sage"]["reason"]


def test_a_machine_with_no_gpu_at_all_still_says_ok():
    """FAKES an image-build box: a CUDA torch, the backends installed, no GPU and no driver. A backend
    that imports is ok there (no kernel was run), as before: nothing hides a GPU that is not there."""
    f = _every_backend(ff.gpu_box())
    ff.set_gpus(f, [])
    r = ff.check(f)
    assert r.backends["cute"]["status"] == "ok" and "no CUDA GPU here" in r.backends["cute"]["reason"]


def test_visible_gpus_unchanged():
    r = ff.check(_every_backend(ff.gpu_box()))
    assert r.backends["cute"]["status"] == "ok" and r.backends["sage"]["status"] == "ok"


# ---- 3. a garbage allocator setting and `import torch` aborted ----------------------------------

@pytest.mark.parametrize("var,value,kind", [
    ("PYTORCH_ALLOC_CONF", "garbage", "syntax"),
    ("PYTORCH_CUDA_ALLOC_CONF", "expandable_segments:true", "bool-case"),
    ("PYTORCH_ALLOC_CONF", "max_split_size_mb:64,bogus_key:1", "unknown-key"),
])
def test_torch_abort_names_the_allocator_setting(var, value, kind):
    f = ff.gpu_box()
    ff.install(f, "sage", "sageattention", "1.0.6")
    r = ff.check(tf.alloc_abort(f, var, value))
    (crash,) = [x for x in r.findings if x.section == "platform"]
    assert crash.id == "torch.import-crashed-alloc" and crash.severity == "error"
    assert f"most likely because {var}=" in crash.title and "SIGABRT" in crash.title
    assert crash.fix.startswith(f"unset {var}") and f"alloc.{kind}" in crash.fix
    assert f"alloc.{kind}" in _ids(r)  # the allocator check still says what is wrong with it
    # the backend probes died of torch: one cause, not an import.crashed per backend
    assert [x.id for x in r.findings if x.backend == "sage"] == []
    assert r.backends["sage"]["reason"] == "torch fails to import"
    assert r.exit_code == 1


def test_a_crash_with_a_valid_allocator_setting_is_not_blamed_on_it():
    f = tf.alloc_abort(ff.gpu_box(), "PYTORCH_ALLOC_CONF", "expandable_segments:True")
    ids = _ids(ff.check(f))
    assert "torch.import-crashed" in ids and "torch.import-crashed-alloc" not in ids


def test_xformers_built_for_another_torch_is_one_finding_on_the_real_h100_report():
    """Hold 3 (fixtures/gpu/h100-issue25/hold3/xformers-pypi.json): xformers 0.0.35's wheel, built for torch
    2.10, on torch 2.11: every smoke case failed with "No operator found". The build mismatch is the
    cause, said once; the smoke failures are not a second error."""
    import json
    from pathlib import Path

    from attn_doctor.checks import Context
    from attn_doctor.report import evaluate

    path = Path(__file__).resolve().parents[1] / "fixtures/gpu/h100-issue25/hold3/xformers-pypi.json"
    doc = json.loads(path.read_text())
    assert "xformers.no-operator" in [f["id"] for f in doc["findings"]]  # what that run said
    report = evaluate(doc["facts"], Context(selected=["xformers"]))
    ids = [f.id for f in report.findings if f.backend == "xformers"]
    assert ids == ["xformers.built-for-other-torch"], ids
    assert report.backends["xformers"]["status"] == "broken"
