"""Issue 24, helper cfg90 (session 21): a script's trainer calls reached through its own package's re-exports. cfg88
kept tall-e/finetuning (fixtures/configs/real/hydra/tall-e__finetuning/): scripts/train_hydra.py calls run_training
imported from the package src.trainers, whose __init__.py only re-exports it (`from .sft import run_training`); main
read the script's own modules one import deep and never a package's __init__.py, so the file was refused as a script
with no trainer calls. configs.own_definition follows the name as Python binds it (relative and absolute re-exports,
`as` renames, `import *` with or without `__all__`, the last binding winning) to the module of the checkout that
defines it. Every file here is written by cfg90 for these tests; each reading below was "refused" on main."""

from __future__ import annotations

import pytest

from attn_doctor.configs import own_definition
from configs_corpus import put, trainer_reading

TRAINER = '''import torch
from transformers import AutoModelForCausalLM
from trl import SFTConfig, SFTTrainer


def {name}(model_name="Qwen/Qwen2.5-0.5B"):
    model = AutoModelForCausalLM.from_pretrained(model_name, torch_dtype=torch.bfloat16,
                                                 attn_implementation="{attn}")
    args = SFTConfig(output_dir="out", bf16=True)
    SFTTrainer(model=model, args=args, train_dataset=None).train()
'''

SCRIPT = '''"""Entry point: the training itself lives in the package."""
from {module} import {names}


if __name__ == "__main__":
    {call}()
'''

FA2 = ("transformers", ["fa2"], "bfloat16")


def _script(root, module="mypkg", names="train", call="train"):
    return put(root, "scripts/train.py", SCRIPT.format(module=module, names=names, call=call))


def _trainer(root, rel, name="train", attn="flash_attention_2", head=""):
    return put(root, rel, head + TRAINER.format(name=name, attn=attn))


@pytest.mark.parametrize("init", [
    "from .trainer import train\n",  # relative (tall-e's form)
    "from mypkg.trainer import train\n",  # absolute, from the repository root
    "from .trainer import fit as train\n",  # renamed on the way
    "from .trainer import *\n",  # every public name
    "from .trainer import *\n\n__all__ = ['train']\n",  # (the __init__'s own __all__ is for its own `import *`)
    '"""The package."""\ntry:\n    from .trainer import train\nexcept ImportError:  # an optional extra\n    pass\n',
])
def test_a_package_re_export_leads_to_the_module_that_trains(tmp_path, init):
    put(tmp_path, "mypkg/__init__.py", init)
    _trainer(tmp_path, "mypkg/trainer.py", name="fit" if "fit as" in init else "train")
    assert trainer_reading(_script(tmp_path)) == FA2


def test_import_star_takes_the_names_the_module_exports_in_its_all(tmp_path):
    put(tmp_path, "mypkg/__init__.py", "from .trainer import *\n")
    _trainer(tmp_path, "mypkg/trainer.py", head="__all__ = ['train']\n\n")
    assert trainer_reading(_script(tmp_path)) == FA2


def test_two_packages_deep_and_renamed_by_the_script(tmp_path):
    put(tmp_path, "mypkg/__init__.py", "from .training import train\n")
    put(tmp_path, "mypkg/training/__init__.py", "from .sft import *\n")
    _trainer(tmp_path, "mypkg/training/sft.py")
    assert trainer_reading(_script(tmp_path, names="train as go", call="go")) == FA2


def test_a_plain_module_that_re_exports(tmp_path):
    """(not a package: helpers.py re-exports from another module beside it; main read helpers.py alone)"""
    put(tmp_path, "scripts/helpers.py", "from sft_impl import train  # re-exported for the entry scripts\n")
    _trainer(tmp_path, "scripts/sft_impl.py")
    assert trainer_reading(_script(tmp_path, module="helpers")) == FA2


def test_the_last_binding_of_the_name_is_the_one_called(tmp_path):
    put(tmp_path, "mypkg/__init__.py", "from .old import train\nfrom .new import train  # noqa: F811\n")
    _trainer(tmp_path, "mypkg/old.py", attn="eager")
    _trainer(tmp_path, "mypkg/new.py")
    assert trainer_reading(_script(tmp_path)) == FA2
    put(tmp_path, "mypkg/__init__.py", "from .new import train\nfrom .old import train  # noqa: F811\n")
    assert trainer_reading(_script(tmp_path)) == ("transformers", [], "bfloat16")


@pytest.mark.parametrize("init", [
    # near miss: the name the script calls is an installed library's, re-exported; the package's trainer module
    # beside it is imported for another name and never called
    "from .trainer import build_dataset\nfrom accelerate import notebook_launcher as train\n",
    "from .missing import train\n",  # the module it comes from is not here
    "from . import trainer\n",  # a submodule, not the function
])
def test_a_name_the_checkout_does_not_define_stays_refused(tmp_path, init):
    put(tmp_path, "mypkg/__init__.py", init)
    _trainer(tmp_path, "mypkg/trainer.py", head="def build_dataset():\n    return None\n\n\n")
    assert trainer_reading(_script(tmp_path)) == "refused"


def test_import_star_binds_no_name_the_module_leaves_out_of_its_all(tmp_path):
    """(then `from mypkg import train` is an ImportError at run time)"""
    put(tmp_path, "mypkg/__init__.py", "from .trainer import *\n")
    _trainer(tmp_path, "mypkg/trainer.py", head="__all__ = ['build_dataset']\n\n")
    assert trainer_reading(_script(tmp_path)) == "refused"


def test_a_private_name_is_not_what_import_star_binds(tmp_path):
    put(tmp_path, "mypkg/__init__.py", "from .trainer import *\n")
    _trainer(tmp_path, "mypkg/trainer.py", name="_train")
    assert trainer_reading(_script(tmp_path, names="_train", call="_train")) == "refused"


def test_a_cycle_or_a_chain_past_the_bound_ends(tmp_path):
    doc = {"path": str(put(tmp_path, "scripts/train.py", "")), "text": ""}
    put(tmp_path, "mypkg/__init__.py", "from .a import train\n")
    put(tmp_path, "mypkg/a.py", "from .b import train\n")
    put(tmp_path, "mypkg/b.py", "from .a import train\n")
    assert own_definition(doc, "mypkg", 0, "train") is None
    for i in range(6):
        put(tmp_path, f"deep/m{i}.py", f"from .m{i + 1} import train\n")
    _trainer(tmp_path, "deep/m6.py")
    put(tmp_path, "deep/__init__.py", "")
    assert own_definition(doc, "deep.m3", 0, "train")[0].endswith("m6.py")  # three re-exports
    assert own_definition(doc, "deep.m0", 0, "train") is None  # six: past _REEXPORT_HOPS


SETTINGS = '''from dataclasses import dataclass

from trl import SFTConfig


@dataclass
class TrainConfig:
    model_name: str = "Qwen/Qwen2.5-0.5B"
    attn_implementation: str = "flash_attention_2"


def build_args():
    return SFTConfig(output_dir="out", bf16=True)
'''

USES_SETTINGS = '''from transformers import AutoModelForCausalLM
from trl import SFTTrainer

from {module} import TrainConfig, build_args

cfg = TrainConfig()
model = AutoModelForCausalLM.from_pretrained(cfg.model_name, attn_implementation=cfg.attn_implementation)
SFTTrainer(model=model, args=build_args(), train_dataset=None).train()
'''


@pytest.mark.parametrize("init", ["from .settings import TrainConfig, build_args\n", "from .settings import *\n"])
def test_a_settings_class_and_an_arguments_helper_re_exported_by_the_package(tmp_path, init):
    """the same chain for the classes and functions the script's reader takes settings from (user_modules
    imported_classes / imported_functions): main read the trainer with neither the attention nor the dtype"""
    put(tmp_path, "mypkg/__init__.py", init)
    put(tmp_path, "mypkg/settings.py", SETTINGS)
    script = put(tmp_path, "scripts/train.py", USES_SETTINGS.format(module="mypkg"))
    assert trainer_reading(script) == FA2
    put(tmp_path, "mypkg/__init__.py", "from trl import SFTConfig as build_args\n")  # an installed library's
    assert trainer_reading(script) == ("transformers", [], None)
