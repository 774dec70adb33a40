"""Issue 24, round 52: diffusion trainers' users' files found by content rather than by name (helper cfg52, session 11,
2026-11-29).

fixtures/configs/round52/ (see its README: 27 files from 11 users' repositories on the train side of the split,
labelled from the trainers' own source before any reader ran on them; main read 8 of its 10 claimed files right and
refused all 17 others, benchmarks/results/configs-round52-main*.json) is read file by file, as `check --config FILE`
reads it where the set keeps it, and again in its repositories' layout (every file at its `source` path). The format is
checked as well:
- every file has its expect file, well formed (the staged fields, the capture date, a 40-digit commit, a label of the
  right types and values), its repository on the readers' side of the split and not a trainer's own, the file in the
  folder its trainer names and named after its source, `refused` exactly for the files no claimed trainer reads;
- the set keeps its size (floors = what was gathered: 27 files, 10 claimed, 17 refused, 11 repositories);
- no repository is shared with another folder under fixtures/configs/ (held-out aside, and never listed), and each was
  claimed for this round in the session's claims file when that file is on this machine."""

from __future__ import annotations

import re

from configs_corpus import CONFIGS as CORPUS, files, staged_round

ROOT = CORPUS / "round52"
FILES = files(ROOT)

# test_real_file, test_real_file_in_its_repository_layout, the format and floors, freshness, claims: configs_corpus
globals().update(staged_round("round52", files_min=27, claimed_min=10, refused_min=17, repos_min=11,
                              captured="2026-11-29", claimed_by="cfg52"))


def test_no_file_holds_a_key():
    """No file of the set carries a Hugging Face token or an API key (psidox's config.example.json has an empty
    runpodApiKey, kept as it is)."""
    for p in FILES:
        text = p.read_text(encoding="utf-8", errors="replace")
        assert not re.search(r"\bhf_[A-Za-z0-9]{30,}\b", text), p
        assert not re.search(r"(api_key|token|ApiKey)\W{1,3}[0-9A-Za-z]{32,}", text, re.IGNORECASE), p
