"""A Markdown report to paste into a bug report or a CI job summary: versions, GPUs, the backend table,
the findings with their fixes, the trainer config and the settings that matter. The home directory and
anything that looks like a token or key are redacted (see redact.py)."""

from __future__ import annotations

from ..backends import SPECS, cap_str
from ..facts import view
from ..model import Report
from ..redact import homes, redact

SEV = {"error": "ERROR", "warning": "WARNING", "info": "NOTE"}
# Environment variables that only identify the user or are noise in a report.
SKIP_ENV = {"HOME", "USER", "LOGNAME", "PATH", "NO_COLOR", "CI"}


def _cell(text) -> str:
    return str(text if text not in (None, "") else "-").replace("|", "\\|").replace("\r", " ").replace("\n", "<br>")


def _code(text: str) -> str:
    """Inline code when it fits on one line without backticks, else a fenced block."""
    if "\n" not in text and "`" not in text:
        return f"`{text}`"
    return "\n\n  ```\n" + "\n".join("  " + ln for ln in text.splitlines()) + "\n  ```"


def render(report: Report) -> str:
    facts = report.facts
    t = view.torch(facts)
    s = facts.get("system") or {}
    drv = facts.get("driver") or {}
    e, w, i = report.count("error"), report.count("warning"), report.count("info")
    out = [f"### attn-doctor {report.tool_version} report", ""]
    verdict = "fails" if report.exit_code else "passes"
    out.append(f"**Result:** {verdict} (exit {report.exit_code}): {e} error(s), {w} warning(s), {i} note(s)"
               + (f", {report.ignored} ignored" if report.ignored else ""))
    if report.required:
        out.append("**Required:** " + ", ".join(f"{n} ({report.backends.get(n, {}).get('status', '?')})"
                                                  for n in report.required))
    if report.options.get("from"):
        out.append(f"**Re-evaluated from:** {report.options['from']}")
    out += ["", "#### Versions", ""]
    build = f"CUDA {t['cuda']}" if t["cuda"] else (f"ROCm {t['hip']}" if t["hip"] else "CPU-only build")
    out.append(f"- Python {s.get('python', '?')} on {s.get('os', '?')}")
    out.append(f"- torch {t['version'] or 'not installed'}" + (f" ({build})" if t["installed"] else "")
               + ("" if t["import_ok"] or not t["installed"] else ", does not import"))
    if drv.get("driver"):
        out.append(f"- NVIDIA driver {drv['driver']}" + (f" (CUDA {drv['driver_cuda']})" if drv.get("driver_cuda") else ""))
    stack = [f"{n} {d.get('version')}" for n, d in view.stack(facts).items() if n != "torch"]
    if stack:
        out.append("- " + ", ".join(stack))
    out += ["", "#### GPUs", ""]
    gpus = view.gpus(facts)
    for g in gpus:
        cap = cap_str(g["capability"]) if g.get("capability") else "sm?"
        mem = f", {g['memory_mib'] / 1024:.0f} GiB" if g.get("memory_mib") else ""
        out.append(f"- GPU {g.get('index')}: {g.get('name')}, {cap}{mem}")
    if not gpus:
        out.append("- none visible")
    out += ["", "#### Backends", "", "| backend | status | version | notes |", "|---|---|---|---|"]
    missing = [n for n in SPECS if (report.backends.get(n) or {}).get("status") == "missing" and n not in report.required]
    for name in SPECS:
        if name in missing:
            continue  # one row for all of them, below
        row = report.backends.get(name) or {}
        note = row.get("reason") or ""
        smoke = row.get("smoke") or {}
        if smoke.get("summary"):
            note = smoke["summary"] + ("; " + note if note else "")
        status = row.get("status", "?") + (" (required)" if name in report.required else "")
        out.append(f"| {name} | {_cell(status)} | {_cell(row.get('version'))} | {_cell(note)} |")
    if missing:  # each one's install hint kept, whole
        from .text import NOT_INSTALLED

        hints = []
        for n in missing:
            reason = (report.backends.get(n) or {}).get("reason") or ""
            m = NOT_INSTALLED.match(reason)
            hints.append(f"{n}: `{m.group('hint')}`" if m else f"{n}: {reason}")
        out.append(f"| {_cell(', '.join(missing))} | missing | - | {_cell(chr(10).join(hints))} |")
    out += ["", "#### Findings", ""]
    for f in report.findings:
        line = f"- **{SEV.get(f.severity, f.severity.upper())}** `{f.id}`: {f.title}"
        if f.fix:
            line += "  \n  fix: " + _code(f.fix)
        if f.detail and f.severity == "error":
            last = (f.detail.strip().splitlines() or [""])[-1][:300]
            if last and last not in f.title:
                line += "  \n  seen: " + _code(last)
        out.append(line)
    if not report.findings:
        out.append("- none")
    cfg = report.config
    if cfg:
        out += ["", "#### Trainer config", ""]
        from .text import unset_attention

        names = ", ".join(f"`{a['name']}`" for a in cfg.get("attention") or []) or unset_attention(cfg)
        out.append(f"- {cfg.get('trainer_title', cfg.get('trainer'))} ({cfg.get('format')}): {cfg.get('path', '')}")
        out.append(f"- attention: {names}; requires: {', '.join(cfg.get('required') or []) or 'nothing local'}")
        from .text import dtype_summary

        by_gpu = dtype_summary(cfg)  # (the GPU decides the dtype: what is known, not the bf16 GPU's answer alone)
        extra = [by_gpu if k == "dtype" and by_gpu else f"{k}: {cfg[k]}"
                 for k in ("family", "dtype", "head_dims", "batch_size", "compile_mode")
                 if cfg.get(k) not in (None, [], "") or k == "dtype" and by_gpu]
        if extra:
            out.append("- " + "; ".join(extra))
        if cfg.get("dtype_by_gpu"):
            from .text import dtype_by_gpu_line

            out.append("- " + dtype_by_gpu_line(cfg))
        if cfg.get("dtype_open"):
            from .text import dtype_open_line

            out.append("- " + dtype_open_line(cfg))
        if cfg.get("dtype_by_release"):
            from .text import dtype_by_release_line

            out.append("- " + dtype_by_release_line(cfg))
        if cfg.get("unread"):
            out.append("- config files not read (not here, or given by its caller): " + ", ".join(f"`{u}`" for u in cfg["unread"]) + "; what they set is unknown")
        det = cfg.get("detected") or {}
        if det:
            out.append(f"- read as {det.get('title') or det.get('trainer')}, from: " + (", ".join(f"`{k}`" for k in det.get("evidence") or [])
                                                              if det.get("by") != "--trainer" else "--trainer"))
    env = {k: v for k, v in view.env(facts).items() if k not in SKIP_ENV}
    if env:
        out += ["", "<details><summary>Environment</summary>", "", "```"]
        out += [f"{k}={v}" for k, v in env.items()]
        out += ["```", "", "</details>"]
    out.append("")
    return redact("\n".join(out), homes(facts))
