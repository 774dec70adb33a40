"""A Python training script (or a notebook's code cells) read statically: its syntax tree, the constants it
assigns, and the keyword arguments of the calls that load a model or configure a trainer. Nothing is imported
or run (ast only)."""

from __future__ import annotations

import ast


def tree(src: str):
    """The script's syntax tree; notebook shell lines (!cmd, %magic) are blanked so the rest still parses."""
    try:
        return ast.parse(src)
    except SyntaxError:
        cleaned = "\n".join("" if ln.lstrip().startswith(("!", "%")) else ln for ln in src.splitlines())
        try:
            return ast.parse(cleaned)
        except SyntaxError:
            return None


def constants(tree) -> dict:
    """Simple `name = value` assignments anywhere in the script (the last one wins), as ast nodes."""
    out = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            out[n.targets[0].id] = n.value
        elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and n.value is not None:
            out[n.target.id] = n.value
    return out


def resolve(node, consts: dict, depth: int = 0):
    if isinstance(node, ast.Name) and node.id in consts and depth < 3:
        return resolve(consts[node.id], consts, depth + 1)
    return node


def value(node, consts: dict):
    """A keyword's value: a constant, `torch.bfloat16`-style attribute names, or "?" (decided when the script runs)."""
    node = resolve(node, consts)
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "torch":
        return f"torch.{node.attr}"
    return "?"


def calls(tree, names: set) -> list[tuple[str, dict]]:
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
