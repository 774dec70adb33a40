"""Session 39 (ci39c): the configs readers' CPU cuts keep every reading. A script's tree-only constants are kept on its
tree (script_constants._tree_constants) and copied for each ask, whatever the launch, files or modules; each node's
children are listed once (textutil.children / child_nodes) and walks of a subtree reuse them (_walk, in ast.walk's
order); launchers.python_dumped_configs keeps each scope's own nodes. The whole proof is benchmarks/configs_snapshot.py's
--diff (every fixture read the same, benchmarks/results/ci39c-configs-cpu.md); these cases, written here (no fixture),
hold the edges of each shortcut."""

from __future__ import annotations

import ast

from attn_doctor.configs.launchers import _own_nodes
from attn_doctor.configs.pyscript import constants, tree
from attn_doctor.textutil import child_nodes, walk_nodes, walked

_EVERY_KIND = '''
import os, sys as system
from x import (a as b, c)
@decorate(1, k=2)
class C(Base, metaclass=M):
    x: int = 1
    def m(self, /, p, q=2, *args, r, s=3, **kw) -> "C":
        global G
        return [i for i in p if i for j in q] + {k: v for k, v in kw.items()}
async def run():
    async with open("f") as f, lock:
        async for line in f:
            await line
lam = lambda a, *b, c=1, **d: (a, *b)
if (n := len(sys.argv)) > 1 and not n or n in {1, 2}:
    y = f"{n!r:>{w}} {x}" if n else b"bytes"[1:2:3]
try:
    pass
except (E, F) as e:
    raise Err() from e
else:
    del y
finally:
    assert y, "message"
match cmd:
    case Point(x=0, y=yy) | [1, 2, *rest] | {"k": vv, **others} if rest:
        pass
    case _:
        pass
while True:
    break
with a as (b, c):
    x += 1; x: int
'''


def test_child_nodes_and_walks_are_ast_s_own():
    t = ast.parse(_EVERY_KIND)
    every = list(ast.walk(t))
    assert len(every) > 200
    for n in every:
        assert child_nodes(n) == list(ast.iter_child_nodes(n)), ast.dump(n)[:80]
    assert walk_nodes(t) == every
    # a node with a field left unset: skipped, as ast.iter_fields skips it (no AttributeError)
    bare = ast.Call(func=ast.Name(id="f", ctx=ast.Load()))
    assert child_nodes(bare) == list(ast.iter_child_nodes(bare)) == [bare.func]
    # walked: a subtree walked before its tree and after it (the children kept on its nodes by then), in ast.walk's order
    t2 = ast.parse(_EVERY_KIND)
    subs = [n for n in ast.walk(t2) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Match))]
    assert walked(subs[0]) == list(ast.walk(subs[0]))
    assert walked(t2) == list(ast.walk(t2))
    for s in subs:
        assert walked(s) == list(ast.walk(s))


def test_own_nodes_of_a_scope():
    t = ast.parse("def f(a):\n    x = {'k': 1}\n    def g():\n        y = 2\n    class K:\n        z = 3\n"
                  "    h = lambda: 4\n    return x\n")
    f = t.body[0]

    def old(scope):  # (launchers' generator before session 39)
        stack = list(ast.iter_child_nodes(scope))
        while stack:
            n = stack.pop()
            yield n
            if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                stack.extend(ast.iter_child_nodes(n))

    assert _own_nodes(f) == list(old(f))
    assert _own_nodes(t) == list(old(t))
    assert not any(isinstance(n, ast.Assign) and n.targets[0].id in ("y", "z") for n in _own_nodes(f))


_SCRIPT = '''
import yaml
from transformers import HfArgumentParser, TrainingArguments
cfg = yaml.safe_load(open("c.yaml"))
use_bf16, use_fp16 = False, True
kw = {"torch_dtype": "auto"}
kw["attn_implementation"] = "sdpa"
if torch.cuda.is_bf16_supported():
    mode = "bf16"
else:
    mode = "fp16"
def train(config, lr=1e-4):
    return TrainingArguments(bf16=config.get("bf16"), learning_rate=lr)
model_args, training_args = HfArgumentParser((M, TrainingArguments)).parse_args_into_dataclasses()
train(cfg)
'''


def _norm(x):
    """A value of constants()' dict, comparable across two trees of one text (nodes as ast.dump)."""
    if isinstance(x, ast.AST):
        return ast.dump(x)
    if isinstance(x, dict):
        return {k: _norm(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_norm(v) for v in x]
    if isinstance(x, (set, frozenset)):
        return sorted(map(repr, x))
    return repr(x)


def test_constants_the_same_whatever_was_asked_of_the_tree_before():
    def read(path):
        return {"bf16": True, "learning_rate": 2e-5} if str(path).endswith("c.yaml") else None

    def fresh(n):  # (tree() keeps one tree per text: a comment makes another text of the same script)
        return tree(_SCRIPT + f"# {n}\n")

    argv = {"learning_rate": ast.Constant(value=3e-4)}
    alone = _norm(constants(fresh(1), argv))
    full = _norm(constants(fresh(2), None, None, read, modules={}))
    t = fresh(3)
    asked = [_norm(constants(t)), _norm(constants(t, None, None, read, modules={})), _norm(constants(t, argv)),
             _norm(constants(t, None, None, read, modules={}))]
    assert asked[0] == _norm(constants(fresh(4)))
    assert asked[1] == asked[3] == full
    assert asked[2] == alone
    assert "cfg" in full and full["cfg"] != alone["cfg"]  # (the file's settings, in the reading with files only)
