"""The rv14 audit's rows left for rv15 (benchmarks/results/new-user-s11.md, rows 9, 10, 11, 14): each as a test that
failed before the fix. A printed command installs what the finding needs, pinned, in the env it names."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from attn_doctor import advice
from attn_doctor.knowledge import entries, tailor
from attn_doctor.knowledge import attribution as _attribution
from attn_doctor.knowledge.attribution import _toml
from attn_doctor.torchpin import TRITON_PIN, TRITON_READ, expand_snippets, triton_install

from tests.test_safe_advice_rv14 import _env, _into, _runnable


def _code(line: str) -> str:
    return line.split("   # ", 1)[0]


# ---- row 9: sdpa.no-flash-build names a CUDA build of the same release, never the CPU build installed --------------

def _versions(torch, index=None, cuda=None):
    return tailor.Versions(torch, index or tailor.index_of(torch, cuda), "test")


@pytest.mark.parametrize("torch", ["2.13.0+cpu", "2.9.1+cpu", "2.5.0+cpu"])
def test_no_flash_build_on_cpu_torch_names_a_cuda_build_of_that_release(torch):
    fix = tailor.tailor(entries()["sdpa.no-flash-build"].plain_fix, _versions(torch), "sdpa")
    code = _code(_runnable(fix)[0])
    rel = torch.split("+")[0]
    assert "+cpu" not in code and f"torch=={rel}+" in code, fix
    assert "${CU:?" in code, fix  # the CUDA tag the driver takes: a placeholder bash refuses to run unset
    assert "--force-reinstall" not in code and "--no-deps" not in code, fix  # a switch pulls the CUDA build's libraries


def test_no_flash_build_in_a_cpu_env_named_by_python(tmp_path):
    from tests import test_safe_advice_rv14 as rv14

    root = tmp_path / "env"
    import venv

    venv.EnvBuilder(with_pip=False).create(root)
    site = next((root / "lib").glob("python3*/site-packages"))
    rv14._dist(site, "torch", "2.13.0+cpu", "torch")
    from attn_doctor import explain

    env = explain.environment(str(root / "bin" / "python"), None)
    fix = tailor.tailor(entries()["sdpa.no-flash-build"].plain_fix, env, "sdpa")
    lines = _into(fix, env.target.shown, "torch==")
    assert lines and all("+cpu" not in _code(ln) and "torch==2.13.0+" in ln for ln in lines), fix


def test_no_flash_build_on_an_official_cuda_build_says_a_reinstall_adds_nothing():
    fix = tailor.tailor(entries()["sdpa.no-flash-build"].plain_fix, _versions("2.11.0+cu130"), "sdpa")
    assert not [ln for ln in _runnable(fix) if "torch==" in _code(ln)], fix
    assert "official CUDA build already" in fix, fix


def test_no_flash_build_source_build_gets_the_release_of_its_cuda():
    fix = tailor.tailor(entries()["sdpa.no-flash-build"].plain_fix, _versions("2.6.0a0+git1eba9b3", cuda="12.6"), "sdpa")
    assert "'torch==2.6.0+cu126'" in _code(_runnable(fix)[0]), fix


@pytest.mark.parametrize("v", [tailor.Versions(), _versions("2.6.0+rocm6.2")])
def test_no_flash_build_unknown_or_rocm_keeps_the_placeholder(v):
    fix = tailor.tailor(entries()["sdpa.no-flash-build"].plain_fix, v, "sdpa")
    assert "${TORCH_CUDA_BUILD:?" in fix and "cu" not in _code(fix).split("TORCH_CUDA_BUILD", 1)[0], fix


def test_the_other_torch_placeholder_still_reinstalls_the_installed_build():
    # near miss: the torch {reinstall} of attribution.toml keeps the installed build (what a corrupt install needs)
    line = 'pip install --force-reinstall --no-deps "torch==${TORCH:?your torch version, as pip show torch prints it}"'
    assert "'torch==2.13.0+cpu'" in tailor.tailor(line, _versions("2.13.0+cpu"), "sdpa")


# ---- row 10: a newer FA2 is pinned to the release that has the feature, never `-U` to the newest --------------------

@pytest.mark.parametrize("eid,floor", [("fa2.bwd-head-dim-gpu", "2.5.5"), ("fa2.too-old-for-feature", "2.6")])
def test_fa2_feature_fix_is_a_floor_not_an_upgrade(eid, floor):
    fix = entries()[eid].plain_fix
    code = _code(fix)
    assert not re.search(r"(?<!\S)(-U|--upgrade)(?!\S)", code), fix
    assert f"'flash-attn>={floor},<3'" in code and "--no-build-isolation" in code, fix
    assert "flash-attn-4" not in code


def test_fa2_arch_check_comment_names_no_unpinned_upgrade():
    assert "-U flash-attn" not in entries()["fa2.arch-check"].plain_fix


@pytest.mark.parametrize("eid", ["fa2.bwd-head-dim-gpu", "fa2.too-old-for-feature"])
def test_fa2_feature_floor_refused_over_flash_attn_4(tmp_path, eid):
    """advice.harms knows FA2 over FA4's namespace: the pinned line is still refused there, as a probed check says
    and as explain --python over an env that holds flash-attn-4 says."""
    sit = advice.Situation(installed={"flash-attn-4": "4.0.0b36", "torch": "2.11.0"}, working={"cute", "sdpa"},
                           torch="2.11.0+cu130")
    assert advice.harms(_code(entries()[eid].plain_fix), sit)
    env = _env(tmp_path, ("flash-attn-4", "4.0.0b36", "flash_attn"))
    fix = tailor.tailor(entries()[eid].plain_fix, env, "fa2")
    assert not _into(fix, env.target.shown, "flash-attn>="), fix


def test_fa2_floor_met_moves_nothing():
    sit = advice.Situation(installed={"flash-attn": "2.8.3", "torch": "2.8.0"}, working={"fa2", "sdpa"},
                           torch="2.8.0+cu128")
    assert advice.harms(_code(entries()["fa2.too-old-for-feature"].plain_fix), sit) == []


# ---- row 14: every fix that installs triton installs the release torch pins, written in one place --------------------

def _triton_installs():
    """Every knowledge fix (entries' fix/general_fix, attribution's wordings) whose command installs triton."""
    out = []
    for e in entries().values():
        for f in (e.fix, e.general_fix):
            if f and re.search(r"pip install[^#\n]*\btriton\b(?!-windows)", _code(f)):
                out.append((e.id, f))
    for key, by in (_toml().get("wording") or {}).items():
        for backend, w in by.items():
            f = w.get("fix") if isinstance(w, dict) else None
            if f and re.search(r"pip install[^#\n]*\btriton\b(?!-windows)", _code(f)):
                out.append((f"{key}/{backend}", f))
    return out


def test_triton_installs_found():
    ids = {i for i, _ in _triton_installs()}
    assert {"flex.no-triton", "triton.unknown-arch", "triton.lowering-failed",
            "flex.no-triton/sage", "flex.no-triton/xformers"} <= ids, ids


@pytest.mark.parametrize("where,fix", _triton_installs(), ids=[w for w, _ in _triton_installs()])
def test_every_triton_install_is_torchs_pin(where, fix):
    code = _code(fix)
    if "{pin}" in code:  # the check's own line: the pin read from the facts (checks/flex.triton_pin)
        return
    # rv16: `pin="$(python -c READ)" && pip install "triton==$pin"` (tests/test_safe_advice_rv16.py: no pin, no pip)
    assert TRITON_READ in code and '"triton==$pin"' in code, (where, fix)
    assert not re.search(r"install\s+(?:-U\s+|--upgrade\s+)?triton(?:\s|$)", code), (where, fix)


def test_attributed_triton_wordings_are_torchs_pin():
    for backend in ("sage", "xformers"):
        _, fix = _attribution.wording(entries()["flex.no-triton"], backend)
        assert fix.startswith(triton_install("python -m pip")), fix


def test_triton_pin_reads_torchs_requirement():
    """The snippet, run by a Python whose torch pins triton, prints that pin; without one it prints nothing (so pip
    is handed `triton==` and refuses)."""
    code = TRITON_READ.split(" -c ", 1)[1].strip("'")
    fake = ("import importlib.metadata as m\n"
            "m.requires = lambda name: ['filelock', 'triton==3.6.0; platform_system == \"Linux\"', 'sympy>=1.13']\n")
    out = subprocess.run([sys.executable, "-c", fake + code], capture_output=True, text=True)
    assert out.stdout.strip() == "3.6.0", out
    none = subprocess.run([sys.executable, "-c", "import importlib.metadata as m\nm.requires = lambda n: None\n" + code],
                          capture_output=True, text=True)
    assert none.stdout.strip() == "" and none.returncode != 0  # rv16: and it fails, so pip is not run


def test_snippet_markers_expand_everywhere():
    assert expand_snippets({"a": ["x; pip install @TRITON_PIN@"]}) == {"a": [f"x; {TRITON_PIN}"]}
    for e in entries().values():
        for f in (e.fix, e.general_fix, e.title):
            assert "@TRITON_PIN@" not in (f or ""), e.id
    assert "@TRITON_PIN@" not in repr(_toml())


def test_triton_pin_aimed_at_the_env(tmp_path):
    env = _env(tmp_path)
    fix = tailor.tailor(entries()["flex.no-triton"].plain_fix, env, "flex")
    py = env.target.shown
    line = _runnable(fix)[0]
    assert f'pin="$({py} -c ' in line and f'&& {py} -m pip install "triton==$pin"' in line, fix  # the pin read there too


# ---- row 11: the user's own `python train.py` runs with the --python interpreter ---------------------------------------

@pytest.mark.parametrize("line,want", [
    ("CUDA_LAUNCH_BLOCKING=1 python train.py 2>&1 | attn-doctor explain -", "CUDA_LAUNCH_BLOCKING=1 {py} train.py"),
    ("python main.py --use-pytorch-cross-attention", "{py} main.py --use"),
    ("TRITON_DEBUG=1 python3 scripts/run_sft.py --cfg x.yaml", "TRITON_DEBUG=1 {py} scripts/run_sft.py"),
    ("python ~/jobs/train_lora.py", "{py} ~/jobs/train_lora.py"),
    ("python -c 'import torch'", "{py} -c 'import torch'"),  # as before
])
def test_user_job_line_runs_in_the_named_env(tmp_path, line, want):
    env = _env(tmp_path)
    py = env.target.shown
    out = advice.aim(line, env.target)
    assert want.format(py=py) in out, out


@pytest.mark.parametrize("line", [
    "python_embeded\\python.exe -m pip install triton",  # ComfyUI portable's own interpreter: kept
    "cat python.pyc",
    "see mypython train.py",
    "python setup.pyx",
])
def test_near_misses_keep_their_words(tmp_path, line):
    env = _env(tmp_path)
    assert advice.aim(line, env.target) == line


def test_generic_target_leaves_the_job_line():
    from attn_doctor.target import GENERIC

    assert advice.aim("python train.py", GENERIC) == "python train.py"
