"""torchtune: a recipe config YAML (`tune run lora_finetune_single_device --config my.yaml`), or the `tune run`
command line with its `key=value` overrides (and the YAML it names, when that file is here).

Read from pytorch/torchtune bd2a0fc (2026-04-23):
- torchtune/modules/attention_utils.py:185-252 _sdpa_or_flex_attention: attention is PyTorch SDPA, except when
  the mask is a BlockMask, which only sample packing makes (packed_block_causal_mask, :133-182, from
  torchtune/data padded_collate_packed): then it is FlexAttention, compiled on its own (compile_flex_attention,
  :25-44, torch.compile default mode, max-autotune as a retry) whatever `compile` says;
- torchtune/utils/_import_guard.py:12-14 _SUPPORTS_FLEX_ATTENTION: CUDA with compute capability >= 7.5
  (older GPUs keep SDPA with a dense block-causal mask);
- recipes/*.py: `dataset.packed` (dataset/_packed.py; recipes read cfg_dataset.get("packed", False),
  full_finetune_single_device.py:486-489), `compile` (cfg.get("compile", False); compile_model,
  training/_compile.py:24-53, compiles each attention layer with torch.compile's default mode and the
  backend TORCH_COMPILE_BACKEND, default inductor), `dtype` (training/precision.py:76-121 get_dtype: fp16,
  bf16, fp32, fp64; none is float32; the full-finetune recipes refuse fp16, full_finetune_single_device.py:129),
  `batch_size`; `tune run [torchrun options] RECIPE --config FILE key=value ...` (torchtune/_cli/run.py).
"""

from __future__ import annotations

import re

import os

from ..model import UsageError
from . import NOTHING, STRONG, Score, as_int, attention, load_yaml

TITLE = "torchtune"
DTYPES = {"bf16": "bfloat16", "fp32": "float32", "fp16": "float16", "fp64": "float64"}
# `device:` values of machines without CUDA (torchtune/utils/_device.py _get_device_type_from_env: cuda, npu, hpu, xpu,
# mps, cpu), where packing cannot turn FlexAttention on
NO_CUDA_DEVICES = {"mps", "npu", "xpu", "hpu"}
# Recipe YAML sections torchtune's recipes read (their _component_ values name torchtune classes).
SECTIONS = {"tokenizer", "checkpointer", "dataset", "model", "optimizer", "loss", "metric_logger", "profiler",
            "lr_scheduler", "collate_fn"}
SHARED_KEYS = {"batch_size", "epochs", "max_steps_per_epoch", "gradient_accumulation_steps", "compile", "dtype",
               "enable_activation_checkpointing", "enable_activation_offloading", "resume_from_checkpoint",
               "output_dir", "seed", "shuffle", "device", "log_every_n_steps", "log_peak_memory_stats",
               "optimizer_in_bwd", "clip_grad_norm"}


def _components(data, depth: int = 0) -> list[str]:
    """Every `_component_` value naming a torchtune class (torchtune.models..., torchtune.training...)."""
    out = []
    if depth > 4:
        return out
    if isinstance(data, dict):
        for k, v in data.items():
            if k == "_component_" and isinstance(v, str) and v.startswith("torchtune."):
                out.append(v)
            else:
                out += _components(v, depth + 1)
    elif isinstance(data, list):
        for v in data[:20]:
            out += _components(v, depth + 1)
    return out


# torchtune's own configs (`tune run RECIPE --config llama3_1/8B_full`: torchtune/_recipe_registry.py's names, every one a
# family/name; torchtune/_cli/run.py takes a registered name before a path) at meta-pytorch/torchtune@bd2a0fc
# recipes/configs/: 196 of the 197 set `dtype: bf16` (dev/qwen3B_async_grpo sets none at the top level), none packs
# (`packed: False` or no packed key), and three set `compile: True`
BUILTIN_COMPILED = {"llama3_3/70B_full_multinode", "mistral/7B_full_ppo_low_memory", "dev/11B_lora_multi_dataset"}
BUILTIN_NO_DTYPE = {"dev/qwen3B_async_grpo"}


def _builtin(name: str) -> dict:
    """What one of torchtune's own configs sets of the settings read here (BUILTIN_*)."""
    out = {"compile": name in BUILTIN_COMPILED, "dataset": {"packed": False}}
    if name not in BUILTIN_NO_DTYPE:
        out["dtype"] = "bf16"
    return out


def _checkout_config(doc: dict, name: str) -> dict | None:
    """The settings of torchtune's config `name` as the checkout the launch file sits in has it (a fork's own
    recipes/configs/NAME.yaml), when the launch file is in a torchtune checkout (its folder or one of the two above holds
    torchtune/_recipe_registry.py and that YAML); None otherwise. `tune run` resolves a registered name to
    ROOT / "recipes" / "configs" / config.file_path with ROOT = Path(torchtune.__file__).parent.parent
    (torchtune/_cli/run.py, torchtune/_recipe_registry.py's file_path NAME.yaml, meta-pytorch/torchtune@bd2a0fc): the
    installed package's tree, which for a fork worked on in place (pip install -e .) is the checkout, whose YAML may
    differ from upstream's (round 139m's wasabi-ai multi_lora.sh: the fork's 8B_lora_single_device sets compile: True)."""
    from . import read_text
    from .references import launcher_dir

    base = launcher_dir(doc)
    for up in (base, os.path.dirname(base), os.path.dirname(os.path.dirname(base))):
        conf = os.path.join(up, "recipes", "configs", *name.split("/")) + ".yaml"
        if os.path.isfile(os.path.join(up, "torchtune", "_recipe_registry.py")) and os.path.isfile(conf):
            try:
                data = load_yaml(conf, read_text(conf))
            except UsageError:  # (not YAML: the package's settings, as without the checkout)
                return None
            return data if isinstance(data, dict) else None
    return None


def _overrides(words: list[str]) -> dict:
    """`key=value` and `key.sub=value` overrides of a `tune run` command (OmegaConf dotted keys, values as YAML)."""
    out = {}
    for w in words:
        if "=" in w and not w.startswith("-"):
            k, _, v = w.partition("=")
            try:
                out[k] = load_yaml("override", v) if v else v
            except UsageError:  # a value YAML cannot read is kept as text
                out[k] = v
    return out


# torchtune's training recipes (pytorch/torchtune@bd2a0fc torchtune/_recipe_registry.py, recipes/*.py): `tune run RECIPE`
# runs recipes/RECIPE.py (torchtune/_cli/run.py: torchrun for --nproc_per_node, else runpy), and users of a checkout or a
# fork run the file themselves, `torchrun --nproc_per_node 2 recipes/lora_finetune_distributed.py --config my.yaml`:
# the same recipe on the same --config and key=value overrides (the recipe's @config.parse)
RECIPES = {"full_finetune_single_device", "full_finetune_distributed", "lora_finetune_single_device",
           "lora_finetune_distributed", "lora_dpo_single_device", "lora_dpo_distributed", "full_dpo_distributed",
           "ppo_full_finetune_single_device", "qat_distributed", "qat_lora_finetune_distributed", "qat_single_device",
           "knowledge_distillation_single_device", "knowledge_distillation_distributed",
           "grpo_full_finetune_distributed", "early_exit_finetune_distributed", "lora_finetune_distributed_multi_dataset",
           "async_grpo_full_finetune_distributed"}


def _recipe_file(c) -> str | None:
    """The recipe a command runs by path (`python|torchrun recipes/full_finetune_distributed.py --config X`), given a
    --config as every recipe needs; None for any other command."""
    stem = os.path.splitext(os.path.basename(c.script or ""))[0]
    if stem not in RECIPES or c.module or not c.script.endswith(".py"):
        return None
    return stem if any(w in ("--config", "-c") or w.startswith("--config=") for w in c.args) else None


def _command(doc: dict):
    for c in doc.get("commands") or []:
        if c.program == "tune" and c.sub[:1] == ["run"] or _recipe_file(c):
            return c
    return None


def _recipe(c) -> str | None:
    if c is None:
        return None
    if c.program == "tune":
        return c.sub[1] if len(c.sub) > 1 else None
    return _recipe_file(c)


def score(doc: dict) -> Score:
    if doc["fmt"] in ("yaml", "json"):
        # a recipe instantiates its parts from the config's top-level sections (recipes/lora_finetune_single_device.py:411
        # config.instantiate(cfg_model)), cfg.tokenizer, cfg.dataset, cfg.optimizer, cfg.checkpointer ...): a torchtune class named only
        # deeper down (an experiment spec's controls.dataset) is no recipe config
        top = [v.get("_component_") for v in doc["data"].values() if isinstance(v, dict)]
        comps = _components(doc["data"]) if any(isinstance(c, str) and c.startswith("torchtune.") for c in top) else []
        if not comps:
            return NOTHING
        sc = Score()
        sc.add(f"_component_: {comps[0]}", 2 * STRONG)
        for k in sorted(set(doc["data"]) & SHARED_KEYS):
            sc.add(k, 0.25)
        return sc
    if doc["fmt"] in ("text", "python") and _command(doc) is not None:
        c = _command(doc)
        if c.program != "tune":
            return Score().add(f"{_recipe(c)}.py --config (torchtune's recipe run by path)", 2 * STRONG)
        return Score().add(f"tune run {c.sub[1] if len(c.sub) > 1 else ''}".strip(), 2 * STRONG)
    return NOTHING


def _get(data: dict, dotted: str):
    cur = data
    for part in dotted.split("."):
        if not isinstance(cur, dict):
            return None
        cur = cur.get(part)
    return cur


def _set(data: dict, dotted: str, value) -> None:
    parts = dotted.split(".")
    cur = data
    for part in parts[:-1]:
        if not isinstance(cur.get(part), dict):
            cur[part] = {}
        cur = cur[part]
    cur[parts[-1]] = value


_INTERPOLATION = re.compile(r"^\$\{([A-Za-z_][\w.]*)\}$")
_ENV_RESOLVER = re.compile(r"^\$\{oc\.env:([A-Za-z_]\w*)(?:,([^{}$]*))?\}$")
UNRESOLVED = object()  # an interpolation OmegaConf cannot resolve either: the recipe stops on it when it reads the key


def _resolved(data: dict) -> dict:
    """The config as the recipe reads it: torchtune's config.parse loads it as an OmegaConf DictConfig, which resolves a
    value `${a.b}` to the node at that absolute path (and `${oc.env:NAME,default}` to the default when NAME is not set in
    the environment) when the recipe reads it (`cfg.dtype`); a value that only contains an interpolation among other
    text is a string either way and left as written."""
    def lookup(path: str):
        cur = data
        for part in path.split("."):
            if not isinstance(cur, dict) or part not in cur:
                return UNRESOLVED
            cur = cur[part]
        return cur

    def res(v, depth: int = 0):
        if isinstance(v, dict):
            return {k: res(x, depth) for k, x in v.items()}
        if isinstance(v, list):
            return [res(x, depth) for x in v]
        if isinstance(v, str) and depth < 5:
            m = _INTERPOLATION.match(v.strip())
            if m:
                got = lookup(m.group(1))
                return got if got is UNRESOLVED else res(got, depth + 1)
            m = _ENV_RESOLVER.match(v.strip())
            if m:
                return UNRESOLVED if m.group(2) is None else res(m.group(2).strip(), depth + 1)
        return v

    return res(data)


def _packed(data: dict) -> bool:
    """dataset.packed, for one dataset or any of a list of them (recipes pack each, PackedDataset)."""
    ds = data.get("dataset")
    items = ds if isinstance(ds, list) else [ds]
    return any(isinstance(d, dict) and d.get("packed") is True for d in items)


def _copied_builtin(doc: dict, conf: str) -> str | None:
    """The torchtune config the file itself copies to `conf` before it runs it (`tune cp llama3_2/1B_lora_single_device
    my.yaml` then `tune run RECIPE --config my.yaml`: torchtune/_cli/cp.py copies the package's YAML as it is), when no
    other command of the file touches the copy (a `sed -i` on it); None otherwise (cfg80, ENTRYPOINTS.md)."""
    name = os.path.basename(conf)
    found = None
    for c in doc.get("commands") or []:
        if c.program == "tune" and c.sub[:1] == ["cp"]:
            pos = [a for a in c.args if not a.startswith("-")]
            if len(pos) == 2 and os.path.basename(pos[1]) == name:
                src = pos[0]
                found = src if "/" in src and not src.endswith((".yaml", ".yml")) and \
                    not src.startswith((".", "/", "~", "$")) else None
        elif c.program != "tune" and any(os.path.basename(w) == name for w in c.words):
            return None
    return found


def read(doc: dict) -> dict:
    cmd = None
    recipe = None
    if doc["fmt"] in ("text", "python"):
        cmd = _command(doc)
        data: dict = {}
        recipe = _recipe(cmd)
        args = list(cmd.args) if cmd is not None else []
        conf = None
        known_conf = False
        for i, w in enumerate(args):
            if w in ("--config", "-c") and i + 1 < len(args):
                conf = args[i + 1]
            elif w.startswith("--config="):
                conf = w.split("=", 1)[1]
        if conf:
            from . import config_data
            from .references import spelt
            from .shell import known

            if spelt(doc, conf).endswith((".yaml", ".yml")) or not known(spelt(doc, conf)):
                # where the launcher's run finds it (after its `cd`s, beside it, from the repository root above it), or
                # the text it writes; a file of the repository that is not here, or the caller's (`--config "$1"`), is
                # named in doc["unread"]
                loaded = config_data(doc, conf)
                data, known_conf = loaded or {}, loaded is not None
                copied = _copied_builtin(doc, conf) if loaded is None else None
                if copied is not None:
                    data, known_conf = _builtin(copied), True
                    doc["unread"] = [u for u in doc.get("unread") or [] if os.path.basename(str(u)) != os.path.basename(conf)]
            elif "/" in conf and not conf.startswith((".", "/", "~")):
                # a name without .yaml is one of torchtune's own configs (llama3_1/8B_lora), not a file: its settings
                # are the package's (BUILTIN_*), the command line's overrides go over them
                data, known_conf = _checkout_config(doc, conf) or _builtin(conf), True
        for k, v in _overrides(args).items():
            _set(data, k, v)
        fmt = "cmdline"
    else:
        data = doc["data"]
        fmt = doc["fmt"]
        known_conf = True
    data = _resolved(data)
    packed = _packed(data)
    entries = []
    model = data.get("model") if isinstance(data.get("model"), dict) else {}
    if str(model.get("_component_", "")).startswith("torchtune.models.gemma2."):
        # torchtune/models/gemma2/_attention.py:218-222, 331-339 (meta-pytorch/torchtune@bd2a0fc): Gemma2Attention soft-caps
        # with matmul + softmax and raises NotImplementedError on a packed batch's BlockMask: no FlexAttention, no SDPA
        packed = False
    device = str(data.get("device") or "").split(":")[0].strip().lower()
    if packed and device in NO_CUDA_DEVICES:
        # the recipe trains on data["device"] (torchtune/utils/_device.py get_device, which _validate_device_from_env
        # refuses where that device is missing): Apple's MPS, an Ascend NPU, an Intel XPU or a Gaudi HPU, none of them
        # a CUDA machine, where _import_guard.py _SUPPORTS_FLEX_ATTENTION (torch.cuda.is_available() and sm75+) is
        # False, so the packed BlockMask never forms and attention is SDPA (round 136: CLEANR's `device: mps`)
        packed = False
    if packed:
        # attention_utils.py: a BlockMask (packed samples) runs FlexAttention on sm75+; SDPA otherwise
        entries.append(attention("flex_attention", "dataset.packed: True", "flex"))
        # _import_guard.py _SUPPORTS_FLEX_ATTENTION: below sm75 or torch 2.5 the same BlockMask runs as SDPA over a dense
        # block-causal mask (checks/trainer.py off_here reads the gate against the GPUs it sees)
        entries[-1]["gate"] = {"capability": [7, 5], "torch": "2.5.0",
                               "needs": "compute capability 7.5 (sm75) or newer with torch 2.5 or newer",
                               "otherwise": "PyTorch SDPA with a dense block-causal mask"}
    # a `tune run` whose --config is one of torchtune's own (llama3_1/8B_lora) or not here: what the command line
    # overrides is known, the rest is the recipe config's
    comp = data.get("compile")
    comp_on = None if comp is UNRESOLVED else bool(comp) if comp is not None else (False if known_conf else None)
    raw_dtype = data.get("dtype")
    if raw_dtype is UNRESOLVED:
        raw_dtype, dtype = None, None
    elif raw_dtype is None:
        dtype = "float32" if known_conf else None  # get_dtype(None) is float32
    else:
        dtype = DTYPES.get(str(raw_dtype).strip().lower())
    return {
        "trainer": "torchtune", "trainer_title": TITLE + (f" {recipe}" if recipe else ""), "format": fmt,
        "family": None, "mixed_precision": raw_dtype, "dtype": dtype, "attention": entries,
        "compile": {"enabled": comp_on, "mode": "default" if comp_on else None, "setting": "compile"},
        "batch_size": as_int(data.get("batch_size")) if data.get("batch_size") not in (None, UNRESOLVED) else None,
        "packing": [],
        "fixes": {"compile": "compile: True   # in the recipe config (or compile=True on tune run)",
                  "use_default": "dataset.packed: False   # SDPA instead of FlexAttention"},
    }


def parse(path: str, text: str) -> dict:
    from . import make_doc

    return read(make_doc(path, text))
