"""Which of a launch script's variables the programs it starts get in their environment (configs/shell.py keeps an
Exports while it reads the script in order; each Command holds the names at it, Command.exported).

bash hands a program only the variables exported before it runs and those assigned in front of its command line
(bash(1), ENVIRONMENT): `export NAME[=v]`, `declare -x` / `typeset -x` / `local -x`, an assignment made while `set -a`
/ `set -o allexport` is on (until `set +a` / `set +o allexport`: bash(1), the set builtin), `NAME=v cmd` and `env
NAME=v cmd`. A plain `NAME=v` only sets the shell's own variable; `unset NAME`, `export -n NAME` and `declare +x NAME`
take the export away. cmd.exe's `set NAME=v` and PowerShell's `$env:NAME = v` set the process's environment itself,
which every program started after it inherits (shell.parse marks those). What a command run in a subshell exports (a
pipeline's part, a list sent to the background with `&`, `( list )`: shell_words.commands_of) is gone when the
subshell ends (held / restore), and `env -i` / `env -u NAME` take the environment from the program it starts
(Command.cleared / withheld)."""

from __future__ import annotations

from .shell_words import _assignment

# the builtins that declare variables, and the option letter that exports them (`export` exports without one)
_DECLARING = ("export", "local", "declare", "typeset", "readonly")


class Exports:
    """The names the script has exported so far and whether allexport is on. preamble: the lines of a script text
    that only write out its caller's variables (shell._preamble, a called function's), whose assignments are the
    caller's and are not marked again under allexport. function: the text is a called function's body, whose
    `local` / `declare` / `typeset` variables (without -g) are its own (local: their names)."""

    __slots__ = ("names", "allexport", "preamble", "function", "local")

    def __init__(self, names=(), allexport: bool = False, preamble: int = 0, function: bool = False):
        self.names, self.allexport, self.preamble = set(names), allexport, preamble
        self.function, self.local = function, set()

    def inner(self, preamble_text: str, child: bool = False, function: bool = False, given=None) -> Exports:
        """The state a script text run from here starts with (a called function's body, function; a sourced file;
        child: a new shell, a `bash -c` string or a job's script, which inherits the environment of the command that
        starts it, given (its Command.exported; else the names exported here), but not `set -a`), after
        preamble_text, the caller's variables written out."""
        names = given if child and given is not None else self.names
        return Exports(names, self.allexport and not child, preamble_text.count("\n"), function)

    def held(self, env: dict | None = None) -> tuple:
        """What a subshell starts from (bash(1), COMMAND EXECUTION ENVIRONMENT: a subshell's changes to it do not
        affect the shell that started it), for restore() when the subshell ends: the exports, and env, the script's
        variables' values (shell.parse's), whose assignments in the subshell die with it as its exports do."""
        values = None if env is None else {k: list(v) if isinstance(v, list) else v for k, v in env.items()}
        return frozenset(self.names), self.allexport, frozenset(self.local), values

    def restore(self, held: tuple, env: dict | None = None) -> None:
        names, self.allexport, local, values = held
        self.names, self.local = set(names), set(local)
        if env is not None and values is not None:
            env.clear()
            env.update(values)

    def take(self, inner: Exports) -> None:
        """What a text run in this same shell (a called function, a sourced file) exported is this script's from here;
        a function's own variables go when it returns, their export with them (bash(1), the declare builtin: "When
        used in a function, declare makes each name local, as with the local command, unless the -g option is
        supplied"): `f() { local -x A=1; }; f; python t.py` hands t.py no A (rev25)."""
        self.names = (inner.names - inner.local) | (self.names & inner.local)
        self.allexport = inner.allexport

    def mark(self, name: str) -> None:
        self.names.add(name)

    def at(self, given=()) -> frozenset:
        """The names a program started now gets: those exported so far and `given`, assigned in front of it."""
        return frozenset(self.names.union(given)) if given else frozenset(self.names)

    def note(self, words: list, line: int = 0) -> None:
        """One simple command, its words expanded: what it exports, unexports, or assigns under allexport."""
        if not words:
            return
        head, rest = words[0], words[1:]
        if head in _DECLARING:
            flags = [w for w in rest if w[:1] in "-+" and len(w) > 1 and not _assignment(w)]
            names = [(_assignment(w) or (w,))[0] for w in rest if w not in flags]
            if head == "export":
                on = not any("n" in f[1:] or "f" in f[1:] or "p" in f[1:] for f in flags if f[0] == "-")
                off = any("n" in f[1:] for f in flags if f[0] == "-")
            else:
                on = any("x" in f[1:] for f in flags if f[0] == "-")
                off = any("x" in f[1:] for f in flags if f[0] == "+")
            if head in ("local", "declare", "typeset") and self.function and \
                    not any("g" in f[1:] for f in flags if f[0] == "-"):
                self.local.update(names)  # (the function's own: take() drops them when it returns)
            if head != "export" and not on and not off and self.allexport and line > self.preamble:
                on = any(_assignment(w) for w in rest)  # (`declare NAME=v` while allexport is on)
            for n in names:
                if on:
                    self.names.add(n)
                elif off:
                    self.names.discard(n)
        elif head == "unset" and "-f" not in rest:
            self.names.difference_update(rest)
        elif head == "set":
            for k, w in enumerate(rest):
                if w == "--":
                    break  # (`set -- ARGS`: the positional parameters follow)
                if len(w) > 1 and w[0] in "-+" and w[1:].isalpha() and "a" in w[1:]:
                    self.allexport = w[0] == "-"  # (`set -a`, `set -eao pipefail`)
                elif w in ("-o", "+o") and rest[k + 1:k + 2] == ["allexport"]:
                    self.allexport = w == "-o"
        elif self.allexport and line > self.preamble and all(_assignment(w) for w in words):
            self.names.update(_assignment(w)[0] for w in words)
