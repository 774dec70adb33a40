"""Round 65: users' launch scripts of the claimed trainers and the configs they name (helper cfg65, session 15,
2026-11-29; training material).

fixtures/configs/round65/ (see its README: 38 files from 16 users' repositories on the train side of the split:
SLURM jobs, shell launchers with environment defaults, flag arrays and `bash -c "$CMD"`, a docker-exec'd `swift sft`,
a RunPod script that writes its Unsloth script from a here-document, Python entry points, the axolotl YAMLs the jobs
name, and 11 look-alikes to refuse, labelled from the trainers' own source) is read file by file, as `check --config
FILE` reads it where the set keeps it, and again in its repositories' layout (every file at its `source` path). main
(9f416cb7) read 13 / 27 claimed files right (flat) and 14 / 27 (repository layout), and refused all 11 it must;
branch cfg65 16 / 27 (flat) and 23 / 27 (repository layout), 11 / 11. The round was split by repository into halves
A and B before any reader changed (README); the readers were fixed from half A only.
The format is checked as in round 62 (configs_corpus.staged_round)."""

from __future__ import annotations

import re

from configs_corpus import CONFIGS as CORPUS, MEASURE_ONLY, files, staged_round

ROOT = CORPUS / "round65"
FILES = files(ROOT)

# a launcher of the user's own script, labelled through that script, which the set does not hold: in either layout
# the reader can only name the script it runs
NOT_IN_SET = {
    "round65/transformers/DON738110198__shopping-grpo-longhorizon__scripts__sft.sh":
        "runs scripts/train_lora_sft.py (transformers Trainer, sdpa, --dtype auto): that script is not in the set",
    "round65/transformers/cynthia__gemma3-cpt__run_deepspeed.sh":
        "deepspeed train.py: the Trainer subclass and the flash_attention_2 / bf16 load live in train.py, trainer.py "
        "and model_loader.py, not in the set",
    "round65/transformers/mibrahim76112__legalAI__train_gemma.sh":
        "python train_sft.py (transformers Trainer, bf16): the script is not in the set",
    "round65/transformers/mishra7731__modelcontextprotocol_project__finetune.slurm":
        "python training/training1.py (transformers Trainer, fp16): the script is not in the set",
}
# files whose job reads another file of the set that is not beside it under its flattened name
FLAT_ONLY = {
    "round65/axolotl/shisa-ai__shisa-v2__train__ablations__base-evals__jamba__axolotl__01-train.sh":
        "train_jamba_shisa.yaml sits beside it only in the repository layout",
    "round65/axolotl/shisa-ai__shisa-v2__train__slurm__cosine.slurm":
        "cosine.yaml is in train/ablations/ only in the repository layout",
    "round65/axolotl/shisa-ai__shisa-v2__train__slurm__jamba.slurm":
        "base-eval.jamba.yaml is in train/ablations/ only in the repository layout",
    "round65/axolotl/shisa-ai__shisa-v2__train__slurm__lr-2e5.slurm":
        "lr-2e5.yaml is in train/ablations/ only in the repository layout",
    "round65/unsloth/eliashossain001__efficient-gemma3-finetuning__main.py":
        "model/loader.py and train_module/train.py are its modules only in the repository layout",
    "round65/unsloth/shisa-ai__shisa-v2__train___dev__unsloth__4090-unsloth-train.sh":
        "./train-unsloth.py is beside it only in the repository layout",
    "round65/ms-swift/fyh2001__megatron-sft-recipes__scripts__benchmark__bench_swift_sp.sh":
        "torchrun swift_sft_patched.py, which calls swift's sft_main() on these options: the wrapper is beside it only in "
        "the repository layout",
}

# test_real_file, test_real_file_in_its_repository_layout, the format and floors, freshness, claims: configs_corpus
globals().update(staged_round("round65", files_min=38, claimed_min=27, refused_min=11, repos_min=16,
                              captured="2026-11-29", still_wrong={**NOT_IN_SET, **FLAT_ONLY},
                              still_wrong_in_layout=dict(NOT_IN_SET), claimed_by="cfg65",
                              unread=MEASURE_ONLY))


def test_no_file_holds_a_key():
    """No file of the set carries a Hugging Face token or an API key (hKask's script reads HF_TOKEN and RUNPOD_API_KEY
    from the pod's environment; nothing is written out)."""
    for p in FILES:
        text = p.read_text(encoding="utf-8", errors="replace")
        assert not re.search(r"\bhf_[A-Za-z0-9]{30,}\b", text), p
        assert not re.search(r"(api_key|token|ApiKey)\W{1,3}[0-9A-Za-z]{32,}", text, re.IGNORECASE), p
