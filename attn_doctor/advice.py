"""Every command attn-doctor prints passes through here, and only here:

- `aim`: written as a user would type it in the checked env (`pip install x`, `python -c ...`,
  `attn-doctor fix`), a command becomes one that acts on the target (target.py) and no other env:
  `<its python> -m pip install x` (`uv pip install --python <it> x` where it has no pip),
  `attn-doctor fix --python <it>`.
- `harms`: would the command break what works here? It removes a package a working backend needs,
  builds FA2 over flash-attn-4's `flash_attn` namespace, moves torch to another version or CUDA
  build under compiled backends, or puts a CPU-only torch on a machine with GPUs.
- `repair`: small rewrites that keep a command's intent without its side effects (`--pre` only
  for the package that needs it; `--force-reinstall` never reinstalls the dependencies).
- `pin_installed`: where the env is known, a `--force-reinstall` of an installed backend package with no version
  reinstalls the installed release (not the index's newest).
- `safe`: all of these; a harmful command is not printed as a command: a comment says what it would
  break, and the same install is offered into a separate env.

knowledge/ and plans/ keep writing plain commands; report.evaluate, plans, explain, merge and the
renderers call this module, so "which env?" and "would this hurt?" are answered in one place.
"""

from __future__ import annotations

import os
import re
import shlex
import textwrap
from dataclasses import dataclass
from functools import lru_cache

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from .target import GENERIC, Target

PIP_SUBS = "install|uninstall|download|wheel|show|check|list|freeze|index|inspect"
# `pip`, `pip3`, `python -m pip` as a command word (not in a path, not after `-m`, not uv's).
_PIP = re.compile(r"(?<![\w./~-])(?<!-m )(?<!uv )(?:python3?\s+-m\s+pip|pip3?)\s+(" + PIP_SUBS + r")\b")
_UV_PIP = re.compile(r"(?<![\w./-])uv\s+pip\s+(" + PIP_SUBS + r")\b(?![^\n#]*--python)")
# `python -c ...`, `python3 -m x`, `python -X importtime ...`, `python train.py` (the user's own job, run by the same
# interpreter as the env's fixes): the interpreter as a command word.
_PY = re.compile(r"(?<![\w./~-])python3?(?=\s+-[cmXuOBIEsSW]\b|[ \t]+[\w./~${}:\\-]*\w\.py\b)")
# attn-doctor commands that act on an env; explain reads text, merge reads reports.
_DOCTOR = re.compile(r"(?<![\w./-])attn-doctor\s+(check|fix|bench)\b")
_SEGMENT_END = re.compile(r"&&|\|\||;|\||#|\n")

# Distributions each backend needs at run time, beyond torch.
NEEDS = {
    "cute": ("flash-attn-4", "quack-kernels", "nvidia-cutlass-dsl", "nvidia-cutlass-dsl-libs-base",
             "nvidia-cutlass-dsl-libs-core", "nvidia-cutlass-dsl-libs-cu12", "nvidia-cutlass-dsl-libs-cu13",
             "apache-tvm-ffi", "torch-c-dlpack-ext"),
    "fa2": ("flash-attn",),
    "fa3": ("flash-attn-3", "flash_attn_3", "flashattn-hopper"),
    "sage": ("sageattention", "triton"),
    "xformers": ("xformers",),
    "flex": ("triton",),
    "sdpa": (),
}
COMPILED = ("fa2", "fa3", "xformers")  # extensions built against one torch release and CUDA
# Packages published only as pre-releases: `--pre` becomes this floor, so pip allows a pre-release
# of that package alone (PEP 440) and never of its dependencies (a dev einops came in with --pre).
PRE_FLOOR = {"flash-attn-4": "4.0.0b0"}
BACKEND_NAMES = ("sdpa", "flex", "cute", "fa2", "fa3", "sage", "xformers")


# ---- aiming ----------------------------------------------------------------------------------

def aim(text: str | None, target: Target | None) -> str | None:
    """`text` with every pip, python and attn-doctor command aimed at `target`. Idempotent."""
    if not text or target is None:
        return text
    # (what it reads besides: $HOME, through target.shown; a Target is frozen)
    try:
        return _aimed(text, target, os.environ.get("HOME"))
    except TypeError:  # (something unhashable where a str and a Target belong: computed as it comes)
        return _aimed.__wrapped__(text, target, os.environ.get("HOME"))


@lru_cache(maxsize=2048)
def _aimed(text: str, target: Target, home: str | None) -> str:
    """aim's answer, kept: `check` aims every finding's title, fix and params and the backends table's reasons (~10 texts,
    ~0.3 ms), most of them the same in every check of a process that checks many machines (tests/test_findings.py; helper
    ci39a)."""
    text = "\n".join(one_comment(ln) for ln in text.split("\n"))
    pip = target.pip()
    text = _UV_PIP.sub(lambda m: f"uv pip {m.group(1)} --python {target.shown}", text)
    text = _PIP.sub(lambda m: pip.format(sub=m.group(1)), text)
    if target.how != "generic":
        text = _PY.sub(lambda m: target.shown, text)
    flag = target.flag
    if flag:
        text = _doctor_flag(text, flag)
    return text


def one_comment(line: str) -> str:
    """`cmd   # a   # b` (a template's comment after a command that has its own) as `cmd   # a; b`."""
    parts = line.split("   # ")
    if len(parts) <= 2 or line.lstrip().startswith("#"):
        return line
    return parts[0] + "   # " + "; ".join(p.strip() for p in parts[1:])


def _doctor_flag(text: str, flag: str) -> str:
    out, pos = [], 0
    for m in _DOCTOR.finditer(text):
        end = _SEGMENT_END.search(text, m.end())
        seg = text[m.end(): end.start() if end else len(text)]
        if "--python" in seg or "--from" in seg:
            continue
        out.append(text[pos:m.end()] + " " + flag)
        pos = m.end()
    out.append(text[pos:])
    return "".join(out)


def doctor(target: Target | None, sub: str, *args: str) -> str:
    """An attn-doctor command line that acts on `target` (a closing line, a hint)."""
    line = " ".join(["attn-doctor", sub, *args])
    return aim(line, target) if target else line


# ---- what works, and what a command would do to it --------------------------------------------

@dataclass
class Situation:
    """What a command is judged against: the env's packages and which backends work there."""
    installed: dict[str, str]  # canonical distribution name -> version
    working: set[str]  # backends whose status is ok
    torch: str | None  # torch's version, local tag kept ("2.11.0+cu130")
    gpus: int = 0
    cpu_torch: bool = False
    probed: bool = True  # False: read from an env's metadata alone (explain --python), so `working` is not known

    def at_risk(self) -> set[str]:
        """The backends a command must not break: those that work here; where nothing was probed, every backend
        whose package is installed (it may work: only a check says), and sdpa/flex where torch is."""
        if self.probed:
            return set(self.working)
        out = {b for b, needs in NEEDS.items() if needs and needs[0] in self.installed and b != "flex"}
        return out | ({"sdpa", "flex"} if self.torch or "torch" in self.installed else set())

    def works_words(self, n: int) -> str:
        if self.probed:
            return "that works" if n == 1 else "they work"
        return "that is installed" if n == 1 else "they are installed"

    @classmethod
    def of(cls, facts: dict, rows: dict | None = None, findings=()) -> "Situation":
        from .facts import view

        pk = facts.get("packages") or {}
        installed = {canonicalize_name(k): v for k, v in (pk.get("versions") or {}).items() if v}
        installed.update({canonicalize_name(k): v.get("version") for k, v in (pk.get("stack") or {}).items()
                          if isinstance(v, dict) and v.get("version")})
        t = view.torch(facts)
        if rows:
            # ok, and no error says otherwise (xformers built for another torch imports, then fails)
            failing = {f.backend for f in findings if f.severity == "error" and f.backend}
            working = {n for n, r in rows.items() if (r or {}).get("status") == "ok" and n not in failing}
        else:  # no statuses yet (an install plan made while they are computed): imports that worked
            working = {n for n, i in (facts.get("imports") or {}).items()
                       if ((i or {}).get("probe") or {}).get("ok")}
            if t["import_ok"]:
                working |= {"sdpa", "flex"}
        return cls(installed=installed, working=working, torch=t["version"], gpus=len(view.gpus(facts)),
                   cpu_torch=bool(t["installed"]) and not (t["cuda"] or t["hip"]))


@dataclass
class Pip:
    sub: str
    reqs: list[str]  # requirement strings, paths and URLs as given
    opts: list[str]
    index: str | None


@lru_cache(maxsize=1024)
def _shell_words(seg: str) -> tuple[str, ...]:
    """shlex.split(seg), kept: `check` splits the same fix and install lines for every finding and plan it aims (~1 ms of
    every check, again in a process that checks many machines: tests/test_findings.py; helper ci39a). (A ValueError is
    raised again each time: lru_cache keeps no exception.)"""
    return tuple(shlex.split(seg))


def pip_commands(line: str) -> list[Pip]:
    """The pip commands in one line of shell (comments dropped), in any of the forms aim writes."""
    code = _strip_comment(line)
    out = []
    for seg in re.split(r"&&|\|\||;|\|", code):
        try:
            words = list(_shell_words(seg.replace("\\\n", " ")))
        except ValueError:
            words = seg.split()
        while words and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", words[0]):
            words = words[1:]  # MAX_JOBS=8 pip install ...
        i = _pip_start(words)
        if i is None or i >= len(words):
            continue
        sub, rest = words[i], words[i + 1:]
        reqs, opts, index, skip = [], [], None, False
        for j, w in enumerate(rest):
            if skip:
                skip = False
                continue
            if w.startswith("-"):
                opts.append(w.split("=", 1)[0])
                if w in ("--index-url", "-i", "--extra-index-url", "--python", "-r", "--requirement", "-c",
                         "--constraint", "--target", "-t", "--prefix", "-e", "--editable", "-f", "--find-links"):
                    if w in ("-e", "--editable") and j + 1 < len(rest):
                        reqs.append(rest[j + 1])
                    if w in ("--index-url", "-i") and j + 1 < len(rest):
                        index = rest[j + 1]
                    skip = True
                elif w.startswith("--index-url="):
                    index = w.split("=", 1)[1]
                continue
            reqs.append(w)
        out.append(Pip(sub=sub, reqs=reqs, opts=opts, index=index))
    return out


def _pip_start(words: list[str]) -> int | None:
    """Index of the pip subcommand in `words`, or None when they are no pip command."""
    for i, w in enumerate(words):
        base = w.rsplit("/", 1)[-1]
        if base in ("pip", "pip3") and i + 1 < len(words) and words[i + 1] in PIP_SUBS.split("|"):
            return i + 1
        if w == "-m" and i + 1 < len(words) and words[i + 1] == "pip" and i + 2 < len(words):
            return i + 2
        if base == "uv" and i + 2 < len(words) and words[i + 1] == "pip":
            return i + 2
        if i > 2:
            return None
    return None


def _strip_comment(line: str) -> str:
    """The line without its shell comment (a `#` that starts a word, outside quotes)."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i]
    return line


def _name(req: str) -> tuple[str | None, Requirement | None]:
    """(canonical name, parsed requirement) of a requirement, a wheel file/URL or a local path."""
    tail = req.rsplit("/", 1)[-1].split("#", 1)[0]
    m = re.match(r"([A-Za-z0-9_.]+?)-(\d[^-]*)(-[^-]+)*\.whl$", tail)
    if m:
        return canonicalize_name(m.group(1)), Requirement(f"{m.group(1)}=={m.group(2)}") if _ok_req(
            f"{m.group(1)}=={m.group(2)}") else None
    if req in (".", "./") or req.startswith(("/", "./", "../", "git+", "http")):
        return None, None
    try:
        r = Requirement(req)
    except InvalidRequirement:
        return None, None
    return canonicalize_name(r.name), r


def _ok_req(s: str) -> bool:
    try:
        Requirement(s)
        return True
    except InvalidRequirement:
        return False


def _pinned(r: Requirement | None) -> Version | None:
    if r is None:
        return None
    for s in r.specifier:
        if s.operator in ("==", "==="):
            try:
                return Version(s.version.replace(".*", ""))
            except InvalidVersion:
                return None
    return None


def _local(version: str | None) -> str:
    return (version or "").partition("+")[2]


def _base(version: str | None) -> str | None:
    try:
        return Version(version or "").base_version
    except InvalidVersion:
        return None


def _owner(dist: str) -> list[str]:
    return [b for b, needs in NEEDS.items() if dist in needs]


def _lists_fa4_files(version: str | None) -> bool:
    """Does this flash-attn (FA2) release carry a flash_attn/cute/ of the same file names as flash-attn-4's (up to
    2.8.3; unknown: assumed so)?"""
    try:
        return version is None or Version(version).release[:3] <= (2, 8, 3)
    except InvalidVersion:
        return True


_UNPROBED = " (read from its files: attn-doctor check --python on it says whether it works)"


def harms(line: str, sit: Situation, cwd_hint: str | None = None) -> list[str]:
    """What a line of shell would break that works now, each as a sentence ([] when nothing)."""
    out: list[str] = []
    for p in pip_commands(line):
        if p.sub == "uninstall":
            for req in p.reqs:
                name, _ = _name(req)
                if not name:
                    continue
                works = sit.at_risk()
                users = [b for b in _owner(name) if b in works]
                if name == "torch" and works:
                    users = sorted(works)
                if users:
                    out.append(f"it removes {name}, which {', '.join(users)} needs, and "
                               f"{sit.works_words(len(users))} here" + ("" if sit.probed else _UNPROBED))
                if name == "flash-attn" and "cute" in works and _lists_fa4_files(sit.installed.get("flash-attn")):
                    out.append("it removes flash-attn, whose releases up to 2.8.3 list flash-attn-4's flash_attn/cute "
                               "files as their own: pip deletes them, and FA4 would no longer import as it does now")
            continue
        if p.sub != "install":
            continue
        for req in p.reqs:
            name, r = _name(req)
            local_fa = name is None and re.search(r"flash-attention(?!/hopper)|flash_attn-2", line) \
                and "hopper" not in line
            if (name == "flash-attn" or local_fa) and ("cute" in sit.at_risk() or "flash-attn-4" in sit.installed):
                out.append("it installs FlashAttention 2's flash_attn package (its flash_attn/__init__.py, and an old "
                           "flash_attn/cute in releases up to 2.8.3) over flash-attn-4's, so FA4 would no longer "
                           "import as it does now")
            if name == "torch":
                out += _torch_harms(p, r, sit)
    return list(dict.fromkeys(out))


def _torch_harms(p: Pip, r: Requirement | None, sit: Situation) -> list[str]:
    out = []
    want = _pinned(r)
    tag = (want.local if want else None) or (p.index.rstrip("/").rsplit("/", 1)[-1] if p.index else None)
    if tag == "cpu" and sit.gpus and not sit.cpu_torch:
        out.append("it installs a CPU-only torch on a machine with GPUs")
    if not sit.torch:
        return out
    built = sorted(b for b in COMPILED + ("sage",) if b in sit.at_risk() and _compiled(b, sit))
    if want is not None:
        moved = want.base_version != _base(sit.torch)
        flavour = bool(want.local) and want.local != _local(sit.torch)
    else:  # unpinned: pip keeps what is installed unless told to upgrade or reinstall, or it misses a floor
        moved = any(o in ("-U", "--upgrade", "--force-reinstall") for o in p.opts) or not _meets(r, sit.torch)
        flavour = bool(tag) and tag != _local(sit.torch) and tag != "cpu"
    if (moved or flavour) and built:
        what = f"torch {sit.torch} to {want}" if want else f"torch {sit.torch} to " + (
            f"a release of {r}" if r is not None and r.specifier and not _meets(r, sit.torch) else "whatever the index has newest")
        out.append(f"it moves {what}, and {', '.join(built)} {'is' if len(built) == 1 else 'are'} built for "
                   f"torch {sit.torch} and " + (f"work{'s' if len(built) == 1 else ''} here" if sit.probed else
                                                f"installed here{_UNPROBED}"))
    return out


def _compiled(backend: str, sit: Situation) -> bool:
    """Is this backend's install built against one torch? FA2, FA3 and xformers always; SageAttention from 2.0 (its
    CUDA extensions; 1.x is Triton only; a release not known: as before, not counted)."""
    if backend != "sage":
        return True
    try:
        return Version(sit.installed.get("sageattention") or "1").major >= 2
    except InvalidVersion:
        return False


def _meets(r: Requirement | None, version: str | None) -> bool:
    """Does the installed `version` satisfy `r`'s specifier (none, or unknown: yes)?"""
    if r is None or not r.specifier or not version:
        return True
    try:
        return r.specifier.contains(Version(version).public, prereleases=True)
    except InvalidVersion:
        return True


def pin_installed(line: str, sit: Situation | None) -> str:
    """A `--force-reinstall` of a package installed in the env, with no version, pinned to the installed release:
    the same files rebuilt or written again, never whatever release the index has newest."""
    code = _strip_comment(line)
    if sit is None or "--force-reinstall" not in code or "<" in code:  # `<a wheel built for ...>`: words, no names
        return line
    fixed = code
    for p in pip_commands(code):
        if p.sub != "install" or "--force-reinstall" not in p.opts:
            continue
        for req in p.reqs:
            name, r = _name(req)
            have = sit.installed.get(name or "")
            if r is None or r.specifier or r.url or not have or not _owner(name) or name == "torch":
                continue
            try:
                pin = Version(have).public
            except InvalidVersion:
                continue
            fixed = re.sub(r"(?<![\w.=<>~!/-])(['\"]?)" + re.escape(req) + r"\1(?=\s|$)",
                           lambda m: f"'{req}=={pin}'", fixed, count=1)
    return fixed + line[len(code):]


def repair(line: str) -> str:
    """The same install without its side effects: `--pre` only where a package needs it (a
    pre-release floor in its own requirement), `--force-reinstall` with `--no-deps`."""
    code = _strip_comment(line)
    if not any(p.sub == "install" for p in pip_commands(code)):
        return line
    fixed = code
    if re.search(r"(?<!\S)--pre(?!\S)", fixed):
        for name, low in PRE_FLOOR.items():  # an unpinned pre-only package gets its floor
            fixed = re.sub(r"(?<![\w.=<>~!-])(['\"]?)(" + re.escape(name) + r")(\[[^\]]*\])?\1(?=\s|$)",
                           lambda m: f"'{m.group(2)}{m.group(3) or ''}>={low}'", fixed)
        known = [req for p in pip_commands(fixed) if p.sub == "install" for req in p.reqs if _name(req)[0] in PRE_FLOOR]
        if known and all(_pre_pinned(req) for req in known):  # --pre was there for them alone
            fixed = re.sub(r"\s--pre(?!\S)", "", fixed)
    if "--force-reinstall" in fixed and "--no-deps" not in fixed:
        fixed = fixed.replace("--force-reinstall", "--force-reinstall --no-deps", 1)
    return fixed + line[len(code):]


def _pre_pinned(req: str) -> bool:
    """Does this requirement name a pre-release in its own specifier (so it needs no --pre)?"""
    _, r = _name(req)
    if r is None:
        return False
    for s in r.specifier:
        try:
            if Version(s.version.replace(".*", "")).is_prerelease:
                return True
        except InvalidVersion:
            continue
    return False


def separate_env(line: str, backend: str | None, target: Target, sit: Situation | None) -> list[str]:
    """The same install into a new venv beside the checked one, with the same torch, as lines to paste."""
    from .torchpin import index_of, install

    name = f"attn-{backend}" if backend else "attn-other"
    new = Target(python=f"~/venvs/{name}/bin/python", how="--python", has_pip=True)
    base = target.shown if target.how != "generic" else "python3"
    have = sit.torch if sit else None
    torch_line = install(have, index_of(have), reinstall=False) if have else \
        'pip install "torch==${TORCH:?the torch release and CUDA build you train with}"'
    return [f"{base} -m venv ~/venvs/{name}", aim(torch_line, new), aim(repair(_strip_comment(line).strip()), new)]


def safe(text: str | None, sit: Situation | None, target: Target | None, backend: str | None = None, *,
         cpu_first: bool = False) -> str | None:
    """`text` (a fix: one line, or a block of lines) repaired, checked for harm and aimed. A harmful
    line becomes comments that say what it would break, and the same install into a separate env. `cpu_first`
    (explain's fix lines, knowledge/tailor.py): a GPU backend's install over a CPU torch gets cpu_torch_first's lines
    before it; check and the fleet print torch.cpu-build as a finding of its own, first, so their lines stay one each."""
    if not text:
        return text
    out = []
    for line in text.split("\n"):
        fixed = pin_installed(repair(line), sit)
        if cpu_first:
            out += cpu_torch_first(fixed, sit, target)
        why = harms(fixed, sit) if sit is not None else []
        if why:
            shown = aim(_strip_comment(fixed).strip(), target)
            out.append(f"# not run here: {shown}: {'; '.join(why)}.")
            if any(p.sub == "install" for p in pip_commands(fixed)):
                out.append(f"# Keep this env as it is; for {backend or 'that'}, use a separate env:")
                out += separate_env(fixed, backend, target or GENERIC, sit)
            else:
                out.append("# Keep it: what works here stays as it is.")
        else:
            out.append(aim(fixed, target))
    return "\n".join(out)


GPU_BACKENDS = ("cute", "fa2", "fa3", "sage", "xformers")


def cpu_torch_first(line: str, sit: Situation | None, target: Target | None) -> list[str]:
    """The lines that go before `line` when it installs (or rebuilds) a GPU backend's package while the env's torch is a
    CPU build: why it cannot build or run against that torch, and the CUDA build of the same release (torch.cpu-build's
    advice, aimed at the env); [] otherwise. Words: knowledge/fix_words.toml [cpu_torch_first]. The torch line is not
    judged by harms(): with a CPU torch no compiled backend it would move runs here."""
    if sit is None or not sit.cpu_torch or not sit.torch:
        return []
    dists = []
    for p in pip_commands(line):
        if p.sub != "install":
            continue
        for req in p.reqs:
            name, _ = _name(req)
            if name and name not in ("torch", "triton") and any(b in GPU_BACKENDS for b in _owner(name)):
                dists.append(name)
    if not dists:
        return []
    from .torchpin import base, words

    w = words()["cpu_torch_first"]
    release = base(sit.torch) or sit.torch
    return [w["why"].format(torch=sit.torch, release=release, dists=", ".join(dict.fromkeys(dists))),
            aim(w["torch"].format(torch=sit.torch, release=release), target or GENERIC)]


# ---- printing a block -------------------------------------------------------------------------

def fit(line: str, width: int = 80) -> list[str]:
    """One line of a block to paste as lines of at most `width` columns that paste the same: a
    comment wraps as comments, a command continues with a backslash between words (never inside
    quotes); a single word longer than the width (a URL) stays whole."""
    if len(line) <= width:
        return [line]
    if line.lstrip().startswith("#"):
        body = line.lstrip().lstrip("#")
        lead = "#" + body[:len(body) - len(body.lstrip())]
        cont = lead if len(lead) > 2 else "#   "
        return textwrap.wrap(body.strip(), width=width, initial_indent=lead, subsequent_indent=cont,
                             break_long_words=False, break_on_hyphens=False)
    code = _strip_comment(line)
    if code != line:  # a comment after a command goes above it: a wrapped comment cannot continue a command
        return fit("# " + line[len(code):].strip().lstrip("#").strip(), width) + fit(code.rstrip(), width)
    out, cur = [], ""
    for tok in _words(line):
        if cur and len(cur) + 1 + len(tok) + 2 > width:
            out.append(cur + " \\")
            cur = "  " + tok
        else:
            cur = f"{cur} {tok}" if cur else tok
    out.append(cur)
    return out


def _words(line: str) -> list[str]:
    """`line` split at the spaces a shell splits at (a quoted space stays inside its word)."""
    words, cur, quote = [], "", None
    for ch in line:
        if quote:
            cur += ch
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
            cur += ch
        elif ch == " ":
            words.append(cur)
            cur = ""
        else:
            cur += ch
    words.append(cur)
    return [w for w in words if w] or [""]


def fit_block(text: str | None, width: int = 80) -> str | None:
    if not text:
        return text
    return "\n".join(out for line in text.split("\n") for out in fit(line, width))


# ---- a whole report --------------------------------------------------------------------------

def safe_finding(f, sit: Situation, target: Target):
    from dataclasses import replace

    params = dict(f.params)
    fix = safe(f.fix, sit, target, f.backend)
    if fix and "\n" in fix and "\n" not in (f.fix or ""):
        # refused: the fix line says so, and the separate-env lines ride as its plan (printed below it)
        fix, rest = fix.split("\n", 1)
        params["plan"] = fit_block(rest) + ("\n" + str(params["plan"]) if params.get("plan") else "")
    elif params.get("plan"):  # an install plan: plans.text aimed and judged it whole; its lines stay as they are
        params["plan"] = aim(str(params["plan"]), target)
    for key in ("install", "fix_cmd", "cause_fix"):
        if isinstance(params.get(key), str):
            params[key] = aim(params[key], target)
    return replace(f, fix=fix, params=params, title=aim(f.title, target))


def apply(report) -> None:
    """Aim and check every command a report carries: each finding's fix and install plan, and the
    backends table's install hints. Called once, by report.evaluate."""
    from .target import from_facts

    target = from_facts(report.facts)
    sit = Situation.of(report.facts, report.backends, report.findings)
    report.findings = [safe_finding(f, sit, target) for f in report.findings]
    for row in (report.backends or {}).values():
        if isinstance(row, dict) and row.get("reason"):
            row["reason"] = aim(row["reason"], target)
