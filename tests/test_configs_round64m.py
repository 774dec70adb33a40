"""Issue 24, round 64m: a fresh set of users' trainer configs and launch scripts (helper cfg64m, session 15,
2026-11-29), measure-only until the lead measured it (session 15's start and end, session 16's start: 21 / 29 claimed
files right in all four fields, 0 claimed files refused, 20 / 22 refusals, 2 unclaimed user scripts read as
transformers); training material since cfg67 (session 16).

fixtures/configs/round64m/ (see its README: 51 files from 36 users' repositories on the train side of the split, taken
as the look-ups returned them, labelled from the trainers' own source before any reader ran) is read file by file, as
`check --config FILE` reads it where the set keeps it, and again in its repositories' layout (every file at its
`source` path); what stays wrong is a strict xfail. main (bbbb5379) read 21 / 29 claimed files right in both layouts;
branch cfg67 24 / 29 flat and 26 / 29 in the repository layout, 0 claimed files refused, 22 / 22 refusals (the two
user scripts are refused since cfg67: a frozen feature extractor beside the script's own heads, and a trainer of the
repository's own), 21 / 22 in the label's words (a settings YAML refused as a LightningCLI config: strict xfail).
The format is checked as for every staged round:
- every file has its expect file, well formed (the staged fields, capture date, a 40-digit commit, a label of the right
  types and values), its repository on the readers' side of the split and not a trainer's own, the file in the folder
  its trainer names and named after its source, `refused` exactly for files no claimed trainer reads;
- the set keeps its size (floors = what was gathered), and keeps files of both kinds of trainer (diffusion and LLM) and
  of refusals;
- no repository is shared with another folder under fixtures/configs/ (held-out aside, never listed), and every one
  was claimed for this round in the session's claims file (where that file is on this machine)."""

from __future__ import annotations


from configs_corpus import assert_no_key, CONFIGS as CORPUS, MEASURE_ONLY, assert_training, expect, files, staged_round

ROOT = CORPUS / "round64m"
FILES = files(ROOT)
DIFFUSION = {"musubi-tuner", "blissful-tuner", "sd-scripts", "ai-toolkit", "diffusion-pipe", "onetrainer", "simpletuner",
             "diffusers"}

STILL_WRONG = {
    "round64m/transformers/Franekskc__gemma3-qa-finetuning__src__gemmaqa__finetuning__trainer.py":
        "labelled through the package's config/default.yaml (common.training.bf16: true), which the module reads as "
        "`cfg.training.bf16` of a QAConfig its caller builds with gemmaqa/config's loader; that loader is not in the "
        "set, so nothing here ties the YAML to the object (a new mechanism: reading a typed settings object through the "
        "package's own loader)",
    "round64m/transformers/ao-wei__gemma3-270m-svg-lora-partb__student_kit__train_peft.py":
        "dtype from `precision: auto` and `device in {'cuda', 'mps'}`: the YAML is read by read_yaml and the device by "
        "device_name(), both of the repository's common.py, which is not in the set (two new mechanisms: an imported "
        "loader of the user's own and a device probe)",
    "round64m/unsloth/HarshilMaks__gemma3-peft__src__modal_train.py":
        "read bfloat16: the Modal function runs on the A10G its decorator names (sm86: is_bfloat16_supported() is "
        "True), round 28's convention for `bf16=is_bfloat16_supported()` under @app.function(gpu=...); the label says "
        "\"\" (the GPU decides). Label doubtful (README), not changed",
    "round64m/unclaimed-user-script/shivesh235__phi-4-finetuning__config__training_config.yaml":
        "refused, but as a LightningCLI config (top-level model / data / trainer with trainer.precision and gpus), not "
        "in the label's words ('not a trainer config'); the label's own why says the repository's main.py hands it to "
        "its PyTorch Lightning module and pl.Trainer, so the refusal's words are the truer ones (README)",
}
_BESIDE = ("labelled through {what}, which the set keeps in unclaimed-user-script/ under its flattened name (read in "
           "the repository layout)")
STILL_WRONG_FLAT = dict(STILL_WRONG, **{
    "round64m/transformers/zyy469__Qwen2.5-7B_LoRA__train_with_eval.py":
        _BESIDE.format(what="config.py (TORCH_DTYPE 'bfloat16' in the default a800 environment)"),
    "round64m/unsloth/Joshua-Peter7__BFSI-chat-finetuned-model-Phi-4-__scripts__training__finetune_phi4.py":
        _BESIDE.format(what="config/training_config.yaml (bf16: false -> fp16)"),
})


# test_real_file, test_real_file_in_its_repository_layout, the format and floors, freshness, claims: configs_corpus
globals().update(staged_round("round64m", files_min=51, claimed_min=29, refused_min=22, repos_min=36,
                              captured="2026-11-29", still_wrong=STILL_WRONG_FLAT, still_wrong_in_layout=STILL_WRONG,
                              claimed_by="cfg64m", unread=MEASURE_ONLY))


def test_the_set_keeps_its_mix():
    """What the README counts: diffusion trainers' files (3: diffusers 2, sd-scripts 1), LLM trainers' files (26:
    transformers / TRL 12, Unsloth 11, ms-swift 2, LLaMA-Factory 1), refusals (22)."""
    trainers = [expect(p)["trainer"] for p in FILES]
    assert sum(t in DIFFUSION for t in trainers) >= 3
    assert sum(t not in DIFFUSION and not t.startswith("unclaimed:") and t != "none" for t in trainers) >= 26
    assert sum(t.startswith("unclaimed:") or t == "none" for t in trainers) >= 22


def test_the_readers_of_the_training_sets_read_it():
    """A training round is read by the benchmarks and tests that read every training folder: none of them names it
    among the folders they skip any more (it was measure-only until the lead's measurement of session 16's start)."""
    assert_training("round64m")


def test_no_file_holds_a_key():
    """No file of the set carries a Hugging Face token or an API key (sayouzone's vision script, which sets one in
    os.environ, was left out; MatthewCWeston's example.json keeps the placeholder 'aaaaaabbbbbbbbbbccccccccccc')."""
    assert_no_key(FILES)
