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

from configs_corpus import CONFIGS as CORPUS, files, staged_round

ROOT = CORPUS / "round55"
FILES = files(ROOT)


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


# test_real_file, test_real_file_in_its_repository_layout, the format and floors, freshness, claims: configs_corpus
globals().update(staged_round("round55", files_min=42, claimed_min=29, refused_min=13, repos_min=16, captured="2026-11-29",
                              still_wrong=STILL_WRONG_FLAT, claimed_by="cfg55"))


def test_no_file_holds_a_key():
    """No file of the set carries a Hugging Face token or an API key (the files that name one read it from the
    environment: `$env:REPLICATE_API_TOKEN`, `$HF_TOKEN`, `$WANDB_API_KEY`)."""
    for p in FILES:
        text = p.read_text(encoding="utf-8", errors="replace")
        assert not re.search(r"\bhf_[A-Za-z0-9]{30,}\b", text), p
        assert not re.search(r"(api_key|token|ApiKey)\W{1,3}[0-9A-Za-z]{32,}", text, re.IGNORECASE), p
