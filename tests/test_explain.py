"""`attn-doctor explain`: by id, from stdin, --list, --json, exit codes, and long logs with several errors."""

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from attn_doctor.cli import main
from attn_doctor.knowledge import entries

LOGS = Path(__file__).parent / "fixtures" / "logs"

# A stretch of an ordinary musubi-tuner run (hand-written in its shape); the long logs below are
# built from it, with the error blocks of the fixtures/logs files spliced in.
NOISE = [
    "INFO:musubi_tuner.hv_train_network:DiT dtype: torch.bfloat16, device: cuda:0",
    "steps:  {i:>2}%|▏         | {i}/1600 [00:41<1:49:12,  4.12s/it, avr_loss=0.0921]",
    "[rank{r}]: INFO:musubi_tuner.dataset:bucket (960, 544, 81): 12 items",
    "/usr/local/lib/python3.11/site-packages/torch/utils/checkpoint.py:87: UserWarning: torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly.",
    "  warnings.warn(",
    "INFO:musubi_tuner.hv_train_network:saving checkpoint: /output/wan-lora-{i:06d}.safetensors",
]


def noise(n: int, seed: int = 0) -> str:
    return "\n".join(NOISE[(k + seed) % len(NOISE)].format(i=k % 100, r=k % 8) for k in range(n)) + "\n"


def run(args, stdin: str | None = None, monkeypatch=None, capsys=None):
    """The CLI in-process: (exit code, stdout, stderr)."""
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8"))
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def cli(monkeypatch, capsys):
    monkeypatch.setenv("NO_COLOR", "1")
    return lambda *args, stdin=None: run(args, stdin, monkeypatch, capsys)


def test_explain_an_id(cli):
    code, out, err = cli("explain", "cute.quack-guide-pin")
    assert code == 0 and err == ""
    assert out.startswith("cute.quack-guide-pin  (error, backend cute)")
    for label in ("why:", "fix:", "guide:", "true:"):
        assert label in out
    assert "quack-kernels>=0.5.3" in out
    assert re.search(r"file:\s+attn_doctor/knowledge/versions.toml", out)  # where to read or change it


def test_an_entrys_file_is_where_it_is_written():
    """Every entry says the TOML file it is written in (explain ID prints it), and that file holds its id."""
    from attn_doctor.knowledge import HERE, entries

    for e in entries().values():
        assert f'id = "{e.id}"' in (HERE / e.file).read_text(encoding="utf-8"), e.id


def test_the_knowledge_readme_names_every_file():
    """knowledge/README.md is the map a newcomer reads to find where an entry lives: it names every TOML file."""
    from attn_doctor.knowledge import HERE

    readme = (HERE / "README.md").read_text(encoding="utf-8")
    missing = [p.name for p in HERE.glob("*.toml") if f"`{p.name}`" not in readme]
    assert missing == []


def test_explain_unknown_id_exits_1_with_a_suggestion(cli):
    code, out, err = cli("explain", "cache.volatil")
    assert code == 1 and out == ""
    assert "did you mean cache.volatile" in err and err.count("\n") == 1


def test_explain_an_error_given_as_argument(cli):
    code, out, _ = cli("explain", "RuntimeError: FlashAttention only supports Ampere GPUs or newer.")
    assert code == 0 and "backend.unsupported-gpu" in out


def test_notes_alone_are_not_called_problems(cli):
    # a Windows torch's start-up warning over a run no entry explains (a slow step): the note is shown, and the headline does
    # not call it the cause of anything
    log = ("C:\\venv\\lib\\site-packages\\transformers\\models\\qwen2\\modeling_qwen2.py:623: UserWarning: 1Torch was not "
           "compiled with flash attention. (Triggered internally at ..\\aten\\src\\ATen\\native\\transformers\\cuda\\"
           "sdp_utils.cpp:555.)\n")
    code, out, _ = cli("explain", "-", stdin=log + "each step takes 40 s\n")
    assert code == 0 and out.startswith("no attention problem found: nothing in the input is a known cause of "
                                        "failure.\n1 note on what it printed, none of them why it failed:"), out
    assert "sdpa.built-without-flash" in out
    # over another program's failure that names no attention (round 10's unrelated LLaMA-Factory log), the note is no finding
    # (ex35u, session 35: attribution.toml [note_beside_failure])
    code, out, _ = cli("explain", "-", stdin=log + "AttributeError: 'AdamW' object has no attribute 'train'\n")
    assert code == 1 and out == "", out
    code, out, _ = cli("explain", "-", stdin=log + "RuntimeError: FlashAttention only supports Ampere GPUs or newer.\n")
    assert out.startswith("2 known problem(s) in the input"), out


def test_explain_stdin_unrelated_text_exits_1(cli):
    code, out, err = cli("explain", "-", stdin="all good, loss went down\n")
    assert code == 1 and out == "" and "no known problem matches" in err


def test_explain_without_target_is_a_usage_error(cli):
    code, out, err = cli("explain")
    assert code == 2 and err.startswith("attn-doctor: error: explain:")


def test_explain_list_names_every_id(cli):
    code, out, _ = cli("explain", "--list")
    assert code == 0
    listed = {line.split()[0] for line in out.splitlines() if line and not line.startswith(" ")}
    assert listed == set(entries())
    code, out, _ = cli("explain", "--list", "--json")
    assert {e["id"] for e in json.loads(out)["entries"]} == set(entries())


def test_explain_json_shape_and_exit_codes(cli):
    code, out, _ = cli("explain", "--json", "-", stdin=(LOGS / "xformers-beside-fa4.txt").read_text())
    doc = json.loads(out)
    assert code == 0
    assert [m["id"] for m in doc["matches"]] == ["xformers.built-for-other-torch", "xformers.fa4-namespace"]
    for m in doc["matches"]:
        assert {"id", "backend", "title", "cause", "fix"} <= set(m)
        assert m["backend"] == "xformers" and m["title"] and m["fix"] and "{" not in m["title"]
    code, out, _ = cli("explain", "--json", "-", stdin="nothing to see\n")
    assert code == 1 and json.loads(out) == {"matches": [], "found": 0, "read": {"bytes": 15, "lines": 1}}
    code, out, _ = cli("explain", "--json", "sdpa.no-kernel")
    assert code == 0 and [m["id"] for m in json.loads(out)["matches"]] == ["sdpa.no-kernel"]


def test_long_log_with_several_errors(cli):
    """20,000 lines of a training run with three problems in it: each is reported once, in the order
    they first occur, with the line it was seen on."""
    blocks = [(LOGS / name).read_text() for name in ("flex-recompile-then-uncompiled.txt", "flex-shared-memory-traceback.txt")]
    log = noise(8000) + blocks[0] + noise(8000, 3) + blocks[1] + noise(4000, 5)
    code, out, _ = cli("explain", "--json", "-", stdin=log)
    doc = json.loads(out)
    assert code == 0
    assert [m["id"] for m in doc["matches"]] == ["compile.recompile-limit", "flex.uncompiled", "flex.shared-memory"]
    recompile, uncompiled, smem = doc["matches"]
    assert recompile["line"] == 8001 and recompile["count"] == 2  # two functions hit the limit
    assert "hit config.recompile_limit (8)" in recompile["evidence"]
    assert smem["line"] > 16000 and "Hardware limit: 101376" in smem["evidence"]


def test_generic_compile_failure_names_the_real_cause(cli):
    """Inductor wraps the real error; the log names both, the specific cause is what is reported."""
    log = noise(500) + (LOGS / "inductor-no-c-compiler.txt").read_text()
    code, out, _ = cli("explain", "--json", "-", stdin=log)
    assert [m["id"] for m in json.loads(out)["matches"]] == ["flex.no-cc"]


def test_build_log_names_the_out_of_memory_kill(cli):
    code, out, _ = cli("explain", "-", stdin=(LOGS / "flash-attn-build-oom.txt").read_text())
    assert code == 0
    first = out.splitlines()[2]
    # "N known problem(s)...", blank, then the first entry ("1. " when there are several: the log's
    # "Precompiled wheel not found" is a note, build.prebuilt-wheel-missing, ranked after the cause)
    assert first.removeprefix("1. ").startswith("build.oom")


def test_explain_reads_its_own_check_output(cli):
    code, out, _ = cli("explain", "--json", "-", stdin=(LOGS / "check-output-cpu.txt").read_text())
    assert code == 0 and {m["id"] for m in json.loads(out)["matches"]} == {"torch.cpu-build", "cache.volatile"}


def test_explain_end_to_end_in_a_subprocess():
    """The installed entry point path: python -m attn_doctor, stdin piped, plain output."""
    r = subprocess.run([sys.executable, "-m", "attn_doctor", "explain", "-"], input=(LOGS / "xformers-beside-fa4.txt").read_text(),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("2 known problem(s) in the input, most likely cause first:")
    assert "\x1b[" not in r.stdout and not any(line.endswith(" ") for line in r.stdout.splitlines())
