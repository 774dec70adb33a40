"""Round 69: users' diffusion-trainer configs and launch scripts (helper cfg69, session 16, 2026-11-29; training
material).

fixtures/configs/round69/ (see its README: 43 files from 14 users' repositories on the train side of the split:
diffusion-pipe TOMLs and deepspeed launchers in users' forks, sd-scripts FLUX launches (.sh / .bat), a kohya_ss GUI
configuration saved as .txt, an ai-toolkit job a fork's owner wrote, and 23 look-alikes to refuse: diffusion-pipe /
sd-scripts dataset configs, an install script, a Dockerfile, a config fragment, a user's own SDXL trainer and its
generation script, two stable-diffusion.cpp video generations, a Serverless Devs YAML, two GUI launchers, an inference
command; labelled from the trainers' own source) is read file by file,
as `check --config FILE` reads it where the set keeps it, and again in its
repositories' layout (every file at its `source` path). The round was split by repository into halves A and B before
any reader changed (README); half B was measured with benchmarks/configs_heldout.py --dir, totals only.
The format is checked as in round 62 (configs_corpus.staged_round)."""

from __future__ import annotations

import re

from configs_corpus import CONFIGS as CORPUS, MEASURE_ONLY, files, staged_round

ROOT = CORPUS / "round69"
FILES = files(ROOT)

# files whose launch reads another file of the set that is not beside it under its flattened name
FLAT_ONLY = {
    "round69/diffusion-pipe/ThaiLe1220__diffusion-pipe-eu___eugene__run_wan22_minimal_ram.sh":
        "deepspeed train.py --config _eugene/examples/wan22_squish_i2v_minimal_ram.toml from the repository root: the "
        "config is at that path only in the repository layout",
}

# test_real_file, test_real_file_in_its_repository_layout, the format and floors, freshness, claims: configs_corpus
globals().update(staged_round("round69", files_min=43, claimed_min=20, refused_min=23, repos_min=14,
                              captured="2026-11-29", still_wrong=FLAT_ONLY, still_wrong_in_layout={}, claimed_by="cfg69",
                              unread=MEASURE_ONLY))


def test_no_file_holds_a_key():
    """The wandb keys five configs carried (lamb97's four Wan configs, tatookan's Kontext config) are replaced by
    <redacted>; no file of the set holds a Hugging Face token or an API key."""
    for p in FILES:
        text = p.read_text(encoding="utf-8", errors="replace")
        assert not re.search(r"\bhf_[A-Za-z0-9]{30,}\b", text), p
        assert not re.search(r"wandb_v1_[A-Za-z0-9_]{20,}", text), p
        assert not re.search(r"(api_key|token|ApiKey)\W{1,3}[0-9A-Za-z]{32,}", text, re.IGNORECASE), p
