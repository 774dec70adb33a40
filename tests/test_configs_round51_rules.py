"""Issue 24, round 51 (helper cfg51, session 11): the mechanisms behind round 51's claimed files refused or read as
another trainer, measured on main e7787cc9 before any rule (benchmarks/results/configs-round51-main*.json).

Every case is a variant written for this test (what it fakes is in its text), not a copy of a round-51 file, and each
mechanism is tested both ways (the claimed variant reads, an unclaimed look-alike stays refused or as it was):
- argparse takes a unique start of a declared long option (allow_abbrev, on by default): a launcher's `--n_sample`
  for the script's `--n_samples` is that option, so the launch reads through the script; a word that starts two
  options (argparse: "ambiguous option"), or any start under allow_abbrev=False, is not taken (only options of the
  script's own add_argument calls: a dataclass field given short stays the typo tests/test_configs_cfg40.py refuses);
- a launch whose claim rests on the script's name alone (a name like a diffusers example's, `train_qwen3_unsloth.py`)
  is read as the script it runs when that script is here and its own content reads as another trainer; a name like an
  example's launched without the examples' required --pretrained_model_name_or_path is not the example (an option's
  value in a variable, `--output_dir $RUN_DIR/out`, hands on no options);
- a user's own loop under torch's amp module imported by a name of its own (`from torch import amp`, then `with
  amp.autocast("cuda", dtype=torch.float16)`) trains in that dtype; an `amp` of another package, or a CPU autocast, does not;
- a launch of `run_evaluation.py` (`run_` before an evaluation, inference or generation step's name) is named as no training
  run; `run_training.py` is not;
- the alignment-handbook's script (`run_dpo.py`) given a YAML that is here and laid out as the handbook's recipes (a model and
  its dataset mixer) reads that recipe, though the line names neither recipes/ nor the handbook; a YAML of another
  layout, or none here, leaves the launch refused.
Marked NEW: fail on main before this change (e7787cc9)."""

from __future__ import annotations

from configs_corpus import read as _read, reading, refusal as _refusal, write
from attn_doctor import configs as _configs

SFT_SCRIPT = '''import argparse
import torch
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

{parser}
parser.add_argument("--base_model", type=str, default="Qwen/Qwen2.5-0.5B")
parser.add_argument("--samples", type=int, default=100)
parser.add_argument("--samples_eval", type=int, default=10)
parser.add_argument("--learning_rate", type=float, default=2e-5)
args = parser.parse_args()

model = AutoModelForCausalLM.from_pretrained(args.base_model, torch_dtype=torch.bfloat16)
targs = TrainingArguments(output_dir="out", bf16=True, learning_rate=args.learning_rate)
Trainer(model=model, args=targs).train()
'''


def _launch(words: str) -> str:
    return "#!/bin/bash\nfor lr in 1e-5 2e-5; do\n    python finetune_sft.py " + words + "\ndone\n"


def test_an_abbreviated_option_of_the_scripts_argparse_is_that_option(tmp_path):  # NEW
    (tmp_path / "finetune_sft.py").write_text(SFT_SCRIPT.format(parser="parser = argparse.ArgumentParser()"))
    # `--base` starts only --base_model, `--learning` only --learning_rate, `--samples_e` only --samples_eval
    got = _read(tmp_path, "sweep.sh", _launch('--base "Qwen/Qwen2.5-1.5B" --learning "$lr" --samples_e 20'))
    assert got == ("transformers", [], "bfloat16", "none")


def test_an_ambiguous_start_or_allow_abbrev_false_is_not_taken(tmp_path):
    (tmp_path / "finetune_sft.py").write_text(SFT_SCRIPT.format(parser="parser = argparse.ArgumentParser()"))
    # `--sam` starts --samples and --samples_eval: argparse stops with "ambiguous option"
    assert "with options attn-doctor does not read" in _refusal(tmp_path, "amb.sh", _launch("--sam 5"))
    d = tmp_path / "strict"
    d.mkdir()
    (d / "finetune_sft.py").write_text(SFT_SCRIPT.format(
        parser="parser = argparse.ArgumentParser(description='sft', allow_abbrev=False)"))
    assert "with options attn-doctor does not read" in _refusal(d, "strict.sh", _launch("--base Qwen/Qwen2.5-1.5B"))


UNSLOTH_SCRIPT = '''import argparse
import torch
from unsloth import FastLanguageModel
from trl import SFTConfig, SFTTrainer

p = argparse.ArgumentParser()
p.add_argument("--model_name_or_path", default="unsloth/Qwen3-8B")
p.add_argument("--output_dir", default="out")
p.add_argument("--learning_rate", type=float, default=1e-4)
a = p.parse_args()
model, tok = FastLanguageModel.from_pretrained(model_name=a.model_name_or_path, max_seq_length=2048,
                                               load_in_4bit=False, dtype=torch.float16)
SFTTrainer(model=model, tokenizer=tok, args=SFTConfig(output_dir=a.output_dir, fp16=True)).train()
'''
QWEN_LAUNCH = ('#!/bin/bash\nRUN_DIR=$(pwd)/runs\nuv run python {script} --model_name_or_path unsloth/Qwen3-14B '
               '--output_dir $RUN_DIR/out --learning_rate 2e-4\n')


def test_a_script_named_like_a_diffusers_example_reads_as_what_it_is(tmp_path):  # NEW
    (tmp_path / "train_qwen_lora_unsloth.py").write_text(UNSLOTH_SCRIPT)
    got = _read(tmp_path, "launch.sh", QWEN_LAUNCH.format(script="train_qwen_lora_unsloth.py"))
    assert got == ("unsloth", [], "float16", "none")


def test_a_name_like_an_example_without_its_model_option_is_not_the_example(tmp_path):  # NEW
    # the script is not here: a name like diffusers' examples launched without --pretrained_model_name_or_path (which
    # every example requires) is another program's, refused instead of read as diffusers
    msg = _refusal(tmp_path, "launch.sh", QWEN_LAUNCH.format(script="train_flux_own.py"))
    assert "train_flux_own.py" in msg


def test_the_example_with_its_model_option_still_reads_as_diffusers(tmp_path):
    launch = ("#!/bin/bash\nOUT=$(pwd)/out\naccelerate launch train_qwen_image_lora.py "
              "--pretrained_model_name_or_path Qwen/Qwen-Image --output_dir $OUT --mixed_precision bf16\n")
    assert _read(tmp_path, "launch.sh", launch)[0] == "diffusers"
    # an options variable where an option goes may hand on the model option: the name still reads as the example
    launch2 = "#!/bin/bash\naccelerate launch train_qwen_image_lora.py --output_dir out $EXTRA_ARGS\n"
    assert _read(tmp_path, "launch2.sh", launch2)[0] == "diffusers"


OWN_LOOP = '''import torch
{imp}
from transformers import AutoModelForCausalLM

model = AutoModelForCausalLM.from_pretrained("gpt2").to("cuda")
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
scaler = torch.cuda.amp.GradScaler()
for batch in loader:
    with {ctx}:
        loss = model(**batch).loss
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
'''


def test_an_own_loop_under_torchs_amp_module_imported_by_name_trains_in_its_dtype(tmp_path):  # NEW
    # torch's amp module under a name of the script's: `from torch import amp` (device_type first), `from torch.cuda
    # import amp as cuda_amp` (CUDA, float16 by default), `import torch.amp as tamp`
    cases = [("from torch import amp", "amp.autocast('cuda', dtype=torch.bfloat16)", "bfloat16"),
             ("from torch.cuda import amp as cuda_amp", "cuda_amp.autocast()", "float16"),
             ("import torch.amp as tamp", "tamp.autocast(device_type='cuda', dtype=torch.float16)", "float16")]
    for i, (imp, ctx, want) in enumerate(cases):
        assert _forced(tmp_path, f"loop{i}.py", OWN_LOOP.format(imp=imp, ctx=ctx))[2] == want, (imp, ctx)


def test_an_amp_of_another_module_or_a_cpu_autocast_says_nothing(tmp_path):
    # an `amp` that is not torch's (apex's, a helper of the user's), or torch's on the CPU: no CUDA autocast dtype
    for i, (imp, ctx) in enumerate([("from apex import amp", "amp.autocast(dtype=torch.float16)"),
                                    ("from torch import amp", "amp.autocast('cpu', dtype=torch.bfloat16)")]):
        assert _forced(tmp_path, f"other{i}.py", OWN_LOOP.format(imp=imp, ctx=ctx))[2] == "", (imp, ctx)


def _forced(tmp_path, name: str, text: str) -> tuple:
    """A user's own loop is refused since session 18 (cfg74: the blind rounds' convention, hf_transformers.own_loop);
    `--trainer transformers` still reads its model's settings and its autocast, as these tests ask."""
    assert "a training loop of the user's own" in _refusal(tmp_path, name, text)
    return reading(_configs.load(write(tmp_path, name, text), trainer="transformers"))


def test_a_run_prefixed_evaluation_script_is_named_as_no_training_run(tmp_path):  # NEW
    for name in ("run_evaluation.py", "run_inference.py", "run_eval_math.py"):
        msg = _refusal(tmp_path, "eval.sh", f"#!/bin/bash\npython {name} --model Qwen/Qwen2.5-7B --task maths\n")
        assert "not a trainer config" in msg and "evaluates" in msg, name


def test_a_run_prefixed_training_script_is_not_taken_for_an_evaluation(tmp_path):
    msg = _refusal(tmp_path, "go.sh", "#!/bin/bash\npython run_training.py --model Qwen/Qwen2.5-7B --task maths\n")
    assert "evaluates" not in msg and "run_training.py" in msg


RECIPE = '''model_name_or_path: mistralai/Mistral-7B-v0.1
torch_dtype: bfloat16
use_flash_attention_2: true
{mixer}:
  HuggingFaceH4/ultrafeedback_binarized: 1.0
bf16: true
beta: 0.01
output_dir: data/mistral-dpo
'''
HANDBOOK_LAUNCH = "#!/bin/bash\nACCELERATE_LOG_LEVEL=info accelerate launch --num_processes 4 run_dpo.py my_dpo.yaml --load_in_4bit=false\n"


def test_a_handbook_script_given_a_recipe_of_the_handbooks_layout_reads_it(tmp_path):  # NEW
    # run_dpo.py (the handbook's script, copied into the user's repository and not here) with a recipe that is here and
    # laid out as the handbook's: the recipe is the run, though the line names neither recipes/ nor the handbook
    for mixer in ("dataset_mixer", "train_dataset_mixer"):
        (tmp_path / "my_dpo.yaml").write_text(RECIPE.format(mixer=mixer))
        assert _read(tmp_path, "go.sh", HANDBOOK_LAUNCH) == ("transformers", ["fa2"], "bfloat16", "none"), mixer


def test_a_handbook_script_name_with_another_yaml_or_none_here_stays_refused(tmp_path):
    # a YAML of another layout (no dataset mixer: a user's own settings), or no recipe here at all: not the handbook's
    (tmp_path / "my_dpo.yaml").write_text("model_name_or_path: gpt2\nepochs: 3\nlr: 1.0e-5\n")
    assert "run_dpo.py" in _refusal(tmp_path, "go.sh", HANDBOOK_LAUNCH)
    d = tmp_path / "empty"
    d.mkdir()
    assert "run_dpo.py" in _refusal(d, "go.sh", HANDBOOK_LAUNCH)
