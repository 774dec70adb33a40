"""The lines, expansions and words of a launch script, as bash, cmd.exe and PowerShell make them (configs/shell.py
reads scripts with these): comments dropped and continuations joined (`\\`, `^`, a backtick), heredocs set aside,
variables expanded (`$NAME`, `${NAME:-default}`, `%NAME%`, `!NAME!` under delayed expansion, `$env:NAME`), and each
logical line split into commands' words (quotes, separators, redirections). A variable the script never sets stays
as written; `known()` tells a value read from the script from one left as written. Nothing is executed.
"""

from __future__ import annotations

import ast
import re
import shlex
from functools import lru_cache

# ---------------------------------------------------------------------------------------------------
# Lines
# ---------------------------------------------------------------------------------------------------

def _strip_comment(line: str) -> str:
    """A POSIX line without its `#` comment (a `#` that starts a word, outside quotes)."""
    quote = None
    prev = " "
    for i, ch in enumerate(line):
        if quote:
            if ch == quote and (quote == "'" or line[i - 1] != "\\"):
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and prev in " \t;&|(":
            return line[:i]
        prev = ch
    return line


def logical_lines(text: str, dialect: str) -> list[tuple[int, str]]:
    """(first line number, text) of each logical line: comments dropped, continuations joined."""
    return [(n, t) for n, t, _end in _logical_lines(text, dialect)]


_HEREDOC = re.compile(r"(?<![<\w])<<(-?)\s*(['\"]?)([A-Za-z_]\w*)\2")


def _logical_lines(text: str, dialect: str, heredocs: dict | None = None,
                   broken: set | None = None) -> list[tuple[int, str, int]]:
    """(first line number, text, last line number) of each logical line. A POSIX here-document's body (`cat > x.yml
    <<EOF ... EOF`, `read -r -d '' VAR <<EOF ... EOF`) is no command: its lines go to `heredocs[line]` as
    (body, quoted) for the line that opened it. broken: gets the first line number of each logical line that ends in
    a continuation character followed by spaces (the shell ends the command there, whatever the next line holds)."""
    out: list[tuple[int, str, int]] = []
    buf: list[str] = []
    start = 0
    cont = {"posix": "\\", "bat": "^", "ps1": "`"}[dialect]
    doc_end = None  # (terminator, strip leading tabs, line it belongs to, quoted, body lines) while in a here-document
    raws = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    n = 0
    while n < len(raws):
        raw = raws[n]
        n += 1  # (the 1-based number of `raw`)
        if doc_end is not None:
            term, tabs, owner, quoted, body = doc_end
            if (raw.lstrip("\t") if tabs else raw).rstrip() == term:
                if heredocs is not None:
                    heredocs[owner] = ("\n".join(body), quoted)
                doc_end = None
            else:
                body.append(raw)
            continue
        line = raw
        stripped = line.strip()
        if dialect == "bat":
            if re.match(r"^(@?rem\b|::)", stripped, re.IGNORECASE):
                stripped, line = "", ""
        elif stripped.startswith("#"):
            stripped, line = "", ""  # a comment line: it never continues, whatever it ends with
        first = n
        if dialect == "posix" and stripped:
            # a quoted string that goes on over the next lines (OPTS="--a\n  --b\n  --xformers"): one logical line, its
            # newlines inside the quotes (spaces here: they separate words the same way where $OPTS is used unquoted)
            span, quote = _quote_span(raws, n - 1)
            if span:
                # the newlines stay in the quoted text (`bash -c '...'` runs it as a script of several lines); inside
                # double quotes a backslash ending a line joins it to the next, and both go (bash's line continuation)
                line = "\n".join(raws[n - 1:n + span])
                if quote == '"':
                    line = line.replace("\\\n", "")
                n += span
        if dialect == "posix":
            line = _strip_comment(line)
        elif dialect == "ps1" and "#" in line:
            line = re.sub(r"\s#.*$", "", line)
        if not buf:
            start = first
        body = line.rstrip()
        # the continuation character must end the line: followed by a space it escapes that space and the line ends
        # the command (bash's `\ `, cmd.exe's `^ `, PowerShell's backtick alike), the options below it never reach it
        if body.endswith(cont) and line.rstrip("\n").endswith(cont) and \
                not (cont == "\\" and body.endswith("\\\\")):
            buf.append(body[:-1])
            continue
        if body.endswith(cont) and not (cont == "\\" and body.endswith("\\\\")):
            body = body[:-1]  # the escaped space it leaves is no option (bash passes it as a " " word: not modelled)
            if broken is not None:
                broken.add(start if buf else n)
        if not body.strip() and buf:  # a blank or comment line inside a continued command ends it
            out.append((start, " ".join(buf), n - 1))
            buf = []
            continue
        buf.append(body)
        out.append((start, " ".join(buf), n))
        buf = []
        m = _HEREDOC.search(out[-1][1]) if dialect == "posix" else None
        inner = _inner_heredoc(out[-1][1], m) if m else None
        if inner is not None:
            # a here-document inside a string joined over several lines (`OUT="$(python - <<'EOF'` ... `EOF` `)"`,
            # _quote_span): its body and terminator are in this logical line already, and the lines after it are commands
            if heredocs is not None:
                heredocs[start] = (inner, bool(m.group(2)))
        elif m:
            doc_end = (m.group(3), m.group(1) == "-", start, bool(m.group(2)), [])
    if doc_end is not None and heredocs is not None:  # no terminator before the end: the rest is the body
        heredocs[doc_end[2]] = ("\n".join(doc_end[4]), doc_end[3])
    if buf:
        out.append((start, " ".join(buf), start + len(buf) - 1))
    return [(n, ln, end) for n, ln, end in out if ln.strip()]


def _inner_heredoc(line: str, m) -> str | None:
    """The body of the here-document `m` opens when its terminator line is inside `line` itself (a logical line joined
    over several lines by _quote_span); None when the body follows the line, as a here-document's usually does."""
    rest = line[m.end():].split("\n")
    for j, r in enumerate(rest[1:], 1):
        if (r.lstrip("\t") if m.group(1) == "-" else r).rstrip() == m.group(3):
            return "\n".join(rest[1:j])
    return None


def _quote_span(raws: list[str], idx: int, limit: int = 60) -> tuple[int, str | None]:
    """How many of the lines after raws[idx] a quoted string that line leaves open runs over (0: none is left open,
    or it does not close within `limit` lines). Only a quote that starts a word or a value (`"`, `="`, `("`) counts:
    an apostrophe inside a word of prose (`don't`) is taken as no quote. Also returns the quote left open on raws[idx]."""
    quote, ok, k, first = None, False, idx, None
    # a command substitution opened inside the double quotes (`OUT="$(` ... `)"`) is a script of its own: its quotes
    # neither close nor reopen the outer string, and a here-document in it (`python - <<'EOF'` ... `EOF`) is text, not
    # shell, up to its terminator (round 139m's dvr85 train_lora.sh: a Python here-document inside `"$( )"`). `nest` holds
    # the quote to go back to at each `)` that closes a `$(` or a `(` opened inside one
    nest: list[str | None] = []
    while k < len(raws) and k - idx <= limit:
        s, i, prev = raws[k], 0, " "
        term = None  # the terminator of a here-document that a line inside a substitution opens
        while i < len(s):
            ch = s[i]
            if nest and quote is None and ch == ")":
                quote, prev = nest.pop(), ch
                i += 1
                continue
            if quote in ('"', None) and (nest or quote == '"') and s.startswith("$(", i) and \
                    not s.startswith("$((", i):
                nest.append(quote)
                quote, prev = None, "("
                i += 2
                continue
            if nest and quote is None:
                if ch == "(":
                    nest.append(None)
                m = _HEREDOC.match(s, i) if ch == "<" and prev != "<" else None
                if m:
                    term = (m.group(3), m.group(1) == "-")
                    prev, i = "x", m.end()
                    continue
            if quote is None:
                if ch == "#" and prev in " \t;&|(":
                    break  # a comment: the rest of the line
                if ch == "\\":
                    i, prev = i + 2, "x"
                    continue
                if ch in "'\"":
                    # (a double quote reopened after a word on a line of a string already open over several lines is
                    # bash's concatenation, `L="a \\n --rdzv_conf "r=$H:$P" \\n --tee 3 \\n "`: round 65, ytft.slurm)
                    quote, ok = ch, prev in " \t=(" or (k == idx and i == 0) or (ch == '"' and k > idx and ok)
            elif quote == '"' and ch == "\\":
                i += 2
                continue
            elif ch == quote:
                quote = None
            prev = ch
            i += 1
        if quote is None and not nest:
            return k - idx, first
        if not ok:
            return 0, None
        first = first or quote or nest[0]
        k += 1
        if term is not None:  # the here-document's body: skipped to its terminator (none: the string never closes)
            while k < len(raws) and (raws[k].lstrip("\t") if term[1] else raws[k]).rstrip() != term[0]:
                k += 1
            k += 1
    return 0, None


# ---------------------------------------------------------------------------------------------------
# Expansion
# ---------------------------------------------------------------------------------------------------

_PARAM = re.compile(r"\$\{(#?)([A-Za-z_][A-Za-z0-9_]*|[1-9])(\[[@*]\])?(?:(:?[-=+?])((?:[^{}]|\{[^{}]*\})*))?\}")
_SIMPLE = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_BAT = re.compile(r"%([A-Za-z_][A-Za-z0-9_]*)%")
_BAT_DELAYED = re.compile(r"!([A-Za-z_][A-Za-z0-9_]*)!")
_DELAYED = "\0delayed"  # env key: cmd.exe's delayed expansion is on (no variable can have this name)
_PS = re.compile(r"\$env:([A-Za-z_][A-Za-z0-9_]*)|\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?")
_EXPAND_STOP = re.compile(r"[$\\\"']")  # what expand() looks at in POSIX text: all else is copied as written


def _substituted(value) -> bool:
    """A value that is a command's output with quotes in its command (`V=$(python -c "import x; print(x.v)")`): unknown
    here, so a reference to it stays as written; pasting the command's text in, quotes and all, would re-split the words
    around it (bash never re-reads quotes in an expansion). An escaped `\\$(...)` / `\\`` inside a double-quoted value is
    no substitution: it is literal text for a shell the value is handed to (round 33m: a Slurm job's multi-line
    `CMD="... echo \\"host=\\$(hostname)\\" ... python sft_train.py --config x.yaml"` run by `srun bash -c "$CMD"`)."""
    if not isinstance(value, str):
        return False
    bare = value.replace("\\$", "").replace("\\`", "")
    if not ("$(" in bare or "`" in bare) or not ('"' in value or "'" in value):
        return False
    # the quotes must be the substitution's own: a value that holds `$(scontrol show hostnames $NODES | head -n 1)`
    # (a variable expanded into it) beside a quoted word elsewhere (`--role \$(hostname -s|tr -dc '0-9'):`, escaped)
    # is the script's own text, its substitution quote-free (round 65: ytft.slurm's LAUNCHER)
    for i in [m.start() for m in re.finditer(r"\$\(", bare)]:
        j, depth = i + 2, 1
        while j < len(bare) and depth:
            depth += {"(": 1, ")": -1}.get(bare[j], 0)
            j += 1
        if '"' in bare[i:j] or "'" in bare[i:j] or depth:
            return True
    ticks = [m.start() for m in re.finditer("`", bare)]
    return any('"' in bare[a:b] or "'" in bare[a:b] for a, b in zip(ticks[::2], ticks[1::2])) or len(ticks) % 2 == 1


def _value(env: dict, name: str):
    v = env.get(name)
    return " ".join(v) if isinstance(v, list) else v


def expand(text: str, env: dict, dialect: str = "posix", _depth: int = 0) -> str:
    """`text` with the variables `env` knows replaced (single-quoted text untouched in POSIX); the rest as written."""
    if _depth > 4:
        return text
    if dialect == "bat":
        # %~dp0 (also spelt %~pd0, %~dps0): the drive and folder of the batch file itself, with a trailing backslash
        # (`call %~dp0run.bat`): the script's own folder
        text = re.sub(r"%~(?=[dps]*p)[dps]+0", lambda m: ".\\", text)
        text = _BAT.sub(lambda m: _value(env, m.group(1)) if m.group(1) in env else m.group(0), text)
        if env.get(_DELAYED):  # `setlocal enabledelayedexpansion`: !NAME! is expanded too, when the line runs
            text = _BAT_DELAYED.sub(lambda m: _value(env, m.group(1)) if m.group(1) in env else m.group(0), text)
        return text
    if dialect == "ps1":
        # `& accelerate launch x.py @args_list`: splatting an array passes its elements as separate arguments
        text = re.sub(r"(?<![\w@$])@([A-Za-z_]\w*)\b", lambda m: " ".join(shlex.quote(w) for w in env[m.group(1)])
                      if isinstance(env.get(m.group(1)), list) else m.group(0), text)
        return _PS.sub(lambda m: _value(env, m.group(1) or m.group(2)) if (m.group(1) or m.group(2)) in env
                       else m.group(0), text)
    if isinstance(env.get("@"), list):  # "$@" after `set -- ...` (shell.parse): those words, one word each
        text = re.sub(r'"\$(?:@|\{@\})"|\$(?:@|\{@\})(?!\w)', lambda m: " ".join(shlex.quote(w) for w in env["@"]), text)
    # "${NAME[@]}" of an array: its elements as separate words (the quotes do not make them one)
    text = re.sub(r'"\$\{([A-Za-z_]\w*)\[[@*]\]\}"', lambda m: " ".join(shlex.quote(w) for w in env[m.group(1)])
                  if isinstance(env.get(m.group(1)), list) else m.group(0), text)
    if "$" not in text:
        return text  # (only a `$` expands: quotes and backslashes are copied as written)
    out = []
    i = 0
    n = len(text)
    quote = None
    while i < n:
        if quote == "'":  # single-quoted text up to its closing quote: copied as written
            j = text.find("'", i)
            if j < 0:
                out.append(text[i:])
                break
            out.append(text[i:j + 1])
            quote = None
            i = j + 1
            continue
        # the text up to the next character that can start an expansion, a quote or an escape: copied as written
        m = _EXPAND_STOP.search(text, i)
        if m is None:
            out.append(text[i:])
            break
        if m.start() > i:
            out.append(text[i:m.start()])
            i = m.start()
        ch = text[i]
        if ch == "'" and quote is None:
            quote = "'"
            out.append(ch)
            i += 1
            continue
        if ch == '"':
            quote = None if quote == '"' else '"'
            out.append(ch)
            i += 1
            continue
        if ch == "\\" and i + 1 < n:
            out.append(text[i:i + 2])
            i += 2
            continue
        if ch == "$":
            m = _PARAM.match(text, i)
            if m:
                out.append(_param(m, env, dialect, _depth, quoted=quote == '"'))
                i = m.end()
                continue
            m = _SIMPLE.match(text, i)
            if m:
                name = m.group(1)
                v = _value(env, name) if name in env and not _substituted(env[name]) else None
                if v is not None and quote == '"' and '"' in v:
                    # "$CMD" is one word whatever quotes its value holds (bash never re-reads them): kept in it, escaped
                    v = v.replace("\\", "\\\\").replace('"', '\\"')
                out.append(v if v is not None else m.group(0))
                i = m.end()
                continue
            if text.startswith("$((", i):  # arithmetic: its integer when every operand is settled here
                j, depth = i + 3, 2
                while j < len(text) and depth:
                    depth += {"(": 1, ")": -1}.get(text[j], 0)
                    j += 1
                if text.startswith("))", j - 2):
                    got = arithmetic(text[i + 3:j - 2], env)
                    if got is not None:
                        out.append(got)
                        i = j
                        continue
            if text.startswith("$(", i):  # command substitution: kept as written (its value is unknown here)
                j, depth = i + 2, 1
                while j < len(text) and depth:
                    depth += {"(": 1, ")": -1}.get(text[j], 0)
                    j += 1
                out.append(text[i:j])
                i = j
                continue
        out.append(ch)
        i += 1
    return "".join(out)


_ARITH_NAME = re.compile(r"\$\{([A-Za-z_]\w*)\}|\$?([A-Za-z_]\w*)")
_ARITH_OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
              ast.Div: lambda a, b: _trunc_div(a, b), ast.Mod: lambda a, b: a - b * _trunc_div(a, b)}


def _trunc_div(a: int, b: int) -> int:
    """bash's `/`: integer division rounded toward zero (C's), not Python's floor."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _arith_value(node) -> int:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _arith_value(node.operand)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITH_OPS:
        return _ARITH_OPS[type(node.op)](_arith_value(node.left), _arith_value(node.right))
    raise ValueError(node)


def arithmetic(expr: str, env: dict) -> str | None:
    """`$((expr))` as bash computes it, for + - * / % and parentheses over decimal integers and variables the script
    sets to one; None (left as written) for anything else: a variable the caller gives (bash would take an unset one
    as 0, but here it may come from the caller's environment), a comparison, an assignment, another base."""
    def operand(m):
        v = env.get(m.group(1) or m.group(2))
        v = (v[0] if v else None) if isinstance(v, list) else v
        if not isinstance(v, str) or not re.fullmatch(r"\s*-?(0|[1-9]\d*)\s*", v):
            raise ValueError(m.group(0))
        return f"({v.strip()})"

    try:
        py = _ARITH_NAME.sub(operand, expr)
        if not re.fullmatch(r"[\d\s()+\-*/%]*", py) or re.search(r"\b0\d|\*\*|//", py):
            return None  # octal (010), powers and anything else are left to bash
        return str(_arith_value(ast.parse(py.strip(), mode="eval").body))
    except (ValueError, SyntaxError, ZeroDivisionError, RecursionError):
        return None


def _param(m, env: dict, dialect: str, depth: int, quoted: bool) -> str:
    hash_, name, index, op, word = m.groups()
    value = env.get(name)
    if hash_:
        return m.group(0)
    if index:  # ${NAME[@]}: every element as its own word
        if isinstance(value, list):
            return " ".join(shlex.quote(w) for w in value) if quoted else " ".join(value)
        return value if value is not None else m.group(0)
    if isinstance(value, list):
        value = value[0] if value else ""
    if _substituted(value):
        return m.group(0)
    if op is None:
        if value is not None and quoted and '"' in value:
            return value.replace("\\", "\\\\").replace('"', '\\"')  # "${CMD}": one word (expand, above)
        return value if value is not None else m.group(0)
    unset_or_empty = value is None or (op.startswith(":") and value == "")
    default = expand(word or "", env, dialect, depth + 1)
    if quoted and dialect == "posix":
        # inside "...", the word of `${2:-"-m axolotl.cli.train"}` loses its own double quotes (bash's quote removal
        # of the word; the outer quotes already keep it one word): `"-m x"` pasted back would close the outer string
        default = re.sub(r'(?<!\\)"', "", default)
    if op.endswith("-"):
        return default if unset_or_empty else value
    if op.endswith("="):
        if unset_or_empty:
            env[name] = default
            return default
        return value
    if op.endswith("+"):
        return "" if unset_or_empty else default
    return value if value is not None else m.group(0)  # ${NAME:?message}


def unquoted(word: str) -> str:
    """`word` without one pair of matching outer quotes ('x' or "x"); as it is otherwise."""
    return word[1:-1] if len(word) > 1 and word[0] == word[-1] and word[0] in "'\"" else word


def known(value) -> bool:
    """A value the script settles: not a variable it never sets, not a command substitution."""
    return not (isinstance(value, str) and re.search(r"\$[({A-Za-z_0-9@*#?]|%[A-Za-z_]\w*%", value))


# ---------------------------------------------------------------------------------------------------
# Words
# ---------------------------------------------------------------------------------------------------

_REDIRECT = re.compile(r"(?<![\w=/.-])(\d?>>?|&>>?|\d?<)(&\d+|\s*(\"[^\"]*\"|'[^']*'|[^\s;|&]+))")
_SEPARATORS = {"&&", "||", ";", "|", "|&", "&", ";;", ";&", ";;&"}
_PIPES = {"|", "|&"}


_QUOTED = re.compile(r"(\"(?:\\.|[^\"\\])*\"|'[^']*')")
_REDIRECT_OP = re.compile(r"(?<![\w=/.-])(\d?>>?|&>>?|\d?<)\s*$")


def _without_redirections(line: str) -> str:
    """The line with its redirections (`> log 2>&1`, `< in.txt`, `>> "run log.txt"`) blanked out, and only those: a `<` or
    `>` inside quotes is part of a word (textual inversion's `--placeholder_token="<cat-toy>"`), which a redirection
    pattern run over the whole line would take, with the closing quote, as `<` reading the file `cat-toy>"`."""
    parts = _QUOTED.split(line)
    out = []
    drop_next = False
    for i, part in enumerate(parts):
        if i % 2:  # a quoted string: a word (or part of one), unless it is the file a redirection just before it names
            out.append(" " if drop_next else part)
            drop_next = False
            continue
        if drop_next and part[:1] not in ("", " ", "\t"):
            drop_next = False
        m = _REDIRECT_OP.search(part)
        if m and i + 1 < len(parts):  # `> "run log.txt"`: the operator here, its quoted file the next part
            part, drop_next = part[:m.start()] + " ", True
        out.append(_REDIRECT.sub(" ", part))
    return "".join(out)


def words_of(line: str, dialect: str) -> list[list[str]]:
    """A logical line as the simple commands in it (split at `&&`, `||`, `;`, `|`, `&` and a subshell's parentheses),
    each a list of words."""
    return [words for words, _ in commands_of(line, dialect)]


def commands_of(line: str, dialect: str) -> list[tuple[list[str], tuple]]:
    """_commands' reading of the line, each command's words a list of its own (the caller's to change)."""
    return [(list(words), path) for words, path in _commands(line, dialect)]


@lru_cache(maxsize=4096)
def _commands(line: str, dialect: str) -> tuple:
    """_read_commands' answer kept per (line, dialect), immutable (tuples of words): it depends on nothing else, and a
    launch script's lines are split again by every reader that asks (a tenth of the configs readers' CPU went to
    splitting lines already split; session 34, ci34a)."""
    return tuple((tuple(words), path) for words, path in _read_commands(line, dialect))


def _read_commands(line: str, dialect: str) -> list[tuple[list[str], tuple]]:
    """words_of's simple commands, each with the subshells bash runs it in, outermost first (ids new in each line; ()
    for the script's own shell): each command of a pipeline of two or more runs in a subshell of its own (bash(1),
    Pipelines: "Each command in a multi-command pipeline ... is executed in its own subshell"), a list ended by `&`
    in one ("executed asynchronously in a subshell", Lists), `( list )` in one (Compound Commands). cmd.exe's and
    PowerShell's commands run in the script's own process (cmd.exe's `&` runs one command after the other)."""
    line = _without_redirections(line)
    if dialect == "bat":
        parts = re.split(r"\s(?:&&|\|\||&|\|)\s", line)
        return [(_bat_words(p), ()) for p in parts]
    lex = shlex.shlex(_subshell_parens(_quote_substitutions(line)) if dialect == "posix" else _quote_substitutions(line),
                      posix=True, punctuation_chars=";&|")
    lex.whitespace_split = True
    lex.commenters = ""
    if dialect == "ps1":
        # PowerShell's escape character is the backtick; a backslash is a path separator (`& .\venv\Scripts\python.exe
        # train.py`, `$python = ".\venv\Scripts\python.exe"` expanded unquoted), never an escape
        lex.escape = "`"
    try:
        toks = list(lex)
    except ValueError:  # an unbalanced quote (an apostrophe in an echo): words without quoting
        toks = [w.strip("'\"") for w in line.split()]
    if dialect != "posix":
        out, cur = [], []
        for t in toks:
            if t in _SEPARATORS:
                if cur:
                    out.append((cur, ()))
                cur = []
            else:
                cur.append(t)
        return out + [(cur, ())] if cur else out
    return _subshells(toks)


def _subshells(toks: list[str]) -> list[tuple[list[str], tuple]]:
    """commands_of's reading of a POSIX line's tokens: its lists, and-or lists, pipelines and `( ... )` groups."""
    out: list = []
    ids = iter(range(1, len(toks) + 2))
    pos = 0

    def within(start: int, stop: int, depth: int) -> None:  # out[start:stop] run in a new subshell, `depth` deep
        sid = next(ids)
        out[start:stop] = [(w, p[:depth] + (sid,) + p[depth:]) for w, p in out[start:stop]]

    def command(path: tuple, depth: int) -> None:
        nonlocal pos
        if pos < len(toks) and toks[pos] == "(":  # (_subshell_parens: only where a command starts)
            pos += 1
            sid = next(ids)
            run(path + (sid,), depth + 1)
            pos += pos < len(toks) and toks[pos] == ")"
            return
        words = []
        while pos < len(toks) and toks[pos] not in _SEPARATORS and not (depth and toks[pos] == ")"):
            words.append(toks[pos])
            pos += 1
        if words:
            out.append((words, path))

    def run(path: tuple, depth: int) -> None:
        nonlocal pos
        while pos < len(toks) and not (depth and toks[pos] == ")"):
            listed = len(out)
            while True:  # an and-or list: pipelines joined by && / ||
                piped = [len(out)]
                command(path, depth)
                while pos < len(toks) and toks[pos] in _PIPES:
                    pos += 1
                    piped.append(len(out))
                    command(path, depth)
                if len(piped) > 1:
                    for start, stop in zip(piped, piped[1:] + [len(out)]):
                        within(start, stop, depth)
                if pos < len(toks) and toks[pos] in ("&&", "||"):
                    pos += 1
                    continue
                break
            if pos < len(toks) and toks[pos] == "&":
                within(listed, len(out), depth)
            if pos < len(toks) and toks[pos] in _SEPARATORS:
                pos += 1
            elif pos < len(toks) and toks[pos] == ")" and not depth:
                pos += 1  # (a `)` that closes nothing on this line: a subshell opened on a line above)

    run((), 0)
    return out


def _subshell_parens(line: str) -> str:
    """The line with each `(` that opens a subshell (where a command starts: the line's start, after `;`, `&`, `|` or
    another such `(`) and the `)` that closes it set apart as words of their own: `(cd x && python t.py)` is the
    subshell's commands `cd x` and `python t.py`, not the words `(cd` and `t.py)`. Other parentheses (`f()`, `A=(x y)`,
    `<(cmd)`, `((n > 1))`, `[[ a && (b || c) ]]`, a case pattern's `a)`) stay in their words; quoted text is left as it
    is."""
    if "(" not in line:
        return line  # (no parenthesis to set apart: every other character is copied as written)
    out, quote, opened, last, test = [], None, [], "", False
    i = 0
    while i < len(line):
        ch = line[i]
        if ch == "\\" and quote != "'":
            out.append(line[i:i + 2])
            i, last = i + 2, last if quote else "\\"
            continue
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif line.startswith(("[[", "]]"), i) and (i == 0 or line[i - 1].isspace()):
            test = ch == "["  # (`[[ ... ]]`: its && and || join conditions, not commands)
        elif ch == "(":
            opens = line[i + 1:i + 2] != "(" and not test and \
                (last in ("", ";", "&", "|") or last == "(" and opened and opened[-1])
            opened.append(opens)
            if opens:
                out.append(" ( ")
                i, last = i + 1, "("
                continue
        elif ch == ")" and opened and opened.pop():
            out.append(" ) ")
            i, last = i + 1, ")"
            continue
        if not ch.isspace():
            last = ch
        out.append(ch)
        i += 1
    return "".join(out)


# `$(which prog)`, `$(command -v prog)`, `$(type -P prog)` and their backquoted forms print the path of the program
# bash would run for `prog`: as a command's word they run that same program
_QUOTED_WHICH = re.compile(r'"(\$\(\s*(?:which|command\s+-v|type\s+-[Pp])\s+[A-Za-z0-9_.+-]+\s*\))"')
_WHICH = re.compile(r"^(?:\$\(|`)\s*(?:which|command\s+-v|type\s+-[Pp])\s+([A-Za-z0-9_.+-]+)\s*(?:\)|`)$")


def _quote_substitutions(line: str) -> str:
    """An unquoted command substitution `$(uname -m)` kept as one word (bash does not split inside it): wrapped in
    double quotes when it holds none itself; `$(which prog)` is `prog` (_WHICH)."""
    if "$(" not in line and "`" not in line:
        return line  # (no substitution: every character is copied as written)
    out, i, quote = [], 0, None
    while i < len(line):
        ch = line[i]
        m = _QUOTED_WHICH.match(line, i) if quote is None and ch == '"' else None
        if m:  # "$(which prog)"
            out.append(_WHICH.match(m.group(1)).group(1))
            i = m.end()
            continue
        if ch in "'\"" and (quote is None or quote == ch):
            quote = None if quote else ch
        elif ch == "\\" and quote != "'":
            out.append(line[i:i + 2])
            i += 2
            continue
        elif quote is None and ch == "`" and _WHICH.match(line[i:line.find("`", i + 1) + 1] if "`" in line[i + 1:] else ""):
            j = line.find("`", i + 1) + 1
            out.append(_WHICH.match(line[i:j]).group(1))
            i = j
            continue
        elif quote is None and line.startswith("$(", i):
            j, depth = i + 2, 1
            while j < len(line) and depth:
                depth += {"(": 1, ")": -1}.get(line[j], 0)
                j += 1
            span = line[i:j]
            which = _WHICH.match(span)
            # bash keeps the substitution one word whatever it holds (`sh $(dirname "$0")/run_g.sh`): quoted
            # with the quote it does not contain
            # (one holding both quotes, `$(python -c 'print(os.path.dirname(x.__file__) + "/cli/sft.py")')`: single
            # quotes around it with each of its own spelt '"'"', which shlex joins back into the same one word)
            out.append(which.group(1) if which else span if depth else f'"{span}"' if '"' not in span else
                       f"'{span}'" if "'" not in span else "'" + span.replace("'", "'\"'\"'") + "'")
            i = j
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _bat_words(text: str) -> list[str]:
    """cmd.exe's words: whitespace-separated, double quotes group (and are dropped), backslashes are path separators."""
    return [m.group(0).replace('"', "") for m in re.finditer(r'(?:"[^"]*"|[^\s"])+', text)]


# `$(python -c 'import swift, os; print(os.path.dirname(swift.__file__) + "/cli/sft.py")')`: a command that prints the path
# of a file inside an installed package (its folder: os.path.dirname(PKG.__file__) or PKG.__path__[0], then the rest
# added with `+` or os.path.join)
_PY_PRINT = re.compile(r"^\$\(\s*python[0-9.]*\s+-c\s+(['\"])(?P<code>.*)\1\s*\)$", re.DOTALL)
_PKG_DIR = r"(?:os\.path\.dirname\(\s*(?P<a>[A-Za-z_]\w*)\.__file__\s*\)|(?P<b>[A-Za-z_]\w*)\.__path__\[0\])"
_PKG_PLUS = re.compile(r"print\(\s*" + _PKG_DIR + r"\s*\+\s*(['\"])(?P<rest>/[\w./-]+)\3\s*\)")
_PKG_JOIN = re.compile(r"print\(\s*os\.path\.join\(\s*" + _PKG_DIR + r"\s*,(?P<parts>(?:\s*(['\"])[\w.-]+\4\s*,?)+)\)\s*\)")


def package_file(value) -> str | None:
    """`site-packages/PKG/REST` for a command substitution whose Python prints the path of REST inside the installed
    package PKG (round 26m: SFT_SCRIPT=$(python -c 'import swift; import os; print(os.path.dirname(swift.__file__) +
    "/cli/sft.py")') run as `python -m torch.distributed.run "$SFT_SCRIPT" ...`, ms-swift's own swift/cli/sft.py), the
    package imported by that name in the same code; None for anything else (the output of any other command stays
    unknown)."""
    if not isinstance(value, str):
        return None
    m = _PY_PRINT.match(value.strip())
    if m is None:
        return None
    code = m.group("code")
    hit = _PKG_PLUS.search(code) or _PKG_JOIN.search(code)
    if hit is None:
        return None
    pkg = hit.group("a") or hit.group("b")
    if not re.search(r"(?:^|[;\n]\s*)import\s+(?:[\w.]+\s*,\s*)*" + re.escape(pkg) + r"\b(?!\.)", code):
        return None
    if hit.re is _PKG_PLUS:
        rest = hit.group("rest").strip("/")
    else:
        rest = "/".join(re.findall(r"['\"]([\w.-]+)['\"]", hit.group("parts")))
    if not rest or ".." in rest.split("/"):
        return None
    return f"site-packages/{pkg}/{rest}"


_ASSIGN = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(\+?=)(.*)$", re.DOTALL)


def _assignment(word: str):
    m = _ASSIGN.match(word)
    return (m.group(1), m.group(2), m.group(3)) if m else None


