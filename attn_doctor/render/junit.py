"""JUnit XML for CI test viewers (GitLab, Jenkins, GitHub test-report actions).

Two suites of stable test cases, so a CI's history can follow each one from run to run:
- `attn-doctor.backends`: one test case per backend. It fails when the backend is broken, or is required
  (--require / --config) and not ok; it is skipped when missing, skipped, or unsupported here and not
  required; it passes otherwise.
- `attn-doctor.checks`: one test case per check section (platform, versions, flex, nvcc, allocator,
  caches, backends, smoke and config when they ran). It fails when the section has a finding that fails
  the run (an error, or a warning with --strict), and the failure lists each such finding with its fix;
  other findings go to system-out. A crashed check is an <error>.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from ..backends import SPECS
from ..model import Report

SECTIONS = ("platform", "gpu", "backends", "smoke", "versions", "flex", "nvcc", "allocator", "caches", "settings",
            "config")
# XML 1.0 cannot carry most control characters (an ANSI colour code in an error text would break the file).
_BAD_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _clean(text) -> str:
    return _BAD_XML.sub("\ufffd", str(text if text is not None else ""))


def _finding_text(f) -> str:
    out = f"[{f.id}] {f.severity.upper()}: {f.title}"
    if f.fix:
        out += f"\n  fix: {f.fix}"
    if f.detail:
        out += f"\n  seen: {f.detail.strip()}"
    return out


def _fails(report: Report, f) -> bool:
    return f.severity == "error" or (bool(report.options.get("strict")) and f.severity == "warning")


def render(report: Report) -> str:
    root = ET.Element("testsuites", name="attn-doctor")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for suite in (_backends_suite(report), _checks_suite(report)):
        root.append(suite)
        for k in totals:
            totals[k] += int(suite.get(k, "0"))
    for k, v in totals.items():
        root.set(k, str(v))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _suite(name: str) -> ET.Element:
    return ET.Element("testsuite", name=name)


def _case(suite: ET.Element, name: str, seconds=None) -> ET.Element:
    case = ET.SubElement(suite, "testcase", classname=suite.get("name"), name=_clean(name))
    if seconds is not None:
        case.set("time", f"{float(seconds):.3f}")
    return case


def _count(suite: ET.Element) -> ET.Element:
    cases = suite.findall("testcase")
    suite.set("tests", str(len(cases)))
    suite.set("failures", str(sum(1 for c in cases if c.find("failure") is not None)))
    suite.set("errors", str(sum(1 for c in cases if c.find("error") is not None)))
    suite.set("skipped", str(sum(1 for c in cases if c.find("skipped") is not None)))
    return suite


def _backends_suite(report: Report) -> ET.Element:
    suite = _suite("attn-doctor.backends")
    for name in SPECS:
        row = report.backends.get(name) or {}
        status = row.get("status", "?")
        smoke = row.get("smoke") or {}
        case = _case(suite, name, smoke.get("wall_seconds") if smoke.get("ran") else row.get("import_seconds"))
        required = name in report.required
        line = f"{name}: {status}" + (f" ({row.get('reason')})" if row.get("reason") else "")
        own = [f for f in report.findings if f.backend == name]
        if status == "broken" or (required and status != "ok"):
            why = f"required and {status}" if required and status != "broken" else status
            message = f"{name} is {why}" + (f": {row['reason']}" if row.get("reason") else "")
            fail = ET.SubElement(case, "failure", message=_clean(message), type=status)
            fail.text = _clean("\n".join([line] + [_finding_text(f) for f in own]))
        elif status in ("missing", "skipped", "unsupported"):
            ET.SubElement(case, "skipped", message=_clean(line))
        out = [line]
        if row.get("version"):
            out.append(f"version: {row['version']}")
        if smoke.get("summary"):
            out.append(f"smoke: {smoke['summary']}")
        out += [_finding_text(f) for f in own if not _fails(report, f)]
        ET.SubElement(case, "system-out").text = _clean("\n".join(out))
    return _count(suite)


def _checks_suite(report: Report) -> ET.Element:
    suite = _suite("attn-doctor.checks")
    by_section: dict[str, list] = {}
    for f in report.findings:
        by_section.setdefault(f.section, []).append(f)
    sections = [s for s in SECTIONS if s not in ("smoke", "config", "gpu", "settings") or by_section.get(s)
                or (s == "config" and report.config)
                or (s == "smoke" and any((r or {}).get("smoke") for r in report.backends.values()))]
    sections += sorted(s for s in by_section if s not in sections and s != "doctor")
    for section in sections:
        items = by_section.get(section, [])
        case = _case(suite, section)
        failing = [f for f in items if _fails(report, f)]
        if failing:
            fail = ET.SubElement(case, "failure", message=_clean(failing[0].title), type=failing[0].id)
            fail.text = _clean("\n\n".join(_finding_text(f) for f in failing))
        rest = [f for f in items if not _fails(report, f)]
        if rest:
            ET.SubElement(case, "system-out").text = _clean("\n\n".join(_finding_text(f) for f in rest))
    crashed = by_section.get("doctor", [])
    if crashed:
        case = _case(suite, "doctor")
        err = ET.SubElement(case, "error", message=_clean(crashed[0].title), type=crashed[0].id)
        err.text = _clean("\n\n".join(_finding_text(f) for f in crashed))
    return _count(suite)
