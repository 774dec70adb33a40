#!/usr/bin/env python3
"""Every option each claimed trainer takes that sets or implies an attention backend, the dtype or compilation, read
statically (ast) from the trainer's own source, and whether attn-doctor's reader for that trainer names it.

    python benchmarks/configs_option_surface.py MIRRORS_DIR [--transformers FILE] [--md OUT.md] [--json OUT.json]

MIRRORS_DIR holds bare clones named owner+name/repo (the fetch tool's layout, /work/.mirror); each is read at its
HEAD, nothing is imported or run. --transformers: transformers' training_args.py (a wheel's copy; the repository is
too large to mirror). The output is deterministic for given snapshots, so a later session re-runs it on newer ones and
diffs the tables.

Where an option is defined, by the trainer's own way of declaring it:
- argparse: `add_argument("--a", "--b", choices=..., default=...)` (every alias);
- dataclass / pydantic fields: annotated class attributes (`attn_impl: Optional[str] = None`, Literal[...] choices);
- registries of fields: a call with `name="..."` / `arg_name="--..."` keywords (SimpleTuner's ConfigField);
- list-of-tuples defaults: `data.append(("name", default, type, nullable))` (OneTrainer's TrainConfig);
- dict reads: `X.get("key", default)` and `X["key"]` on a config-like name (ai-toolkit's kwargs, torchtune's cfg,
  diffusion-pipe's config / model_config), `cfg.key` attribute reads on torchtune's cfg;
- function parameters of entry points (`setup(precision=..., compiler=...)` in LitGPT, `from_pretrained(dtype=...,
  attn_implementation=...)` in Unsloth);
- environment variables (`os.environ.get("X")`, `os.getenv("X")`, `os.environ["X"]`).
A name counts when it matches one of FIELDS' patterns. "Known to our reader" is lexical: the name occurs as a whole
word in the reader's module(s) (READERS); whether it is read RIGHT is checked by tests/test_configs_cfg97.py and the
reader's own tests, not here.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# the field a name sets or implies, by its spelling (checked in this order); EXCLUDE: names that match but set
# something else (dropout, learning rates, masks, save/output dtype of exported weights)
FIELDS = (
    ("compile", re.compile(r"compile|dynamo|inductor", re.I)),
    ("attention", re.compile(r"attn|attention|sdpa|xformers|flash|sage_?att|(^|_)sage($|_)|flex_att|mem_eff_att", re.I)),
    ("dtype", re.compile(r"precision|dtype|(^|_)(bf16|fp16|fp32|tf32|half|amp)($|_)|full_bf16|full_fp16|mixed", re.I)),
)
EXCLUDE = re.compile(r"dropout|_lr$|lr_|mask|save_dtype|save_precision|output_dtype|export|quant_storage|head_dim"
                     r"|num_attention|attention_bias|window|rope|layer_norm|gguf|vllm|sglang|lmdeploy|eval_|attentions$|self_attn|_scales", re.I)

# trainer -> (mirror, files read at HEAD (regex on the path), the reader modules under attn_doctor/configs/)
TRAINERS = {
    "sd-scripts": ("kohya-ss+sd-scripts", r"^(?![a-z0-9_/]*(inference|gen_img|minimal))([a-z0-9_]+\.py|library/[a-z0-9_]+\.py)$",
                   ["sd_scripts.py"]),
    "musubi-tuner": ("kohya-ss+musubi-tuner", r"^src/musubi_tuner/(?![a-z0-9_/]*(generate|inference|cache_|extract|convert|"
                     r"merge))[a-z0-9_/]+\.py$", ["musubi.py"]),
    "blissful-tuner": ("Sarania+blissful-tuner", r"^src/blissful_tuner/[a-z0-9_/]+\.py$", ["blissful.py", "musubi.py"]),
    "SimpleTuner": ("bghira+SimpleTuner", r"^simpletuner/(helpers/configuration/[a-z_]+|simpletuner_sdk/server/"
                    r"services/field_registry/sections/[a-z_]+)\.py$", ["simpletuner.py"]),
    "ai-toolkit": ("ostris+ai-toolkit", r"^toolkit/config_modules\.py$", ["ai_toolkit.py"]),
    "diffusers examples": ("huggingface+diffusers", r"^examples/[a-z0-9_]+/train_[a-z0-9_]+\.py$", ["diffusers.py"]),
    "axolotl": ("axolotl-ai-cloud+axolotl", r"^src/axolotl/utils/schemas/[a-z_]+\.py$", ["axolotl.py"]),
    "LLaMA-Factory": ("hiyouga+LLaMA-Factory", r"^src/llamafactory/hparams/[a-z_]+\.py$", ["llamafactory.py"]),
    "torchtune": ("pytorch+torchtune", r"^recipes/[a-z_]+\.py$", ["torchtune.py"]),
    "LitGPT": ("Lightning-AI+litgpt", r"^litgpt/(finetune/[a-z_]+|pretrain|args)\.py$", ["litgpt.py"]),
    "ms-swift": ("modelscope+ms-swift", r"^swift/arguments/[a-z_/]+\.py$", ["ms_swift.py"]),
    "Unsloth": ("unslothai+unsloth", r"^unsloth/models/(loader|llama|_utils)\.py$", ["unsloth.py"]),
    "TRL": ("huggingface+trl", r"^trl/trainer/[a-z_]+_config\.py$", ["hf_transformers.py"]),
    "OneTrainer": ("Nerogar+OneTrainer", r"^modules/util/config/TrainConfig\.py$", ["onetrainer.py"]),
    "diffusion-pipe": ("tdrussell+diffusion-pipe", r"^(train|utils/[a-z_]+)\.py$", ["diffusion_pipe.py"]),
}
TRANSFORMERS_READERS = ["hf_transformers.py"]
# where a trainer's Enum classes live whose members are an option's values (a default `AttentionMechanism.SDP`, an
# annotation `flash_attn: AttentionFunction`)
ENUM_FILES = {"OneTrainer": r"^modules/util/enum/[A-Za-z]+\.py$", "LLaMA-Factory": r"^src/llamafactory/extras/constants\.py$"}
# names a dict read counts on (the config object a trainer reads its file into)
CONFIG_NAMES = re.compile(r"^(kwargs|config|cfg|model_config|train_config|adapter_config|args|conf|_cfg)$")
ENTRY_FUNCS = {"setup", "from_pretrained", "main"}


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, errors="replace").stdout


def field_of(name: str) -> str | None:
    bare = name.lstrip("-")
    if EXCLUDE.search(bare):
        return None
    for field, pat in FIELDS:
        if pat.search(bare):
            return field
    return None


def text(node, limit: int = 70) -> str:
    if node is None:
        return ""
    try:
        s = ast.unparse(node)
    except Exception:  # noqa: BLE001 - an odd node is shown as empty, never stops the scan
        return ""
    s = " ".join(s.split())
    return s if len(s) <= limit else s[: limit - 3] + "..."


def literal_choices(node, assigns: dict) -> str:
    """A choices= value or a Literal[...] annotation, resolved through a module-level list of the same file."""
    if isinstance(node, ast.ListComp) and len(node.generators) == 1:
        node = node.generators[0].iter  # [{"value": a, "label": a} for a in attention_mechanisms]
    if isinstance(node, ast.Name) and node.id in assigns:
        node = assigns[node.id]
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        vals = []
        for e in node.elts:
            if isinstance(e, ast.Dict):  # [{"value": "no", "label": "Disabled"}, ...]
                e = next((v for k, v in zip(e.keys, e.values) if isinstance(k, ast.Constant) and k.value == "value"), e)
            if isinstance(e, ast.Constant):
                vals.append(e.value)
        if vals:
            return "|".join(str(v) for v in vals)
    return text(node, 90) if node is not None else ""


def literal_of(ann) -> str:
    for sub in ast.walk(ann) if ann is not None else ():
        if isinstance(sub, ast.Subscript) and text(sub.value) in ("Literal", "typing.Literal"):
            sl = sub.slice
            elts = sl.elts if isinstance(sl, ast.Tuple) else [sl]
            return "|".join(str(e.value) for e in elts if isinstance(e, ast.Constant))
    return ""


def enum_values(tree: ast.Module) -> dict:
    """{Enum class name: its members' values} of one file."""
    out = {}
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        if any("Enum" in text(b) for b in cls.bases):
            vals = [st.value.value for st in cls.body if isinstance(st, ast.Assign)
                    and isinstance(st.value, ast.Constant) and isinstance(st.value.value, str)]
            if vals:
                out[cls.name] = vals
    return out


def with_enums(rows: list[dict], enums: dict) -> list[dict]:
    """An option whose default or annotation names an Enum of the trainer: its members are the values it takes."""
    for r in rows:
        if r["values"] and r["values"] not in enums:
            continue
        m = re.match(r"^(\w+)(\.\w+)?$", r["values"] or r["default"])
        if m and m.group(1) in enums:
            r["values"] = "|".join(enums[m.group(1)])
    return rows


def scan(tree: ast.Module) -> list[dict]:
    """Every option definition or read in one file: {name, kind, line, values, default}."""
    out: list[dict] = []
    assigns = {t.id: n.value for n in ast.walk(tree) if isinstance(n, ast.Assign)
               for t in n.targets if isinstance(t, ast.Name)}

    owner = {}  # id(node) -> the class it is written in (innermost)
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        for sub in ast.walk(cls):
            if sub is not cls:
                owner[id(sub)] = cls.name

    def add(name, kind, node, values="", default=""):
        if isinstance(name, str) and name and field_of(name):
            out.append({"name": name.lstrip("-"), "kind": kind, "line": node.lineno, "values": values,
                        "default": default, "cls": owner.get(id(node), "")})

    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for st in node.body:
                if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name):
                    default, kind = st.value, f"field {node.name}"
                    if isinstance(default, ast.Call) and text(default.func).endswith(("field", "Field")):
                        kw = {k.arg: k.value for k in default.keywords if k.arg}
                        default = kw.get("default", kw.get("default_factory", default.args[0] if default.args else None))
                        if isinstance(kw.get("init"), ast.Constant) and kw["init"].value is False:
                            kind += " (init=False: derived, HfArgumentParser takes no such key)"
                    add(st.target.id, kind, st, literal_of(st.annotation), text(default))
        elif isinstance(node, ast.Call):
            func = text(node.func, 200)
            kw = {k.arg: k.value for k in node.keywords if k.arg}
            if func.endswith("add_argument"):
                names = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
                for n in names:
                    add(n, "argparse" + (f" (alias of {names[0]})" if n != names[0] else ""), node,
                        literal_choices(kw.get("choices"), assigns), text(kw.get("default")))
            elif "arg_name" in kw or ("name" in kw and "default_value" in kw):
                name = kw.get("name") or kw.get("arg_name")
                if isinstance(name, ast.Constant):
                    add(name.value, "registry field", node, literal_choices(kw.get("choices"), assigns),
                        text(kw.get("default_value")))
            elif func.endswith(".append") and node.args and isinstance(node.args[0], ast.Tuple):
                elts = node.args[0].elts
                if len(elts) >= 3 and isinstance(elts[0], ast.Constant):
                    add(elts[0].value, "config default", node, text(elts[2]), text(elts[1]))
            elif func in ("os.environ.get", "os.getenv", "environ.get", "getenv") and node.args:
                if isinstance(node.args[0], ast.Constant):
                    add(node.args[0].value, "environment", node, "", text(node.args[1]) if len(node.args) > 1 else "")
            elif isinstance(node.func, ast.Attribute) and node.func.attr in ("get", "pop", "setdefault") and node.args:
                base = node.func.value
                bname = base.attr if isinstance(base, ast.Attribute) else base.id if isinstance(base, ast.Name) else ""
                if CONFIG_NAMES.match(bname) and isinstance(node.args[0], ast.Constant):
                    add(node.args[0].value, f"{bname}.{node.func.attr}", node, "",
                        text(node.args[1]) if len(node.args) > 1 else "")
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.ctx, ast.Load):
            base = node.value
            bname = base.attr if isinstance(base, ast.Attribute) else base.id if isinstance(base, ast.Name) else ""
            if text(base) == "os.environ":
                add(node.slice.value, "environment", node)
            elif CONFIG_NAMES.match(bname):
                add(node.slice.value, f"{bname}[...]", node)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in ("cfg", "_cfg"):
            add(node.attr, "cfg.attribute", node)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in ENTRY_FUNCS:
            a = node.args
            params = a.posonlyargs + a.args + a.kwonlyargs
            defaults = [None] * (len(a.posonlyargs + a.args) - len(a.defaults)) + list(a.defaults) + list(a.kw_defaults)
            for p, d in zip(params, defaults):
                add(p.arg, f"parameter of {node.name}()", node, literal_of(p.annotation), text(d))
    return out


def reader_text(modules: list[str]) -> str:
    return "\n".join((ROOT / "attn_doctor" / "configs" / m).read_text(encoding="utf-8") for m in modules)


def shared_text() -> str:
    return (ROOT / "attn_doctor" / "configs" / "__init__.py").read_text(encoding="utf-8")


def known(name: str, reader: str) -> bool:
    return re.search(r"(?<![A-Za-z0-9_])" + re.escape(name) + r"(?![A-Za-z0-9_])", reader) is not None


def collect(mirrors: Path, transformers: Path | None) -> dict:
    result = {}
    for trainer, (mirror, pattern, readers) in TRAINERS.items():
        repo = mirrors / mirror / "repo"
        if not repo.exists():
            result[trainer] = {"missing": str(repo)}
            continue
        commit = git(repo, "rev-parse", "HEAD").strip()
        rows, enums = [], {}
        every = git(repo, "ls-tree", "-r", "--name-only", "HEAD").splitlines()
        files = sorted(p for p in every if re.match(pattern, p))
        for path in (p for p in every if trainer in ENUM_FILES and re.match(ENUM_FILES[trainer], p)):
            try:
                enums.update(enum_values(ast.parse(git(repo, "show", f"HEAD:{path}"))))
            except SyntaxError:
                continue
        for path in files:
            try:
                tree = ast.parse(git(repo, "show", f"HEAD:{path}"))
            except SyntaxError:
                continue
            rows += [dict(r, file=path) for r in scan(tree)]
        rows = with_enums(rows, enums)
        result[trainer] = {"repo": mirror.replace("+", "/"), "commit": commit, "readers": readers,
                           "rows": merge(rows, reader_text(readers))}
    if transformers is not None and transformers.exists():
        rows = [dict(r, file="src/transformers/training_args.py") for r in scan(ast.parse(transformers.read_text()))]
        result["transformers"] = {"repo": "huggingface/transformers", "commit": transformers_version(transformers),
                                  "readers": TRANSFORMERS_READERS,
                                  "rows": merge(rows, reader_text(TRANSFORMERS_READERS))}
    return result


def transformers_version(path: Path) -> str:
    init = path.parent / "__init__.py"
    m = re.search(r'__version__\s*=\s*"([^"]+)"', init.read_text()) if init.exists() else None
    return f"v{m.group(1)} (wheel)" if m else "wheel"


def merge(rows: list[dict], reader: str) -> list[dict]:
    """One row per (name, kind, file), every line it occurs on, sorted by field then name."""
    by: dict = {}
    for r in rows:
        key = (r["name"], r["kind"], r["file"])
        if key in by:
            by[key]["lines"].append(r["line"])
            by[key]["values"] = by[key]["values"] or r["values"]
            by[key]["default"] = by[key]["default"] or r["default"]
        else:
            by[key] = dict(r, lines=[r["line"]])
    out = []
    for r in by.values():
        r.pop("line")
        r["lines"] = sorted(set(r["lines"]))
        r["field"] = field_of(r["name"])
        r["known"] = known(r["name"], reader)
        # the accepted values neither the reader's module nor the readers' shared helpers (configs/__init__.py:
        # dtype_of, COMPILE_MODES ...) spell as a quoted string: read as unknown at best
        vals = [v for v in r["values"].split("|") if v and re.fullmatch(r"[A-Za-z0-9_.+-]+", v)]
        r["values_unknown"] = [v for v in vals if v not in ("None", "True", "False")
                               and not re.search(r"[\"']" + re.escape(v) + r"[\"']", reader + shared_text())]
        out.append(r)
    return sorted(out, key=lambda r: (r["field"], r["name"], r["file"], r["kind"]))


# -- probing: what the reader reads when a config sets the option ------------------------------------------------------
# Per trainer, a minimal file its reader claims, with the option written where the trainer takes it: a command line
# (`--name value`, a flag bare), or a key of a YAML / JSON / TOML file (nested where the trainer's class is read from:
# ai-toolkit's ModelConfig under `model:`, TrainConfig under `train:`; diffusion-pipe's model_config under [model]).
# Each value the trainer accepts (its choices; true for a flag or a boolean) is read once; the reading (trainer,
# required backends, dtype, compile mode) is compared with the same file without the option.
SD = "accelerate launch {script}.py --pretrained_model_name_or_path=m.safetensors --network_module=networks.lora " \
     "--train_data_dir=d --output_dir=o {opt}\n"
MUSUBI = "accelerate launch src/musubi_tuner/{script}.py --dit d.safetensors --vae v.safetensors --dataset_config d.toml " \
         "--network_module networks.lora_wan --task t2v-14B --output_dir o {opt}\n"
DIFFUSERS = "accelerate launch {script}.py --pretrained_model_name_or_path=m --instance_data_dir=d --instance_prompt=x " \
            "--output_dir=o {opt}\n"
SWIFT = "swift sft --model Qwen/Qwen2.5-7B-Instruct --train_type lora --dataset d --output_dir o {opt}\n"
AXOLOTL = {"base_model": "NousResearch/Llama-2-7b-hf", "datasets": [{"path": "mhenrichsen/alpaca_2k_test",
           "type": "alpaca"}], "sequence_len": 2048, "micro_batch_size": 2, "num_epochs": 1, "output_dir": "out"}
LMF = {"model_name_or_path": "meta-llama/Meta-Llama-3-8B-Instruct", "stage": "sft", "do_train": True,
       "finetuning_type": "lora", "dataset": "identity", "template": "llama3", "output_dir": "saves/x"}
SIMPLETUNER = {"model_family": "flux", "model_type": "lora", "pretrained_model_name_or_path": "black-forest-labs/FLUX.1-dev",
               "output_dir": "out", "data_backend_config": "x.json", "resolution": 1024, "lora_rank": 16}
ONETRAINER = {"__version": 6, "training_method": "LORA", "model_type": "FLUX_DEV_1",
              "base_model_name": "black-forest-labs/FLUX.1-dev", "concept_file_name": "training_concepts/concepts.json",
              "workspace_dir": "w", "output_model_destination": "o.safetensors"}
TRL = {"model_name_or_path": "Qwen/Qwen2.5-0.5B", "dataset_name": "trl-lib/Capybara", "output_dir": "out",
       "per_device_train_batch_size": 2, "learning_rate": 2e-5}
TORCHTUNE = {"model": {"_component_": "torchtune.models.llama3_2.lora_llama3_2_1b"},
             "tokenizer": {"_component_": "torchtune.models.llama3.llama3_tokenizer", "path": "/tmp/t.model"},
             "dataset": {"_component_": "torchtune.datasets.alpaca_cleaned_dataset"},
             "optimizer": {"_component_": "torch.optim.AdamW", "lr": 3e-4}, "batch_size": 4, "epochs": 1,
             "output_dir": "/tmp/out"}
LITGPT = {"checkpoint_dir": "checkpoints/meta-llama/Llama-3.2-1B", "out_dir": "out/finetune/lora",
          "train": {"epochs": 1}, "lora_r": 8}
AITK = {"job": "extension", "config": {"name": "my_lora", "process": [{"type": "sd_trainer", "training_folder": "output",
        "device": "cuda:0", "network": {"type": "lora", "linear": 16}, "train": {"batch_size": 1, "steps": 2000},
        "model": {"name_or_path": "black-forest-labs/FLUX.1-dev", "is_flux": True}}]}}
DPIPE = ("output_dir = '/out'\ndataset = 'dataset.toml'\nepochs = 10\nmicro_batch_size_per_gpu = 1\npipeline_stages = 1\n"
         "gradient_accumulation_steps = 1\n{top}[model]\ntype = 'hunyuan-video'\ncheckpoint_path = '/m'\n{model}"
         "[adapter]\ntype = 'lora'\nrank = 32\n[optimizer]\ntype = 'adamw_optimi'\nlr = 2e-5\n")
DEFAULT_SCRIPT = {"sd-scripts": "sdxl_train_network", "musubi-tuner": "wan_train_network", "blissful-tuner": "wan_train_network",
                  "diffusers examples": "train_dreambooth_lora_flux"}


def _script_of(trainer: str, row: dict) -> str:
    stem = Path(row["file"]).stem
    if trainer in ("sd-scripts", "musubi-tuner") and re.search(r"_train(_network)?$|^train_network$|^train_db$", stem):
        return stem
    if trainer == "diffusers examples":
        return stem
    return DEFAULT_SCRIPT[trainer]


def _flag(name: str, value, flag: bool) -> str:
    if value is None:
        return ""
    if flag:
        return f"--{name}"
    return f"--{name} {value}"


def _toml(value) -> str:
    return json.dumps(value) if not isinstance(value, bool) else str(value).lower()


def probe_file(trainer: str, row: dict, value) -> tuple[str, str] | None:
    """(file name, text) of the trainer's minimal file with `row`'s option set to value (None: without it)."""
    name, flag = row["name"], value is True and row["kind"].startswith("argparse")
    if row["kind"] == "environment":
        return None
    if trainer in ("sd-scripts", "musubi-tuner", "blissful-tuner", "diffusers examples"):
        if not row["kind"].startswith("argparse"):
            return None
        tpl = {"sd-scripts": SD, "diffusers examples": DIFFUSERS}.get(trainer, MUSUBI)
        return "train.sh", tpl.format(script=_script_of(trainer, row), opt=_flag(name, value, flag))
    if trainer == "ms-swift":
        return "train.sh", SWIFT.format(opt=_flag(name, value, False))
    if trainer == "diffusion-pipe":
        line = "" if value is None else f"{name} = {_toml(value)}\n"
        inner = row["kind"].startswith("model_config")
        return "config.toml", DPIPE.format(top="" if inner else line, model=line if inner else "")
    base = {"axolotl": AXOLOTL, "LLaMA-Factory": LMF, "SimpleTuner": SIMPLETUNER, "OneTrainer": ONETRAINER,
            "TRL": TRL, "transformers": TRL, "torchtune": TORCHTUNE, "LitGPT": LITGPT, "ai-toolkit": AITK}.get(trainer)
    if base is None:
        return None
    doc = json.loads(json.dumps(base))
    if value is not None:
        if trainer == "ai-toolkit":
            where = {"ModelConfig": "model", "TrainConfig": "train"}.get(row.get("cls", ""))
            if where is None:
                return None
            doc["config"]["process"][0][where][name] = value
        else:
            doc[name] = value
    ext = "config.json" if trainer in ("SimpleTuner", "OneTrainer") else "config.yaml"
    return ext, json.dumps(doc, indent=1)  # JSON is YAML


def probe_values(row: dict) -> list:
    vals = [v for v in row["values"].split("|") if v and re.fullmatch(r"[A-Za-z0-9_.+-]+", v)]
    if vals and vals != ["bool"]:
        return [True if v == "True" else False if v == "False" else v for v in vals if v != "None"]
    if row["kind"].startswith("argparse") and row["default"] in ("", "False", "None") and not row["values"]:
        return [True]  # a flag (store_true) or an option whose value the table cannot tell: true
    if row["default"] in ("False", "True", "None", "bool") or row["values"] == "bool":
        return [True]
    return []


def probe(result: dict, workdir: Path) -> None:
    """Adds to each row {value: reading} for the values probed, and the reading without the option."""
    sys.path.insert(0, str(ROOT))
    from attn_doctor import configs
    from attn_doctor.model import UsageError

    def read(trainer, row, value):
        made = probe_file(trainer, row, value)
        if made is None:
            return None
        d = workdir / re.sub(r"\W", "_", f"{trainer}-{row['name']}-{value}")
        d.mkdir(parents=True, exist_ok=True)
        p = d / made[0]
        p.write_text(made[1], encoding="utf-8")
        try:
            c = configs.load(str(p))
        except UsageError as e:
            return "refused: " + str(e).split(":")[-1].strip()[:80]
        return " ".join([c["detected"]["trainer"], "+".join(sorted(c["required"])) or "-", c["dtype"] or "-",
                         c["compile_mode"] or "none"])

    for trainer, res in result.items():
        for row in res.get("rows", []):
            base = read(trainer, row, None)
            if base is None:
                continue
            row["probe_base"] = base
            row["probe"] = {str(v): read(trainer, row, v) for v in probe_values(row)}


def probe_cell(r: dict) -> str:
    """`base` -> `value: reading` for the values whose reading differs ("same" for the values that read as base)."""
    if "probe_base" not in r:
        return ""
    diff = [f"{v}: {got}" for v, got in r["probe"].items() if got != r["probe_base"]]
    same = [v for v, got in r["probe"].items() if got == r["probe_base"]]
    return f"{r['probe_base']} -> " + "; ".join(diff + ([f"same for {' '.join(same)}"] if same else []))


def short(commit: str) -> str:
    return commit[:10] if re.fullmatch(r"[0-9a-f]{40}", commit) else commit


def markdown(result: dict) -> str:
    lines = ["# The options each claimed trainer takes for attention, dtype and compile (cfg97, session 23)", "",
             "Generated by `benchmarks/configs_option_surface.py` (see its docstring for what is read and how); "
             "`known` is lexical (the name occurs in the reader's module). Triage of the `no` rows: the section "
             "after the tables.", ""]
    lines += ["| trainer | snapshot | options | known | not known |", "|---|---|---|---|---|"]
    for trainer, res in sorted(result.items(), key=lambda kv: kv[0].lower()):
        if "missing" in res:
            lines.append(f"| {trainer} | (no mirror) | | | |")
            continue
        names = {}
        for r in res["rows"]:
            names[r["name"]] = names.get(r["name"], False) or r["known"]
        k = sum(names.values())
        lines.append(f"| {trainer} | {res['repo']}@{short(res['commit'])} | {len(names)} | {k} | {len(names) - k} |")
    for trainer, res in sorted(result.items(), key=lambda kv: kv[0].lower()):
        if "missing" in res:
            continue
        lines += ["", f"## {trainer} ({res['repo']}@{short(res['commit'])}; reader: "
                  f"{', '.join('attn_doctor/configs/' + m for m in res['readers'])})", "",
                  "| field | option | how defined | values | default | where | known | values the reader never spells "
                  "| read without it -> with each value |", "|---|---|---|---|---|---|---|---|---|"]
        for r in res["rows"]:
            where = f"{r['file']}:{','.join(map(str, r['lines'][:4]))}" + ("..." if len(r["lines"]) > 4 else "")
            cells = [r["field"], f"`{r['name']}`", r["kind"], r["values"], r["default"], where,
                     "yes" if r["known"] else "no", " ".join(r["values_unknown"]), probe_cell(r)]
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mirrors", type=Path)
    ap.add_argument("--transformers", type=Path)
    ap.add_argument("--md", type=Path)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--probe", type=Path, metavar="DIR", help="read a minimal config per option and value (files under DIR)")
    args = ap.parse_args(argv)
    result = collect(args.mirrors, args.transformers)
    if args.probe:
        probe(result, args.probe)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
    md = markdown(result)
    if args.md:
        args.md.write_text(md)
    else:
        sys.stdout.write(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
