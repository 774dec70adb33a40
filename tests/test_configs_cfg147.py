"""Helper cfg147 (session 42, issue 24): what reading round 147m found, each mechanism with variants of our own (other
users' shapes of the same thing) and near misses, none of them a file of a set.

1. A PyTorch Lightning Trainer's keyword arguments kept as a file of their own (a project's configs/trainer/default.yaml
   handed to `Trainer(**cfg)`; round 147m's litgpt-fork file): three or more of the Trainer's own argument names at the
   top level are refused as Lightning (others.lightning_trainer_args), where it was "not a trainer config attn-doctor
   recognises". LitGPT recipes, TRL / transformers YAMLs and LightningCLI configs keep their readings.
2. A launch of Lightricks' LTX trainer's own script (`packages/ltx-trainer/scripts/train.py` of the LTX-2 monorepo, a
   LTX-Video-Trainer checkout's scripts/) is refused naming that trainer and the path (others._LTX_TRAINER_SCRIPT), not
   as running the user's config-render step that comes before it.
3. A Hydra app whose only Hydra syntax (`+key=`) is on a step after training (a metrics run) is refused naming the
   training script of the same app too (others._same_app_training: `train*.py` given plain overrides of a key the step
   is given, `experiment=`), where it named the metrics script alone.
4. A user's own loop over a transformers model (round 147m's gyunggyung DDP script, relabelled) stays refused, saying the
   attn_implementation it asks for."""

from __future__ import annotations

from configs_corpus import read, refusal
from each_case import each

# 1. a Lightning Trainer's arguments ------------------------------------------------------------------------------------


def test_a_lightning_trainers_arguments_file_is_refused_as_lightning(tmp_path):
    def check(name, text):
        msg = refusal(tmp_path, name, text)
        assert "PyTorch Lightning (its Trainer's arguments)" in msg, msg

    each([
        # a Hydra trainer group of a project's own (no _target_: its code does Trainer(**cfg.trainer))
        ("hydra group, bf16-mixed", ("trainer.yaml", "max_epochs: 20\naccelerator: gpu\ndevices: 2\nstrategy: ddp\n"
                                     "precision: bf16-mixed\ngradient_clip_val: 0.5\nnum_sanity_val_steps: 0\n"
                                     "log_every_n_steps: 50\nlimit_val_batches: 0.25\n")),
        # a JSON the project's script loads with json.load and passes on
        ("json kwargs", ("pl_trainer.json", '{"max_steps": 10000, "precision": "16-mixed", "val_check_interval": 0.5,'
                                            ' "enable_progress_bar": false, "reload_dataloaders_every_n_epochs": 1,'
                                            ' "default_root_dir": "/ckpt"}')),
        # an older pytorch_lightning file (gpus=, no precision) with comments
        ("pl 1.x, comments", ("default.yaml", "# trainer\ngpus: 1\nmax_epochs: 100\n"
                                              "check_val_every_n_epoch: 5  # validate rarely\nfast_dev_run: false\n"
                                              "overfit_batches: 0.0\ndeterministic: true\n")),
    ], check)


def test_other_frameworks_files_with_a_few_of_the_same_names_keep_their_readings(tmp_path):
    def check(name, text, want):
        assert read(tmp_path, name, text)[:3] == want

    each([
        # a TRL SFT YAML: TrainingArguments' own names (max_grad_norm, eval_steps), not Lightning's
        ("trl sft", ("sft.yaml", "model_name_or_path: Qwen/Qwen2.5-1.5B\ndataset_name: trl-lib/Capybara\n"
                                 "attn_implementation: flash_attention_2\nbf16: true\nlearning_rate: 2.0e-5\n"
                                 "gradient_accumulation_steps: 4\nmax_grad_norm: 1.0\neval_steps: 100\n"
                                 "logging_steps: 10\nnum_train_epochs: 1\npacking: false\noutput_dir: out\n",
                     ("transformers", ["fa2"], "bfloat16"))),
        # a LitGPT recipe: Lightning's precision spelling, its own train: / eval: sections
        ("litgpt recipe", ("lora.yaml", "checkpoint_dir: checkpoints/meta-llama/Llama-3.2-1B\nout_dir: out/lora\n"
                                        "precision: bf16-true\ndevices: 1\nlora_r: 8\nlora_alpha: 16\n"
                                        "data:\n  class_path: litgpt.data.Alpaca2k\ntrain:\n  save_interval: 200\n"
                                        "  log_interval: 1\n  global_batch_size: 8\n  micro_batch_size: 1\n  epochs: 4\n"
                                        "eval:\n  interval: 100\n",
                           ("litgpt", [], "bfloat16"))),
    ], check)


def test_two_names_alone_or_a_lightningcli_config_are_not_read_as_trainer_arguments(tmp_path):
    def check(name, text, said, not_said):
        msg = refusal(tmp_path, name, text)
        assert said in msg and not_said not in msg, msg

    each([
        # two of the Trainer's names among a project's own settings: not enough to say whose file it is
        ("two names", ("settings.yaml", "lr: 0.001\nbatch_size: 64\ngradient_clip_val: 1.0\ndefault_root_dir: runs\n"
                                        "dataset: cifar10\nwidth: 128\n", "not a trainer config",
                       "Trainer's arguments")),
        # a LightningCLI config (the names under trainer:): the recogniser that says so keeps it
        ("lightningcli", ("config.yaml", "seed_everything: 42\ntrainer:\n  accelerator: gpu\n  devices: 1\n"
                                         "  precision: 16-mixed\n  limit_val_batches: 0.1\n  fast_dev_run: false\n"
                                         "model:\n  class_path: my_project.models.Net\n  init_args:\n    lr: 0.01\n",
                          "LightningCLI", "Trainer's arguments")),
    ], check)


# 2. a launch of the LTX trainer's script -------------------------------------------------------------------------------


def test_a_launch_of_the_ltx_trainers_script_is_refused_naming_it(tmp_path):
    def check(name, text, path):
        msg = refusal(tmp_path, name, text)
        assert "Lightricks LTX-Video-Trainer" in msg and path in msg, msg

    each([
        # a render step of the user's first, then the monorepo's trainer under accelerate
        ("render, then accelerate", ("train.sh", "#!/bin/bash\nset -e\npython tools/make_config.py --base cfg.yaml "
                                                 "--output /tmp/run.yaml\naccelerate launch --num_processes 4 "
                                                 "packages/ltx-trainer/scripts/train.py /tmp/run.yaml\n",
                                     "packages/ltx-trainer/scripts/train.py")),
        # uv run from the monorepo's root, the config a variable
        ("uv run", ("run_lora.sh", "CFG=${1:-configs/ltx2_av_lora.yaml}\nuv run python "
                                   "packages/ltx-trainer/scripts/train.py \"$CFG\"\n",
                    "packages/ltx-trainer/scripts/train.py")),
        # a standalone LTX-Video-Trainer checkout beside the user's scripts, a Windows launcher
        ("bat, standalone checkout", ("train.bat", "@echo off\r\ncall venv\\Scripts\\activate\r\n"
                                                   "python LTX-Video-Trainer/scripts/train.py configs/ltxv_13b_lora.yaml"
                                                   "\r\n", "LTX-Video-Trainer/scripts/train.py")),
    ], check)


def test_a_bare_scripts_train_py_is_not_taken_for_the_ltx_trainers(tmp_path):
    def check(name, text):
        assert "LTX" not in refusal(tmp_path, name, text)

    each([
        # `scripts/train.py` with no folder that names the trainer: any project's
        ("scripts/train.py", ("train.sh", "python scripts/train.py configs/ltxv_2b_lora.yaml\n")),
        # a user's own script named after the model
        ("train_ltx.py", ("go.sh", "accelerate launch train_ltx.py --config configs/ltx.yaml --lr 1e-4\n")),
    ], check)


# 3. a Hydra app's training script named beside its metrics step --------------------------------------------------------


def test_a_hydra_apps_refusal_names_its_training_script(tmp_path):
    def check(name, text, words):
        msg = refusal(tmp_path, name, text)
        assert "Hydra app" in msg and all(w in msg for w in words), msg

    each([
        # train with plain overrides, then an evaluation step whose `+ckpt=` is the only Hydra syntax
        ("train then eval", ("run.sh", "#!/bin/bash\npython train.py experiment=cifar_vit trainer.max_steps=1000 "
                                       "model.lr=3e-4\npython evaluate_model.py experiment=cifar_vit "
                                       "+ckpt=outputs/last.ckpt\n", ["train.py experiment=", "evaluate_model.py"])),
        # srun under sbatch, the shared key another group (model=)
        ("sbatch", ("job.sbatch", "#!/bin/bash\n#SBATCH --gres=gpu:1\nsrun python src/train_diffusion.py model=dit_s "
                                  "data.root=$DATA\nsrun python src/sample_and_score.py model=dit_s ++n_samples=64\n",
                    ["train_diffusion.py model=", "sample_and_score.py"])),
    ], check)


def test_an_unrelated_step_or_a_training_command_with_hydra_syntax_names_no_other_script(tmp_path):
    def check(name, text, said, not_said):
        msg = refusal(tmp_path, name, text)
        assert said in msg and not_said not in msg, msg

    each([
        # the training command carries the Hydra syntax itself: it is named, nothing else
        ("train has +", ("run.sh", "python prepare.py data=small\npython train_net.py experiment=a +trainer.devices=2\n",
                         "train_net.py +trainer.devices=", "prepare.py")),
        # the train script shares no override key with the step: not the same app's
        ("no shared key", ("run.sh", "python train_tok.py vocab=32000\npython score.py experiment=x +ckpt=last.pt\n",
                           "score.py +ckpt=", "train_tok.py")),
    ], check)


# 4. a user's own loop over a transformers model --------------------------------------------------------------------------


def test_a_users_own_ddp_loop_is_refused_saying_the_attention_it_asks_for(tmp_path):
    text = ("import argparse\nimport torch\nimport torch.distributed as dist\n"
            "from torch.nn.parallel import DistributedDataParallel as DDP\n"
            "from transformers import AutoModelForCausalLM, get_cosine_schedule_with_warmup\n\n"
            "def main():\n    ap = argparse.ArgumentParser()\n"
            "    ap.add_argument('--attn-implementation', default='flash_attention_2')\n    args = ap.parse_args()\n"
            "    dist.init_process_group('nccl')\n"
            "    model = AutoModelForCausalLM.from_pretrained('m', torch_dtype=torch.bfloat16,\n"
            "                                                 attn_implementation=args.attn_implementation)\n"
            "    model = DDP(model.cuda())\n    opt = torch.optim.AdamW(model.parameters(), lr=1e-5)\n"
            "    for batch in []:\n        loss = model(**batch).loss\n        loss.backward()\n        opt.step()\n\n"
            "if __name__ == '__main__':\n    main()\n")
    msg = refusal(tmp_path, "train_ddp.py", text)
    assert "no trainer calls" in msg and "flash_attention_2" in msg, msg
