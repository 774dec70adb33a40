"""Issue 24, round 55: users' launch lines of claimed trainers as they write them (helper cfg55, session 12,
2026-11-29).

fixtures/configs/round55/ (see its README: 42 files from 16 users' repositories on the train side of the split: shell,
PowerShell and Dockerfile launchers of LLaMA-Factory, ms-swift, axolotl and sd-scripts, the configs they name, and
13 files no claimed trainer reads, labelled from the trainers' own source before any reader ran on them; main read
16 / 26 of its 29 claimed files right in the flat / repository layout and one unclaimed file as axolotl,
benchmarks/results/configs-round55-main*.json) is read file by file, as `check --config FILE` reads it where the set
keeps it, and again in its repositories' layout (every file at its `source` path). The format is checked as well:
- every file has its expect file, well formed (the staged fields, the capture date, a 40-digit commit, a label of the
  right types and values), its repository on the readers' side of the split and not a trainer's own, the file in the
  folder its trainer names and named after its source, `refused` exactly for the files no claimed trainer reads;
- the set keeps its size (floors = what was gathered: 42 files, 29 claimed, 13 refused, 16 repositories);
- no repository is shared with another folder under fixtures/configs/ (held-out aside, and never listed), and each was
  claimed for this round in the session's claims file when that file is on this machine."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from configs_corpus import BLIND_BACKENDS, BLIND_DTYPES, BLIND_MODES, CLAIMED, check_read_as_expected, \
    check_staged_expect, expect, files, in_repository_layout, rel, repo_of, repos_outside, split_module
from configs_corpus import CONFIGS as CORPUS

ROOT = CORPUS / "round55"
FILES = files(ROOT)
FILES_MIN, CLAIMED_MIN, REFUSED_MIN, REPOS_MIN = 42, 29, 13, 16
CLAIMS = Path("/work/wt/claims.txt")


# where the set keeps them (flattened names), the launchers labelled through another file of the set cannot find it
_FLAT = "labelled through {}, which the set keeps under its flattened name (read in the repository layout)"
STILL_WRONG_FLAT = {
    "round55/axolotl/ArtisanClarinets__frappe-llm__scripts__train_dpo.sh":
        _FLAT.format("configs/qwen25-coder-3b-dpo-frappe.yaml (named as /srv/frappe-llm/configs/...)"),
    "round55/axolotl/nemesis-55__invoice-ai__train_axolotl.sh": _FLAT.format("minicpm_axolotl_config.yaml"),
    "round55/llama-factory/1320007169__medical-svs-agent__scripts__run_sft.sh":
        _FLAT.format("configs/sft_qwen3_vl.yaml"),
    "round55/llama-factory/796joker__vqa-hallucination__scripts__run_ablation.sh":
        _FLAT.format("configs/qwen3vl_dpo_only.yaml"),
    "round55/llama-factory/796joker__vqa-hallucination__scripts__run_dpo.sh":
        _FLAT.format("configs/qwen3vl_dpo_lora.yaml"),
    "round55/llama-factory/796joker__vqa-hallucination__scripts__run_sft.sh":
        _FLAT.format("configs/qwen3vl_sft_lora.yaml"),
    "round55/llama-factory/SaturnAura__iGFT__scripts__ppo.sh": _FLAT.format("configs/llamafactory/ppo.yaml"),
    "round55/llama-factory/SaturnAura__iGFT__scripts__sft.sh": _FLAT.format("configs/llamafactory/sft.yaml"),
    "round55/llama-factory/SaturnAura__iGFT__scripts__train_reward_model.sh":
        _FLAT.format("configs/llamafactory/reward_model.yaml"),
    "round55/llama-factory/nemesis-55__invoice-ai__training__run_incremental_train.sh":
        _FLAT.format("training/llamafactory_config.yaml"),
    "round55/llama-factory/nemesis-55__invoice-ai__training__runpod_train_lora.sh":
        _FLAT.format("llamafactory_configs/minicpm_v45_lora.yaml (copied through sed)"),
    "round55/llama-factory/nemesis-55__invoice-ai__training__train_llamafactory_lora.sh":
        _FLAT.format("llamafactory_configs/minicpm_v45_lora.yaml"),
}


@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.xfail(strict=True, reason=STILL_WRONG_FLAT[rel(p)]))
                                  if rel(p) in STILL_WRONG_FLAT else p for p in FILES], ids=rel)
def test_real_file(path):
    check_read_as_expected(path)


@pytest.fixture(scope="module")
def repo_layout(tmp_path_factory) -> dict:
    """Every file of the set at its source path, OWNER/REPO/PATH, as a user's checkout has it (no expect files)."""
    return in_repository_layout(FILES, tmp_path_factory.mktemp("round55-layout"))


@pytest.mark.parametrize("name", [rel(p) for p in FILES])
def test_real_file_in_its_repository_layout(repo_layout, name):
    check_read_as_expected(Path(repo_layout[name]), CORPUS / name)


def test_the_set_is_there_well_formed_and_on_the_readers_side_of_the_split():
    split = split_module()
    claimed = refused = 0
    repos = set()
    for p in FILES:
        e = expect(p)
        t = check_staged_expect(p, e, split)
        assert e["captured"] == "2026-11-29" and re.fullmatch(r"[0-9a-f]{40}", e["commit"]), p
        assert isinstance(e["required"], list) and set(e["required"]) <= BLIND_BACKENDS, p
        assert e["dtype"] in BLIND_DTYPES and e["compile_mode"] in BLIND_MODES and e["why"].strip(), p
        if t not in CLAIMED:  # a refused file asks for nothing
            assert e["required"] == [] and e["dtype"] == "" and e["compile_mode"] == "" and e["refused"].strip(), p
        repo = e["source"].split(":", 1)[0]
        assert p.name == repo.replace("/", "__") + "__" + e["source"].split(":", 1)[1].replace("/", "__"), p
        repos.add(repo)
        claimed += t in CLAIMED
        refused += t not in CLAIMED
    assert len(FILES) >= FILES_MIN and claimed >= CLAIMED_MIN and refused >= REFUSED_MIN and \
        len(repos) >= REPOS_MIN, (len(FILES), claimed, refused, len(repos))


def test_every_expect_file_has_its_corpus_file():
    for e in ROOT.rglob("*.expect.toml"):
        assert e.with_name(e.name[: -len(".expect.toml")]).is_file(), e


def test_no_repository_is_shared_with_another_set():
    mine = {repo_of(expect(p)["source"]) for p in FILES}
    others = repos_outside("round55")
    assert not mine & others, sorted(mine & others)


@pytest.mark.skipif(not CLAIMS.is_file(), reason="the session's claims file is not on this machine")
def test_every_repository_was_claimed_for_this_round():
    lines = CLAIMS.read_text(encoding="utf-8").splitlines()
    for repo in sorted({expect(p)["source"].split(":", 1)[0] for p in FILES}):
        owners = [ln.split()[2] for ln in lines if ln.startswith(f"REPO {repo} ")]
        assert owners == ["cfg55"], (repo, owners)


def test_no_file_holds_a_key():
    """No file of the set carries a Hugging Face token or an API key (the files that name one read it from the
    environment: `$env:REPLICATE_API_TOKEN`, `$HF_TOKEN`, `$WANDB_API_KEY`)."""
    for p in FILES:
        text = p.read_text(encoding="utf-8", errors="replace")
        assert not re.search(r"\bhf_[A-Za-z0-9]{30,}\b", text), p
        assert not re.search(r"(api_key|token|ApiKey)\W{1,3}[0-9A-Za-z]{32,}", text, re.IGNORECASE), p
