"""--select / --ignore: ids and prefixes, typos refused, ignored findings do not count for the exit code."""

import json

import pytest

from attn_doctor import selection
from attn_doctor.model import UsageError
from ci_support import CPU_REPORT, cli, evaluate

# The saved CPU report holds: alloc.bool-case (error), cache.volatile, torch.cpu-build (warnings), alloc.old-name (info).


def ids(report):
    return [f.id for f in report.findings]


def test_parse_accepts_ids_and_prefixes():
    assert selection.parse(["alloc.bool-case", "cache.,torch.*", "alloc.async*"], "--select") == \
        ["alloc.bool-case", "cache.", "torch.*", "alloc.async*"]
    assert selection.parse(["cache.", "cache."], "--ignore") == ["cache."]


@pytest.mark.parametrize("bad", ["alloc.bool_case", "cache.nope", "nope.", "nope*", "cache"])
def test_parse_refuses_what_matches_no_finding(bad):
    with pytest.raises(UsageError, match="matches no finding id"):
        selection.parse([bad], "--ignore")


def test_typo_gets_a_suggestion():
    with pytest.raises(UsageError, match="did you mean 'alloc.bool-case'"):
        selection.parse(["alloc.bool-cse"], "--select")


def test_matching_rules():
    assert selection.matches("cache.volatile", ["cache."]) and selection.matches("cache.volatile", ["cache.*"])
    assert not selection.matches("cachex.volatile", ["cache."])
    assert selection.matches("alloc.async-cudagraphs", ["alloc.async*"])
    assert not selection.matches("alloc.bool-case", ["alloc.bool"])  # no '.' or '*': an exact id


def test_ignoring_the_error_makes_the_run_pass():
    full = evaluate()
    assert full.exit_code == 1 and "alloc.bool-case" in ids(full)
    quiet = evaluate(ignore=["alloc.bool-case"])
    assert quiet.exit_code == 0 and "alloc.bool-case" not in ids(quiet) and quiet.ignored == 1


def test_select_keeps_only_matching_findings():
    r = evaluate(select=["cache."])
    assert ids(r) == ["cache.volatile"] and r.exit_code == 0 and r.ignored == 3
    r = evaluate(select=["alloc.*"])
    assert sorted(ids(r)) == ["alloc.bool-case", "alloc.old-name"] and r.exit_code == 1


def test_ignore_wins_over_select_and_strict_counts_only_what_is_kept():
    r = evaluate(select=["alloc."], ignore=["alloc.bool-case"])
    assert ids(r) == ["alloc.old-name"]
    assert evaluate(strict=True, ignore=["alloc."]).exit_code == 1  # the warnings still fail under --strict
    assert evaluate(strict=True, ignore=["alloc.", "cache.", "torch.cpu-build"]).exit_code == 0


def test_required_backend_still_fails_under_select_unless_ignored():
    r = evaluate(required=["cute"], select=["cache."])
    assert "require.not-ok" in ids(r) and r.exit_code == 1
    r = evaluate(required=["cute"], ignore=["require.not-ok", "alloc.bool-case"])
    assert r.exit_code == 0


def test_cli_select_and_ignore_in_the_json_report():
    r = cli("check", "--from", str(CPU_REPORT), "--json", "-", "--select", "cache.*,alloc.", "--ignore", "alloc.old-name")
    doc = json.loads(r.stdout)
    assert r.returncode == 1
    assert [f["id"] for f in doc["findings"]] == ["alloc.bool-case", "cache.volatile"]
    assert doc["options"]["select"] == ["cache.*", "alloc."] and doc["options"]["ignore"] == ["alloc.old-name"]
    assert doc["ignored"] == 2 and doc["required"] == []


def test_cli_unknown_id_is_usage_error():
    r = cli("check", "--from", str(CPU_REPORT), "--ignore", "cache.volatil")
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "--ignore: 'cache.volatil' matches no finding id" in r.stderr


def test_from_reuses_the_saved_selection(tmp_path):
    saved = tmp_path / "r.json"
    cli("check", "--from", str(CPU_REPORT), "--ignore", "alloc.bool-case", "--json", str(saved))
    r = cli("check", "--from", str(saved), "--json", "-")
    assert r.returncode == 0 and "alloc.bool-case" not in [f["id"] for f in json.loads(r.stdout)["findings"]]
    r = cli("check", "--from", str(saved), "--json", "-", "--ignore", "cache.volatile")  # given again: wins
    assert r.returncode == 1 and "alloc.bool-case" in [f["id"] for f in json.loads(r.stdout)["findings"]]
