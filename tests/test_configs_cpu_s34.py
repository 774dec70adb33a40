"""Session 34 (ci34a): the configs readers' CPU cuts keep every reading. The readers' walks for assignments, dict
updates and environment sets descend into statements only (pyscript.nodes.statements_under); shell_words.commands_of is
kept per (line, dialect); a tree's parent map is kept on it (textutil.parents_of). The whole proof is
benchmarks/configs_snapshot.py's --diff (every fixture read the same, benchmarks/results/configs-cpu-s34.md); these
cases, written here (no fixture), hold the places a statement hides from a walk of statement lists only, and the
cache's answers staying the caller's to change."""

from __future__ import annotations

import ast

from attn_doctor.configs.pyscript import constants, tree
from attn_doctor.configs.pyscript.nodes import statements_under
from attn_doctor.configs.shell_words import commands_of
from attn_doctor.textutil import parents_of


# a binding in each kind of place a statement sits: a class body, a with, an except clause, a finally, a match case,
# a while's else, an async function's try; each name bound once, so constants() holds it (branches aside: it is read
# as the one value it ever holds)
_SCRIPT = '''
import os
class Cfg:
    in_class = "a"
with open("x") as f:
    in_with = "b"
try:
    pass
except ValueError:
    in_except = "c"
finally:
    in_finally = "d"
match os.environ.get("M"):
    case "x":
        in_case = "e"
while False:
    pass
else:
    in_while_else = "f"
async def g():
    try:
        in_async = "g"
    except Exception:
        pass
kw = {}
kw["attn_implementation"] = "sdpa"
os.environ["ATTN"] = "flash"
f = lambda: [y := 1 for _ in ()]
'''


def test_every_statement_place_is_walked():
    t = tree(_SCRIPT)
    consts = constants(t)
    for name, literal in (("in_class", "a"), ("in_with", "b"), ("in_except", "c"), ("in_finally", "d"),
                          ("in_case", "e"), ("in_while_else", "f"), ("in_async", "g")):
        assert isinstance(consts.get(name), ast.Constant) and consts[name].value == literal, (name, consts.get(name))
    assert "y" not in consts  # (a walrus in an expression is no `name = value` statement, as before)
    assert ast.unparse(consts["kw"]) == "{**{}, 'attn_implementation': 'sdpa'}"
    env = constants(t)["<os.environ>"]
    assert env["ATTN"].value == "flash"


def test_statements_under_keeps_walk_order_and_leaves_expressions():
    t = tree("if a:\n    x = 1\nelse:\n    y = 2\ntry:\n    z = 3\nexcept E:\n    w = 4\n")
    first, second = statements_under(t)
    assert [type(c).__name__ for c in statements_under(first)] == ["Assign", "Assign"]  # (the test is an expression)
    assert [type(c).__name__ for c in statements_under(second)] == ["Assign", "ExceptHandler"]
    assert statements_under(first.body[0]) == []


def test_commands_of_hands_out_fresh_lists():
    line = "accelerate launch train.py --sdpa | tee log"
    got = commands_of(line, "posix")
    got[0][0].append("--changed")
    got.append((["x"], ()))
    again = commands_of(line, "posix")
    assert again == [(["accelerate", "launch", "train.py", "--sdpa"], (1,)), (["tee", "log"], (2,))]
    assert commands_of("a & b", "bat") == [(["a"], ()), (["b"], ())]


def test_parents_of_maps_every_child():
    t = tree("def f(x):\n    return g(x)\n")
    parents = parents_of(t)
    for p in ast.walk(t):
        for c in ast.iter_child_nodes(p):
            if not isinstance(c, ast.expr_context):  # (Load() is one shared node: its entry is its last parent's)
                assert parents[id(c)] is p
    assert parents_of(t) is parents
