"""Installed distributions of the attention stack, read from their metadata without importing them.

The directories searched are the checked interpreter's sys.path: the doctor's own, or the one that
`--python` names, asked of it (facts/interpreter.py)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import site
import sys
from importlib import machinery
from importlib.metadata import PathDistribution
from pathlib import Path

from packaging.utils import canonicalize_name
from ..textutil import parse_python

# Distributions whose metadata the report records (their Requires-Dist is checked against the rest).
STACK = (
    "torch", "triton", "flash-attn-4", "flash-attn", "flash-attn-3", "flashattn-hopper",
    "quack-kernels", "nvidia-cutlass-dsl", "nvidia-cutlass-dsl-libs-base", "nvidia-cutlass-dsl-libs-core",
    "nvidia-cutlass-dsl-libs-cu12", "nvidia-cutlass-dsl-libs-cu13", "apache-tvm-ffi", "torch-c-dlpack-ext",
    "sageattention", "xformers", "nvidia-cuda-nvcc", "nvidia-cuda-nvcc-cu12", "nvidia-cuda-nvcc-cu13",
    "diffusers", "cuda-bindings", "einops",
)
_DIST_DIR = re.compile(r"^(?P<name>[^-]+)-(?P<version>[^-]+?)(-py[^-]*)?\.(dist-info|egg-info)$")
FA2_TAG = re.compile(r"\+cu(?P<cuda>\d+)torch(?P<torch>\d+\.\d+)cxx11abi(?P<abi>TRUE|FALSE)", re.IGNORECASE)


def path_entries() -> list[str]:
    out = []
    for p in sys.path:
        p = p or os.getcwd()
        if p not in out and os.path.isdir(p):
            out.append(p)
    return out


def site_dirs() -> list[str]:
    """Directories whose .pth files Python processes at start-up."""
    dirs = []
    try:
        dirs += site.getsitepackages()
    except AttributeError:
        pass
    try:
        if site.ENABLE_USER_SITE:
            dirs.append(site.getusersitepackages())
    except AttributeError:
        pass
    return [os.path.realpath(d) for d in dirs]


def scan_dists(entries: list[str]) -> dict[str, list[dict]]:
    """Every distribution on sys.path by canonical name, first (the one Python uses) first."""
    found: dict[str, list[dict]] = {}
    for entry in entries:
        try:
            names = os.listdir(entry)
        except OSError:
            continue
        for n in sorted(names):
            m = _DIST_DIR.match(n)
            if not m:
                continue
            name = canonicalize_name(m.group("name"))
            found.setdefault(name, []).append({"path": os.path.join(entry, n), "dir_version": m.group("version"),
                                               "location": entry})
    return found


def read_dist(path: str) -> dict:
    d = PathDistribution(Path(path))
    info: dict = {"path": path, "location": str(Path(path).parent)}
    try:
        meta = d.metadata
        info["name"] = meta["Name"]
        info["version"] = meta["Version"]
        info["requires"] = list(d.requires or [])
        if not info["name"] or not info["version"]:  # Python < 3.12 answers None, not an error
            raise ValueError("METADATA is missing, empty or has no Name/Version")
    except Exception as e:  # corrupted or missing METADATA
        info["error"] = f"{type(e).__name__}: {e}"
        info.setdefault("name", None)
        info.setdefault("version", None)
        info["requires"] = []
    try:
        raw = d.read_text("direct_url.json")
        if raw:
            info["direct_url"] = json.loads(raw).get("url")
    except Exception:
        pass
    try:
        info["installer"] = (d.read_text("INSTALLER") or "").strip() or None
    except Exception:
        pass
    url = info.get("direct_url") or ""
    m = FA2_TAG.search(url) or FA2_TAG.search(info.get("version") or "")
    if m:
        info["build_tag"] = {"cuda": m.group("cuda"), "torch": m.group("torch"), "cxx11abi": m.group("abi").upper() == "TRUE"}
    return info


def recorded(path: str, prefix: str) -> dict[str, str]:
    """RECORD's entries under `prefix`: relative path -> its hash ('sha256=...', or '' where none)."""
    try:
        raw = PathDistribution(Path(path)).read_text("RECORD") or ""
    except Exception:
        return {}
    out = {}
    for line in raw.splitlines():
        if line.startswith(prefix):
            parts = line.split(",")
            out[parts[0]] = parts[1] if len(parts) > 1 else ""
    return out


def _sha256(path: Path) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(path.read_bytes()).digest()).rstrip(b"=").decode()


def flash_attn_layout(entries: list[str], dists: dict) -> dict:
    """Where `flash_attn` resolves and who put its files there: FA2 and FA4 share the name.

    flash-attn (FA2) wheels up to 2.8.3 list an old flash_attn/cute/ too: installed beside flash-attn-4,
    the last install wins file by file, and uninstalling either deletes the files both list (measured on
    an H100, fixtures/gpu/h100-issue25/hold3). So besides who lists what: whose copy each shared file is
    now (its hash against each RECORD), and which of flash-attn-4's own files are gone."""
    copies = []
    for entry in entries:
        root = os.path.join(entry, "flash_attn")
        if not os.path.isdir(root):
            continue
        copies.append({
            "path": root,
            "has_init": os.path.isfile(os.path.join(root, "__init__.py")),
            "has_cute": os.path.isfile(os.path.join(root, "cute", "__init__.py")),
            "has_fa2_interface": os.path.isfile(os.path.join(root, "flash_attn_interface.py")),
        })
    owners: dict[str, list[str]] = {}
    records: dict[str, tuple[Path, dict[str, str]]] = {}
    for dname in ("flash-attn", "flash-attn-4"):
        for rec in dists.get(dname, [])[:1]:
            entries_ = recorded(rec["path"], "flash_attn/")
            files = [f for f in entries_ if f.startswith("flash_attn/cute/")]
            if files:
                owners[dname] = sorted({f.split("/")[-1] for f in files if f.endswith(".py")})
            records[dname] = (Path(rec["path"]).parent, entries_)
    out: dict = {"copies": copies, "cute_owners": {k: len(v) for k, v in owners.items()}}
    if "flash-attn-4" in records:
        base, fa4 = records["flash-attn-4"]
        gone = [f for f in fa4 if f.endswith(".py") and not (base / f).is_file()]
        out["fa4_missing"] = {"count": len(gone), "of": sum(1 for f in fa4 if f.endswith(".py")),
                              "example": gone[0] if gone else None}
    if len(records) == 2:
        base, fa4 = records["flash-attn-4"]
        fa2 = records["flash-attn"][1]
        now = {"flash-attn-4": 0, "flash-attn": 0, "neither": 0, "missing": 0}
        for f in sorted(set(fa4) & set(fa2)):
            if not f.endswith(".py"):
                continue
            p = base / f
            if not p.is_file():
                now["missing"] += 1
                continue
            try:
                h = _sha256(p)
            except OSError:
                now["neither"] += 1
                continue
            who = [d for d, hv in (("flash-attn-4", fa4[f]), ("flash-attn", fa2[f])) if hv == h]
            now[who[0] if who else "neither"] += 1
        out["cute_shared"] = now
    return out


def cutlass_layout(dists: dict, entries: list[str] | None = None, sites: list[str] | None = None) -> dict:
    """nvidia-cutlass-dsl reaches sys.path only through a .pth file; --target installs skip it."""
    recs = dists.get("nvidia-cutlass-dsl", [])
    if not recs:
        return {"installed": False}
    loc = recs[0]["location"]
    pth = os.path.join(loc, "nvidia_cutlass_dsl_packages.pth")
    dsl = os.path.join(loc, "nvidia_cutlass_dsl", "dsl_packages")
    spec = machinery.PathFinder.find_spec("cutlass", entries)  # None: this process's sys.path
    return {
        "installed": True,
        "location": loc,
        "pth_file": pth if os.path.exists(pth) else None,
        "location_is_site_dir": os.path.realpath(loc) in (site_dirs() if sites is None else sites),
        "dsl_packages": dsl if os.path.isdir(dsl) else None,
        "cutlass_on_path": spec is not None,
    }


def xformers_build(dists: dict) -> dict | None:
    """xformers records the torch it was compiled against in cpp_lib.json."""
    for rec in dists.get("xformers", [])[:1]:
        p = os.path.join(rec["location"], "xformers", "cpp_lib.json")
        try:
            with open(p, encoding="utf-8") as fh:
                data = json.load(fh)
            v = data.get("version", {})
            return {"torch": v.get("torch"), "cuda": v.get("cuda"), "python": v.get("python"),
                    "arch_list": (data.get("env") or {}).get("TORCH_CUDA_ARCH_LIST")}
        except (OSError, ValueError, AttributeError):
            return None
    return None


def fa4_route(dists: dict) -> dict | None:
    """SDPA's route to FA4 (torch >= 2.11: torch/nn/attention/_fa4.py, activated by
    torch.nn.attention.activate_flash_attention_impl("FA4"), which torchtitan and vLLM call) against the
    installed flash-attn-4, read from both sources without importing either. torch's integration
    unpacks a fixed number of values from FA4's private _flash_attn_fwd; a release of FA4 that returns
    another number fails inside every SDPA call once the route is activated (on the H100, torch 2.11 +
    flash-attn-4 4.0.0b36: ValueError: too many values to unpack (expected 2),
    fixtures/gpu/h100-issue21/fa4.json). None when either side is absent."""
    import ast

    t, f = dists.get("torch", [])[:1], dists.get("flash-attn-4", [])[:1]
    if not t or not f:
        return None
    torch_src = os.path.join(t[0]["location"], "torch", "nn", "attention", "_fa4.py")
    fa4_src = os.path.join(f[0]["location"], "flash_attn", "cute", "interface.py")
    try:
        with open(torch_src, encoding="utf-8") as fh:
            tree = parse_python(fh.read())
    except (OSError, SyntaxError, ValueError):
        return None
    expects = None
    for node in ast.walk(tree):  # `a, b = <module>._flash_attn_fwd(...)`
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "_flash_attn_fwd"
                and len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple)):
            expects = len(node.targets[0].elts)
            break
    if expects is None:
        return None
    out = {"torch_file": torch_src, "torch_unpacks": expects, "fa4_file": fa4_src, "fa4_returns": None}
    try:
        with open(fa4_src, encoding="utf-8") as fh:
            tree = parse_python(fh.read())
    except (OSError, SyntaxError, ValueError):
        return out
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == "_flash_attn_fwd":
            sizes = {len(r.value.elts) for r in _own_nodes(node)
                     if isinstance(r, ast.Return) and isinstance(r.value, ast.Tuple)}
            out["fa4_returns"] = sorted(sizes)
            break
    return out


def _own_nodes(fn):
    """The nodes of a function's body, not those of functions defined inside it."""
    import ast

    todo = list(fn.body)
    while todo:
        n = todo.pop()
        yield n
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(n))

def find_module(top: str, entries: list[str]) -> str | None:
    """Where a top-level module would come from, without running any of its code."""
    for name in top.split("|"):
        try:
            spec = machinery.PathFinder.find_spec(name, entries)
        except (ImportError, ValueError):
            spec = None
        if spec is not None:
            if spec.origin and spec.origin != "namespace":
                return spec.origin
            locs = list(spec.submodule_search_locations or [])
            return locs[0] if locs else name
    return None


def collect(entries: list[str] | None = None, sites: list[str] | None = None) -> dict:
    """What is installed on `entries` (default: this process's sys.path); `sites` are the directories
    whose .pth files that interpreter processes (default: this process's)."""
    own = entries is None
    entries = path_entries() if own else list(entries)
    sites = site_dirs() if sites is None else list(sites)
    all_dists = scan_dists(entries)
    stack = {}
    duplicates = {}
    for name in STACK:
        recs = all_dists.get(name)
        if not recs:
            continue
        stack[name] = read_dist(recs[0]["path"])
        if len(recs) > 1:
            duplicates[name] = [{"location": r["location"], "version": r["dir_version"]} for r in recs]
    # Versions of everything else a stack distribution names, so requirements can be checked.
    others = {name: recs[0]["dir_version"] for name, recs in all_dists.items()}
    return {
        "sys_path": entries,
        "site_dirs": sites,
        "stack": stack,
        "versions": others,
        "duplicates": duplicates,
        "flash_attn": flash_attn_layout(entries, all_dists),
        "cutlass": cutlass_layout(all_dists, None if own else entries, sites),
        "xformers_build": xformers_build(all_dists),
        "fa4_route": fa4_route(all_dists),
    }
