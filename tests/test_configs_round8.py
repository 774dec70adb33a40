"""Issue 24, round 8: users' launch scripts and configs of the LLM trainers, taken as searches returned them.

Two parts. The real files of fixtures/configs/round8/ (see its README: users' repositories on the train side of the split,
labelled from the trainers' and the scripts' own source) are each read as their expect file says. And variants written
for this test (what each fakes is in its name) of the mechanisms round 8 added:
- shell: a here-document a shell or a job scheduler runs is a script (`sbatch <<EOT ... EOT`, `bash <<'EOF'`,
  `cat <<EOF | sbatch`, `sed -e ... <<'EOF' | sbatch`); `python - <<'PY'` and `cat <<EOF` (no runner) are not;
- shell: a command line handed over as one string is a script (`bash -c "..."`, `bash -lc` behind docker, `sbatch
  --wrap "..."`, a cluster CLI's `--command "$cmd"`);
- shell: a program found on PATH (`"$(command -v swift || true)" sft ...`, `` `which llamafactory-cli` train ``) is
  that program;
- shell: among several training-sounding scripts, a data step or probe (prepare_sft.py, pretrain_probe.py,
  merge_lora.py) is not the run when the file also runs one that is not such a helper;
- refusals: a trainer CLI's name with a subcommand that is none of its training ones (`litgpt fit` of a LightningCLI
  package, `swift infer`) is named, not "not a trainer config" alone;
- transformers / TRL: the alignment-handbook's `scripts/run_sft.py recipes/.../config.yaml` (its recipe read when here);
  a script's `from_pretrained(attn_implementation=attn_implementation)` whose name is a function parameter takes that
  parameter's default unless the script passes it.
Run against main at 66ad44f (before round 8), the variants marked NEW fail there; the rest pass there too and guard
that the old readings hold."""

from __future__ import annotations

import pytest
from each_case import each

from attn_doctor import configs
from attn_doctor.configs import pyscript, shell

from configs_corpus import CONFIGS as CORPUS, CLAIMED, check_read_as_expected, check_staged_expect, expect, files, \
    split_module
from configs_corpus import read as _read4, rel, write as _write, refusal as _refusal

FILES = files(CORPUS / "round8")
LLM = {"axolotl", "llama-factory", "transformers", "torchtune", "litgpt", "ms-swift", "unsloth"}


def test_the_corpus_is_there_and_on_the_readers_side_of_the_split():
    split = split_module()
    claimed = refused = unclaimed = 0
    for p in FILES:
        t = check_staged_expect(p, expect(p), split)
        assert t in LLM or t not in CLAIMED, p  # round 8 is an LLM trainers' round
        claimed += t in CLAIMED
        refused += t not in CLAIMED
        unclaimed += t.startswith("unclaimed:") and t != "unclaimed:user-script"
    assert len(FILES) >= 45 and claimed >= 25 and refused >= 25 and unclaimed >= 12, (len(FILES), claimed, refused)


def test_real_file():
    each(((rel(p), (p,)) for p in FILES), check_read_as_expected)  # (one test over the set: tests/each_case.py)


def _read(tmp_path, name: str, text: str) -> tuple:
    """(trainer, required, dtype as read, None where unknown): these variants leave compile aside."""
    cfg = configs.load(_write(tmp_path, name, text))
    return cfg["detected"]["trainer"], sorted(cfg["required"]), cfg["dtype"]


# ---------------------------------------------------------------------------------------------------------------------
# a here-document a shell or a job scheduler runs
# ---------------------------------------------------------------------------------------------------------------------

HEREDOCS = {
    "NEW sbatch <<EOT, litgpt pretrain": (
        "job.sh", "#!/bin/bash\nsbatch <<EOT\n#!/bin/bash\n#SBATCH --gres=gpu:4\n\n"
                  "litgpt pretrain --config ./m.yaml --data TextFiles\nEOT\n", ("litgpt", [], None)),
    "NEW sbatch with options <<'EOF', ms-swift": (
        "job.sh", "sbatch -J sft --gres=gpu:8 <<'EOF'\n#!/bin/bash\nswift sft --model Qwen/Qwen2.5-7B "
                  "--attn_impl flash_attn --torch_dtype bfloat16\nEOF\n", ("ms-swift", ["fa2"], "bfloat16")),
    "NEW cat <<EOF | sbatch, variables of the outer script": (
        "submit.sh", "ATTN=sdpa\ncat <<EOF | sbatch\n#!/bin/bash\n#SBATCH -N 1\nllamafactory-cli train --stage sft "
                     "--model_name_or_path m --flash_attn $ATTN --bf16 true --output_dir o\nEOF\n",
        ("llama-factory", ["sdpa"], "bfloat16")),
    "NEW sed ... <<'EOF' | sbatch": (
        "slurm.sh", "N=2\nsed -e \"s|\\$N|$N|\" << 'EOF' | sbatch\n#!/bin/bash\n#SBATCH --nodes $N\n"
                    "srun swift sft --model m --attn_impl sdpa --torch_dtype float16\nEOF\n",
        ("ms-swift", ["sdpa"], "float16")),
    "NEW sbatch <<-EOF, the body tab-indented": (
        "job.sh", "sbatch --partition gpu <<-EOF\n\t#!/bin/bash\n\tswift sft --model m --attn_impl sdpa "
                  "--torch_dtype bfloat16\n\tEOF\n", ("ms-swift", ["sdpa"], "bfloat16")),
    "NEW qsub << \"END\"": (
        "job.sh", "qsub -l gpus=1 << \"END\"\nllamafactory-cli train --stage sft --flash_attn fa2 --bf16 true "
                  "--model_name_or_path m --output_dir o\nEND\n", ("llama-factory", ["fa2"], "bfloat16")),
    "NEW bash <<'EOF'": (
        "run.sh", "bash <<'EOF'\nset -e\ntorchrun --nproc_per_node 2 -m axolotl.cli.train cfg.yml\nEOF\n",
        ("axolotl", [], None)),
}


@pytest.mark.parametrize("case", HEREDOCS, ids=list(HEREDOCS))
def test_a_here_document_a_shell_or_scheduler_runs_is_read(tmp_path, case):
    name, text, want = HEREDOCS[case]
    assert _read(tmp_path, name, text) == want


@pytest.mark.parametrize("text", [
    "python - <<'PY'\nimport subprocess\nprint('swift sft --attn_impl flash_attn')\nPY\n",
    "cat <<EOF\nUsage: swift sft --model M --attn_impl flash_attn\nEOF\n",
    "cat > notes.txt <<EOF\nswift sft --model M --attn_impl flash_attn\nEOF\n",
], ids=["python reads the here-document", "cat prints it", "cat writes it to a file no one runs"])
def test_a_here_document_nothing_runs_as_a_script_is_not_read(tmp_path, text):
    with pytest.raises(configs.UsageError):
        configs.load(_write(tmp_path, "usage.sh", text))


def test_the_written_job_script_is_still_read(tmp_path):
    # (the round 4 reading: `cat > job.sh <<EOF ... EOF` then `sbatch job.sh`)
    text = "cat > job.sh <<EOF\n#!/bin/bash\nswift sft --model m --attn_impl sdpa --torch_dtype bfloat16\nEOF\n" \
           "sbatch job.sh\n"
    assert _read(tmp_path, "submit.sh", text) == ("ms-swift", ["sdpa"], "bfloat16")


# ---------------------------------------------------------------------------------------------------------------------
# a command line handed over as one string
# ---------------------------------------------------------------------------------------------------------------------

STRINGS = {
    "NEW sbatch --wrap \"...\"": (
        "go.sh", 'sbatch -N 1 --wrap "swift sft --model m --attn_impl sdpa --torch_dtype float16"\n',
        ("ms-swift", ["sdpa"], "float16")),
    "NEW docker run ... bash -lc \"...\"": (
        "go.sh", "docker run --gpus all -v $PWD:/w img bash -lc \"cd /w && llamafactory-cli train --stage sft "
                 "--model_name_or_path m --flash_attn fa2 --bf16 true --output_dir o\"\n",
        ("llama-factory", ["fa2"], "bfloat16")),
    "NEW --command=\"...\"": (
        "go.sh", 'CMD="cd /job && swift sft --model m --attn_impl flash_attn --torch_dtype bfloat16"\n'
                 'mycluster submit --gpus 8 --command="$CMD"\n', ("ms-swift", ["fa2"], "bfloat16")),
}


@pytest.mark.parametrize("case", STRINGS, ids=list(STRINGS))
def test_a_command_string_is_a_script(tmp_path, case):
    name, text, want = STRINGS[case]
    assert _read(tmp_path, name, text) == want


def test_a_cluster_command_string_that_hands_over_names_the_script(tmp_path):  # NEW
    text = ('function submit {\n    cmd=". ~/.bashrc && conda activate env && \\\n    cd /work/x && \\\n'
            '    bash ./sft-job.sh"\n    dlc create job --name x --worker_gpu 8 --command "$cmd" --priority 9\n}\nsubmit\n')
    assert "only runs another script (./sft-job.sh)" in _refusal(tmp_path, "sft.sh", text)


def test_an_option_value_with_words_is_no_script_of_a_users_program(tmp_path):
    text = 'python my_trainer.py --lr 1e-4 --command "run fast"\n'
    assert "runs my_trainer.py" in _refusal(tmp_path, "go.sh", text)


@pytest.mark.parametrize("line, inner", [
    ('bash -c "cd x && torchrun a.py"', "cd x && torchrun a.py"),
    ("ssh host bash -lc 'swift sft --model m'", "swift sft --model m"),
    ('sbatch --wrap "python t.py --x 1"', "python t.py --x 1"),
    ('bash -c ""', None),
    ("python t.py --cmd fast", None),
])
def test_the_command_string_of_a_command(line, inner):
    assert shell._command_string(shell.take_apart(shell.words_of(line, "posix")[0], {})) == inner


# ---------------------------------------------------------------------------------------------------------------------
# a program found on PATH
# ---------------------------------------------------------------------------------------------------------------------

PATHS = {
    "NEW \"$(command -v swift || true)\" sft, from an array": (
        "run.sh", 'BIN="$(command -v swift 2>/dev/null || true)"\nARGS=(\n    sft\n    --model m\n'
                  '    --attn_impl flash_attn\n    --torch_dtype bfloat16\n)\n"${BIN}" "${ARGS[@]}"\n',
        ("ms-swift", ["fa2"], "bfloat16")),
    "`which llamafactory-cli` train (read before too)": (
        "run.sh", "`which llamafactory-cli` train --stage sft --model_name_or_path m --flash_attn sdpa --fp16 true "
                  "--output_dir o\n", ("llama-factory", ["sdpa"], "float16")),
    "TORCHRUN=$(which torchrun), -m axolotl.cli.train (read before too)": (
        "run.sh", "TORCHRUN=$(which torchrun)\n$TORCHRUN --nproc_per_node 2 -m axolotl.cli.train cfg.yml\n",
        ("axolotl", [], None)),
    "a path to bin/swift (the old reading)": (
        "run.sh", "/opt/conda/envs/s/bin/swift sft --model m --attn_impl sdpa --torch_dtype float16\n",
        ("ms-swift", ["sdpa"], "float16")),
}


@pytest.mark.parametrize("case", PATHS, ids=list(PATHS))
def test_a_program_found_on_path_is_that_program(tmp_path, case):
    name, text, want = PATHS[case]
    assert _read(tmp_path, name, text) == want


# ---------------------------------------------------------------------------------------------------------------------
# the training step among a pipeline's scripts
# ---------------------------------------------------------------------------------------------------------------------

PIPELINES = {
    "NEW a data step named like SFT first": (
        "python prepare_sft_data.py --input raw.jsonl --output data.json\n"
        "torchrun --nproc_per_node 2 my_sft.py --lr 1e-5 --data data.json\n", "runs my_sft.py"),
    "NEW a probe named like pretraining first": (
        "PYTHON=/users/u/.conda/envs/t/bin/python\n${PYTHON} scripts/pretrain_probe.py --model m --out p.json\n"
        "${PYTHON} scripts/train_sft.py --model m --profile p.json\n", "runs train_sft.py"),
    "NEW a LoRA merge first": (
        "python merge_lora.py --base b --lora l\npython finetune.py --epochs 3\n", "runs finetune.py"),
    "a helper alone is still named (the old reading)": ("python eval_sft.py --ckpt x\n", "runs eval_sft.py"),
}


@pytest.mark.parametrize("case", PIPELINES, ids=list(PIPELINES))
def test_the_training_step_is_named(tmp_path, case):
    assert PIPELINES[case][1] in _refusal(tmp_path, "pipeline.sh", PIPELINES[case][0])


# ---------------------------------------------------------------------------------------------------------------------
# a trainer CLI's name with another subcommand
# ---------------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, words", [
    ("srun litgpt fit --config configs/ddp.yaml --trainer.devices 2\n", "runs `litgpt fit`"),  # NEW
    ("swift infer --model m --adapters out/checkpoint-100\n", "runs `swift infer`"),  # NEW
    ("tune download meta-llama/Llama-3.2-1B --output-dir /tmp/m\n", "runs `tune download`"),  # NEW
], ids=["litgpt fit (a LightningCLI package)", "swift infer", "tune download"])
def test_another_subcommand_of_a_trainer_cli_is_named(tmp_path, text, words):
    msg = _refusal(tmp_path, "run.sh", text)
    assert words in msg and "not a trainer config" in msg


def test_a_trainer_subcommand_is_still_read(tmp_path):
    assert _read(tmp_path, "run.sh", "litgpt finetune_lora --config c.yaml --precision bf16-true\n")[::2] == \
        ("litgpt", "bfloat16")


# ---------------------------------------------------------------------------------------------------------------------
# the alignment-handbook's scripts
# ---------------------------------------------------------------------------------------------------------------------

HANDBOOK = {
    "NEW scripts/run_sft.py recipes/.../config_full.yaml": (
        "ACCELERATE_LOG_LEVEL=info accelerate launch --config_file recipes/accelerate_configs/deepspeed_zero3.yaml "
        "scripts/run_sft.py recipes/zephyr-7b-beta/sft/config_full.yaml\n"),
    "NEW run_dpo.py by absolute path, the handbook named in it": (
        "accelerate launch --num_processes=8 /home/u/alignment-handbook/scripts/run_dpo.py /home/u/my_dpo.yaml\n"),
}


@pytest.mark.parametrize("case", HANDBOOK, ids=list(HANDBOOK))
def test_the_handbooks_scripts_are_transformers(tmp_path, case):
    assert _read4(tmp_path, "train.sh", HANDBOOK[case]) == ("transformers", [], "", "none")


def test_the_handbooks_recipe_is_read_when_here(tmp_path):  # NEW
    (tmp_path / "recipes" / "m" / "sft").mkdir(parents=True)
    _write(tmp_path, "recipes/m/sft/config_qlora.yaml",
           "model_name_or_path: m\ntorch_dtype: bfloat16\nattn_implementation: flash_attention_2\nbf16: true\n")
    text = "accelerate launch --num_processes=1 scripts/run_sft.py recipes/m/sft/config_qlora.yaml --load_in_4bit=true\n"
    assert _read(tmp_path, "train.sh", text) == ("transformers", ["fa2"], "bfloat16")


@pytest.mark.parametrize("text", [
    "python run_sft.py configs/mine.yaml\n",  # a user's run_sft.py with a YAML of its own, nothing of the handbook
    "python my_run.py recipes/x.yaml\n",
], ids=["a user's run_sft.py and YAML", "another script with a recipes/ path"])
def test_other_scripts_with_a_yaml_are_not_the_handbook(tmp_path, text):
    with pytest.raises(configs.UsageError):
        configs.load(_write(tmp_path, "train.sh", text))


# ---------------------------------------------------------------------------------------------------------------------
# a function parameter's default in a transformers / TRL script
# ---------------------------------------------------------------------------------------------------------------------

FIRE = ("import fire\nimport torch\nfrom transformers import AutoModelForCausalLM\nfrom trl import SFTConfig\n\n\n"
        "def main(model_name: str, out: str, attn_implementation: str = \"{attn}\"):\n"
        "    model = AutoModelForCausalLM.from_pretrained(model_name, torch_dtype=torch.bfloat16,\n"
        "                                                 attn_implementation=attn_implementation)\n"
        "    args = SFTConfig(output_dir=out, bf16=True)\n\n\n{tail}")


@pytest.mark.parametrize("attn, tail, want", [
    ("flash_attention_2", "if __name__ == \"__main__\":\n    fire.Fire(main)\n", ["fa2"]),  # NEW
    ("sdpa", "main(\"m\", \"o\")\n", ["sdpa"]),  # NEW: a call that passes only the others
    ("flash_attention_2", "main(\"m\", \"o\", attn_implementation=\"eager\")\n", []),  # the caller's, not known
    ("flash_attention_2", "main(\"m\", \"o\", \"eager\")\n", []),  # passed by position
], ids=["fire.Fire(main)", "called without it", "called with it by keyword", "called with it by position"])
def test_a_parameter_default_is_the_value_unless_passed(tmp_path, attn, tail, want):
    assert _read(tmp_path, "train_hf.py", FIRE.format(attn=attn, tail=tail)) == ("transformers", want, "bfloat16")


def test_two_defaults_of_one_name_are_unknown():
    t = pyscript.tree("def a(x='eager'):\n    pass\n\ndef b(x='sdpa'):\n    pass\n")
    assert "x" not in pyscript.constants(t)


def test_a_module_constant_wins_over_a_parameter_default():
    t = pyscript.tree("ATTN = 'sdpa'\ndef f(ATTN='eager'):\n    pass\n")
    assert pyscript.value(pyscript.constants(t)["ATTN"], {}) == "sdpa"
