"""Issue 24, round 51: a training set of users' LLM-trainer files (helper cfg51, session 11, 2026-11-29), measured on main
e7787cc9 before any rule was written (benchmarks/results/configs-round51-main.json: 22/35 claimed right in all four
fields, 7 claimed refused, 8/8 others refused; -main-repo.json in the repository layout: 26/35, 4 claimed refused),
then read by the rules of tests/test_configs_round51_rules.py (after: 24/35 flat, 31/35 in the repository layout).

fixtures/configs/round51/ (see its README: 43 files from 16 users' repositories on the train side of the split, taken as
the look-ups returned them, labelled from the trainers' own source before any reader ran) is read file by file, as
`check --config FILE` reads it where the set keeps it: every file as labelled, the misses left as strict xfails, each
saying why (reading one right makes its test fail, so its entry goes); and each file again in its repository's layout
(every file of the set at its `source` path), the misses there strict xfails too. The format is checked as well:
- every file has its expect file, well formed (the staged fields, capture date, a 40-digit commit, a label of the right
  types and values), its repository on the readers' side of the split and not a trainer's own, the file in the folder its
  trainer names and named after its source, `refused` exactly for files no claimed trainer reads;
- the set keeps its size (floors = what was gathered: 43 files, 35 claimed, 8 refused, 16 repositories);
- no repository is shared with another folder under fixtures/configs/ (held-out aside, and never listed)."""

from __future__ import annotations

from configs_corpus import CONFIGS as CORPUS, MEASURE_ONLY, files, staged_round

ROOT = CORPUS / "round51"
FILES = files(ROOT)

# where the set keeps them (flattened names), the launchers labelled through another file of the set cannot find it
_FLAT = "labelled through {}, which the set keeps under its flattened name (read in the repository layout)"
STILL_WRONG_IN_BOTH = {
    "round51/transformers/faizghifari__scale-resources__training.sh":
        "gives train.py --train_tokenizer, which train.py's argparse does not declare (parse_args would stop with "
        "\"unrecognized arguments\"): refused naming the script, which reads as labelled on its own",
    "round51/transformers/guybarnahum__gemma3_twitter__train_gemma3.py":
        "float32 weights from its argparse defaults (--bf16 / --fp16 off) read as no dtype ('')",
    "round51/transformers/willystumblr__ehrsql-2024__scripts__sft_text2sql.sh":
        "runs `python sft_main.py` from scripts/: sft_main.py is at the repository root, and a bare name is looked for "
        "beside the launcher only (tests/test_configs_layouts_s6.py's design); its options are declared in "
        "utils/args.py besides",
}
STILL_WRONG = {**STILL_WRONG_IN_BOTH,
    # (read in the repository layout since cfg53: pyscript._loaded_files reads the YAML the script loads itself)
    "round51/unsloth/insublee__llm_env__docker__train__train.py":
        _FLAT.format("configs/train.yaml, which the script loads with yaml.safe_load from /workspace/configs/train.yaml "
                     "(TrainingArguments(bf16=training_args[\"bf16\"]))"),
    "round51/llama-factory/FaezehFaez2025__InvertiTune__pipeline.sh":
        _FLAT.format("LLaMA-Factory/examples/train_full/qwen2.5_full_sft.yaml (after `cd LLaMA-Factory`)"),
    "round51/transformers/BFCmath__Confident_Task_LoRA__script.sh": _FLAT.format("finetune_model.py"),
    "round51/transformers/ubinaroy__qwen-law__run.sh": _FLAT.format("sft_train.py"),
    "round51/transformers/LZY-the-boys__dpo__run.sh": _FLAT.format("v1231.yaml (the handbook recipe run_dpo.py is given)"),
    "round51/unsloth/faizghifari__scale-resources__combined_training.sh": _FLAT.format("sft_unsloth.py"),
    "round51/unsloth/frankyaoxiao__gpt-oss-sft__run_training_qwen3.sh": _FLAT.format("train_qwen3_unsloth.py"),
}



# test_real_file, test_real_file_in_its_repository_layout (the misses above as strict xfails), the format and the floors
# gathered (README: 43 files, 35 claimed, 8 to refuse, 16 repositories; 31 and 12 since cfg74 relabelled the user's own
# loops BFCmath train_grpo.py with its run_grpo.sh and tiwwpst's dpo_train.py / sft_train.py unclaimed:user-script), freshness (round51's repositories feed no other
# folder under fixtures/configs/, held-out and the measure-only sets aside, never read): configs_corpus.staged_round
globals().update(staged_round("round51", files_min=43, claimed_min=31, refused_min=12, repos_min=16,
                              captured="2026-11-29", still_wrong=STILL_WRONG, still_wrong_in_layout=STILL_WRONG_IN_BOTH,
                              unread=MEASURE_ONLY))
