"""Helper cfg42 (session 10, issue 24): the config readers' code made plainer for a reader new to it, behaviour
unchanged (cfgsnap before/after identical, benchmarks/configs_train.py unchanged).

1. A hand-over (configs._handed_over: a launch file whose only job is `bash sft.sh`) is one deep by a parameter of
   detect() (handed_over=True for the script handed over to), not by a module-level counter: two readings in one
   process (nested, or in two threads) do not see each other's hand-over.
2. `-m pkg.module` (configs._module_beside): the module's file is located once (references.locate), then read there
   (named_config(..., located=)), not located a second time.
3. A dict literal of settings a Python module defines (configs._settings_dict): the module's tree is walked once,
   not twice more for every dict literal.
4. A config set in its repositories' layout is built by one function (benchmarks/configs_repo_layout.py), which
   benchmarks/configs_heldout.py --layout repo and the round tests (configs_corpus.in_repository_layout) both use.
5. Near-duplicate code of the readers written once: a dataclass field's default (pyscript._field_default, for
   _dataclass_defaults and _script_dataclasses); a bash array's lines gathered and its words read by one function
   (shell._array_words, for `NAME=(` and `NAME+=(`).
"""

from __future__ import annotations

import ast
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from configs_corpus import reading

from attn_doctor import configs
from attn_doctor.configs import references
from attn_doctor.model import UsageError


def put(root: Path, files: dict) -> None:
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8", newline="")


def load(path: Path) -> tuple:
    return reading(configs.load(str(path)))


# --- 1. a hand-over is one deep per reading, not per process ----------------------------------------------------------

SFT_SH = '''accelerate launch trl/scripts/sft.py --model_name_or_path m --dataset_name d --output_dir o \\
  --per_device_train_batch_size 1 --learning_rate 2e-5 --num_train_epochs 1 --logging_steps 1 \\
  --attn_implementation flash_attention_2 --torch_dtype bfloat16 --bf16 true
'''
SDXL_SH = ("accelerate launch sdxl_train_network.py --network_module networks.lora --xformers --mixed_precision fp16 "
           "--pretrained_model_name_or_path m\n")


def two_launchers(tmp_path: Path) -> tuple[Path, Path]:
    """A Slurm job handing over to sft.sh beside it, and a wrapper handing over to scripts/train_sdxl.sh."""
    put(tmp_path / "a", {"sft.sh": SFT_SH,
                         "job.slurm": "#!/bin/bash\n#SBATCH --nodes=1\nsource .venv/bin/activate\nbash sft.sh\n"})
    put(tmp_path / "b", {"scripts/train_sdxl.sh": SDXL_SH,
                         "run_all.sh": '#!/bin/bash\nset -e\nbash scripts/train_sdxl.sh "$@"\n'})
    return tmp_path / "a" / "job.slurm", tmp_path / "b" / "run_all.sh"


ALONE_A = ("transformers", ["fa2"], "bfloat16", "none")
ALONE_B = ("sd-scripts", ["xformers"], "float16", "none")


def test_each_hand_over_read_alone(tmp_path):
    a, b = two_launchers(tmp_path)
    assert load(a) == ALONE_A
    assert load(b) == ALONE_B
    assert configs.load(str(a))["detected"]["evidence"][0] == "job.slurm runs sft.sh, which is here"


def test_a_reading_started_inside_another_reading_s_hand_over(tmp_path, monkeypatch):
    # the second reading starts while the first is reading the script it hands over to (as the Python API or a
    # caller's callback could): with a process-wide counter it saw "already one hand-over deep" and was refused
    a, b = two_launchers(tmp_path)
    inner = []
    detect = configs.detect

    def spying(path, text, *args, **kw):
        if str(path).endswith("sft.sh"):
            inner.append(load(b))
        return detect(path, text, *args, **kw)

    monkeypatch.setattr(configs, "detect", spying)
    assert load(a) == ALONE_A
    assert inner == [ALONE_B]


def test_two_threads_one_inside_its_hand_over(tmp_path, monkeypatch):
    # thread A waits inside its hand-over while thread B reads its own launcher from start to end
    a, b = two_launchers(tmp_path)
    inside, b_done = threading.Event(), threading.Event()
    detect = configs.detect

    def waiting(path, text, *args, **kw):
        if str(path).endswith("sft.sh") and not inside.is_set():
            inside.set()
            b_done.wait(timeout=60)
        return detect(path, text, *args, **kw)

    monkeypatch.setattr(configs, "detect", waiting)

    def read_b():
        inside.wait(timeout=60)
        try:
            return load(b)
        finally:
            b_done.set()

    with ThreadPoolExecutor(max_workers=2) as pool:
        fa, fb = pool.submit(load, a), pool.submit(read_b)
        assert fb.result(timeout=120) == ALONE_B
        assert fa.result(timeout=120) == ALONE_A


def test_many_concurrent_readings_match_one_at_a_time(tmp_path):
    a, b = two_launchers(tmp_path)
    paths = [a, b] * 6
    with ThreadPoolExecutor(max_workers=4) as pool:
        got = list(pool.map(load, paths))
    assert got == [ALONE_A, ALONE_B] * 6


def test_hand_over_stays_one_deep(tmp_path):
    # near miss: the script handed over to hands over again (job.slurm -> a.sh -> b.sh): refused, naming a.sh, as before
    put(tmp_path, {"b.sh": SFT_SH, "a.sh": "#!/bin/bash\nbash b.sh\n",
                   "job.slurm": "#!/bin/bash\n#SBATCH --nodes=1\nbash a.sh\n"})
    assert load(tmp_path / "a.sh") == ALONE_A  # (a.sh alone hands over to b.sh)
    with pytest.raises(UsageError, match=r"only runs another script \(a\.sh\)"):
        configs.load(str(tmp_path / "job.slurm"))


# --- 2. `-m pkg.module`: the module's file located once ---------------------------------------------------------------

TRAINER_SCRIPT = '''import torch
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

model = AutoModelForCausalLM.from_pretrained("gpt2", attn_implementation="sdpa", torch_dtype=torch.bfloat16)
args = TrainingArguments(output_dir="out", bf16=True, per_device_train_batch_size=2)
Trainer(model=model, args=args).train()
'''


def counting_locate(monkeypatch) -> list:
    calls = []
    locate = references.locate

    def counting(doc, path, suffix=""):
        calls.append(path)
        return locate(doc, path, suffix)

    monkeypatch.setattr(references, "locate", counting)
    return calls


@pytest.mark.parametrize("files, launcher, module_file", [
    # the package at the repository root, a Slurm job running it under torchrun
    ({"mypkg/train.py": TRAINER_SCRIPT,
      "job.sbatch": "#!/bin/bash\n#SBATCH --gres=gpu:4\nsrun torchrun --nproc_per_node 4 -m mypkg.train\n"},
     "job.sbatch", "mypkg/train.py"),
    # a src layout, from a launcher in scripts/
    ({"src/proj/training/sft.py": TRAINER_SCRIPT,
      "scripts/launch.sh": "#!/bin/bash\naccelerate launch --num_processes 2 -m proj.training.sft\n"},
     "scripts/launch.sh", "src/proj/training/sft.py"),
    # a package's __main__.py
    ({"tuner/run/__main__.py": TRAINER_SCRIPT,
      "go.sh": "#!/bin/bash\naccelerate launch --mixed_precision bf16 -m tuner.run\n"},
     "go.sh", "tuner/run/__main__.py"),
])
def test_module_file_located_once(tmp_path, monkeypatch, files, launcher, module_file):
    put(tmp_path, files)
    assert load(tmp_path / launcher) == ("transformers", ["sdpa"], "bfloat16", "none")
    calls = counting_locate(monkeypatch)
    assert load(tmp_path / launcher) == ("transformers", ["sdpa"], "bfloat16", "none")
    assert calls.count(module_file) == 1


def test_module_not_here_is_looked_for_once_each_place_and_stays_refused(tmp_path, monkeypatch):
    # near miss: an installed package's module: every candidate looked for once, none read, the launch refused naming it
    put(tmp_path, {"run.sh": "#!/bin/bash\naccelerate launch -m somepkg.train --epochs 3\n"})
    calls = counting_locate(monkeypatch)
    with pytest.raises(UsageError, match=r"somepkg\.train \(-m\)"):
        configs.load(str(tmp_path / "run.sh"))
    cands = ["somepkg/train.py", "src/somepkg/train.py", "somepkg/train/__main__.py", "src/somepkg/train/__main__.py"]
    seen = [c for c in calls if c in cands]  # (every reader that asks looks at the four places, in this order)
    assert seen and seen == cands * (len(seen) // len(cands))


# --- 3. a settings dict a module defines: the tree walked once --------------------------------------------------------

SDS = {"pretrained_model_name_or_path": "'/m/model.safetensors'", "network_module": "'networks.lora'",
       "network_dim": 32, "network_alpha": 16, "optimizer_type": "'AdamW8bit'", "caption_extension": "'.txt'",
       "enable_bucket": True, "mixed_precision": "'fp16'", "xformers": True, "save_model_as": "'safetensors'"}
MUSUBI = {"dit": "'/m/wan2.1_t2v_14B_bf16.safetensors'", "vae": "'/m/wan_2.1_vae.safetensors'", "task": "'t2v-14B'",
          "t5": "'/m/models_t5_umt5-xxl-enc-bf16.pth'", "dataset_config": "'/d/dataset.toml'",
          "network_module": "'networks.lora_wan'", "timestep_sampling": "'shift'", "discrete_flow_shift": 3.0,
          "mixed_precision": "'bf16'", "flash_attn": True}


def literal(name: str, settings: dict, indent: str = "") -> str:
    body = "".join(f"{indent}    '{k}': {v},\n" for k, v in settings.items())
    return f"{indent}{name} = {{\n{body}{indent}}}\n"


def settings_dict(path: Path, text: str, monkeypatch) -> tuple:
    """(what _settings_dict finds, how many times it walked the module's whole tree)."""
    from attn_doctor.configs.pyscript import tree

    path.write_text(text, encoding="utf-8")
    doc = configs.make_doc(str(path), text)
    whole = tree(doc.get("python") or "")
    walks = []
    walk, walked = ast.walk, configs.walked

    def counting(node, through=walk):
        if node is whole:
            walks.append(node)
        return through(node)

    # (a walk is ast.walk's or textutil.walked's, whose list is kept on the tree: a second walk costs little, and is
    # still counted)
    monkeypatch.setattr(ast, "walk", counting)
    monkeypatch.setattr(configs, "walked", lambda node: counting(node, walked))
    found = configs._settings_dict(doc)
    monkeypatch.setattr(ast, "walk", walk)
    monkeypatch.setattr(configs, "walked", walked)
    return (found[0], found[2]) if found else None, len(walks)


def test_module_level_dict_beside_one_the_module_uses(tmp_path, monkeypatch):
    text = "import json\n\n" + literal("TRAIN_ARGS", SDS) + "\n" + literal("DEFAULTS", MUSUBI) + \
        "\njson.dump(DEFAULTS, open('d.json', 'w'))\n"
    assert settings_dict(tmp_path / "settings.py", text, monkeypatch) == \
        (("sd-scripts", "defines TRAIN_ARGS (a dict it does not use itself)"), 1)
    assert load(tmp_path / "settings.py") == ("sd-scripts", ["xformers"], "float16", "none")


def test_class_attribute_dict_among_several(tmp_path, monkeypatch):
    text = ("import os\n\n\nclass Config:\n    SECRET_KEY = os.getenv('SECRET_KEY', 'x')\n" +
            literal("WAN_LORA", MUSUBI, "    ") + literal("OLD", SDS, "    ") + "\n\nprint(Config.OLD)\n")
    assert settings_dict(tmp_path / "config.py", text, monkeypatch) == \
        (("musubi", "defines WAN_LORA (a dict it does not use itself)"), 1)
    assert load(tmp_path / "config.py") == ("musubi", ["fa2"], "bfloat16", "none")


def test_two_unused_settings_dicts_are_none(tmp_path, monkeypatch):
    # near miss: two dicts, each a trainer's, neither used: which one the app takes is not in the file
    text = literal("A", SDS) + literal("B", MUSUBI)
    assert settings_dict(tmp_path / "two.py", text, monkeypatch) == (None, 1)


# --- 4. one repository layout for the benchmark and the round tests --------------------------------------------------

def layout_module():
    import importlib.util

    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location("configs_repo_layout", root / "benchmarks" / "configs_repo_layout.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def labelled(root: Path, flat: str, source: str, text: str = "x\n") -> Path:
    p = root / flat
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    p.with_name(p.name + ".expect.toml").write_text(f'source = "{source}"\ntrainer = "none"\n', encoding="utf-8")
    return p


@pytest.mark.parametrize("source, want", [
    ("alice/proj:scripts/train.sh", "alice/proj/scripts/train.sh"),
    ("alice/proj:train.sh", "alice/proj/train.sh"),
    ("alice/proj#12", None),            # an issue, not a file of the repository
    ("alice:train.sh", None),           # no owner/repo
    ("alice/proj:/abs/train.sh", None),  # absolute
    ("alice/proj:../up/train.sh", None),  # climbs out of the checkout
    ("alice/proj:", None),
])
def test_source_path(source, want):
    assert layout_module().source_path(source) == want


def test_layout_puts_each_file_at_its_source_and_keeps_the_odd_ones_flat(tmp_path):
    sets, into = tmp_path / "set", tmp_path / "tree"
    a = labelled(sets, "sd-scripts/alice__proj__scripts__train.sh", "alice/proj:scripts/train.sh", "a\n")
    b = labelled(sets, "sd-scripts/alice__proj__configs__x.toml", "alice/proj:configs/x.toml", "b\n")
    again = labelled(sets, "none/alice__proj__scripts__train.sh", "alice/proj:scripts/train.sh", "c\n")
    issue = labelled(sets, "none/bob__tool__12.txt", "bob/tool#12", "d\n")
    where = layout_module().repository_layout([a, b, again, issue], sets, into)
    assert {p: d.relative_to(into).as_posix() for p, d in where.items()} == {
        a: "alice/proj/scripts/train.sh", b: "alice/proj/configs/x.toml",
        again: "_flat/none/alice__proj__scripts__train.sh",  # a second file at a path: the first keeps it
        issue: "_threads/bob__tool__12/bob__tool__12.txt"}  # a thread's folder (cfg102), its name as the set has it
    assert [where[p].read_text() for p in (a, b, again, issue)] == ["a\n", "b\n", "c\n", "d\n"]
    assert not list(into.rglob("*.expect.toml"))  # a user's checkout has no labels


def test_benchmark_and_round_tests_share_the_layout(tmp_path):
    # near miss of a copy: the round tests' layout is the benchmark's, file for file
    import configs_corpus

    from configs_corpus import CONFIGS, files, rel

    round29 = files(CONFIGS / "round29m")
    mine = configs_corpus.in_repository_layout(round29, tmp_path / "tests")
    theirs = layout_module().repository_layout(round29, CONFIGS, tmp_path / "bench")
    assert {k: v.relative_to(tmp_path / "tests") for k, v in mine.items()} == \
        {rel(p): v.relative_to(tmp_path / "bench") for p, v in theirs.items()}
    text = (Path(__file__).resolve().parents[1] / "benchmarks" / "configs_heldout.py").read_text(encoding="utf-8")
    assert "from configs_repo_layout import repository_layout" in text and "def repo_layout" not in text


# --- 5a. a dataclass field's default, read by one function ------------------------------------------------------------

DATACLASS_SCRIPT = '''import torch
import dataclasses
import transformers
from dataclasses import dataclass, field
from transformers import Trainer, TrainingArguments

@dataclass
class ModelArguments:
    model_name_or_path: str = field(default="Qwen/Qwen2.5-0.5B")
    attn_implementation: str{spec}
    lora_r: int = 8

def train():
    parser = transformers.HfArgumentParser((ModelArguments, TrainingArguments))
    model_args, training_args = parser.parse_args_into_dataclasses()
    model = transformers.AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path,
        attn_implementation=model_args.attn_implementation, torch_dtype=torch.bfloat16)
    Trainer(model=model, args=training_args).train()

if __name__ == "__main__":
    train()
'''


@pytest.mark.parametrize("spec, default, want", [
    (' = "flash_attention_2"', "flash_attention_2", ["fa2"]),
    (' = field(default="sdpa")', "sdpa", ["sdpa"]),
    (' = dataclasses.field(metadata={"help": "kernel"}, default="sdpa")', "sdpa", ["sdpa"]),
    (' = field(default="eager", metadata={"help": "x"})', "eager", []),
    # near misses: no default the script gives (default_factory, none at all): the field stays unknown
    (' = field(default_factory=lambda: "sdpa")', None, []),
    ('', None, []),
])
def test_dataclass_field_defaults(tmp_path, spec, default, want):
    from attn_doctor.configs import pyscript

    src = DATACLASS_SCRIPT.format(spec=spec)
    t = pyscript.tree(src)
    plain = {k: ast.literal_eval(v) for k, v in pyscript._dataclass_defaults(t)}
    own = {k: ast.literal_eval(v) for k, v in pyscript._script_dataclasses(t)["ModelArguments"].items()}
    fields = {"model_name_or_path": "Qwen/Qwen2.5-0.5B", "lora_r": 8}
    if default is not None:
        fields["attn_implementation"] = default
    assert plain == own == fields
    put(tmp_path, {"train.py": src})
    assert load(tmp_path / "train.py") == ("transformers", want, "bfloat16", "none")


# --- 5b. a bash array's lines gathered by one function ----------------------------------------------------------------

@pytest.mark.parametrize("script, want", [
    # an array over several lines, a comment with a parenthesis in it, then a variable set after the array
    ('ARGS=(\n  --pretrained_model_name_or_path m.safetensors  # the base (SDXL)\n  --network_module networks.lora\n'
     '  --sdpa\n)\nMP=bf16\naccelerate launch sdxl_train_network.py "${ARGS[@]}" --mixed_precision $MP\n',
     ("sd-scripts", ["sdpa"], "bfloat16", "none")),
    # declare -a, then grown with += over two lines
    ('declare -a ARGS=(--pretrained_model_name_or_path m.safetensors --network_module networks.lora)\n'
     'ARGS+=(\n  --xformers --mixed_precision fp16\n)\naccelerate launch sdxl_train_network.py "${ARGS[@]}"\n',
     ("sd-scripts", ["xformers"], "float16", "none")),
    # the array's last line closes it after a word; the variables it names expanded
    ('ATTN=--sdpa\nlocal_args=(--network_module networks.lora\n  $ATTN --mixed_precision fp16)\n'
     'accelerate launch sdxl_train_network.py --pretrained_model_name_or_path m "${local_args[@]}"\n',
     ("sd-scripts", ["sdpa"], "float16", "none")),
])
def test_bash_arrays_over_lines(tmp_path, script, want):
    put(tmp_path, {"train.sh": "#!/bin/bash\n" + script})
    assert load(tmp_path / "train.sh") == want


def test_bash_array_never_closed(tmp_path):
    # near miss: an array whose `)` never comes takes the rest of the file: the launch inside it is words of the array,
    # not a command whose --xformers the run is given (the script it names is still seen)
    put(tmp_path, {"train.sh": "#!/bin/bash\nARGS=(\n  --sdpa\naccelerate launch sdxl_train_network.py --xformers\n"})
    assert load(tmp_path / "train.sh")[:2] == ("sd-scripts", [])
