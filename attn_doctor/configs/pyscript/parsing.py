"""A script's text to its syntax tree: tree() (cached per text), the repair of lines this Python cannot parse
(notebook shell lines, a newer Python's syntax), compiles() for a notebook cell, and the aliases of the trainers'
libraries spelt as the names they import (_unalias)."""

from __future__ import annotations

import ast
import re
from functools import lru_cache
from ...textutil import parse_python, walked


MAX_REPAIRS = 20  # lines a script may have that this Python cannot parse


# (128: a script is asked for by every reader and launcher of a doc, and again by the docs that launch it, with other
# scripts' trees between; at 8 most asks parsed the text again, and lost what was kept on its tree (session 34, ci34a))
@lru_cache(maxsize=128)
def tree(src: str):
    """The script's syntax tree (parsed once per text: every reader and launcher of a doc asks for it, and all of them
    only read it, so they share one); notebook shell lines (!cmd, %magic) become `pass` at their indentation so the rest
    still parses (an `if` whose body is a `!pip install` line keeps a body). A line this Python cannot parse (syntax
    of a newer Python: 3.12's f-strings that reuse their quotes, `type X = ...`; round 8m: a user's SFT script with
    f"{item["input"]}", read on Python 3.11) becomes `pass` too, a few times over: the calls that choose attention
    and dtype are elsewhere in the script. The names a script imports from the trainers' libraries under another name
    (`from transformers import TrainingArguments as TA`) are their own names in the tree (_unalias)."""
    got = _parse(src)
    return _unalias(got) if got is not None else None


# the libraries whose classes and functions the readers know by name (TrainingArguments, SFTConfig, FastLanguageModel,
# LoraConfig ...): a script that imports one under another name calls the same thing
_KNOWN_LIBRARIES = {"transformers", "trl", "peft", "unsloth"}


def _unalias(t):
    """The tree with each `from transformers import X as Y` alias (of _KNOWN_LIBRARIES) spelt X where the script uses
    it (round 30's variants: `TrainingArguments as TA`, `AutoModelForCausalLM as AMC`); an alias the script also assigns
    or defines itself is left as it is."""
    aliases = {}
    # (walked: the tree's node list, kept on it for every reader's walks; renaming a Name changes no node's place)
    for n in walked(t):
        if isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] in _KNOWN_LIBRARIES:
            for a in n.names:
                if a.asname and a.asname != a.name and a.name != "*":
                    aliases[a.asname] = a.name
    if not aliases:
        return t
    for n in walked(t):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) or \
                isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            aliases.pop(n.id if isinstance(n, ast.Name) else n.name, None)
    for n in walked(t):
        if isinstance(n, ast.Name) and n.id in aliases:
            n.id = aliases[n.id]
    return t


def _parse(src: str):
    try:
        return parse_python(src)
    except SyntaxError:
        pass
    lines = _shell_as_pass(src)
    for _ in range(MAX_REPAIRS):
        try:
            return parse_python("\n".join(lines))
        except SyntaxError as e:
            k = (e.lineno or 0) - 1
            if not 0 <= k < len(lines):
                return None
            if lines[k].strip() == "pass":
                # the broken line's `pass` is at an indentation no block opens (round 10m: a notebook cell whose
                # print string runs on over a second line `   3. ...")`): at the previous line's indentation it is a
                # statement of that block, as the line before was
                prev = next((ln for ln in reversed(lines[:k]) if ln.strip()), "")
                fixed = _as_pass(prev if not prev.rstrip().endswith(":") else prev + "    ")
                if fixed == lines[k]:
                    return None
                lines[k] = fixed
                continue
            lines[k] = _as_pass(lines[k])
    return None


def _shell_as_pass(src: str) -> list[str]:
    """The lines of a script or a notebook cell with its shell lines (`!cmd`, `%magic`) made `pass` at their
    indentation."""
    lines, going, head = [], False, ""
    for ln in src.splitlines():
        # a `!cmd ... \` line goes on over the next lines (IPython's EscapedCommand assembles them, as bang_lines
        # reads them): those lines are shell too and one statement with it (round 9: a `!pip install a b \` spread
        # over three indented lines), so they become `pass` at the `!` line's indentation
        if going:
            lines.append(_as_pass(head))
        elif ln.lstrip().startswith(("!", "%")):
            head = ln
            lines.append(_as_pass(ln))
        else:
            lines.append(ln)
        going = (going or ln.lstrip().startswith(("!", "%"))) and ln.rstrip().endswith("\\")
    return lines


# SyntaxErrors no Python version accepts (an unclosed bracket or string): the code never compiles, whichever Python runs
# it. Syntax of a newer Python than this one (3.12's f-strings reusing their quotes: "f-string: unmatched '['", `type
# X = ...`: "invalid syntax") is not among them: tree() repairs those lines
_NEVER_VALID = re.compile(r"was never closed|^unterminated (triple-quoted )?string literal|does not match opening "
                          r"parenthesis|^unmatched '[)\]}]'|unexpected EOF")


def compiles(src: str) -> bool:
    """Whether a notebook cell's code compiles as IPython compiles it (its shell lines aside): False only for an
    error no Python accepts (_NEVER_VALID)."""
    try:
        parse_python("\n".join(_shell_as_pass(src)))
    except SyntaxError as e:
        return not _NEVER_VALID.search(e.msg or "")
    return True


def _as_pass(line: str) -> str:
    """`pass` at the line's indentation."""
    return line[:len(line) - len(line.lstrip())] + "pass"
