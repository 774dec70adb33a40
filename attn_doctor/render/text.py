"""The terminal report: one block per section (its facts, then its findings with their fixes),
readable at 80 columns; plain text when not on a terminal or when NO_COLOR is set."""

from __future__ import annotations

import os
import re
import shlex
import sys
import textwrap

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ..backends import SPECS, cap_str
from ..facts import view
from ..model import Report
from ..target import VENV

SECTIONS = [("platform", "Platform"), ("gpu", "GPU health"), ("backends", "Backends"), ("smoke", "Smoke tests"),
            ("versions", "Versions"), ("flex", "FlexAttention"), ("nvcc", "nvcc"),
            ("allocator", "Allocator"), ("caches", "Caches"), ("settings", "Settings"), ("config", "Trainer config"),
            ("fleet", "Fleet"), ("trace", "Trace"),
            ("doctor", "attn-doctor")]
SEV_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
STATUS_STYLE = {"ok": "green", "missing": "dim", "broken": "bold red", "unsupported": "yellow", "skipped": "dim"}


def make_console(file=None, width: int | None = None) -> Console:
    file = file or sys.stdout
    plain = bool(os.environ.get("NO_COLOR")) or not getattr(file, "isatty", lambda: False)()
    return Console(file=file, no_color=plain, highlight=False, soft_wrap=False,
                   width=width or (None if not plain else 80), emoji=False,
                   force_terminal=None if not plain else False)


def _box(console: Console):
    return box.ASCII2 if console.no_color else box.SIMPLE_HEAD


def _gib(mib) -> str:
    return f"{mib / 1024:.0f} GiB" if mib else "?"


def platform_lines(facts: dict) -> list[str]:
    s = facts.get("system") or {}
    t = view.torch(facts)
    drv = facts.get("driver") or {}
    lines = [f"Python {s.get('python', '?')} ({s.get('python_executable', '?')}) on {s.get('os', '?')}"]
    tgt = facts.get("target") or {}
    if tgt.get("how") not in (None, "own") or tgt.get("note"):
        from ..target import Target

        lines.insert(0, Target.from_dict(tgt).describe())
    elif not tgt and s.get("doctor_python"):  # a report from before targets
        lines[0] = lines[0].replace(") on ", ", checked with --python) on ", 1)
    if not t["installed"]:
        lines.append("torch: not installed")
    else:
        build = f"CUDA {t['cuda']}" if t["cuda"] else (f"ROCm {t['hip']}" if t["hip"] else "CPU-only build")
        imp = t["probe"].get("import_seconds")
        state = f"imports in {imp:.1f} s" if t["import_ok"] and imp is not None else (
            "imports" if t["import_ok"] else "does not import")
        lines.append(f"torch {t['version']} ({build}), {state}")
    if drv.get("driver"):
        lines.append(f"NVIDIA driver {drv['driver']}" + (f" (CUDA {drv['driver_cuda']})" if drv.get("driver_cuda") else ""))
    gpus = view.gpus(facts)
    for g in gpus:
        cap = cap_str(g["capability"]) if g.get("capability") else "sm?"
        lines.append(f"GPU {g['index']}: {g.get('name')}, {cap}, {_gib(g.get('memory_mib'))}")
    if not gpus:
        lines.append("GPUs: none visible")
    return lines


def backend_table(report: Report, console: Console) -> Table:
    """A row per backend that is there; the missing ones are left to missing_lines."""
    tbl = Table(box=_box(console), show_edge=False, pad_edge=False, expand=False)
    tbl.add_column("backend", no_wrap=True)
    tbl.add_column("status", no_wrap=True)
    tbl.add_column("version", no_wrap=True, max_width=14, overflow="ellipsis")
    tbl.add_column("notes", overflow="fold")
    for name in SPECS:
        row = report.backends.get(name) or {}
        st = row.get("status", "?")
        if st == "missing":
            continue
        smoke = row.get("smoke") or {}
        note = row.get("reason") or ""
        if smoke.get("summary"):
            note = smoke["summary"] + ("; " + note if note and st != "ok" else "")
        if row.get("wall_seconds") is not None:
            note += f" [{row['wall_seconds']:.1f} s]"
        tbl.add_row(name, Text(st, style=STATUS_STYLE.get(st, "")), row.get("version") or "-", escape(note))
    return tbl


NOT_INSTALLED = re.compile(r"not installed \((?P<hint>.*)\)\Z", re.S)


COMMAND = re.compile(r"(pip|pipx|uv|cd|git|python3?|attn-doctor|conda|export|unset|MAX_JOBS=|TORCH_CUDA_ARCH_LIST=)\b")


def missing_lines(report: Report) -> list[Text]:
    """The backends that are not installed, in one line, then each one's install hint on a line of
    its own (a command: never wrapped)."""
    missing = [(n, (report.backends.get(n) or {}).get("reason") or "") for n in SPECS
               if (report.backends.get(n) or {}).get("status") == "missing"]
    if not missing:
        return []
    out = [Text("not installed: " + ", ".join(n for n, _ in missing), style="dim")]
    hints: dict[str, list[str]] = {}  # one line per distinct hint: a CPU-only torch says it once for all
    for name, reason in missing:
        m = NOT_INSTALLED.match(reason)
        hint = m.group("hint") if m else reason
        if hint and hint != "not installed":
            hints.setdefault(hint, []).append(name)
    width = max(len(", ".join(names)) for names in hints.values()) if hints else 0
    for hint, names in hints.items():
        label = f"  {', '.join(names) + ':':<{width + 1}} "
        if len(label) + len(hint) > 80:  # the hint on a line of its own: prose wraps, a command never does
            out.append(Text(label.rstrip()))
            lines = [hint] if len(hint) <= 76 or COMMAND.search(hint) else textwrap.wrap(hint, 76)
            out += [Text("    " + ln) for ln in lines]
        else:
            out.append(Text(label) + Text(hint))
    return out


CELL_STYLE = {"ok": "green", "FAIL": "bold red", "n/a": "yellow"}
NAME_WIDTH = 18


def device_header(cols: list[str], indent: int = 0) -> Text:
    """The header of device rows: fixed columns, so 7 backends still fit in 80 columns."""
    t = Text(" " * indent + f"{'GPU':>3}  {'name':<{NAME_WIDTH}}  {'cap':<4}", style="bold")
    for b in cols:
        t.append("  " + f"{b:<4}", style="bold")
    return t


def device_line(row: dict, cols: list[str], indent: int = 0) -> Text:
    """One device: index, name, capability, then each backend's state there (devices.rows)."""
    name = row["name"] if len(row["name"]) <= NAME_WIDTH else row["name"][:NAME_WIDTH - 1] + "~"
    t = Text(" " * indent + f"{row['device']:>3}  {name:<{NAME_WIDTH}}  {row['cap']:<4}")
    for b in cols:
        state = row["cells"].get(b, "-")
        t.append("  ")
        t.append(f"{state:<{max(4, len(b))}}", style=CELL_STYLE.get(state, "dim"))
    return t


def gpu_lines(report: Report) -> list[Text]:
    """A row per GPU and a column per backend, when smoke tests ran on more than one device."""
    from ..devices import NA, rows, shown_backends

    if len(((report.facts.get("smoke") or {}).get("devices")) or {}) < 2:
        return []
    all_rows = rows(report.facts, report.backends)
    cols = shown_backends(all_rows)
    out = [device_header(cols)] + [device_line(r, cols) for r in all_rows]
    if any(r["cells"].get(b) == NA for r in all_rows for b in cols):
        out.append(Text("n/a: the backend cannot run on that GPU's compute capability", style="dim"))
    return out


def versions_lines(facts: dict) -> list[str]:
    stack = view.stack(facts)
    parts = [f"{n} {d.get('version')}" for n, d in stack.items() if n != "torch"]
    if parts:
        return [", ".join(parts)]
    return ["no attention packages besides torch" if "torch" in stack else "no attention packages, and no torch"]


def nvcc_lines(facts: dict) -> list[str]:
    n = facts.get("nvcc") or {}
    out = []
    for f in n.get("found") or []:
        mark = " (used for source builds)" if f["path"] == n.get("build_choice") else ""
        out.append(f"{f['path']}: {f['version'] or f.get('error')}{mark}  [{f['source']}]")
    return out or ["no nvcc found"]


def allocator_lines(facts: dict) -> list[str]:
    env = view.env(facts)
    out = [f"{k}={env[k]}" for k in ("PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_ALLOC_CONF") if k in env]
    return out or ["not set (torch's defaults)"]


def cache_lines(facts: dict) -> list[str]:
    out = []
    for c in facts.get("caches") or []:
        if c["name"] == "fa4" and not c.get("enabled"):
            out.append(f"fa4: off ({c['var']} would be {c['path']})")
            continue
        where = "set" if c.get("set") else "default"
        out.append(f"{c['name']}: {c['path']} ({where}{', ' + c['fs_type'] if c.get('fs_type') else ''})")
    return out


def settings_lines(facts: dict) -> list[str]:
    from ..checks.settings import active, table

    on = active(view.env(facts))
    if not on:
        return [f"none of the {len({r['var'] for r in table()})} variables that slow a job down or switch a backend off is set"]
    return [f"{s['var']}={s['value']}" for s in on]


def gpu_health_lines(facts: dict) -> list[str]:
    from ..checks.gpu import health_lines

    return health_lines(facts)


def flex_lines(facts: dict) -> list[str]:
    t = view.torch(facts)
    tri = (t["probe"] or {}).get("triton") or {}
    cc = facts.get("host_cc") or {}
    if not t["installed"]:
        return [f"no torch, so no FlexAttention (triton not looked for); host C compiler: {cc.get('path') or 'none'}"]
    tri_s = f"triton {tri.get('version')}" if tri.get("ok") else ("triton not installed" if tri.get("missing") else "triton broken" if tri else "triton ?")
    return [f"{tri_s}; host C compiler: {cc.get('path') or 'none'}"]


def smoke_lines(facts: dict, verbose: bool = False) -> list[str]:
    sm = facts.get("smoke") or {}
    out = []
    for key, per in (sm.get("devices") or {}).items():
        for name, res in per.items():
            where = "cpu" if key == "cpu" else f"gpu{key}"
            bits = [f"{name} on {where}: {res.get('summary')} in {res.get('wall_seconds', 0):.1f} s"]
            cases = res.get("cases") or []
            comp = [c.get("compile_seconds") for c in cases if c.get("compile_seconds")]
            bwd = [c["bwd"].get("compile_seconds") for c in cases if (c.get("bwd") or {}).get("compile_seconds")]
            if comp and comp[0] > 0.5:
                bits.append(f"first call {comp[0]:.1f} s" + (f", first backward {bwd[0]:.1f} s" if bwd and bwd[0] > 0.5 else ""))
            for c in cases:
                if c.get("default"):
                    bits.append(f"default kernel for {c['name'].replace('sdpa-kernels ', '')}: {c['default']}")
            env = (res.get("final") or {}).get("environment") or {}
            if env.get("inductor_cache"):
                bits.append(f"Inductor cache {env['inductor_cache']}")
            if env.get("fa3_built_without"):
                bits.append("built without (FLASHATTENTION_DISABLE_*): " + ", ".join(env["fa3_built_without"]))
            cc = res.get("cache_check")
            if cc:
                bits.append("FA4 cache: warm already" if cc.get("warm_already") else
                            f"FA4 cache: second process first call {cc.get('first_seconds') or 0:.2f} s")
            for n in res.get("notes") or []:
                bits.append(n)
            out.append("; ".join(bits))
            if verbose:
                for c in cases:
                    err = c.get("rel_err")
                    mark = "ok " if c.get("ok") else "n/b " if c.get("not_built") else "FAIL"
                    out.append(f"    {mark} {c.get('name')}"
                               + (f"  rel err {err:.1e}" if isinstance(err, float) else "")
                               + (f"  {c.get('seconds', 0) * 1000:.1f} ms" if c.get("seconds") else "")
                               + (f"  ({'; '.join(c.get('problems') or [])})" if c.get("problems") else "")
                               + (f"  ({c['skipped']})" if c.get("not_built") else ""))
    return out


def dtype_by_gpu_line(cfg: dict) -> str:
    """The dtype a script leaves to the GPU: the rule, then what each GPU here makes it (checks.trainer.dtype_here)."""
    g = cfg["dtype_by_gpu"]
    line = (f"dtype: decided by the GPU: {g['bfloat16_gpu']} where {', '.join(g['probes'])}, else "
            f"{g['other_gpu'] or 'the weights dtype (not known from the file)'}")
    here = cfg.get("dtype_here")
    if here == []:
        return line + "; no GPU here to resolve it"
    if here:
        line += "; here: " + ", ".join(f"{h['dtype'] or 'the weights dtype'}{' (emulated)' if h['emulated'] else ''} "
                                       f"on {h['gpu']} ({h['capability']})" for h in here)
    return line


def dtype_summary(cfg: dict) -> str | None:
    """The summary line's dtype where the GPU decides it (the reading's `dtype_by_gpu`), worded by knowledge/trainers.toml
    [words]: the bf16 GPU's dtype and the other GPU's while no GPU is seen, then what the GPUs here run (`dtype_here`).
    None for a reading the file decides: its `dtype` as it is."""
    from ..knowledge import render, words

    g = cfg.get("dtype_by_gpu")
    if not g:
        return None
    w = words("trainers")
    other = g.get("other_gpu") or "the weights' dtype"
    here = cfg.get("dtype_here")
    if not here:
        return render(w["dtype_by_gpu_unresolved"], {"yes": g["bfloat16_gpu"], "other": other})
    def run(h: dict) -> str:
        return f"{h['dtype'] or other}{' (emulated)' if h['emulated'] else ''}"

    runs = list(dict.fromkeys(run(h) for h in here))
    if len(runs) == 1:
        return render(w["dtype_by_gpu_here"], {"dtype": runs[0]})
    return render(w["dtype_by_gpu_mixed"], {"answers": ", ".join(
        f"{r} on " + ", ".join(h["capability"] for h in here if run(h) == r) for r in runs)})


def dtype_open_line(cfg: dict) -> str:
    """A dtype the GPU's bf16 probe and something the file does not hold decide together (the reading's `dtype_open`):
    said, not guessed."""
    g = cfg["dtype_open"]
    return (f"dtype: not known from the file: {'; '.join(g['settings'])} depends on the GPU ({', '.join(g['probes'])}) "
            f"and on {', '.join(g['unknown'])}, not known here")


def dtype_by_release_line(cfg: dict) -> str:
    """A dtype the transformers release decides (the reading's `dtype_by_release`): what each release loads."""
    g = cfg["dtype_by_release"]
    after = g["after"] or "the checkpoint's own dtype"
    return (f"dtype: decided by the {g['package']} release ({g['setting']}, no autocast): {g['before']} before "
            f"{g['from']}, {after} from {g['from']}")


def unset_attention(cfg: dict) -> str:
    """The attention a reading that found no setting shows: the job still runs one (the trainer's or the model's default,
    or the trainer refuses, as a finding says), so not "no attention backend" (nu42 row 3: an ai-toolkit FLUX job, which
    runs diffusers' SDPA, was shown so)."""
    return "not known (its config file is not read)" if cfg.get("config_file_unread") else "none set in the file"


def config_lines(cfg: dict | None) -> list[str]:
    if not cfg:
        return []
    names = ", ".join(a["name"] for a in cfg.get("attention") or []) or unset_attention(cfg)
    out = [f"{cfg.get('trainer_title', cfg.get('trainer'))} {cfg.get('format')}: {cfg.get('path', '')}",
           f"attention: {names}; requires: {', '.join(cfg.get('required') or []) or 'nothing local'}"]
    by_gpu = dtype_summary(cfg)
    extra = [by_gpu if k == "dtype" and by_gpu else f"{k.replace('_', ' ')} {cfg[k]}"
             for k in ("family", "dtype", "head_dims", "batch_size", "compile_mode")
             if cfg.get(k) not in (None, [], "") or k == "dtype" and by_gpu]
    if extra:
        out.append(", ".join(extra))
    if cfg.get("dtype_by_gpu"):
        out.append(dtype_by_gpu_line(cfg))
    if cfg.get("dtype_open"):
        out.append(dtype_open_line(cfg))
    if cfg.get("dtype_by_release"):
        out.append(dtype_by_release_line(cfg))
    if cfg.get("unread"):
        # files the launcher names that are not here to read: what they set stays unknown, never guessed
        out.append("config files not read (not here, or given by its caller): " + ", ".join(cfg["unread"]) + "; what they set is unknown")
    det = cfg.get("detected") or {}
    if det:
        out.append("read as " + (f"{det.get('title') or det.get('trainer')} (--trainer)" if det.get("by") == "--trainer" else
                                 f"{det.get('title') or det.get('trainer')}, from: {', '.join(det.get('evidence') or [])}"))
    return out


FACT_LINES = {"platform": platform_lines, "versions": versions_lines, "nvcc": nvcc_lines,
              "allocator": allocator_lines, "caches": cache_lines, "flex": flex_lines, "settings": settings_lines,
              "gpu": gpu_health_lines}


def render(report: Report, console: Console, verbose: bool = False) -> None:
    if not console.no_color:
        return _render(report, console, verbose)
    # Plain text (logs, pipes): no padding at line ends.
    with console.capture() as cap:
        _render(report, console, verbose)
    out = "\n".join(line.rstrip() for line in cap.get().splitlines()) + "\n"
    console.file.write(out)
    console.file.flush()


def _render(report: Report, console: Console, verbose: bool = False) -> None:
    facts = report.facts
    head = f"attn-doctor {report.tool_version}"
    if report.options.get("from"):
        head += f" - re-evaluated from {report.options['from']}"
    console.print(Text(head, style="bold"))
    by_section: dict[str, list] = {}
    for f in report.findings:
        by_section.setdefault(f.section, []).append(f)
    for key, title in SECTIONS:
        items = by_section.get(key, [])
        try:
            if key == "smoke":
                lines = smoke_lines(facts, verbose)
            elif key == "config":
                lines = config_lines(report.config)
            else:
                lines = FACT_LINES.get(key, lambda _: [])(facts)
        except Exception as e:  # odd facts (a hand-edited saved report): the findings still show
            lines = [f"(facts not shown: {type(e).__name__}: {e})"]
        if key == "backends":
            console.print()
            console.print(Text(title, style="bold underline"))
            console.print(backend_table(report, console))
            for ln in missing_lines(report):
                console.print(ln, soft_wrap=True)
            per_gpu = gpu_lines(report)
            if per_gpu:
                console.print()
            for ln in per_gpu:
                console.print(ln)
        elif key in ("smoke", "config", "fleet", "trace", "doctor", "gpu") and not items and not lines:
            continue
        else:
            console.print()
            console.print(Text(title, style="bold underline"))
            grid = Table.grid(padding=(0, 0))
            grid.add_column(width=2)
            grid.add_column(overflow="fold")
            for ln in lines:
                grid.add_row("", Text(ln))
            console.print(grid)
        for f in items:
            _finding(console, f, verbose)
    _summary(report, console)


def _finding(console: Console, f, verbose: bool, where: str | None = None) -> None:
    """  WARNING  what is wrong  [id]
                 on: which members (the fleet view)
                 fix: what to paste   (never wrapped, so a copied command stays whole)
                 seen: the evidence (errors, or everything with --verbose)"""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(width=1)
    grid.add_column(width=7, no_wrap=True)
    grid.add_column(overflow="fold")
    title = Text(f.title)
    title.append(f"  [{f.id}]", style="dim")
    grid.add_row("", Text(f.severity.upper(), style=SEV_STYLE.get(f.severity, "")), title)
    if where:
        grid.add_row("", "", Text(where, style="dim"))
    console.print(grid)
    if f.fix:
        console.print(Text("          fix: ", style="bold") + Text(f.fix), soft_wrap=True)
    if f.params.get("plan"):  # require.not-ok's install plan, whole and unindented, as `fix --require NAME` prints it
        for ln in str(f.params["plan"]).splitlines():
            console.print(Text(ln), soft_wrap=True)
    if f.detail and (verbose or f.severity == "error"):
        detail = f.detail if verbose else (f.detail.strip().splitlines() or [""])[-1][:200]
        if detail and detail not in f.title:
            grid = Table.grid(padding=(0, 0))
            grid.add_column(width=10)
            grid.add_column(overflow="fold")
            grid.add_row("", Text("seen: " + detail, style="dim"))
            console.print(grid)


def _summary(report: Report, console: Console) -> None:
    e, w, i = report.count("error"), report.count("warning"), report.count("info")
    console.print()
    style = "bold red" if report.exit_code else "bold green"
    req = ""
    if report.required:
        req = "; required: " + ", ".join(f"{n} {report.backends.get(n, {}).get('status', '?')}" for n in report.required)
    ign = f", {report.ignored} ignored" if report.ignored else ""
    console.print(Text(f"{e} error(s), {w} warning(s), {i} note(s){ign}{req} - exit {report.exit_code}", style=style))
    for line in next_steps(report):  # the problem list wraps; the command line never does
        console.print(line, soft_wrap=line.plain.startswith("fix: "))


def next_steps(report: Report) -> list[Text]:
    """The problems by id, most important first, and the command that fixes what it can."""
    if not report.findings:
        return []
    from ..envfile import plan
    from ..model import sort_findings

    ordered = sort_findings(report.findings)
    ids = list(dict.fromkeys(f.id for f in ordered))
    out = [Text("problems, most important first: " + ", ".join(ids))]
    try:
        exports = plan(report).exports
    except Exception:  # odd facts (a hand-edited saved report): still say where the fixes are
        exports = []
    every = fix_command(report)
    top = ordered[0]
    by_env = any(top.id in x.ids for x in exports)
    if top.fix and not by_env and top.severity == "error":  # the most important problem's own fix leads
        then = every
        if f'"{VENV}"/bin/python' in top.fix:  # it installs into a venv made from the OS's Python: that venv is next
            then = fix_command(report, into=True)
        out.append(Text("fix: ", style="bold") + Text(top.fix.split("   # ")[0]) +
                   Text(f"   # {top.id}; then: {then} lists every fix", style="dim"))
    elif exports:
        out.append(Text("fix: ", style="bold") + Text(f"{fix_command(report, '--write-env')} && . ./env.sh") +
                   Text(f"   # changes {len(exports)} variable(s); {every} lists every fix", style="dim"))
    else:
        out.append(Text("fix: ", style="bold") + Text(every) +
                   Text("   # every fix, most important first", style="dim"))
    return out


def fix_command(report: Report, *args: str, into: bool = False) -> str:
    """`attn-doctor fix` for this report: its saved file, its config, the env it checked (`into`: the env its install
    lines install into, a new venv where the checked one is the OS's own Python)."""
    from ..advice import doctor
    from ..target import from_facts

    opts = report.options or {}
    extra = ["--config", shlex.quote(str(opts["config"]))] if opts.get("config") else []
    if opts.get("config") and opts.get("trainer"):
        extra += ["--trainer", shlex.quote(str(opts["trainer"]))]
    for name in opts.get("require") or []:
        extra += ["--require", name]
    target = from_facts(report.facts)
    if into:
        target = target.installed_into()
    if opts.get("from") and target.python != VENV:  # the saved report judged with what this run was given (a config,
        # --require) as check judged it
        return " ".join(["attn-doctor fix --from", shlex.quote(str(opts["from"])), *extra, *args])
    return doctor(target, "fix", *extra, *args)
