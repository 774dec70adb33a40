"""The LLM trainers' settings as their own source reads them (issue 24 semantics audit,
fixtures/configs/real/SEMANTICS-llm.md): one minimal config per row, written by hand, read with
attn_doctor.configs.load and compared in the four fields the corpus scores. The rows, with the file:line@commit of
each trainer's code they follow, are in benchmarks/semantics_llm_cases.py (benchmarks/semantics_llm.py measures them).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from attn_doctor import configs

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("semantics_llm_cases", ROOT / "benchmarks" / "semantics_llm_cases.py")
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)


@pytest.mark.parametrize("case", cases.CASES, ids=[c["id"] for c in cases.CASES])
def test_setting_reads_as_the_trainer_source_says(case, tmp_path):
    for rel, text in case["files"].items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    path = tmp_path / case["name"]
    path.write_text(case["text"], encoding="utf-8")
    cfg = configs.load(str(path))
    got = {"trainer": cfg["trainer"], "required": cfg["required"], "dtype": cfg["dtype"],
           "compile_mode": cfg["compile_mode"]}
    want = {k: case[k] for k in ("trainer", "required", "dtype", "compile_mode")}
    assert got == want, case["source"]


def test_rows_are_unique_and_cite_their_source():
    ids = [c["id"] for c in cases.CASES]
    assert len(ids) == len(set(ids))
    # a trainer's file at a commit, or why no file is cited (a default, a file that is not there, an unfetched repo)
    assert all(any(w in c["source"] for w in ("@", "default", "not here", "not fetched")) for c in cases.CASES)


def test_gpt_oss_hub_kernel_is_named_for_the_check(tmp_path):
    # LLaMA-Factory attention.py:34-44: the kernel the run fetches is reported as a Hub kernel (config.hub-kernel),
    # not as the FlashAttention 2 the file asked for
    p = tmp_path / "cfg.yaml"
    p.write_text("model_name_or_path: openai/gpt-oss-120b\nstage: sft\nfinetuning_type: lora\ntemplate: gpt\n"
                 "flash_attn: fa2\n", encoding="utf-8")
    (a,) = configs.load(str(p))["attention"]
    assert (a["kind"], a["hub_repo"], a["backend"]) == ("hub", "kernels-community/vllm-flash-attn3", None)


def test_gpt_oss_is_not_guessed_from_other_names(tmp_path):
    p = tmp_path / "cfg.yaml"
    p.write_text("model_name_or_path: gpt-oss-fans/llama-3-8b-ossify\nstage: sft\nfinetuning_type: lora\n"
                 "template: llama3\nflash_attn: fa2\n", encoding="utf-8")
    assert configs.load(str(p))["required"] == ["fa2"]
