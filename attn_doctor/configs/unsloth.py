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
import re

from . import NOTHING, STRONG, Score, as_int
from .hf_transformers import entry

TITLE = "Unsloth"
LOADERS = {"FastLanguageModel", "FastModel", "FastVisionModel", "FastLlamaModel", "FastMistralModel",
           "FastQwen2Model", "FastGemmaModel", "FastGemma2Model", "FastCohereModel", "FastFalconH1Model",
           "FastTextModel"}
HONOURS_ATTN = {"FastModel", "FastVisionModel", "FastTextModel"}  # vision.py: attn_implementation is used
TRAINING_ARGS = {"TrainingArguments", "SFTConfig", "UnslothTrainingArguments", "GRPOConfig", "DPOConfig", "ORPOConfig",
                 "KTOConfig", "Seq2SeqTrainingArguments", "RewardConfig"}
DTYPES = {"bfloat16": "bfloat16", "bf16": "bfloat16", "float16": "float16", "half": "float16", "fp16": "float16",
          "float32": "float32", "float": "float32"}
_IMPORT = re.compile(r"^\s*(from\s+unsloth(\.\w+)*\s+import|import\s+unsloth)\b", re.MULTILINE)


def _source(doc: dict) -> str:
    return doc.get("python") or ""


def score(doc: dict) -> Score:
    if doc["fmt"] != "python":
        return NOTHING
    src = _source(doc)
    if not _IMPORT.search(src):
        return NOTHING
    sc = Score().add("import unsloth", 2 * STRONG)
    for name in sorted(LOADERS):
        if f"{name}.from_pretrained" in src:
            sc.add(f"{name}.from_pretrained")
            break
    return sc


def _tree(src: str):
    """The script's syntax tree; notebook shell lines (!cmd, %magic) are blanked so the rest still parses."""
    try:
        return ast.parse(src)
    except SyntaxError:
        cleaned = "\n".join("" if ln.lstrip().startswith(("!", "%")) else ln for ln in src.splitlines())
        try:
            return ast.parse(cleaned)
        except SyntaxError:
            return None


def _constants(tree) -> dict:
    """Simple `name = value` assignments anywhere in the script (the last one wins), as ast nodes."""
    out = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            out[n.targets[0].id] = n.value
        elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and n.value is not None:
            out[n.target.id] = n.value
    return out


def _resolve(node, consts: dict, depth: int = 0):
    if isinstance(node, ast.Name) and node.id in consts and depth < 3:
        return _resolve(consts[node.id], consts, depth + 1)
    return node


def _value(node, consts: dict):
    """A keyword's value: a constant, `torch.bfloat16`-style attribute names, or "?" (decided when the script runs)."""
    node = _resolve(node, consts)
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "torch":
        return f"torch.{node.attr}"
    return "?"


def _calls(tree, names: set) -> list[tuple[str, dict]]:
    out = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Call):
            f = n.func
            owner = f.value.id if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) else None
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            key = owner if owner in names and name == "from_pretrained" else name if name in names else None
            if key:
                out.append((key, {k.arg: k.value for k in n.keywords if k.arg}))
    return out


def _dtype(v) -> str | None:
    if v in (None, "?"):
        return None
    s = str(v).replace("torch.", "").strip().lower()
    return DTYPES.get(s)


def read(doc: dict) -> dict:
    src = _source(doc)
    tree = _tree(src)
    entries = []
    dtype = None
    compile_on = None
    batch = None
    loader = None
    if tree is not None:
        consts = _constants(tree)
        loads = _calls(tree, LOADERS)
        if loads:
            loader, kw = loads[-1]  # the last model loaded is the one trained (a teacher loads first)
            if "dtype" in kw or "torch_dtype" in kw:
                dtype = _dtype(_value(kw.get("dtype", kw.get("torch_dtype")), consts))
            impl = _value(kw["attn_implementation"], consts) if "attn_implementation" in kw else None
            if isinstance(impl, str) and impl != "?" and loader in HONOURS_ATTN:
                e = entry(impl, f'{loader}.from_pretrained(attn_implementation="{impl}")')
                if not e["known"]:
                    e["fix"] = f'attn_implementation="{e["suggestion"] or "sdpa"}"'
                entries.append(e)
        for _name, kw in _calls(tree, TRAINING_ARGS):
            bf16 = _value(kw["bf16"], consts) if "bf16" in kw else None
            fp16 = _value(kw["fp16"], consts) if "fp16" in kw else None
            if dtype is None and bf16 is True:
                dtype = "bfloat16"
            elif dtype is None and fp16 is True:
                dtype = "float16"
            if "torch_compile" in kw:
                tc = _value(kw["torch_compile"], consts)
                compile_on = tc if isinstance(tc, bool) else compile_on
            elif compile_on is None:
                compile_on = False
            if "per_device_train_batch_size" in kw:
                b = _value(kw["per_device_train_batch_size"], consts)
                batch = as_int(b) if b != "?" else batch
    fmt = "notebook" if doc["name"].endswith(".ipynb") else "python"
    return {
        "trainer": "unsloth", "trainer_title": TITLE + (f" {loader}" if loader else ""), "format": fmt,
        "family": None, "mixed_precision": None, "dtype": dtype, "attention": entries,
        "compile": {"enabled": compile_on, "mode": "default" if compile_on else None, "setting": "torch_compile"},
        "batch_size": batch, "packing": [],
        "fixes": {"use_default": "# Unsloth picks FlashAttention 2, xformers or SDPA from what is installed"},
    }


def parse(path: str, text: str) -> dict:
    from . import make_doc

    return read(make_doc(path, text))
