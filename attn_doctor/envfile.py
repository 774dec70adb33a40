"""env.sh: the environment part of a report's fixes, as a POSIX-shell file of `export` lines.

What goes in: every finding's knowledge entry may declare `env = {VAR = "value template"}` (and
`unset = ["VAR"]` for a setting that must go, such as TRITON_INTERPRET or CUDA_LAUNCH_BLOCKING); the
allocator findings get one corrected, compile-mode-safe setting; moving the Inductor cache moves
Triton's with it. Each line is commented with the finding ids it fixes.

Quoting (the file must run nothing but exports when sourced): a value that starts with `$HOME`
keeps that one expansion, written `"$HOME/rest"` (or `"$HOME"'rest'` when the rest has any
character a shell could act on); every other value is single-quoted, so `$(...)`, backticks, `$VAR`
and quotes stay literal. Values with control characters are not written (a comment says so).

The file starts with MARKER, so a later run recognises a file it wrote: it rewrites that one (a
run that changes nothing leaves it untouched), keeps the earlier exports that are in effect in the
environment the report was taken in (sourcing env.sh made their findings go away), and refuses to
touch any other file unless forced, which keeps PATH.bak. Output is sorted and has no timestamps.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass, field

from . import knowledge
from .checks.allocator import correction
from .facts import view
from .fsutil import write_atomic
from .model import Finding, Report, UsageError, sort_findings

MARKER = "# attn-doctor env.sh"
HEADER = f"""{MARKER} (format 1): written by `attn-doctor fix --write-env`, rewritten by it on every run.
# Source it before training:  . ./env.sh
# It only sets variables. "$HOME" is expanded when it is sourced; every other character is literal.
"""
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
SAFE = re.compile(r"[A-Za-z0-9_./:,=+@%-]*\Z")  # characters with no meaning inside double quotes
CONTROL = re.compile(r"[\x00-\x1f\x7f]")
MAX_READ = 1024 * 1024
# Every allocator finding is fixed by one setting (checks/allocator.correction).
ALLOC_IDS = ("alloc.unknown-key", "alloc.bool-case", "alloc.bad-value", "alloc.syntax", "alloc.async-cudagraphs",
             "alloc.async-ignores-options", "alloc.both-set", "alloc.new-name-unreliable", "alloc.old-name")


@dataclass
class Export:
    var: str
    value: str | None  # None: unset the variable
    ids: list[str] = field(default_factory=list)  # the findings it fixes
    note: str = ""  # the first finding's title
    raw: str | None = None  # the line kept verbatim from an earlier file


@dataclass
class Plan:
    exports: list[Export]
    skipped: list[str] = field(default_factory=list)  # comment lines: what could not be written, and why


def one_line(text: str, limit: int = 200) -> str:
    """Text safe for a `#` comment: no line breaks or control characters, cut to `limit`."""
    text = " ".join(CONTROL.sub(" ", text or "").split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def quote(value: str) -> str:
    """`value` as a shell word that expands a leading $HOME and nothing else."""
    for prefix in ("${HOME}", "$HOME"):
        if value == prefix or value.startswith(prefix + "/"):
            rest = value[len(prefix):]
            return f'"$HOME{rest}"' if SAFE.match(rest) else '"$HOME"' + _single(rest)
    return _single(value)


def _single(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def expand(value: str, home: str | None) -> str:
    """What the shell sets when it runs `export VAR=<quote(value)>`."""
    for prefix in ("${HOME}", "$HOME"):
        if value == prefix or value.startswith(prefix + "/"):
            return (home or "") + value[len(prefix):]
    return value


# ---- what the findings call for ------------------------------------------------------------------

def plan(report: Report, compile_mode: str | None = None) -> Plan:
    """The exports the report's findings call for, most important finding first per variable."""
    env = view.env(report.facts)
    mode = compile_mode if compile_mode is not None else (report.options or {}).get("compile_mode")
    out: dict[str, Export] = {}
    skipped: list[str] = []

    def add(var: str, value: str | None, f: Finding, note: str | None = None) -> None:
        if not NAME.match(var):
            skipped.append(f"{f.id}: {one_line(var, 60)!r} is not a variable name; not written")
            return
        if value is not None and CONTROL.search(value):
            skipped.append(f"{f.id}: the value for {var} has control characters; set it by hand")
            return
        cur = out.get(var)
        if cur is None:
            out[var] = Export(var, value, [f.id], one_line(note or f.title))
        elif cur.value == value and f.id not in cur.ids:
            cur.ids.append(f.id)
        # a different value from a less important finding: the first one stands

    findings = sort_findings(report.findings)
    for f in findings:
        try:
            e = knowledge.get(f.id)
        except KeyError:
            continue
        for var_t, value_t in e.env.items():
            need = knowledge.template_fields(var_t) | knowledge.template_fields(value_t)
            if not need <= set(f.params):
                if "persist_cmd" in f.params and "var" in f.params:  # no directory under $HOME will do
                    # why, as the paste line says it (checks/caches.persist): $HOME may be writable but under /tmp, or the
                    # very directory with the problem (nu42 row 6: "no directory under $HOME can be created" was untrue)
                    why = str(f.params["persist_cmd"]).partition("   # ")[2].strip() or \
                        "no directory under $HOME can be created here"
                    skipped.append(f"{f.id}: {f.params['var']} is not set: {why}; choose a directory on a persistent "
                                   "volume this user can write")
                continue
            var, value = knowledge.render(var_t, f.params), knowledge.render(value_t, f.params)
            if value:
                add(var, value, f)
        for var_t in e.unset:  # a setting that must go (TORCH_COMPILE_DISABLE, CUDA_LAUNCH_BLOCKING ...)
            if knowledge.template_fields(var_t) <= set(f.params):
                add(knowledge.render(var_t, f.params), None, f)
    # Triton compiles into the Inductor cache unless TRITON_CACHE_DIR is set: move both together.
    ind = out.get("TORCHINDUCTOR_CACHE_DIR")
    if ind and "TRITON_CACHE_DIR" not in out and "TRITON_CACHE_DIR" not in env:
        f = next(f for f in findings if f.id == ind.ids[0])
        add("TRITON_CACHE_DIR", "$HOME/.cache/triton", f,
            note="Triton's kernel cache moves with the Inductor cache (it sits inside it unless TRITON_CACHE_DIR is set).")
    hits = [f for f in findings if f.id in ALLOC_IDS]
    for var, value in allocator(env, view.torch_base(report.facts), mode, findings):
        for f in hits:  # one setting fixes them all: name each in its comment
            add(var, value, f)
    # A directory under $HOME that this user cannot create (HOME=/ in a container run with another
    # uid) would turn a warning into an error: leave that variable to the user, and say so.
    bad = {c["persistent"]["value"]: c["persistent"].get("why") for c in report.facts.get("caches") or []
           if isinstance(c.get("persistent"), dict) and not c["persistent"].get("usable")}
    for var, x in list(out.items()):
        if x.value in bad:
            del out[var]
            skipped.append(f"{', '.join(x.ids)}: {var} is not set: {x.value} cannot be used here ({bad[x.value]}); "
                           f"choose a directory on a persistent volume this user can write")
    return Plan(sorted(out.values(), key=lambda x: x.var), skipped)


def allocator(env: dict, torch_base, mode: str | None, findings: list[Finding]) -> list[tuple[str, str | None]]:
    """The one allocator setting that fixes the allocator findings, the same one their fix lines
    print (checks/allocator.correction): the corrected value under the name torch reads reliably,
    the other name unset."""
    if not any(f.id in ALLOC_IDS for f in findings):
        return []
    fix = correction(env, torch_base, mode)
    if fix is None:
        return []
    return [(fix.var, fix.value)] + [(v, None) for v in fix.unset if v != fix.var]


# ---- the file --------------------------------------------------------------------------------------

def render(p: Plan) -> str:
    lines = [HEADER]
    if not p.exports and not p.skipped:
        lines.append("# Nothing to set: no finding calls for an environment variable.\n")
    for x in p.exports:
        lines.append(f"# {', '.join(x.ids)}: {x.note}" if x.note else f"# {', '.join(x.ids)}")
        if x.raw is not None:
            lines.append(x.raw)
        elif x.value is None:
            lines.append(f"unset {x.var}")
        else:
            lines.append(f"export {x.var}={quote(x.value)}")
        lines.append("")
    for s in p.skipped:
        lines.append("# " + one_line(s, 300))
    return "\n".join(lines).rstrip("\n") + "\n"


_LINE = re.compile(r"(export ([A-Za-z_][A-Za-z0-9_]*)=(.*)|unset ([A-Za-z_][A-Za-z0-9_]*))\Z")


def parse_file(text: str, home: str | None) -> list[Export]:
    """The exports of a file this module wrote (its own format only), with their expanded values."""
    out, note = [], ""
    for line in text.splitlines():
        if line.startswith("# ") and ": " in line and not line.startswith(MARKER):
            note = line[2:]
            continue
        m = _LINE.match(line)
        if not m:
            continue
        if m.group(4):
            out.append(Export(m.group(4), None, [], note, raw=line))
        else:
            try:
                words = shlex.split(m.group(3))
            except ValueError:
                continue
            if len(words) != 1:
                continue
            val = words[0]
            if m.group(3).startswith('"$HOME'):
                val = expand(val, home)
            out.append(Export(m.group(2), val, [], note, raw=line))
        note = ""
    return out


def keep_in_effect(p: Plan, previous: list[Export], env: dict) -> Plan:
    """Earlier exports for variables this run does not decide, whose value is what the environment
    has now: they are why their findings are gone, so dropping them would bring the findings back."""
    decided = {x.var for x in p.exports}
    kept = []
    for x in previous:
        if x.var in decided:
            continue
        in_effect = (x.var not in env) if x.value is None else env.get(x.var) == x.value
        if in_effect:
            ids_note = x.note.split(": ", 1)
            x.ids = [i.strip() for i in ids_note[0].split(",")] if ids_note[0] else ["kept"]
            x.note = ids_note[1] if len(ids_note) > 1 else ""
            kept.append(x)
    return Plan(sorted(p.exports + kept, key=lambda x: x.var), p.skipped)


@dataclass
class Written:
    path: str
    status: str  # written | unchanged
    backup: str | None
    text: str
    plan: Plan


def _read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as fh:
            return fh.read(MAX_READ + 1)
    except OSError:
        return None


def ours(data: bytes | None) -> bool:
    return data is not None and data.startswith(MARKER.encode())


def build(report: Report, path: str | None = None, compile_mode: str | None = None) -> tuple[str, Plan]:
    """The file's text; with `path`, merged with the exports still in effect from the file there."""
    p = plan(report, compile_mode)
    if path:
        data = _read(path) if os.path.isfile(path) else None
        if ours(data) and len(data) <= MAX_READ:
            env = view.env(report.facts)
            home = env.get("HOME") or os.environ.get("HOME")
            p = keep_in_effect(p, parse_file(data.decode("utf-8", "replace"), home), env)
    return render(p), p


def write(report: Report, path: str = "env.sh", *, force: bool = False, compile_mode: str | None = None) -> Written:
    """Write env.sh atomically. A file at `path` that attn-doctor did not write is a UsageError unless
    `force`, which first copies it to `path`.bak."""
    backup = None
    if os.path.isdir(path):
        raise UsageError(f"{path} is a directory")
    existing = _read(path) if os.path.lexists(path) else None
    if os.path.lexists(path) and not ours(existing):
        if not force:
            raise UsageError(f"{path} exists and was not written by attn-doctor; left alone "
                             f"(use --force to replace it, keeping {path}.bak, or give another path)")
        if existing is None:
            raise UsageError(f"{path} exists but cannot be read, so no {path}.bak can be kept; left alone")
        backup = path + ".bak"
        write_atomic(backup, existing)
    text, p = build(report, path if ours(existing) else None, compile_mode)
    if existing is not None and ours(existing) and existing == text.encode():
        return Written(path, "unchanged", None, text, p)
    write_atomic(path, text)
    return Written(path, "written", backup, text, p)
