"""A config a launch script copies and edits before it hands the copy to the trainer (issue 24, round 20m).

`cp "$base_config" "$TEMP_CONFIG_FILE"`, then `sed -i "s|output_dir = \".*\"|output_dir = \"$OUT\"|g"
"$TEMP_CONFIG_FILE"`, then `train.py --config_file $TEMP_CONFIG_FILE`: the copy's name is settled only at run time
(a session id, a timestamp), but its content is the base file's with the script's own `sed -i` substitutions applied.
So the config the run reads is the base file (found as any file the launcher names: references.locate) with those
substitutions, applied line by line as sed does. An edit this module cannot apply exactly (an address, a command other
than `s`, a flag other than g / I) leaves the copy unread, never read as the base file.

Everything is read, nothing is run.
"""

from __future__ import annotations

import os
import re

_SED_BRE = set("(){}+?|")


def _norm(path: str) -> str:
    return os.path.normpath(path.strip("\"'")) if path else path


def _operands(words: list[str]) -> list[str]:
    """The file operands of `cp [OPTIONS] SRC DST` (options dropped; `--` ends them)."""
    out, opts = [], True
    for w in words[1:]:
        if opts and w == "--":
            opts = False
        elif opts and w.startswith("-") and len(w) > 1:
            continue
        else:
            out.append(w)
    return out


def _sed_edits(words: list[str]) -> tuple[list[str], list[str]] | None:
    """(the expressions, each marked "E" extended or "B" basic before it, the files) of a `sed -i [-e] EXPR ... FILE`
    (None: not an in-place edit, or options not read here)."""
    exprs, files, inplace, ext, i = [], [], False, False, 1
    while i < len(words):
        w = words[i]
        if w in ("-i", "--in-place") or re.match(r"^-i\S+$|^--in-place=", w):
            inplace = True
        elif w in ("-e", "--expression"):
            i += 1
            if i < len(words):
                exprs.append(words[i])
        elif w in ("-E", "-r", "--regexp-extended"):
            ext = True
        elif w.startswith("-") and len(w) > 1:
            return None  # -f script, -n, -z ...: not read here
        elif not exprs and not any(x.startswith("-e") for x in words[1:i]):
            exprs.append(w)
        else:
            files.append(w)
        i += 1
    if not inplace or not exprs or not files:
        return None
    return [("E" if ext else "B") + e for e in exprs], files


def _python_pattern(pat: str, extended: bool) -> str:
    """A sed regular expression (BRE or, with -E, ERE) as a Python one."""
    if extended:
        return pat
    out, i = [], 0
    while i < len(pat):
        c = pat[i]
        if c == "\\" and i + 1 < len(pat):
            n = pat[i + 1]
            out.append(n if n in _SED_BRE else c + n)
            i += 2
            continue
        out.append("\\" + c if c in _SED_BRE else c)
        i += 1
    return "".join(out)


def _substitute(text: str, expr: str) -> str | None:
    """`text` after one sed expression `s<d>PATTERN<d>REPLACEMENT<d>FLAGS` (None when it is anything else)."""
    extended, expr = expr[0] == "E", expr[1:].strip()
    if len(expr) < 4 or expr[0] != "s" or expr[1].isalnum() or expr[1] in "\\\n ":
        return None
    d, parts, cur, i = expr[1], [], [], 2
    while i < len(expr):
        c = expr[i]
        if c == "\\" and i + 1 < len(expr):
            cur.append(expr[i + 1] if expr[i + 1] == d else c + expr[i + 1])
            i += 2
            continue
        if c == d:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    parts.append("".join(cur))
    if len(parts) != 3 or not re.fullmatch(r"[gI]*", parts[2].strip().rstrip(";")):
        return None
    pat, repl, flags = parts[0], parts[1], parts[2]
    try:
        rx = re.compile(_python_pattern(pat, extended), re.IGNORECASE if "I" in flags else 0)
    except re.error:
        return None

    def replacement(m: re.Match) -> str:
        out, k = [], 0
        while k < len(repl):
            c = repl[k]
            if c == "\\" and k + 1 < len(repl):
                n = repl[k + 1]
                out.append(m.group(int(n)) or "" if n.isdigit() and int(n) <= rx.groups else "\n" if n == "n" else n)
                k += 2
                continue
            out.append(m.group(0) if c == "&" else c)
            k += 1
        return "".join(out)

    count = 0 if "g" in flags else 1
    return "\n".join(rx.sub(replacement, line, count=count) for line in text.split("\n"))


def copied_from(doc: dict, path: str) -> tuple[str, list[str]] | None:
    """(the file `path` is a copy of, the sed expressions the script applies to the copy in place, in order) when the
    script copies a file to `path` with `cp` (the last such copy), else None."""
    target = _norm(path)
    src, edits = None, []
    for cmd in doc.get("commands") or []:
        words = getattr(cmd, "words", None) or []
        prog = os.path.basename(words[0]) if words else ""
        if prog == "cp":
            ops = _operands(words)
            if len(ops) == 2 and _norm(ops[1]) == target and not ops[1].endswith("/"):
                src, edits = ops[0], []
        elif prog == "sed" and src is not None:
            sed = _sed_edits(words)
            if sed is not None and any(_norm(f) == target for f in sed[1]):
                edits += sed[0]
    return (src, edits) if src is not None else None


def edited(text: str, edits: list[str]) -> str | None:
    """The copy's text after the script's sed expressions (None when one of them is not a plain substitution)."""
    for e in edits:
        text = _substitute(text, e)
        if text is None:
            return None
    return text
