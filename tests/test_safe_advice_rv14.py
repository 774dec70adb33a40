"""The rv14 audit of every printed fix (benchmarks/results/new-user-s11.md): each defect it fixed, as a test that
failed before the fix. A printed command names the env it acts on and never uninstalls or overwrites what works."""

from __future__ import annotations

import venv

import pytest

from attn_doctor import advice
from attn_doctor.knowledge import entries, tailor
from attn_doctor.knowledge.attribution import rules


def _runnable(fix: str) -> list[str]:
    return [ln for ln in fix.split("\n") if ln.strip() and not ln.lstrip().startswith("#")]


def _dist(site, name: str, version: str, top: str | None = None, requires: tuple[str, ...] = ()) -> None:
    d = site / f"{name.replace('-', '_')}-{version}.dist-info"
    d.mkdir()
    d.joinpath("METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
                                      + "".join(f"Requires-Dist: {r}\n" for r in requires))
    d.joinpath("RECORD").write_text("")
    if top:
        (site / top).mkdir(exist_ok=True)
        (site / top / "__init__.py").write_text("")


def _env(tmp_path, *dists):
    """A throwaway venv holding only the metadata of `dists` ((name, version, top-level package), fakes) and torch's."""
    root = tmp_path / "env"
    venv.EnvBuilder(with_pip=False).create(root)
    site = next((root / "lib").glob("python3*/site-packages"))
    _dist(site, "torch", "2.8.0+cu128", "torch")
    for name, version, top in dists:
        _dist(site, name, version, top)
    from attn_doctor import explain

    return explain.environment(str(root / "bin" / "python"), None)


def _into(fix: str, python: str, *words: str) -> list[str]:
    """The runnable lines that act on the env `python` runs and contain every one of `words`."""
    return [ln for ln in _runnable(fix) if python in ln and all(w in ln for w in words)]


# explain --python reads the env's metadata only, so which backends work there is unknown: an installed backend's
# package is not removed, and torch is not moved under an installed compiled backend, as if nothing worked there
@pytest.mark.parametrize("dists", [[("xformers", "0.0.32.post2", "xformers")],
                                   [("flash_attn", "2.8.3", "flash_attn")]])
def test_explain_python_env_keeps_torch_under_installed_compiled_backend(tmp_path, dists):
    env = _env(tmp_path, *dists)
    py = env.target.shown
    for line in ("pip install --upgrade 'torch>=2.5'", "python -m pip install -U torch",
                 "pip install 'torch==2.9.1+cu130'"):
        fix = tailor.tailor(line, env, "flex")
        assert not _into(fix, py, "torch"), fix
        assert "not run here" in fix and "installed here" in fix, fix


def test_explain_python_env_keeps_installed_xformers(tmp_path):
    env = _env(tmp_path, ("xformers", "0.0.32.post2", "xformers"))
    e = entries()["xformers.fa4-namespace"]
    fix = tailor.tailor(e.plain_fix, env, "xformers")
    assert not _into(fix, env.target.shown, "uninstall"), fix
    assert "attn-doctor check --python" in fix  # says how to learn whether it works


def test_explain_python_env_near_misses(tmp_path):
    """Nothing of the kind installed: the same lines stay commands aimed at the env."""
    env = _env(tmp_path, ("einops", "0.8.1", "einops"))
    py = env.target.shown
    assert _into(tailor.tailor("pip install --upgrade 'torch>=2.5'", env, "flex"), py, "torch")
    assert _into(tailor.tailor("pip uninstall -y xformers", env, "xformers"), py, "uninstall")
    # the same torch, reinstalled: nothing moves
    assert _into(tailor.tailor("pip install --force-reinstall --no-deps 'torch==2.8.0+cu128'", env, "sdpa"), py, "torch")


def test_probed_situation_unchanged():
    """A check's statuses (probed) still decide alone: an installed backend that does not work may be removed."""
    sit = advice.Situation(installed={"xformers": "0.0.35", "torch": "2.10.0"}, working={"sdpa", "flex"},
                           torch="2.10.0+cu128")
    assert advice.harms("pip uninstall -y xformers", sit) == []
    assert advice.harms("pip install -U torch", sit) == []
    sit.working.add("xformers")
    assert advice.harms("pip uninstall -y xformers", sit)
    assert advice.harms("pip install -U torch", sit)


# a rebuild from source uninstalls nothing first, and never cds into a folder it did not clone or find
@pytest.mark.parametrize("backend", ["sage", "fa3"])
@pytest.mark.parametrize("key", ["reinstall", "build"])
def test_rebuild_words_clone_before_cd_and_uninstall_nothing(backend, key):
    cmd = rules().words[backend][key].split("   # ", 1)[0]
    assert "uninstall" not in cmd, cmd
    head, sep, _ = cmd.partition(" cd ")
    assert sep, cmd
    folder = cmd.split(" cd ", 1)[1].split()[0].split("/")[0]
    assert "git clone" in head and f"test -d {folder}" in head, cmd  # cloned unless a checkout is there


def _sit(working, installed, torch="2.11.0+cu130"):
    return advice.Situation(installed=dict(installed, torch=torch.split("+")[0]), working=set(working), torch=torch)


# SageAttention 2.x is a CUDA extension built against one torch: moving torch breaks it as it does FA2's and xformers'
def test_torch_move_under_working_sage2_refused():
    sit = _sit({"sdpa", "flex", "sage"}, {"sageattention": "2.2.0"})
    for line in ("pip install -U torch", "pip install 'torch==2.12.0'", "pip install --upgrade 'torch>=2.5'"):
        assert advice.harms(line, sit), line
    assert not advice.harms("pip install -U torch", _sit({"sdpa", "flex", "sage"}, {"sageattention": "1.0.6"}))


# a floor the installed torch already meets changes nothing; one it misses moves torch
def test_torch_floor_is_a_move_only_when_unmet():
    sit = _sit({"sdpa", "flex", "fa2"}, {"flash-attn": "2.8.3"})
    assert advice.harms("pip install 'torch>=2.5'", sit) == []
    assert advice.harms("pip install 'torch>=2.12'", sit)
    fix = entries()["flex.torch-too-old"].plain_fix
    assert "--upgrade" not in fix and "-U " not in fix, fix  # with --upgrade pip replaces a torch that meets the floor


# a Triton fix installs the release torch pins, never the newest (torch pins one exactly: a newer one breaks Inductor)
@pytest.mark.parametrize("eid", ["triton.unknown-arch", "triton.lowering-failed"])
def test_triton_fix_is_torchs_pin(eid):
    fix = entries()[eid].plain_fix
    code = fix.split("   # ", 1)[0]
    assert "--upgrade" not in code and " -U " not in code, fix
    assert 'requires("torch")' in code and "triton==" in code, fix


# a reinstall of an installed package with no version reinstalls the installed release, not the index's newest
def test_force_reinstall_pinned_to_installed_release():
    sit = _sit({"sdpa", "flex"}, {"flash-attn": "2.7.4.post1+cu12torch2.6cxx11abiFALSE"})
    for line in ("pip install --force-reinstall --no-deps --no-cache-dir flash-attn --no-build-isolation",
                 "MAX_JOBS=4 pip install --force-reinstall --no-deps --no-build-isolation flash-attn   # rebuild"):
        out = advice.safe(line, sit, None, "fa2")
        assert "'flash-attn==2.7.4.post1'" in out, out
    # near misses: not installed, already pinned, an upgrade, no env known
    assert "==" not in advice.safe("pip install --force-reinstall --no-deps flash-attn", _sit({"sdpa"}, {}), None)
    assert advice.safe("pip install --force-reinstall --no-deps 'flash-attn==2.8.3'", sit, None).count("==") == 1
    assert "==" not in advice.safe("pip install -U flash-attn --no-build-isolation", sit, None)
    assert "==" not in advice.safe("pip install --force-reinstall --no-deps flash-attn", None, None)


# a probe that changes directory runs in a subshell: the user's shell stays where it was
def test_probe_from_root_in_a_subshell():
    fix = entries()["fa2.no-extension"].plain_fix
    assert fix.startswith("(cd / && "), fix


def test_pin_installed_leaves_placeholder_words_alone():
    """`<a flash-attn Windows wheel built for ...>` is a placeholder's words, not requirements: nothing pinned in it."""
    sit = _sit({"sdpa", "flex"}, {"flash-attn": "2.8.3", "wheel": "0.45.1", "sageattention": "1.0.6"})
    for line in ("pip install --force-reinstall --no-deps <a flash-attn Windows wheel built for your Python, torch and CUDA>",
                 "pip install --force-reinstall --no-deps <a SageAttention Windows wheel built for your torch>   # x"):
        assert advice.pin_installed(line, sit) == line
    # a package no backend needs is left as written
    assert advice.pin_installed("pip install --force-reinstall --no-deps wheel", sit) == \
        "pip install --force-reinstall --no-deps wheel"
