"""Round 73: users' launch files, partial and fork configs of claimed LLM trainers, and look-alikes to refuse (helper
cfg73, session 17, 2026-11-29; training material with a held-back half).

fixtures/configs/round73/ (see its README: 38 files from 21 users' repositories on the train side of the split: Modal
launchers of axolotl and Unsloth, SLURM / apptainer / deepspeed launches of LLaMA-Factory forks, a base stage config and
a fork's feature config of LLaMA-Factory, ms-swift rlhf scripts, and 12 look-alikes: an accelerate and a DeepSpeed
config alone, DiffSynth-Studio, MindSpeed-RL and OminiControl launches, and users' own trainers' configs with HF-like
keys; labelled from the trainers' own source) is read file by file, as `check --config FILE` reads it where the set
keeps it, and again in its repositories' layout (every file at its `source` path). The round was split by repository
into halves A and B before any reader changed (README); half B was measured with benchmarks/configs_heldout.py --dir
before the readers were fixed from half A, and after, totals only. The format is checked as in round 62
(configs_corpus.staged_round)."""

from __future__ import annotations

import re

from configs_corpus import CONFIGS as CORPUS, MEASURE_ONLY, files, staged_round

ROOT = CORPUS / "round73"
FILES = files(ROOT)

_BESIDE = ("the config it runs is in this set only at its repository path, not beside the launcher under its flattened "
           "name: read in the repository layout")
# files whose launch reads another file of the set that is not beside it under its flattened name
FLAT_ONLY = {
    "round73/axolotl/modal-projects__finetuning-workshop__axolotl_vlm_basic__main.py":
        "`axolotl train /root/config.yml`, the config.yml Modal copies from beside the launcher: " + _BESIDE,
    "round73/llama-factory/SachinKonan__LLaMA-Factory-AutoReviewer__sbatch__balanced_deepreview_qwen3__qwen3_4b.sbatch":
        "`src/train.py configs/qwen3_4b_balanced_deepreview.yaml key=value ...` from the fork's root: " + _BESIDE,
    "round73/llama-factory/chrisindris__LLaMA-Factory-LFS__debug__datasets__slurm_qwen2_5vl_lora_sft_SQA3Devery24_h5py.sh":
        "`llamafactory-cli train /scratch/indrisch/LLaMA-Factory/examples/train_lora/...yaml` in a container: " + _BESIDE,
}
MULTI_SPAWN = ("`axolotl train /root/configs/{config}` for each of four configs the Modal entrypoint spawns "
               "(train.spawn(\"config-fft.yml\", ...)): since cfg119 a parameter every .remote / .spawn call hands "
               "the same value is read (one spawn of this file reads fa2 / bfloat16 through the container folder), but "
               "four spawns of four configs are four launches, not read one by one")
STILL_WRONG = {**FLAT_ONLY, "round73/axolotl/modal-projects__finetuning-workshop__axolotl_sft_multigpu__main.py": MULTI_SPAWN}
STILL_WRONG_IN_LAYOUT = {"round73/axolotl/modal-projects__finetuning-workshop__axolotl_sft_multigpu__main.py": MULTI_SPAWN}

# test_real_file, test_real_file_in_its_repository_layout, the format and floors, freshness, claims: configs_corpus
globals().update(staged_round("round73", files_min=38, claimed_min=26, refused_min=12, repos_min=21,
                              captured="2026-11-29", still_wrong=STILL_WRONG,
                              still_wrong_in_layout=STILL_WRONG_IN_LAYOUT, claimed_by="cfg73", unread=MEASURE_ONLY))


def test_no_file_holds_a_key():
    """The wandb / swanlab keys and the Hugging Face token four files carried (LEWISZZZcc's GRPO and DPO scripts,
    ChenCXxx's OminiControl launch, omar93939's tune.py) are replaced by <redacted>; no file of the set holds a Hugging
    Face token or an API key."""
    for p in FILES:
        text = p.read_text(encoding="utf-8", errors="replace")
        assert not re.search(r"\bhf_[A-Za-z0-9]{30,}\b", text), p
        assert not re.search(r"(api_key|token|API_KEY)\W{1,3}[0-9A-Za-z]{20,}", text, re.IGNORECASE), p
        assert not re.search(r"(api_key|_token)\s*=\s*[\"'][0-9A-Za-z]{16,}", text, re.IGNORECASE), p
