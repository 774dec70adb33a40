"""Issue 24, round 149m: a measure-only fresh set of trainer configs and launch lines (helper cfg149m, session 42,
2026-12-03): whole files of users' repositories (`owner/repo:path` at a commit): LLaMA-Factory YAMLs and launchers of
users' forks (flash_attn left at auto: a reward model, a ZeRO-3 KTransformers-project SFT, a full SFT pushed to the hub,
a commented-out `# flash_attn: fa2`, a Mac DPO run with neither bf16 nor fp16, a remote-code Keye-VL SFT; `flash_attn:
fa2` on a 32k continued pretraining; an old `src/train_bash.py --fp16` launcher with a dangling continuation), diffusers
launchers of users' forks (a DreamBooth LoRA with fp16, two text-to-image runs whose fp16 comes from the launcher only,
an SDXL LoRA with no precision anywhere, a PowerShell DreamBooth with backtick continuations), two transformers/TRL
scripts (one naming sdpa, one QLoRA with the default), an ms-swift 2.x `swift dpo --use_flash_attn true` and an Unsloth
QLoRA script whose dtype comes from its own YAML; and, to refuse, projects' own scripts and configs (a Windows .bat
running the fork's dp_run.py, a DiffSynth fork's own train_SE_T2V_1_3B.py, a FLUX launcher with `${N:-default}`
positionals running train_zulusion_lora_flux.py, a Korean NLI project's generator.py, sft_qwen.py behind `| tee`, a
`python -m forge.training.sft` launcher, a home-grown model's SFT YAML, an SD 3.5 DreamBooth pipeline's own YAML, a
minGPT-style script importing its own SFTTrainer), launchers of DiffSynth-Studio, OpenRLHF (a heredoc under deepspeed),
veRL's sft_trainer and mlx-lm, and a flame (torchtitan) TOML.

fixtures/configs/round149m/ (see its README: labelled from the trainers' own source; no reader was run on it by the
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

ROOT = CORPUS / "round149m"
FILES = files(ROOT)
# the counts gathered (README): files, of them claimed and to refuse, sources (users' repositories)
FILES_MIN, CLAIMED_MIN, REFUSED_MIN, REPOS_MIN = 31, 17, 14, 31
# the labels as gathered (README): claimed trainers, then the refusals by kind
MIX = {"llama-factory": 8, "diffusers": 5, "transformers": 2, "ms-swift": 1, "unsloth": 1, "unclaimed:user-script": 9,
       "unclaimed:diffsynth-studio": 1, "unclaimed:openrlhf": 1, "unclaimed:verl": 1, "unclaimed:mlx-lm": 1,
       "unclaimed:flame": 1}
DIFFUSION_MIN = 5


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
    taken (the cap checked is 3; every repository gave 1)."""
    assert_mix(FILES, MIX, diffusion_min=DIFFUSION_MIN, refused_min=REFUSED_MIN)
    assert_source_caps(FILES)


def test_no_repository_is_shared_with_another_set():
    """round149m's sources are fresh: no user's repository of it feeds fixtures/configs/real/, another round (the
    other blind sets included, by their `source` lines) or a loose expect file at the top of fixtures/configs/
    (held-out aside, and never listed)."""
    shared = shared_with_other_sets(FILES, "round149m")
    assert not shared, sorted(shared)


def test_every_source_was_claimed_for_this_round():
    """Each user's repository (`REPO owner/repo cfg149m`) was claimed by cfg149m, and by nobody else, before it was
    taken."""
    assert_claimed_by(FILES, "cfg149m")


def test_the_readers_of_the_training_sets_keep_out_of_it():
    """A measure-only round is read by nobody but the lead's measurements: the benchmarks and tests that read every
    training folder name it among the folders they skip."""
    assert_measure_only("round149m")


def test_no_file_holds_a_key():
    """No file of the set carries a Hugging Face token or an API key."""
    assert_no_key(FILES)
