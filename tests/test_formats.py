"""The CI formats: JUnit XML (parsed), GitHub annotations (matched, escaped), Markdown (redacted), and
`check --json` then `check --from` giving the same verdict. A GitHub Actions run is simulated end to end."""

import copy
import json
import re
import xml.etree.ElementTree as ET

import pytest

from attn_doctor.model import Finding
from attn_doctor.render import github, junit, markdown
from ci_support import CPU_REPORT, cli, evaluate, saved_facts

ANNOTATION = re.compile(r"^::(error|warning|notice) title=([^:]+)::(.*)$")


def _junit(report) -> ET.Element:
    root = ET.fromstring(junit.render(report))
    assert root.tag == "testsuites"
    return root


def _case(root, suite, name):
    s = root.find(f"testsuite[@name='{suite}']")
    return s.find(f"testcase[@name='{name}']")


# --- JUnit -----------------------------------------------------------------------------------------

def test_junit_one_case_per_backend_and_per_check_section():
    root = _junit(evaluate())
    backends = root.find("testsuite[@name='attn-doctor.backends']")
    assert [c.get("name") for c in backends.findall("testcase")] == ["sdpa", "flex", "cute", "fa2", "fa3", "sage", "xformers"]
    checks = root.find("testsuite[@name='attn-doctor.checks']")
    names = [c.get("name") for c in checks.findall("testcase")]
    assert {"platform", "backends", "versions", "flex", "nvcc", "allocator", "caches"} <= set(names)
    assert "config" not in names  # no --config given
    # Totals add up, as viewers read them from the attributes.
    cases = root.findall(".//testcase")
    assert int(root.get("tests")) == len(cases)
    assert int(root.get("failures")) == len(root.findall(".//testcase/failure"))
    assert int(root.get("skipped")) == len(root.findall(".//testcase/skipped"))


def test_junit_backend_cases_follow_status_and_required():
    root = _junit(evaluate(required=["cute"]))
    sdpa = _case(root, "attn-doctor.backends", "sdpa")
    assert sdpa.find("failure") is None and sdpa.find("skipped") is None  # ok: passes
    fa2 = _case(root, "attn-doctor.backends", "fa2")
    assert fa2.find("skipped") is not None  # missing and not required: skipped
    cute = _case(root, "attn-doctor.backends", "cute")
    fail = cute.find("failure")
    assert fail is not None and "required and missing" in fail.get("message")
    # the CPU VM's torch is a CPU build: the install plan's first step is a CUDA torch (attn_doctor/plans)
    assert "[require.not-ok]" in fail.text and "CPU-only build: install a CUDA build of torch first" in fail.text


def test_junit_check_failure_carries_finding_and_fix():
    root = _junit(evaluate())
    alloc = _case(root, "attn-doctor.checks", "allocator")
    fail = alloc.find("failure")
    assert fail.get("type") == "alloc.bool-case"
    assert "fix: export PYTORCH_ALLOC_CONF='expandable_segments:True'; unset PYTORCH_CUDA_ALLOC_CONF" in fail.text
    caches = _case(root, "attn-doctor.checks", "caches")
    assert caches.find("failure") is None  # a warning does not fail without --strict
    assert "[cache.volatile]" in caches.find("system-out").text
    strict = _case(_junit(evaluate(strict=True)), "attn-doctor.checks", "caches")
    assert strict.find("failure").get("type") == "cache.volatile"


def test_junit_survives_control_characters_and_markup():
    report = evaluate()
    bad = Finding(id="import.failed", severity="error", section="backends", title="xformers <broken> & \"odd\"",
                  fix="pip install x", backend="xformers", detail="\x1b[31mImportError\x1b[0m: \x00 nul")
    report.findings.append(bad)
    root = _junit(report)  # parses: no raw ESC or NUL reached the XML
    text = ET.tostring(root, encoding="unicode")
    assert "xformers <broken>" in _case(root, "attn-doctor.checks", "backends").find("failure").text
    assert "\x1b" not in text and "\x00" not in text


def test_junit_crashed_check_is_an_error_case():
    report = evaluate()
    report.findings.append(Finding(id="doctor.check-crashed", severity="error", section="doctor",
                                   title="The check caches.x crashed: KeyError: 'path'."))
    root = _junit(report)
    assert _case(root, "attn-doctor.checks", "doctor").find("error") is not None
    assert root.get("errors") == "1"


# --- GitHub annotations --------------------------------------------------------------------------

def test_github_escaping_rules():
    assert github.escape_data("100% done\r\nnext") == "100%25 done%0D%0Anext"
    assert github.escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    f = Finding(id="x.y", severity="info", section="flex", title="50% slower, see: below", fix="line1\nline2")
    assert github.annotation(f) == "::notice title=x.y::50%25 slower, see: below Fix: line1%0Aline2"


def test_github_one_annotation_per_finding():
    report = evaluate()
    lines = github.render(report).splitlines()
    notes = [ANNOTATION.match(ln) for ln in lines if ln.startswith("::")]
    assert all(notes) and len(notes) == len(report.findings)
    assert [m.group(2) for m in notes] == [f.id for f in report.findings]
    assert {m.group(1) for m in notes} == {"error", "warning", "notice"}  # info findings are notices
    assert lines[-1].endswith("exit 1")


def test_simulated_github_actions_run(tmp_path):
    """A workflow step `attn-doctor check --from report.json --format github --junit ...` on a runner."""
    xml_path = tmp_path / "attn-doctor.xml"
    r = cli("check", "--from", str(CPU_REPORT), "--format", "github", "--junit", str(xml_path),
            env={"GITHUB_ACTIONS": "true", "CI": "true", "RUNNER_OS": "Linux"})
    assert r.returncode == 1, r.stderr
    found = {}
    for line in r.stdout.splitlines():
        m = ANNOTATION.match(line)
        if m:
            found[m.group(2)] = (m.group(1), m.group(3))
    assert found["alloc.bool-case"][0] == "error"
    assert "Fix: export PYTORCH_ALLOC_CONF='expandable_segments:True'; unset PYTORCH_CUDA_ALLOC_CONF" in found["alloc.bool-case"][1]
    assert found["cache.volatile"][0] == "warning"
    ET.parse(xml_path)  # the JUnit file a test-report action would read
    # Silencing the one error turns the step green.
    r = cli("check", "--from", str(CPU_REPORT), "--format", "github", "--ignore", "alloc.bool-case",
            env={"GITHUB_ACTIONS": "true"})
    assert r.returncode == 0 and "title=alloc.bool-case" not in r.stdout


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """One live probe of this machine (its children import torch, ~5 s of CPU) with a setting torch would refuse, for
    the two tests that need one: `check --no-smoke --format github --json PATH --require cute --ignore cache.volatile`,
    the annotations on stdout and the report saved for `check --from` (two runs before; ci40c)."""
    saved = tmp_path_factory.mktemp("live") / "report.json"
    r = cli("check", "--no-smoke", "--format", "github", "--json", str(saved), "--require", "cute",
            "--ignore", "cache.volatile", env={"GITHUB_ACTIONS": "true", "PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:true"})
    return r, saved


def test_live_github_run_reports_a_bad_allocator_setting(live):
    """The same step probing this machine for real, with a setting torch would refuse."""
    r, saved = live
    assert r.returncode == 1, r.stderr
    assert re.search(r"^::error title=alloc\.bool-case::", r.stdout, re.MULTILINE)
    # the error is the allocator setting's own (the run also requires cute, for the test below)
    doc = json.loads(saved.read_text())
    assert [f["severity"] for f in doc["findings"] if f["id"] == "alloc.bool-case"] == ["error"]


# --- Markdown ------------------------------------------------------------------------------------

def test_markdown_report_is_redacted():
    facts = saved_facts()
    # FAKE: a report from another user's machine, with secrets where people keep them.
    facts["env"] = {"HOME": "/home/alice", "PYTHONPATH": "/home/alice/src/trainer",
                    "TORCHINDUCTOR_CACHE_DIR": "/home/alice/.cache/inductor",
                    "TRITON_CACHE_DIR": "/data/hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345/cache",
                    "PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:true",
                    "HF_TOKEN": "hf_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"}
    facts["system"]["user"] = "alice"
    report = evaluate(facts)
    report.findings.append(Finding(id="import.failed", severity="error", section="backends",
                                   title="xformers | does not import", fix="pip install xformers", backend="xformers",
                                   detail="OSError: key AKIAIOSFODNN7EXAMPLE rejected, token sk-proj-abcdefghijklmnopqrstu"))
    md = markdown.render(report)
    assert "/home/alice" not in md and "~/src/trainer" in md and "~/.cache/inductor" in md
    for secret in ("hf_AbCdEf", "hf_zzzz", "AKIAIOSFODNN7EXAMPLE", "sk-proj-abc"):
        assert secret not in md, secret
    assert "HF_TOKEN=[REDACTED]" in md
    assert "| backend | status | version | notes |" in md
    assert "`alloc.bool-case`" in md and "xformers \\| does not import" not in md  # titles are not table cells
    assert "fix: `export PYTORCH_ALLOC_CONF='expandable_segments:True'; unset PYTORCH_CUDA_ALLOC_CONF`" in md


def test_markdown_cells_escape_pipes():
    report = evaluate()
    report.backends["fa2"] = dict(report.backends["fa2"], status="broken", reason="a | b\nc")
    md = markdown.render(report)
    assert "| fa2 | broken | - | a \\| b<br>c |" in md
    report.backends["fa2"]["status"] = "missing"  # in the one row of the missing backends: escaped too
    assert "fa2: a \\| b<br>c" in markdown.render(report)


# --- check --json, then check --from -------------------------------------------------------------

def _verdict(doc: dict):
    keep = ("id", "severity", "section", "title", "fix", "backend", "detail")
    return ([{k: f[k] for k in keep} for f in doc["findings"]], doc["exit_code"], doc["required"], doc["ignored"])


def test_json_then_from_gives_same_findings_and_exit_code(live):
    first, saved = live  # check --no-smoke --json PATH --require cute --ignore cache.volatile (and --format github)
    again = cli("check", "--from", str(saved), "--json", "-")
    doc1, doc2 = json.loads(saved.read_text()), json.loads(again.stdout)
    assert first.returncode == doc1["exit_code"] == 1
    assert again.returncode == first.returncode
    assert _verdict(doc2) == _verdict(doc1)
    assert doc1["required"] == ["cute"] and doc1["ignored"] == 1
    assert doc2["options"]["from"] == str(saved)


def test_format_json_is_json_to_stdout():
    a = cli("check", "--from", str(CPU_REPORT), "--format", "json")
    b = cli("check", "--from", str(CPU_REPORT), "--json", "-")
    assert a.returncode == b.returncode == 1
    assert _verdict(json.loads(a.stdout)) == _verdict(json.loads(b.stdout))


def test_format_usage_errors(tmp_path):
    for args, text in ((["--format", "sarif"], "unknown format 'sarif'"),
                       (["--format", "github", "--json", "-"], "both write to stdout"),
                       (["--junit", str(tmp_path / "no" / "such" / "dir.xml")], "does not exist"),
                       (["--junit", str(tmp_path)], "is a directory")):
        r = cli("check", "--from", str(CPU_REPORT), *args)
        assert r.returncode == 2, args
        assert r.stderr.count("\n") == 1 and text in r.stderr and "Traceback" not in r.stderr


def test_junit_write_is_complete_or_absent(tmp_path):
    out = tmp_path / "j.xml"
    out.write_text("old")
    r = cli("check", "--from", str(CPU_REPORT), "--junit", str(out))
    assert r.returncode == 1
    assert ET.parse(out).getroot().tag == "testsuites"
    assert [p.name for p in tmp_path.iterdir()] == ["j.xml"]  # no temporary file left beside it


def test_text_format_from_saved_report_names_its_source():
    r = cli("check", "--from", str(CPU_REPORT))
    assert r.returncode == 1
    flat = " ".join(r.stdout.split())  # the text report wraps at 80 columns
    assert f"re-evaluated from {CPU_REPORT}" in flat and "[alloc.bool-case]" in flat


def test_saved_report_round_trips_config(tmp_path):
    cfg = "fixtures/configs/simpletuner-flex/config.json"
    saved = tmp_path / "with-config.json"
    cli("check", "--from", str(CPU_REPORT), "--config", cfg, "--json", str(saved))
    again = json.loads(cli("check", "--from", str(saved), "--json", "-").stdout)
    first = json.loads(saved.read_text())
    assert first["config"]["required"] == ["flex"] and first["required"] == ["flex"]
    assert again["config"] == first["config"] and again["required"] == first["required"]
    assert _verdict(again) == _verdict(first)


def test_report_json_keeps_copy_safe():
    report = evaluate()
    before = copy.deepcopy(report.to_dict())
    junit.render(report), github.render(report), markdown.render(report)
    assert report.to_dict() == before  # renderers are views: they change nothing
