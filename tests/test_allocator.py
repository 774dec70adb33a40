"""The allocator-settings parser (checks/allocator.py) on the real failure texts of FACTS.md, and
against torch's own parser where this CPU machine can run it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import fakefacts as ff
from attn_doctor.checks import allocator as al


def kinds(text: str) -> list[tuple[str, str | None]]:
    return [(p.kind, p.key) for p in al.parse(text).problems]


def findings(env: dict, torch: str = "2.11.0+cu130", compile_mode: str | None = None):
    """FAKES the healthy H200 box with these allocator variables (and torch version)."""
    f = ff.gpu_box()
    if torch != "2.11.0+cu130":
        ff.set_torch(f, torch, cuda="12.8")
        ff.set_gpus(f, [("NVIDIA H200", (9, 0))])
        f["nvcc"]["found"][0]["version"] = "12.8"
    ff.set_env(f, **env)
    return [x for x in ff.check(f, compile_mode=compile_mode).findings if x.section == "allocator"]


# -- the parser --------------------------------------------------------------------------------

def test_expandable_segments_lowercase_true():
    """FACTS.md: PYTORCH_CUDA_ALLOC_CONF=expandable_segments:true -> ValueError: Expected 'True' or
    'False' at index 2 in ConfigTokenizer but got 'true'."""
    conf = al.parse("expandable_segments:true")
    assert kinds("expandable_segments:true") == [("bool-case", "expandable_segments")]
    assert conf.fixed() == "expandable_segments:True"
    (f,) = findings({"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:true"})[:1]
    assert f.id == "alloc.bool-case" and f.severity == "error"
    # torch 2.11 reads the new name reliably: the one fix moves the corrected value there
    assert f.fix == "export PYTORCH_ALLOC_CONF='expandable_segments:True'; unset PYTORCH_CUDA_ALLOC_CONF"


def test_bogus_key():
    """FACTS.md: PYTORCH_ALLOC_CONF=bogus_key:1 -> ValueError: Unrecognized key 'bogus_key' in CUDA allocator config."""
    assert kinds("bogus_key:1") == [("unknown-key", "bogus_key")]
    got = findings({"PYTORCH_ALLOC_CONF": "bogus_key:1"})
    assert [x.id for x in got] == ["alloc.unknown-key"]
    assert got[0].fix == "unset PYTORCH_ALLOC_CONF"  # nothing valid is left
    got = findings({"PYTORCH_ALLOC_CONF": "expandable_segments:True,bogus_key:1"})
    assert got[0].fix == "export PYTORCH_ALLOC_CONF='expandable_segments:True'"


def test_max_split_size_mb_10():
    assert kinds("max_split_size_mb:10") == [("bad-value", "max_split_size_mb")]
    assert kinds("max_split_size_mb:20") == []
    got = findings({"PYTORCH_ALLOC_CONF": "max_split_size_mb:10"})
    assert [x.id for x in got] == ["alloc.bad-value"] and ">= 20" in got[0].title


@pytest.mark.parametrize("text,expect", [
    ("roundup_power2_divisions:[256:1,512:2,1024:4,>:8]", []),
    ("roundup_power2_divisions:[>:4]", []),
    ("roundup_power2_divisions:[256:0]", []),  # 0 disables rounding for that interval
    ("roundup_power2_divisions:4", []),
    ("roundup_power2_divisions:[256:3]", [("bad-value", "roundup_power2_divisions")]),
    ("roundup_power2_divisions:[300:4]", [("bad-value", "roundup_power2_divisions")]),
    ("roundup_power2_divisions:3", [("bad-value", "roundup_power2_divisions")]),
    ("roundup_power2_divisions:[256:4", [("syntax", "roundup_power2_divisions")]),
    ("roundup_power2_divisions:[256:4,512:8],expandable_segments:True", []),
])
def test_roundup_power2_divisions(text, expect):
    assert kinds(text) == expect
    conf = al.parse(text)
    if not expect and text.startswith("roundup_power2_divisions:["):
        assert conf.get("roundup_power2_divisions").startswith("[")


@pytest.mark.parametrize("text", ["expandable_segments", "expandable_segments:", ":True", "a:b:c",
                                  "expandable_segments:True,,", "expandable_segments:True max_split_size_mb:128"])
def test_malformed_settings_are_problems(text):
    assert "syntax" in [k for k, _ in kinds(text)] or kinds(text)[0][0] == "unknown-key", kinds(text)
    assert findings({"PYTORCH_ALLOC_CONF": text})[0].severity == "error"


def test_spaces_vanish_like_torchs_lexer():
    assert kinds(" expandable_segments : True , max_split_size_mb : 128 ") == []


# -- the checks built on it -----------------------------------------------------------------------

@pytest.mark.parametrize("mode,expect", [
    ("reduce-overhead", "error"), ("max-autotune", "error"), (None, "warning"),
    ("max-autotune-no-cudagraphs", None), ("default", None), ("none", None),
])
def test_cudamallocasync_and_compile_modes(mode, expect):
    """FACTS.md: backend:cudaMallocAsync + torch.compile(mode='reduce-overhead') -> RuntimeError:
    cudaMallocAsync does not yet support checkPoolLiveAllocations."""
    got = [x for x in findings({"PYTORCH_ALLOC_CONF": "backend:cudaMallocAsync,expandable_segments:True"},
                               compile_mode=mode) if x.id == "alloc.async-cudagraphs"]
    if expect is None:
        assert got == []
    else:
        assert [x.severity for x in got] == [expect]
        assert got[0].fix.startswith("export PYTORCH_ALLOC_CONF='expandable_segments:True'")


def test_async_ignores_native_options():
    got = [x for x in findings({"PYTORCH_ALLOC_CONF": "backend:cudaMallocAsync,max_split_size_mb:128,"
                                                      "garbage_collection_threshold:0.6"}, compile_mode="default")]
    assert [x.id for x in got] == ["alloc.async-ignores-options"]
    assert "garbage_collection_threshold, max_split_size_mb" in got[0].title


def test_both_variables_set_the_cuda_name_wins():
    """torch 2.13 source: the CUDA allocator reads PYTORCH_CUDA_ALLOC_CONF first."""
    env = {"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True", "PYTORCH_ALLOC_CONF": "expandable_segments:true"}
    assert al.effective(env) == ("PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_ALLOC_CONF")
    got = findings(env)
    both = [x for x in got if x.id == "alloc.both-set"]
    assert both and "reads PYTORCH_CUDA_ALLOC_CONF and ignores PYTORCH_ALLOC_CONF" in both[0].title
    # The ignored variable's bad boolean is still reported: unsetting the other would expose it.
    assert "alloc.bool-case" in [x.id for x in got]
    assert "alloc.old-name" not in [x.id for x in got]


@pytest.mark.parametrize("torch,env,expect", [
    ("2.9.1+cu128", {"PYTORCH_ALLOC_CONF": "expandable_segments:True"}, ["alloc.new-name-unreliable"]),
    ("2.11.0+cu130", {"PYTORCH_ALLOC_CONF": "expandable_segments:True"}, []),
    ("2.11.0+cu130", {"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"}, ["alloc.old-name"]),
    ("2.8.0+cu128", {"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"}, []),
])
def test_names_by_torch_version(torch, env, expect):
    assert [x.id for x in findings(env, torch=torch)] == expect


def test_empty_value_is_fine():
    assert al.parse("").problems == []
    assert findings({"PYTORCH_ALLOC_CONF": ""}) == []


# -- against torch's own parser ---------------------------------------------------------------

# Strings whose keys the device-generic c10 AllocatorConfig parses; on a CPU build torch exposes
# it as torch._C._accelerator_setAllocatorSettings (CUDA-only keys and unknown keys are passed on
# to the CUDA config there, so they are not compared here).
GENERIC = [
    "expandable_segments:True", "expandable_segments:False", "expandable_segments:true",
    "expandable_segments:1", "max_split_size_mb:128", "max_split_size_mb:10", "max_split_size_mb:20",
    "roundup_power2_divisions:[256:1,512:2,1024:4,>:8]", "roundup_power2_divisions:[256:3]",
    "roundup_power2_divisions:[300:4]", "roundup_power2_divisions:[256:4", "roundup_power2_divisions:4",
    "roundup_power2_divisions:3", "garbage_collection_threshold:0.6", "garbage_collection_threshold:1.5",
    "expandable_segments", "expandable_segments:True,,", "max_split_size_mb:128,expandable_segments:True",
]
TORCH_SAYS = """
import json, sys, warnings
warnings.simplefilter("ignore")
import torch
out = {}
for s in json.loads(sys.argv[1]):
    try:
        torch._C._accelerator_setAllocatorSettings(s)
        out[s] = None
    except Exception as e:
        out[s] = f"{type(e).__name__}: {str(e).splitlines()[0]}"
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def torch_verdicts():
    r = subprocess.run([sys.executable, "-c", TORCH_SAYS, json.dumps(GENERIC)], capture_output=True, text=True,
                       timeout=300)
    if r.returncode != 0 or "_accelerator_setAllocatorSettings" in r.stderr:
        pytest.skip(f"this torch cannot parse allocator settings without a GPU: {r.stderr.strip()[-200:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("text", GENERIC)
def test_agrees_with_torchs_parser(torch_verdicts, text):
    """REAL: torch 2.13's parser (the one on this machine) accepts or rejects it, and so do we."""
    torch_error = torch_verdicts[text]
    ours = al.parse(text).problems
    assert bool(ours) == bool(torch_error), f"torch: {torch_error!r}; ours: {ours}"


# -- one allocator fix (issue 16) ------------------------------------------------------------------

def _apply(env: dict, exports) -> dict:
    """The environment after sourcing env.sh's allocator lines."""
    out = dict(env)
    for x in exports:
        if x.value is None:
            out.pop(x.var, None)
        else:
            out[x.var] = x.value
    return out


@pytest.mark.parametrize("value,want", [
    ("expandable_segments:true", "export PYTORCH_ALLOC_CONF='expandable_segments:True'; unset PYTORCH_CUDA_ALLOC_CONF"),
    ("max_split_size_mb=512", "export PYTORCH_ALLOC_CONF='max_split_size_mb:512'; unset PYTORCH_CUDA_ALLOC_CONF"),
    ("garbage_collection_threshold=0.6,expandable_segments=true",
     "export PYTORCH_ALLOC_CONF='garbage_collection_threshold:0.6,expandable_segments:True'; unset PYTORCH_CUDA_ALLOC_CONF"),
    ("garbage", "unset PYTORCH_CUDA_ALLOC_CONF"),
    ("max_split_size_mb:10,expandable_segments:True", "export PYTORCH_ALLOC_CONF='expandable_segments:True'; unset PYTORCH_CUDA_ALLOC_CONF"),
])
def test_one_allocator_fix_everywhere(value, want):
    """FAKES torch 2.13 with PYTORCH_CUDA_ALLOC_CONF=value (the issue's cases): every allocator finding,
    alloc.old-name included, prints the same corrected value under the new name; env.sh writes that
    same setting; with it applied, no allocator finding is left. `garbage` gets no invented value."""
    from attn_doctor import envfile
    from attn_doctor.checks import Context
    from attn_doctor.report import evaluate

    torch = {"probe": {"version": "2.13.0+cu130", "import_ok": True, "cuda": "13.0"}, "dist": {"version": "2.13.0+cu130"}}
    env = {"PYTORCH_CUDA_ALLOC_CONF": value}
    r = evaluate({"env": env, "torch": torch}, Context(), {})
    alloc = [f for f in r.findings if f.section == "allocator"]
    assert alloc and "alloc.old-name" in {f.id for f in alloc} | ({"alloc.old-name"} if value == "garbage" else set())
    for f in alloc:
        assert f.fix.split("   #")[0] == want, f.id
        assert "expandable_segments" not in f.fix or "expandable_segments" in value
        assert "garbage'" not in f.fix and "<" not in f.fix
    plan = envfile.plan(r)
    fixed = _apply(env, [x for x in plan.exports if "ALLOC_CONF" in x.var])
    assert "PYTORCH_CUDA_ALLOC_CONF" not in fixed
    again = evaluate({"env": fixed, "torch": torch}, Context(), {})
    assert [f.id for f in again.findings if f.section == "allocator"] == []


def test_garbage_allocator_value_suggests_nothing_invented():
    got = findings({"PYTORCH_ALLOC_CONF": "garbage"}, torch="2.11.0+cu130")
    assert [x.id for x in got] == ["alloc.syntax"]
    assert got[0].fix == "unset PYTORCH_ALLOC_CONF   # key:value pairs separated by commas"


def test_older_torch_keeps_the_old_name():
    """torch 2.9 reads the new name unreliably: the correction stays under PYTORCH_CUDA_ALLOC_CONF, and
    alloc.old-name does not fire (it would send the value to a name that torch ignores)."""
    got = findings({"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:true"}, torch="2.9.1+cu128")
    assert [x.id for x in got] == ["alloc.bool-case"]
    assert got[0].fix == "export PYTORCH_CUDA_ALLOC_CONF='expandable_segments:True'"


def test_a_quote_in_the_value_cannot_break_the_fix_line():
    conf = al.Correction("PYTORCH_ALLOC_CONF", "backend:it's", [])
    assert conf.command == "export PYTORCH_ALLOC_CONF='backend:it'\\''s'"
