"""The folder a log builds a backend from, and the command that rebuilds that folder (safe advice).

A build entry's fix rebuilds the library from its words in attribution.toml (`{build}`: `pip install flash-attn
--no-build-isolation --no-cache-dir`; `{reinstall}`). Where the log shows the library built from a folder or file the
user has, that line would install a release from the index in place of the user's sources. So the folder is read from
the input, as it gives it, and the fix builds it:

- pip's own lines: `Obtaining file:///home/u/src/flash-attention` (an editable install), `Processing /home/u/src/xformers`;
- uv's: `Failed to build `flash-attn @ file:///C:/src/flash-attention``;
- a command line: `pip install -e .`, `python -m pip wheel . -w dist`, `uv pip install "./my src/SageAttention"`,
  `cd flash-attention/hopper && python setup.py install` (the folder joined to a `cd` before it on its line, or to the
  shell prompt's folder: `PS C:\\src\\flash-attention> pip install -e .`, `u@box:~/src/xformers$ pip install .`);
- a traceback frame of the folder's setup.py (`File "/home/u/src/flash-attention/setup.py", line 12`).

A folder is the backend's when its path (or the name uv gives it) names that backend, by attribution.toml's rules; a
folder that names none (`.`, `~/fork`) is, when the log names what it builds: pip's `Building editable for flash_attn` for
an editable install, setuptools' `building 'flash_attn_2_cuda' extension` for a setup.py run. Never: a wheel file (nothing
is built), a path inside site-packages, or the temporary copies pip and uv build in (`/tmp/pip-install-*`, their caches).
"""

from __future__ import annotations

import ntpath
import posixpath
import re
import shlex
from dataclasses import dataclass, replace
from urllib.parse import unquote

# What the input says about a local source being built: (name, pattern with a `src`, `cmd` or `name` group), run by the
# matcher's prefilter beside tailor.PROBES (each on its own line).
PROBES: tuple[tuple[str, str], ...] = (
    # pip: "Obtaining file:///home/u/src/flash-attention" (-e), "Processing /home/u/src/xformers", "Processing c:\src\x"
    ("pip-source", r"^[ \t]*(?P<verb>Obtaining|Processing)[ \t]+(?P<src>(?:file:/|[/~.]|[a-z]:[\\/])[^\n]*)"),
    # uv: "Failed to build `flash-attn @ file:///home/u/src/flash-attention`", "Building flash-attn @ file:///..."
    ("uv-source", r"`(?P<name>[a-z0-9][\w.-]*)[ \t]*@[ \t]*(?P<src>file:/[^`\s]+)`"),
    # a command line that installs or builds with pip or uv pip (its arguments are read by pip_sources below)
    ("pip-command", r"^(?P<cmd>[^\n]*?(?:\bpip3?|-m[ \t]+pip)[ \t]+(?:install|wheel)\b[^\n]*)"),
    ("setup-command", r"^(?P<cmd>[^\n]*?\bsetup\.py[ \t]+(?:install|develop|bdist_wheel|build_ext|build)\b[^\n]*)"),
    ("setup-frame", r'^[ \t]*File "(?P<src>[^"\n]+)[/\\]setup\.py", line \d+'),
    # what a nameless folder builds: pip's editable build, setuptools' extension
    ("builds-editable", r"\bBuilding editable for (?P<name>[\w.-]+) \("),
    ("builds-extension", r"^[ \t]*building '(?P<name>[\w.]+)' extension\b"),
)

# pip's and uv's own copies of what they build, and installed packages: no folder of the user's
NOT_SOURCE = re.compile(r"(?i)[/\\](?:pip-(?:install|req-build|build-env|wheel|ephem-wheel-cache)-|site-packages[/\\]|"
                        r"dist-packages[/\\]|\.cache[/\\](?:pip|uv)[/\\]|uv[/\\]cache[/\\])|[/\\](?:site|dist)-packages$")
# the shell prompt before a command: PowerShell's "PS C:\src> ", cmd's "C:\src>", bash's "user@host:~/src$ "
PROMPT = re.compile(r"(?:^|\s)PS (?P<ps>[A-Za-z]:\\[^>]*)>\s*$|^\s*(?P<cmd>[A-Za-z]:\\[^>]*)>\s*$|"
                    r"[\w.-]+@[\w.-]+:(?P<sh>[~/][^$#]*)[$#]\s*$")
# options of pip install / pip wheel that take a value (the value is no requirement)
VALUED = {"-r", "--requirement", "-c", "--constraint", "-i", "--index-url", "--extra-index-url", "-f", "--find-links",
          "-t", "--target", "--prefix", "--root", "--python", "-w", "--wheel-dir", "--cache-dir", "--src", "--log",
          "--config-settings", "-C", "--global-option", "--build-option", "--platform", "--python-version",
          "--implementation", "--abi", "--progress-bar", "--upgrade-strategy", "--report", "-p", "--extra"}


@dataclass(frozen=True)
class Source:
    """A folder (or source archive) the input builds a library from, as the input gives it."""
    path: str  # as the text gives it (a file: URL made a path): "/home/u/src/flash-attention", ".", "C:\\src\\x"
    line: int
    editable: bool = False  # pip install -e / setup.py develop
    wheel: bool = False  # pip wheel / setup.py bdist_wheel: built, not installed
    extras: str = ""  # "[dev]" as written after the folder
    wheel_dir: str | None = None  # pip wheel's -w
    name: str | None = None  # the project name the installer gives it (uv's "name @ file://...")


def sources(probed: dict[str, list[tuple[int, dict]]]) -> tuple[Source, ...]:
    """Every local source the probes' hits show being built, in line order. What pip, uv or a setup.py frame prints
    (an absolute path) takes the flags of the command typed above it (`pip install -e .`, `pip wheel . -w dist`)."""
    typed: list[Source] = []
    for line, g in probed.get("pip-command", []):
        typed += pip_sources(g["cmd"], line)
    for line, g in probed.get("setup-command", []):
        typed += _setup_source(g["cmd"], line)
    printed: list[Source] = []
    for line, g in probed.get("pip-source", []):
        printed += _one(_path(g["src"]), line, editable=g["verb"].lower() == "obtaining")
    for line, g in probed.get("uv-source", []):
        printed += _one(_path(g["src"]), line, name=g["name"])
    for line, g in probed.get("setup-frame", []):
        if _absolute(g["src"]):
            printed += _one(g["src"], line)
    printed = [_as_typed(s, typed) for s in printed]
    return tuple(sorted(typed + printed, key=lambda s: s.line))


def _as_typed(s: Source, typed: list[Source], window: int = 30) -> Source:
    """`s` with the flags of the nearest command typed at most `window` lines above it."""
    above = [t for t in typed if s.line - window <= t.line <= s.line]
    if not above:
        return s
    t = above[-1]
    return replace(s, editable=s.editable or t.editable, wheel=t.wheel, wheel_dir=t.wheel_dir, extras=s.extras or t.extras)


# a file that is no source archive: a wheel (installed, not built), data a program processes ("Processing ./data/a.jsonl")
NOT_ARCHIVE = re.compile(r"(?i)(?<!\.tar)\.(?!(?:tar\.gz|tgz|tar\.bz2|zip)$)[a-z][a-z0-9]{0,5}$")


def _one(path: str | None, line: int, **kw) -> list[Source]:
    """[the source at `path`], or [] where `path` is no folder or source archive of the user's."""
    if not path or NOT_SOURCE.search(path) or NOT_ARCHIVE.search(re.sub(r"\[[^\]]*\]$", "", path).rstrip("/\\")):
        return []
    extras = ""
    m = re.search(r"(\[[\w,\s.-]*\])$", path)
    if m:
        path, extras = path[:m.start()], m.group(1)
    if not path:
        return []
    return [Source(path, line, extras=extras, **kw)]


def _path(text: str) -> str:
    """A pip or uv source as a path: the file: URL's path (C:/... for a Windows drive), its (from ...) note cut."""
    text = re.sub(r"\s+\(from [^\n]*$", "", text).strip().strip("`'\"")
    if text.lower().startswith("file:"):
        text = unquote(re.sub(r"(?i)^file:(?://[^/]*)?", "", text))
        if re.match(r"^/[A-Za-z]:[/\\]", text):
            text = text[1:]
    return text


def _absolute(path: str) -> bool:
    return bool(re.match(r"^(?:/|~|[A-Za-z]:[\\/]|\\\\)", path))


def _join(base: str | None, path: str) -> str:
    """`path` as seen from the folder `base` (a cd or a prompt's folder), written the way `base` is."""
    if not base or _absolute(path):
        return path
    win = "\\" in base and "/" not in base
    rest = re.sub(r"^\.[/\\]?", "", path) if path.startswith(".") and not path.startswith("..") else path
    if not rest:
        return base
    return (ntpath if win else posixpath).join(base, rest)


def _segments(cmd: str) -> tuple[str | None, list[str]]:
    """(the folder a command line's pip or setup.py command runs in, that command's words): the shell prompt's folder,
    then each `cd X` before the command on its line."""
    cmd = re.sub(r"^\s*(?:#\d+\s+(?:\[[^\]]*\]\s+)?)?(?:RUN\s+)?(?:\+\s+)?", "", cmd)  # BuildKit's "#9 [5/7] RUN", set -x's "+"
    parts = re.split(r"&&|;|\|\|", cmd)
    m = PROMPT.search(re.split(r"\b(?:cd|pip3?|python3?(?:\.exe)?|uv)\b", parts[0], maxsplit=1)[0])
    cwd = (m.group("ps") or m.group("cmd") or m.group("sh").strip()) if m else None
    if m:
        parts[0] = parts[0][m.end():]  # (cmd's prompt has no space before the command: "C:\\src>pip")
    for part in parts:
        words = _words(part)
        if len(words) >= 2 and words[-2] == "cd":  # (after a prompt: "$ cd X", "PS C:\\src> cd X")
            cwd = _join(cwd, words[-1])
        elif any(w in ("install", "wheel") or w.endswith("setup.py") for w in words):
            return cwd, words
    return cwd, []


def _words(part: str) -> list[str]:
    """A shell command's words, quotes removed (a Windows path's backslashes kept)."""
    try:
        words = shlex.split(part, posix="\\" not in part)
    except ValueError:
        words = part.split()
    return [w[1:-1] if len(w) > 1 and w[0] == w[-1] and w[0] in "'\"" else w for w in words]


def pip_sources(cmd: str, line: int) -> list[Source]:
    """The local folders and source archives a pip (or uv pip) install or wheel command line names."""
    cwd, words = _segments(cmd)
    i = next((k for k, w in enumerate(words) if w in ("install", "wheel") and k and
              (words[k - 1] in ("pip", "pip3") or words[k - 1].endswith(("/pip", "\\pip", "pip.exe")))), None)
    if i is None:
        return []
    sub, rest = words[i], words[i + 1:]
    rest = rest[:next((k for k, w in enumerate(rest) if w.startswith("#")), len(rest))]  # a comment ends it
    wheel_dir = next((w.split("=", 1)[1] if "=" in w else rest[k + 1] for k, w in enumerate(rest)
                      if w.split("=", 1)[0] in ("-w", "--wheel-dir") and ("=" in w or k + 1 < len(rest))), None)
    wheel_dir = _join(cwd, wheel_dir) if wheel_dir else None
    out: list[Source] = []
    editable = skip = False
    for w in rest:
        if skip:
            skip = False
        elif w in ("-e", "--editable"):
            editable = True
        elif w.startswith("-"):
            skip = w in VALUED  # its value follows as the next word
        else:
            if _local(w):
                path, extras = re.fullmatch(r"(.*?)(\[[^\]]*\])?", _path(w)).groups()
                out += _one(_join(cwd, path) + (extras or ""), line, editable=editable, wheel=sub == "wheel",
                            wheel_dir=wheel_dir)
            editable = False
    return out


def _local(word: str) -> bool:
    """Is a requirement word a local path (not a name, a URL or a VCS link)?"""
    if re.match(r"(?i)^(?:git\+|hg\+|svn\+|bzr\+|https?:|ftp:)", word):
        return False
    if word.lower().startswith("file:"):
        return True
    base = re.sub(r"\[[^\]]*\]$", "", word)
    return base in (".", "..") or base.startswith(("./", "../", ".\\", "..\\", "~")) or _absolute(base) \
        or "/" in base or "\\" in base


def _setup_source(cmd: str, line: int) -> list[Source]:
    """`[cd X &&] python setup.py install|develop|bdist_wheel`: the folder it runs in."""
    cwd, words = _segments(cmd)
    k = next((n for n, w in enumerate(words) if w.endswith("setup.py")), None)
    if k is None or k + 1 >= len(words):
        return []
    script, verb = words[k], words[k + 1]
    folder = _join(cwd, posixpath.dirname(script.replace("\\", "/")) or ".")
    return _one(folder, line, editable=verb == "develop", wheel=verb == "bdist_wheel")


# ---- which source is the backend's, and the line that rebuilds it ----------------------------------------------

def of_backend(found: tuple[Source, ...], backend: str | None, probed: dict) -> Source | None:
    """The last source the input builds `backend` from: one whose path or name names it, else a nameless one whose
    build the log names as the backend's (pip's editable build, setuptools' extension)."""
    if not backend or not found:
        return None
    from .attribution import names_on

    def named(s: Source) -> set[str]:
        words = f"{s.name or ''} {s.path}"
        if re.search(r"(?i)(?:^|[/\\])hopper[/\\]?$", s.path):  # flash-attention/hopper: where FA3 is built
            return {"fa3"}
        return names_on(words)

    own = [s for s in found if backend in named(s)]
    if own:
        last = own[-1]  # an editable install of the same folder said elsewhere (pip's Obtaining over its setup.py frame)
        return replace(last, editable=any(s.editable for s in own if _folder(s.path) == _folder(last.path)))
    nameless = [s for s in found if not named(s)]
    if not nameless:
        return None
    built = {n for _, g in probed.get("builds-editable", []) for n in names_on(g["name"])}
    by_setup = {n for _, g in probed.get("builds-extension", []) for n in names_on(g["name"])}
    for s in reversed(nameless):
        if (s.editable and backend in built) or (backend in by_setup and _from_setup(s, probed)):
            return s
    return None


def _folder(path: str) -> str:
    """A path compared with another spelling of it: / for \\, lower case, no trailing separator."""
    return path.replace("\\", "/").rstrip("/").lower()


def _from_setup(s: Source, probed: dict) -> bool:
    return any(line == s.line for line, _ in probed.get("setup-command", []) + probed.get("setup-frame", []))


def quoted(path: str) -> str:
    """`path` quoted for a POSIX shell, a leading ~/ left for the shell to expand."""
    if path == "~" or path.startswith("~/"):
        return "~/" + shlex.quote(path[2:]) if path[2:] else "~"
    return shlex.quote(path)


def command(s: Source, reinstall: bool = False) -> str:
    """The pip line that builds source `s` against the torch already installed, as the log built it (editable, a
    wheel); `reinstall`: over a broken install of it, files only."""
    target = quoted(s.path + s.extras)
    if s.wheel:
        out = f"python -m pip wheel --no-deps {target} --no-build-isolation"
        return out + (f" -w {quoted(s.wheel_dir)}" if s.wheel_dir else "")
    force = "--force-reinstall --no-deps " if reinstall else ""
    return f"python -m pip install {force}{'-e ' if s.editable else ''}{target} --no-build-isolation"


def rebuild(fix: str | None, backend: str | None, source: Source | None) -> str | None:
    """`fix` with the backend's build (and reinstall) command from attribution.toml's words replaced by the command
    that builds `source`; the rest of the line (its comment, what to run before it) stays."""
    if not fix or source is None or not backend:
        return fix
    from .attribution import rules

    words = rules().words.get(backend, {})
    for key in ("reinstall", "build"):
        cmd = words.get(key, "").split("   # ", 1)[0].strip()
        if cmd and cmd in fix:
            fix = fix.replace(cmd, command(source, reinstall=key == "reinstall"))
    return fix
