"""Session 38 (ci38d): the configs readers' CPU cuts keep every reading. shell_words.expand copies the text between the
characters that can start an expansion, a quote or an escape in one slice (not character by character); argparse_takes
answers from a table's prefixes for every_option's frozensets; launchers._in_branches marks a script's branch parts in
one pass down the tree; parsed_by._names asks the file system once per path. The whole proof is
benchmarks/configs_snapshot.py's --diff (every fixture read the same, benchmarks/results/ci38d-configs-cpu.md); these
cases, written here (no fixture), hold the edges of each shortcut."""

from __future__ import annotations

import ast
import os

from attn_doctor.configs.launchers import _in_branches
from attn_doctor.configs.parsed_by import _names
from attn_doctor.configs.shell import argparse_takes
from attn_doctor.configs.shell_words import expand

_ENV = {"A": "alpha", "Q": 'say "hi"', "L": ["x y", "z"], "E": ""}


def test_expand_keeps_quotes_escapes_and_unknowns_as_written():
    cases = [
        ("no dollar 'at all' \"here\" \\n", "no dollar 'at all' \"here\" \\n"),  # nothing to expand: the text itself
        ("run $A and ${A}", "run alpha and alpha"),
        ("'$A' \"$A\" $A", "'$A' \"alpha\" alpha"),  # single quotes keep it literal
        ("\"it's $A\"", "\"it's alpha\""),  # a ' inside double quotes opens nothing
        ("\\$A $A\\", "\\$A alpha\\"),  # an escaped $ stays; a trailing backslash is copied
        ("'unclosed $A", "'unclosed $A"),  # an unclosed single quote runs to the end
        ("echo \"$Q\"", "echo \"say \\\"hi\\\"\""),  # "$Q": one word, its quotes escaped
        ("${E:-fallback} ${NOPE:-d} $NOPE $", "fallback d $NOPE $"),
        ("x=$(date +%s) y=$((2+3)) z=$((A+1))", "x=$(date +%s) y=5 z=$((A+1))"),
        ("${L[@]} end", "x y z end"),
        ("a'$A'b\"$A\"c$A'", "a'$A'b\"alpha\"calpha'"),
    ]
    for text, want in cases:
        assert expand(text, dict(_ENV)) == want, text


def test_argparse_takes_answers_the_same_for_a_frozenset_and_a_set():
    known = frozenset({"learning_rate", "learning_rate_te", "mixed_precision", "seed"})
    for name in ("learning_rate", "learning", "l", "", "learning_rate_t", "learning_rate_te", "learning_rate_tex",
                 "mixed", "mixed_precisions", "see", "seeds", "precision", "x"):
        assert argparse_takes(name, known) == argparse_takes(name, set(known)) == \
            any(k.startswith(name) for k in known), name
    assert not argparse_takes("", frozenset())


def test_in_branches_marks_every_part_of_every_branch_once():
    t = ast.parse(
        "a = 1\n"
        "for i in items:\n"
        "    if i:\n"
        "        b = [x for x in i]\n"
        "    else:\n"
        "        c = 3\n"
        "try:\n"
        "    d = 4\n"
        "except E:\n"
        "    e = 5\n"
        "finally:\n"
        "    f = 6\n"
        "g = 7 if cond else 8\n")
    marked = _in_branches(t)
    names = {n.id: id(n) for n in ast.walk(t) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    assert {k for k, v in names.items() if v in marked} == {"b", "x", "c", "d"}  # not a, i (the loop's target), e, f, g
    consts = [n for n in ast.walk(t) if isinstance(n, ast.Constant)]
    assert sorted(n.value for n in consts if id(n) in marked) == [3, 4, 7, 8]
    loop = next(n for n in ast.walk(t) if isinstance(n, ast.For))
    assert id(loop.iter) not in marked and id(loop.body[0]) in marked and id(loop.body[0].test) in marked


def test_names_resolves_links_and_folders_as_the_file_system_does(tmp_path):
    root = tmp_path / "repo"
    (root / "configs").mkdir(parents=True)
    target = root / "configs" / "sft.yaml"
    target.write_text("a: 1\n")
    (root / "other").mkdir()
    (root / "other" / "sft.yaml").write_text("a: 1\n")  # the same name elsewhere: another file
    os.symlink(target, root / "link.yaml")
    t, f = str(target), str(root / "configs")
    for word, want in [("configs/sft.yaml", "file"), ("'./configs/sft.yaml';", "file"), ("link.yaml", "file"),
                       ("other/sft.yaml", None), ("configs", "folder"), ("configs/", "folder"), ("missing.yaml", None),
                       ("configs/*.yaml", "file"), ("bad\0name", None), (".", None)]:
        assert _names(word, [str(root)], t, f) == want, word
