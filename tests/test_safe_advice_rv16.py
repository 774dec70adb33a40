"""What the safe-advice audit left (benchmarks/results/new-user-s11.md, helper rv16, session 12): each as a test that
failed before the change.

1. The Triton install (torchpin.TRITON_PIN): where the env's torch pins no triton, pip was still run, with `triton==`
   after a StopIteration traceback. Now the pin is read first and pip runs only with one.
2. sage.nvcc-at-runtime (row 13): `pip install -U 'sageattention>=2.2'` named what pip's index did not have; the fix
   now builds the 2.2.0 tag from source (clone first), and where the env is known, says what its SageAttention is.
3. The cache deletions (row 12): every variable an `rm -rf` path is built from is `${VAR:?}`-guarded, so an unset or
   empty HOME or USER stops the line instead of deleting another folder.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from attn_doctor import advice
from attn_doctor.knowledge import attribution as _attribution
from attn_doctor.knowledge import entries, tailor
from attn_doctor.knowledge.attribution import _toml
from attn_doctor.torchpin import TRITON_READ, expand_snippets, triton_install, words

from tests.test_safe_advice_rv14 import _dist, _env, _into, _runnable


def _code(line: str) -> str:
    return line.split("   # ", 1)[0]


# ---- 1. the Triton pin: no pin, no pip ----------------------------------------------------------------------------------

# A fake `python` on PATH: the test's own interpreter, with a sitecustomize (on PYTHONPATH) that replaces
# importlib.metadata.requires("torch") by what FAKE_TORCH_REQUIRES says: "|"-separated requirements, NONE (a torch
# without requirements: None), MISSING (no torch: PackageNotFoundError). A fake `pip` writes its arguments to PIPLOG.
_SITE = '''import importlib.metadata as m, os
_r = os.environ.get("FAKE_TORCH_REQUIRES")
_real = m.requires
def _requires(name):
    if name != "torch":
        return _real(name)
    if _r == "MISSING":
        raise m.PackageNotFoundError(name)
    return None if _r == "NONE" else [x for x in _r.split("|") if x]
if _r is not None:
    m.requires = _requires
'''
SHELLS = [sh for sh in ("bash", "zsh", "sh") if shutil.which(sh)]
PINNED = 'filelock|triton==3.6.0; platform_system == "Linux" and platform_machine == "x86_64"|sympy>=1.13'
NO_PIN = {"cpu build": "filelock|sympy>=1.13|networkx", "rocm build": "filelock|pytorch-triton-rocm==3.5.1",
          "xpu build": "filelock|pytorch-triton-xpu==3.5.0", "no requirements": "NONE", "no torch": "MISSING"}


@pytest.fixture(scope="module")
def fake_bin(tmp_path_factory):
    d = tmp_path_factory.mktemp("fakebin")
    (d / "sitecustomize.py").write_text(_SITE)
    (d / "python").write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    (d / "pip").write_text('#!/bin/sh\necho "$*" >> "$PIPLOG"\n')
    (d / "python").chmod(0o755)
    (d / "pip").chmod(0o755)
    return d


def _run(line: str, shell: str, requires: str, fake_bin: Path, tmp_path: Path):
    log = tmp_path / f"pip-{shell}.log"
    env = {"PATH": f"{fake_bin}:/usr/bin:/bin", "PYTHONPATH": str(fake_bin), "PIPLOG": str(log),
           "FAKE_TORCH_REQUIRES": requires, "HOME": str(tmp_path)}
    r = subprocess.run([shell, "-c", line], env=env, capture_output=True, text=True, timeout=60)
    return r, (log.read_text().splitlines() if log.exists() else [])


def _triton_lines():
    """The knowledge lines that install triton, as users get them: flex.no-triton's general fix (entries' loader) and
    attribution.toml's sage wording (attribution's loader, `python -m pip`)."""
    _, attributed = _attribution.wording(entries()["flex.no-triton"], "sage")
    return {"entries": _code(entries()["flex.no-triton"].general_fix), "attribution": _code(attributed)}


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("where", ["entries", "attribution"])
def test_triton_install_runs_pip_with_torchs_pin(fake_bin, tmp_path, shell, where):
    line = _triton_lines()[where].replace("python -m pip", "pip")  # the fake pip stands for both forms
    r, log = _run(line, shell, PINNED, fake_bin, tmp_path)
    assert r.returncode == 0 and log == ["install triton==3.6.0"], (r, log)


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("case", sorted(NO_PIN))
def test_no_triton_pin_runs_no_pip_and_says_so_in_one_line(fake_bin, tmp_path, shell, case):
    line = _triton_lines()["entries"]
    r, log = _run(line, shell, NO_PIN[case], fake_bin, tmp_path)
    assert log == [], f"pip ran: {log}"  # before: `pip install triton==`, after a StopIteration traceback
    assert r.returncode != 0
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in r.stderr, r.stderr
    assert "pins no triton" in err[0] and "pip is not run" in err[0], err


def test_triton_pin_is_one_line_both_loaders_expand_alike():
    lines = _triton_lines()
    assert lines["entries"].startswith(triton_install("pip")), lines
    assert lines["attribution"].startswith(triton_install("python -m pip")), lines
    for line in lines.values():
        assert "\n" not in line and line.count(TRITON_READ) == 1
        assert subprocess.run(["bash", "-n"], input=line, text=True).returncode == 0
    assert "@TRITON_PIN@" not in repr(_toml())


def test_triton_read_stays_quotable():
    code = TRITON_READ.split(" -c ", 1)[1]
    assert code.startswith("'") and code.endswith("'") and code.count("'") == 2
    assert not set(code) & set("!#$`\\\n")  # history expansion, a comment, the shell's own expansions
    t = words()["snippets"]["TRITON_PIN"]
    assert "MESSAGE" in t["read"] and t["message"] in code


@pytest.mark.parametrize("text", ["pip install -U @TRITON_PIN@", "see @TRITON_PIN@", "uv add @TRITON_PIN@"])
def test_triton_marker_elsewhere_is_refused(text):
    with pytest.raises(ValueError):
        expand_snippets({"fix": text})


@pytest.mark.parametrize("pip", ["pip", "pip3", "python -m pip", "python3 -m pip"])
def test_triton_marker_after_each_pip_form(pip):
    assert expand_snippets(f"{pip} install @TRITON_PIN@   # x") == triton_install(pip) + "   # x"


def test_triton_pin_aimed_at_an_env_reads_and_installs_there(tmp_path):
    env = _env(tmp_path)
    py = env.target.shown
    line = _runnable(tailor.tailor(entries()["flex.no-triton"].plain_fix, env, "flex"))[0]
    assert line.startswith(f'pin="$({py} -c ') and f'&& {py} -m pip install "triton==$pin"' in line, line


# ---- 2. sage.nvcc-at-runtime says what is true of the env's SageAttention -----------------------------------------------

NVCC = "sage.nvcc-at-runtime"


def test_nvcc_at_runtime_builds_the_2_2_tag_from_source():
    code = _code(entries()[NVCC].plain_fix)
    assert not re.search(r"(?:-U|--upgrade)\b", code) and "sageattention>=" not in code, code  # before: -U 'sageattention>=2.2'
    assert code.startswith("(test -d SageAttention || git clone https://github.com/thu-ml/SageAttention) && cd SageAttention")
    assert "git checkout v2.2.0" in code and "--no-deps" in code and "--no-build-isolation" in code, code
    assert "uninstall" not in code


def _sage_env(tmp_path, version):
    return _env(tmp_path, *([("sageattention", version, "sageattention")] if version else []))


@pytest.mark.parametrize("version", ["2.1.1", "2.1.1+cu128torch2.7.0", "2.1.1.post3"])
def test_nvcc_at_runtime_in_a_2_1_env_builds_2_2_there(tmp_path, version):
    env = _sage_env(tmp_path, version)
    fix = tailor.tailor(entries()[NVCC].plain_fix, env, "sage", NVCC)
    assert _into(fix, env.target.shown, "git checkout v2.2.0", "pip install --force-reinstall --no-deps ."), fix


@pytest.mark.parametrize("version,words", [
    ("1.0.6", "SageAttention 1.0.6 is SageAttention 1"),
    ("1.0.2", "SageAttention 1.0.2 is SageAttention 1"),
    ("2.0.1", "SageAttention 2.0.1 predates"),
    ("2.2.0", "SageAttention 2.2.0 no longer asks nvcc"),
    ("2.2.0.post3", "SageAttention 2.2.0.post3 no longer asks nvcc"),
    (None, "holds no sageattention"),
])
def test_nvcc_at_runtime_where_the_env_s_sage_runs_no_nvcc(tmp_path, version, words):
    env = _sage_env(tmp_path, version)
    fix = tailor.tailor(entries()[NVCC].plain_fix, env, "sage", NVCC)
    assert words in fix, fix
    assert "pip install" not in _code(fix) and "git clone" not in fix, fix  # nothing rebuilt where it would not help
    assert 'attn-doctor check --python "${APP_PYTHON:?' in fix  # another Python ran it: the check names its sage


def test_nvcc_at_runtime_through_explain_with_python(tmp_path):
    from attn_doctor import explain

    text = entries()[NVCC].examples[0]
    env = _sage_env(tmp_path, "1.0.6")
    found = [x for x in explain.examine(text, env).found if x.entry.id == NVCC]
    assert found and "is SageAttention 1" in found[0].fix, found
    assert "git clone" in (explain.examine(text).found[0].fix or "")  # env unknown: the entry's own fix


def test_by_installed_only_where_the_env_is_known():
    e = entries()[NVCC]
    assert tailor.tailor(e.plain_fix, tailor.Versions("2.7.0+cu128", "cu128", "the input"), "sage", NVCC) == \
        advice.aim(e.plain_fix, __import__("attn_doctor.target", fromlist=["GENERIC"]).GENERIC)
    other = entries()["sage.arch-kernel"].plain_fix  # another entry: no rule, its fix as before
    sit = advice.Situation(installed={"sageattention": "1.0.6"}, working=set(), torch="2.7.0+cu128", probed=False)
    v = tailor.Versions("2.7.0+cu128", "cu128", "test", None, sit)
    assert tailor.by_installed(other, v, "sage.arch-kernel") == other


def test_by_installed_rules_are_well_formed():
    from packaging.specifiers import SpecifierSet

    for rule in words()["by_installed"]:
        assert rule["entry"] in entries(), rule["entry"]
        for case in rule["cases"]:
            if case["releases"] != "none":
                SpecifierSet(case["releases"])
            assert "\n" not in case["fix"] and subprocess.run(
                ["bash", "-n"], input=case["fix"].replace("{version}", "1.0"), text=True).returncode == 0


# ---- 3. cache deletions: an unset HOME or USER stops the line ------------------------------------------------------------

CACHE_IDS = ("cache.stale", "triton.launcher-py-ssize-clean", "cache.rename-failed", "flex.cache-location")


def _rm_line(eid: str) -> str:
    """The fix's command part, with the rm inside a comment made runnable (flex.cache-location's)."""
    fix = entries()[eid].plain_fix
    if eid == "flex.cache-location":
        return "rm -rf " + fix.split("rm -rf ", 1)[1]
    return _code(fix)


RM_IDS = sorted({e.id for e in entries().values() for f in (e.fix, e.general_fix) if f and "rm -rf" in f})


def test_the_cache_deletions_are_found():
    assert set(CACHE_IDS) <= set(RM_IDS), RM_IDS


def _unbraced(text: str) -> str:
    while True:
        out = re.sub(r"\$\{[^{}]*\}", "", text)
        if out == text:
            return out
        text = out


def _rm(line: str, env: dict) -> tuple[subprocess.CompletedProcess, list[str]]:
    """The line run by bash with rm a function that prints what it was given (nothing is deleted)."""
    r = subprocess.run(["bash", "-c", 'rm() { printf "%s\\n" "$@"; }; ' + line], env=env, capture_output=True,
                       text=True, timeout=30)
    return r, [p for p in r.stdout.splitlines() if p != "-rf"]


@pytest.mark.parametrize("eid", RM_IDS)
def test_every_variable_in_an_rm_path_is_guarded(eid):
    """Every `rm -rf` an entry prints (a new one too): USER and HOME only as ${USER:?} / ${HOME:?}, no glob."""
    line = _rm_line(eid) if eid in CACHE_IDS else entries()[eid].plain_fix
    paths = _code(line.split("rm -rf ", 1)[1])
    # no variable bare ($USER, ${HOME}: before): each is ${VAR:?} (stops the line unset or empty) or ${VAR:-default}
    # (a cache variable: empty means its default folder, itself checked here)
    assert not re.search(r"\$[A-Za-z_]\w*|\$\{[A-Za-z_]\w*\}", paths), paths
    assert set(re.findall(r"\$\{[A-Za-z_]\w*(:[?-])", paths)) <= {":?", ":-"}, paths
    assert not re.search(r"[*?\[]", _unbraced(paths)), paths  # no glob outside the ${...} words


@pytest.mark.parametrize("eid", CACHE_IDS)
@pytest.mark.parametrize("unset", ["USER", "HOME"])
def test_an_unset_home_or_user_deletes_nothing(tmp_path, eid, unset):
    """With HOME or USER unset, a line whose path needs it stops before rm (before: rm got /tmp/torchinductor_ and
    /.triton/cache)."""
    line = _rm_line(eid)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "USER": "someone"}
    env.pop(unset)
    r, got = _rm(line, env)
    if (unset == "USER" and "torchinductor_" in line) or (unset == "HOME" and ".triton/cache" in line):
        assert got == [] and r.returncode != 0 and "parameter null or not set" in r.stderr, (line, r)
    assert not {"/tmp/torchinductor_", "/.triton/cache", "/", ""} & set(got), got


@pytest.mark.parametrize("eid", CACHE_IDS)
def test_with_everything_set_each_line_deletes_the_caches_it_names(tmp_path, eid):
    line = _rm_line(eid)
    r, got = _rm(line, {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "USER": "someone"})
    want = {"/tmp/torchinductor_someone"} | ({f"{tmp_path}/.triton/cache"} if "TRITON_CACHE_DIR:-" in line else set())
    assert r.returncode == 0 and set(got) == want, (line, got)
    assert "rebuil" in entries()[eid].plain_fix  # each says the cache comes back


def test_a_cache_variable_set_names_that_cache():
    r, got = _rm(_rm_line("cache.stale"), {"PATH": "/usr/bin:/bin", "HOME": "/h", "USER": "u",
                                           "TORCHINDUCTOR_CACHE_DIR": "/scratch/ind", "TRITON_CACHE_DIR": ""})
    assert set(got) == {"/scratch/ind", "/h/.triton/cache"}, got  # an empty one falls back to its default folder
