#!/usr/bin/env python3
"""Every message an attention backend's own source raises, and what `attn-doctor explain` reads each as (issue 23:
rules grounded in the backend's source, not in sample logs; helpers ex133 and ex134, merged by rev22b).

Sources are data (SOURCES below): a git mirror from the `fetch` tool (read with git show / ls-tree, no work tree) at
pinned commits, or an installed wheel's files. Two tables, one extractor:

  fa      FlashAttention 2/3/4 (benchmarks/results/explain-source-messages-fa.md). C++ TORCH_CHECK(cond, "msg" ...) and the
          CHECK_DEVICE / CHECK_SHAPE / CHECK_CONTIGUOUS macros, printed as torch prints them (`RuntimeError: <message>`; a
          TORCH_CHECK without a message: `Expected <cond> to be true, but got false.`), and the Python raises/asserts; each
          read with two sets of sample values (a rule must read both), and again under its traceback frame.
  others  xFormers, SageAttention, torch's Flex / SDPA Python side (benchmarks/results/explain-source-messages-others.md):
          Python `raise X(<message>)`, `assert cond, <message>` and xformers' `reasons.append(<message>)` (an operator's
          refusal, printed under "No operator found for `memory_efficient_attention_forward`"), read as printed.

    python benchmarks/source_messages.py fa --rev 0251105a --rev v2.6.3 --md TABLES.md --json ROWS.json
    python benchmarks/source_messages.py others TAG [--before BEFORE_TAG]    # every others source: /tmp/TAG-<key>.{json,md}
    python benchmarks/source_messages.py others TAG --only xf                 # one of them
    python benchmarks/source_messages.py files GITDIR COMMIT PATH... [--json F] [--before F]   # any files (COMMIT -: a folder;
                                                                                               # .py, or C++ TORCH_CHECKs)
    python benchmarks/source_messages.py frameworks TAG [--before BEFORE_TAG]  # frameworks' and trainers' messages (FRAMEWORKS)

  frameworks  the frameworks' and trainers' own messages about attention backends (transformers, diffusers, ComfyUI, musubi-
          tuner / blissful-tuner, sd-scripts, SimpleTuner, ai-toolkit, axolotl, LLaMA-Factory, ms-swift, torchtune, Unsloth,
          accelerate; benchmarks/results/explain-source-messages-frameworks.md): files --logs, which lists logger / warnings
          / print lines beside the raises, only the messages with attention words, each read bare and under a caller frame.

Run with PYTHONPATH set to the checkout whose attn_doctor is measured. Backend source only: nothing under fixtures/.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

MIRRORS = os.environ.get("MIRRORS", "/work/.mirror")

# ---- sources (data) --------------------------------------------------------------------------------------------------

# fa: (backend as attn-doctor names it, path in the repository or a folder of .py files)
SOURCES = (("fa2", "csrc/flash_attn/flash_api.cpp"), ("fa2", "flash_attn/flash_attn_interface.py"), ("fa2", "setup.py"),
           ("fa3", "hopper/flash_api.cpp"), ("fa3", "hopper/flash_attn_interface.py"), ("fa3", "hopper/setup.py"),
           ("cute", "flash_attn/cute/"))
# FA4 files a user's call reaches before any kernel is built: the interface checks its arguments there. The others are
# the kernels' own asserts, evaluated while CuTe DSL compiles a kernel the interface already accepted (internal
# invariants, unless the interface lets a case through); they are listed but not counted as user-reachable.
CUTE_FRONT = {"interface.py", "cute_dsl_utils.py", "block_sparsity.py", "compute_block_sparsity.py", "cache_utils.py",
              "__init__.py", "fa_logging.py", "cute_dsl_ptxas.py"}
CUTE_SKIP = {"benchmark.py", "bench_utils.py", "benchmark_flash_attention_fp8.py", "testing.py",
             "sm90_config_search.py"}  # tools and test helpers, not the library a user's program runs

# Sample values for what a message formats in: two sets, so that a rule matching one literal value shows up.
SAMPLES = ({"dim": "320", "dtype": "torch.float32", "version": "12.1", "arch": "75", "name": "q", "default": "3"},
           {"dim": "72", "dtype": "torch.int8", "version": "11.6", "arch": "61", "name": "k", "default": "5"})


def _sample(expr: str, k: int) -> str:
    s, e = SAMPLES[k], expr.lower()
    for key, words in (("dtype", ("dtype",)), ("version", ("version", "cuda_ver")),
                       ("arch", ("arch", "major", "sm", "capability", "cc")), ("name", ("name",)), ("dim", ("dim", "head", "size", "d_"))):
        if any(w in e for w in words):
            return s[key]
    return s["default"]




# others: key -> (mirror folder under MIRRORS, or "torch" for the installed wheel's site-packages; commit; files). Files a
# commit lacks are skipped (the older releases). Dates: xformers v0.0.35 2026-02-20, v0.0.29 2024-12-26; SageAttention
# main 2026-01-17, v2.0.1 2025-01-27; woct0rdho's fork main 2026-07-17; torch 2.13.0 (git_version cf30153c).
_XF = """xformers/ops/fmha/__init__.py xformers/ops/fmha/common.py xformers/ops/fmha/dispatch.py xformers/ops/fmha/cutlass.py
 xformers/ops/fmha/cutlass_blackwell.py xformers/ops/fmha/flash.py xformers/ops/fmha/flash3.py xformers/ops/fmha/ck.py
 xformers/ops/fmha/ck_splitk.py xformers/ops/fmha/triton_splitk.py xformers/ops/fmha/attn_bias.py
 xformers/ops/fmha/torch_attention_compat.py xformers/ops/fmha/merge_training.py xformers/ops/fmha/small_k.py
 xformers/ops/fmha/ck_decoder.py xformers/ops/common.py xformers/_cpp_lib.py xformers/__init__.py""".split()
_SG = """sageattention/core.py sageattention/quant.py sageattention/fa3_wrapper.py sageattention/__init__.py setup.py
 sageattention3_blackwell/sageattn3/api.py sageattention3_blackwell/setup.py""".split()
_TF = """torch/nn/attention/flex_attention.py torch/_higher_order_ops/flex_attention.py torch/_inductor/kernel/flex/flex_attention.py
 torch/_inductor/kernel/flex/flex_decoding.py torch/_inductor/kernel/flex/flex_flash_attention.py
 torch/_inductor/kernel/flex/flex_cpu.py torch/_inductor/kernel/flex/flex_mps.py torch/_inductor/kernel/flex/common.py
 torch/nn/attention/__init__.py torch/nn/attention/_utils.py torch/nn/attention/bias.py torch/nn/attention/varlen.py
 torch/nn/attention/_registry.py torch/nn/attention/_fa3.py torch/nn/attention/_fa4.py torch/backends/cuda/__init__.py""".split()
OTHERS = {
    "xf": ("facebookresearch+xformers", "03b91d7d9ff295ae68a320e2e733dd6c2ef8f342", _XF),
    "xf29": ("facebookresearch+xformers", "56be3b5e7f390072a5a0e95e5e64916916dc9cd0", _XF),
    "sage": ("thu-ml+SageAttention", "d1a57a546c3d395b1ffcbeecc66d81db76f3b4b5", _SG),
    "sage201": ("thu-ml+SageAttention", "fa1d103d16c5dfd7a3d9f77e46a18c17c5a0ee9b", _SG),
    "sagew": ("woct0rdho+SageAttention", "e14793959abaabe45b8bd95417ed836419c55ee1", _SG),
    "torch": ("torch", "-", _TF),
}

# frameworks (ex138, benchmarks/results/explain-source-messages-frameworks.md): the frameworks' and trainers' own messages
# about attention backends, read with files --logs --grep FRAMEWORK_WORDS. key -> (mirror folder under MIRRORS, or "site"
# for the installed wheel's site-packages (transformers 5.24.0); commit; files). Mirrors fetched 2026-11-30 (HEAD each).
FRAMEWORK_WORDS = r"flash|attn|attention|\bsdpa|\bsdp\b|scaled_dot|xformers|\bsage|flex|mem_eff|\bkernels?\b"
FRAMEWORKS = {
    "tf": ("site", "-", """transformers/integrations/flash_attention.py transformers/integrations/sdpa_attention.py
        transformers/integrations/flex_attention.py transformers/modeling_flash_attention_utils.py
        transformers/integrations/flash_paged.py transformers/integrations/hub_kernels.py transformers/modeling_utils.py"""),
    "df": ("huggingface+diffusers", "58eb52c0803ea9af3abec60841c2a093bdf1f951", """src/diffusers/models/attention_dispatch.py
        src/diffusers/models/attention_processor.py src/diffusers/models/modeling_utils.py src/diffusers/utils/import_utils.py"""),
    "comfy": ("Comfy-Org+ComfyUI", "a125cd84b054a57729b5eecab930ca9408719832", """comfy/ldm/modules/attention.py
        comfy/model_management.py comfy/cli_args.py comfy/ldm/modules/diffusionmodules/model.py"""),
    "musubi": ("kohya-ss+musubi-tuner", "30c658c4f4b0bf05038b3346eff9670259b10fc7", """src/musubi_tuner/hunyuan_model/attention.py
        src/musubi_tuner/wan/modules/attention.py src/musubi_tuner/frame_pack/hunyuan_video_packed.py
        src/musubi_tuner/kandinsky5/models/attention.py src/musubi_tuner/modules/attention.py src/musubi_tuner/hv_train_network.py"""),
    "bliss": ("Sarania+blissful-tuner", "e4ed1f030567798755b28bb84e3a54c8a47f3e04", """src/musubi_tuner/hunyuan_model/attention.py
        src/musubi_tuner/wan/modules/attention.py src/musubi_tuner/kandinsky5_generate_video.py src/musubi_tuner/modules/attention.py"""),
    # helper ex144 (session 24): the model files' and scripts' own attention checks beside the attention modules above (FramePack's
    # packed HunyuanVideo, Wan's model, Qwen-Image, FLUX, HiDream-O1's --sage_attn / --flash_attn refusals, the generate scripts'
    # split_attn), and blissful-tuner's additions (its FramePack, Wan training script, Kandinsky 5 training, its own utils)
    "musubi2": ("kohya-ss+musubi-tuner", "30c658c4f4b0bf05038b3346eff9670259b10fc7", """src/musubi_tuner/qwen_image/qwen_image_model.py
        src/musubi_tuner/hidream_o1_train.py src/musubi_tuner/hidream_o1/qwen3_vl_transformers.py src/musubi_tuner/frame_pack/hunyuan.py
        src/musubi_tuner/frame_pack/hunyuan_video_packed_inference.py src/musubi_tuner/flux/flux_models.py
        src/musubi_tuner/hunyuan_model/models.py src/musubi_tuner/hunyuan_model/token_refiner.py src/musubi_tuner/hv_generate_video.py
        src/musubi_tuner/wan/modules/model.py src/musubi_tuner/wan_train_network.py src/musubi_tuner/qwen_image_train_network.py
        src/musubi_tuner/fpack_train_network.py src/musubi_tuner/ideogram4/ideogram4_utils.py"""),
    "bliss2": ("Sarania+blissful-tuner", "e4ed1f030567798755b28bb84e3a54c8a47f3e04", """src/musubi_tuner/frame_pack/hunyuan_video_packed.py
        src/musubi_tuner/qwen_image/qwen_image_model.py src/musubi_tuner/kandinsky5/models/attention.py src/musubi_tuner/wan_train_network.py
        src/musubi_tuner/wan/modules/model.py src/musubi_tuner/kandinsky5_train_network.py src/musubi_tuner/hv_generate_video.py
        src/musubi_tuner/hunyuan_model/models.py src/blissful_tuner/utils.py src/blissful_tuner/advanced_rope.py"""),
    "sds": ("kohya-ss+sd-scripts", "48d368fa557731ad0488c07304dfeba8c07910eb", """library/train_util.py library/attention.py
        library/original_unet.py library/sdxl_original_unet.py gen_img.py"""),
    "st": ("bghira+SimpleTuner", "bc8e6ab7738ce457a2ed8eb2d26cadd91c6442cb", """simpletuner/helpers/training/attention_backend.py
        simpletuner/helpers/training/trainer.py simpletuner/helpers/configuration/cmd_args.py
        simpletuner/helpers/models/flux/attention.py"""),
    "aitk": ("ostris+ai-toolkit", "27a03a91f23eb1b757d5ec2e80ee3e129cfcc350", """jobs/process/BaseSDTrainProcess.py
        toolkit/stable_diffusion_model.py toolkit/models/base_model.py"""),
    "axo": ("axolotl-ai-cloud+axolotl", "067b021c8b87a9e5e380b9173c704cf7340e30f5", """src/axolotl/monkeypatch/attention/sage_attn.py
        src/axolotl/monkeypatch/llama_attn_hijack_flash.py src/axolotl/loaders/patch_manager.py src/axolotl/loaders/model.py
        src/axolotl/utils/schemas/validation.py src/axolotl/utils/schemas/config.py src/axolotl/utils/schemas/deprecated.py
        src/axolotl/monkeypatch/scaled_softmax_attn.py"""),
    "lf": ("hiyouga+LLaMA-Factory", "ff6d4d12eeb035d6ce06805a5733dd7b29f2ac30", """src/llamafactory/model/model_utils/attention.py
        src/llamafactory/model/patcher.py src/llamafactory/hparams/parser.py src/llamafactory/hparams/model_args.py"""),
    "swift": ("modelscope+ms-swift", "3602360a562313afbf2ef6065fdf61f271a2c5b9", """swift/arguments/sft_args.py
        swift/arguments/base_args/model_args.py swift/model/register.py swift/megatron/arguments/megatron_args.py
        swift/sequence_parallel/sequence_parallel.py"""),
    "tt": ("pytorch+torchtune", "bd2a0fc7c31430972728494fa01aaeeb0ebf1ba1", """torchtune/training/_distributed.py
        torchtune/modules/attention_utils.py torchtune/models/llama4/_chunked_attention.py torchtune/utils/_import_guard.py"""),
    "uns": ("unslothai+unsloth", "015bdef0d94a241bcd94eec7a405b1700632180d", """unsloth/import_fixes.py unsloth/models/_utils.py
        unsloth/utils/attention_dispatch.py unsloth/models/llama.py unsloth/models/loader.py unsloth/__init__.py"""),
    "acc": ("huggingface+accelerate", "16cb6eb80dd9aa8b4df1a63ef57863e455d53b83", """src/accelerate/utils/imports.py
        src/accelerate/accelerator.py src/accelerate/utils/dataclasses.py"""),
}

# others: a value for an f-string field, by the words in its expression (first hit wins); the rest print as 64
_SAMPLES = (
    ("dtype", "torch.float32"), ("device", "cpu"), ("shape", "torch.Size([2, 4096, 8, 64])"),
    ("capability", "(12, 0)"), ("arch", "sm_120"), ("version", "2.4.0"), ("layout", "NHD"),
    ("name", "q"), ("op", "fa3F@0.0.0"), ("mode", "default"), ("type", "NoneType"), ("bias", "LowerTriangularMask"),
)


# files --logs (the frameworks' table): values of the frameworks' own fields, consulted first; a key of several words
# needs them all. FlashAttention's version is 2 here (3 and 4 are tests' variants).
FRAMEWORK_SAMPLES = (
    ("preface", "FlashAttention2 has been toggled on, but it cannot be used due to the following error:"),
    ("flash attn version", "2"), ("device names", "('cuda', 'xpu')"), ("cuda min major version", "8"),
    ("get device capability", "(7, 5)"), ("major", "7"), ("class name", "Qwen2ForCausalLM"),
    ("name or path", "Qwen/Qwen2-7B"), ("attn implementation", "flash_attention_2"),
    ("implementation", "flash_attention_2"), ("attention mode", "flash"), ("attn mode", "flash"),
    ("xformers version", "0.0.18"), ("compute capability", "(7, 5)"),
)


def sample(expr: str, extra: tuple = ()) -> str:
    words = set(re.findall(r"[a-z]+", expr.lower().replace("_", " ")))
    for key, value in extra:
        if set(key.split()) <= words:
            return value
    for word, value in _SAMPLES:
        if word in words:
            return value
    return "64"


def git_show(mirror: str, rev: str, path: str) -> str | None:
    r = subprocess.run(["git", "-C", mirror, "show", f"{rev}:{path}"], capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else None


def git_ls(mirror: str, rev: str, folder: str) -> list[str]:
    r = subprocess.run(["git", "-C", mirror, "ls-tree", "--name-only", rev, folder], capture_output=True, text=True)
    return [p for p in r.stdout.split() if p.endswith(".py")]



# ---- Python sources: one walker and one renderer for both tables ------------------------------------------------------

def render(node: ast.AST, fill) -> str | None:
    """The message a node builds (None: not a string); each formatted value is fill(<its expression as code>)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(str(p.value) if isinstance(p, ast.Constant) else fill(ast.unparse(p.value)) for p in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        left = render(node.left, fill)
        if left is None:
            return None
        if isinstance(node.op, ast.Mod):
            return re.sub(r"%[sdrf]", lambda _: fill(""), left)
        right = render(node.right, fill)
        return None if right is None else left + right
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        base = render(node.func.value, fill)
        return None if base is None else re.sub(r"\{[^{}]*\}", lambda m: fill(m.group(0)), base)
    return None


# files --logs: a logger's or warnings' call, or print(...), is a message a user quotes too (a trainer's refusal, a fallback)
LOG_CALLS = {"warning", "warn", "error", "critical", "fatal", "exception", "warning_once", "warn_once", "error_once",
             "warning_rank0", "warning_main_process", "warning_advice"}


def _log_site(node: ast.AST):
    """(kind, category) of a logging / warnings.warn / print call, or None."""
    if not isinstance(node, ast.Call) or not node.args:
        return None
    if isinstance(node.func, ast.Name) and node.func.id == "print":
        return "print", ""
    if isinstance(node.func, ast.Attribute) and node.func.attr in LOG_CALLS:
        owner = ast.unparse(node.func.value)
        if owner == "warnings":
            cat = ast.unparse(node.args[1]).split(".")[-1] if len(node.args) > 1 else "UserWarning"
            return "warn", cat
        if "log" in owner.lower():
            return "log", node.func.attr.split("_")[0].upper().replace("WARN", "WARNING").replace("WARNINGING", "WARNING")
    return None


def raise_sites(tree: ast.AST, logs: bool = False):
    """(node, kind, exception class, message node) of every raise / assert with a message / reasons.append(...); with
    logs, every logger.warning/error(...), warnings.warn(...) and print(...) too (kind log / warn / print)."""
    for node in ast.walk(tree):
        site = _log_site(node) if logs else None
        if site:
            yield node, site[0], site[1], node.args[0]
            continue
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
            yield node, "raise", ast.unparse(node.exc.func).split(".")[-1], node.exc.args[0]
        elif isinstance(node, ast.Assert) and node.msg is not None:
            yield node, "assert", "AssertionError", node.msg
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "append"
              and isinstance(node.func.value, ast.Name) and node.func.value.id == "reasons" and node.args):
            yield node, "reason", "", node.args[0]


def py_messages(src: str) -> list[dict]:
    """The fa table's rows of a Python file: each message with both sample sets (reasons: FlashAttention has none)."""
    found = []
    try:
        tree = ast.parse(src)
    except SyntaxError:
        return found
    for node, kind, exc, msg in raise_sites(tree):
        if kind == "reason":
            continue
        texts = [render(msg, lambda e, k=k: _sample(e, k)) for k in (0, 1)]
        if texts[0] is None:
            continue
        cond = "raise " + exc if kind == "raise" else " ".join((ast.get_source_segment(src, node.test) or "").split())
        found.append({"line": node.lineno, "kind": kind, "condition": cond,
                      "printed": [f"{exc}: {_squash(t)}" for t in texts]})
    return sorted(found, key=lambda f: f["line"])


def _condition(node: ast.AST, parents: dict) -> str:
    """The test under which the message is raised, as code (the nearest enclosing `if`; an assert's own)."""
    if isinstance(node, ast.Assert):
        return f"not ({ast.unparse(node.test)})"
    up = parents.get(node)
    while up is not None and not isinstance(up, (ast.If, ast.FunctionDef)):
        up = parents.get(up)
    return ast.unparse(up.test) if isinstance(up, ast.If) else ""


def _function(node: ast.AST, parents: dict) -> str:
    up = parents.get(node)
    while up is not None and not isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef)):
        up = parents.get(up)
    return up.name if up is not None else "<module>"


def messages(source: str, path: str, logs: bool = False, grep: re.Pattern | None = None) -> list[dict]:
    """The others table's rows of a Python file: each message with one sample (sample()), where and when it is raised
    (logs: log / warn / print calls too; grep: only messages it finds a match in)."""
    rows = []
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    fill = (lambda e: sample(e, FRAMEWORK_SAMPLES)) if logs else sample
    for node, kind, exc, msg_node in raise_sites(tree, logs):
        msg = render(msg_node, fill)
        if msg and msg.strip() and (grep is None or grep.search(msg)):
            rows.append({"where": f"{path}:{node.lineno}", "kind": kind, "exc": exc, "message": msg.strip(),
                         "condition": _condition(node, parents), "function": _function(node, parents)})
    return sorted(rows, key=lambda r: int(r["where"].rsplit(":", 1)[1]))


# ---- C++ ------------------------------------------------------------------------------------------------------------

def _balanced(src: str, i: int) -> int:
    """Index just past the parenthesis matching src[i] == '(' (string and char literals skipped)."""
    depth, j = 0, i
    while j < len(src):
        c = src[j]
        if c in "\"'":
            j = _skip_literal(src, j)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return j


def _skip_literal(src: str, j: int) -> int:
    q, j = src[j], j + 1
    while j < len(src) and src[j] != q:
        j += 2 if src[j] == "\\" else 1
    return j + 1


def _split_args(body: str) -> list[str]:
    out, depth, cur, j = [], 0, [], 0
    while j < len(body):
        c = body[j]
        if c in "\"'":
            k = _skip_literal(body, j)
            cur.append(body[j:k])
            j = k
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        j += 1
    out.append("".join(cur).strip())
    return out


def _squash(t: str) -> str:
    return " ".join(t.split())


_LIT = re.compile(r'"((?:[^"\\]|\\.)*)"')


def _cpp_message(parts: list[str], k: int) -> str:
    """TORCH_CHECK's message: its arguments streamed one after another (c10::str), literals as written."""
    out = []
    for p in parts:  # each: literals, adjacent ("a" "b") or joined by + with values (std::to_string(n))
        pieces = _LIT.split(p)  # code, literal, code, literal, ..., code
        for i, piece in enumerate(pieces):
            if i % 2:
                out.append(bytes(piece, "utf-8").decode("unicode_escape"))
            elif piece.strip(" \t\n+"):
                out.append(_sample(piece, k))
    return "".join(out)


MACROS = {"CHECK_DEVICE": "{x} must be on CUDA", "CHECK_CONTIGUOUS": "{x} must be contiguous",
          "CHECK_SHAPE": "{x} must have shape ({rest})"}


def cpp_messages(src: str) -> list[dict]:
    found = []
    for m in re.finditer(r"\b(TORCH_CHECK|CHECK_DEVICE|CHECK_CONTIGUOUS|CHECK_SHAPE)\s*\(", src):
        start = m.end() - 1
        line = src.count("\n", 0, m.start()) + 1
        if src[src.rfind("\n", 0, m.start()) + 1:m.start()].lstrip().startswith("#define"):
            continue
        args = _split_args(src[start + 1:_balanced(src, start) - 1])
        name = m.group(1)
        if name in MACROS:
            text = MACROS[name].format(x=args[0], rest=", ".join(args[1:]))
            found.append({"line": line, "kind": name, "condition": " ".join(args[0].split()),
                          "printed": [f"RuntimeError: {text}"] * 2})
            continue
        cond = " ".join(args[0].split())
        if len(args) == 1:
            text = [f"Expected {cond} to be true, but got false.  (Could this error message be improved?  If so, "
                    "please report an enhancement request to PyTorch.)"] * 2
        else:
            text = [_cpp_message(args[1:], k) for k in (0, 1)]
        found.append({"line": line, "kind": "TORCH_CHECK", "condition": cond,
                      "printed": [f"RuntimeError: {_squash(t)}" for t in text]})
    return found


# ---- explain ---------------------------------------------------------------------------------------------------------

# The frame a traceback shows above the message: where the installed package calls the extension (C++ checks) or the
# file that raises (Python). A log quoting the message quotes this frame with it, or does not: both are judged.
FRAME = {"fa2": ("flash_attn/flash_attn_interface.py", "_flash_attn_forward", "flash_attn_gpu.fwd("),
         "fa3": ("flash_attn_3/flash_attn_interface.py", "_flash_attn_forward", "torch.ops.flash_attn_3.fwd("),
         "cute": ("flash_attn/cute/interface.py", "_flash_attn_fwd", "_flash_attn_fwd_kernel(")}
SITE = "/opt/conda/envs/train/lib/python3.11/site-packages/"


def framed(backend: str, path: str, line: int, printed: str) -> str:
    if path.endswith("setup.py"):  # a build: pip prints the setup script's traceback
        where, func, code = f"/tmp/pip-install-x/flash-attn_1/{path}", "<module>", "..."
    elif path.endswith(".py"):
        where, func, code = SITE + (path.replace("hopper/", "flash_attn_3/")), "<func>", "..."
    else:
        where, func, code = SITE + FRAME[backend][0], FRAME[backend][1], FRAME[backend][2]
    return (f"Traceback (most recent call last):\n  File \"{where}\", line {line}, in {func}\n    {code}\n"
            f"{printed}\n")


def read_as(text: str) -> tuple[str | None, str | None]:
    from attn_doctor.explain import match
    found = match(text)
    return (found[0].entry.id, found[0].backend) if found else (None, None)


def reachable(backend: str, path: str) -> bool:
    return backend != "cute" or Path(path).name in CUTE_FRONT


def collect(mirror: str, revs: list[str]) -> list[dict]:
    rows, seen = [], {}
    for rev in revs:
        commit = subprocess.run(["git", "-C", mirror, "rev-parse", rev], capture_output=True, text=True).stdout.strip()
        for backend, path in SOURCES:
            paths = [p for p in git_ls(mirror, rev, path) if Path(p).name not in CUTE_SKIP] if path.endswith("/") else [path]
            for p in paths:
                src = git_show(mirror, rev, p)
                if src is None:
                    continue
                for f in cpp_messages(src) if p.endswith(".cpp") else py_messages(src):
                    key = (backend, f["printed"][0])
                    if key in seen:
                        seen[key]["also"].append(f"{p}:{f['line']}@{commit[:10]}")
                        continue
                    row = dict(f, backend=backend, path=p, commit=commit, rev=rev, also=[],
                               reachable=reachable(backend, p))
                    seen[key] = row
                    rows.append(row)
    return rows


def judge(rows: list[dict]) -> None:
    for r in rows:
        reads = [read_as(t) for t in r["printed"]]
        r["entry"], r["got_backend"] = reads[0]
        r["variant_entry"], r["variant_backend"] = reads[1]
        r["right"] = all(b == r["backend"] for _, b in reads)
        r["framed_entry"], r["framed_backend"] = read_as(framed(r["backend"], r["path"], r["line"], r["printed"][1]))


def _cell(s: str, n: int = 110) -> str:
    s = s.replace("|", "\\|")
    return s if len(s) <= n else s[:n - 1] + "…"


def markdown(rows: list[dict]) -> str:
    out = []
    for backend in ("fa2", "fa3", "cute"):
        mine = [r for r in rows if r["backend"] == backend]
        reach = [r for r in mine if r["reachable"]]
        out.append(f"\n### {backend}: {len(mine)} messages, {len(reach)} user-reachable; "
                   f"read {sum(bool(r['entry']) for r in reach)}, right backend both samples "
                   f"{sum(r['right'] for r in reach)}; under its traceback frame: read {sum(bool(r['framed_entry']) for r in reach)}, "
                   f"right backend {sum(r['framed_backend'] == backend for r in reach)}\n")
        out.append("| where | printed (sample 1) | condition | reach | read as (sample 1 / 2) | backend | framed |")
        out.append("|---|---|---|---|---|---|---|")
        for r in mine:
            where = f"{r['path']}:{r['line']}@{r['commit'][:10]}"
            read = f"{r['entry'] or '-'} / {r['variant_entry'] or '-'}"
            got = f"{r['got_backend'] or '-'}/{r['variant_backend'] or '-'}" + (" ok" if r["right"] else "")
            out.append(f"| {where} | `{_cell(r['printed'][0])}` | {_cell(r['condition'], 60)} | "
                       f"{'user' if r['reachable'] else 'internal'} | {read} | {got} | "
                       f"{r['framed_entry'] or '-'}/{r['framed_backend'] or '-'} |")
    return "\n".join(out) + "\n"


def printed(row: dict) -> str:
    """The text as a user's log shows it."""
    if row["kind"] == "log":  # a logging line: the level, then the message (formats differ; the words do not)
        return f"{row['exc']} {row['message']}"
    if row["kind"] == "warn":
        return f"{row['where']}: {row['exc']}: {row['message']}"
    if row["kind"] == "print":
        return row["message"]
    if row["kind"] == "reason":  # under the dispatcher's refusal, one operator's reason
        return ("NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:\n"
                "     query       : shape=(1, 4096, 8, 64) (torch.float16)\n"
                "`cutlassF-pt` is not supported because:\n    " + row["message"])
    return f"{row['exc']}: {row['message']}"


def read(row_text: str) -> list[tuple[str, str | None]]:
    import explain_heldout as h
    fn, feed, _ = h._resolve(None)
    return [(h.match_id(m), h.match_backend(m)) for m in h.run_matcher(fn, feed, row_text)]


def framed_text(row: dict) -> str:
    """The message under a caller frame of the file that says it (a traceback's last frame; a log line's origin)."""
    path, line = row["where"].rsplit(":", 1)
    if row["kind"] in ("log", "warn", "print"):
        return f"[2026-11-30 10:00:00,000] [{path}:{line}] {printed(row)}\n"
    if path.endswith(CPP):  # a C++ check: torch prints where it was raised under the message
        return f"{printed(row)}\nException raised from check at /build/{path}:{line} (most recent call first):\n"
    return (f"Traceback (most recent call last):\n  File \"{SITE}{path.removeprefix('src/')}\", line {line}, in "
            f"{row.get('function', '<module>')}\n    ...\n{printed(row)}\n")


# files --expect: the backend a message is about, from the words it uses (first hit wins; None: no one backend)
_BACKEND_WORDS = (("fa3", r"flash.?attn.?v?3|flash.?attention.?v?3|\bfa3\b|flash3|_3_hub|hopper|FA version 3"),
                  ("cute", r"flash.?attn.?v?4|flash.?attention.?v?4|\bfa4\b|cute|FA version 4"),
                  ("sage", r"\bsage"), ("xformers", r"xformers|mem_eff|memory.efficient"),
                  ("flex", r"flex.?attention|\bflex\b"),
                  ("fa2", r"flash.?attn|flash.?attention|\bfa2\b|\bflash\b"),
                  ("sdpa", r"sdpa|scaled_dot_product|\bsdp\b"))


def expected_backend(message: str) -> str | None:
    for backend, pattern in _BACKEND_WORDS:
        if re.search(pattern, message, re.I):
            return backend
    return None


def _reading(row: dict) -> str:
    got = ", ".join(f"{i} ({b})" for i, b in row["read_as"][:2]) or "none"
    if "alone" in row:
        got += "; alone: " + (", ".join(f"{i} ({b})" for i, b in row["alone"][:2]) or "none")
    return got


# ---- command line ------------------------------------------------------------------------------------------------------

def fa_main(a) -> int:
    rows = collect(a.mirror, a.rev or ["HEAD"])
    judge(rows)
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1))
    if a.md:
        Path(a.md).write_text(markdown(rows))
    for backend in ("fa2", "fa3", "cute"):
        reach = [r for r in rows if r["backend"] == backend and r["reachable"]]
        print(f"{backend}: {len(reach)} user-reachable, read {sum(bool(r['entry']) for r in reach)}, "
              f"right backend (both samples) {sum(r['right'] for r in reach)}; framed: read "
              f"{sum(bool(r['framed_entry']) for r in reach)}, right backend "
              f"{sum(r['framed_backend'] == backend for r in reach)}")
    return 0


def _site_packages() -> str:
    import torch
    return os.path.dirname(os.path.dirname(torch.__file__))


def _source(gitdir: str, commit: str, path: str) -> str | None:
    if commit == "-":
        p = Path(gitdir) / path
        return p.read_text() if p.exists() else None
    return git_show(gitdir, commit, path)


CPP = (".cpp", ".cu", ".h", ".hpp", ".cuh", ".mu")  # .mu: MUSA C++ (Moore Threads)


def cpp_rows(src: str, path: str) -> list[dict]:
    """The others table's rows of a C++ file (a fork's extension: ROCm's CK build, MUSA's): its TORCH_CHECKs as torch prints
    them (cpp_messages, first sample)."""
    return [{"where": f"{path}:{f['line']}", "kind": f["kind"], "exc": "RuntimeError",
             "message": f["printed"][0].split(": ", 1)[1], "condition": f["condition"]} for f in cpp_messages(src)]


def table(gitdir: str, commit: str, paths: list[str], json_out: str | None, before_json: str | None,
          logs: bool = False, grep: str | None = None, framed: bool = False) -> str:
    """The others table of some files (markdown); the rows to json_out; an earlier run's reading beside (before_json).
    logs / grep: the frameworks' table (log and print lines too, only the messages grep finds; framed reading too).
    framed: the raises only, each read framed as well (a vendor library's file in the frame: helper ex144)."""
    rows, pattern = [], re.compile(grep, re.I) if grep else None
    for path in paths:
        src = _source(gitdir, commit, path)
        if src is None:  # a file this commit lacks
            continue
        for row in cpp_rows(src, path) if path.endswith(CPP) else messages(src, path, logs, pattern):
            row["read_as"] = read(printed(row))
            if row["kind"] == "reason":  # the reason pasted alone (a title, a quoted line)
                row["alone"] = read(row["message"])
            if logs or framed:
                row["framed"] = read(framed_text(row))
                row["expect"] = expected_backend(row["message"])
            rows.append(row)
    if before_json:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from results_io import load_json  # rows kept under benchmarks/results/ may be packed
    before = {r["where"]: r for r in load_json(before_json)} if before_json else {}
    extra = ["about", "framed"] if logs or framed else []
    out = [f"{commit[:10]}: {len(rows)} messages\n",
           "| " + " | ".join(["where", "kind", "message (as rendered)", "raised when", "read as"] + extra
                            + (["before"] if before else [])) + " |",
           "|---|---|---|---|---" + "|---" * len(extra) + ("|---" if before else "") + "|"]
    for r in rows:
        cells = [r["where"], f"{r['kind']} {r['exc']}".strip(), r["message"][:160], r["condition"][:80], _reading(r)]
        if logs or framed:
            cells += [r["expect"] or "-", ", ".join(f"{i} ({b})" for i, b in r["framed"][:1]) or "none"]
        if before:
            cells.append(_reading(before[r["where"]]) if r["where"] in before else "")
        out.append("| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |")
    if json_out:
        Path(json_out).write_text(json.dumps(rows, indent=1))
    return "\n".join(out) + "\n"


def tables(sources: dict, a, **kw) -> int:
    """One table per source (key -> (mirror folder, or "torch" / "site" for the installed wheels; commit; files)):
    /tmp/TAG-<key>.{json,md}, an earlier run's reading beside (--before), only some keys (--only); kw: table()'s."""
    for key, (mirror, commit, files) in sources.items():
        if a.only and key not in a.only:
            continue
        gitdir = _site_packages() if mirror in ("torch", "site") else f"{MIRRORS}/{mirror}/repo"
        before = f"/tmp/{a.before}-{key}.json" if a.before else None
        paths = files.split() if isinstance(files, str) else files
        md = table(gitdir, commit, paths, f"/tmp/{a.tag}-{key}.json", before, **kw)
        Path(f"/tmp/{a.tag}-{key}.md").write_text(md)
        print(f"{key}: {md.splitlines()[0]} -> /tmp/{a.tag}-{key}.md")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fa", help="FlashAttention 2/3/4 from its mirror")
    f.add_argument("--mirror", default=f"{MIRRORS}/Dao-AILab+flash-attention/repo")
    f.add_argument("--rev", action="append", help="commits or tags, newest first (default HEAD)")
    f.add_argument("--md", help="write the tables here")
    f.add_argument("--json", help="write every row here")
    o = sub.add_parser("others", help="xFormers, SageAttention, torch's Flex/SDPA (OTHERS): /tmp/TAG-<key>.{json,md}")
    o.add_argument("tag")
    o.add_argument("--before", help="an earlier run's TAG: its reading in a column of its own")
    o.add_argument("--only", action="append", help="one key of OTHERS (repeatable)")
    w = sub.add_parser("frameworks", help="the frameworks' and trainers' messages (FRAMEWORKS): /tmp/TAG-<key>.{json,md}")
    w.add_argument("tag")
    w.add_argument("--before", help="an earlier run's TAG: its reading in a column of its own")
    w.add_argument("--only", action="append", help="one key of FRAMEWORKS (repeatable)")
    g = sub.add_parser("files", help="any Python or C++ files: a table on stdout")
    g.add_argument("gitdir")
    g.add_argument("commit", help="a commit of the git dir, or - for files under the folder gitdir")
    g.add_argument("paths", nargs="+")
    g.add_argument("--json", help="write the rows here too")
    g.add_argument("--before", help="rows an earlier run wrote (--json): their reading in a column of its own")
    g.add_argument("--logs", action="store_true", help="log / warnings / print calls too, each read framed as well")
    g.add_argument("--grep", help="only messages this regular expression finds (case-insensitive)")
    g.add_argument("--framed", action="store_true", help="each message read under a frame of its file as well (no log lines)")
    a = ap.parse_args(argv)
    if a.cmd == "fa":
        return fa_main(a)
    if a.cmd == "others":
        return tables(OTHERS, a)
    if a.cmd == "frameworks":
        return tables(FRAMEWORKS, a, logs=True, grep=FRAMEWORK_WORDS)
    print(table(a.gitdir, a.commit, a.paths, a.json, a.before, a.logs, a.grep, a.framed), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
