"""Issue 24, helper cfg139 (session 38): round 139m's misses, read after its measurement, fixed for their mechanism.

1. A fork of sd-scripts that adds options of its own to one of sd-scripts' scripts keeps that script sd-scripts': two or
   more options the script of that name defines in sd-scripts and no musubi-tuner or diffusers script defines
   (sd_scripts.FORK_EVIDENCE) outweigh any number the fork adds (round 139m's bluvoll/sd-scripts-f2vae
   launch_all_train.sh: `accelerate launch sdxl_train.py ... --fused_optimizer_groups 7 --vae_batch_size 6` beside eight
   flow-matching options of the fork's, refused as a script no trainer ships).
2. A command substitution inside double quotes (`OUT="$(` ... `)"`) is a script of its own: its quotes do not close the
   outer string and a here-document in it is text up to its terminator, so the commands after it are commands (round
   139m's dvr85 train_lora.sh: a Python here-document inside `"$( )"` swallowed the `exec uv run mlx_lm.lora` after it,
   refused as running src.train rather than naming mlx-lm).
3. `python -m PKG.MODULE` whose package is named for training (`lora_trainer.cli`, `flux_training.main`) is a training
   job the refusal names, as `python -m src.train` was (round 139m's jszaday test.sh, refused as settings several
   trainers share).
4. `tune run RECIPE --config FAMILY/NAME` from inside a torchtune checkout (torchtune/_recipe_registry.py and
   recipes/configs/FAMILY/NAME.yaml above the launch file) reads that checkout's YAML, which `tune run` resolves against
   the installed package's tree (torchtune/_cli/run.py), not upstream's settings (round 139m's wasabi-ai multi_lora.sh:
   the fork's config sets compile: True; the set holds no copy of it, so that file stays a miss).
Every file here is written by cfg139 for these tests."""

from __future__ import annotations

from configs_corpus import put, refusal, trainer_reading
from each_case import each

from attn_doctor import configs
from attn_doctor.configs import shell_words

# --- 1. sd-scripts forks' own options -------------------------------------------------------------------------------

FORKS = {
    # the fork's flow-matching options beside sdxl_train.py's own --fused_optimizer_groups and the common --vae_batch_size
    "sdxl_train flow fork": ("accelerate launch sdxl_train.py --config_file=run.toml --fused_optimizer_groups 4 "
                             "--vae_batch_size 4 --flow_model --flow_use_ot --flow_logit_mean 0.0 --rf_loss_scale 2\n",
                             ("sd-scripts", [], None)),
    # a FLUX LoRA fork: flux_train_network.py's --t5xxl_max_token_length and --apply_t5_attn_mask, five options of its own
    "flux_train_network fork": ("accelerate launch flux_train_network.py --config_file c.toml --t5xxl_max_token_length "
                                "512 --apply_t5_attn_mask --sdpa --fork_a 1 --fork_b 2 --fork_c 3 --fork_d 4 "
                                "--fork_e 5\n", ("sd-scripts", ["sdpa"], None)),
    # Windows, `^` continuations, a renamed fork folder
    "train_network fork, bat": ("python sd-fork\\train_network.py ^\n  --network_module networks.lora ^\n"
                                "  --network_train_unet_only ^\n  --save_model_as safetensors ^\n  --xformers ^\n"
                                "  --edm_a 1 ^\n  --edm_b 2 ^\n  --edm_c 3 ^\n  --edm_d 4 ^\n  --edm_e 5 ^\n"
                                "  --edm_f 6\n", ("sd-scripts", ["xformers"], "float32")),
}
NOT_FORKS = {
    # one option only sd-scripts' script defines: three of the program's own say it is another's
    "one own option": "accelerate launch sdxl_train.py --config_file=run.toml --vae_batch_size 4 --flow_model "
                      "--flow_use_ot --flow_logit_mean 0.0\n",
    # sd-scripts' name, options every trainer shares or its own (PixArt-alpha's train_controlnet.py)
    "PixArt train_controlnet": "python train_scripts/train_controlnet.py configs/PixArt_xl2_img1024_controlHed.py "
                               "--work-dir output/debug --resume_from latest --load_from ckpt.pth --report_to tb\n",
    # --t5xxl_max_token_length alone (--sdpa is musubi-tuner's too): not two
    "flux, one own option": "accelerate launch flux_train_network.py --config_file c.toml --t5xxl_max_token_length 512 "
                            "--sdpa --fork_a 1 --fork_b 2 --fork_c 3 --fork_d 4 --fork_e 5\n",
}


def test_an_sd_scripts_forks_script_with_its_own_options_stays_sd_scripts(tmp_path):
    """Two options only sd-scripts' script of that name defines: the fork's script (without FORK_EVIDENCE: refused as
    a script no trainer ships)."""
    def check(name, text, want):
        ext = ".bat" if "bat" in name else ".sh"
        assert trainer_reading(put(tmp_path / name.replace(" ", "_").replace(",", ""), "launch" + ext, text)) == want
    each(((n, (n, t, w)) for n, (t, w) in FORKS.items()), check)


def test_a_script_under_sd_scripts_name_with_fewer_of_its_options_stays_refused(tmp_path):
    """Near misses: fewer than two of the script's sd-scripts-only options beside three or more of another program's."""
    def check(name, text):
        assert trainer_reading(put(tmp_path / name.replace(" ", "_").replace(",", ""), "launch.sh", text)) == "refused"
    each(((n, (n, t)) for n, t in NOT_FORKS.items()), check)


# --- 2. here-documents inside "$( )" ---------------------------------------------------------------------------------

SUBSTITUTIONS = {
    # a quoted here-document of Python inside "$( )", across lines, then the training command
    "python heredoc": ('#!/bin/bash\nCFG="$(\n  python3 - "$1" <<\'PY\'\nimport sys, json\n'
                       'print(json.load(open(sys.argv[1]))["toml"])\nPY\n)"\n'
                       'accelerate launch --mixed_precision bf16 sdxl_train_network.py --config_file "$CFG" --sdpa '
                       '--network_module networks.lora\n', ("sd-scripts", ["sdpa"], "bfloat16")),
    # `<<-` with tab-indented body and terminator, inside an if, unquoted terminator
    "tab heredoc": ('#!/bin/bash\nif true; then\n\tOUT="$(\n\tpython - <<-END\n\timport os\n\tprint(os.getcwd())\n'
                    '\tEND\n\t)"\nfi\naccelerate launch --mixed_precision fp16 train_network.py --xformers '
                    '--network_module networks.lora --output_dir "$OUT"\n', ("sd-scripts", ["xformers"], "float32")),
}


def test_a_heredoc_inside_a_quoted_substitution_ends_at_its_terminator(tmp_path):
    """The command after `VAR="$( ... <<EOF ... EOF )"` is read (without the change: taken as the here-document's
    body, and the file read without its attention option)."""
    def check(name, text, want):
        assert trainer_reading(put(tmp_path / name.replace(" ", "_"), "run.sh", text)) == want
    each(((n, (n, t, w)) for n, (t, w) in SUBSTITUTIONS.items()), check)


def test_the_logical_lines_after_the_substitution_are_commands():
    """shell_words: the substitution is one logical line holding its here-document; the `exec` after it is its own line,
    and the body is recorded as the here-document of the line that opened it."""
    text = ('OUT="$(\n  uv run python - "$@" <<\'EOF\'\nprint("a)b")\nx = "unclosed\nEOF\n)"\n'
            'exec uv run mlx_lm.lora --config "$OUT/lora.yaml"\n')
    docs: dict = {}
    lines = shell_words._logical_lines(text, "posix", docs)
    assert [ln[0] for ln in lines] == [1, 7]
    assert lines[1][1].startswith("exec uv run mlx_lm.lora")
    assert docs == {1: ('print("a)b")\nx = "unclosed', True)}


def test_an_mlx_lm_run_after_a_substitution_is_refused_as_mlx_lm(tmp_path):
    """The round 139m shape in other words: Hydra's output folder found by Python in "$( )", then mlx-lm's CLI."""
    text = ('#!/usr/bin/env bash\nset -e\npython -m app.train "$@"\nDIR="$(\n  python - "$@" <<EOF\n'
            'from omegaconf import OmegaConf\nprint(OmegaConf.load("conf/x.yaml").out)\nEOF\n)"\n'
            'mlx_lm.lora --config "$DIR/lora.yaml" --train\n')
    assert "mlx-lm" in refusal(tmp_path, "go.sh", text)


# --- 3. python -m PKG.MODULE of a training package -------------------------------------------------------------------

def test_a_training_package_run_with_dash_m_is_named_in_the_refusal(tmp_path):
    """`python -m lora_trainer.cli ...`, `python3 -m flux_training.main ...`: the refusal names the module (without the
    change: "a shell script with no trainer calls")."""
    def check(module, text):
        assert f"runs {module} (-m)" in refusal(tmp_path, "t.sh", text)
    each([("lora_trainer.cli", ("lora_trainer.cli", 'python -m lora_trainer.cli "${@:3}" --checkpoint "$1" '
                                                     '--lora_rank 8 --mixed_precision fp16\n')),
          ("flux_training.main", ("flux_training.main", "python3 -m flux_training.main --steps 100 --batch_size 2\n"))],
         check)


def test_a_package_that_only_mentions_a_trainer_is_not_named_as_training(tmp_path):
    """Near miss: `model_trainer_utils.export` (no part of the path is a trainer's or training's name) is not called a
    training run; since cfg143 (session 40) the plain refusal names what the file runs, as it names a .py script."""
    msg = refusal(tmp_path, "t.sh", "python -m model_trainer_utils.export --out m.onnx --opset 17\n")
    assert "a training script" not in msg and "not a trainer config" in msg
    assert "it runs model_trainer_utils.export (-m), which is none of the trainers' training modules" in msg


# --- 4. torchtune: a built-in config name inside a torchtune checkout ------------------------------------------------

_LOOP = ("#!/bin/bash\nfor i in $(seq 4); do\n  tune run lora_finetune_single_device\\\n"
         "    --config llama3/8B_lora_single_device\\\n    output_dir=/tmp/out/$i\ndone\n")
_FORK_YAML = ("model:\n  _component_: torchtune.models.llama3.lora_llama3_8b\ndataset:\n"
              "  _component_: torchtune.datasets.alpaca_cleaned_dataset\n  packed: {packed}\ncompile: {compile}\n"
              "dtype: {dtype}\n")


def _tune(path) -> tuple:
    cfg = configs.load(str(path))
    return cfg["detected"]["trainer"], sorted(cfg["required"]), cfg["dtype"], cfg["compile_mode"] or "none"


def test_a_built_in_config_name_reads_the_checkouts_own_yaml(tmp_path):
    """The fork's recipes/configs/llama3/8B_lora_single_device.yaml (compile on, fp32, packed) where upstream's has
    compile off and bf16 (without the change: the package's settings, bf16 and no compile)."""
    def check(where, yaml, want):
        root = tmp_path / where.replace("/", "_")
        put(root, "torchtune/_recipe_registry.py", "")
        put(root, "recipes/configs/llama3/8B_lora_single_device.yaml", yaml)
        assert _tune(put(root, where, _LOOP)) == want
    each([("root", ("multi_lora.sh", _FORK_YAML.format(packed="False", compile="True", dtype="bf16"),
                    ("torchtune", [], "bfloat16", "default"))),
          ("scripts/", ("scripts/loop.sh", _FORK_YAML.format(packed="False", compile="True", dtype="fp32"),
                        ("torchtune", [], "float32", "default"))),
          ("packed", ("a/b/go.sh", _FORK_YAML.format(packed="True", compile="False", dtype="bf16"),
                      ("torchtune", ["flex"], "bfloat16", "none")))], check)


def test_a_recipes_folder_without_torchtune_beside_it_is_not_the_installed_package(tmp_path):
    """Near miss: a user's repository with a recipes/configs/ copy but no torchtune package: `tune run` reads the
    installed torchtune's config, so the package's settings (bf16, no compile), not the copy's."""
    put(tmp_path, "recipes/configs/llama3/8B_lora_single_device.yaml",
        _FORK_YAML.format(packed="False", compile="True", dtype="fp32"))
    assert _tune(put(tmp_path, "multi_lora.sh", _LOOP)) == ("torchtune", [], "bfloat16", "none")
