"""Error text cut to what a report line shows, other people's Python source parsed quietly, and a syntax tree's nodes
listed once (walked, kept): shared by the checks and the config readers, so none imports another for them."""

from __future__ import annotations

import ast


def last_line(text: str) -> str:
    """The last non-blank line, stripped, at most 300 characters (where a traceback names its error)."""
    lines = [ln.strip() for ln in (text or "").splitlines() if ln.strip()]
    return lines[-1][:300] if lines else ""


def parse_python(src: str):
    """ast.parse of source attn-doctor only reads (a user's training script or notebook cell, an installed package's
    file), with the warnings compiling it would print silenced: a string such as "\\s" that is not raw gives a
    SyntaxWarning on Python 3.12+ (DeprecationWarning before) which names no file ("<unknown>:10: ...") and would land on
    the user's terminal as if attn-doctor had a bug. SyntaxError and ValueError still raise."""
    import ast
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        return ast.parse(src)


def kept(tree, name: str, build):
    """What `build()` gives for `tree`, built once per tree and kept on it under `name` (trees are shared and only read:
    parsing.tree; no reader adds, moves or removes a node). walked and the readers' per-tree tables use it."""
    got = getattr(tree, name, None)
    if got is None:
        got = build()
        setattr(tree, name, got)
    return got


def walked(tree) -> list:
    """The nodes of `tree` in ast.walk's order, walked once per tree and kept on it (kept). The readers walk a script's
    tree dozens of times over (a walk per question, some once per function or per assignment), so one list serves every
    walk; 60% of a long script's reading went to re-walking its tree."""
    got = getattr(tree, "_attn_doctor_walked", None)
    if got is None:
        got = _walk(tree)
        setattr(tree, "_attn_doctor_walked", got)
    return got


_CHILDREN = "_attn_doctor_children"


def children(node) -> list:
    """ast.iter_child_nodes(node) as a list, listed once per node and kept on it (kept; nodes are only read)."""
    got = getattr(node, _CHILDREN, None)
    if got is None:
        got = child_nodes(node)
        setattr(node, _CHILDREN, got)
    return got


def child_nodes(node) -> list:
    """list(ast.iter_child_nodes(node)): the same nodes in the same order (each field in _fields order, a list field's
    nodes in order; a field not set skipped, as iter_fields skips it), without its two generators per node."""
    out = []
    AST = ast.AST
    for name in node._fields:
        v = getattr(node, name, None)
        if isinstance(v, AST):
            out.append(v)
        elif isinstance(v, list):
            out.extend([x for x in v if isinstance(x, AST)])
    return out


def walk_nodes(node) -> list:
    """list(ast.walk(node)), the same nodes in the same order, for a tree walked once and dropped (nothing kept on it)."""
    out = [node]
    for n in out:
        out.extend(child_nodes(n))
    return out


def _walk(node) -> list:
    """list(ast.walk(node)), the same nodes in the same (breadth-first) order, each node's children listed once and
    kept on it (children): the readers walk a script's tree, then each function, statement and call of it again
    (walked of a subtree), and ast.walk listed every node's children anew each time (session 39, ci39c: 5% of the
    configs readers' CPU)."""
    out = [node]
    for n in out:  # (a list grown while it is iterated: each node's children after every node before them, as a queue)
        got = getattr(n, _CHILDREN, None)
        if got is None:
            got = child_nodes(n)
            setattr(n, _CHILDREN, got)
        out.extend(got)
    return out


def parents_of(tree) -> dict:
    """id(node) -> its parent, for every node of `tree` but the root, mapped once per tree and kept on it (kept): the
    launch readers (configs.launchers.python_commands, python_dumped_configs) each climbed a script's tree from its
    calls, mapping it again at every reading of the same script. Read only, as the tree is."""
    return kept(tree, "_attn_doctor_parents",
                lambda: {id(c): p for p in walked(tree) for c in children(p)})
