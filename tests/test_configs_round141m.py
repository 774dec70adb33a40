"""Issue 24, round 141m: a fresh set of trainer configs and launch lines (helper cfg141m, session 38, 2026-12-03): whole
files of users' repositories (`owner/repo:path` at a commit): users' launchers, TOMLs and command notes in sd-scripts
forks, a kohya_ss GUI JSON, musubi-tuner launches, a diffusion-pipe fork's own model config, ai-toolkit jobs (one of them
a Python module that writes the YAML), LLaMA-Factory YAMLs and a launcher, ms-swift launches, a torchtune fork's config,
a LitGPT config, transformers / TRL scripts and a model's config.json; and, to refuse, the projects' own scripts and
configs, dataset configs and other frameworks' launches (mlx-lm, DiffSynth-Studio, OpenRLHF, verl).
Measure-only until the lead measured it three times, equal (de515b8b, 6e2c7aa9, 82aac38d: 16 / 22 claimed files right
in all four fields in the flat layout and 18 / 22 in the repository layout, 12 / 12 refused, none read as a trainer);
training material since session 39.

fixtures/configs/round141m/ (34 files of 29 repositories, labelled from the trainers' own source before any reader ran:
its README) is read as every staged round is (configs_corpus.staged_round: each file where the set keeps it and in the
repository layout, the format, floors, freshness and claims); a file read wrong is a strict xfail with why."""

from __future__ import annotations

from configs_corpus import assert_floors, assert_mix, assert_no_key, assert_no_repository_held_out
from configs_corpus import assert_source_caps, assert_training, CONFIGS as CORPUS, files, MEASURE_ONLY, staged_round

ROOT = CORPUS / "round141m"
FILES = files(ROOT)

# the misses as the lead measured them blind (strict xfails: reading one right makes its test fail, so its entry goes)
STILL_WRONG_IN_BOTH: dict[str, str] = {
    "round141m/ai-toolkit/duckgirlkrystal__krea2-lora-trainer__trainer___configs.py":
        "refused as a Python script with no trainer calls; the module writes ai-toolkit job YAML as f-strings (the "
        "label: ai-toolkit, bfloat16)",
    "round141m/diffusion-pipe/RicemanT__diffusion-pipe-mageflow-ft__mage_flow_BooruEssenceFFT.toml":
        "read as diffusion-pipe with compile off; the label has compile on (`compile_blocks = true`)",
    "round141m/sd-scripts/rakki194__sd-scripts-1__training_scripts__tn-blaidd":
        "refused as a shell script with no trainer calls (a zsh launcher with no extension, its command run by a "
        "function of a sourced helper); the label reads it as sd-scripts with xformers, bfloat16, compile default",
    "round141m/transformers/yuiseki__YuisekinAI__hf_config.json":
        "refused as settings several trainers share; the label reads it as transformers with the user's run_clm.py "
        "beside it (fa2, float16, compile default)",
}
# wrong in the flat layout only (the repository layout has what the file names beside it)
STILL_WRONG_FLAT_ONLY: dict[str, str] = {
    "round141m/llama-factory/amdpilot-org__LlamaFactory__run_train_mi355x_v5.sh":
        "refused as a run of launch_compat.py, not beside it; the label reads it as the LLaMA-Factory YAML it names",
    "round141m/transformers/mvsjober__trl_test__run_grpo.sh":
        "refused as a run of train_grpo.py, not beside it; the label reads it as TRL in bfloat16",
}
# refused, as the benchmark counts them, in words other than the label's (both layouts): the labels' `refused` words
# are the gatherer's kind ("user-script", "diffsynth-studio"), which no refusal says
OTHER_WORDS: dict[str, str] = {
    "round141m/unclaimed-diffsynth-studio/FelixYuan-YF__DiffSynth-Studio__train_lora.sh":
        "refused as looking like DiffSynth-Studio; the label's words are `diffsynth-studio`",
    "round141m/unclaimed-user-script/Capstone-project-ML__ssim_dice_dreambooth__all_losses__commands.txt":
        "refused as a run of train_1.py; the label's words are `user-script`",
    "round141m/unclaimed-user-script/N8python__claude-GRPO-dgxs__run_grpo.sh":
        "refused as a run of train_grpo.py; the label's words are `user-script`",
    "round141m/unclaimed-user-script/RoyceCho1__dreambooth__configs__config_dogbackpack.yaml":
        "refused as settings several trainers share; the label's words are `user-script`",
    "round141m/unclaimed-user-script/alisson-anjos__bernini-r-iclora-trainer__train__run_headswap_iclora.sh":
        "refused as a run of train_iclora.py; the label's words are `user-script`",
    "round141m/unclaimed-user-script/mchenn3bula__RolePlayChatBot__configs__ministral_s1_lora.json":
        "refused as settings several trainers share; the label's words are `user-script`",
}
STILL_WRONG_IN_BOTH.update(OTHER_WORDS)
STILL_WRONG: dict[str, str] = {**STILL_WRONG_IN_BOTH, **STILL_WRONG_FLAT_ONLY}

# test_real_file, test_real_file_in_its_repository_layout, the format and floors, freshness, claims: configs_corpus
globals().update(staged_round("round141m", files_min=34, claimed_min=22, refused_min=12, repos_min=29,
                              captured="2026-12-03", still_wrong=STILL_WRONG,
                              still_wrong_in_layout=STILL_WRONG_IN_BOTH, claimed_by="cfg141m", unread=MEASURE_ONLY))


def test_the_readings_keep_their_floors():
    """The lead's figures as floors (16 / 22 claimed right in all four fields flat, 18 / 22 in the repository layout,
    12 / 12 refused as the benchmark counts them, 6 / 12 in the labels' words)."""
    assert_floors(FILES, STILL_WRONG, STILL_WRONG_IN_BOTH, OTHER_WORDS, claimed=(16, 18), refused=(12, 12),
                  in_words=(6, 6))


def test_no_source_is_held_out():
    """The split's own verdicts: a repository neither held out by its hash nor a namesake of a repository the held-out
    corpus drew on (scripts/heldout_split_configs.py)."""
    assert_no_repository_held_out(FILES)


# the labels as gathered (README): claimed trainers, then the refusals by kind
MIX = {"ai-toolkit": 2, "diffusion-pipe": 1, "musubi-tuner": 2, "sd-scripts": 5, "litgpt": 1, "llama-factory": 4,
       "ms-swift": 2, "torchtune": 1, "transformers": 4, "unclaimed:user-script": 5, "unclaimed:mlx-lm": 1,
       "unclaimed:diffsynth-studio": 1, "unclaimed:openrlhf": 1, "unclaimed:verl": 1, "none": 3}


def test_the_set_keeps_its_mix_and_its_caps():
    """What the README counts: 34 files, 22 claimed and 12 to refuse, from 29 users' repositories; MIX holds the floors
    by label, as gathered. At most 2 files of one repository were taken (the cap checked is 3)."""
    assert_mix(FILES, MIX, diffusion_min=10, refused_min=12)
    assert_source_caps(FILES)


def test_the_readers_of_the_training_sets_read_it():
    """A training round is read by the benchmarks and tests that read every training folder: none of them names it
    among the folders they skip any more (it was measure-only until the lead's measurements of sessions 38 and 39)."""
    assert_training("round141m")


def test_no_file_holds_a_key():
    """No file of the set carries a Hugging Face token or an API key."""
    assert_no_key(FILES)
