"""Session 6's review (helper rv6): defects found reading the day's merged code, each held by a test here.

1. Patterns that scan the rest of a line from every position: a pattern that begins with an unbounded scan (a
   look-ahead over `[^\\n]*`, or a message of knowledge/messages/ that starts with a formatted value, `[^\\n]*?`)
   is tried at each position of a line and reads to the line's end each time: quadratic on a long line (a JSON dump,
   a log with its newlines escaped), minutes for 200 KB.
"""

from __future__ import annotations

import re

from attn_doctor.explain import match
from attn_doctor.knowledge import attribution, entries
from attn_doctor.knowledge.messages import HOLE, messages

# what a pattern must not begin with unless a `^` or `\A` anchors it: each is tried at every position of a line
UNANCHORED_SCAN = re.compile(r"\(\?[!=][^)]*\[\^\\n\]\*|\[\^\\n\]\*|\.\*")


def _starts_with_scan(pattern: str) -> bool:
    return UNANCHORED_SCAN.match(pattern.lstrip()) is not None


def test_the_check_sees_a_leading_scan():
    assert _starts_with_scan(r"(?![^\n]*\bfor benchmark choice\b)out of resource")
    assert _starts_with_scan(r"[^\n]*?\ is\ not\ supported")
    assert not _starts_with_scan(r"^[^\n]*?\ is\ not\ supported")
    assert not _starts_with_scan(r"out of resource(?![^\n]*\bfor benchmark choice\b)")


def test_no_entry_pattern_scans_a_line_from_every_position():
    bad = [(e.id, p[:80]) for e in entries().values() for p in e.patterns if _starts_with_scan(p)]
    assert bad == []


def test_no_attribution_name_scans_a_line_from_every_position():
    bad = [(b, rx.pattern[:80]) for b, rx, _ in attribution.rules().libraries if _starts_with_scan(rx.pattern)]
    assert bad == []


def test_a_message_that_starts_with_a_value_matches_where_it_did():
    # anchored at the line's start: the same first match as the unanchored pattern, on a line and in a log
    leading = [m for m in messages() if m.text.startswith(HOLE)]
    assert leading, "no message starts with a formatted value: this test no longer tests anything"
    for m in leading:
        old = re.compile(r"[^\n]*?".join(re.escape(p) for p in m.text.split(HOLE)), re.IGNORECASE | re.MULTILINE)
        new = re.compile(m.pattern, re.IGNORECASE | re.MULTILINE)
        for text in (m.example, "INFO step 3\n  " + m.example + " (rank 0)\nDone.\n"):
            a, b = old.search(text), new.search(text)
            assert a is not None and b is not None and a.span() == b.span(), m.text


def test_flex_shared_memory_on_a_long_line_is_found():
    # one 200 KB line (a JSON dump of a log): the error at its end is found, and the autotuner's per-choice line is not it
    record = '{"step": 1, "msg": "loading shards for the model", "ms": 12}, '
    line = "[" + record * 3000 + '"triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: ' \
        '131072, Hardware limit: 101376"]'
    assert "flex.shared-memory" in [m.entry.id for m in match(line)]
    choice = ("out of resource: shared memory, Required: 131072, Hardware limit: 101376. Reducing block sizes or "
              "`num_stages` may help. for benchmark choice TritonTemplateCaller(...)")
    assert "flex.shared-memory" not in [m.entry.id for m in match(choice)]


# 2. Bad input gives one line and exit 2: a YAML scalar its form cannot hold raised ValueError out of load_yaml, which
#    `check --config` printed as an internal error; and a launcher's unreadable YAML (ms-swift, torchtune) was swallowed
#    by `except Exception` (hiding any bug of ours too) without being named as unread.

import pytest  # noqa: E402

from attn_doctor import configs  # noqa: E402
from attn_doctor.model import UsageError  # noqa: E402


@pytest.mark.parametrize("text", ["created: 2024-02-30\n", "n: !!int abc\n", "when: !!timestamp 2024-13-01\n"])
def test_a_yaml_scalar_that_cannot_be_read_is_a_usage_error(tmp_path, text):
    p = tmp_path / "train.yaml"
    p.write_text("model_name_or_path: meta-llama/Llama-3.1-8B\nstage: sft\n" + text)
    with pytest.raises(UsageError, match="not valid YAML"):
        configs.load(str(p))


def test_near_miss_a_valid_date_still_reads():
    assert configs.load_yaml("x.yaml", "created: 2024-02-29\n")["created"].day == 29


def test_an_unreadable_yaml_an_ms_swift_launcher_names_is_unread(tmp_path):
    (tmp_path / "sft.yaml").write_text("model: Qwen/Qwen2.5-7B\ntrain_type: [lora\n")  # unbalanced: not YAML
    (tmp_path / "run.sh").write_text("swift sft sft.yaml --attn_impl flash_attn\n")
    cfg = configs.load(str(tmp_path / "run.sh"))
    assert cfg["trainer"] == "ms-swift" and "sft.yaml" in cfg["unread"]


def test_an_unreadable_yaml_a_torchtune_launcher_names_is_unread(tmp_path):
    (tmp_path / "3b.yaml").write_text("model:\n  _component_: torchtune.models.llama3_2.lora_llama3_2_3b\n  x: [1\n")
    (tmp_path / "run.sh").write_text("tune run lora_finetune_single_device --config 3b.yaml\n")
    cfg = configs.load(str(tmp_path / "run.sh"))
    assert cfg["trainer"] == "torchtune" and "3b.yaml" in cfg["unread"]


# 3. Advice that could harm: a fix line says what it changes in which environment and how to put back what it replaces.

from attn_doctor.knowledge import attribution as _attribution  # noqa: E402


def test_the_setuptools_downgrade_says_how_to_put_back_what_it_replaces():
    fix = entries()["build.setuptools-too-new"].fix
    assert "'setuptools<80'" in fix and "in the environment that builds" in fix
    assert "pip show setuptools" in fix and "setuptools==" in fix  # the version it replaced, noted and reinstalled
    assert "-U setuptools" not in fix  # "upgrade" takes the newest, not the one that was there


def test_the_flashinfer_fix_does_not_upgrade_a_pinned_dependency_alone():
    # vLLM and SGLang pin flashinfer-python exactly: `pip install -U flashinfer-python` in their env breaks the pin
    fix = entries()["flashinfer.kernel-config"].fix
    assert "-U flashinfer-python" not in fix and "--upgrade flashinfer-python" not in fix
    assert "--attention-backend" in fix and "serving environment" in fix


def test_installing_triton_for_sage_or_xformers_names_the_python_and_the_pin():
    for backend in ("sage", "xformers"):
        _, fix = _attribution.wording(entries()["flex.no-triton"], backend)
        # rv15: the line installs the triton torch pins itself (read from torch's metadata when it runs), not the
        # newest triton with a comment saying how to find the pin (rv14's audit, row 14); rv16: the pin is read first
        # and pip runs only when there is one (`pin="$(python -c ...)" && python -m pip install "triton==$pin"`)
        assert fix.startswith('pin="$(python -c ') and "in the Python the app runs" in fix
        assert '&& python -m pip install "triton==$pin"' in fix
        assert 'm.requires("torch")' in fix  # where torch's triton pin is read (`pip show` lists no versions)
        assert "pip show torch" not in fix


# 4. attribution.toml's data: every entry id its tables name is an entry (explain passes over an unknown [[specialize]]
#    target silently, so a typo there would only show as a mechanism that never fires); one loader reads the file.


def test_every_id_attribution_toml_names_is_an_entry():
    r = attribution.rules()
    known = set(entries())
    named = {
        "entry_takes_over": set(r.entry_takes_over), "needs_backend": r.needs_backend, "own_or_frames": r.own_or_frames,
        "past_traceback": r.past_traceback, "title_sentence": r.title_sentence, "in_traceback": r.in_traceback,
        "required_by": r.required_by, "first_named": r.first_named, "optimizer_oom": r.optimizer_oom,
        "other_counts": r.other_counts, "selected_after": r.selected_after[0], "optional_probe": r.optional_probe[0],
        "specialize (entry)": {k[0] for k in r.specialize},
        "specialize (to)": {to for v in r.specialize.values() for to, *_ in v},
    }
    assert all(named.values()), [k for k, v in named.items() if not v]  # each table is read (not an empty default)
    assert {k: sorted(set(v) - known) for k, v in named.items() if set(v) - known} == {}
    assert {b for _, b in r.specialize} <= set(r.words)  # a backend attn-doctor has words for


# 5. sd-scripts: accelerate's own `--config_file accel.yaml` (before the script) was read as sd-scripts' --config_file TOML:
#    "acc.yaml.toml" named unread and the whole reading marked config_file_unread.

SDXL = "sdxl_train_network.py --pretrained_model_name_or_path sdxl.safetensors --network_module networks.lora"


@pytest.mark.parametrize("launch", ["accelerate launch --config_file acc.yaml --num_cpu_threads_per_process 1",
                                    "accelerate launch --config_file=configs/acc.yaml",
                                    "python -m accelerate.commands.launch --config_file acc.yaml"])
def test_accelerates_config_file_is_not_sd_scripts_config_file(tmp_path, launch):
    (tmp_path / "configs").mkdir()
    for p in ("acc.yaml", "configs/acc.yaml"):
        (tmp_path / p).write_text("compute_environment: LOCAL_MACHINE\nmixed_precision: fp16\n")
    (tmp_path / "run.sh").write_text(f"{launch} {SDXL} --xformers --mixed_precision bf16\n")
    cfg = configs.load(str(tmp_path / "run.sh"))
    assert cfg["trainer"] == "sd-scripts" and cfg["unread"] == [] and not cfg.get("config_file_unread")
    assert [a["backend"] for a in cfg["attention"]] == ["xformers"]


def test_sd_scripts_own_config_file_after_the_script_is_still_read(tmp_path):
    (tmp_path / "acc.yaml").write_text("mixed_precision: fp16\n")
    (tmp_path / "lora.toml").write_text('pretrained_model_name_or_path = "sdxl.safetensors"\nsdpa = true\n')
    (tmp_path / "run.sh").write_text("accelerate launch --config_file acc.yaml sdxl_train_network.py --config_file lora.toml "
                                     "--network_module networks.lora\n")
    cfg = configs.load(str(tmp_path / "run.sh"))
    assert cfg["trainer"] == "sd-scripts" and cfg["unread"] == [] and [a["backend"] for a in cfg["attention"]] == ["sdpa"]
    (tmp_path / "lora.toml").unlink()  # near miss: sd-scripts' own TOML missing is still said
    cfg = configs.load(str(tmp_path / "run.sh"))
    assert cfg["unread"] == ["lora.toml"] and cfg["config_file_unread"]


# 6. One definition of "the backend an entry's id names": explain.backend_of and knowledge.match.cause() used two copies
#    (a dict in explain.py, a set in attribution/) of the seven backends model.BACKENDS already lists.


def test_the_backend_an_entry_id_names_is_defined_once():
    from attn_doctor import explain
    from attn_doctor.model import BACKENDS

    assert attribution.BACKENDS == frozenset(BACKENDS)
    assert not hasattr(explain, "BACKEND_PREFIX")
    for e in entries().values():
        prefix = e.id.split(".", 1)[0]
        assert explain.backend_of(e) == attribution.backend_of(e) == (e.backend or (prefix if prefix in BACKENDS else None))


# 7. Where a launcher's config is looked for: ms-swift's and torchtune's readers checked the file beside the launcher
#    before the directory the launcher `cd`s to, so with both present they read the one the run does not
#    (references.locate's order, which named_config and the other readers use: the `cd`'s directory first).

TT = "model:\n  _component_: torchtune.models.llama3_2.lora_llama3_2_3b\ndtype: {dtype}\ncompile: False\n"


def test_torchtune_reads_the_config_in_the_directory_the_launcher_cds_to(tmp_path):
    (tmp_path / "recipes").mkdir()
    (tmp_path / "recipes" / "3b.yaml").write_text(TT.format(dtype="bf16"))
    (tmp_path / "3b.yaml").write_text(TT.format(dtype="fp32"))  # beside the launcher: not the run's
    (tmp_path / "run.sh").write_text("cd recipes\ntune run lora_finetune_single_device --config 3b.yaml\n")
    assert configs.load(str(tmp_path / "run.sh"))["dtype"] == "bfloat16"
    (tmp_path / "run.sh").write_text("tune run lora_finetune_single_device --config 3b.yaml\n")  # near miss: no cd
    assert configs.load(str(tmp_path / "run.sh"))["dtype"] == "float32"


def test_ms_swift_reads_the_config_in_the_directory_the_launcher_cds_to(tmp_path):
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "sft.yaml").write_text("model: Qwen/Qwen2.5-7B\nattn_impl: flash_attn\ntorch_dtype: bfloat16\n")
    (tmp_path / "sft.yaml").write_text("model: Qwen/Qwen2.5-7B\nattn_impl: sdpa\ntorch_dtype: float16\n")
    (tmp_path / "run.sh").write_text("cd examples\nswift sft sft.yaml\n")
    cfg = configs.load(str(tmp_path / "run.sh"))
    assert cfg["trainer"] == "ms-swift" and [a["backend"] for a in cfg["attention"]] == ["fa2"]
    (tmp_path / "run.sh").write_text("swift sft sft.yaml\n")  # near miss: no cd, the file beside it
    assert [a["backend"] for a in configs.load(str(tmp_path / "run.sh"))["attention"]] == ["sdpa"]


# 8. attribution.toml [inventory]'s version list read each dot two ways (`(?:\.\d+)+[\w.+-]*`): quadratic on a long
#    dotted word (20-40 ms for one 2,000-character line, for each line the search up an error's log reads).


def test_inventory_lines_are_read_as_before_without_the_ambiguous_dots():
    rx = attribution.rules().inventory
    assert not any(r"(?:\.\d+)+[\w.+-]*" in p.pattern for p in rx)
    listed = ["torch 2.1.0, xformers 0.0.23", "Versions: torch==2.5.1+cu121, flash-attn==2.7.4.post1",
              "  flash_attn==2.8.3", "[pip3] xformers==0.0.30", "xformers version: 0.0.29.post3"]
    assert all(any(r.search(s) for r in rx) for s in listed)
    not_listed = ["flash_attn 2.8.3 fails on sm_120", "flash_attn 1" + ".2" * 1000 + " x", "torch 2, xformers 0"]
    assert not any(r.search(s) for s in not_listed for r in rx)


# 9. fa3.import-name's question pattern read the rest of the line after every FA3 module name (quadratic: a trace or
#    JSON dump naming flash_attn_interface in every record, 0.2 s for 20 KB, minutes for a megabyte); now within 120
#    characters, as its mirror pattern (question first) is within 60.


def test_fa3_question_within_a_sentence_still_matches():
    for text in ("请问这个`flash_attn_interface`的安装方法", "how do I install flash_attn_interface?",
                 "flash_attn_3: where can I get it for torch 2.8 and CUDA 12.8?"):
        assert "fa3.import-name" in [m.entry.id for m in match(text)], text


def test_fa3_question_pattern_is_linear_on_a_long_line():
    import time

    rx = next(p for p in entries()["fa3.import-name"].compiled if p.pattern.startswith("(?:flash_attn_interface|"))
    record = '{"module": "flash_attn_interface", "ms": 12}, '  # one line of records, no question
    assert rx.search(record * 1500) is None
    # linear: 16x the line takes ~16x the time (unbounded it was quadratic, ~256x: 3 s for 70 KB); a ratio of the same
    # search on two lengths, not a time, so a loaded machine slows both alike
    assert _growth(lambda line: rx.search(line), record, 400) < 64


# 10. A backend message with several {} (knowledge/messages/) read every split of the line between them on a failed
#     search: "Block sparse tensors{} {} dim must be {} or 1." took 40 s on a 20 KB line that names it often.


def test_a_message_with_several_values_is_matched_as_before_and_fails_fast():
    import random
    import time

    from attn_doctor.knowledge.messages import messages

    random.seed(3)
    for m in messages():
        old = r"[^\n]*?".join(re.escape(p) for p in m.text.split(HOLE))
        old_rx = re.compile(("^" if m.text.startswith(HOLE) else "") + old, re.IGNORECASE | re.MULTILINE)
        new_rx = re.compile(m.pattern, re.IGNORECASE | re.MULTILINE)
        toks = [p for p in m.text.split(HOLE) if p] + ["7", " x", "\n"]
        for _ in range(40):
            s = "".join(random.choice(toks) for _ in range(random.randint(1, 8)))
            a, b = old_rx.search(s), new_rx.search(s)
            assert (a and a.span()) == (b and b.span()), (m.text, s)
    block = next(m for m in messages() if m.text == "Block sparse tensors{} {} dim must be {} or 1.")
    rx = re.compile(block.pattern, re.IGNORECASE | re.MULTILINE)
    piece = "Block sparse tensors some words here, "  # one line, the message never completed
    assert rx.search(piece * 250) is None
    # 16x the line, ~16x the time (each {} unbounded it grew as a power of the length: 5 s for 9.5 KB)
    assert _growth(lambda line: rx.search(line), piece, 60) < 64


def _growth(search, piece: str, n: int) -> float:
    """How many times longer `search` takes on `piece` * 16n than on `piece` * n: the best of five interleaved timings of
    each (a linear search gives ~16, a quadratic one ~256). A ratio of two timings of the same process, so the load of
    the machine does not decide it; the absolute times are never asserted (speed is benchmarks/' business). The timings
    are this thread's CPU time, not the wall clock: under CI's load (4 workers on 2 cores, more beside helpers) the long
    search was preempted in all five wall-clock timings often enough to read 64x (session 36, load 10)."""
    import time

    short, long_ = piece * n, piece * (16 * n)
    best = {short: float("inf"), long_: float("inf")}
    for _ in range(5):
        for line in (short, long_):
            t = time.thread_time()
            search(line)
            best[line] = min(best[line], time.thread_time() - t)
    return best[long_] / max(best[short], 1e-6)


def test_a_command_names_a_path_only_as_a_whole_name():
    """references._command_of picks the command whose words name the config: `my_x.yaml` is another file than
    `x.yaml` (rv6's review: `endswith` alone took it), `cfg/x.yaml` and `--config=x.yaml` name it."""
    from types import SimpleNamespace as NS

    from attn_doctor.configs import references

    prep = NS(program="python", words=["python", "prep.py", "--out", "my_x.yaml"])
    train = NS(program="python", words=["python", "train.py", "--config=cfg/x.yaml"])
    assert references._command_of({"command": None, "commands": [prep, train]}, "x.yaml") is train
    assert references._command_of({"command": None, "commands": [prep]}, "x.yaml") is None
    assert references._names("x.yaml", "x.yaml") and references._names("'x.yaml", "x.yaml")
    assert not references._names("my_x.yaml", "x.yaml")
