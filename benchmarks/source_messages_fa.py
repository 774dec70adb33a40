#!/usr/bin/env python3
"""Every error message FlashAttention 2 / 3 / 4 can raise, read from its own source, and what `attn-doctor explain`
reads each as (issue 23: rules grounded in the backend's source, not in sample logs; ex133).

From a git mirror of Dao-AILab/flash-attention (the `fetch` tool's copy), at one or more commits, it lists:
  C++   TORCH_CHECK(cond, "msg" ...) and the CHECK_DEVICE / CHECK_SHAPE / CHECK_CONTIGUOUS macros, printed as torch
        prints them: `RuntimeError: <message>` (a TORCH_CHECK without a message: `Expected <cond> to be true, but got
        false.`); streamed values are filled with a sample.
  Py    `raise SomeError("...")` / f-strings, `assert cond, "..."`, printed as `SomeError: <message>`.
Each printed message goes through explain's matcher (attn_doctor.explain.match, what `explain -` runs) twice: with its
values filled with one sample and with another (other head dim, dtype, version): a rule must read both.

    python benchmarks/source_messages_fa.py --mirror /work/.mirror/Dao-AILab+flash-attention/repo \\
        --rev 0251105a --rev v2.6.3 --md benchmarks/results/explain-source-messages-fa.md --json /tmp/x.json
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# (backend as attn-doctor names it, path in the repository or a folder of .py files)
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


def git_show(mirror: str, rev: str, path: str) -> str | None:
    r = subprocess.run(["git", "-C", mirror, "show", f"{rev}:{path}"], capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else None


def git_ls(mirror: str, rev: str, folder: str) -> list[str]:
    r = subprocess.run(["git", "-C", mirror, "ls-tree", "--name-only", rev, folder], capture_output=True, text=True)
    return [p for p in r.stdout.split() if p.endswith(".py")]


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


# ---- Python ---------------------------------------------------------------------------------------------------------

def _py_text(node: ast.expr, src: str, k: int) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        out = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                out.append(str(v.value))
            else:
                out.append(_sample(ast.get_source_segment(src, v.value) or "", k))
        return "".join(out)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        left = _py_text(node.left, src, k)
        if left is None:
            return None
        if isinstance(node.op, ast.Mod):
            return re.sub(r"%[sdrf]", lambda _: _sample("", k), left)
        right = _py_text(node.right, src, k)
        return left + (right if right is not None else _sample(ast.get_source_segment(src, node.right) or "", k))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        base = _py_text(node.func.value, src, k)
        return None if base is None else re.sub(r"\{[^}]*\}", lambda _: _sample("", k), base)
    return None


def py_messages(src: str) -> list[dict]:
    found = []
    try:
        tree = ast.parse(src)
    except SyntaxError:
        return found
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
            exc = ast.get_source_segment(src, node.exc.func) or "Exception"
            exc = exc.rsplit(".", 1)[-1]
            texts = [_py_text(node.exc.args[0], src, k) for k in (0, 1)]
            cond = "raise " + exc
        elif isinstance(node, ast.Assert) and node.msg is not None:
            exc = "AssertionError"
            texts = [_py_text(node.msg, src, k) for k in (0, 1)]
            cond = " ".join((ast.get_source_segment(src, node.test) or "").split())
        else:
            continue
        if texts[0] is None:
            continue
        found.append({"line": node.lineno, "kind": "raise" if exc != "AssertionError" else "assert", "condition": cond,
                      "printed": [f"{exc}: {_squash(t)}" for t in texts]})
    return sorted(found, key=lambda f: f["line"])


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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mirror", default="/work/.mirror/Dao-AILab+flash-attention/repo")
    ap.add_argument("--rev", action="append", help="commits or tags, newest first (default HEAD)")
    ap.add_argument("--md", help="write the tables here")
    ap.add_argument("--json", help="write every row here")
    a = ap.parse_args(argv)
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


if __name__ == "__main__":
    sys.exit(main())
