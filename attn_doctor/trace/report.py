"""Trace data -> the trace report: each process's rows merged per call site, then the findings.

Input: the data each traced process wrote (hook.snapshot(): rows, errors, patched entry points,
steps), what the job was asked to run (--require, --config) and how the program ended. Output: a
TraceReport whose `calls` and `findings` are the JSON other tools read. Pure Python: the doctor's own
process never imports torch.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass, field

from .. import __version__, knowledge
from ..model import BACKENDS, Finding, UsageError, sort_findings

SCHEMA = "attn-doctor.trace/1"
# A merged row is one of these per call site: the same site on every rank, every GPU, is one row.
GROUP = ("site", "backend", "kernel", "compiled", "dtype", "mask", "head_dim", "device_type", "entry")
SLOW_SDPA = ("math", "efficient")


@dataclass
class TraceReport:
    calls: list[dict]
    findings: list[Finding]
    processes: list[dict] = field(default_factory=list)
    command: list[str] | None = None
    program_exit_code: int | None = None
    exit_code: int = 0
    required: list[str] = field(default_factory=list)
    config: dict | None = None
    stopped: str | None = None
    seconds: float | None = None
    steps: int = 0

    def to_dict(self) -> dict:
        return {
            "schema": SCHEMA, "tool_version": __version__, "command": self.command,
            "exit_code": self.exit_code, "program_exit_code": self.program_exit_code, "stopped": self.stopped,
            "seconds": self.seconds, "steps": self.steps, "required": list(self.required),
            "calls": self.calls, "findings": [f.to_dict() for f in self.findings],
            "processes": self.processes, "config": _config_summary(self.config),
        }

    @property
    def ok(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)

    def backends(self) -> list[str]:
        return sorted({c["backend"] for c in self.calls}, key=lambda b: BACKENDS.index(b) if b in BACKENDS else 99)


def _config_summary(cfg: dict | None) -> dict | None:
    if not cfg:
        return None
    return {k: cfg.get(k) for k in ("trainer", "trainer_title", "path", "required", "attention", "compile")}


# ----------------------------------------------------------------------------------------------
# --require
# ----------------------------------------------------------------------------------------------

def require_specs(values) -> list[str]:
    """--require values: a backend (sdpa, flex, ...) or sdpa:KERNEL (flash, efficient, cudnn, math)."""
    out = []
    for raw in values or []:
        for item in str(raw).split(","):
            item = item.strip().lower()
            if not item:
                continue
            backend, _, kernel = item.partition(":")
            if backend not in BACKENDS:
                raise UsageError(f"--require: unknown backend {backend!r} (known: {', '.join(BACKENDS)}; "
                                 "or sdpa:flash, sdpa:efficient, sdpa:cudnn, sdpa:math)")
            if kernel and backend != "sdpa":
                raise UsageError(f"--require {item}: only sdpa takes a kernel (sdpa:flash, sdpa:cudnn, ...)")
            if kernel and kernel not in ("flash", "efficient", "cudnn", "math"):
                raise UsageError(f"--require {item}: unknown SDPA kernel {kernel!r} (flash, efficient, cudnn, math)")
            if item not in out:
                out.append(item)
    return out


def _met(spec: str, calls: list[dict]) -> bool:
    backend, _, kernel = spec.partition(":")
    return any(c["backend"] == backend and (not kernel or str(c.get("kernel") or "").startswith(kernel)) for c in calls)


def ran_summary(calls: list[dict]) -> str:
    if not calls:
        return "no attention call at all"
    seen: dict[str, set] = {}
    for c in calls:
        seen.setdefault(f"{c['backend']} ({c.get('kernel') or '?'})", set()).add(c["site"])
    return ", ".join(f"{k} at {len(v)} site{'s' if len(v) > 1 else ''}" for k, v in seen.items())


# ----------------------------------------------------------------------------------------------
# merging the processes
# ----------------------------------------------------------------------------------------------

def _label(p: dict) -> str:
    return f"rank {p['rank']}" if p.get("rank") not in (None, "") else f"pid {p.get('pid')}"


def _relative(path_line: str, cwd: str | None) -> str:
    """path:line as a user reads it: relative to the command's directory, or from the package's own
    directory for installed code (transformers/models/llama/modeling_llama.py:258)."""
    if not path_line or ":" not in path_line:
        return path_line
    path, _, line = path_line.rpartition(":")
    for marker in (f"{os.sep}site-packages{os.sep}", f"{os.sep}dist-packages{os.sep}"):
        if marker in path:
            return f"{path.rsplit(marker, 1)[1]}:{line}"
    try:
        if cwd and os.path.isabs(path) and os.path.commonpath([cwd, path]) == cwd:
            return f"{os.path.relpath(path, cwd)}:{line}"
    except ValueError:
        pass
    return path_line


def merge(processes: list[dict], cwd: str | None = None) -> list[dict]:
    """One row per call site (and kernel, dtype, ...), counts summed over processes, in first-seen order."""
    merged: dict[tuple, dict] = {}
    for p in processes:
        label = _label(p)
        for r in p.get("rows") or []:
            r = dict(r)
            r["file"] = (r.get("site") or "?").rpartition(":")[0]
            r["site"] = _relative(r.get("site") or "?", cwd)
            r["device_type"] = str(r.get("device") or "?").split(":")[0]
            key = tuple(str(r.get(k)) for k in GROUP)
            m = merged.get(key)
            if m is None:
                m = merged[key] = dict(r, count=0, processes=[], devices=[])
                m.pop("pid", None)
            m["count"] += int(r.get("count") or 0)
            m["first_seen"] = min(m.get("first_seen") or 0, r.get("first_seen") or 0)
            if label not in m["processes"]:
                m["processes"].append(label)
            if r.get("device") and r["device"] not in m["devices"]:
                m["devices"].append(r["device"])
            if r.get("ignored"):  # keywords the function dropped, on any of the calls merged here
                m["ignored"] = sorted(set(m.get("ignored") or ()) | set(r["ignored"]))
    out = sorted(merged.values(), key=lambda r: (r.get("first_seen") or 0))
    for r in out:
        r.pop("device_type", None)
    return out


# ----------------------------------------------------------------------------------------------
# findings
# ----------------------------------------------------------------------------------------------

def _where(c: dict) -> str:
    return c["site"] + (f" ({c['function']})" if c.get("function") and c["function"] != "<module>" else "")


def _flash_refuses(c: dict) -> str | None:
    """The reason from the call's own inputs when torch gave none to Python: its debug reasons are C++
    warnings, printed to the process's stderr where the hook cannot read them (seen on the H100,
    fixtures/gpu/h100-issue21/log.txt: 'Flash attention requires q,k,v to have the same last dimension
    and to be less than or equal to 256'). Only the checks of torch's sdp_utils that the row can show."""
    d = c.get("head_dim")
    if isinstance(d, int) and d > 256:
        return f"head dim {d} is over 256, the largest flash runs (torch's check_head_dim_size_flash)"
    if isinstance(d, int) and d % 8:
        return f"head dim {d} is not a multiple of 8 (torch's check_head_dim_size_flash)"
    return None


def _kv_mismatch(c: dict) -> tuple[str, str] | None:
    """(k's shape, v's shape) where a call that returned got a key and a value that differ in anything but the head dim:
    every backend takes them with one batch, sequence length and head count, and one that does not check (compiled
    FlexAttention on torch 2.11, seen on the H200: fixtures/gpu/h200-s16-final) computes with rows v does not have."""
    sh = c.get("shapes") or {}
    k, v = sh.get("k"), sh.get("v")
    if c.get("raised") or not isinstance(k, list) or not isinstance(v, list) or len(k) != len(v) or len(k) < 2:
        return None
    if all(isinstance(x, int) for x in k[:-1] + v[:-1]) and k[:-1] != v[:-1]:
        return "x".join(map(str, k)), "x".join(map(str, v))
    return None


def call_findings(calls: list[dict]) -> list[Finding]:
    out = []
    for c in calls:
        site = _where(c)
        if (kv := _kv_mismatch(c)) is not None:
            out.append(knowledge.finding("trace.kv-shape-mismatch", backend=c["backend"], site=site, count=c["count"],
                                         k=kv[0], v=kv[1]))
        if c["backend"] == "flex" and not c.get("compiled"):
            out.append(knowledge.finding("trace.flex-eager", backend="flex", site=site, count=c["count"],
                                         detail=f"shapes {c.get('shapes')}, {c.get('dtype')}"))
        if c.get("ignored"):
            out.append(knowledge.finding("trace.kwargs-ignored", backend=c["backend"], site=site, count=c["count"],
                                         entry=c.get("entry") or c["backend"], names=", ".join(c["ignored"])))
        if c.get("raised"):
            out.append(_raised(c, site))
        if c["backend"] != "sdpa" or c.get("compiled") or c.get("kernel") not in SLOW_SDPA:
            continue
        p = dict(backend="sdpa", site=site, kernel=c["kernel"], dtype=c.get("dtype"), head_dim=c.get("head_dim"),
                 mask=c.get("mask"), count=c["count"])
        reason = c.get("reason")
        cuda = str(c.get("device") or "").startswith("cuda")
        if c.get("flash_disabled"):
            out.append(knowledge.finding("trace.sdpa-flash-disabled", detail=reason, **p))
        elif not cuda:
            continue  # the CPU: its flash kernel is chosen whenever it can run; no reasons to give
        elif c.get("dtype") == "float32":
            out.append(knowledge.finding("trace.sdpa-fp32", detail=reason, **p))
        elif "(causal)" in str(c.get("mask") or ""):
            out.append(knowledge.finding("trace.sdpa-causal-mask", detail=reason, **p))
        elif "mask" in str(c.get("mask") or ""):
            out.append(knowledge.finding("trace.sdpa-mask", detail=reason, **p))
        else:
            if c.get("flash_possible"):
                reason = (f"flash accepts these inputs, but the kernel priority order put {c['kernel']} first "
                          "(sdpa_kernel(..., set_priority=True))")
            reason = reason or _flash_refuses(c)
            out.append(knowledge.finding("trace.sdpa-not-flash", detail=reason,
                                         reason=reason or "no reason given (torch printed none)", **p))
    return out


def patch_findings(processes: list[dict]) -> list[Finding]:
    seen: dict[str, dict] = {}
    for p in processes:
        for e in p.get("patched") or []:
            seen.setdefault(e.get("entry") or "?", e)
    out = []
    for entry, e in seen.items():
        ran = f"the {e['backend']} backend" if e.get("backend") else "a function that is not a known attention backend"
        attr = entry.rsplit(".", 1)[-1] if "[" not in entry else "ALL_ATTENTION_FUNCTIONS"
        out.append(knowledge.finding("trace.entry-patched", backend=e.get("backend") or None, entry=entry,
                                     by=e.get("by") or "?", ran=ran, attr=attr,
                                     detail=f"defined at {e['defined']}" if e.get("defined") else None))
    return out


def _config_args(cfg: dict) -> str:
    """`--config PATH` for a printed `check`, with `--trainer NAME` when --trainer chose the reader (as check's and
    fix's follow-ups carry it): pasted, check reads the file as the trace did."""
    words = ["--config", shlex.quote(str(cfg.get("path") or "config.toml"))]
    detected = cfg.get("detected") or {}
    if detected.get("by") == "--trainer" and detected.get("trainer"):
        words += ["--trainer", shlex.quote(str(detected["trainer"]))]
    return " ".join(words)


def config_findings(cfg: dict | None, calls: list[dict]) -> list[Finding]:
    if not cfg:
        return []
    out = []
    ran = ran_summary(calls)
    backends = {c["backend"] for c in calls}
    for a in cfg.get("attention") or []:
        b = a.get("backend")
        if not b or a.get("kind") == "unused":  # a flag the trainer overrides with another: not expected to run
            continue
        want = b
        if b == "sdpa" and a.get("sdpa_kernel"):
            want = f"sdpa:{a['sdpa_kernel']}"
        if b in backends and _met(want, calls):
            continue
        out.append(knowledge.finding("trace.config-differs", backend=b, trainer=cfg.get("trainer_title") or cfg.get("trainer"),
                                     path=cfg.get("path") or "?", asked=want, setting=a.get("setting") or a.get("name") or "?",
                                     ran=ran, config_args=_config_args(cfg)))
    return out


def build(processes: list[dict], *, required: list[str] | None = None, config: dict | None = None,
          command: list[str] | None = None, program_exit_code: int | None = None, cwd: str | None = None,
          seconds: float | None = None, hooked: bool = True, checked: str | None = None) -> TraceReport:
    """The report for what the processes recorded. `hooked`: the hook was expected in a separate program
    (`attn-doctor trace`); False for attn_doctor.trace() in the caller's own process. `checked`: the interpreter
    `attn-doctor check` would judge (default: the active venv or conda env, else attn-doctor's own)."""
    required = list(required or [])
    calls = merge(processes, cwd)
    findings = call_findings(calls) + patch_findings(processes) + config_findings(config, calls)
    for spec in required:
        if not _met(spec, calls):
            findings.append(knowledge.finding("trace.require-not-met", backend=spec.partition(":")[0], want=spec,
                                              ran=ran_summary(calls)))
    cmd = " ".join(command or []) or "the traced program"
    if hooked and not processes:
        findings.append(knowledge.finding("trace.no-hook", command=cmd[:120]))
    elif not calls and not program_exit_code:  # a program that failed first says why itself
        sev = "warning" if required or config else None
        findings.append(knowledge.finding("trace.no-attention", severity=sev, processes=max(1, len(processes))))
    if hooked and processes and not calls:
        findings += other_python(processes, command or [], checked)
    errors = [e for p in processes for e in (p.get("errors") or [])]
    if errors:
        first = errors[0]
        count = sum(int(p.get("error_count") or len(p.get("errors") or [])) for p in processes)
        findings.append(knowledge.finding("trace.hook-error", count=count,
                                          error=f"{first.get('where')}: {first.get('error')}"[:200],
                                          detail="\n".join(f"{e.get('where')}: {e.get('error')}" for e in errors[:20])))
    findings = sort_findings(_aimed(findings, processes))
    stopped = next((p.get("stopped") for p in processes if p.get("stopped")), None)
    steps = max((int(p.get("attention_steps") or 0) for p in processes), default=0)
    rc = program_exit_code or 0
    if stopped and rc in (130, -2):  # the --seconds watchdog's Ctrl-C: the stop was ours
        rc = 0
    exit_code = rc if rc else (1 if any(f.severity == "error" for f in findings) else 0)
    procs = [{"label": _label(p), "pid": p.get("pid"), "rank": p.get("rank"), "argv": p.get("argv"),
              "torch": p.get("torch"), "rows": len(p.get("rows") or []), "steps": p.get("steps"),
              "attention_steps": p.get("attention_steps"), "stopped": p.get("stopped"),
              "errors": p.get("errors") or [], "seconds": p.get("seconds")} for p in processes]
    return TraceReport(calls=calls, findings=findings, processes=procs, command=command,
                       program_exit_code=program_exit_code, exit_code=exit_code, required=required, config=config,
                       stopped=stopped, seconds=seconds, steps=steps)


def _env_dir(exe: str) -> str:
    """The bin/ an interpreter is in (a venv's python is a link to the base interpreter: its bin/ tells them apart)."""
    return os.path.realpath(os.path.dirname(os.path.abspath(exe)))


def checked_python() -> str:
    """The interpreter `attn-doctor check` judges when given no --python (target.py): the active venv or conda env
    where attn-doctor runs from another one, else attn-doctor's own."""
    import sys

    from ..facts.interpreter import resolve
    from ..model import UsageError as NoPython
    from ..target import active_env

    act = active_env()
    if act:
        try:
            return resolve(act[1])  # the python a venv or conda prefix keeps (as `check` finds it)
        except NoPython:
            pass
    return sys.executable


_PYTHON_WORD = r"(?:.*[/\\])?python(?:\d+(?:\.\d+)?)?(?:\.exe)?"


def other_python(processes: list[dict], command: list[str], checked: str | None = None) -> list[Finding]:
    """trace.other-python: a traced process ran an interpreter that is not the checked environment's (nothing ran
    attention), with the command that runs the same program by the checked one (nu41 row 5)."""
    import re

    from ..target import shell_path
    from ..torchpin import words

    checked = checked or checked_python()
    other = [p for p in processes if p.get("python") and _env_dir(p["python"]) != _env_dir(checked)]
    if not other:
        return []
    p = next((q for q in other if not q.get("torch")), other[0])
    said = words()["trace_other_python"]  # (knowledge/fix_words.toml)
    torch_words = said["torch"].format(torch=p["torch"]) if p.get("torch") else said["no_torch"]
    cmd = list(command)
    if cmd and re.fullmatch(_PYTHON_WORD, cmd[0]):  # `python ...`: the checked interpreter runs it
        fix_cmd = "attn-doctor trace -- " + " ".join([shell_path(checked)] + [shlex.quote(a) for a in cmd[1:]])
    else:  # a launcher (accelerate, torchrun, a console script): the checked env's bin/ first on PATH
        bindir = shell_path(os.path.dirname(checked))
        fix_cmd = f'PATH={bindir}:"$PATH" attn-doctor trace -- ' + (shlex.join(cmd) if cmd else "python train.py")
    shown = " ".join(cmd)[:120] or "the traced program"
    return [knowledge.finding("trace.other-python", command=shown, python=p["python"], torch_words=torch_words,
                              checked=checked, fix_cmd=fix_cmd)]


def traced_python(processes: list[dict]) -> str | None:
    """The one interpreter every traced process ran, when it is not attn-doctor's own; else None."""
    import sys

    def env(exe: str) -> str:  # a venv's python is a link to the base interpreter: compare the bin/ it is in
        return os.path.realpath(os.path.dirname(os.path.abspath(exe)))

    exes = {p.get("python") for p in processes if p.get("python")}
    if len(exes) != 1:
        return None
    (exe,) = exes
    return None if env(exe) == env(sys.executable) else exe


def _aimed(findings: list[Finding], processes: list[dict]) -> list[Finding]:
    """The fixes as commands for the env the job ran in (its pip, `attn-doctor check --python ...`), not attn-doctor's."""
    from dataclasses import replace

    from ..advice import aim
    from ..target import Target

    exe = traced_python(processes)
    if not exe:
        return findings
    target = Target(python=exe, how="--python", has_pip=None)
    # (trace.other-python's fix names the checked env's interpreter on purpose: not the one the job ran)
    return [replace(f, fix=aim(f.fix, target)) if f.fix and f.id != "trace.other-python" else f for f in findings]


def _raised(c: dict, site: str):
    """A first call that raised: its known cause when the knowledge has one (the error with the frames it was
    raised in, as explain reads a traceback), else the generic finding."""
    from ..knowledge.match import cause

    text = "Traceback (most recent call last):\n" + "\n".join(c.get("raised_at") or []) + "\n" + c["raised"]
    m = cause(text, "", c["backend"])
    error = c["raised"][:200].rstrip(". ")
    if m is not None and not m.entry.generic:
        return knowledge.finding("trace.call-raised-known", backend=c["backend"], site=site, error=error,
                                 cause_id=m.entry.id, fix=m.entry.plain_fix or "",
                                 detail=m.entry.headline)
    return knowledge.finding("trace.call-raised", backend=c["backend"], site=site, error=error)
