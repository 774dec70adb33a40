"""Issue 24, round 145m: a measure-only fresh set of trainer configs and launch lines (helper cfg145m, session 40,
2026-12-03): whole files of users' repositories (`owner/repo:path` at a commit): diffusers launchers of users' forks
(a Qwen-Image DreamBooth LoRA, a SLURM custom-diffusion run under plain python), a OneTrainer saved config,
ai-toolkit jobs of users' forks (Krea 2 flow-DPO, Z-Image Turbo full fine-tune, FLUX.2 Klein LoKr), musubi-tuner
LTX-2 TOMLs and their launchers (a Windows .bat, a ${VAR:-default} RunPod script), LLaMA-Factory YAMLs and launchers
of users' forks (an envsubst template, a ${VAR:-default} driver, torchrun src/train.py with --flash_attn fa2,
flash_attn: disabled), an ms-swift GRPO/DAPO launcher, an Unsloth GRPO script; and, to refuse, projects' own scripts
(HF-shaped flags, a CogVideoX LoRA, an SVD trainer, an SD3 ControlNet, a generic SLURM wrapper, an sbatch submitter),
a TRL-shaped YAML and a differential-LoRA defaults file read by their projects' own code, a veRL DAPO recipe launch,
an LTX-2 trainer (Lightricks ltx-trainer) YAML and two dataset configs (musubi-tuner, sd-scripts).

fixtures/configs/round145m/ (see its README: labelled from the trainers' own source; no reader was run on it by the
helper) is not read file by file here, and no measured figure is held: the lead measures the set. What is checked is
the format:
- every file has its expect file, well formed (the staged fields, capture date, a 40-digit commit, a label of the
  right types and values), its repository on the readers' side of the split (scripts/heldout_split_configs.py, no
  namesake), the file in the folder its trainer names and named after its source, `refused` exactly for files no
  claimed trainer reads;
- the set keeps its size (floors = what was gathered) and its mix, and the per-source caps it was gathered under;
- no repository is shared with another folder under fixtures/configs/ (held-out aside, and never listed), and every
  one was claimed for this round in the session's claims file (where that file is on this machine).
While the set is measure-only, benchmarks/configs_refusals.py's MEASURE_ONLY names it: every reader of the training
folders takes its skips from that one list."""

from __future__ import annotations

from configs_corpus import assert_claimed_by, assert_every_expect_file_has_its_file, assert_measure_only, assert_mix
from configs_corpus import assert_no_key, assert_no_repository_held_out, assert_source_caps, check_blind_round
from configs_corpus import CONFIGS as CORPUS, files, shared_with_other_sets

ROOT = CORPUS / "round145m"
FILES = files(ROOT)
# the counts gathered (README): files, of them claimed and to refuse, sources (users' repositories)
FILES_MIN, CLAIMED_MIN, REFUSED_MIN, REPOS_MIN = 32, 20, 12, 27
# the labels as gathered (README): claimed trainers, then the refusals by kind
MIX = {"ai-toolkit": 3, "diffusers": 2, "llama-factory": 8, "ms-swift": 1, "musubi-tuner": 4, "onetrainer": 1,
       "unsloth": 1, "unclaimed:user-script": 8, "unclaimed:verl": 1, "unclaimed:ltx-trainer": 1, "none": 2}
DIFFUSION_MIN = 10


def test_the_set_is_there_well_formed_and_on_the_readers_side_of_the_split():
    """The format (check_blind_round), each expect file beside its file, and the split's own verdicts: a repository
    neither held out by its hash nor a namesake of a repository the held-out corpus drew on
    (scripts/heldout_split_configs.py)."""
    check_blind_round(FILES, files_min=FILES_MIN, claimed_min=CLAIMED_MIN, refused_min=REFUSED_MIN, repos_min=REPOS_MIN,
                      captured="2026-12-03")
    assert_every_expect_file_has_its_file(ROOT)
    assert_no_repository_held_out(FILES)


def test_the_set_keeps_its_mix_and_its_caps():
    """What the README counts; MIX holds the floors by label, as gathered. At most 3 files of one repository were
    taken (the cap checked is 3; one repository gave 3)."""
    assert_mix(FILES, MIX, diffusion_min=DIFFUSION_MIN, refused_min=REFUSED_MIN)
    assert_source_caps(FILES)


def test_no_repository_is_shared_with_another_set():
    """round145m's sources are fresh: no user's repository of it feeds fixtures/configs/real/, another round (the
    other blind sets included, by their `source` lines) or a loose expect file at the top of fixtures/configs/
    (held-out aside, and never listed)."""
    shared = shared_with_other_sets(FILES, "round145m")
    assert not shared, sorted(shared)


def test_every_source_was_claimed_for_this_round():
    """Each user's repository (`REPO owner/repo cfg145m`) was claimed by cfg145m, and by nobody else, before it was
    taken."""
    assert_claimed_by(FILES, "cfg145m")


def test_the_readers_of_the_training_sets_keep_out_of_it():
    """A measure-only round is read by nobody but the lead's measurements: the benchmarks and tests that read every
    training folder name it among the folders they skip."""
    assert_measure_only("round145m")


def test_no_file_holds_a_key():
    """No file of the set carries a Hugging Face token or an API key."""
    assert_no_key(FILES)
