"""Every user-reachable message a backend's Python source raises, and what `attn-doctor explain` reads it as.

Reads the files from a git mirror at one commit (git show; no work tree needed), walks their syntax trees for
`raise X(<message>)`, `assert cond, <message>` and xformers' `reasons.append(<message>)` (an operator's refusal, printed
under "No operator found for `memory_efficient_attention_forward`"), renders each message with a plausible value for
every f-string field, and runs explain's matcher on it as it would print ("RuntimeError: <message>").

    python benchmarks/source_messages.py GITDIR COMMIT PATH...            # a table (markdown) on stdout
    python benchmarks/source_messages.py GITDIR COMMIT PATH... --json F   # the rows, for tests and diffs
    python benchmarks/source_messages.py DIR - PATH...                    # files under DIR (an installed wheel)

Run with PYTHONPATH set to the checkout whose attn_doctor is measured. Backend source only: nothing under fixtures/.
"""
from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

# a value for an f-string field, by the words in its expression (first hit wins); the rest print as 64
_SAMPLES = (
    ("dtype", "torch.float32"), ("device", "cpu"), ("shape", "torch.Size([2, 4096, 8, 64])"),
    ("capability", "(12, 0)"), ("arch", "sm_120"), ("version", "2.4.0"), ("layout", "NHD"),
    ("name", "q"), ("op", "fa3F@0.0.0"), ("mode", "default"), ("type", "NoneType"), ("bias", "LowerTriangularMask"),
)


def sample(expr: str) -> str:
    words = set(re.findall(r"[a-z]+", expr.lower().replace("_", " ")))
    for word, value in _SAMPLES:
        if word in words:
            return value
    return "64"


def render(node: ast.AST) -> str | None:
    """The message a node builds (None: not a string), with f-string fields filled by sample()."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        out = []
        for part in node.values:
            if isinstance(part, ast.Constant):
                out.append(str(part.value))
            else:
                out.append(sample(ast.unparse(part.value)))
        return "".join(out)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        left = render(node.left)
        if left is None:
            return None
        if isinstance(node.op, ast.Mod):
            return left.replace("%s", "64").replace("%d", "64").replace("%r", "'q'")
        right = render(node.right)
        return None if right is None else left + right
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        base = render(node.func.value)
        if base is not None:
            return re.sub(r"\{[^{}]*\}", lambda m: sample(m.group(0)), base)
    return None


def _condition(node: ast.AST, parents: dict) -> str:
    """The test under which the message is raised, as code (the nearest enclosing `if`; an assert's own)."""
    if isinstance(node, ast.Assert):
        return f"not ({ast.unparse(node.test)})"
    up = parents.get(node)
    while up is not None and not isinstance(up, (ast.If, ast.FunctionDef)):
        up = parents.get(up)
    return ast.unparse(up.test) if isinstance(up, ast.If) else ""


def messages(source: str, path: str) -> list[dict]:
    rows = []
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    for node in ast.walk(tree):
        kind = exc = msg = None
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
            kind, exc, msg = "raise", ast.unparse(node.exc.func).split(".")[-1], render(node.exc.args[0])
        elif isinstance(node, ast.Assert) and node.msg is not None:
            kind, exc, msg = "assert", "AssertionError", render(node.msg)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "append"
              and isinstance(node.func.value, ast.Name) and node.func.value.id == "reasons" and node.args):
            kind, exc, msg = "reason", "", render(node.args[0])
        if kind and msg and msg.strip():
            rows.append({"where": f"{path}:{node.lineno}", "kind": kind, "exc": exc, "message": msg.strip(),
                         "condition": _condition(node, parents)})
    return sorted(rows, key=lambda r: int(r["where"].rsplit(":", 1)[1]))


def printed(row: dict) -> str:
    """The text as a user's log shows it."""
    if row["kind"] == "reason":  # under the dispatcher's refusal, one operator's reason
        return ("NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:\n"
                "     query       : shape=(1, 4096, 8, 64) (torch.float16)\n"
                "`cutlassF-pt` is not supported because:\n    " + row["message"])
    return f"{row['exc']}: {row['message']}"


def read(row_text: str) -> list[tuple[str, str | None]]:
    import explain_heldout as h
    fn, feed, _ = h._resolve(None)
    return [(h.match_id(m), h.match_backend(m)) for m in h.run_matcher(fn, feed, row_text)]


def _reading(row: dict) -> str:
    got = ", ".join(f"{i} ({b})" for i, b in row["read_as"][:2]) or "none"
    if "alone" in row:
        got += "; alone: " + (", ".join(f"{i} ({b})" for i, b in row["alone"][:2]) or "none")
    return got


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("gitdir")
    ap.add_argument("commit")
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--json", help="write the rows here too")
    ap.add_argument("--before", help="rows an earlier run wrote (--json): their reading in a column of its own")
    args = ap.parse_args(argv)
    rows = []
    for path in args.paths:
        if args.commit == "-":
            src = (Path(args.gitdir) / path).read_text()
        else:
            src = subprocess.run(["git", "--git-dir", args.gitdir, "show", f"{args.commit}:{path}"],
                                 capture_output=True, text=True, check=True).stdout
        for row in messages(src, path):
            row["read_as"] = read(printed(row))
            if row["kind"] == "reason":  # the reason pasted alone (a title, a quoted line)
                row["alone"] = read(row["message"])
            rows.append(row)
    before = {r["where"]: r for r in json.loads(Path(args.before).read_text())} if args.before else {}
    print(f"{args.commit[:10]}: {len(rows)} messages\n")
    print("| where | kind | message (as rendered) | raised when | read as" + (" | before" if before else "") + " |")
    print("|---|---|---|---|---" + ("|---" if before else "") + "|")
    for r in rows:
        cells = [r["where"], f"{r['kind']} {r['exc']}".strip(), r["message"][:160], r["condition"][:80], _reading(r)]
        if before:
            cells.append(_reading(before[r["where"]]) if r["where"] in before else "")
        print("| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
