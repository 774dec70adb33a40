"""facts/packages.py against real *.dist-info directories written in tmp_path (see fakesite.py),
then the checks on what it read. sys.path is pointed at the fake site directories: the collector
reads the disk exactly as it does for a user."""

from __future__ import annotations

import sys

import pytest

import fakefacts as ff
from attn_doctor.facts import installed_backends, packages
from fakesite import FA2_RECORD, FA4_RECORD, write_dist, write_files


@pytest.fixture
def site(tmp_path, monkeypatch):
    """An empty 'site-packages' that is the only entry of sys.path while the test collects."""
    s = tmp_path / "site-packages"
    s.mkdir()
    monkeypatch.setattr(sys, "path", [str(s)])
    return s


def collect_into_gpu_box(pk: dict) -> dict:
    """FAKES everything but the packages: the healthy H200 box with this collector's answer."""
    f = ff.gpu_box()
    torch_dist = f["packages"]["stack"]["torch"]
    versions = dict(f["packages"]["versions"])
    f["packages"] = pk
    pk["stack"].setdefault("torch", torch_dist)  # torch itself is faked (not installed in the fake site)
    for k, v in versions.items():
        pk["versions"].setdefault(k, v)
    for name, info in installed_backends(pk).items():
        if info["installed"]:  # FAKES a clean import probe for what the fake site installs
            info.update(probe=ff.ok_import(), run=ff.run_ok())
        f["imports"][name] = info
    return f


def test_reads_name_version_requires(site):
    write_dist(site, "flash-attn-4", "4.0.0b36")
    pk = packages.collect()
    d = pk["stack"]["flash-attn-4"]
    assert (d["name"], d["version"]) == ("flash-attn-4", "4.0.0b36")
    assert "quack-kernels>=0.5.3" in d["requires"] and d["installer"] == "pip"
    assert "error" not in d
    assert pk["versions"]["flash-attn-4"] == "4.0.0b36"


@pytest.mark.parametrize("metadata", [
    b"\xff\xfe\x00not utf-8\x80",  # binary garbage
    b"",  # empty file (an interrupted install)
    b"Metadata-Version: 2.1\nName: quack-kernels\n",  # no Version header
], ids=["binary", "empty", "no-version"])
def test_corrupt_metadata_is_recorded_and_reported(site, metadata):
    write_dist(site, "quack-kernels", "0.6.5", metadata=metadata)
    pk = packages.collect()
    d = pk["stack"]["quack-kernels"]
    assert d.get("error"), d
    report = ff.check(collect_into_gpu_box(pk))
    hits = [f for f in report.findings if f.id == "versions.metadata-unreadable"]
    assert hits and hits[0].params["dist"] == "quack-kernels"


def test_missing_metadata_file(site):
    d = write_dist(site, "quack-kernels", "0.6.5")
    (d / "METADATA").unlink()
    assert packages.collect()["stack"]["quack-kernels"].get("error")


def test_unreadable_metadata_keeps_the_version_from_the_directory_name(site):
    """A broken METADATA must not make a dependency look uninstalled (no false requirement-missing)."""
    write_dist(site, "flash-attn-4", "4.0.0b36")
    write_dist(site, "quack-kernels", "0.6.5", metadata=b"")
    for name, v in (("nvidia-cutlass-dsl", "4.8.1"), ("nvidia-cutlass-dsl-libs-base", "4.8.1"),
                    ("nvidia-cutlass-dsl-libs-cu13", "4.8.1"), ("einops", "0.8.1"), ("typing-extensions", "4.15.0"),
                    ("apache-tvm-ffi", "0.1.15.post2"), ("torch-c-dlpack-ext", "0.1.5")):
        write_dist(site, name, v, requires=[])
    report = ff.check(collect_into_gpu_box(packages.collect()))
    ids = [f.id for f in report.findings if f.section == "versions"]
    assert ids == ["versions.metadata-unreadable"], [(f.id, f.title) for f in report.findings]


def test_duplicates_on_two_path_entries(tmp_path, monkeypatch):
    """triton in the venv and an older one in a --target dir; sys.path order decides which is used."""
    venv, target = tmp_path / "venv-site", tmp_path / "target"
    write_dist(venv, "triton", "3.6.0", requires=[])
    write_dist(target, "triton", "3.4.0", requires=[])
    monkeypatch.setattr(sys, "path", [str(target), str(venv)])
    pk = packages.collect()
    assert pk["stack"]["triton"]["version"] == "3.4.0"  # the first on sys.path, as imports see it
    assert pk["duplicates"]["triton"] == [{"location": str(target), "version": "3.4.0"},
                                          {"location": str(venv), "version": "3.6.0"}]
    report = ff.check(collect_into_gpu_box(pk))
    dup = [f for f in report.findings if f.id == "versions.duplicate"]
    assert dup and str(venv) in dup[0].title and "3.4.0" in dup[0].title


def _hash(text: str) -> str:
    import base64
    import hashlib
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()


# FAKED contents, real layout: both wheels list flash_attn/cute/__init__.py and interface.py; FA4 has more.
FA4_FILES = {"flash_attn/cute/__init__.py": "from .interface import flash_attn_func\n",
             "flash_attn/cute/interface.py": "def flash_attn_func(): ...  # FA4\n",
             "flash_attn/cute/flash_fwd_sm90.py": "# FA4 only\n"}
FA2_FILES = {"flash_attn/__init__.py": "__version__ = '2.8.3'\n", "flash_attn/flash_attn_interface.py": "# FA2\n",
             "flash_attn/cute/__init__.py": "# FA2's old cute\n", "flash_attn/cute/interface.py": "# FA2's old cute\n"}


def _install(site, name, version, files):
    """What pip leaves: the files written, and a RECORD with their real hashes."""
    write_files(site, files)
    write_dist(site, name, version, requires=[], record=[f"{k},{_hash(v)},{len(v)}" for k, v in files.items()])


def test_fa2_and_fa4_share_flash_attn_cute(site):
    """Both wheels list flash_attn/cute/ in their RECORD: the same directory, two owners."""
    write_dist(site, "flash-attn", "2.8.3", requires=["torch", "einops"], record=FA2_RECORD)
    write_dist(site, "flash-attn-4", "4.0.0b36", record=FA4_RECORD)
    write_files(site, {"flash_attn/__init__.py": "", "flash_attn/flash_attn_interface.py": "",
                       "flash_attn/cute/__init__.py": ""})
    pk = packages.collect()
    fa = pk["flash_attn"]
    assert fa["copies"] == [{"path": str(site / "flash_attn"), "has_init": True, "has_cute": True,
                             "has_fa2_interface": True}]
    assert fa["cute_owners"] == {"flash-attn": 3, "flash-attn-4": 5}
    inst = installed_backends(pk)
    assert inst["cute"]["installed"] and inst["fa2"]["installed"]


def test_fa2_installed_after_fa4_overwrote_the_shared_files(site):
    """Order A on the H100 (fixtures/gpu/h100-issue25/hold3/order-a.*): FA4, then FA2 over it."""
    _install(site, "flash-attn-4", "4.0.0b36", FA4_FILES)
    _install(site, "flash-attn", "2.8.3", FA2_FILES)  # the last install writes the shared files
    fa = packages.collect()["flash_attn"]
    assert fa["cute_shared"] == {"flash-attn-4": 0, "flash-attn": 2, "neither": 0, "missing": 0}
    assert fa["fa4_missing"]["count"] == 0
    pk = packages.collect()
    f = collect_into_gpu_box(pk)
    f["imports"]["cute"].update(probe=ff.failed_import(
        "AttributeError", "module 'cutlass.cute.core' has no attribute 'ThrMma'"), run=ff.run_ok())
    report = ff.check(f)
    ids = [x.id for x in report.findings]
    assert "cute.shadowed-by-fa2" in ids
    assert "cute.dsl-drift" not in ids and "import.failed" not in ids  # one cause, named once
    fix = next(x.fix for x in report.findings if x.id == "cute.shadowed-by-fa2")
    assert "--force-reinstall --no-deps 'flash-attn-4==4.0.0b36'" in fix and "uninstall" not in fix.split("#")[0]


def test_fa4_installed_after_fa2_is_a_note_not_an_error(site):
    """Order B on the H100: FA2, then FA4; both passed their smoke tests. The shared files are FA4's."""
    _install(site, "flash-attn", "2.8.3", FA2_FILES)
    _install(site, "flash-attn-4", "4.0.0b36", FA4_FILES)
    pk = packages.collect()
    assert pk["flash_attn"]["cute_shared"]["flash-attn-4"] == 2
    report = ff.check(collect_into_gpu_box(pk))
    got = {x.id: x.severity for x in report.findings if x.id.startswith("cute.")}
    assert got == {"cute.shares-files-with-fa2": "info"}


def test_uninstalling_fa2_deleted_fa4s_files(site):
    """On the H100: FA2, FA4, then `pip uninstall flash-attn`: FA4's metadata stays, its shared files go."""
    _install(site, "flash-attn-4", "4.0.0b36", FA4_FILES)
    for rel in ("flash_attn/cute/__init__.py", "flash_attn/cute/interface.py"):
        (site / rel).unlink()
    pk = packages.collect()
    assert pk["flash_attn"]["fa4_missing"] == {"count": 2, "of": 3, "example": "flash_attn/cute/__init__.py"}
    f = collect_into_gpu_box(pk)
    f["imports"]["cute"].update(probe=ff.failed_import(
        "ImportError", "cannot import name 'flash_attn_func' from 'flash_attn.cute' (unknown location)"),
        run=ff.run_ok())
    report = ff.check(f)
    ids = [x.id for x in report.findings]
    assert "cute.files-missing" in ids and "cute.import-name" not in ids
    fix = next(x.fix for x in report.findings if x.id == "cute.files-missing")
    assert "--force-reinstall --no-deps 'flash-attn-4==4.0.0b36'" in fix


def test_fa4_with_all_its_files_has_no_finding(site):
    _install(site, "flash-attn-4", "4.0.0b36", FA4_FILES)
    pk = packages.collect()
    assert pk["flash_attn"]["fa4_missing"]["count"] == 0 and "cute_shared" not in pk["flash_attn"]
    report = ff.check(collect_into_gpu_box(pk))
    assert not [x.id for x in report.findings if x.id.startswith("cute.")]


def test_fa4_alone_is_a_namespace_package(site):
    """flash-attn-4 ships flash_attn/cute/ without flash_attn/__init__.py: FA2 is not 'installed'."""
    write_dist(site, "flash-attn-4", "4.0.0b36", record=FA4_RECORD)
    write_files(site, {"flash_attn/cute/__init__.py": ""})
    pk = packages.collect()
    assert pk["flash_attn"]["copies"][0]["has_init"] is False
    assert pk["flash_attn"]["cute_owners"] == {"flash-attn-4": 5}
    inst = installed_backends(pk)
    assert inst["cute"]["installed"] and inst["cute"]["dist"] == "flash-attn-4"
    assert not inst["fa2"]["installed"]


def test_quack_guide_pin_from_real_requires(site):
    """quack-kernels 0.2.4 + flash-attn-4 4.0.0b36 with their real Requires-Dist, the rest of the FA4
    stack at the versions the H200 ran: the guide's pin is named, and its own cutlass pin is not
    reported separately (one root cause)."""
    write_dist(site, "flash-attn-4", "4.0.0b36", record=FA4_RECORD)
    write_dist(site, "quack-kernels", "0.2.4")
    write_dist(site, "nvidia-cutlass-dsl", "4.8.1")
    for name, v in (("nvidia-cutlass-dsl-libs-base", "4.8.1"), ("nvidia-cutlass-dsl-libs-cu13", "4.8.1"),
                    ("einops", "0.8.1"), ("typing-extensions", "4.15.0"), ("apache-tvm-ffi", "0.1.15.post2"),
                    ("torch-c-dlpack-ext", "0.1.5")):
        write_dist(site, name, v, requires=[])
    write_files(site, {"flash_attn/cute/__init__.py": ""})
    report = ff.check(collect_into_gpu_box(packages.collect()))
    versions = [f for f in report.findings if f.section == "versions"]
    assert [f.id for f in versions] == ["cute.quack-guide-pin"], [(f.id, f.title) for f in versions]
    f = versions[0]
    assert "quack-kernels 0.2.4" in f.title and "quack-kernels>=0.5.3" in f.title
    assert f.fix == "/venv/bin/python -m pip install 'quack-kernels>=0.5.3'"  # aimed at the checked interpreter


def test_cutlass_dsl_installed_with_pip_target(tmp_path, monkeypatch):
    """nvidia-cutlass-dsl in a --target dir on sys.path: its .pth is there but never processed."""
    target = tmp_path / "deps"
    write_dist(target, "nvidia-cutlass-dsl", "4.8.1")
    write_files(target, {
        "nvidia_cutlass_dsl_packages.pth": "import sys, os, nvidia_cutlass_dsl; sys.path.insert(0, "
                                           "os.path.join(nvidia_cutlass_dsl.__path__[0], 'dsl_packages'))\n",
        "nvidia_cutlass_dsl/__init__.py": "",
        "nvidia_cutlass_dsl/dsl_packages/cutlass/__init__.py": ""})
    monkeypatch.setattr(sys, "path", [str(target)])
    c = packages.collect()["cutlass"]
    assert c["installed"] and c["location"] == str(target)
    assert c["pth_file"] == str(target / "nvidia_cutlass_dsl_packages.pth")
    assert c["location_is_site_dir"] is False
    assert c["dsl_packages"] == str(target / "nvidia_cutlass_dsl" / "dsl_packages")
    assert c["cutlass_on_path"] is False


def test_fa2_build_tag_from_direct_url(site):
    url = ("https://github.com/Dao-AILab/flash-attention/releases/download/v2.8.3/"
           "flash_attn-2.8.3+cu12torch2.6cxx11abiFALSE-cp312-cp312-linux_x86_64.whl")
    write_dist(site, "flash-attn", "2.8.3", requires=["torch", "einops"], direct_url=url)
    d = packages.collect()["stack"]["flash-attn"]
    assert d["direct_url"] == url
    assert d["build_tag"] == {"cuda": "12", "torch": "2.6", "cxx11abi": False}


def test_xformers_cpp_lib_json(site):
    """xformers records the torch it was built for in cpp_lib.json (the real 0.0.35 wheel's content)."""
    write_dist(site, "xformers", "0.0.35")
    write_files(site, {"xformers/__init__.py": "", "xformers/cpp_lib.json": (
        '{"version": {"cuda": 1208, "hip": null, "torch": "2.10.0+cu128", "python": "3.10.19"}, '
        '"env": {"TORCH_CUDA_ARCH_LIST": "7.5 8.0+PTX 8.0 9.0a"}}')})
    b = packages.collect()["xformers_build"]
    assert b == {"torch": "2.10.0+cu128", "cuda": 1208, "python": "3.10.19", "arch_list": "7.5 8.0+PTX 8.0 9.0a"}


def test_the_real_environment_collects():
    """REAL: this machine's sys.path; torch is found from its metadata, nothing is imported."""
    from importlib import metadata

    try:
        metadata.version("torch")
    except metadata.PackageNotFoundError:
        pytest.skip("torch is not installed in this environment")
    pk = packages.collect()
    assert "torch" in pk["stack"] and pk["stack"]["torch"]["version"]


# FAKED sources, in the shape of the real ones: torch 2.11/2.13's torch/nn/attention/_fa4.py unpacks
# `out, lse = module._flash_attn_fwd(...)`; flash-attn-4 4.0.0b36's _flash_attn_fwd returns five values
# (`return out, lse, p, row_max, o_lo`, read from the wheel 2026-11-25), with a nested helper that returns two.
TORCH_FA4 = "def _fa4_run_forward(module, q):\n    out, lse = module._flash_attn_fwd(q, return_lse=True)\n    return out, lse\n"
FA4_IFACE = ("def _flash_attn_fwd(q, return_lse=False):\n    def helper():\n        return 1, 2\n"
             "    if q is None:\n        return q, None, None, None, None\n    return q, 1, 2, 3, 4\n")


@pytest.mark.parametrize("fa4_src,fires", [(FA4_IFACE, True),
                                           ("def _flash_attn_fwd(q):\n    return q, None\n", False),
                                           (None, False)])
def test_sdpa_fa4_route_read_from_both_sources(site, fa4_src, fires):
    write_dist(site, "torch", "2.11.0", requires=[])
    write_files(site, {"torch/nn/attention/_fa4.py": TORCH_FA4})
    if fa4_src is not None:
        _install(site, "flash-attn-4", "4.0.0b36", {"flash_attn/cute/__init__.py": "", "flash_attn/cute/interface.py": fa4_src})
    pk = packages.collect()
    route = pk["fa4_route"]
    if fa4_src is None:
        assert route is None
    else:
        assert route["torch_unpacks"] == 2 and route["fa4_returns"] == ([5] if fires else [2])
    ids = [x.id for x in ff.check(collect_into_gpu_box(pk)).findings]
    assert ("sdpa.fa4-route-mismatch" in ids) is fires
