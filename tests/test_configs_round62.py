"""Round 62: users' files of the config classes the held-out per-trainer rows show weakest (helper cfg62, session 14,
2026-11-29; training material).

fixtures/configs/round62/ (see its README: 37 files from 22 users' repositories on the train side of the split: users'
launches of diffusers' example scripts (shell, SLURM jobs, a Gradio Space's subprocess list, a Colab notebook), a
musubi-tuner fork's run files, an sd-scripts SD 3.5 TOML, torchtune recipe configs, Unsloth scripts and notebooks, TRL /
transformers scripts, and 12 look-alikes to refuse, labelled from the trainers' own source) is read file by file, as
`check --config FILE` reads it where the set keeps it, and again in its repositories' layout (every file at its `source`
path). main (d119dc3) read 24 / 25 claimed files right in both layouts and none of the 12 files to refuse (on the first
31 files as first labelled: 19 / 20 and 1 / 11, an evaluation notebook labelled `none` against the project's
convention, relabelled transformers: README); branch cfg62 24 / 25 (flat) and 25 / 25 (repository layout), 0 / 12.
The format is checked as in round 59:
- every file has its expect file, well formed, its repository on the readers' side of the split and not a trainer's
  own, the file in the folder its trainer names and named after its source, `refused` exactly for the files no claimed
  trainer reads;
- the set keeps its size (floors = what was gathered: 37 files, 25 claimed, 12 refused, 22 repositories);
- no repository is shared with another folder under fixtures/configs/, and each was claimed for this round in the
  session's claims file when that file is on this machine."""

from __future__ import annotations

import re

from configs_corpus import CONFIGS as CORPUS, MEASURE_ONLY, files, staged_round

ROOT = CORPUS / "round62"
FILES = files(ROOT)

STILL_WRONG_FLAT = {
    "round62/unsloth/RudrakshRakeshZodage__WhatsApp-LLM-Finetuner__train_unsloth.py":
        "`import config` then SFTConfig(bf16=config.BF16): the repository's config.py sits in none/ under a flattened "
        "name here, not beside the script, so the dtype stays open; in the repository layout it is read (bfloat16)",
}


# test_real_file, test_real_file_in_its_repository_layout, the format and floors, freshness, claims: configs_corpus
globals().update(staged_round("round62", files_min=37, claimed_min=25, refused_min=12, repos_min=22,
                              captured="2026-11-29", still_wrong=STILL_WRONG_FLAT, still_wrong_in_layout={},
                              claimed_by="cfg62", unread=MEASURE_ONLY))


def test_no_file_holds_a_key():
    """No file of the set carries a Hugging Face token or an API key (MackorLab's Space passes the user's hf_token
    variable to --hub_token; nothing is written out)."""
    for p in FILES:
        text = p.read_text(encoding="utf-8", errors="replace")
        assert not re.search(r"\bhf_[A-Za-z0-9]{30,}\b", text), p
        assert not re.search(r"(api_key|token|ApiKey)\W{1,3}[0-9A-Za-z]{32,}", text, re.IGNORECASE), p
