"""Issue 20's round trip: a printed fix, applied, makes its finding go and breaks nothing.

Two halves:
1. A MODEL of the environment (facts, as tests/fakefacts.py fakes them): every finding of every
   scenario in tests/test_findings.py is rendered as `check` prints it, its fix and install plan
   are applied to the facts by `apply` below (export/unset change the env and the caches that
   follow from it; `<python> -m pip install/uninstall` change the installed packages and what imports),
   then the checks run again. The finding must be gone, and no error may be new. Lines the model
   cannot apply (read-only commands: nvidia-smi, pip show, ls, attn-doctor ...) are counted, not run.
2. REAL: env.sh written by `fix --write-env`, sourced by bash, then `check` again (the CPU machine's
   own caches); and a pip line printed for a venv that lacks a requirement, run for real against a
   wheel built here (no index is reached), then `check` again.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import re
import shlex
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import fakefacts as ff
from attn_doctor import advice
from attn_doctor.backends import SPECS

ROOT = Path(__file__).resolve().parents[1]


# ---- the model -----------------------------------------------------------------------------------

def _backend_of(dist: str) -> str | None:
    for name, spec in SPECS.items():
        if not spec.in_torch and dist in spec.dists:
            return name
    return None


def _version_of(req: str) -> tuple[str, str] | None:
    """(name, version) pip would install for a requirement as printed, or None (a path, a URL, a
    shell variable the user must set)."""
    name, r = advice._name(req)
    if not name or r is None:
        return None
    for s in r.specifier:
        if s.operator in ("==", ">=", "~=", "==="):
            return name, s.version.replace(".*", ".0")
    return name, "99.0"


def _env_words(words: list[str], env: dict) -> None:
    for w in words:
        if "=" in w:
            var, val = w.split("=", 1)
            env[var] = val.replace("$HOME", env.get("HOME", "/home/user"))


def apply(facts: dict, text: str) -> tuple[dict, int]:
    """The facts after the lines of `text` ran, as the model sees it; and how many lines it applied."""
    f = copy.deepcopy(facts)
    env = f.setdefault("env", {})
    applied = 0
    for line in re.sub(r" \\\n\s*", " ", text or "").split("\n"):
        code = advice._strip_comment(line).strip()
        if not code:
            continue
        for seg in re.split(r"&&|;", code):
            try:
                words = shlex.split(seg)
            except ValueError:
                continue
            if not words:
                continue
            if words[0] == "export":
                _env_words(words[1:], env)
                applied += 1
            elif words[0] == "unset":
                for w in words[1:]:
                    env.pop(w, None)
                applied += 1
        for p in advice.pip_commands(code):
            if p.sub not in ("install", "uninstall"):
                continue
            applied += 1
            for req in p.reqs:
                if p.sub == "uninstall":
                    name, _ = advice._name(req)
                    if name:
                        _uninstall(f, name)
                    continue
                got = _version_of(req)
                if got:
                    _install(f, *got)
                _, r = advice._name(req)
                for extra in (r.extras if r is not None else ()):  # nvidia-cutlass-dsl[cu13]
                    if r.name == "nvidia-cutlass-dsl" and got:
                        _install(f, f"nvidia-cutlass-dsl-libs-{extra}", got[1])
    _caches_follow_env(f, facts)
    _smoke_follows_settings(f, facts)
    run = (f.get("torch") or {}).get("run") or {}
    alloc = ("PYTORCH_ALLOC_CONF", "PYTORCH_CUDA_ALLOC_CONF")
    if run.get("signal") and any(env.get(v) != (facts.get("env") or {}).get(v) for v in alloc):
        # torch aborted on the allocator setting the fix changed: it imports now
        dist = f["torch"].get("dist") or {}
        smi = (f.get("driver") or {}).get("gpus") or []
        ff.set_torch(f, dist.get("version") or "2.11.0+cu130", cuda="13.0")
        if smi:
            ff.set_gpus(f, [(g["name"], tuple(g["capability"])) for g in smi])
        for info in (f.get("imports") or {}).values():  # their probes imported torch first, and died of it too
            if (info or {}).get("installed") and ((info.get("run") or {}).get("signal")):
                info.update(probe=ff.ok_import(), run=ff.run_ok())
    _gpus_follow_env(f)
    if (f.get("env") or {}).get("CC") != (facts.get("env") or {}).get("CC"):
        cc = f["env"].get("CC")
        f["host_cc"] = {"from": "CC" if cc else "PATH", "name": "gcc", "path": "/usr/bin/gcc"}
    return f, applied


def _install(f: dict, name: str, version: str) -> None:
    from attn_doctor.checks.backends import DEPENDENCY

    for info in (f.get("imports") or {}).values():  # an import that stopped at this package's module goes on
        err = ((info or {}).get("probe") or {}).get("error") or {}
        if err.get("type") == "ModuleNotFoundError" and DEPENDENCY.get((err.get("name") or "").split(".")[0]) == name:
            info["probe"] = ff.ok_import()
    if name == "torch":
        old = (f.get("torch") or {}).get("probe") or {}
        smi = (f.get("driver") or {}).get("gpus") or []
        if version == "99.0":  # unpinned: the CUDA build pip's index serves for this driver
            version, cuda = "2.11.0+cu130", "13.0"
        else:
            local = version.partition("+")[2]
            cuda = None if local == "cpu" else (f"{local[2:-1]}.{local[-1]}" if local.startswith("cu")
                                                else old.get("cuda") or "13.0")
        ff.set_torch(f, version, cuda=cuda)  # a CUDA build brings the triton it pins (set_torch's default)
        for info in (f.get("imports") or {}).values() if cuda else ():  # so an import that stopped at triton goes on
            err = ((info or {}).get("probe") or {}).get("error") or {}
            if err.get("type") == "ModuleNotFoundError" and (err.get("name") or "").split(".")[0] == "triton":
                info["probe"] = ff.ok_import()
        if smi and cuda:
            drv = f["driver"]
            ff.set_gpus(f, [(g["name"], tuple(g["capability"])) for g in smi], driver=drv.get("driver") or "580.159.04",
                        driver_cuda=drv.get("driver_cuda") or "13.0")
        return
    if name == "triton":
        ff.add_dist(f, name, version, requires=[])
        if f.get("torch", {}).get("probe"):
            f["torch"]["probe"]["triton"] = {"ok": True, "version": version}
        return
    ff.add_dist(f, name, version, requires=[])
    backend = _backend_of(name)
    if backend:
        f["imports"][backend] = {"installed": True, "dist": name, "version": version,
                                 "module_path": f"{ff.SITE}/{backend}", "probe": ff.ok_import(), "run": ff.run_ok()}
    if name == "xformers":
        t = f["torch"]["probe"] or {}
        f["packages"]["xformers_build"] = {"torch": t.get("version"), "cuda": None, "python": None}
    if name == "flash-attn":
        f["packages"]["stack"][name].pop("build_tag", None)
    fa = f["packages"].get("flash_attn") or {}
    if name in ("flash-attn", "flash-attn-4") and fa.get("cute_shared"):  # the last install writes the shared files
        n = sum(fa["cute_shared"].values())
        fa["cute_shared"] = {"flash-attn-4": 0, "flash-attn": 0, "neither": 0, "missing": 0, name: n}
    if name == "flash-attn-4" and fa.get("fa4_missing"):  # its files written again
        fa["fa4_missing"] = dict(fa["fa4_missing"], count=0, example=None)


def _uninstall(f: dict, name: str) -> None:
    f["packages"]["stack"].pop(name, None)
    f["packages"]["versions"].pop(name, None)
    backend = _backend_of(name)
    if backend:
        f["imports"][backend] = {"installed": False, "dist": None, "version": None, "module_path": None}
    if name == "xformers":
        f["packages"]["xformers_build"] = None


def _caches_follow_env(f: dict, before: dict) -> None:
    """A cache variable set or unset moves that cache (its state: a persistent disk under $HOME); an
    import whose error named the old directory imports now."""
    env = f.get("env") or {}
    for c in f.get("caches") or []:
        if not isinstance(c, dict) or "var" not in c:
            continue
        val = env.get(c["var"])
        if val and val != c.get("path") and c["name"] != "triton-direct":
            for info in (f.get("imports") or {}).values():
                err = ((info or {}).get("probe") or {}).get("error") or {}
                if c.get("path") and c["path"] in (err.get("traceback") or "") + (err.get("message") or ""):
                    info["probe"] = ff.ok_import()
            for per in ((f.get("smoke") or {}).get("devices") or {}).values():  # and a kernel that did
                for res in per.values():
                    for case in res.get("cases") or []:
                        err = case.get("error") or {}
                        if c.get("path") and c["path"] in (err.get("traceback") or "") + (err.get("message") or ""):
                            case.update(ok=True, error=None)
            c.update(path=val, set=True, exists=False, is_dir=False, creatable=True, writable=None,
                     under_tmp=val.startswith("/tmp"), fs_type="ext4", create_error=None, free_bytes=50 * 1024**3)
        if c["name"] == "fa4":
            c["enabled"] = env.get("FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED") == "1"
            c["enabled_raw"] = env.get("FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED")


def _smoke_follows_settings(f: dict, before: dict) -> None:
    """A setting the fix unset (knowledge/settings.toml) that made kernels fail or crawl: run again,
    the smoke cases it held back pass at their usual speed (the model's stand-in for a new smoke run)."""
    from attn_doctor.checks.settings import table

    names = {s["var"] for s in table()}
    gone = [v for v in names if v in (before.get("env") or {}) and (f.get("env") or {}).get(v) != before["env"][v]]
    if not gone:
        return
    for per in ((f.get("smoke") or {}).get("devices") or {}).values():
        for res in per.values():
            for case in res.get("cases") or []:
                case.update(ok=True, error=None, problems=[])
                case.pop("seconds_min", None)  # no longer held back: not judged slow (its usual speed is unknown here)
            res["run"] = dict(res.get("run") or {}, signal=None, timed_out=False, returncode=0)
            res["final"] = {k: v for k, v in (res.get("final") or {}).items() if k != "error"} or {"stage": "done"}


def _gpus_follow_env(f: dict) -> None:
    """CUDA_VISIBLE_DEVICES decides which of the driver's GPUs torch sees."""
    env = f.get("env") or {}
    smi = (f.get("driver") or {}).get("gpus") or []
    rt = (((f.get("torch") or {}).get("probe")) or {}).get("cuda_runtime")
    if not smi or rt is None or not (f["torch"]["probe"] or {}).get("cuda"):
        return
    cvd = env.get("CUDA_VISIBLE_DEVICES")
    keep = smi if cvd is None else [g for g in smi if str(g["index"]) in [x.strip() for x in cvd.split(",")]]
    drv = f["driver"]
    ff.set_gpus(f, [(g["name"], tuple(g["capability"])) for g in smi], driver=drv.get("driver") or "580.159.04",
                driver_cuda=drv.get("driver_cuda") or "13.0")
    rt = f["torch"]["probe"]["cuda_runtime"]
    rt["devices"] = [d for d in rt.get("devices") or [] if d["index"] in {g["index"] for g in keep}]
    for i, d in enumerate(rt["devices"]):
        d["index"] = i  # CUDA renumbers what it shows
    rt["device_count"] = len(rt["devices"])
    rt["available"] = bool(rt["devices"])


# The model cannot know these fixes' effect: each says why (none may be a harm the round trip hides).
CANNOT = {
    "torch.missing": "installs torch: the model has no probe answer for a torch it has never seen",
    "torch.import-failed": "a reinstall of the same files: only a real import says whether it now works",
    "torch.import-crashed": "the same: the crash's cause is outside the model",
    "require.not-ok": "its plan builds or installs a backend: only a real import says it works",
    "cute.shares-files-with-fa2": "a standing note: both packages still list the same files; its fix is for after the next change to flash-attn",
    "cute.dsl-pth-not-processed": "a PYTHONPATH change: only a real import says it now finds cutlass",
    "nvcc.none": "its export takes effect after a CUDA toolkit is installed there, which the model cannot do",
    "nvcc.major-mismatch": "the same: a toolkit install first",
    "nvcc.minor-mismatch": "the same: a toolkit install first",
    "config.hub-kernel": "a note on the trainer config's choice; the fix cannot edit the config file",
    "config.backend-not-checked": "the same: the config file decides",
    "config.conditional-backend": "the same: the launch script's condition decides",
}


def _scenarios():
    from test_findings import SCENARIOS

    return SCENARIOS


_CHECKED: dict = {}


def _round_trip_of(sc):
    """(facts, the check before, the findings of the scenario's own id) of one scenario of tests/test_findings.py, checked
    once per process (the item of the scenario and test_the_round_trip_covers_many_entries read the same)."""
    key = (sc.id, sc.name)
    if key not in _CHECKED:
        facts = sc.build()
        before = ff.check(facts, **sc.ctx)
        _CHECKED[key] = facts, before, [f for f in before.findings if f.id == sc.id]
    return _CHECKED[key]


@functools.lru_cache(maxsize=1)
def _round_trips() -> tuple:
    """(scenario, facts, before, finding) of every scenario's own finding(s), built when a test first asks: built at
    import, its ~190 checks (~1 s of CPU) ran in each of CI's 4 workers at collection (session 42, helper ci42d)."""
    out = []
    for sc in _scenarios():
        facts, before, found = _round_trip_of(sc)
        out += [(sc, facts, before, f) for f in found]
    return tuple(out)


def _applied_removes_its_finding_and_adds_no_error(sc, facts, before, f) -> bool:
    """One finding's fix applied to the model: False where the model applies nothing (a read-only fix)."""
    text = "\n".join(x for x in (f.fix, str(f.params.get("plan") or "")) if x)
    after_facts, applied = apply(facts, text)
    if not applied:
        return False
    after = ff.check(after_facts, **sc.ctx)
    new_errors = {(x.id, x.backend) for x in after.findings if x.severity == "error"} - {
        (x.id, x.backend) for x in before.findings if x.severity == "error"}
    assert not new_errors, (f.fix, sorted(new_errors))
    if f.id in CANNOT or f.fix.startswith("# not run here"):
        return True
    still = [x for x in after.findings if (x.id, x.backend) == (f.id, f.backend)]
    assert not still, (f.fix, [x.title for x in still])
    return True


# One item per scenario (its checks run here, not at collection); a scenario whose check yields its id twice (two
# backends) checks both findings in its one item (it was an item per finding, the ids suffixed 0/1)
@pytest.mark.parametrize("sc", _scenarios(), ids=lambda sc: f"{sc.id}:{sc.name}")
def test_a_fix_applied_removes_its_finding_and_adds_no_error(sc):
    facts, before, found = _round_trip_of(sc)
    assert found, f"{sc.id}: the scenario's check no longer yields its finding (tests/test_findings.py::test_scenario_fires)"
    applied = [_applied_removes_its_finding_and_adds_no_error(sc, facts, before, f) for f in found]
    if not any(applied):
        pytest.skip("; ".join(f"{f.id}: nothing to apply (read-only fix: {f.fix[:60] if f.fix else None})" for f in found))


def test_the_round_trip_covers_many_entries():
    applied = set()
    for sc, facts, _, f in _round_trips():
        text = "\n".join(x for x in (f.fix, str(f.params.get("plan") or "")) if x)
        if apply(facts, text)[1]:
            applied.add(f.id)
    assert len(applied) >= 40, sorted(applied)


# ---- real: env.sh sourced, pip run -------------------------------------------------------------

def doctor(*args, env=None, python=sys.executable, timeout=600):  # never reached: a check is ~3-8 s of CPU (ci40a)
    return subprocess.run([python, "-m", "attn_doctor", *args], capture_output=True, text=True, timeout=timeout,
                          env=env, cwd=str(ROOT))


def _clean_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TORCHINDUCTOR_", "TRITON_", "PYTORCH_",
                                                                      "FLASH_ATTENTION_", "VIRTUAL_ENV", "CONDA_"))}
    env.update(extra)
    return env


def _ids(report: dict, severity: str | None = None) -> set[tuple[str, str | None]]:
    return {(f["id"], f.get("backend")) for f in report["findings"] if severity in (None, f["severity"])}


@pytest.mark.parametrize("home_kind", ["writable", "pseudo-fs"])
def test_env_sh_sourced_then_check_has_no_finding_it_caused(tmp_path, home_kind):
    """`fix --write-env`, `. ./env.sh`, `check` again: what env.sh set fixed its findings and caused
    none. A $HOME where nothing can be created (report row 7: HOME=/ for an arbitrary uid; here a
    path on /proc, which root cannot write either) gets no cache variable at all."""
    import tempfile

    # a HOME off /tmp (pytest's tmp_path is under /tmp, where nothing lasts either)
    home = Path(tempfile.mkdtemp(prefix="attn-doctor-home-", dir="/var/tmp")) if home_kind == "writable" \
        else Path("/proc/attn-doctor-no-home")
    env = _clean_env(HOME=str(home), TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "tmpcache"), TMPDIR="/tmp")
    env["TORCHINDUCTOR_CACHE_DIR"] = "/tmp/attn-doctor-rt-" + home_kind
    first = doctor("check", "--no-smoke", "--json", "-", env=env)
    before = json.loads(first.stdout)
    assert ("cache.volatile", None) in _ids(before)
    # fix from the check just run, in the same environment: what a fresh probe would find again (~3 s of CPU each, its
    # children importing torch); `fix --write-env` probing for itself is tests/test_envfile.py's (session 38, ci38c)
    (tmp_path / "first.json").write_text(first.stdout)
    wrote = doctor("fix", "--from", str(tmp_path / "first.json"), "--write-env", str(tmp_path / "env.sh"), env=env)
    assert wrote.returncode == 0, wrote.stderr
    script = f". {shlex.quote(str(tmp_path / 'env.sh'))} && exec {shlex.quote(sys.executable)} -m attn_doctor check --no-smoke --json -"
    again = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=600, env=env, cwd=str(ROOT))
    after = json.loads(again.stdout)
    assert _ids(after, "error") <= _ids(before, "error"), _ids(after, "error") - _ids(before, "error")
    if home_kind == "writable":
        import shutil

        shutil.rmtree(home, ignore_errors=True)
        assert ("cache.volatile", None) not in _ids(after)
        assert f'export TORCHINDUCTOR_CACHE_DIR="$HOME/.cache/torchinductor"' in (tmp_path / "env.sh").read_text()
    else:
        text = (tmp_path / "env.sh").read_text()
        assert "TORCHINDUCTOR_CACHE_DIR is not set" in text and "export TORCHINDUCTOR_CACHE_DIR" not in text
        assert not any(f["id"] == "cache.uncreatable" for f in after["findings"])
        fix = next(f["fix"] for f in before["findings"] if f["id"] == "cache.volatile")
        assert fix.startswith('export TORCHINDUCTOR_CACHE_DIR="${CACHE_ROOT:?')  # the shell refuses it as it stands


def _wheel(dest: Path, name: str, version: str) -> Path:
    """A tiny real wheel (a module and its dist-info), built here: pip installs it with no index."""
    mod = name.replace("-", "_")
    path = dest / f"{mod}-{version}-py3-none-any.whl"
    info = f"{mod}-{version}.dist-info"
    files = {f"{mod}/__init__.py": f"__version__ = '{version}'\n",
             f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
             f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: attn-doctor-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    files[f"{info}/RECORD"] = "".join(f"{p},,\n" for p in files) + f"{info}/RECORD,,\n"
    with zipfile.ZipFile(path, "w") as z:
        for p, data in files.items():
            z.writestr(p, data)
    return path


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="venv layout and bash")
def test_a_printed_pip_line_run_for_real_fixes_its_finding(tmp_path):
    """A venv whose sageattention (faked metadata, a real dist-info) requires a package that is not
    there: check prints `<venv python> -m pip install '...'`; run as printed (pip reads a local wheel
    directory, reaching no index), check again: the finding is gone, and the pip line named the
    venv, so the doctor's own env is untouched."""
    venv = tmp_path / "venv"
    # 600 s, never reached: with pip ~5 s of CPU and much file I/O (191 s of wall at nice 10 on a loaded machine, ci40a)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=600)
    py = venv / "bin" / "python"
    site = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    info = site / "sageattention-1.0.6.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sageattention\nVersion: 1.0.6\n"
                                   "Requires-Dist: attn-rt-dep>=1.0\n")
    (info / "RECORD").write_text("")
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    _wheel(wheels, "attn-rt-dep", "1.2")
    env = _clean_env(PIP_NO_INDEX="1", PIP_FIND_LINKS=str(wheels), PIP_DISABLE_PIP_VERSION_CHECK="1")
    first = json.loads(doctor("check", "--no-smoke", "--python", str(venv), "--json", "-", env=env).stdout)
    f = next(x for x in first["findings"] if x["id"] == "versions.requirement-missing")
    assert f["fix"].startswith(f"{py} -m pip install 'attn-rt-dep>=1.0'"), f["fix"]
    run = subprocess.run(["bash", "-c", f["fix"]], capture_output=True, text=True, timeout=600, env=env)  # pip install
    assert run.returncode == 0, run.stderr
    after = json.loads(doctor("check", "--no-smoke", "--python", str(venv), "--json", "-", env=env).stdout)
    assert not any(x["id"] == "versions.requirement-missing" for x in after["findings"])
    assert _ids(after, "error") <= _ids(first, "error")
    own = subprocess.run([sys.executable, "-c", "import attn_rt_dep"], capture_output=True)
    assert own.returncode != 0  # installed into the checked venv, not into the doctor's
