"""Issue 24, helper cfg74 (session 18): users' own training loops, and what round 72m showed once it became training
material.

The convention (the lead's decision, the one the blind rounds 10m, 29m, 33m, 41m ... 72m label by, and issue 24's "a
file is read as trainer X only on X's own evidence"): a script of a user's own loop or own trainer class over a
transformers / PEFT model, which no transformers Trainer, TRL trainer or trainer CLI runs, is no trainer's. It is
refused in one line (exit 2) that says what it is, a training loop of the user's own over a transformers model, and
where it sets one, the attention it asks transformers for with the `attn-doctor check --require BACKEND` that tests that
backend here (hf_transformers.own_loop / own_loop_refusal; configs.detect). A script that runs transformers' Trainer /
Seq2SeqTrainer or a TRL trainer (built, subclassed or handed on as a class) stays transformers', and so does an
inference or load script (round 6a / 27u's convention: attention is what it runs). Round 72m's nemotron_lora_train.py
(its own ReasoningTrainer class, Trainer imported and never built) was read as transformers; rounds 6a, 47m and 51
labelled five such loops transformers and were relabelled (their READMEs list them).

Round 72m besides: mlx-lm's config keys spelt as its command line spells them (`steps-per-report`, `adapter-path`:
HueCodes lora_config.yaml) are mlx-lm's (others.mlx_lm), and a shell script that starts a GUI says it has no trainer
calls, as every other refused shell script does (chmtom Kohya-start.sh).

Every variant below is synthetic, written here, not taken from any repository."""

from __future__ import annotations

import json

import pytest

from attn_doctor import configs
from ci_support import CPU_REPORT, cli
from configs_corpus import read, refusal, write

LOOP = "a training loop of the user's own over a transformers model"


def _loop(model: str, body: str, head: str = "") -> str:
    return ("import torch\n" + head + "from transformers import AutoTokenizer, AutoModelForCausalLM\n\n"
            f"model = {model}\n" + body)


PLAIN = """opt = torch.optim.AdamW(model.parameters(), lr=1e-5)
for batch in loader:
    loss = model(**batch).loss
    loss.backward()
    opt.step()
    opt.zero_grad()
"""

# users' own loops, spelt as users spell them: each is refused as a loop of the user's own
LOOPS = {
    # plain torch: backward and the optimiser's step, no Lightning, no trainer library
    "plain_torch": _loop('AutoModelForCausalLM.from_pretrained("org/m")', PLAIN),
    # accelerate's loop: accelerator.backward, the model prepared by accelerate
    "accelerate": _loop('AutoModelForCausalLM.from_pretrained("org/m", torch_dtype=torch.bfloat16)',
                        "acc = Accelerator(mixed_precision='bf16')\nopt = torch.optim.AdamW(model.parameters())\n"
                        "model, opt = acc.prepare(model, opt)\nfor batch in loader:\n"
                        "    with acc.accumulate(model):\n        acc.backward(model(**batch).loss)\n"
                        "        opt.step()\n",
                        head="from accelerate import Accelerator\n"),
    # model.train() and the optimiser's step in a function, the backward pass in a helper of its own module
    "train_step_helper": _loop('AutoModelForCausalLM.from_pretrained("org/m")',
                               "from mylib.losses import compute_and_backprop\n\n"
                               "def train(model, optimizer, loader):\n    model.train()\n    for batch in loader:\n"
                               "        compute_and_backprop(model, batch)\n        optimizer.step()\n"
                               "        optimizer.zero_grad()\n\ntrain(model, torch.optim.SGD(model.parameters(), lr=0.1), [])\n"),
    # AMP with a GradScaler: scaler.scale(loss).backward(), scaler.step(optim)
    "grad_scaler": _loop('AutoModelForCausalLM.from_pretrained("org/m")',
                         "optim = torch.optim.AdamW(model.parameters())\nscaler = torch.cuda.amp.GradScaler()\n"
                         "for batch in loader:\n    with torch.autocast('cuda', dtype=torch.float16):\n"
                         "        loss = model(**batch).loss / 4\n    scaler.scale(loss).backward()\n"
                         "    scaler.step(optim)\n    scaler.update()\n"),
    # its own trainer class in the file, transformers' Trainer imported and never built (round 72m's shape)
    "own_class_trainer_imported": _loop(
        'AutoModelForCausalLM.from_pretrained("org/m", trust_remote_code=True)',
        "class ReasonTrainer:\n    def __init__(self, model):\n        self.model = model\n"
        "        self.optimizer = torch.optim.AdamW(model.parameters())\n"
        "    def fit(self, loader):\n        for b in loader:\n            self.model(**b).loss.backward()\n"
        "            self.optimizer.step()\n\nReasonTrainer(model).fit([])\n",
        head="from transformers import Trainer, TrainingArguments, DataCollatorForLanguageModeling\n"),
    # a backward pass beside an optimiser of bitsandbytes' (its step in a helper of the user's module)
    "bnb_optimizer_step_elsewhere": _loop('AutoModelForCausalLM.from_pretrained("org/m")',
                                          "import bitsandbytes as bnb\nfrom mylib import apply_update\n"
                                          "o = bnb.optim.AdamW8bit(model.parameters(), lr=2e-4)\nfor b in loader:\n"
                                          "    model(**b).loss.backward()\n    apply_update(o)\n"),
    # a task head and PEFT, the loop in main()
    "peft_task_head": ("import torch\nfrom peft import LoraConfig, get_peft_model\n"
                       "from transformers import AutoModelForSequenceClassification\n\n\ndef main():\n"
                       "    model = AutoModelForSequenceClassification.from_pretrained('org/enc', num_labels=3)\n"
                       "    model = get_peft_model(model, LoraConfig(r=8))\n"
                       "    optimizer = torch.optim.AdamW(model.parameters())\n    for b in []:\n"
                       "        out = model(**b)\n        out.loss.backward()\n        optimizer.step()\n\n\nmain()\n"),
    # a model class of transformers' named directly, imported as the module
    "module_import": ("import torch\nimport transformers\n\n"
                      "model = transformers.LlamaForCausalLM.from_pretrained('org/llama')\n" + PLAIN),
}


@pytest.mark.parametrize("name", sorted(LOOPS))
def test_an_own_loop_is_refused_saying_what_it_is(tmp_path, name):
    msg = refusal(tmp_path, "train.py", LOOPS[name])
    assert LOOP in msg and "no trainer calls" in msg, msg
    assert "--trainer transformers" in msg


@pytest.mark.parametrize("attn,words", [
    ("flash_attention_2", 'attn_implementation="flash_attention_2": `attn-doctor check --require fa2`'),
    ("sdpa", 'attn_implementation="sdpa": `attn-doctor check --require sdpa`'),
    ("flash_attention_3", "`attn-doctor check --require fa3`"),
    ("flex_attention", "`attn-doctor check --require flex`"),
    ("eager", 'attn_implementation="eager", which needs no backend attn-doctor tests'),
    ("flash_attn_2", "a name transformers does not know (did you mean flash_attention_2?)"),
])
def test_the_refusal_names_the_attention_the_loop_asks_for(tmp_path, attn, words):
    text = _loop(f'AutoModelForCausalLM.from_pretrained("org/m", attn_implementation="{attn}")', PLAIN)
    msg = refusal(tmp_path, "sft_loop.py", text)
    assert LOOP in msg and words in msg, msg


def test_the_attention_through_a_variable_or_use_flash_attention_2(tmp_path):
    text = ('import torch\nfrom transformers import AutoModelForCausalLM\nATTN = "flash_attention_2"\n'
            'model = AutoModelForCausalLM.from_pretrained("org/m", attn_implementation=ATTN)\n' + PLAIN)
    assert "--require fa2" in refusal(tmp_path, "a.py", text)
    text = _loop('AutoModelForCausalLM.from_pretrained("org/m", use_flash_attention_2=True)', PLAIN)
    assert "--require fa2" in refusal(tmp_path, "b.py", text)


def test_no_attention_named_says_transformers_default(tmp_path):
    msg = refusal(tmp_path, "train.py", LOOPS["plain_torch"])
    assert "names no attn_implementation" in msg and "sdpa" in msg and "--require" not in msg


def test_the_cli_refuses_in_one_line_with_exit_2(tmp_path):
    p = write(tmp_path, "loop.py", _loop('AutoModelForCausalLM.from_pretrained("org/m", '
                                         'attn_implementation="flash_attention_2")', PLAIN))
    r = cli("check", "--from", str(CPU_REPORT), "--config", str(p))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert LOOP in r.stderr and "attn-doctor check --require fa2" in r.stderr
    # --trainer transformers reads the load anyway
    r = cli("check", "--from", str(CPU_REPORT), "--config", str(p), "--trainer", "transformers", "--json", "-")
    doc = json.loads(r.stdout)
    assert doc["config"]["trainer"] == "transformers" and doc["config"]["required"] == ["fa2"]


def test_trainer_transformers_reads_a_loop(tmp_path):
    p = write(tmp_path, "loop.py", LOOPS["accelerate"])
    cfg = configs.load(p, "transformers")
    assert cfg["trainer"] == "transformers" and cfg["dtype"] == "bfloat16"


# near misses the other way: a transformers / TRL trainer runs the model, or nothing trains it: transformers'
KEPT = {
    # SFTTrainer built: TRL's run, even with a backward pass of its own elsewhere (a probe before training)
    "sft_trainer": ("import torch\nfrom transformers import AutoModelForCausalLM\nfrom trl import SFTConfig, SFTTrainer\n"
                    "model = AutoModelForCausalLM.from_pretrained('org/m', attn_implementation='sdpa')\n"
                    "model(**probe).loss.backward()\n"
                    "SFTTrainer(model=model, args=SFTConfig(output_dir='o', bf16=True), train_dataset=ds).train()\n",
                    ("transformers", ["sdpa"], "bfloat16", "none")),
    # a Trainer subclass whose training_step calls backward itself
    "trainer_subclass": ("import torch\nfrom transformers import AutoModelForCausalLM, Trainer, TrainingArguments\n"
                         "class MyTrainer(Trainer):\n    def training_step(self, model, inputs, num_items_in_batch=None):\n"
                         "        loss = model(**inputs).loss\n        loss.backward()\n        return loss.detach()\n"
                         "model = AutoModelForCausalLM.from_pretrained('org/m', attn_implementation='flash_attention_2')\n"
                         "MyTrainer(model=model, args=TrainingArguments(output_dir='o', fp16=True)).train()\n",
                         ("transformers", ["fa2"], "float16", "none")),
    # the trainer class handed on through a variable
    "trainer_class_variable": ("import torch\nfrom transformers import AutoModelForCausalLM\n"
                               "from trl import DPOTrainer, DPOConfig, ORPOTrainer\n"
                               "cls = DPOTrainer if mode == 'dpo' else ORPOTrainer\n"
                               "model = AutoModelForCausalLM.from_pretrained('org/m', attn_implementation='sdpa')\n"
                               "trainer = cls(model=model, args=args)\nfor b in []:\n    model(**b).loss.backward()\n"
                               "trainer.train()\n",
                               ("transformers", ["sdpa"], "", "none")),
    # a gradient taken for attribution (saliency), no optimiser: no training
    "saliency": ("import torch\nfrom transformers import AutoModelForCausalLM\n"
                 "model = AutoModelForCausalLM.from_pretrained('org/m', attn_implementation='eager')\n"
                 "emb = model.get_input_embeddings()(ids).detach().requires_grad_(True)\n"
                 "model(inputs_embeds=emb).logits[0, -1].max().backward()\nprint(emb.grad.norm(dim=-1))\n",
                 ("transformers", [], "", "none")),
    # inference: generate, no backward, no optimiser (a scheduler's or an environment's step is none)
    "inference": ("import torch\nfrom transformers import AutoModelForCausalLM\n"
                  "model = AutoModelForCausalLM.from_pretrained('org/m', attn_implementation='flash_attention_2',\n"
                  "                                             torch_dtype=torch.bfloat16)\n"
                  "scheduler.step()\nenv.step(action)\nprint(model.generate(**inputs))\n",
                  ("transformers", ["fa2"], "bfloat16", "none")),
}


@pytest.mark.parametrize("name", sorted(KEPT))
def test_a_transformers_or_trl_trainer_or_no_training_stays_transformers(tmp_path, name):
    text, want = KEPT[name]
    assert read(tmp_path, "run.py", text) == want


def test_a_loop_over_a_frozen_model_or_a_diffusion_loop_is_not_said_to_be_a_transformers_loop(tmp_path):
    # a diffusion script's loop trains its UNet; its CLIP text encoder is no transformers model of the run
    sd = ("import torch\nfrom diffusers import UNet2DConditionModel\nfrom transformers import CLIPTextModel\n"
          "te = CLIPTextModel.from_pretrained('sd', subfolder='text_encoder')\n"
          "unet = UNet2DConditionModel.from_pretrained('sd', subfolder='unet')\n"
          "opt = torch.optim.AdamW(unet.parameters())\nfor b in []:\n    unet(b).sample.mean().backward()\n    opt.step()\n")
    assert LOOP not in refusal(tmp_path, "train_sd.py", sd)
    # no transformers model at all: a loop over a torch module of its own
    own = "import torch\nfrom transformers import AutoTokenizer\nnet = torch.nn.Linear(4, 4)\n" + PLAIN.replace(
        "model.parameters()", "net.parameters()").replace("model(**batch).loss", "net(batch).sum()")
    assert LOOP not in refusal(tmp_path, "own_net.py", own)


def test_a_notebook_loop_is_refused_as_one(tmp_path):
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
              "source": LOOPS["grad_scaler"].splitlines(keepends=True)}]
    nb = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    assert LOOP in refusal(tmp_path, "finetune.ipynb", nb)


@pytest.mark.parametrize("line", [
    "accelerate launch --config_file ./acc.yaml ./finetune_loop.py",
    "python finetune_loop.py --epochs 3",
    "torchrun --nproc_per_node 2 finetune_loop.py",
])
def test_a_launch_of_a_loop_beside_it_says_what_the_script_is(tmp_path, line):
    write(tmp_path, "finetune_loop.py", _loop('AutoModelForCausalLM.from_pretrained("org/m", '
                                              'attn_implementation="sdpa")', PLAIN))
    msg = refusal(tmp_path, "go.sh", f"#!/bin/bash\nexport RUN=x\n{line}\n")
    assert "runs finetune_loop.py, which is " + LOOP in msg and "--require sdpa" in msg
    assert "--config finetune_loop.py --trainer transformers" in msg


def test_a_launch_of_a_trainer_script_beside_it_is_still_read_through_it(tmp_path):
    write(tmp_path, "sft.py", KEPT["sft_trainer"][0])
    assert read(tmp_path, "go.sh", "#!/bin/bash\naccelerate launch sft.py\n")[:2] == ("transformers", ["sdpa"])


# mlx-lm's keys as its command line spells them (mlx_lm.lora --batch-size, --steps-per-report, --adapter-path)
@pytest.mark.parametrize("text", [
    "model: org/m\ndata: ./data\nbatch-size: 2\niters: 600\nsteps-per-report: 10\nadapter-path: ./adapters\n",
    "model: org/m\nfine-tune-type: lora\nnum-layers: 8\nsteps-per-eval: 50\nval-batches: -1\ngrad-checkpoint: true\n",
    "model: org/m\nfine_tune_type: dora\niters: 100\nadapter_path: out\n",  # (the underscore spelling, as before)
])
def test_mlx_lm_keys_in_either_spelling(tmp_path, text):
    assert "mlx-lm" in refusal(tmp_path, "lora.yaml", text)


def test_dashed_keys_of_no_mlx_name_are_not_mlx(tmp_path):
    text = "model: org/m\nbatch-size: 2\nlearning-rate: 0.0001\nmax-seq-length: 512\nseed: 42\n"
    assert "mlx" not in refusal(tmp_path, "train.yaml", text)


@pytest.mark.parametrize("run", ["python kohya_gui.py --listen 0.0.0.0 --server_port 7860", "python3 app.py",
                                 "python kohya_gui.py", "python3 /opt/OneTrainer/scripts/train_ui.py"])
def test_a_shell_script_that_starts_something_else_says_it_has_no_trainer_calls(tmp_path, run):
    text = f"#!/bin/bash\ncd /workspace\npip install -r requirements.txt\n{run}\n"
    msg = refusal(tmp_path, "start.sh", text)
    assert "no trainer calls" in msg and "not a trainer config" in msg
