"""The conditions a launch script tests, decided where the script itself settles them (configs/shell.py reads the
commands under them): bash `if`/`[ ]`/`[[ ]]`/`test` guards and one-line `if ...; then ...; fi`, cmd.exe `if`
blocks (`if defined`, `if "%X%"=="y"`, `if exist`, `if not`), PowerShell `if (...)` with `-eq`, `-and`, `-not`.
Each test is True, False, or None where it depends on something the file does not say (a file on disk, the
machine, an argument): the commands under a None guard are read as maybe-run.
"""

from __future__ import annotations

import re

from .shell_words import _value, expand, known, unquoted, words_of

_BAT_IF = re.compile(r"^(\s*)@?if\s+(.+)$", re.IGNORECASE)


def _bat_test(cond: str, env: dict):
    """cmd.exe's `if` condition: True / False when the script's own `set` values settle it, None when they do not (a
    file's existence, an errorlevel, a variable or argument the caller sets)."""
    c = cond.strip()
    fold = bool(re.match(r"/i\s", c, re.IGNORECASE))
    c = c[2:].strip() if fold else c
    neg = bool(re.match(r"not\s", c, re.IGNORECASE))
    c = c[3:].strip() if neg else c
    if re.match(r"(exist|errorlevel|cmdextversion)\b", c, re.IGNORECASE):
        return None
    m = re.match(r"defined\s+([A-Za-z_]\w*)$", c, re.IGNORECASE)
    if m:  # `set NAME=` with nothing after it removes NAME
        v = None if m.group(1) not in env else bool(_value(env, m.group(1)))
    else:
        e = expand(c, env, "bat")
        if re.search(r"%(?:~?[0-9*]|[A-Za-z_]\w*%)", e):
            return None  # an argument or a variable the script does not set
        m = re.match(r'^("?)(.*?)\1\s*==\s*("?)(.*?)\3$', e) or \
            re.match(r"^(\"?)(.*?)\1\s+(?:EQU)\s+(\"?)(.*?)\3$", e, re.IGNORECASE)
        n = None if m else re.match(r'^"?(.*?)"?\s+(EQU|NEQ|LSS|LEQ|GTR|GEQ)\s+"?(.*?)"?$', e, re.IGNORECASE)
        if m:
            a, b = m.group(2), m.group(4)
            v = a.lower() == b.lower() if fold else a == b
        elif n:
            a, op, b = n.group(1), n.group(2).upper(), n.group(3)
            try:
                a, b = int(a), int(b)
            except ValueError:
                a, b = (a.lower(), b.lower()) if fold else (a, b)
            v = {"EQU": a == b, "NEQ": a != b, "LSS": a < b, "LEQ": a <= b, "GTR": a > b, "GEQ": a >= b}[op]
        else:
            return None
    return None if v is None else (not v if neg else v)


def _bat_split_if(rest: str):
    """`COND (` / `COND (A) else (B)` / `COND STATEMENT` as (condition, then, else); then is "(" for a block."""
    def body_of(cond: str, body: str):
        if body == "(":
            return cond, "(", None
        m = re.match(r"^\((.*)\)\s*else\s*\((.*)\)$", body, re.IGNORECASE) or re.match(r"^\((.*)\)$", body)
        return (cond, m.group(1).strip(), m.group(2).strip() if m.lastindex == 2 else None) if m else (cond, body, None)

    quote = False
    for k, ch in enumerate(rest):
        if ch == '"':
            quote = not quote
        if quote:
            continue
        if ch == "(" and rest[:k].strip():
            return body_of(rest[:k].strip(), rest[k:].strip())
        if ch in " \t" and rest[:k].strip():
            # a condition is `A==B`, `A OP B`, `defined X`, `exist X`, `errorlevel N` (after /i and not)
            low = [w.lower() for w in rest[:k].split()]
            while low and low[0] in ("/i", "not"):
                low = low[1:]
            if low and ((low[0] in ("defined", "exist", "errorlevel", "cmdextversion") and len(low) == 2) or
                        (len(low) == 1 and "==" in low[0] and not low[0].endswith("==")) or
                        (len(low) == 3 and low[1] in ("equ", "neq", "lss", "leq", "gtr", "geq", "=="))):
                return body_of(rest[:k].strip(), rest[k:].strip())
    return None


def _bat_guarded(line: str, env: dict, blocks: list, lines: list, i: int, n: int, end: int):
    """The part of a cmd.exe line that runs, given the enclosing `if (...)` blocks: None for a line the script settles
    as skipped and for the block lines themselves; a one-line `if COND (A) else (B)` becomes the branch that runs
    (both, one after the other, when the condition is not settled)."""
    s = line.strip()
    live = all((b["v"] if not b["else"] else (None if b["v"] is None else not b["v"])) is not False for b in blocks)
    if re.match(r"^\)\s*else\s*\($", s, re.IGNORECASE):
        if blocks:
            blocks[-1]["else"] = True
        return None
    m = re.match(r"^\)\s*else\s+if\s+(.+?)\s*\($", s, re.IGNORECASE)
    if m:
        if blocks:
            prev = blocks[-1]["v"]
            blocks[-1]["v"] = None if prev is None else (False if prev else _bat_test(m.group(1), env))
            blocks[-1]["else"] = False
        return None
    if s == ")":
        if blocks:
            blocks.pop()
        return None
    m = _BAT_IF.match(line)
    if m and not re.match(r"^\s*@?if\s+errorlevel\b", line, re.IGNORECASE):
        split = _bat_split_if(m.group(2))
        if split:
            cond, then, other = split
            v = _bat_test(cond, env) if live else False
            if then == "(":
                blocks.append({"v": v, "else": False})
                return None
            if not live:
                return None
            if other is not None and v is None:  # unsettled: both branches, as written
                lines.insert(i, (n, f"{m.group(1)}{other}", end))
                return f"{m.group(1)}{then}"
            run = then if v is not False else other
            return f"{m.group(1)}{run}" if run is not None else None
    return line if live else None


_ONE_LINE_IF = re.compile(r"^if\s+(.+?)\s*;\s*then\s+(.+?)\s*;?\s*fi$")
_GUARD = re.compile(r"^((?:!\s+)?(?:\[\[\s.*?\s\]\]|\[\s.*?\s\]|test\s[^&|]*?)(?:\s*(?:&&|\|\|)\s*(?:!\s+)?"
                    r"(?:\[\[\s.*?\s\]\]|\[\s.*?\s\]))*)\s*(&&|\|\|)\s*(?!\[)(.+)$")


def _and(*vals):
    return False if any(v is False for v in vals) else None if any(v is None for v in vals) else True


def _not(v):
    return None if v is None else not v


# the programs whose run an `if` tests when they are its condition: eval of a command held in a variable, Python, the
# distributed launchers and the trainers' own CLIs (a query such as `command -v x`, `grep -q`, `[ -f x ]` runs nothing
# that trains, and stays a test only)
_RUN_IN_CONDITION = re.compile(r"^(?:eval|srun|(?:\S*/)?(?:python[0-9.]*|accelerate|torchrun|deepspeed|swift|"
                               r"llamafactory-cli|tune|litgpt|axolotl|trl|simpletuner))$")


def _condition_run(cond: str) -> str | None:
    """The command an `if` condition runs when it is a training run (_RUN_IN_CONDITION), `!` and `VAR=value` prefixes
    aside; None for a test (`[ ... ]`, `[[ ... ]]`, `test`, `((...))`) or any other command."""
    words = cond.strip().split()
    while words and (words[0] == "!" or re.match(r"^[A-Za-z_]\w*=\S*$", words[0])):
        words = words[1:]
    if not words or not _RUN_IN_CONDITION.match(words[0].strip("\"'")):
        return None
    return cond.strip()[cond.strip().index(words[0]):]


def _guarded(line: str, env: dict, conds: list, unsure: set) -> tuple:
    """(the statement `line` runs, (True | False | None, condition)) under the enclosing `if` blocks (`conds`, kept
    up to date here: [{"v": this branch, "t": its condition, "taken": an earlier branch ran}]) and a leading
    `[[ COND ]] &&` / `||`; (None, None) for the `if`/`elif`/`else`/`then`/`fi` lines themselves. True: the script
    settles every condition true (or there is none); False: one is settled false; None: one depends on what the
    script does not settle (a caller's variable, a file, a command's output, a variable set in such a branch)."""
    s = line.strip()
    rest = line  # as written (indentation matters: only a top-level `exit` ends the script)
    m = re.match(r"^case\s+(.+?)\s+in$", s)
    if m:
        # `case WORD in PATTERN) ... ;; esac`: the first pattern WORD matches runs (fnmatch globs, `a|b` alternatives);
        # when the script does not settle WORD ("$1"), every branch may run and reads as written, unsettled
        word = expand(m.group(1), env).strip("\"'")
        from_unsure = any(re.search(r"\$\{?" + re.escape(v) + r"\b", m.group(1)) for v in unsure)
        conds.append({"v": False, "t": f"case {m.group(1)}", "taken": False, "open": False,
                      "case": None if from_unsure or re.search(r"\$|`", word) else word})
        return None, None
    if s == "esac":
        if conds and "case" in conds[-1]:
            conds.pop()
        return None, None
    if conds and "case" in conds[-1]:
        c = conds[-1]
        m = re.match(r"^\(?\s*([^()]+?)\s*\)\s*(.*)$", s) if not c["open"] else None
        if m:
            import fnmatch

            pats = [p.strip().strip("\"'") for p in m.group(1).split("|")]
            hit = None if c["case"] is None else any(fnmatch.fnmatchcase(c["case"], p) for p in pats)
            c["v"] = None if hit is None or c["taken"] is None else (hit and not c["taken"])
            c["taken"] = None if c["v"] is None else (c["taken"] or c["v"])
            c["t"] = f"{c['t'].split(' matches ')[0]} matches {m.group(1)}"
            c["open"] = True
            s = m.group(2).strip()
            rest = "    " + s
            if not s:
                return None, None
        if s.endswith(";;"):
            c["open"] = False
            s = s[:-2].strip()
            rest = "    " + s
            if not s:
                return None, None
            every = [(x["v"], x["t"]) for x in conds]
            if any(v is False for v, _ in every):
                return rest, (False, "")
            open_ = [t for v, t in every if v is None]
            return rest, ((None, " and ".join(open_)) if open_ else (True, ""))
    m = _ONE_LINE_IF.match(s)
    local = None
    if m:
        local = (_test(m.group(1), env, unsure), m.group(1))
        rest = "    " + m.group(2)
    else:
        m = re.match(r"^(if|elif)\s+(.+?)\s*(?:;\s*then)?$", s)
        if m and m.group(1) == "if":
            ran = _condition_run(m.group(2))
            outer = [(c["v"], c["t"]) for c in conds]
            conds.append({"v": _test(m.group(2), env, unsure), "t": m.group(2), "taken": False})
            if ran is None:
                return None, None
            # `if eval "$TRAIN_CMD"; then` / `if ! accelerate launch train.py ...; then`: the test is the run itself
            # (bash runs the condition's command and branches on its exit status), under the blocks around the `if`
            if any(v is False for v, _ in outer):
                return "    " + ran, (False, "")
            open_ = [t for v, t in outer if v is None]
            return "    " + ran, ((None, " and ".join(open_)) if open_ else (True, ""))
        if m and conds:  # elif: runs when no earlier branch did and its own test holds
            c = conds[-1]
            c["taken"] = None if c["taken"] is None or c["v"] is None else (c["taken"] or c["v"])
            c["v"], c["t"] = _and(_not(c["taken"]), _test(m.group(2), env, unsure)), m.group(2)
            return None, None
        if s == "else":
            if conds:
                c = conds[-1]
                taken = None if c["taken"] is None or c["v"] is None else (c["taken"] or c["v"])
                c["v"], c["t"] = _not(taken), f"not ({c['t']})"
            return None, None
        if s in ("fi", "then") or m:
            if s == "fi" and conds:
                conds.pop()
            return None, None
        m = _GUARD.match(s)
        if m:
            v = _test(m.group(1), env, unsure)
            local = (v, m.group(1)) if m.group(2) == "&&" else (_not(v), f"not {m.group(1)}")
            rest = "    " + m.group(3)
    every = [(c["v"], c["t"]) for c in conds] + ([local] if local else [])
    if any(v is False for v, _ in every):
        return rest, (False, "")
    open_ = [t for v, t in every if v is None]
    return rest, ((None, " and ".join(open_)) if open_ else (True, ""))


class Frames(list):
    """The enclosing `if` blocks of a script being read (_guarded, _ps_guarded), and the `if` frame a PowerShell
    script's last line closed with a lone `}` (`closed`: an `else` may follow on the next line)."""
    closed: dict | None = None


def _ps_guarded(line: str, env: dict, conds: list, unsure: set) -> tuple:
    """PowerShell's `if (COND) {` ... `} elseif (COND) {` ... `} else {` ... `}` blocks and one-line
    `if (COND) { STATEMENT }`, as _guarded reads bash's. Other blocks (`foreach (...) {`, `function f {`, `try {`)
    are taken to run."""
    s = line.strip()
    closed = getattr(conds, "closed", None)  # the `if` block the line before ended, if it ended one
    if closed is not None:
        conds.closed = None
    if closed is not None and re.match(r"^(elseif\s*\(|else\s*\{?$)", s, re.I):
        # `}` on its line, then `else {` / `elseif (...) {` on the next (Allman style): the branch continues the `if`
        # that `}` closed, not the block around it
        conds.append(closed)
    m = re.match(r"^if\s*\((.+)\)\s*\{\s*(.+?)\s*\}\s*$", s, re.I)
    local = None
    rest = line
    if m:
        local = (_ps_test(m.group(1), env, unsure), m.group(1))
        rest = "    " + m.group(2)
    else:
        m = re.match(r"^(\}\s*)?(if|elseif)\s*\((.+)\)\s*\{?$", s, re.I)
        if m and m.group(2).lower() == "if":
            conds.append({"v": _ps_test(m.group(3), env, unsure), "t": m.group(3), "taken": False, "ps": True,
                          "if": True})
            return None, None
        if m and conds:
            c = conds[-1]
            c["taken"] = None if c["taken"] is None or c["v"] is None else (c["taken"] or c["v"])
            c["v"], c["t"] = _and(_not(c["taken"]), _ps_test(m.group(3), env, unsure)), m.group(3)
            return None, None
        if re.match(r"^(\}\s*)?else\s*\{?$", s, re.I):
            if conds:
                c = conds[-1]
                taken = None if c["taken"] is None or c["v"] is None else (c["taken"] or c["v"])
                c["v"], c["t"] = _not(taken), f"-not ({c['t']})"
            return None, None
        if re.fullmatch(r"\}(\s*\})*\s*;?", s):  # `}`, or several blocks closed on one line: `} } } }`
            for _ in range(s.count("}")):
                if conds:
                    last = conds.pop()
                    if isinstance(conds, Frames):
                        conds.closed = last if last.get("if") else None
            return None, None
        if s == "{":
            return None, None
        if s.endswith("{"):  # foreach / function / try / while: taken to run
            # a line may open more than one (`if (...) { Get-ChildItem ... | ForEach-Object {`, closed by `} }`): one
            # frame per brace it leaves open, quoted text aside
            bare = re.sub(r"\"[^\"]*\"|'[^']*'", "", s)
            for _ in range(max(1, bare.count("{") - bare.count("}"))):
                conds.append({"v": True, "t": "", "taken": False, "ps": True})
            return None, None
    every = [(c["v"], c["t"]) for c in conds] + ([local] if local else [])
    if local is None:
        # a statement that closes blocks at its end (`... Write-Output "x" }`, `Write-Output $p } }`): it runs inside
        # them, and they end with it
        bare = re.sub(r"\"[^\"]*\"|'[^']*'", "", s)
        for _ in range(max(0, bare.count("}") - bare.count("{"))):
            if conds:
                conds.pop()
    if any(v is False for v, _ in every):
        return rest, (False, "")
    open_ = [t for v, t in every if v is None]
    return rest, ((None, " -and ".join(open_)) if open_ else (True, ""))


def _ps_value(word: str, env: dict):
    """A PowerShell operand: a variable's value (None when the script does not set it), a literal, $true/$false."""
    w = word.strip()
    low = w.lower()
    if low in ("$true", "$false", "$null"):
        return {"$true": True, "$false": False, "$null": ""}[low]
    m = re.match(r"^\$(?:env:)?([A-Za-z_]\w*)$", w)
    if m:
        if m.group(1) not in env or isinstance(env[m.group(1)], list):
            return None
        v = str(env[m.group(1)])
        return {"$true": True, "$false": False, "$null": ""}.get(v.lower(), v)
    return unquoted(w)


def _ps_truthy(v) -> bool:
    return v is not False and v not in ("", "0", "False", "false")


def _ps_test(cond: str, env: dict, unsure: set = frozenset()):
    """A PowerShell `if (...)` condition settled from the script's own variables (True / False / None)."""
    c = cond.strip()
    while c.startswith("(") and c.endswith(")") and c.count("(") == c.count(")"):
        c = c[1:-1].strip()
    parts = re.split(r"\s+(-and|-or)\s+", c, flags=re.I)
    if len(parts) > 1:
        v = _ps_test(parts[0], env, unsure)
        for op, part in zip(parts[1::2], parts[2::2]):
            w = _ps_test(part, env, unsure)
            v = _and(v, w) if op.lower() == "-and" else _not(_and(_not(v), _not(w)))
        return v
    m = re.match(r"^(?:-not\s+|!\s*)(.+)$", c, re.I)
    if m:
        return _not(_ps_test(m.group(1), env, unsure))
    if any(re.search(r"\$" + re.escape(u) + r"\b", c) for u in unsure):
        return None
    m = re.match(r"^(\S+)\s+-([ic]?)(like|notlike)\s+(\S+)$", c, re.I)
    if m:
        # `$train_mode -ilike "flux*"`: a wildcard match (case-insensitive unless -clike)
        import fnmatch

        a, b = _ps_value(m.group(1), env), _ps_value(m.group(4), env)
        if a is None or b is None:
            return None
        a, b = (str(a), str(b)) if m.group(2).lower() == "c" else (str(a).lower(), str(b).lower())
        hit = fnmatch.fnmatchcase(a, b)
        return hit if m.group(3).lower() == "like" else not hit
    m = re.match(r"^(\S+)\s+-[ic]?(eq|ne|gt|lt|ge|le)\s+(\S+)$", c, re.I)
    if m:
        a, b = _ps_value(m.group(1), env), _ps_value(m.group(3), env)
        if a is None or b is None:
            return None
        op = "-" + m.group(2).lower()  # (-ieq / -ceq: -eq's case variants)
        try:
            x, y = float(a), float(b)
        except (TypeError, ValueError):
            x, y = (str(a).lower(), str(b).lower())  # -eq on strings is case-insensitive
            if op not in ("-eq", "-ne"):
                return None
        return {"-eq": x == y, "-ne": x != y, "-gt": x > y, "-lt": x < y, "-ge": x >= y, "-le": x <= y}[op]
    v = _ps_value(c, env) if re.match(r"^(\$\S+|\d+|'[^']*'|\"[^\"]*\")$", c) else None
    return None if v is None else _ps_truthy(v)


# `uname -s` on a machine with a CUDA GPU: attn-doctor checks CUDA hosts, and macOS has none, so a script's
# `[[ "$(uname -s)" == "Darwin" ]]` branch is one that machine does not run (any other comparison stays open)
_UNAME_S = re.compile(r"^\$\(\s*uname(\s+-s)?\s*\)$")


def _test(cond: str, env: dict, unsure: set = frozenset()):
    """A `[[ ... ]]` / `[ ... ]` / `test ...` condition (or several joined by && / ||) settled from the script's own
    variables: True, False, or None when it depends on something the script does not settle (a caller's variable,
    a file, a command's output, a variable assigned under such a condition: `unsure`)."""
    c = cond.strip().rstrip(";").strip()
    parts = re.split(r"\s+(&&|\|\|)\s+(?=!?\s*\[|test\s)", c)
    if len(parts) > 1:
        v = _test(parts[0], env, unsure)
        for op, part in zip(parts[1::2], parts[2::2]):
            w = _test(part, env, unsure)
            v = _and(v, w) if op == "&&" else _not(_and(_not(v), _not(w)))
        return v
    neg = c.startswith("! ")
    c = c[2:].strip() if neg else c
    m = re.match(r"^\[\[\s*(.*?)\s*\]\]$", c) or re.match(r"^\[\s+(.*?)\s+\]$", c) or \
        re.match(r"^test\s+(.*)$", c)
    if not m or re.search(r"&&|\|\||\s-[ao]\s", m.group(1)):
        return None
    if any(re.search(r"\$\{?" + re.escape(u) + r"\b", m.group(1)) for u in unsure):
        return None
    body = re.sub(r"\$\{#([A-Za-z_]\w*)\[[@*]\]\}", lambda x: str(len(env[x.group(1)]))
                  if isinstance(env.get(x.group(1)), list) else x.group(0), m.group(1))
    ws = words_of(expand(body, env), "posix")
    w = ws[0] if len(ws) == 1 else None
    if w is None:
        return None
    r = None
    if len(w) == 3 and w[1] in ("==", "=", "!=") and (_UNAME_S.match(w[0]) or _UNAME_S.match(w[2])):
        other = w[2] if _UNAME_S.match(w[0]) else w[0]
        r = None if other.strip("*") != "Darwin" else (w[1] == "!=")
        return None if r is None else (not r if neg else r)
    if not all(known(x) for x in w):
        return None
    if len(w) == 1:
        r = w[0] != ""
    elif len(w) == 2 and w[0] in ("-n", "-z"):
        r = (w[1] != "") == (w[0] == "-n")
    elif len(w) == 3 and w[1] in ("==", "=", "!="):
        r = (w[0] == w[2]) == (w[1] != "!=")
    elif len(w) == 3 and w[1] in ("-eq", "-ne", "-gt", "-lt", "-ge", "-le"):
        try:
            a, b = int(w[0]), int(w[2])
        except ValueError:
            return None
        r = {"-eq": a == b, "-ne": a != b, "-gt": a > b, "-lt": a < b, "-ge": a >= b, "-le": a <= b}[w[1]]
    return None if r is None else (not r if neg else r)
