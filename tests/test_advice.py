"""Issue 20: every printed command acts on the checked env and never breaks what works.

advice.aim / harms / repair / safe on their own (variants written here), then a property over
every finding the suite can produce (tests/test_findings.py SCENARIOS) rendered as check, fix and
JSON print it: under --python or an active venv, no install, uninstall or attn-doctor line lacks
the target. The facts are FAKED (tests/fakefacts.py); only the target is changed.
"""

from __future__ import annotations

import io
import json
import re

import pytest

import fakefacts as ff
from attn_doctor import advice
from attn_doctor.target import GENERIC, Target, shell_path

VENV = Target(python="/opt/envs/train/bin/python", how="--python", has_pip=True)
ACTIVE = Target(python="/opt/envs/train/bin/python", how="VIRTUAL_ENV", has_pip=True, doctor="/x/pipx/bin/python")
NOPIP_UV = Target(python="/opt/envs/bare/bin/python", how="--python", has_pip=False, uv=True)
NOPIP = Target(python="/opt/envs/bare/bin/python", how="--python", has_pip=False, uv=False)


# ---- aim ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("line, want", [
    ("pip install 'x==1'", "/opt/envs/train/bin/python -m pip install 'x==1'"),
    ("pip3 install x", "/opt/envs/train/bin/python -m pip install x"),
    ("python -m pip install x", "/opt/envs/train/bin/python -m pip install x"),
    ("python3 -m pip uninstall -y x", "/opt/envs/train/bin/python -m pip uninstall -y x"),
    ("MAX_JOBS=8 pip install flash-attn --no-build-isolation",
     "MAX_JOBS=8 /opt/envs/train/bin/python -m pip install flash-attn --no-build-isolation"),
    ("cd flash-attention/hopper && pip install . --no-build-isolation",
     "cd flash-attention/hopper && /opt/envs/train/bin/python -m pip install . --no-build-isolation"),
    ("pip show torch   # then: pip install 'y'", "/opt/envs/train/bin/python -m pip show torch   # then: "
                                                 "/opt/envs/train/bin/python -m pip install 'y'"),
    ('python -c "import torch; print(torch.__version__)"',
     '/opt/envs/train/bin/python -c "import torch; print(torch.__version__)"'),
    ("python -X importtime -c 'import torch'", "/opt/envs/train/bin/python -X importtime -c 'import torch'"),
    ("uv pip install x", "uv pip install --python /opt/envs/train/bin/python x"),
    ("attn-doctor check --backend flex -v", "attn-doctor check --python /opt/envs/train/bin/python --backend flex -v"),
    ("attn-doctor fix --write-env && . ./env.sh", "attn-doctor fix --python /opt/envs/train/bin/python --write-env && . ./env.sh"),
    ("attn-doctor fix --from r.json", "attn-doctor fix --from r.json"),  # a saved report names its own env
    ("attn-doctor explain import.failed", "attn-doctor explain import.failed"),  # no env: explains an id
    ("pipx install attn-doctor", "pipx install attn-doctor"),
    ("export X=1; unset Y", "export X=1; unset Y"),
    ("# the pip that runs is the python's", "# the pip that runs is the python's"),
    ("ls /opt/pip install", "ls /opt/pip install"),  # a path is no command word
])
def test_aim_rewrites_each_form_once(line, want):
    assert advice.aim(line, VENV) == want
    assert advice.aim(want, VENV) == want  # idempotent: a report re-evaluated is aimed once


def test_aim_without_pip_uses_uv_or_bootstraps_pip():
    assert advice.aim("pip install x", NOPIP_UV) == "uv pip install --python /opt/envs/bare/bin/python x"
    assert advice.aim("pip install x", NOPIP) == (
        "/opt/envs/bare/bin/python -m ensurepip && /opt/envs/bare/bin/python -m pip install x")


def test_the_generic_target_names_the_jobs_python():
    """explain without an env: the Python of the job that printed the log, by its plain name."""
    assert advice.aim("pip install x", GENERIC) == "python -m pip install x"
    assert advice.aim("attn-doctor check -v", GENERIC) == "attn-doctor check -v"


def test_paths_are_shell_words(monkeypatch):
    monkeypatch.setenv("HOME", "/home/u")
    assert shell_path("/home/u/venvs/train/bin/python") == "~/venvs/train/bin/python"
    assert shell_path("/home/u/my venvs/bin/python") == "'/home/u/my venvs/bin/python'"
    t = Target(python="/srv/my env/bin/python", how="--python")
    assert advice.aim("pip install x", t) == "'/srv/my env/bin/python' -m pip install x"
    assert advice.aim("attn-doctor fix", t) == "attn-doctor fix --python '/srv/my env/bin/python'"


def test_aim_answers_for_the_home_of_now(monkeypatch):
    """aim keeps its answers (helper ci39a, session 39), but a target under $HOME is shown as ~/...: the same line and
    target aimed again under another $HOME is aimed for that one, and the answer kept for the first stays right."""
    t = Target(python="/home/u/venvs/train/bin/python", how="--python")
    monkeypatch.setenv("HOME", "/home/u")
    assert advice.aim("pip install x", t) == "~/venvs/train/bin/python -m pip install x"
    monkeypatch.setenv("HOME", "/home/v")
    assert advice.aim("pip install x", t) == "/home/u/venvs/train/bin/python -m pip install x"
    monkeypatch.setenv("HOME", "/home/u")
    assert advice.aim("pip install x", t) == "~/venvs/train/bin/python -m pip install x"


def test_one_comment_per_line():
    assert advice.one_comment("pip install x   # a   # b") == "pip install x   # a; b"
    assert advice.one_comment("# only   # prose") == "# only   # prose"


# ---- repair ------------------------------------------------------------------------------------

@pytest.mark.parametrize("line, want", [
    ("pip install --pre flash-attn-4", "pip install 'flash-attn-4>=4.0.0b0'"),
    ("pip install --pre 'flash-attn-4[cu13]' 'quack-kernels>=0.5.3'",
     "pip install 'flash-attn-4[cu13]>=4.0.0b0' 'quack-kernels>=0.5.3'"),
    ("pip install --upgrade --pre flash-attn-4   # note", "pip install --upgrade 'flash-attn-4>=4.0.0b0'   # note"),
    ("pip install --pre 'flash-attn-4==4.0.0b36'", "pip install 'flash-attn-4==4.0.0b36'"),
    ("pip install --pre somepkg", "pip install --pre somepkg"),  # no floor known: left as asked
    ("pip install --force-reinstall torch==2.11.0", "pip install --force-reinstall --no-deps torch==2.11.0"),
    ("pip install --force-reinstall --no-deps x", "pip install --force-reinstall --no-deps x"),
])
def test_repair(line, want):
    assert advice.repair(line) == want


# ---- harms -------------------------------------------------------------------------------------

def sit(working=(), installed=None, torch="2.11.0+cu130", gpus=1, cpu_torch=False):
    return advice.Situation(installed=dict(installed or {}), working=set(working), torch=torch, gpus=gpus,
                            cpu_torch=cpu_torch)


FA4 = {"flash-attn-4": "4.0.0b36", "quack-kernels": "0.6.5"}


@pytest.mark.parametrize("line, situation, words", [
    ("pip uninstall -y flash-attn-4", sit({"cute"}, FA4), "removes flash-attn-4, which cute needs"),
    ("pip uninstall -y quack-kernels nvidia-cutlass-dsl", sit({"cute"}, FA4), "removes quack-kernels"),
    ("pip uninstall -y triton", sit({"flex", "sdpa"}), "removes triton, which flex needs"),
    ("pip uninstall -y torch", sit({"sdpa"}), "removes torch"),
    ("pip install flash-attn --no-build-isolation", sit({"cute"}, FA4), "flash-attn-4's"),
    ("MAX_JOBS=8 pip install flash-attn==2.8.3 --no-build-isolation", sit(set(), FA4), "FA4 would no longer"),
    ("pip install https://github.com/x/releases/download/v2.8.3/flash_attn-2.8.3+cu12torch2.8cxx11abiTRUE-cp312-cp312-linux_x86_64.whl",
     sit({"cute"}, FA4), "flash-attn-4's"),
    ("cd flash-attention && pip install . --no-build-isolation", sit({"cute"}, FA4), "flash-attn-4's"),
    ("pip install 'torch==2.11.0+cpu'", sit({"sdpa"}), "CPU-only torch on a machine with GPUs"),
    ("pip install torch --index-url https://example.invalid/whl/cpu", sit({"sdpa"}), "CPU-only"),
    ("pip install 'torch==2.12.0+cu130'", sit({"sdpa", "fa2"}), "fa2 is built for torch 2.11.0+cu130"),
    ("pip install --force-reinstall --no-deps 'torch==2.11.0+cu128'", sit({"xformers"}), "xformers is built"),
    ("pip install --upgrade torch", sit({"fa3", "xformers"}), "fa3, xformers are built"),
])
def test_harmful_lines_are_named(line, situation, words):
    why = advice.harms(line, situation)
    assert why and words in " ".join(why), why


@pytest.mark.parametrize("line, situation", [
    ("pip uninstall -y xformers", sit({"sdpa"}, {"xformers": "0.0.35"})),  # xformers is not working
    ("pip install flash-attn --no-build-isolation", sit({"sdpa"})),  # no FA4 here
    ("cd flash-attention/hopper && pip install . --no-build-isolation", sit({"cute"}, FA4)),  # FA3: its own name
    ("pip install 'torch==2.11.0+cu130'", sit({"sdpa", "fa2"})),  # the same build again
    ("pip install 'torch==2.12.0+cu130'", sit({"sdpa", "flex", "sage"})),  # nothing compiled against torch
    ("pip install 'torch==2.11.0+cpu'", sit(set(), gpus=0, cpu_torch=True)),  # a CPU machine
    ("pip install 'flash-attn-4>=4.0.0b0'", sit({"cute"}, FA4)),
    ("pip show flash-attn-4   # pip uninstall -y flash-attn-4 in a comment runs nothing", sit({"cute"}, FA4)),
])
def test_harmless_lines_pass(line, situation):
    assert advice.harms(line, situation) == []


def test_a_refused_install_becomes_comments_and_a_separate_env():
    out = advice.safe("pip install flash-attn==2.8.3 --no-build-isolation", sit({"cute"}, FA4), VENV, "fa2")
    lines = out.split("\n")
    assert lines[0].startswith("# not run here: /opt/envs/train/bin/python -m pip install flash-attn==2.8.3")
    assert "flash-attn-4's" in lines[0]
    cmds = [ln for ln in lines if not ln.startswith("#")]
    assert cmds[0] == "/opt/envs/train/bin/python -m venv ~/venvs/attn-fa2"
    assert cmds[1].startswith("~/venvs/attn-fa2/bin/python -m pip install 'torch==2.11.0+cu130'")
    assert cmds[2] == "~/venvs/attn-fa2/bin/python -m pip install flash-attn==2.8.3 --no-build-isolation"
    assert not any("/opt/envs/train/bin/python -m pip" in c for c in cmds)  # nothing lands in the checked env


def test_a_refused_uninstall_is_only_refused():
    out = advice.safe("pip uninstall -y flash-attn-4", sit({"cute"}, FA4), VENV, "cute")
    assert all(ln.startswith("#") for ln in out.split("\n"))


# ---- the property: every finding, every output, under a target ---------------------------------

PIP = re.compile(r"(?<![\w./-])(?:pip3?|uv pip)\s+(install|uninstall)\b")
DOCTOR = re.compile(r"attn-doctor\s+(check|fix|bench)\b(?!:)")


def misses(text: str, target: Target) -> list[str]:
    """Commands in `text` (wrapped lines joined) that would act on another env than `target`."""
    text = re.sub(r"\n[ \t]*#[ \t]+", " ", text)  # a comment wrapped over lines is one sentence
    flat = " ".join(re.sub(r" \\\n", " ", text).split())
    bad = []
    for m in PIP.finditer(flat):
        before = flat[max(0, m.start() - 80):m.start()]
        if m.group(0).startswith("uv pip"):
            ok = flat[m.end():m.end() + 30 + len(target.shown)].startswith(f" --python {target.shown}")
        else:
            ok = before.endswith((f"{target.shown} -m ", f"{target.shown} -m ensurepip && {target.shown} -m "))
            ok = ok or bool(re.search(r"~/venvs/attn-[\w-]+/bin/python -m $", before))  # a separate env, named
        if not ok:
            bad.append(flat[max(0, m.start() - 60):m.end() + 30])
    for m in DOCTOR.finditer(flat):
        seg = re.split(r"&&|;|#|\)|\|", flat[m.end():m.end() + 200])[0]
        if "--python" not in seg and "--from" not in seg:
            bad.append(flat[max(0, m.start() - 30):m.end() + 60])
    return bad


def _scenarios():
    from test_findings import SCENARIOS

    return SCENARIOS


@pytest.mark.parametrize("target", [VENV, ACTIVE, NOPIP_UV], ids=["--python", "VIRTUAL_ENV", "no-pip-uv"])
def test_no_printed_command_misses_the_target(target):
    from attn_doctor import envfile, fixes
    from attn_doctor.render import json as rjson
    from attn_doctor.render.text import make_console, render

    seen = 0
    for sc in _scenarios():
        facts = sc.build()
        facts["target"] = target.to_dict()
        report = ff.check(facts, **sc.ctx)
        buf = io.StringIO()
        render(report, make_console(file=buf, width=80), verbose=True)
        _, plan = envfile.build(report)
        fixes.render(make_console(file=buf, width=80), report, plan, verbose=True)
        data = json.loads(rjson.dumps(report))
        texts = [buf.getvalue()] + [f.get("fix") or "" for f in data["findings"]] + [
            str((f.get("params") or {}).get("plan") or "") for f in data["findings"]]
        for text in texts:
            seen += len(PIP.findall(text)) + len(DOCTOR.findall(text))
            assert misses(text, target) == [], sc.name
    assert seen > 200  # the property held over many commands, not over none


def test_the_api_message_is_aimed():
    from attn_doctor.model import PreflightError
    from test_findings import SCENARIOS

    sc = next(s for s in SCENARIOS if s.id == "versions.requirement-missing")
    facts = sc.build()
    facts["target"] = VENV.to_dict()
    report = ff.check(facts, required=["cute"])
    msg = str(PreflightError(report, ["cute"]))
    assert "/opt/envs/train/bin/python -m pip install" in msg
