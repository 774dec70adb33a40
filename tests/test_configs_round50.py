"""Issue 24, round 50: users' files of the diffusion / video trainers (helper cfg50, session 11, 2026-11-29).

fixtures/configs/round50/ (see its README: 30 files from 19 users' repositories on the train side of the split, labelled
from the trainers' own source before any reader ran on them; main read its 8 claimed files right and refused 21 of 22,
benchmarks/results/configs-round50-main*.json) is read file by file, as `check --config FILE` reads it where the set
keeps it, and again in its repositories' layout (every file at its `source` path). The format is checked as well:
- every file has its expect file, well formed (the staged fields, the capture date, a 40-digit commit, a label of the
  right types and values), its repository on the readers' side of the split and not a trainer's own, the file in the
  folder its trainer names and named after its source, `refused` exactly for the files no claimed trainer reads;
- the set keeps its size (floors = what was gathered: 30 files, 8 claimed, 22 refused, 19 repositories);
- no repository is shared with another folder under fixtures/configs/ (held-out aside, and never listed), and each was
  claimed for this round in the session's claims file when that file is on this machine."""

from __future__ import annotations

import re

from configs_corpus import CONFIGS as CORPUS, files, staged_round

ROOT = CORPUS / "round50"
FILES = files(ROOT)

# test_real_file, test_real_file_in_its_repository_layout, the format and floors, freshness, claims: configs_corpus
globals().update(staged_round("round50", files_min=30, claimed_min=8, refused_min=22, repos_min=19,
                              captured="2026-11-29", claimed_by="cfg50"))


def test_the_secret_in_a_launcher_is_redacted():
    """Trgtuan10's scripts.sh passed a Hugging Face token on its command line, Miloxing's launchers a wandb API key:
    the set keeps `<redacted>` there, and no file holds another key of either shape."""
    text = (ROOT / "sd-scripts" / "Trgtuan10__kohya-scripts-txt2img__scripts.sh").read_text(encoding="utf-8")
    assert '--huggingface_token="<redacted>"' in text and not re.search(r"hf_[A-Za-z0-9]{20,}", text)
    for name in ("Miloxing__lora-scripts__train.sh", "Miloxing__lora-scripts__train_sdxl_16G.sh"):  # wandb keys
        assert 'wandb_api_key="<redacted>"' in (ROOT / "sd-scripts" / name).read_text(encoding="utf-8"), name
    for p in FILES:
        text = p.read_text(encoding="utf-8", errors="replace")
        assert not re.search(r"\bhf_[A-Za-z0-9]{30,}\b", text), p
        assert not re.search(r"(api_key|token)\W{1,3}[0-9a-f]{32,}", text, re.IGNORECASE), p
