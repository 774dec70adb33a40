"""Issue 24, helper cfg44 (session 10): the transformers / unclaimed boundary decided on the convention's evidence, not
on a call's shape (benchmarks/results/configs-boundary-s10.md).

The variants are synthetic (tests/data/configs_cfg44/, each file says so; EXPECT.toml gives each one's side): training,
inference, data and evaluation files on both sides of the boundary, changed only in what the convention says does not
matter (the trainer call in a function or method, renamed variables, argparse, a file split in two, a reference / reward
model, an accelerate loop, a Lightning module) — so every mechanism has near misses both ways:

- a Python file is transformers' when it loads a language model through transformers or configures transformers' / TRL's
  trainer (round 6a; real/TRAINERS.md "Round 6a"), whatever keywords its calls carry (hf_transformers._score,
  _transformers_calls): an inference or an evaluation script over such a model are transformers'; a hand-written loop
  was too until session 18, when cfg74 took the blind rounds' convention: a training loop of the user's own that no
  transformers / TRL trainer runs is refused, saying so (hf_transformers.own_loop; `--trainer transformers` reads it);
- a class of the script's own, or imported from its own package, named like transformers' / TRL's (`TrainingArguments`,
  `SFTConfig`, `TinyLlamaModel.from_pretrained`) is not that evidence (hf_transformers._foreign_names), unless it extends
  theirs (_script_subclasses);
- transformers' bare encoders (CLIPTextModel, CLIPTextModelWithProjection, T5EncoderModel ...) are not a language model
  of the run (hf_transformers._BARE_ENCODER), and in a diffusion script or a script another framework's loop runs
  (Lightning ...) only a transformers / TRL trainer configured counts (models=False);
- an autocast with no transformers model loaded is no evidence at all;
- a model class held in a variable through a conditional expression is the class of each branch
  (hf_transformers._class_held).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from attn_doctor import configs
from attn_doctor.model import UsageError

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

DATA = Path(__file__).parent / "data" / "configs_cfg44"
EXPECT = tomllib.loads((DATA / "EXPECT.toml").read_text())
FILES = {p.stem: p for p in DATA.iterdir() if p.name != "EXPECT.toml"}
CLAIMED = sorted(k for k, e in EXPECT.items() if e["side"] != "refused")
REFUSED = sorted(k for k, e in EXPECT.items() if e["side"] == "refused")


def test_every_variant_has_an_expectation():
    assert set(FILES) == set(EXPECT)
    assert len(CLAIMED) >= 20 and len(REFUSED) >= 20  # near misses both ways


OWN_LOOPS = ["t09_own_loop_optim", "t10_accelerate_loop", "t18_own_loop_task_head", "t19_own_loop_in_class",
             "t26_own_loop_notebook"]


@pytest.mark.parametrize("stem", OWN_LOOPS)
def test_an_own_loop_is_refused_as_one_and_read_under_trainer(stem):
    """cfg74: refused in one line saying what it is; `--trainer transformers` reads the attention it loads."""
    with pytest.raises(UsageError, match="a training loop of the user's own over a transformers model"):
        configs.load(str(FILES[stem]))
    cfg = configs.load(str(FILES[stem]), "transformers")
    assert sorted(cfg["required"]) == sorted(EXPECT[stem]["required"])


@pytest.mark.parametrize("stem", CLAIMED)
def test_transformers_side(stem):
    cfg = configs.load(str(FILES[stem]))
    assert cfg["detected"]["trainer"] == EXPECT[stem]["side"]
    assert sorted(cfg["required"]) == sorted(EXPECT[stem]["required"])


@pytest.mark.parametrize("stem", REFUSED)
def test_refused_side(stem):
    with pytest.raises(UsageError):
        configs.load(str(FILES[stem]))


@pytest.mark.parametrize("stem, words", [
    ("u12_lightning_attn", "PyTorch Lightning"),
    ("u19_pl_wrapper", "PyTorch Lightning"),
    ("u07_own_training_args", "no trainer calls"),
    ("u10_own_model_from_pretrained", "no trainer calls"),
    ("u17_timm_loop", "no trainer calls"),
    ("u05_sd_encoders_module", "no trainer calls"),
])
def test_refusal_says_why(stem, words):
    with pytest.raises(UsageError, match=words):
        configs.load(str(FILES[stem]))


def _doc(text: str) -> dict:
    return configs.make_doc("x.py", text)


def test_keyword_does_not_decide_the_side():
    """The same diffusion script is refused whether its text encoder is loaded with torch_dtype= or cast after (u01 /
    u18), and the same Lightning module with or without attn_implementation= (u11 / u12)."""
    from attn_doctor.configs import hf_transformers

    for a, b in (("u01_sd_loop", "u18_sd_encoder_after_load"), ("u12_lightning_attn", "u11_lightning_bare")):
        sa = hf_transformers.score(_doc(FILES[a].read_text()))
        sb = hf_transformers.score(_doc(FILES[b].read_text()))
        assert not sa and not sb


def test_own_class_named_like_transformers():
    from attn_doctor.configs import hf_transformers

    own = "from transformers import AutoTokenizer\nfrom mypkg import TrainingArguments\nTrainingArguments(bf16=True)\n"
    theirs = "from transformers import AutoTokenizer, TrainingArguments\nTrainingArguments(bf16=True)\n"
    defined = ("from transformers import AutoTokenizer\nclass LlamaModel:\n    @classmethod\n"
               "    def from_pretrained(cls, p, dtype=None): ...\nLlamaModel.from_pretrained('x', dtype='bfloat16')\n")
    hf_model = "from transformers import LlamaModel\nLlamaModel.from_pretrained('x', torch_dtype='bfloat16')\n"
    assert not hf_transformers.score(_doc(own))
    assert hf_transformers.score(_doc(theirs))
    assert not hf_transformers.score(_doc(defined))
    assert hf_transformers.score(_doc(hf_model))


def test_bare_encoders_are_not_a_language_model():
    from attn_doctor.configs import hf_transformers

    for cls in ("CLIPTextModel", "CLIPTextModelWithProjection", "T5EncoderModel", "UMT5EncoderModel",
                "CLIPVisionModelWithProjection", "SiglipVisionModel"):
        src = f"import torch\nfrom transformers import {cls}\n{cls}.from_pretrained('x', torch_dtype=torch.float16)\n"
        assert not hf_transformers.score(_doc(src)), cls
    # near miss: a task head of the same family is a model a script trains or runs
    src = "import torch\nfrom transformers import T5ForConditionalGeneration\n" \
          "T5ForConditionalGeneration.from_pretrained('t5-small', torch_dtype=torch.float16)\n"
    assert hf_transformers.score(_doc(src))


def test_model_class_held_through_a_conditional():
    from attn_doctor.configs import hf_transformers

    src = ("from transformers import LlamaForCausalLM, MistralForCausalLM\nimport sys\n"
           "cls = LlamaForCausalLM if sys.argv[1] == 'l' else MistralForCausalLM\n"
           "cls.from_pretrained('x', attn_implementation='sdpa')\n")
    assert hf_transformers.score(_doc(src))
    # near miss: one branch is not a transformers model class
    src2 = src.replace("else MistralForCausalLM", "else MyNet").replace(", MistralForCausalLM", "")
    assert not hf_transformers.score(_doc(src2))


def test_task_heads_from_libraries_built_on_transformers():
    """modelscope's AutoModelForCausalLM, peft's AutoPeftModelForCausalLM, a PreTrainedModel subclass of the script's
    own: loaded through transformers' from_pretrained; a class of the script's own with its own from_pretrained is not."""
    from attn_doctor.configs import hf_transformers

    for imp, call in (("from modelscope import AutoModelForCausalLM", "AutoModelForCausalLM"),
                      ("from peft import AutoPeftModelForCausalLM", "AutoPeftModelForCausalLM")):
        src = f"import transformers\n{imp}\n{call}.from_pretrained('x', attn_implementation='sdpa')\n"
        assert hf_transformers.score(_doc(src)), imp
    sub = ("from transformers import LlamaPreTrainedModel\nclass MyLM(LlamaPreTrainedModel):\n    pass\n"
           "MyLM.from_pretrained('x', torch_dtype='bfloat16')\n")
    assert hf_transformers.score(_doc(sub))
    own = ("from transformers import LlamaPreTrainedModel\nclass MyLMForCausalLM(LlamaPreTrainedModel):\n"
           "    @classmethod\n    def from_pretrained(cls, p, torch_dtype=None): ...\n"
           "MyLMForCausalLM.from_pretrained('x', torch_dtype='bfloat16')\n")
    assert not hf_transformers.score(_doc(own))
