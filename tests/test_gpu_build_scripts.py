"""The helpers scripts/gpu/builds.sh runs on the GPU host, exercised on the CPU: fa2_reduce.py (cuts a
flash-attn 2.8.x sdist to some head dims), timed.py (per-file times from a ninja log) and pipindex.py
(an sdist from a simple index). The trees, logs and index pages here are SYNTHESISED in each test (the
72 source names setup.py lists, a HEADDIM_SWITCH of the same shape), not copied from the sdist; the real
sdist was reduced with the same script on 2026-11-25 (24 files; flash_api.cpp then references exactly the
24 kernel instantiations, checked with nm)."""

import hashlib
import importlib.util
import json
import re
from pathlib import Path

import pytest

GPU = Path(__file__).resolve().parents[1] / "scripts" / "gpu"


def load(name):
    spec = importlib.util.spec_from_file_location(name, GPU / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


fa2_reduce = load("fa2_reduce")


def fake_sdist(root: Path) -> Path:
    """A tree with what fa2_reduce edits: setup.py's 72-line sources list and static_switch.h's macro."""
    lines = ['        sources=[\n', '            "csrc/flash_attn/flash_api.cpp",\n']
    for k in ("fwd", "bwd", "fwd_split"):
        for causal in ("", "_causal"):
            for h in fa2_reduce.UPSTREAM:
                for dt in ("fp16", "bf16"):
                    lines.append(f'            "csrc/flash_attn/src/flash_{k}_hdim{h}_{dt}{causal}_sm80.cu",\n')
    lines.append("        ],\n")
    (root / "setup.py").write_text("import os\nsetup(\n" + "".join(lines) + ")\n")
    src = root / "csrc" / "flash_attn" / "src"
    src.mkdir(parents=True)
    body = ["#define HEADDIM_SWITCH(HEADDIM, ...) \\", "  [&] { \\"]
    for i, h in enumerate(fa2_reduce.UPSTREAM):
        body += [f"    {'if' if i == 0 else '} else if'} (HEADDIM <= {h}) {{ \\",
                 f"      constexpr static int kHeadDim = {h}; \\", "      return __VA_ARGS__(); \\"]
    body += ["    } \\", "  }()"]
    (src / "static_switch.h").write_text("#pragma once\n#define BOOL_SWITCH(C, N, ...) x\n\n" + "\n".join(body)
                                         + "\n\n#define FP16_SWITCH(C, ...) y\n")
    return root


def test_fa2_reduce_keeps_the_head_dims_asked_for(tmp_path):
    root = fake_sdist(tmp_path)
    r = fa2_reduce.reduce(root, [64, 128])
    assert len(r["files"]) == 24 and not r["already"]
    setup = (root / "setup.py").read_text()
    kept = re.findall(r"hdim(\d+)_", setup)
    assert sorted(set(kept)) == ["128", "64"] and len(kept) == 24
    assert "flash_api.cpp" in setup
    sw = (root / "csrc" / "flash_attn" / "src" / "static_switch.h").read_text()
    # the ranges upstream uses, so a head dim runs on the kernel of its own rounded size; the rest refused
    assert "HEADDIM > 32 && HEADDIM <= 64" in sw and "HEADDIM > 96 && HEADDIM <= 128" in sw
    assert "kHeadDim = 32" not in sw and "kHeadDim = 256" not in sw
    assert 'TORCH_CHECK(false, "This flash attention build does not support head dim "' in sw
    assert "BOOL_SWITCH" in sw and "FP16_SWITCH" in sw  # the other macros untouched
    assert sw.count("#define HEADDIM_SWITCH") == 1
    # every macro line but the last continues
    macro = sw[sw.index("#define HEADDIM_SWITCH"):sw.index("}()") + 3].splitlines()
    assert all(line.endswith("\\") for line in macro[:-1])
    # a second run changes nothing
    assert fa2_reduce.reduce(root, [64, 128])["already"]


def test_fa2_reduce_smallest_kept_dim_takes_everything_below(tmp_path):
    root = fake_sdist(tmp_path)
    fa2_reduce.reduce(root, [32, 128])
    sw = (root / "csrc" / "flash_attn" / "src" / "static_switch.h").read_text()
    assert "if (HEADDIM <= 32)" in sw and "HEADDIM > 96 && HEADDIM <= 128" in sw


@pytest.mark.parametrize("dims", [[], [80], [64, 160]])
def test_fa2_reduce_refuses_head_dims_flash_attn_has_no_kernel_for(tmp_path, dims):
    with pytest.raises(SystemExit, match="head dims must be among"):
        fa2_reduce.reduce(fake_sdist(tmp_path), dims)


def test_fa2_reduce_refuses_an_sdist_it_does_not_know(tmp_path):
    root = fake_sdist(tmp_path)
    setup = root / "setup.py"
    setup.write_text(setup.read_text().replace('"csrc/flash_attn/src/flash_bwd_hdim32_fp16_sm80.cu",\n', ""))
    before = setup.read_text()
    with pytest.raises(SystemExit, match="expected the 72 kernel files"):
        fa2_reduce.reduce(root, [128])
    assert setup.read_text() == before  # nothing written


def test_timed_reads_per_file_times_from_a_ninja_log(tmp_path):
    timed = load("timed")
    b = tmp_path / "build" / "temp.linux-x86_64-cpython-312"
    b.mkdir(parents=True)
    (b / ".ninja_log").write_text("# ninja log v5\n"
                                  "0\t52000\t0\t/x/flash_api.o\tabc\n"
                                  "10\t240010\t0\t/x/src/flash_bwd_hdim128_bf16_sm80.o\tdef\n"
                                  "5\t180005\t0\t/x/src/flash_fwd_hdim64_fp16_sm80.o\tghi\n"
                                  "5\t200005\t0\t/x/src/flash_fwd_hdim64_fp16_sm80.o\tghi\n")  # rebuilt: last wins
    rows = timed.ninja_times(str(tmp_path))
    assert [r["file"] for r in rows] == ["flash_api.o", "flash_fwd_hdim64_fp16_sm80.o", "flash_bwd_hdim128_bf16_sm80.o"]
    assert rows[1]["seconds"] == 200.0 and rows[2]["seconds"] == 240.0


def test_timed_runs_a_command_and_writes_its_summary(tmp_path):
    import subprocess
    import sys

    timed = load("timed")
    rc = subprocess.run([sys.executable, str(GPU / "timed.py"), "job", str(tmp_path), "--", sys.executable, "-c",
                         "print('hello'); import sys; sys.exit(3)"], env={"MAX_JOBS": "7", "PATH": "/usr/bin:/bin"}).returncode
    assert rc == 3
    s = json.loads((tmp_path / "job.json").read_text())
    assert s["rc"] == 3 and s["env"] == {"MAX_JOBS": "7"} and s["wall_s"] >= 0 and "cpu_min" in s
    log = (tmp_path / "job.log").read_text()
    assert " START " in log and re.search(r"Z hello\n", log) and log.rstrip().endswith("EXIT 3")
    assert timed.BUILD_VARS  # the variables it records


def test_pipindex_takes_the_sdist_the_index_lists_and_checks_its_hash(tmp_path, monkeypatch):
    pipindex = load("pipindex")
    files = tmp_path / "files"
    files.mkdir()
    data = b"fake sdist bytes"
    (files / "flash_attn-2.8.3.post2.tar.gz").write_bytes(data)
    sha = hashlib.sha256(data).hexdigest()
    page = tmp_path / "simple" / "flash-attn"
    page.mkdir(parents=True)
    (page / "index.html").write_text(
        f'<html><body><a href="../../files/flash_attn-2.8.3.post2-cp312-cp312-linux_x86_64.whl">w</a>'
        f'<a href="../../files/flash_attn-2.8.3.post2.tar.gz#sha256={sha}">flash_attn-2.8.3.post2.tar.gz</a></body></html>')
    # a file:// simple index, as pip's extra-index-url can be (urllib reads index.html for the directory)
    monkeypatch.setattr(pipindex, "index_urls", lambda: [f"file://{tmp_path}/simple"])
    monkeypatch.setattr(pipindex, "_get", lambda url, accept=None, timeout=0: (
        Path(url[len("file://"):].split("#")[0].rstrip("/") + ("/index.html" if url.endswith("/") else "")).read_bytes(),
        "text/html"))
    out = pipindex.sdist("flash-attn", "2.8.3.post2", str(tmp_path / "dest"))
    assert Path(out).read_bytes() == data
    (page / "index.html").write_text((page / "index.html").read_text().replace(sha, "0" * 64))
    Path(out).unlink()
    with pytest.raises(SystemExit, match="sha256"):
        pipindex.sdist("flash-attn", "2.8.3.post2", str(tmp_path / "dest"))
    with pytest.raises(SystemExit, match="no sdist"):
        pipindex.sdist("flash-attn", "9.9.9", str(tmp_path / "dest"))


def test_no_file_of_the_project_names_a_package_registry_host():
    """Printed commands and scripts use pip's configured index. Captured material (fixtures/: users'
    texts, reports of older versions) keeps what it said. The hosts are spelt in parts here so that
    this file does not name them either."""
    hosts = [".".join(p) for p in (("pypi", "org"), ("files", "pythonhosted", "org"), ("download", "pytorch", "org"))]
    root = GPU.parents[1]
    paths = [p for d in ("attn_doctor", "scripts", "tests", "benchmarks", "docs") for p in (root / d).rglob("*")
             if p.is_file() and p.suffix in (".py", ".sh", ".toml", ".md", ".txt", ".json", ".yaml")
             and "fixtures" not in p.parts and "__pycache__" not in p.parts]
    paths += [root / "README.md", root / "Makefile", root / "pyproject.toml"]
    bad = [str(p.relative_to(root)) for p in paths if any(h in p.read_text(errors="replace") for h in hosts)]
    assert bad == []
