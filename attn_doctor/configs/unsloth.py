"""Unsloth: a training script (.py) or notebook (.ipynb) that loads its model with FastLanguageModel /
FastModel / FastVisionModel. The script is read statically (Python's ast: the calls and the constants they are
given); it is never imported or run.

Read from unslothai/unsloth 015bdef (2026-08-22):
- unsloth/utils/attention_dispatch.py:231-241 select_attention_backend: FastLanguageModel's models run
  FlashAttention 2 when flash-attn imports (HAS_FLASH_ATTENTION, unsloth/models/_utils.py:2136-2200: CUDA
  compute capability 8.0+ and a working flash_attn), else xformers when it is installed, else PyTorch SDPA --
  the installed packages choose, the script does not; unsloth/models/llama.py:2651 drops any
  attn_implementation passed to FastLanguageModel.from_pretrained ("No need since we auto call it");
- unsloth/models/vision.py:1130-1144 (FastModel / FastVisionModel): resolve_attention_implementation
  (_utils.py:834) honours a requested attn_implementation where the model supports it, else picks flex /
  flash_attention_2 / sdpa / eager by itself;
- loader.py:410-414 from_pretrained(dtype=None): None is "auto" (bfloat16 where the GPU has it, float16
  otherwise -- the GPU decides); an explicit torch.bfloat16 / torch.float16 is used as given;
- the trainer's TrainingArguments / SFTConfig `bf16=` / `fp16=` (is_bfloat16_supported() again leaves it to the
  GPU) and `torch_compile`; Unsloth builds its own block-diagonal masks for packed batches
  (unsloth/utils/packing.py), so `packing=True` keeps samples apart.
"""

from __future__ import annotations

import ast
import os
import re

from . import NOTHING, STRONG, Score, as_int
from .hf_transformers import TRL_CONFIGS, _switch_default, entry, unsloth_script, unsloth_unimported
from .pyscript import PINNED_BF16, assigned_before, calls, constants, held_at, tree, value
from ..textutil import walked

TITLE = "Unsloth"
LOADERS = {"FastLanguageModel", "FastModel", "FastVisionModel", "FastLlamaModel", "FastMistralModel",
           "FastQwen2Model", "FastGemmaModel", "FastGemma2Model", "FastCohereModel", "FastFalconH1Model",
           "FastTextModel"}
HONOURS_ATTN = {"FastModel", "FastVisionModel", "FastTextModel"}  # vision.py: attn_implementation is used
DELEGATES = ("load_in_8bit", "full_finetuning", "qat_scheme")  # FastLanguageModel -> FastModel (loader.py:487)
# the trainer's arguments: transformers' and every TRL config (hf_transformers.TRL_CONFIGS: a notebook's CPOConfig or
# RLOOConfig takes bf16 / fp16 / torch_compile as SFTConfig does; cfg83), and Unsloth's UnslothTrainingArguments
TRAINING_ARGS = {"TrainingArguments", "UnslothTrainingArguments", "Seq2SeqTrainingArguments"} | TRL_CONFIGS
DTYPES = {"bfloat16": "bfloat16", "bf16": "bfloat16", "float16": "float16", "half": "float16", "fp16": "float16",
          "float32": "float32", "float": "float32"}
_IMPORT = re.compile(r"^\s*(from\s+unsloth(\.\w+)*\s+import|import\s+unsloth)\b", re.MULTILINE)


def _source(doc: dict) -> str:
    return doc.get("python") or ""


# Unsloth's container image (docker.io unsloth/unsloth, its documented way to run Unsloth) or an apptainer / singularity
# image built from it under Unsloth's name (unsloth_latest.sif): a Python script run there is an Unsloth run
_IMAGE = re.compile(r"(^|[/\\])unsloth([/_.:-]|$)", re.IGNORECASE)


def _in_image(doc: dict):
    """The training command of a launch script when it runs a Python script in Unsloth's image (round 9m: a SLURM job's
    `apptainer exec --nv ... $WORKDIR/unsloth_latest.sif python .../finetune_8b.py`), else None."""
    cmd = doc.get("command")
    if doc["fmt"] != "text" or cmd is None or not cmd.image or not (cmd.script or "").endswith(".py"):
        return None
    return cmd if _IMAGE.search(cmd.image) else None


# unsloth-cli.py, the training script at the root of Unsloth's repository (unslothai/unsloth@015bdef unsloth-cli.py):
# its argparse options (:300-560) and what it does with them: FastLanguageModel.from_pretrained(dtype=--dtype, default
# None → auto, load_in_4bit) (:198-203), SFTConfig(fp16 = not is_bfloat16_supported(), bf16 = is_bfloat16_supported())
# (:150-175, 280): the GPU decides the precision, no torch_compile
CLI_SCRIPT = "unsloth-cli.py"
CLI_OPTIONS = frozenset("""model_name max_seq_length dtype load_in_4bit dataset r lora_alpha lora_dropout bias
use_gradient_checkpointing random_state use_rslora loftq_config use_dora per_device_train_batch_size
per_device_eval_batch_size gradient_accumulation_steps warmup_steps max_steps learning_rate optim weight_decay
lr_scheduler_type seed packing report_to logging_steps output_dir save_model save_method save_gguf save_path quantization
push_model push_gguf hub_path hub_token raw_text_file chunk_size stride""".split())


def _cli(doc: dict):
    """The command of a launch file that runs Unsloth's own unsloth-cli.py with its options (or none), else None."""
    from .shell import option_names

    if doc["fmt"] != "text" and not doc.get("commands"):
        return None  # (a notebook's `!python unsloth-cli.py ...` lines, a wrapper's subprocess.run([...]) are commands)
    for cmd in [doc.get("command")] + list(doc.get("commands") or []):
        if cmd is None or cmd.module or os.path.basename(cmd.script or "").lower() != CLI_SCRIPT:
            continue
        # argparse stops on an option it does not define
        return cmd if set(option_names(cmd.args)) <= CLI_OPTIONS else None
    return None


def score(doc: dict) -> Score:
    run = _in_image(doc)
    if run is not None:
        return Score().add(f"{run.script} in Unsloth's image ({run.image.rsplit('/', 1)[-1]})", 2 * STRONG)
    if _cli(doc) is not None:
        return Score().add(f"{CLI_SCRIPT} (Unsloth's own training script)", 2 * STRONG)
    if doc["fmt"] != "python":
        return NOTHING
    src = _source(doc)
    called = unsloth_unimported(src)
    if called:
        # (the import is in the project's own module the script takes the loader or a wrapper of it from)
        return Score().add(f"{called} (Unsloth's loader, imported by the project's own module)", 2 * STRONG)
    if not _IMPORT.search(src) or not unsloth_script(src):
        return NOTHING  # (a script that takes a helper from Unsloth and loads its model with transformers: theirs)
    sc = Score().add("import unsloth", 2 * STRONG)
    for name in sorted(LOADERS):
        if f"{name}.from_pretrained" in src:
            sc.add(f"{name}.from_pretrained")
            break
    return sc


def _dtype(v) -> str | None:
    if v in (None, "?"):
        return None
    s = str(v).replace("torch.", "").strip().lower()
    return DTYPES.get(s)


def read(doc: dict) -> dict:
    cli = _cli(doc)
    if cli is not None:
        from .shell import parse_options

        opts = parse_options(cli.args).values
        return {
            "trainer": "unsloth", "trainer_title": f"{TITLE} {CLI_SCRIPT}", "format": "cmdline", "family": None,
            "mixed_precision": None, "dtype": None, "attention": [],  # the GPU's bf16 / fp16 (is_bfloat16_supported)
            "compile": {"enabled": False, "mode": None, "setting": "torch_compile"},
            "batch_size": as_int(opts.get("per_device_train_batch_size", 2)), "packing": [],
            "fixes": {"use_default": "# Unsloth picks FlashAttention 2, xformers or SDPA from what is installed"},
        }
    run = _in_image(doc)
    if run is not None:  # the script's own settings are in that script, not here
        from . import unknown_settings

        return unknown_settings("unsloth", f"{TITLE} ({run.script})", "torch_compile",
                                {"use_default": "# Unsloth picks FlashAttention 2, xformers or SDPA from what is installed"})
    src = _source(doc)
    t = tree(src)
    entries = []
    dtype = None
    gpu: dict = {}  # the dtype / bf16 / fp16 the script leaves to the GPU (_open), None where something else leaves it open
    opened: dict = {}  # of those, where the probe takes part but something not known here decides too
    compile_on = None
    mode = None
    batch = None
    loader = None
    loader_dtype = None  # the loader's dtype keyword as written, where it fixes the dtype here
    amp_written = False  # the trainer's bf16=True or fp16=True written (or set after building its arguments)
    if t is not None:
        # argv / environ: the launcher's options to the script's own argparse and its exports (configs.detect)
        from . import script_files, script_hydra, script_modules

        # read: the settings file the script loads itself (`cfg = load_config(Path(args.config))`) where its run finds it;
        # modules: the settings module of its own repository it imports (`import config` then `bf16=config.BF16`)
        consts = constants(t, doc.get("argv"), doc.get("environ"), script_files(doc), modules=script_modules(doc),
                           hydra=script_hydra(doc))
        from .pyscript.nodes import AT_LAUNCH
        from .references import note_at_launch

        note_at_launch(doc, consts.get(AT_LAUNCH))
        loads = _trained_loads(t, consts)
        if loads:
            loader, kw, at = loads[-1]  # the last model loaded is the one trained (a teacher loads first)
            if "dtype" in kw or "torch_dtype" in kw:
                node = kw.get("dtype", kw.get("torch_dtype"))
                # `dtype = dtype` of a name the notebook sets again further on (a later cell's reload): the value it
                # holds where the model is loaded
                held = assigned_before(t, node.id, at) if isinstance(node, ast.Name) else None
                dtype = _dtype(value(held if held is not None else node, consts))
                loader_dtype = ast.unparse(node) if dtype is not None else None
                _open(gpu, "dtype", held if held is not None else node, consts, opened)
            impl = value(kw["attn_implementation"], consts) if "attn_implementation" in kw else None
            # unsloth/models/loader.py:487-522 (unslothai/unsloth@015bdef): FastLanguageModel with load_in_8bit,
            # full_finetuning or a qat_scheme hands its **kwargs, attn_implementation included, to FastModel
            delegated = loader == "FastLanguageModel" and any(
                value(kw[k], consts) not in (None, False, "?") for k in DELEGATES if k in kw)
            if isinstance(impl, str) and impl != "?" and (loader in HONOURS_ATTN or delegated):
                e = entry(impl, f'{loader}.from_pretrained(attn_implementation="{impl}")')
                if not e["known"]:
                    e["fix"] = f'attn_implementation="{e["suggestion"] or "sdpa"}"'
                entries.append(e)
        entries += _plain_phases(t, consts, entries)
        loaded = dtype  # (the weights' dtype the loader was given: the flags below do not override it)
        for _name, kw in calls(t, TRAINING_ARGS, consts):
            # (the names bf16 / fp16 read, as they are where the trainer's arguments are built: a notebook may rebind
            # them in a later cell)
            at = {k: held_at(t, kw[k], consts) for k in ("bf16", "fp16") if k in kw}
            bf16 = value(kw["bf16"], at["bf16"]) if "bf16" in kw else None
            fp16 = value(kw["fp16"], at["fp16"]) if "fp16" in kw else None
            looked_up = {k: _switch_default(kw[k], k, consts) for k, v in (("bf16", bf16), ("fp16", fp16)) if v == "?"}
            if looked_up and all(d is not None for d in looked_up.values()) and any(looked_up.values()):
                # `fp16=train_cfg.get("fp16", False), bf16=train_cfg.get("bf16", True)` of a settings file that is not
                # here: the defaults are the precision the script is written for, as the transformers reader takes
                # them (cfg63; cfg67: round 64m's neuraforce scripts/train.py, whose --config is required)
                bf16, fp16 = looked_up.get("bf16", bf16), looked_up.get("fp16", fp16)
            for k in looked_up if "?" in (bf16, fp16) else ():
                _open(gpu, k, kw[k], at[k], opened)
            amp_written = amp_written or bf16 is True or fp16 is True
            if dtype is None and bf16 is True:
                dtype = "bfloat16"
            elif dtype is None and fp16 is True:
                dtype = "float16"
            if "torch_compile" in kw:
                tc = value(kw["torch_compile"], consts)
                compile_on = tc if isinstance(tc, bool) else compile_on
            elif compile_on is None:
                compile_on = False
            if "torch_compile_mode" in kw or "torch_compile_backend" in kw:
                # HF TrainingArguments (huggingface/transformers@00349ae training_args.py): a mode or a backend
                # "automatically enables torch_compile"
                m = value(kw["torch_compile_mode"], consts) if "torch_compile_mode" in kw else None
                b = value(kw["torch_compile_backend"], consts) if "torch_compile_backend" in kw else None
                if m not in (None, "?") or b not in (None, "?"):
                    compile_on = True
                    mode = m if isinstance(m, str) and m != "?" else mode
            if "per_device_train_batch_size" in kw:
                b = value(kw["per_device_train_batch_size"], consts)
                batch = as_int(b) if b != "?" else batch
        later = _set_after(t, consts)
        gpu.update(later.pop("by_gpu", {}))
        amp_written = amp_written or later.get("bf16") is True or later.get("fp16") is True
        if loaded is None and later.get("bf16") is True:
            dtype = "bfloat16"
        elif loaded is None and later.get("fp16") is True:
            dtype = "float16"
        elif loaded is None and "?" in (later.get("bf16"), later.get("fp16")):
            dtype = None  # (`args.bf16 = is_bfloat16_supported()`: the GPU decides)
        elif loaded is None and later.get("bf16") is False and later.get("fp16") is not True and dtype == "bfloat16" \
                or loaded is None and later.get("fp16") is False and later.get("bf16") is not True and dtype == "float16":
            dtype = None  # (the flag the keywords turned on, turned off again: the loader's dtype=None decides)
        if later.get("torch_compile") is not None:
            compile_on = later["torch_compile"]
            mode = later.get("torch_compile_mode") or mode
    fmt = "notebook" if doc["name"].endswith(".ipynb") else "python"
    by_gpu = None
    if t is not None and dtype is None and (loader or gpu) and None not in gpu.values():
        # Unsloth's loaders take dtype=None as bfloat16 where is_bfloat16_supported() (compute capability >= 8.0), else
        # float16 (unslothai/unsloth@015bdef unsloth/models/llama.py:2434-2435, vision.py:1068), and the trainer's bf16 /
        # fp16 the script leaves to the same probe agree: the GPU decides between those two. A script whose loader is
        # not read here (a module of its own loads the model, or the notebook's load is a function handed on) but whose
        # trainer's bf16 / fp16 the probe decides runs the same two: its weights are float16 on a GPU below 8.0 whether
        # the load asked bfloat16 or nothing (llama.py:2434-2438)
        from .hf_transformers import by_gpu_reading

        gpu = gpu or {"dtype": {"probes": ["is_bfloat16_supported()"], "written": "None"}}
        by_gpu = by_gpu_reading("bfloat16", "float16", gpu, unsloth=True)
    elif t is not None and loaded == "bfloat16" and loader_dtype is not None and not amp_written and \
            consts.get(PINNED_BF16) is None and None not in gpu.values():
        # an explicit bfloat16 asked of the loader: Unsloth turns it into float16 on a GPU without bfloat16 ("Device
        # does not support bfloat16. Will change to float16.", unslothai/unsloth@015bdef unsloth/models/llama.py:
        # 2436-2438, vision.py:1073-1075), and its trainer then autocasts float16 there (rl.py:2414-2418: neither bf16 nor
        # fp16 set, a float16 model). With bf16=True written as well the run stops there instead (rl.py:2395, "Model is
        # in float16 precision but you want to use bfloat16 precision"; fp16=True stops it on the other GPUs, :2396):
        # not a dtype, so nothing is noted; nor where the file pins its GPU (a Modal function's gpu="H100":
        # pyscript.pinned_bf16), which then decides
        from .hf_transformers import by_gpu_reading

        by_gpu = by_gpu_reading("bfloat16", "float16", {**gpu, "dtype": {"probes": ["is_bfloat16_supported()"],
                                                                        "written": loader_dtype}}, unsloth=True)
    dtype_open = None
    if t is not None and dtype is None and by_gpu is None:
        from .hf_transformers import open_reading

        dtype_open = open_reading(opened)
    return {
        "trainer": "unsloth", "trainer_title": TITLE + (f" {loader}" if loader else ""), "format": fmt,
        "family": None, "mixed_precision": None, "dtype": dtype, "attention": entries,
        **({"dtype_by_gpu": by_gpu} if by_gpu else {}),
        **({"dtype_open": dtype_open} if dtype_open else {}),
        "compile": {"enabled": compile_on, "mode": (mode or "default") if compile_on else None, "setting": "torch_compile"},
        "batch_size": batch, "packing": [],
        "fixes": {"use_default": "# Unsloth picks FlashAttention 2, xformers or SDPA from what is installed"},
    }


_AFTER_KEYS = ("bf16", "fp16", "torch_compile", "torch_compile_mode", "torch_compile_backend")


def _open(gpu: dict, key: str, node, consts: dict, opened: dict | None = None) -> None:
    """Note a dtype / bf16 / fp16 the script computes: what the GPU's bf16 probe makes it (pyscript.gpu_decides), or
    None where something else leaves it open (and in `opened`, where the probe takes part: pyscript.gpu_open). A value
    known here is not noted."""
    from .pyscript import gpu_decides, gpu_open

    if value(node, consts) == "?":
        gpu[key] = gpu_decides(node, consts)
        if gpu[key] is None and opened is not None:
            opened[key] = gpu_open(node, consts)


def _set_after(t, consts: dict) -> dict:
    """What the script changes on its trainer's arguments or its model after building them, before its last
    `trainer.train()` (cfg83): `args.bf16 = True` on a TrainingArguments / SFTConfig object (the field the Trainer reads
    when it runs; "?" where the GPU decides: `args.bf16 = is_bfloat16_supported()`), and `model = torch.compile(model)`
    / `model.compile()` of the model an Unsloth loader returned (the module the Trainer then runs; torch.compile's
    `mode=`). A mode or a backend alone turns compile on, as TrainingArguments' own fields do."""
    from .hf_transformers import _last_training_call

    last = _last_training_call(t)
    args_names, models, out = set(), set(), {}
    for n in sorted((n for n in walked(t) if isinstance(n, (ast.Assign, ast.Expr))), key=lambda n: n.lineno):
        if last is not None and n.lineno > last:
            continue
        val = n.value
        f = val.func if isinstance(val, ast.Call) else None
        callee = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
        owner = f.value.id if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) else None
        targets = n.targets if isinstance(n, ast.Assign) else []
        if callee in TRAINING_ARGS:
            args_names.update(tg.id for tg in targets if isinstance(tg, ast.Name))
        if owner in LOADERS and callee in ("from_pretrained", "get_peft_model"):
            for tg in targets:
                first = tg.elts[0] if isinstance(tg, ast.Tuple) and tg.elts else tg
                if isinstance(first, ast.Name):
                    models.add(first.id)
        for tg in targets:
            if isinstance(tg, ast.Attribute) and tg.attr in _AFTER_KEYS and isinstance(tg.value, ast.Name) and \
                    tg.value.id in args_names:
                out[tg.attr] = value(val, consts)
                if tg.attr in ("bf16", "fp16") and out[tg.attr] == "?":
                    _open(out.setdefault("by_gpu", {}), tg.attr, val, consts)
        compiled = (isinstance(f, ast.Attribute) and ast.unparse(f) == "torch.compile" and val.args and
                    isinstance(val.args[0], ast.Name) and val.args[0].id in models) or \
            (callee == "compile" and isinstance(owner, str) and owner in models and not val.args)
        if compiled:
            out["torch_compile"] = True
            m = value(next((k.value for k in val.keywords if k.arg == "mode"), None), consts)
            if isinstance(m, str) and m != "?":
                out["torch_compile_mode"] = m
    if out.get("torch_compile") is None and any(isinstance(out.get(k), str) and out[k] != "?"
                                                 for k in ("torch_compile_mode", "torch_compile_backend")):
        out["torch_compile"] = True
    if out.get("torch_compile") == "?":
        out.pop("torch_compile")
    return out


def _trained_loads(t, consts: dict) -> list:
    """The FastLanguageModel / FastModel ... loads of the script (pyscript.calls), in source order, without those after
    its last `trainer.train()` when one comes before it: a load after training reloads the saved adapter to generate,
    merge or export (round 33m: darshlukkad's DPO and GRPO notebooks train a model loaded with the GPU's dtype, then
    reload it with `dtype = torch.float16 if torch.cuda.is_available() else torch.float32` to try it), not the model
    the run trained."""
    import ast

    from .hf_transformers import _last_training_call

    found = []
    for n in walked(t):  # (the tree's nodes in ast.walk's order, listed once: textutil)
        if isinstance(n, ast.Call):
            f = n.func
            owner = f.value.id if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) else None
            if owner in LOADERS and f.attr == "from_pretrained":
                found.append((n.lineno, n.col_offset, n))
    found.sort(key=lambda x: (x[0], x[1]))
    last = _last_training_call(t)
    before = [x for x in found if last is None or x[0] <= last]
    keep = before or found
    out = []
    for line, _col, n in keep:
        out.extend((*c, line) for c in calls(ast.Module(body=[ast.Expr(value=n)], type_ignores=[]), LOADERS, consts))
    return out


def _plain_phases(t, consts: dict, have: list) -> list:
    """The attention a phase of the run that loads its model through transformers itself asks for (round 28: a notebook
    whose SFT runs on Unsloth and whose DPO phase reloads the adapter with AutoModelForCausalLM.from_pretrained(
    attn_implementation="sdpa")): that load's attn_implementation, when it comes before the last trainer.train()."""
    import ast

    from .hf_transformers import _callee, _last_training_call

    last = _last_training_call(t)
    out, named = [], {e.get("name") for e in have}
    for n in walked(t):  # (the tree's nodes in ast.walk's order, listed once: textutil)
        if not isinstance(n, ast.Call) or last is None or n.lineno > last:
            continue
        owner, name = _callee(n)
        if name != "from_pretrained" or not (owner.startswith("AutoModel") or owner.endswith(
                ("ForCausalLM", "ForConditionalGeneration"))):
            continue
        impl = next((value(k.value, consts) for k in n.keywords if k.arg == "attn_implementation"), None)
        if isinstance(impl, str) and impl != "?":
            e = entry(impl, f'{owner}.from_pretrained(attn_implementation="{impl}")')
            if e.get("name") not in named:
                named.add(e.get("name"))
                out.append(e)
    return out


def parse(path: str, text: str) -> dict:
    from . import make_doc

    return read(make_doc(path, text))
