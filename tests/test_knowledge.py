"""The knowledge base as data: every entry well-formed, every entry found from a realistic text,
unrelated text matching nothing, and every seed-guide row and note mapped to an entry."""

import re
from pathlib import Path

import pytest
from each_case import each

from attn_doctor import knowledge
from attn_doctor.knowledge import entries, finding, template_fields
from attn_doctor.knowledge.match import literal_chars, match, normalize, required_literal
from attn_doctor.model import SEVERITIES, Report
from attn_doctor.render.text import SECTIONS, make_console
from attn_doctor.render.text import _finding as render_finding

HERE = Path(__file__).parent
LOGS = HERE / "fixtures" / "logs"
# Copies of shared/seeds/*.md (the user guides the project started from), so a clean clone tests them;
# test_seed_copies_are_current compares them with shared/ where a checkout has it.
SEEDS = sorted((HERE / "fixtures" / "seeds").glob("*.md"))
SHARED = HERE.parent.parent / "shared"
FACTS = SHARED / "FACTS.md" if (SHARED / "FACTS.md").exists() else None
ALL = list(entries().values())
GUIDES = ("cute-training-guide", "flexattention-guide")


def ids(text):
    return [m.entry.id for m in match(text)]


# ---- the entries are well-formed ---------------------------------------------------------------

# (The per-entry checks below are one test each over every entry, each failing entry named, not one pytest item per
# entry: tests/each_case.py says why.)

def test_entry_is_well_formed():
    each(((e.id, (e,)) for e in ALL), _entry_is_well_formed)


def _entry_is_well_formed(e):
    assert e.severity in SEVERITIES
    assert e.section in {key for key, _ in SECTIONS}
    assert re.fullmatch(r"[a-z0-9]+(\.[a-z0-9-]+)+", e.id), "ids are section.name, lower-case"
    assert e.title.strip() and e.cause.strip(), "every entry says what is wrong and why"
    assert e.fix and e.fix.strip(), "every entry gives something to paste"
    if template_fields(e.title):
        assert e.summary, "a templated title needs a param-free summary for explain"
    if template_fields(e.fix):
        assert e.general_fix, "a templated fix needs a param-free general_fix for explain"
    if e.explain_only:
        assert not template_fields(e.title) and not template_fields(e.fix), "no check supplies params"
    # headline/plain_fix render without params and leave no {field} behind
    assert "{" not in e.headline or "{" in e.title.replace("{{", ""), e.headline
    if e.guide_claim:
        assert e.guide_claim.startswith(GUIDES), "guide_claim names the seed guide it quotes"
    for k, v in e.env.items():
        assert template_fields(k) | template_fields(v) or re.fullmatch(r"[A-Z_][A-Z0-9_]*", k)


def test_entry_with_patterns_has_examples_that_use_every_pattern():
    each(((e.id, (e,)) for e in ALL if e.patterns or e.frames), _entry_has_examples_that_use_every_pattern)


def _entry_has_examples_that_use_every_pattern(e):
    assert e.examples, "patterns are tested through examples"
    for pattern, rx in zip(e.patterns, e.compiled):
        assert any(rx.search(normalize(x)) for x in e.examples), f"no example exercises {pattern!r}"
    if e.frames:  # weak evidence (a frame of the failing call) is tested through examples too
        for pattern, rx in zip(e.weak.patterns, e.weak.compiled):
            assert any(rx.search(normalize(x)) for x in e.examples), f"no example exercises frame {pattern!r}"


# Every example is explained by its own entry first (a symptom whose example quotes its cause, or a message an entry it
# names `explained_by` explains where the example shows that entry too, after that cause: round 32 and 79,
# knowledge/match.py _rank): tests/test_findings.py::test_examples_are_recognised_as_their_entry asserts exactly that
# for every example of every entry (and that `best` names the entry as the cause). This file asserted it again, one
# pytest item per example (3,262 items and as many matcher runs of the same texts, session 34: helper ci34b).


def _check_output(e) -> str:
    """What `attn-doctor check` prints for this entry's finding (params faked as 'x')."""
    params = {f: "x" for f in template_fields(e.title) | template_fields(e.fix)}
    params.pop("backend", None)
    f = finding(e.id, backend="fa2" if "backend" in template_fields(e.title) | template_fields(e.fix) else None,
                detail="evidence", **params)
    console = make_console(width=100)
    with console.capture() as cap:
        render_finding(console, f, verbose=False)
    return cap.get()


def test_every_entry_is_found_from_a_realistic_text():
    """Entries with an error text are found from their examples (above); entries that describe a
    state rather than an error are found from attn-doctor's own output, which users paste too."""
    each(((e.id, (e,)) for e in ALL), _entry_is_found_from_a_realistic_text)


def _entry_is_found_from_a_realistic_text(e):
    text = e.examples[0] if e.examples else _check_output(e)
    assert ids(text)[:1] == [e.id]


# ---- unrelated text matches nothing ---------------------------------------------------------------

TRAINING_LOG = """\
The following values were not passed to `accelerate launch` and had defaults used instead:
        `--num_processes` was set to a value of `1`
INFO:musubi_tuner.hv_train_network:Load dataset config from /workspace/dataset.toml
INFO:musubi_tuner.wan_train_network:Using attention mode: flash_attn
/usr/local/lib/python3.11/site-packages/torch/utils/checkpoint.py:87: UserWarning: torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly.
INFO:musubi_tuner.hv_train_network:DiT dtype: torch.bfloat16, device: cuda:0
steps:   1%|▏         | 10/1600 [00:41<1:49:12,  4.12s/it, avr_loss=0.0921]\rsteps:   2%|▏         | 32/1600 [02:11<1:47:00,  4.09s/it, avr_loss=0.0874]
W1120 14:44:07.101000 2211 torch/_inductor/utils.py:1250] [0/0] Not enough SMs to use max_autotune_gemm mode
INFO:musubi_tuner.hv_train_network:saving checkpoint: /output/wan-lora-000001.safetensors
[rank0]:[W1120 16:33:09.712391522 ProcessGroupNCCL.cpp:1496] Warning: WARNING: destroy_process_group() was not called before program exit, which can leak resources.
"""  # hand-written in the shape of a musubi-tuner run (no error in it)

PIP_LOG = """\
Collecting flash-attn-4
  Downloading flash_attn_4-4.0.0b36-py3-none-any.whl (1.2 MB)
Collecting quack-kernels>=0.5.3 (from flash-attn-4)
Requirement already satisfied: torch in ./venv/lib/python3.12/site-packages (from flash-attn-4) (2.11.0+cu130)
Building wheels for collected packages: flash-attn
  Building wheel for flash-attn (setup.py) ... done
Successfully installed apache-tvm-ffi-0.1.15.post2 flash-attn-2.8.3 flash-attn-4-4.0.0b36 nvidia-cutlass-dsl-4.8.1 quack-kernels-0.6.5
"""  # hand-written in the shape of a pip log that succeeded

PROSE = """\
We rolled back the deployment on Tuesday after the cache warmed up. The first draft was slow to
write, but performance of the new kernel is better than last year's. Attention is all you need.
Training the dog never switches to a new trick overnight. 训练数据已经准备好。El modelo funciona bien.
"""


@pytest.mark.parametrize("name,text", [
    ("training log", TRAINING_LOG),
    ("pip log", PIP_LOG),
    ("prose", PROSE),
    ("collect_env", (LOGS / "clean-collect-env.txt").read_text()),
    ("pip check", (LOGS / "clean-pip-check.txt").read_text()),
    ("empty", ""),
])
def test_unrelated_text_matches_nothing(name, text):
    assert ids(text) == []


# ---- matching holds up on real logs ----------------------------------------------------------------

@pytest.mark.parametrize("text,expected", [
    # other paths, Python versions and mangled symbols than the examples
    ("ImportError: /home/alice/miniconda3/envs/sd/lib/python3.12/site-packages/flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so: "
     "undefined symbol: _ZN2at4_ops5zeros4callEN3c108ArrayRefINS2_6SymIntEEENS2_8optionalINS2_10ScalarTypeEEE", "import.undefined-symbol"),
    ("OSError: /lib64/libc.so.6: version `GLIBC_2.35' not found (required by /opt/env/lib/python3.9/site-packages/xformers/_C.so)", "import.glibc"),
    ("ImportError: libcublasLt.so.13: cannot open shared object file: No such file or directory", "import.cuda-lib-missing"),
    ("ptxas fatal   : Value 'sm_100a' is not defined for option 'gpu-name'", "triton.ptxas-arch"),
    ("RuntimeError: No available kernel.  Aborting execution.", "sdpa.no-kernel"),  # the CPU build's double space
    ("triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 262144, Hardware limit: 232448. "
     "Reducing block sizes or `num_stages` may help.", "flex.shared-memory"),
    ("W0101 00:00:00.000000 1 torch/_dynamo/convert_frame.py:964] [3/8] torch._dynamo hit config.cache_size_limit (8)", "compile.recompile-limit"),
    ("[rank3]: ValueError: Expected 'True' or 'False' at index 2 in ConfigTokenizer but got 'TRUE'", "alloc.bool-case"),
    ("AssertionError: (head_dim, head_dim_v)=(512, 512) is not supported on SM90. head_dim and head_dim_v must be between 8 and 256", "cute.head-dim"),
    # the same release of torch, another CUDA build: more specific than "built for another torch"
    ("[rank0]: WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
     "[rank0]:     PyTorch 2.11.0+cu126 with CUDA 1206 (you have 2.11.0+cu130)", "xformers.built-for-other-cuda"),
    ("WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
     "    PyTorch 2.9.1+cu128 with CUDA 1208 (you have 2.11.0+cu130)", "xformers.built-for-other-torch"),
    # a rich-formatted traceback (box characters, colour codes)
    ("\x1b[31m│\x1b[0m /venv/lib/python3.11/site-packages/flash_attn/cute/interface.py:801 in _flash_attn_fwd │\n"
     "\x1b[1;31mAssertionError: \x1b[0minputs must be float16, bfloat16, fp8 e4m3fn, or fp8 e5m2", "cute.dtype"),
    ("nvcc error   : 'ptxas' died due to signal 9 (Kill signal)", "build.oom"),
])
def test_matching_generalises_beyond_the_examples(text, expected):
    assert ids(text)[:1] == [expected]


def test_specific_entry_claims_the_line_from_a_generic_one():
    # "undefined symbol: __nvJitLink..." is both an undefined symbol and the nvJitLink problem:
    # the specific entry explains the line, the general one is not repeated.
    text = ("ImportError: /venv/lib/python3.11/site-packages/nvidia/cusparse/lib/libcusparse.so.12: "
            "undefined symbol: __nvJitLinkAddData_12_1, version libnvJitLink.so.12")
    assert ids(text) == ["torch.nvjitlink"]
    # A generic entry is dropped when a specific one explains the log ...
    log = ("torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
           "RuntimeError: Failed to find C compiler. Please specify via CC environment variable.")
    assert ids(log) == ["flex.no-cc"]
    # ... and reported when nothing specific does.
    assert ids("torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\nKeyError: 'x'") == ["flex.compile-failed"]


def test_a_long_multi_line_pattern_does_not_hide_errors_inside_it():
    # build.isolation spans from pip's "Getting requirements to build wheel" to "No module named
    # 'torch'"; an unrelated error between the two is still reported on its own.
    log = ("  Getting requirements to build wheel ... error\n"
           "ImportError: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found (required by /x/_C.so)\n"
           "      ModuleNotFoundError: No module named 'torch'\n")
    assert ids(log) == ["build.isolation", "import.glibc"]


def test_earlier_error_ranks_first_within_a_severity():
    log = ("ModuleNotFoundError: No module named 'flash_attn_2_cuda'\n" + TRAINING_LOG +
           "RuntimeError: FlashAttention only supports Ampere GPUs or newer.\n")
    assert ids(log)[0] == "fa2.no-extension"
    log2 = ("RuntimeError: FlashAttention only supports Ampere GPUs or newer.\n" + TRAINING_LOG +
            "ModuleNotFoundError: No module named 'flash_attn_2_cuda'\n")
    assert ids(log2)[0] == "backend.unsupported-gpu"


def test_each_problem_reported_once_with_its_count():
    block = "RuntimeError: No available kernel. Aborting execution.\n"
    ms = match((TRAINING_LOG + block) * 5)
    assert [m.entry.id for m in ms] == ["sdpa.no-kernel"]
    assert ms[0].count == 5 and ms[0].line == TRAINING_LOG.count("\n") + 1


def test_attn_doctor_output_is_recognised():
    # Real output of `attn-doctor check --no-smoke` on this repo's 2-core CPU machine (torch 2.13.0+cpu, 2026-11).
    assert set(ids((LOGS / "check-output-cpu.txt").read_text())) == {"torch.cpu-build", "cache.volatile"}


def test_specificity_is_the_literal_floor_of_a_pattern():
    assert literal_chars(r"undefined symbol: \S+") == len("undefined symbol: ")
    assert literal_chars(r"(has requirement|requires) x") == len("requires x")  # the weakest branch
    assert literal_chars(r"a{3}b?[xyz]\d") == 3
    assert required_literal(r"No module named ['\"]torch['\"]") == "no module named "


# ---- the seed guides and FACTS.md are covered ------------------------------------------------------

def seed_rows():
    """(guide, symptom) for every row of every troubleshooting table in the seeds, and every bullet of
    the CuTE guide's troubleshooting list (it has no table)."""
    rows = []
    for path in SEEDS:
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            if line.startswith("|") and i + 1 < len(lines) and re.match(r"^\|\s*-", lines[i + 1]):
                continue  # a header row
            if line.startswith("|") and not re.match(r"^\|\s*-", line):
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                rows.append((path.name, cells[0].replace("`", "")))
        text = "\n".join(lines)
        if "## Troubleshooting\n" in text:
            section = text.split("## Troubleshooting\n", 1)[1].split("\n## ", 1)[0]
            rows += [(path.name, m.group(1).replace("`", "")) for m in re.finditer(r"(?m)^- (.+?):\s*$", section)]
    return rows


@pytest.mark.skipif(not (SHARED / "seeds").is_dir(), reason="no shared/seeds beside this checkout")
def test_seed_copies_are_current():
    shared = {p.name: p.read_bytes() for p in (SHARED / "seeds").glob("*.md")}
    assert shared == {p.name: p.read_bytes() for p in SEEDS}


def test_seed_tables_were_found():
    rows = seed_rows()
    assert len(rows) >= 4 * 4 + 3, rows  # 4 rows in each of the 4 flex guides, 3 CuTE bullets


@pytest.mark.parametrize("guide,symptom", seed_rows())
def test_every_seed_row_maps_to_an_entry_quoting_its_guide(guide, symptom):
    found = match(symptom)
    assert found, f"{guide}: {symptom!r} matches no entry"
    e = found[0].entry
    assert e.guide_claim and e.guide_claim.startswith(guide.split(".")[0]), e.id


def test_translated_rows_map_to_the_same_entries():
    by_guide = {}
    for guide, symptom in seed_rows():
        if guide.startswith("flexattention-guide"):
            by_guide.setdefault(guide, []).append(ids(symptom)[0])
    assert len(set(map(tuple, by_guide.values()))) == 1, by_guide


# (seed file prefix, a phrase from the note, the entry, whether the phrase itself is matchable)
NOTES = [
    ("cute-training-guide", "quack-kernels==0.2.4", "cute.quack-guide-pin", True),
    ("cute-training-guide", "2.8.3+varlen.sm103", "cute.stale-fa2-cute", False),
    ("cute-training-guide", "CUTE_DSL_CACHE_DIR", "cache.cute-dsl-dir-misread", True),
    ("cute-training-guide", "identity “drift”", "varlen.padding-drift", True),
    ("cute-training-guide", "--sdpa | --flash-attn | --flash3 | --sage-attn", "musubi.flag-spelling", True),
    ("cute-training-guide", "Switch to `--flash-attn` (FA2)", "cute.rollback", False),
    ("cute-training-guide", "CuTE kernels JIT-compile independently", "compile.first-call-slow", True),
    ("cute-training-guide", "keep the allocator on the native backend", "alloc.async-cudagraphs", False),
    ("cute-training-guide", "Hopper (SM 9.0+) or Blackwell (SM 10.0+)", "backend.no-backward-on-gpu", False),
    ("cute-training-guide", "Performance worse than FA2", "cute.slower-than-fa2", True),
    ("flexattention-guide.en", "flex_attention.build_flex_attention_kernels()", "flex.no-build-helper", True),
    ("flexattention-guide.en", "flex_attention.kernel_root", "flex.no-build-helper", False),
    ("flexattention-guide.en", "~/.cache/torch/kernels", "flex.cache-location", True),
    ("flexattention-guide.en", "Query, key, and value must be either bfloat16 or float16", "diffusers.dtype-check", True),
    ("flexattention-guide.en", "Query, key, and value must be on a CUDA device", "diffusers.cuda-only-check", True),
    ("flexattention-guide.en", "FlexAttention requires CUDA devices", "diffusers.cuda-only-check", True),
    ("flexattention-guide.en", "honours `is_causal=False` only", "diffusers.causal-and-mask", True),
    ("flexattention-guide.en", "Classic SD/SDXL UNets still call PyTorch SDPA directly", "diffusers.backend-not-used", False),
    ("flexattention-guide.en", "Older cards fail the capability check", "flex.gpu-too-old", False),
    ("flexattention-guide.en", "the kernels compile at runtime with `nvcc`", "flex.no-cc", False),
    ("flexattention-guide.en", "Could not compile flex_attention kernels", "flex.compile-failed", True),
    ("flexattention-guide.en", "Flex Attention backend 'flex' is not usable because of missing package", "flex.torch-too-old", True),
]


@pytest.mark.parametrize("seed,phrase,entry_id,matchable", NOTES)
def test_every_seed_note_maps_to_an_entry(seed, phrase, entry_id, matchable):
    text = next(p for p in SEEDS if p.name.startswith(seed)).read_text(encoding="utf-8")
    assert phrase in text, "the note is quoted from the seed as it is"
    e = knowledge.get(entry_id)
    assert e.guide_claim and e.guide_claim.startswith(seed.split(".")[0])
    if matchable:
        assert entry_id in ids(phrase)


@pytest.mark.skipif(FACTS is None, reason="shared/FACTS.md not present")
def test_every_failure_text_in_facts_is_explained():
    text = FACTS.read_text(encoding="utf-8")
    table = text.split("## Real failure texts", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("|") and not line.startswith(("| scenario", "|---"))]
    assert len(rows) >= 6
    for row in rows:
        seen = row.strip("|").split("|")[1]
        quoted = re.findall(r"`([^`]+)`", seen)
        assert quoted, row
        for q in quoted:
            assert match(q), f"FACTS failure text {q!r} matches no entry"


@pytest.mark.skipif(FACTS is None, reason="shared/FACTS.md not present")
def test_every_false_guide_claim_in_facts_has_an_entry_with_the_truth():
    claims = {  # a phrase of the FACTS claim row -> the entry that carries the correction
        "build_flex_attention_kernels": "flex.no-build-helper",
        "Flex needs a matching `nvcc`": "flex.no-cc",
        "~/.cache/torch/kernels": "flex.cache-location",
        "Flex supports only bf16/fp16": "diffusers.dtype-check",
        "`CUTE_DSL_CACHE_DIR` makes CuTE kernels persist": "cache.cute-dsl-dir-misread",
        "`quack-kernels==0.2.4` is the CuTE runtime pin": "cute.quack-guide-pin",
        "`--flash-attn --sage-attn`": "musubi.flag-spelling",
    }
    text = FACTS.read_text(encoding="utf-8")
    table = text.split("## Claims in the guides", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("|") and not line.startswith(("| seed claim", "|---"))]
    assert len(rows) == len(claims)
    for row in rows:
        key = next(k for k in claims if k in row)
        e = knowledge.get(claims[key])
        assert e.truth, claims[key]


# ---- check names the cause of a failed import with the same matcher ---------------------------------

def _import_facts(name: str, dist: str, err_type: str, traceback: str, warnings=()):
    """Facts as smoke/child.py (its import stage) records a failed import (hand-made: the traceback is the fake)."""
    message = traceback.strip().splitlines()[-1].split(": ", 1)[-1]
    return {"env": {}, "torch": {"probe": {"version": "2.11.0+cu130", "import_ok": True, "cuda": "13.0",
                                           "triton": {"ok": True}}, "dist": {"version": "2.11.0+cu130"}},
            "host_cc": {"from": "PATH", "name": "gcc", "path": "/usr/bin/gcc"},
            "imports": {name: {"installed": True, "dist": dist, "version": "1.0",
                               "probe": {"ok": False, "stage": "import", "warnings": list(warnings),
                                         "error": {"type": err_type, "message": message, "traceback": traceback}},
                               "run": {"returncode": 1, "stderr_tail": ""}}}}


# A matched entry whose wording needs params the import probe cannot give (cache.unwritable names the
# cache's variable and path) becomes import.known-error naming it as the cause: it is not reported as
# that entry with blanks, and it is dropped where the caches check reports the entry in full.
@pytest.mark.parametrize("name,dist,err_type,tb,want_id,cause", [
    ("fa2", "flash-attn", "ImportError",
     "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n"
     "ImportError: /v/lib/python3.12/site-packages/flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEab",
     "import.undefined-symbol", None),
    ("cute", "flash-attn-4", "ModuleNotFoundError",
     "Traceback (most recent call last):\n  File \"/v/lib/python3.12/site-packages/flash_attn/cute/interface.py\", line 28, in <module>\n"
     "    from quack.cute_dsl_utils import ParamsBase\nModuleNotFoundError: No module named 'quack'",
     "import.dep-missing", None),  # quack-kernels is not installed in these facts: that, not drift (row 10)
    ("xformers", "xformers", "PermissionError",
     "Traceback (most recent call last):\n  File \"/v/lib/python3.12/site-packages/xformers/__init__.py\", line 50, in <module>\n"
     "PermissionError: [Errno 13] Permission denied: '/home/u/.triton/cache/ab12'",
     "import.known-error", "cache.unwritable"),
    ("sage", "sageattention", "RuntimeError", "Traceback (most recent call last):\nRuntimeError: something nobody has seen before",
     "import.failed", None),
])
def test_failed_import_is_named_by_the_matcher(name, dist, err_type, tb, want_id, cause):
    from attn_doctor.checks import Context
    from attn_doctor.report import evaluate

    r = evaluate(_import_facts(name, dist, err_type, tb), Context(), {})
    got = [f for f in r.findings if f.backend == name and f.section in ("backends", "versions", "caches")]
    assert [f.id for f in got] == [want_id]
    f = got[0]
    assert f.params.get("cause") == cause
    if cause:
        assert cause in f.title and f.fix == f"attn-doctor explain {cause}"
    assert "{" not in f.title and "{" not in (f.fix or ""), "the finding renders fully"
    assert f.detail and f.detail in tb
