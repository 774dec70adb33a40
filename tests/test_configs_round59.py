"""Round 59: users' diffusion / video trainer files of 2025-26 (helper cfg59, session 13, 2026-11-29; training material).

fixtures/configs/round59/ (see its README: 25 files from 13 users' repositories on the train side of the split: a
diffusion-pipe Wan TOML of a user's fork, a HunyuanVideo 1.5 musubi-tuner wrapper and its compose file, a FLUX.2 klein
musubi config generator, ai-toolkit Z-Image jobs (a ComfyUI node's Jinja2 template and the node that runs it, a RunPod
worker that builds the job dict and dumps it), a diffusers CogVideoX example copy's launcher, and 17 files no claimed
trainer reads, labelled from the trainers' own source before any reader ran) is read file by file, as `check --config
FILE` reads it where the set keeps it, and again in its repositories' layout (every file at its `source` path). main
(aa38878) read 3 / 8 claimed files right in both layouts and 2 (flat) / 1 (repository layout) unclaimed files as a
trainer, branch cfg59 6 / 8 and 1 / 0; the format is checked as in round 55:
- every file has its expect file, well formed, its repository on the readers' side of the split and not a trainer's
  own, the file in the folder its trainer names and named after its source, `refused` exactly for the files no claimed
  trainer reads;
- the set keeps its size (floors = what was gathered: 25 files, 8 claimed, 17 refused, 13 repositories);
- no repository is shared with another folder under fixtures/configs/, and each was claimed for this round in the
  session's claims file when that file is on this machine."""

from __future__ import annotations

import re

from configs_corpus import CONFIGS as CORPUS, files, staged_round

ROOT = CORPUS / "round59"
FILES = files(ROOT)

_NODE = ("a Python node that renders templates/base_config.yaml.j2 with jinja2.Template and runs ai-toolkit's run.py "
         "on the file it writes: the job is the template's, which a reader of the script does not follow")
# (mrbizarro's docker-compose.yml, a compose service running the repository's own train_local.py with options its
# argparse declares, was a strict xfail here until cfg84, session 20: the wrapper is read with those options in place of
# its defaults, as the musubi-tuner command it starts: configs._wrapper_argv)
STILL_WRONG = {
    "round59/ai-toolkit/HelloWarcraft__comfy-aitoolkit-trainer__trainer_node.py": _NODE,
}
STILL_WRONG_FLAT = dict(STILL_WRONG, **{
    "round59/musubi-tuner/mrbizarro__hunyuan1.5trainer__docker-compose.yml":
        "labelled through train_local.py, which the set keeps under its flattened name (read in the repository layout)",
    "round59/none/mrbizarro__hunyuan1.5trainer__Dockerfile.local":
        "a Dockerfile under a flattened name with a dot in it (not taken as a Dockerfile by name or text), so its "
        "exec-form CMD [\"python\", \"train_local.py\", \"--help\"] is not read; in the repository layout it is",
})


# test_real_file, test_real_file_in_its_repository_layout, the format and floors, freshness, claims: configs_corpus
globals().update(staged_round("round59", files_min=25, claimed_min=8, refused_min=17, repos_min=13, captured="2026-11-29",
                              still_wrong=STILL_WRONG_FLAT, still_wrong_in_layout=STILL_WRONG, claimed_by="cfg59"))


def test_no_file_holds_a_key():
    """No file of the set carries a Hugging Face token or an API key (zakack's wan-config.toml has the placeholder
    wandb_api_key = "xxxxxxx"; the RunPod worker reads its keys from the environment)."""
    for p in FILES:
        text = p.read_text(encoding="utf-8", errors="replace")
        assert not re.search(r"\bhf_[A-Za-z0-9]{30,}\b", text), p
        assert not re.search(r"(api_key|token|ApiKey)\W{1,3}[0-9A-Za-z]{32,}", text, re.IGNORECASE), p
